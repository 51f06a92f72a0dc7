//! The questions `seams fuzz` asks, the reference's answers to them, and
//! how an engine's reply is judged against those answers.
//!
//! The reference's answer is built from the same [`Walk`] that plays the
//! game, in the shape of the protocol's reply, so that the engine's reply
//! and the reference's can be shown side by side and matched against the
//! patterns of an expectations file.

use std::collections::{BTreeMap, BTreeSet};

use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

use crate::conformance::case::Place;
use crate::conformance::engine::ErrorKind;
use crate::conformance::engine::{AskError, Engine};
use crate::conformance::protocol::{
    ApplyReply, Command, EXTENSION_PREFIX, Hello, PerftReply, StatusReply,
};
use crate::conformance::runner::OutcomeKind;
use crate::variant::{At, Variant};
use crate::walk::Walk;

/// One kind of question, named by the protocol command that asks it.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Question {
    /// The legal action set.
    LegalActions,
    /// The position after one action.
    Apply,
    /// Side to move, check, result and position.
    Status,
    /// The repetition key, judged by how keys group positions.
    Key,
    /// Perft divide at depth 2.
    Perft,
}

impl Question {
    pub const ALL: [Question; 5] = [
        Question::LegalActions,
        Question::Apply,
        Question::Status,
        Question::Key,
        Question::Perft,
    ];

    /// The protocol command.
    pub fn command(self) -> &'static str {
        match self {
            Question::LegalActions => "legal_actions",
            Question::Apply => "apply",
            Question::Status => "status",
            Question::Key => "key",
            Question::Perft => "perft",
        }
    }

    /// The capability a `hello` declares for it (`apply` needs none).
    fn capability(self) -> Option<&'static str> {
        match self {
            Question::LegalActions => Some("legal-actions"),
            Question::Apply => None,
            Question::Status => Some("play"),
            Question::Key => Some("keys"),
            Question::Perft => Some("perft"),
        }
    }
}

/// The perft depth of the occasional divide question: deep enough to
/// check every reply's moves, shallow enough to cost about one move
/// generation per legal action.
pub const DIVIDE_DEPTH: u32 = 2;

/// The questions an engine's `hello` declares: its command listed and,
/// where the question has one, its capability.
pub fn declared(hello: &Hello) -> Vec<Question> {
    Question::ALL
        .into_iter()
        .filter(|q| {
            hello.commands.iter().any(|c| c == q.command())
                && q.capability()
                    .is_none_or(|cap| hello.capabilities.iter().any(|c| c == cap))
        })
        .collect()
}

/// How a question was put: as a position text (with at most the one
/// action `apply` applies), or as the game's start and every action since.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Form {
    Text,
    Moves,
}

/// Where the engine's reply differs from the reference's answer.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Difference {
    /// `fail` for a different answer; an error kind when there was none.
    pub kind: OutcomeKind,
    pub detail: String,
    /// For action sets: what the reference has and the engine lacks.
    pub missing: Vec<String>,
    /// For action sets: what only the engine has.
    pub extra: Vec<String>,
    /// The reference's answer, shaped as the protocol's reply.
    pub reference: Value,
    /// The engine's reply (without `id`, `ok` and extensions), or
    /// `{"error": message}` when it gave no answer.
    pub engine: Value,
}

/// The engine's reply to one question, judged.
#[derive(Clone, Debug, PartialEq)]
pub enum Judged {
    Same,
    Differs(Box<Difference>),
    /// The engine answered `unsupported`.
    Unsupported,
}

/// The reference's answer to one question, kept until the engine's reply
/// is judged (which may be some positions later); it becomes JSON only
/// when the engine disagrees.
#[derive(Clone, Debug)]
pub enum Expected {
    Actions(Vec<String>),
    Position(String),
    Status {
        position: String,
        to_move: crate::rules::Player,
        in_check: bool,
        result: Option<crate::rules::GameResult>,
    },
    Key(String),
    Divide(BTreeMap<String, u64>),
}

impl Expected {
    /// The answer as the protocol's reply would carry it.
    pub fn to_value(&self) -> Value {
        match self {
            Expected::Actions(a) => json!({ "actions": a }),
            Expected::Position(p) => json!({ "position": p }),
            Expected::Status {
                position,
                to_move,
                in_check,
                result,
            } => json!({
                "position": position,
                "to_move": to_move,
                "in_check": in_check,
                "result": result,
            }),
            Expected::Key(k) => json!({ "key": k }),
            Expected::Divide(d) => json!({ "nodes": d.values().sum::<u64>(), "divide": d }),
        }
    }
}

/// The reference's answer to `question` about the walk's current
/// position; `alone` judges the position as a start (`status` asked with
/// a position text), otherwise with the game's history.
pub fn reference_answer(question: Question, walk: &dyn Walk, alone: bool) -> Expected {
    match question {
        Question::LegalActions => Expected::Actions(walk.actions().to_vec()),
        Question::Apply => Expected::Position(walk.position().to_string()),
        Question::Status => Expected::Status {
            position: walk.position().to_string(),
            to_move: walk.to_move(),
            in_check: walk.in_check(),
            result: if alone {
                walk.result_alone()
            } else {
                walk.result()
            },
        },
        Question::Key => Expected::Key(walk.key().to_string()),
        Question::Perft => Expected::Divide(walk.divide(DIVIDE_DEPTH).into_iter().collect()),
    }
}

/// The protocol command for `question` in `variant` at `place`.
pub fn command(question: Question, variant: &str, place: Place) -> Command {
    let variant = variant.to_string();
    match question {
        Question::LegalActions => Command::LegalActions { variant, at: place },
        Question::Apply => Command::Apply { variant, at: place },
        Question::Status => Command::Status { variant, at: place },
        Question::Key => Command::Key { variant, at: place },
        Question::Perft => Command::Perft {
            variant,
            at: place,
            depth: DIVIDE_DEPTH,
            divide: true,
        },
    }
}

/// Sends the question and judges the reply against `reference`. Keys are
/// not judged here: only how they group positions says anything (see
/// [`KeyGroups`]); a `key` reply comes back as `Same` with its key read by
/// [`ask_key`].
pub fn ask(
    engine: &mut dyn Engine,
    variant: &dyn Variant,
    question: Question,
    place: Place,
    reference: &Expected,
) -> Judged {
    let reply = engine.ask(&command(question, variant.name(), place));
    judge(variant, reference, reply)
}

/// The key in a reply to `key`; `Err` holds the judged failure.
pub fn read_key(reply: Result<Value, AskError>, reference: &Expected) -> Result<String, Judged> {
    match reply {
        Ok(reply) => match reply.get("key").and_then(Value::as_str) {
            Some(k) => Ok(k.to_string()),
            None => Err(failed(
                reference,
                ErrorKind::Malformed,
                "the reply to 'key' has no string 'key'".into(),
            )),
        },
        Err(AskError::Unsupported) => Err(Judged::Unsupported),
        Err(AskError::Failed { kind, message }) => Err(failed(reference, kind, message)),
    }
}

fn failed(reference: &Expected, kind: ErrorKind, message: String) -> Judged {
    Judged::Differs(Box::new(Difference {
        kind: outcome_kind(kind),
        detail: format!("{}: {message}", kind.name()),
        missing: vec![],
        extra: vec![],
        reference: reference.to_value(),
        engine: json!({ "error": message }),
    }))
}

fn outcome_kind(kind: ErrorKind) -> OutcomeKind {
    match kind {
        ErrorKind::Crash => OutcomeKind::Crash,
        ErrorKind::Timeout => OutcomeKind::Timeout,
        ErrorKind::Malformed => OutcomeKind::Malformed,
        ErrorKind::WrongId => OutcomeKind::WrongId,
        ErrorKind::Engine => OutcomeKind::EngineError,
    }
}

/// The reply's own fields: `id`, `ok` and extensions dropped.
fn fields_of(reply: &Value) -> Value {
    match reply {
        Value::Object(map) => Value::Object(
            map.iter()
                .filter(|(k, _)| k.as_str() != "id" && k.as_str() != "ok")
                .filter(|(k, _)| !k.starts_with(EXTENSION_PREFIX))
                .map(|(k, v)| (k.clone(), v.clone()))
                .collect(),
        ),
        other => other.clone(),
    }
}

/// Judges an engine's reply against the reference's answer.
pub fn judge(
    variant: &dyn Variant,
    reference: &Expected,
    reply: Result<Value, AskError>,
) -> Judged {
    let reply = match reply {
        Ok(r) => r,
        Err(AskError::Unsupported) => return Judged::Unsupported,
        Err(AskError::Failed { kind, message }) => return failed(reference, kind, message),
    };
    let compared = match reference {
        Expected::Actions(want) => compare_actions(want, &reply),
        Expected::Position(want) => compare_apply(variant, want, &reply),
        Expected::Status {
            position,
            to_move,
            in_check,
            result,
        } => compare_status(variant, (position, *to_move, *in_check, *result), &reply),
        Expected::Divide(want) => compare_divide(want, &reply),
        Expected::Key(_) => Ok(None),
    };
    match compared {
        Ok(None) => Judged::Same,
        Ok(Some((detail, missing, extra))) => Judged::Differs(Box::new(Difference {
            kind: OutcomeKind::Fail,
            detail,
            missing,
            extra,
            reference: reference.to_value(),
            engine: fields_of(&reply),
        })),
        Err(message) => failed(reference, ErrorKind::Malformed, message),
    }
}

/// What differs: a sentence, then missing and extra set members.
type Differing = Option<(String, Vec<String>, Vec<String>)>;

fn read<'v, T: serde::Deserialize<'v>>(v: &'v Value, command: &str) -> Result<T, String> {
    T::deserialize(v)
        .map_err(|e| format!("the reply to '{command}' does not have the expected fields: {e}"))
}

/// The reply's `actions`, without copying them.
fn action_list(reply: &Value) -> Result<Vec<&str>, String> {
    let bad = || {
        "the reply to 'legal_actions' does not have the expected fields: 'actions' must be a list of strings".to_string()
    };
    reply
        .get("actions")
        .and_then(Value::as_array)
        .ok_or_else(bad)?
        .iter()
        .map(|a| a.as_str().ok_or_else(bad))
        .collect()
}

fn compare_actions(want: &[String], reply: &Value) -> Result<Differing, String> {
    let got = action_list(reply)?;
    // Most engines list the actions sorted, like the reference: equal
    // lists need no set.
    if got.len() == want.len() && got.iter().zip(want).all(|(g, w)| *g == w.as_str()) {
        return Ok(None);
    }
    // The reference's list is sorted and has no repeats.
    let known = |a: &str| want.binary_search_by(|w| w.as_str().cmp(a)).is_ok();
    let got_set: BTreeSet<&str> = got.iter().copied().collect();
    if got_set.len() == want.len() && got_set.iter().all(|a| known(a)) {
        return Ok((got.len() != got_set.len())
            .then(|| ("the engine lists an action twice".into(), vec![], vec![])));
    }
    let missing: Vec<String> = want
        .iter()
        .filter(|w| !got_set.contains(w.as_str()))
        .cloned()
        .collect();
    let extra: Vec<String> = got_set
        .iter()
        .filter(|a| !known(a))
        .map(|a| a.to_string())
        .collect();
    Ok(Some((
        format!(
            "legal actions differ: missing {}; extra {}",
            list(&missing),
            list(&extra)
        ),
        missing,
        extra,
    )))
}

fn list(items: &[String]) -> String {
    if items.is_empty() {
        "none".into()
    } else {
        items.join(" ")
    }
}

/// A position text as the reference writes it, or `None` when the
/// reference cannot read it.
pub fn normal_position(variant: &dyn Variant, text: &str) -> Option<String> {
    variant
        .reached(&At {
            position: Some(text),
            moves: &[],
        })
        .ok()
        .map(|(p, _)| p)
}

/// Compares an engine's position text with the reference's by meaning.
fn same_position(variant: &dyn Variant, reference: &str, engine: &str) -> bool {
    reference == engine || normal_position(variant, engine).as_deref() == Some(reference)
}

fn compare_apply(variant: &dyn Variant, want: &str, reply: &Value) -> Result<Differing, String> {
    let got: ApplyReply = read(reply, "apply")?;
    Ok((!same_position(variant, want, &got.position)).then(|| {
        (
            format!(
                "the position after the action differs: the reference reaches {want}, the engine {}",
                crate::quote::excerpt(&got.position)
            ),
            vec![],
            vec![],
        )
    }))
}

type StatusParts<'a> = (
    &'a str,
    crate::rules::Player,
    bool,
    Option<crate::rules::GameResult>,
);

fn compare_status(
    variant: &dyn Variant,
    (position, to_move, in_check, result): StatusParts,
    reply: &Value,
) -> Result<Differing, String> {
    let got: StatusReply = read(reply, "status")?;
    let mut differ = Vec::new();
    if result != got.result {
        differ.push(format!(
            "result {} (the reference: {})",
            json!(got.result),
            json!(result)
        ));
    }
    if to_move != got.to_move {
        differ.push(format!(
            "to move {} (the reference: {})",
            json!(got.to_move),
            json!(to_move)
        ));
    }
    if in_check != got.in_check {
        differ.push(format!(
            "in check {} (the reference: {in_check})",
            got.in_check
        ));
    }
    if !same_position(variant, position, &got.position) {
        differ.push(format!(
            "position {} (the reference: {position})",
            crate::quote::excerpt(&got.position)
        ));
    }
    Ok((!differ.is_empty()).then(|| {
        (
            format!("status differs: {}", differ.join("; ")),
            vec![],
            vec![],
        )
    }))
}

fn compare_divide(want_div: &BTreeMap<String, u64>, reply: &Value) -> Result<Differing, String> {
    let got: PerftReply = read(reply, "perft")?;
    let want_nodes: u64 = want_div.values().sum();
    let Some(got_div) = got.divide else {
        return Err("asked for divide, the perft reply has no 'divide'".into());
    };
    if want_nodes == got.nodes && *want_div == got_div {
        return Ok(None);
    }
    let missing: Vec<String> = want_div
        .keys()
        .filter(|k| !got_div.contains_key(*k))
        .cloned()
        .collect();
    let extra: Vec<String> = got_div
        .keys()
        .filter(|k| !want_div.contains_key(*k))
        .cloned()
        .collect();
    let counts: Vec<String> = want_div
        .iter()
        .filter_map(|(k, n)| {
            got_div
                .get(k)
                .filter(|m| *m != n)
                .map(|m| format!("{k}: {m} (the reference: {n})"))
        })
        .collect();
    Ok(Some((
        format!(
            "perft({DIVIDE_DEPTH}) is {} (the reference: {}); missing {}; extra {}; counts differ at {}",
            got.nodes,
            want_nodes,
            list(&missing),
            list(&extra),
            list(&counts)
        ),
        missing,
        extra,
    )))
}

/// How an engine's keys group positions, against the reference's: equal
/// reference keys must get equal engine keys, and different ones
/// different keys. Each side's key remembers the first position text
/// that had it, so a contradiction names two positions.
///
/// A game keeps its own groups (at most one entry per ply, so at most
/// `MAX_PLIES` + 1): keys are compared among the positions of one game,
/// never across games, so that every game is judged the same whichever
/// games were played before it, and the shards of a run find what one run
/// finds (`seams merge`).
#[derive(Default)]
pub struct KeyGroups {
    by_reference: std::collections::HashMap<String, (String, String)>,
    by_engine: std::collections::HashMap<String, (String, String)>,
}

/// Two positions whose keys group differently.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KeyConflict {
    /// The earlier position's text.
    pub other: String,
    /// Whether the reference counts the two positions as the same.
    pub same: bool,
}

impl KeyGroups {
    /// Records one position's keys; a contradiction with an earlier one is
    /// returned.
    pub fn check(&mut self, reference: &str, engine: &str, text: &str) -> Option<KeyConflict> {
        if let Some((e, other)) = self.by_reference.get(reference)
            && e != engine
        {
            return Some(KeyConflict {
                other: other.clone(),
                same: true,
            });
        }
        if let Some((r, other)) = self.by_engine.get(engine)
            && r != reference
        {
            return Some(KeyConflict {
                other: other.clone(),
                same: false,
            });
        }
        if !self.by_reference.contains_key(reference) {
            self.by_reference.insert(
                reference.to_string(),
                (engine.to_string(), text.to_string()),
            );
            self.by_engine.insert(
                engine.to_string(),
                (reference.to_string(), text.to_string()),
            );
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_must_group_alike() {
        let mut g = KeyGroups::default();
        assert_eq!(g.check("r1", "e1", "p1"), None);
        assert_eq!(g.check("r2", "e2", "p2"), None);
        // The engine's own format is fine as long as it groups alike.
        assert_eq!(g.check("r1", "e1", "p3"), None);
        assert_eq!(
            g.check("r1", "e9", "p4"),
            Some(KeyConflict {
                other: "p1".into(),
                same: true
            })
        );
        assert_eq!(
            g.check("r3", "e2", "p5"),
            Some(KeyConflict {
                other: "p2".into(),
                same: false
            })
        );
    }

    #[test]
    fn questions_follow_the_hello() {
        let hello = crate::conformance::reference::Reference::builtin().hello();
        assert_eq!(declared(&hello), Question::ALL.to_vec());
        let mut bare = hello.clone();
        bare.capabilities.retain(|c| c != "keys" && c != "perft");
        bare.commands.retain(|c| c != "apply");
        assert_eq!(
            declared(&bare),
            vec![Question::LegalActions, Question::Status]
        );
    }
}
