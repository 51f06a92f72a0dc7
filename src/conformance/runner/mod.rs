//! The conformance runner: asks an engine each corpus question and judges
//! the reply.
//!
//! [`check_case`] turns one case into protocol requests, sends them to any
//! [`Engine`] and compares the replies with the case's `expect`, naming what
//! differs (for action sets: the missing and the extra actions). Every way a
//! reply can go wrong has its own [`Outcome`]: a wrong answer is a `fail`;
//! an engine that declines is `unsupported`; a crash, a timeout, a
//! malformed reply, a reply to another id and the engine's own error
//! message are distinct [`ErrorKind`]s.

use std::collections::{BTreeMap, BTreeSet};

use schemars::JsonSchema;
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::case::{
    ActionExpect, Case, Check, KeyRelation, Place, PlayExpect, RecordExpect, Subject,
};
use super::engine::{AskError, Engine, ErrorKind};
use super::protocol::{
    ActionsReply, CheckActionReply, Command, Hello, KeyReply, PerftReply, RecordReply, StatusReply,
};
use crate::record::Record;
use crate::variant::{At, Variant};

mod geometry;
mod select;

use geometry::{geometry_answer, judge_geometry};
pub use select::{Selection, SelectionFacts, glob_match, select};

/// The result of checking one case.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    Pass,
    /// The answer differs; both sides as pretty JSON, plus what differs.
    /// For sets (legal actions, reached cells, perft divide) `missing` and
    /// `extra` list the members only one side has, as JSON texts.
    Fail {
        expected: String,
        actual: String,
        detail: String,
        missing: Vec<String>,
        extra: Vec<String>,
    },
    /// The engine does not offer what the case needs, or said so.
    Unsupported(String),
    /// No usable answer.
    Error {
        kind: ErrorKind,
        message: String,
    },
    /// Not asked: the run's `--max-time` was reached or the engine was
    /// declared dead; says which.
    NotRun(String),
}

/// An outcome's kind, as reports and expectations files name it.
#[derive(
    Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize, JsonSchema,
)]
#[serde(rename_all = "kebab-case")]
pub enum OutcomeKind {
    Pass,
    Fail,
    Unsupported,
    Crash,
    Timeout,
    Malformed,
    WrongId,
    EngineError,
    NotRun,
}

impl OutcomeKind {
    pub const ALL: [OutcomeKind; 9] = [
        OutcomeKind::Pass,
        OutcomeKind::Fail,
        OutcomeKind::Unsupported,
        OutcomeKind::Crash,
        OutcomeKind::Timeout,
        OutcomeKind::Malformed,
        OutcomeKind::WrongId,
        OutcomeKind::EngineError,
        OutcomeKind::NotRun,
    ];

    pub fn name(self) -> &'static str {
        match self {
            OutcomeKind::Pass => "pass",
            OutcomeKind::Fail => "fail",
            OutcomeKind::Unsupported => "unsupported",
            OutcomeKind::Crash => "crash",
            OutcomeKind::Timeout => "timeout",
            OutcomeKind::Malformed => "malformed",
            OutcomeKind::WrongId => "wrong-id",
            OutcomeKind::EngineError => "engine-error",
            OutcomeKind::NotRun => "not-run",
        }
    }

    /// The engine error this kind names, for the kinds that name one
    /// (the inverse of [`Outcome::kind`] on errors).
    pub fn error_kind(self) -> Option<ErrorKind> {
        match self {
            OutcomeKind::Crash => Some(ErrorKind::Crash),
            OutcomeKind::Timeout => Some(ErrorKind::Timeout),
            OutcomeKind::Malformed => Some(ErrorKind::Malformed),
            OutcomeKind::WrongId => Some(ErrorKind::WrongId),
            OutcomeKind::EngineError => Some(ErrorKind::Engine),
            OutcomeKind::Pass
            | OutcomeKind::Fail
            | OutcomeKind::Unsupported
            | OutcomeKind::NotRun => None,
        }
    }

    /// Whether this outcome counts against an engine when no expectations
    /// file lists it (`pass` and `unsupported` do not).
    pub fn is_failure(self) -> bool {
        !matches!(self, OutcomeKind::Pass | OutcomeKind::Unsupported)
    }
}

impl Outcome {
    pub fn kind(&self) -> OutcomeKind {
        match self {
            Outcome::Pass => OutcomeKind::Pass,
            Outcome::Fail { .. } => OutcomeKind::Fail,
            Outcome::Unsupported(_) => OutcomeKind::Unsupported,
            Outcome::NotRun(_) => OutcomeKind::NotRun,
            Outcome::Error { kind, .. } => match kind {
                ErrorKind::Crash => OutcomeKind::Crash,
                ErrorKind::Timeout => OutcomeKind::Timeout,
                ErrorKind::Malformed => OutcomeKind::Malformed,
                ErrorKind::WrongId => OutcomeKind::WrongId,
                ErrorKind::Engine => OutcomeKind::EngineError,
            },
        }
    }

    /// A one-paragraph description for reports.
    pub fn message(&self) -> String {
        match self {
            Outcome::Pass => "pass".into(),
            Outcome::Fail {
                expected,
                actual,
                detail,
                ..
            } => format!("{detail}\nexpected: {expected}\nactual:   {actual}"),
            Outcome::Unsupported(why) | Outcome::NotRun(why) => why.clone(),
            Outcome::Error { message, .. } => message.clone(),
        }
    }
}

fn pretty<T: Serialize>(v: &T) -> String {
    serde_json::to_string_pretty(v).unwrap_or_else(|e| format!("<unprintable: {e}>"))
}

fn compare<T: Serialize + PartialEq>(expected: &T, actual: &T, detail: String) -> Outcome {
    if expected == actual {
        Outcome::Pass
    } else {
        Outcome::Fail {
            expected: pretty(expected),
            actual: pretty(actual),
            detail,
            missing: vec![],
            extra: vec![],
        }
    }
}

/// Compares two sets and names what is missing and what is extra.
fn compare_sets<T: Serialize + Ord + Clone>(expected: &[T], actual: &[T], what: &str) -> Outcome {
    let e: BTreeSet<T> = expected.iter().cloned().collect();
    let a: BTreeSet<T> = actual.iter().cloned().collect();
    if e == a {
        return Outcome::Pass;
    }
    let missing: Vec<&T> = e.difference(&a).collect();
    let extra: Vec<&T> = a.difference(&e).collect();
    // Sets print on one line each: the detail already names the difference.
    let compact = |v: &BTreeSet<T>| serde_json::to_string(v).unwrap_or_default();
    Outcome::Fail {
        expected: compact(&e),
        actual: compact(&a),
        detail: format!(
            "{what} differ: missing {}; extra {}",
            serde_json::to_string(&missing).unwrap_or_default(),
            serde_json::to_string(&extra).unwrap_or_default()
        ),
        missing: json_texts(&missing),
        extra: json_texts(&extra),
    }
}

/// Set members as JSON texts: an action stays a plain string, a reached
/// cell (an object) its compact JSON.
fn json_texts<T: Serialize>(items: &[&T]) -> Vec<String> {
    items
        .iter()
        .map(|x| match serde_json::to_value(x) {
            Ok(Value::String(s)) => s,
            Ok(v) => v.to_string(),
            Err(e) => format!("<unprintable: {e}>"),
        })
        .collect()
}

fn ask(engine: &mut dyn Engine, command: Command) -> Result<Value, Outcome> {
    engine.ask(&command).map_err(|e| match e {
        AskError::Unsupported => Outcome::Unsupported(format!(
            "the engine answered '{}' with unsupported",
            command.name()
        )),
        AskError::Failed { kind, message } => Outcome::Error { kind, message },
    })
}

/// Reads a reply's fields as `T`; a mismatch is a malformed reply.
fn fields<T: DeserializeOwned>(reply: Value, command: &str) -> Result<T, Outcome> {
    serde_json::from_value(reply).map_err(|e| Outcome::Error {
        kind: ErrorKind::Malformed,
        message: format!("the reply to '{command}' does not have the expected fields: {e}"),
    })
}

/// Whether the engine's `hello` offers what the case needs; the reason if not.
pub fn unsupported_reason(hello: &Hello, case: &Case) -> Option<String> {
    for cap in case.required_capabilities() {
        if !hello.capabilities.contains(&cap) {
            return Some(format!(
                "the engine does not declare the capability '{cap}'"
            ));
        }
    }
    let command = command_for(&case.check);
    if !hello.commands.iter().any(|c| c == command) {
        return Some(format!("the engine does not list the command '{command}'"));
    }
    match case.check.subject() {
        Subject::Variant(v) => {
            if !hello.variants.iter().any(|x| x.name == v) {
                return Some(format!("the engine does not play the variant '{v}'"));
            }
        }
        Subject::Board(b) => {
            if let Some(boards) = &hello.boards
                && !boards.iter().any(|x| x == b)
            {
                return Some(format!("the engine does not list the board '{b}'"));
            }
        }
        Subject::BoardFile => {}
    }
    None
}

/// The protocol command a check kind is asked with.
pub fn command_for(check: &Check) -> &'static str {
    match check {
        Check::LegalActions { .. } => "legal_actions",
        Check::Action { .. } => "check_action",
        Check::Perft { .. } => "perft",
        Check::Play { .. } => "status",
        Check::Keys { .. } => "key",
        Check::Record { .. } => "verify_record",
        _ => "geometry",
    }
}

/// Checks one case against an engine. `normalizers` are reference variants
/// used to compare position texts by meaning (an equivalent spelling of
/// the expected position passes); without one, texts are compared as
/// written.
pub fn check_case(engine: &mut dyn Engine, case: &Case, normalizers: &[&dyn Variant]) -> Outcome {
    if let Some(why) = unsupported_reason(engine.hello(), case) {
        return Outcome::Unsupported(why);
    }
    match judge(engine, &case.check, normalizers) {
        Ok(o) | Err(o) => o,
    }
}

/// Asks the question a check stands for and judges the answer. Geometry
/// checks (about a board or a board file) go through `geometry`; rules
/// checks through the command of their kind.
fn judge(
    engine: &mut dyn Engine,
    check: &Check,
    normalizers: &[&dyn Variant],
) -> Result<Outcome, Outcome> {
    match check.subject() {
        Subject::Board(board) => judge_geometry(check, geometry_answer(engine, board, check)?),
        // A board-file question carries its board as text: it names none.
        Subject::BoardFile => judge_geometry(check, geometry_answer(engine, "", check)?),
        Subject::Variant(_) => judge_rules(engine, check, normalizers),
    }
}

/// Sends `command` and reads its reply's fields as `T`.
fn request<T: DeserializeOwned>(engine: &mut dyn Engine, command: Command) -> Result<T, Outcome> {
    let name = command.name();
    fields(ask(engine, command)?, name)
}

// Rules checks: one command about a variant (two for keys).

fn judge_rules(
    engine: &mut dyn Engine,
    check: &Check,
    normalizers: &[&dyn Variant],
) -> Result<Outcome, Outcome> {
    match check {
        Check::LegalActions {
            variant,
            at,
            expect,
        } => judge_legal_actions(engine, variant, at, expect),
        Check::Action {
            variant,
            at,
            action,
            expect,
        } => judge_action(engine, variant, at, action, expect),
        Check::Perft {
            variant,
            at,
            depth,
            expect,
            divide,
        } => judge_perft(engine, variant, at, *depth, *expect, divide.as_ref()),
        Check::Play {
            variant,
            at,
            expect,
        } => {
            let norm = normalizers.iter().find(|v| v.name() == variant).copied();
            judge_play(engine, variant, at, expect, norm)
        }
        Check::Keys {
            variant,
            a,
            b,
            expect,
        } => judge_keys(engine, variant, a, b, expect),
        Check::Record { record, expect, .. } => judge_record(engine, record, expect),
        _ => unreachable!("geometry checks are judged by judge_geometry"),
    }
}

fn judge_legal_actions(
    engine: &mut dyn Engine,
    variant: &str,
    at: &Place,
    expect: &[String],
) -> Result<Outcome, Outcome> {
    let r: ActionsReply = request(
        engine,
        Command::LegalActions {
            variant: variant.to_string(),
            at: at.clone(),
        },
    )?;
    Ok(compare_sets(expect, &r.actions, "legal actions"))
}

/// Judges one action's verdict; the reason counts only for an illegal one.
fn judge_action(
    engine: &mut dyn Engine,
    variant: &str,
    at: &Place,
    action: &str,
    expect: &ActionExpect,
) -> Result<Outcome, Outcome> {
    let r: CheckActionReply = request(
        engine,
        Command::CheckAction {
            variant: variant.to_string(),
            at: at.clone(),
            action: action.to_string(),
        },
    )?;
    let actual = ActionExpect {
        legal: r.legal,
        reason: if r.legal { None } else { r.reason },
    };
    Ok(compare(expect, &actual, format!("action '{action}'")))
}

/// Judges a perft count and, when the case lists one, its divide. A wrong
/// total is reported as such; the divide then only says where it differs.
fn judge_perft(
    engine: &mut dyn Engine,
    variant: &str,
    at: &Place,
    depth: u32,
    expect: u64,
    divide: Option<&BTreeMap<String, u64>>,
) -> Result<Outcome, Outcome> {
    let r: PerftReply = request(
        engine,
        Command::Perft {
            variant: variant.to_string(),
            at: at.clone(),
            depth,
            divide: divide.is_some(),
        },
    )?;
    let total = || compare(&expect, &r.nodes, format!("perft({depth})"));
    let Some(want) = divide else {
        return Ok(total());
    };
    let Some(got) = &r.divide else {
        return Err(Outcome::Error {
            kind: ErrorKind::Malformed,
            message: "asked for divide, the perft reply has no 'divide'".into(),
        });
    };
    Ok(if r.nodes != expect {
        total()
    } else {
        compare_divide(want, got, depth)
    })
}

/// Judges the state after a case's moves: only the fields the case gives
/// are compared, and position texts by meaning when `norm` (the reference
/// variant of that name) can read them.
fn judge_play(
    engine: &mut dyn Engine,
    variant: &str,
    at: &Place,
    expect: &PlayExpect,
    norm: Option<&dyn Variant>,
) -> Result<Outcome, Outcome> {
    let r: StatusReply = request(
        engine,
        Command::Status {
            variant: variant.to_string(),
            at: at.clone(),
        },
    )?;
    let normal = |text: &str| normal_position(norm, text);
    // The case's text is compared as written: every expected position in
    // the corpus is in its canonical form (`tests/it/runner.rs` checks that),
    // so only the engine's text is normalised, and a reference whose
    // writing of positions broke cannot excuse itself on both sides.
    let want = PlayExpect {
        position: expect.position.as_ref().map(|p| p.trim().to_string()),
        in_check: expect.in_check,
        result: expect.result,
    };
    // A reference whose writing is wrong in a way its reading undoes (a
    // side letter written swapped is read back swapped) would turn a wrong
    // engine text into the expected one. The expected text, canonical,
    // must come back from the reference unchanged.
    if let (Some(want_text), Some(_)) = (&want.position, norm) {
        let again = normal(want_text);
        if again != *want_text {
            return Ok(compare(
                want_text,
                &again,
                "the reference does not write the case's expected position back as it is: \
                 its own reading or writing of positions is broken"
                    .into(),
            ));
        }
    }
    let actual = PlayExpect {
        position: expect.position.as_ref().map(|_| normal(&r.position)),
        in_check: expect.in_check.map(|_| r.in_check),
        result: r.result,
    };
    Ok(compare(&want, &actual, "state after the moves".into()))
}

/// A position text as `norm` writes it; trimmed as written when there is
/// no `norm` or it cannot read the text (the comparison then says so).
fn normal_position(norm: Option<&dyn Variant>, text: &str) -> String {
    norm.and_then(|v| {
        v.reached(&At {
            position: Some(text),
            moves: &[],
        })
        .ok()
        .map(|p| p.0)
    })
    .unwrap_or_else(|| text.trim().to_string())
}

/// Judges whether two places get equal repetition keys.
fn judge_keys(
    engine: &mut dyn Engine,
    variant: &str,
    a: &Place,
    b: &Place,
    expect: &KeyRelation,
) -> Result<Outcome, Outcome> {
    let ka = key(engine, variant, a)?;
    let kb = key(engine, variant, b)?;
    let actual = if ka == kb {
        KeyRelation::Equal
    } else {
        KeyRelation::Different
    };
    Ok(compare(
        expect,
        &actual,
        format!("keys: a = {ka}, b = {kb}"),
    ))
}

fn key(engine: &mut dyn Engine, variant: &str, at: &Place) -> Result<String, Outcome> {
    let r: KeyReply = request(
        engine,
        Command::Key {
            variant: variant.to_string(),
            at: at.clone(),
        },
    )?;
    Ok(r.key)
}

/// Judges a record's verdict: the result when accepted; ply, reason and
/// illegal-action code when rejected (the engine's message is not compared).
fn judge_record(
    engine: &mut dyn Engine,
    record: &Record,
    expect: &RecordExpect,
) -> Result<Outcome, Outcome> {
    let r: RecordReply = request(
        engine,
        Command::VerifyRecord {
            record: record.clone(),
        },
    )?;
    let actual = match r {
        RecordReply::Accepted { result, .. } => RecordExpect::Accepted { result },
        RecordReply::Rejected {
            ply,
            reason,
            illegal,
            ..
        } => RecordExpect::Rejected {
            ply,
            reason,
            illegal,
        },
    };
    Ok(compare(expect, &actual, "record verdict".into()))
}

/// Compares per-action perft counts: missing and extra actions first, then
/// the actions whose counts differ.
fn compare_divide(
    want: &BTreeMap<String, u64>,
    got: &BTreeMap<String, u64>,
    depth: u32,
) -> Outcome {
    if want == got {
        return Outcome::Pass;
    }
    let missing: Vec<&String> = want.keys().filter(|k| !got.contains_key(*k)).collect();
    let extra: Vec<&String> = got.keys().filter(|k| !want.contains_key(*k)).collect();
    let differ: Vec<String> = want
        .iter()
        .filter_map(|(k, n)| {
            got.get(k)
                .filter(|m| *m != n)
                .map(|m| format!("{k}: expected {n}, got {m}"))
        })
        .collect();
    Outcome::Fail {
        expected: pretty(want),
        actual: pretty(got),
        detail: format!(
            "perft({depth}) divide differs: missing {}; extra {}; counts differ at {}",
            serde_json::to_string(&missing).unwrap_or_default(),
            serde_json::to_string(&extra).unwrap_or_default(),
            if differ.is_empty() {
                "none".into()
            } else {
                differ.join(", ")
            }
        ),
        missing: missing.iter().map(|k| k.to_string()).collect(),
        extra: extra.iter().map(|k| k.to_string()).collect(),
    }
}

// Geometry checks: one `geometry` question about a board or a board file.

/// The group reports put board-file checks in: each of those cases carries
/// its own board file, so there is no board to name.
pub const BOARD_FILES: &str = "board-files";

/// One case's result with what reports group by.
#[derive(Clone, Debug)]
pub struct CaseResult {
    pub id: String,
    pub file: String,
    pub title: String,
    /// `board:NAME`, `variant:NAME`, or [`BOARD_FILES`].
    pub subject: String,
    pub check: &'static str,
    pub clauses: Vec<String>,
    pub provenance: &'static str,
    pub outcome: Outcome,
}

impl CaseResult {
    /// The result of `case`, read from `file`, with its outcome.
    pub fn of(file: &str, case: &Case, outcome: Outcome) -> CaseResult {
        let subject = match case.check.subject() {
            Subject::Board(b) => format!("board:{b}"),
            Subject::BoardFile => BOARD_FILES.to_string(),
            Subject::Variant(v) => format!("variant:{v}"),
        };
        CaseResult {
            id: case.id.clone(),
            file: file.to_string(),
            title: case.title.clone(),
            subject,
            check: case.check.kind(),
            clauses: case.clauses.clone(),
            provenance: case.provenance.kind(),
            outcome,
        }
    }
}

/// Checks every selected case, calling `done` after each.
pub fn run(
    engine: &mut dyn Engine,
    cases: &[&(String, Case)],
    normalizers: &[&dyn Variant],
    done: &mut dyn FnMut(&CaseResult),
) -> Vec<CaseResult> {
    run_until(engine, cases, normalizers, None, done)
}

/// [`run`] bounded in time: once `deadline` passes, or the engine is
/// declared dead, the remaining cases are `not-run` and nothing more is
/// asked. The engine's per-reply limit is cut to the time left, so one
/// hung reply cannot overrun the deadline.
pub fn run_until(
    engine: &mut dyn Engine,
    cases: &[&(String, Case)],
    normalizers: &[&dyn Variant],
    deadline: Option<std::time::Instant>,
    done: &mut dyn FnMut(&CaseResult),
) -> Vec<CaseResult> {
    engine.set_deadline(deadline);
    let mut out = Vec::with_capacity(cases.len());
    for (file, case) in cases.iter().map(|e| (&e.0, &e.1)) {
        let outcome = if deadline.is_some_and(|d| std::time::Instant::now() >= d) {
            Outcome::NotRun("not run: the run's time limit (--max-time) was reached".into())
        } else if let Some(why) = engine.dead() {
            Outcome::NotRun(format!("not run: engine dead ({why})"))
        } else {
            check_case(engine, case, normalizers)
        };
        let r = CaseResult::of(file, case, outcome);
        done(&r);
        out.push(r);
    }
    out
}
