//! Game records (format 2, format 1 still read) and their replay: a saved
//! game is its start, its actions, and claims (result, final position,
//! rights, repetitions) that are each checked against a replay of the
//! actions. The replay is written once over [`Rules`]; reading a record's
//! JSON as a stream is [`crate::variant::verify_record_json`].

use serde::{Deserialize, Serialize};

use crate::quote;
use crate::rules::{Game, GameResult, History, IllegalReason, Rights, Rules, parse_start};

/// The record format this engine writes. Format 1 (no `format` field) had
/// no rights or repetitions and is still read.
pub const RECORD_FORMAT: u32 = 2;

/// A saved game: everything needed to replay and check it. Every claim
/// beyond the actions (result, final position, rights, repetitions) is
/// checked against the replay when present.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, Eq, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Record {
    /// The record format: 2 for records written now; absent in format 1.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub format: Option<u32>,
    pub variant: String,
    /// The rules version the game was played under.
    pub rules: String,
    pub start: RecordStart,
    /// Every action in canonical notation, `resign` and `draw` included.
    pub actions: Vec<String>,
    /// The claimed result; `null` for a game still in progress.
    pub result: Option<GameResult>,
    /// The claimed final position, checked when present.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub final_position: Option<String>,
    /// The special rights of the final position, checked when present.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rights: Option<Rights>,
    /// Every position that occurred more than once in the game, with how
    /// often, in the order of first occurrence; checked when present (an
    /// empty list claims that no position repeated).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub repetitions: Option<Vec<Repetition>>,
}

/// A position that occurred more than once in a game.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, Eq, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Repetition {
    /// The position at its first occurrence, as position text.
    pub position: String,
    /// How often it occurred, the first time included (at least 2).
    pub count: u32,
}

/// How a recorded game began.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, Eq, schemars::JsonSchema)]
#[serde(tag = "kind", rename_all = "kebab-case", deny_unknown_fields)]
pub enum RecordStart {
    /// The variant's initial position.
    Initial,
    /// A labelled edited setup, which need not be reachable.
    Edited { position: String },
}

/// Why a record was refused.
#[derive(Copy, Clone, Debug, Serialize, Deserialize, PartialEq, Eq, schemars::JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum RecordReason {
    WrongVariant,
    WrongRulesVersion,
    BadStart,
    /// An action is not legal; `illegal` says why.
    IllegalAction,
    ResultMismatch,
    FinalPositionMismatch,
    /// The claimed rights differ from the replay's.
    RightsMismatch,
    /// The claimed repetition counts differ from the replay's.
    RepetitionMismatch,
    /// The `format` is not one this engine reads.
    UnknownFormat,
}

/// The outcome of replaying a record.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, Eq, schemars::JsonSchema)]
#[serde(tag = "verdict", rename_all = "kebab-case")]
pub enum RecordVerdict {
    Accepted {
        result: Option<GameResult>,
        plies: usize,
    },
    Rejected {
        /// The 1-based ply of the first bad action; 0 for the header, and
        /// one past the last action for bad final data.
        ply: usize,
        reason: RecordReason,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        illegal: Option<IllegalReason>,
        message: String,
    },
}

/// A record without its actions: what is checked before and after them.
#[derive(Clone, Debug)]
pub struct RecordHead {
    pub format: Option<u32>,
    pub variant: String,
    pub rules: String,
    pub start: RecordStart,
    pub result: Option<GameResult>,
    pub final_position: Option<String>,
    pub rights: Option<Rights>,
    pub repetitions: Option<Vec<Repetition>>,
}

impl RecordHead {
    pub fn of(record: &Record) -> RecordHead {
        RecordHead {
            format: record.format,
            variant: record.variant.clone(),
            rules: record.rules.clone(),
            start: record.start.clone(),
            result: record.result,
            final_position: record.final_position.clone(),
            rights: record.rights.clone(),
            repetitions: record.repetitions.clone(),
        }
    }
}

/// A record being replayed one action at a time, so that a record is
/// verified without holding its actions (see [`verify_record_json`]).
pub trait Replay {
    /// Plays the next action, or says why the record is rejected there.
    fn play(&mut self, text: &str) -> Result<(), RecordVerdict>;
    /// The verdict once every action is played: the claimed result and
    /// final position against the replay.
    fn finish(self: Box<Self>) -> RecordVerdict;
}

pub(crate) fn reject(
    ply: usize,
    reason: RecordReason,
    illegal: Option<IllegalReason>,
    message: String,
) -> RecordVerdict {
    RecordVerdict::Rejected {
        ply,
        reason,
        illegal,
        message,
    }
}

/// The [`Replay`] of every family: a [`Game`] and the claims to check.
pub(crate) struct Replayer<'r, R: Rules> {
    pub(crate) game: Game<'r, R>,
    /// Actions played so far, decisions included.
    pub(crate) actions: usize,
    pub(crate) result: Option<GameResult>,
    pub(crate) final_position: Option<String>,
    pub(crate) rights: Option<Rights>,
    pub(crate) repetitions: Option<Vec<Repetition>>,
}

impl<R: Rules> Replay for Replayer<'_, R> {
    fn play(&mut self, text: &str) -> Result<(), RecordVerdict> {
        self.actions += 1;
        // Replaying is one legality check per ply, so the cost grows
        // linearly with the record's length; there is no length limit.
        self.game.play_text(text).map_err(|e| {
            reject(
                self.actions,
                RecordReason::IllegalAction,
                Some(e.code),
                format!(
                    "ply {} '{}': {}",
                    self.actions,
                    quote::excerpt(text),
                    quote::bounded(&e.message)
                ),
            )
        })
    }

    fn finish(self: Box<Self>) -> RecordVerdict {
        let rules = self.game.rules();
        let after = self.actions + 1;
        if self.game.result() != self.result {
            return reject(
                after,
                RecordReason::ResultMismatch,
                None,
                format!(
                    "the record claims {}, but replaying it gives {}",
                    describe(self.game.rules(), self.result),
                    describe(self.game.rules(), self.game.result())
                ),
            );
        }
        if let Some(claimed) = &self.final_position {
            let actual = rules.format_position(self.game.position());
            let same = parse_start(rules, claimed)
                .map(|p| rules.format_position(&p) == actual)
                .unwrap_or(false);
            if !same {
                return reject(
                    after,
                    RecordReason::FinalPositionMismatch,
                    None,
                    format!(
                        "the record's final position '{}' differs from the replayed '{actual}'",
                        quote::excerpt(claimed)
                    ),
                );
            }
        }
        if let Some(claimed) = &self.rights {
            let actual = rules.rights(self.game.position());
            if let Some((field, claimed, actual)) = rights_difference(claimed, &actual) {
                return reject(
                    after,
                    RecordReason::RightsMismatch,
                    None,
                    format!(
                        "the record claims {field} {}, but replaying it gives {actual}",
                        quote::bounded(&claimed)
                    ),
                );
            }
        }
        if let Some(claimed) = &self.repetitions
            && let Err(message) = check_repetitions(rules, self.game.history(), claimed)
        {
            return reject(after, RecordReason::RepetitionMismatch, None, message);
        }
        RecordVerdict::Accepted {
            result: self.game.result(),
            plies: self.game.plies(),
        }
    }
}

/// The first field where two sets of rights differ, with each side's
/// value as JSON (`absent` for a missing one).
fn rights_difference(claimed: &Rights, actual: &Rights) -> Option<(String, String, String)> {
    let as_map = |r: &Rights| match serde_json::to_value(r) {
        Ok(serde_json::Value::Object(m)) => m,
        _ => serde_json::Map::new(),
    };
    let (c, a) = (as_map(claimed), as_map(actual));
    let shown = |v: Option<&serde_json::Value>| v.map_or("absent".to_string(), |v| v.to_string());
    let mut fields: Vec<&String> = c.keys().chain(a.keys()).collect();
    fields.sort();
    fields
        .into_iter()
        .find(|f| c.get(*f) != a.get(*f))
        .map(|f| (format!("'{f}'"), shown(c.get(f)), shown(a.get(f))))
}

/// Whether `claimed` lists exactly the positions of `history` that
/// occurred more than once, each with its count.
fn check_repetitions<R: Rules>(
    rules: &R,
    history: &History<R::Position>,
    claimed: &[Repetition],
) -> Result<(), String> {
    let mut keys = std::collections::HashSet::new();
    for (i, r) in claimed.iter().enumerate() {
        let pos = parse_start(rules, &r.position).map_err(|e| {
            format!("repetitions[{i}]: the position is not one of this variant: {e}")
        })?;
        let key = rules.key(&pos);
        let actual = history.occurrences_of(&key);
        if r.count != actual {
            return Err(format!(
                "repetitions[{i}]: the record claims {} occurrences of '{}', replaying it gives {actual}",
                r.count,
                quote::excerpt(&r.position)
            ));
        }
        if actual < 2 {
            return Err(format!(
                "repetitions[{i}]: '{}' occurred only {actual} time(s); list only repeated positions",
                quote::excerpt(&r.position)
            ));
        }
        if !keys.insert(key) {
            return Err(format!(
                "repetitions[{i}]: '{}' is listed twice",
                quote::excerpt(&r.position)
            ));
        }
    }
    let repeated = history.repeated_positions();
    if keys.len() != repeated {
        return Err(format!(
            "the record lists {} repeated positions, replaying it gives {repeated}",
            keys.len()
        ));
    }
    Ok(())
}

fn describe<R: Rules>(rules: &R, r: Option<GameResult>) -> String {
    match r {
        None => "no result (the game goes on)".into(),
        Some(GameResult {
            winner: None,
            reason,
        }) => format!("a draw by {reason}"),
        Some(GameResult {
            winner: Some(p),
            reason,
        }) => format!("a win for {} by {reason}", rules.player_name(p)),
    }
}
