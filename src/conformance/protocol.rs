//! The engine protocol: JSON lines over an engine's stdin and stdout.
//!
//! The runner writes one [`Request`] per line and reads one reply per line.
//! Every request carries an `id` that its reply repeats. A reply is one of
//!
//! - `{"id": n, "ok": true, …fields of the command's reply…}`,
//! - `{"id": n, "unsupported": true}` — the engine does not answer this,
//! - `{"id": n, "error": "message"}` — the question could not be answered.
//!
//! The first request is always `hello` with `id` 0; its reply ([`Hello`])
//! says what the engine offers. These types are the protocol's definition:
//! `conformance/schema/protocol.schema.json` is generated from them, and
//! `conformance/README.md` shows example messages.

use std::collections::BTreeMap;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::case::Place;
use crate::rules::{GameResult, IllegalReason, Player};
use crate::variant::{Record, RecordReason};

/// The protocol version this crate speaks.
pub const PROTOCOL_VERSION: u32 = 1;

/// Every command name, as `hello` lists them.
pub const COMMANDS: [&str; 9] = [
    "hello",
    "legal_actions",
    "check_action",
    "perft",
    "apply",
    "status",
    "key",
    "verify_record",
    "geometry",
];

/// One request line.
#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema)]
pub struct Request {
    /// Chosen by the runner; the reply repeats it. `hello` is always 0.
    pub id: u64,
    #[serde(flatten)]
    pub command: Command,
}

/// What a request asks. Positions are named like corpus cases: an optional
/// `position` text (default: the variant's initial position) and `moves`
/// played from it first.
#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema)]
#[serde(tag = "cmd", rename_all = "snake_case")]
pub enum Command {
    /// The handshake. Reply: [`Hello`].
    Hello { protocol: u32 },
    /// Every legal action, in canonical notation. Reply: [`ActionsReply`].
    LegalActions {
        variant: String,
        #[serde(flatten)]
        at: Place,
    },
    /// Whether one action is legal, and why not. Reply: [`CheckActionReply`].
    CheckAction {
        variant: String,
        #[serde(flatten)]
        at: Place,
        action: String,
    },
    /// The perft count; with `divide`, also the count below each legal
    /// action. Reply: [`PerftReply`].
    Perft {
        variant: String,
        #[serde(flatten)]
        at: Place,
        depth: u32,
        #[serde(default)]
        divide: bool,
    },
    /// The position after the moves, game-end rules ignored. Reply:
    /// [`ApplyReply`].
    Apply {
        variant: String,
        #[serde(flatten)]
        at: Place,
    },
    /// The moves played as a game: position, side to move, check and
    /// result. Reply: [`StatusReply`].
    Status {
        variant: String,
        #[serde(flatten)]
        at: Place,
    },
    /// The repetition key of the position after the moves. Reply:
    /// [`KeyReply`].
    Key {
        variant: String,
        #[serde(flatten)]
        at: Place,
    },
    /// Replay a game record and judge it. Reply: [`RecordReply`].
    VerifyRecord { record: Record },
    /// A geometry question about a board: a corpus `check` object without
    /// its `expect`. Reply: [`GeometryReply`], whose `answer` has the shape
    /// of that check kind's `expect`.
    Geometry { board: String, question: Value },
}

impl Command {
    /// The `cmd` name on the wire.
    pub fn name(&self) -> &'static str {
        match self {
            Command::Hello { .. } => "hello",
            Command::LegalActions { .. } => "legal_actions",
            Command::CheckAction { .. } => "check_action",
            Command::Perft { .. } => "perft",
            Command::Apply { .. } => "apply",
            Command::Status { .. } => "status",
            Command::Key { .. } => "key",
            Command::VerifyRecord { .. } => "verify_record",
            Command::Geometry { .. } => "geometry",
        }
    }
}

/// A variant the engine plays, with the rules version it implements.
#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema, PartialEq, Eq)]
pub struct VariantInfo {
    pub name: String,
    pub rules: String,
}

/// The reply to `hello`.
#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema, PartialEq, Eq)]
pub struct Hello {
    pub name: String,
    pub version: String,
    #[serde(default)]
    pub variants: Vec<VariantInfo>,
    /// Capabilities as corpus cases name them: `geometry`, `legal-actions`,
    /// `perft`, `play`, `keys`, `records`, and rule features such as
    /// `drops` or `castling`.
    #[serde(default)]
    pub capabilities: Vec<String>,
    /// The commands it answers (see [`COMMANDS`]).
    #[serde(default)]
    pub commands: Vec<String>,
    /// The boards it answers geometry questions about; absent means it
    /// will say `unsupported` for boards it does not know.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub boards: Option<Vec<String>>,
}

/// Reply to `legal_actions`.
#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema, PartialEq, Eq)]
pub struct ActionsReply {
    pub actions: Vec<String>,
}

/// Reply to `check_action`.
#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema, PartialEq, Eq)]
pub struct CheckActionReply {
    pub legal: bool,
    /// For an illegal action: the reason code.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<IllegalReason>,
    /// For a legal action: its canonical notation.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub canonical: Option<String>,
}

/// Reply to `perft`.
#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema, PartialEq, Eq)]
pub struct PerftReply {
    pub nodes: u64,
    /// Present when `divide` was asked: action → count below it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub divide: Option<BTreeMap<String, u64>>,
}

/// Reply to `apply`.
#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema, PartialEq, Eq)]
pub struct ApplyReply {
    pub position: String,
}

/// Reply to `status`.
#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema, PartialEq, Eq)]
pub struct StatusReply {
    pub position: String,
    pub to_move: Player,
    pub in_check: bool,
    /// `null` while the game goes on.
    pub result: Option<GameResult>,
}

/// Reply to `key`.
#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema, PartialEq, Eq)]
pub struct KeyReply {
    pub key: String,
}

/// Reply to `verify_record`.
#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema, PartialEq, Eq)]
#[serde(tag = "verdict", rename_all = "kebab-case")]
pub enum RecordReply {
    Accepted {
        result: Option<GameResult>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        plies: Option<usize>,
    },
    Rejected {
        /// 1-based ply of the first bad action; 0 for the header; one past
        /// the last action for a bad result or final position.
        ply: usize,
        reason: RecordReason,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        illegal: Option<IllegalReason>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        message: Option<String>,
    },
}

/// Reply to `geometry`.
#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema, PartialEq)]
pub struct GeometryReply {
    /// Shaped like the check kind's `expect` (for `invariants`, every field
    /// the engine knows; the runner compares the ones the case lists).
    pub answer: Value,
}

/// Any reply line, for the schema. The runner reads replies by hand so that
/// a malformed one is reported precisely instead of failing to parse.
#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema)]
#[serde(untagged)]
pub enum Reply {
    Ok {
        id: u64,
        /// Always `true`.
        ok: bool,
        #[serde(flatten)]
        body: ReplyBody,
    },
    Unsupported {
        id: u64,
        /// Always `true`.
        unsupported: bool,
    },
    Error {
        /// `null` when the request line was not readable enough to have one.
        id: Option<u64>,
        error: String,
    },
}

/// The fields of an `ok` reply, by command.
#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema)]
#[serde(untagged)]
pub enum ReplyBody {
    Hello(Hello),
    Actions(ActionsReply),
    CheckAction(CheckActionReply),
    Perft(PerftReply),
    Apply(ApplyReply),
    Status(StatusReply),
    Key(KeyReply),
    Record(RecordReply),
    Geometry(GeometryReply),
}

/// Both directions, for `protocol.schema.json`.
#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema)]
#[serde(untagged)]
pub enum Message {
    Request(Request),
    Reply(Reply),
}

/// An `ok` reply line with the given fields.
pub fn ok_line(id: u64, body: &impl Serialize) -> Value {
    let mut v = serde_json::to_value(body).unwrap_or_else(|_| Value::Object(Default::default()));
    if let Value::Object(map) = &mut v {
        map.insert("id".into(), id.into());
        map.insert("ok".into(), true.into());
    }
    v
}

/// An `unsupported` reply line.
pub fn unsupported_line(id: u64) -> Value {
    serde_json::json!({"id": id, "unsupported": true})
}

/// An `error` reply line.
pub fn error_line(id: Option<u64>, message: impl Into<String>) -> Value {
    serde_json::json!({"id": id, "error": message.into()})
}
