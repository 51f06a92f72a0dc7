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
//! `conformance/PROTOCOL.md` specifies every message in prose, with
//! examples that `tests/it/protocol_doc.rs` checks against both.

use std::borrow::Cow;
use std::collections::BTreeMap;
use std::fmt;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::case::Place;
use crate::record::{Record, RecordReason};
use crate::rules::{GameResult, IllegalReason, Player};

/// A protocol version, `MAJOR.MINOR`, written as a JSON string (`"1.0"`).
///
/// Both sides of a conversation must share the major version; a minor
/// version only adds optional fields, so any `1.x` talks to any `1.y`.
/// Runners before 1.0 sent the bare integer `1`; it is still read, as
/// `1.0`, so an old runner can talk to a new engine.
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct ProtocolVersion {
    pub major: u32,
    pub minor: u32,
}

/// The protocol version this crate speaks.
pub const PROTOCOL_VERSION: ProtocolVersion = ProtocolVersion { major: 1, minor: 1 };

impl ProtocolVersion {
    /// Reads `MAJOR.MINOR` (two runs of decimal digits joined by one dot).
    pub fn parse(text: &str) -> Option<ProtocolVersion> {
        let (major, minor) = text.split_once('.')?;
        let number = |t: &str| {
            (!t.is_empty() && t.bytes().all(|b| b.is_ascii_digit()))
                .then(|| t.parse::<u32>().ok())
                .flatten()
        };
        Some(ProtocolVersion {
            major: number(major)?,
            minor: number(minor)?,
        })
    }

    /// Whether a peer speaking `self` can talk to this crate.
    pub fn is_compatible(self) -> bool {
        self.major == PROTOCOL_VERSION.major
    }
}

impl fmt::Display for ProtocolVersion {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}.{}", self.major, self.minor)
    }
}

impl Serialize for ProtocolVersion {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for ProtocolVersion {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        use serde::de::Error;
        match Value::deserialize(d)? {
            Value::String(s) => ProtocolVersion::parse(&s).ok_or_else(|| {
                D::Error::custom(format!(
                    "'{s}' is not a protocol version: write MAJOR.MINOR, such as \"1.0\""
                ))
            }),
            // The integer form of runners before 1.0 (`"protocol": 1`).
            Value::Number(n) => n
                .as_u64()
                .and_then(|m| u32::try_from(m).ok())
                .map(|major| ProtocolVersion { major, minor: 0 })
                .ok_or_else(|| D::Error::custom(format!("{n} is not a protocol version"))),
            other => Err(D::Error::custom(format!(
                "{other} is not a protocol version: write MAJOR.MINOR, such as \"1.0\""
            ))),
        }
    }
}

impl JsonSchema for ProtocolVersion {
    fn schema_name() -> Cow<'static, str> {
        "ProtocolVersion".into()
    }
    fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
        schemars::json_schema!({
            "description": "`MAJOR.MINOR`; peers must share the major version.",
            "type": "string",
            "pattern": "^[0-9]+\\.[0-9]+$"
        })
    }
}

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
    Hello { protocol: ProtocolVersion },
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
#[serde(deny_unknown_fields)]
pub struct VariantInfo {
    pub name: String,
    /// Dotted integers, such as `0.2`: the version of the variant's rules
    /// document the engine implements.
    pub rules: String,
}

/// The reply to `hello`.
#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema, PartialEq, Eq)]
pub struct Hello {
    /// The protocol version the engine speaks (same major as the runner's).
    pub protocol: ProtocolVersion,
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

/// Reply fields whose names start with this are extensions: a runner
/// ignores them, wherever they appear at the top level of a reply.
pub const EXTENSION_PREFIX: &str = "x-";

/// The fields an `ok` reply to `command` may carry besides `id`, `ok` and
/// extensions; any other field makes the reply malformed. Kept equal to
/// the reply types' own fields by a test.
pub fn reply_fields(command: &str) -> &'static [&'static str] {
    match command {
        "hello" => &[
            "protocol",
            "name",
            "version",
            "variants",
            "capabilities",
            "commands",
            "boards",
        ],
        "legal_actions" => &["actions"],
        "check_action" => &["legal", "reason", "canonical"],
        "perft" => &["nodes", "divide"],
        "apply" => &["position"],
        "status" => &["position", "to_move", "in_check", "result"],
        "key" => &["key"],
        "verify_record" => &[
            "verdict", "result", "plies", "ply", "reason", "illegal", "message",
        ],
        "geometry" => &["answer"],
        _ => &[],
    }
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

/// The capability by which an engine says it reads requests while earlier
/// replies are still unread (protocol 1.1).
pub const PIPELINING: &str = "pipelining";

#[cfg(test)]
mod tests {
    use super::*;

    /// The property names of a type's schema, across the branches of a
    /// tagged enum.
    fn properties<T: JsonSchema>() -> std::collections::BTreeSet<String> {
        fn walk(v: &Value, out: &mut std::collections::BTreeSet<String>) {
            if let Some(p) = v.get("properties").and_then(Value::as_object) {
                out.extend(p.keys().cloned());
            }
            for key in ["oneOf", "anyOf"] {
                for branch in v.get(key).and_then(Value::as_array).into_iter().flatten() {
                    walk(branch, out);
                }
            }
        }
        let schema = serde_json::to_value(schemars::schema_for!(T)).unwrap();
        let mut out = Default::default();
        walk(&schema, &mut out);
        out
    }

    #[test]
    fn reply_fields_are_the_reply_types_fields() {
        let listed = |cmd: &str| -> std::collections::BTreeSet<String> {
            reply_fields(cmd).iter().map(|s| s.to_string()).collect()
        };
        assert_eq!(listed("hello"), properties::<Hello>());
        assert_eq!(listed("legal_actions"), properties::<ActionsReply>());
        assert_eq!(listed("check_action"), properties::<CheckActionReply>());
        assert_eq!(listed("perft"), properties::<PerftReply>());
        assert_eq!(listed("apply"), properties::<ApplyReply>());
        assert_eq!(listed("status"), properties::<StatusReply>());
        assert_eq!(listed("key"), properties::<KeyReply>());
        assert_eq!(listed("verify_record"), properties::<RecordReply>());
        assert_eq!(listed("geometry"), properties::<GeometryReply>());
        for cmd in COMMANDS {
            assert!(!reply_fields(cmd).is_empty(), "{cmd}");
        }
    }

    #[test]
    fn protocol_versions_read_strings_and_the_old_integer() {
        let read = |v: Value| serde_json::from_value::<ProtocolVersion>(v);
        let one_zero = ProtocolVersion { major: 1, minor: 0 };
        assert_eq!(read("1.0".into()).unwrap(), one_zero);
        assert_eq!(read("1.1".into()).unwrap(), PROTOCOL_VERSION);
        assert_eq!(
            read("1.12".into()).unwrap(),
            ProtocolVersion {
                major: 1,
                minor: 12
            }
        );
        assert_eq!(read(1.into()).unwrap(), one_zero);
        for bad in ["1", "1.", ".1", "1.0.0", "v1.0", "1.x", ""] {
            assert!(read(bad.into()).is_err(), "{bad}");
        }
        assert!(read(serde_json::json!(1.5)).is_err());
        assert_eq!(serde_json::to_value(PROTOCOL_VERSION).unwrap(), "1.1");
    }
}
