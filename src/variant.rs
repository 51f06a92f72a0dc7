//! Rule families seen through text, and the registry of shipped variants.
//!
//! [`Variant`] is the one interface the CLI, the corpus checker and the
//! engine protocol use: positions and actions are strings in each family's
//! documented formats. It is implemented once, for every [`Rules`] family,
//! by the blanket impl below, so a family never writes glue code.

use std::sync::OnceLock;

use serde::{Deserialize, Serialize};

use crate::quote;
use crate::rules::{
    ActionError, EndReason, Game, GameAction, GameResult, IllegalReason, Player, PositionError,
    Rules,
};

/// The deepest perft any command, protocol request or corpus case may ask
/// for. The deepest perft ever published is 15 (orthodox chess); the bound
/// keeps a typo such as `4294967295` from recursing until the stack
/// overflows, while any real question stays far below it.
pub const MAX_PERFT_DEPTH: u32 = 20;

/// Refuses a perft depth above [`MAX_PERFT_DEPTH`].
pub fn check_perft_depth(depth: u32) -> Result<(), VariantError> {
    if depth > MAX_PERFT_DEPTH {
        return Err(VariantError::PerftDepth { depth });
    }
    Ok(())
}

/// Where a question is asked: a position (default: the initial one) and
/// actions played from it first.
#[derive(Clone, Debug, Default)]
pub struct At<'a> {
    pub position: Option<&'a str>,
    pub moves: &'a [String],
}

/// A question that cannot be asked: its position or a leading move is bad.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum VariantError {
    #[error(transparent)]
    Position(#[from] PositionError),
    #[error("move {ply} '{text}' cannot be played: {error}")]
    Move {
        ply: usize,
        text: String,
        error: ActionError,
    },
    #[error("unknown variant '{name}' ({known})")]
    Unknown {
        name: String,
        known: crate::names::Known,
    },
    #[error("variant '{variant}' cannot be pictured")]
    NoPicture { variant: String },
    #[error("perft depth {depth} is above the limit of {MAX_PERFT_DEPTH}")]
    PerftDepth { depth: u32 },
}

/// The state after playing moves as a game (endings adjudicated).
#[derive(Clone, Debug, Serialize, PartialEq, Eq)]
pub struct Played {
    pub position: String,
    pub to_move: Player,
    pub in_check: bool,
    pub result: Option<GameResult>,
    pub key: String,
    /// How often the current position has occurred in this game.
    pub occurrences: u32,
}

/// A saved game: everything needed to replay and check it.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, Eq, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Record {
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

/// A rule family instance seen through text.
pub trait Variant: Send + Sync {
    fn name(&self) -> &str;
    fn rules_version(&self) -> &str;
    /// Rule features beyond the basic commands (see [`Rules::capabilities`]).
    fn capabilities(&self) -> &'static [&'static str];
    fn start_position(&self) -> String;
    /// Canonical texts of all legal actions, sorted.
    fn legal_actions(&self, at: &At) -> Result<Vec<String>, VariantError>;
    /// Whether `action` is legal (its canonical text) or why not.
    fn check_action(
        &self,
        at: &At,
        action: &str,
    ) -> Result<Result<String, ActionError>, VariantError>;
    fn perft(&self, at: &At, depth: u32) -> Result<u64, VariantError>;
    /// Perft below each legal action, sorted by action text.
    fn divide(&self, at: &At, depth: u32) -> Result<Vec<(String, u64)>, VariantError>;
    /// Plays the moves as a game and reports the state and result.
    fn play(&self, at: &At) -> Result<Played, VariantError>;
    /// The position after the moves with game-end rules ignored, as
    /// (position text, repetition key).
    fn reached(&self, at: &At) -> Result<(String, String), VariantError>;
    fn verify_record(&self, record: &Record) -> RecordVerdict;
    /// Whether Φ maps the initial position to itself with the other player
    /// to move (compared by repetition key); `None` when the family cannot
    /// pass the move.
    fn start_exchange_symmetric(&self) -> Option<bool>;
    /// Analysis mode: the actions `mover` could take (either army), with
    /// king safety on or off, sorted; `None` when the family has none.
    /// Notation is that of a position with `mover` to move.
    fn analysis_actions(
        &self,
        at: &At,
        mover: Player,
        king_safety: bool,
    ) -> Result<Option<Vec<String>>, VariantError>;
    /// The opening audit of the position (see [`crate::audit`]); `plies`
    /// is checked by [`crate::audit::audit_variant`].
    fn audit(&self, at: &At, plies: u32) -> Result<crate::audit::Report, VariantError>;
    /// The position as a picture (see [`crate::diagram`]).
    fn diagram(&self, at: &At) -> Result<crate::diagram::Diagram, VariantError>;
    /// Each action text placed on the picture of the position, or why it
    /// cannot be: one bad text does not spoil the others.
    fn action_marks(
        &self,
        at: &At,
        actions: &[String],
    ) -> Result<Vec<Result<crate::diagram::ActionMark, ActionError>>, VariantError>;
    /// The designer facts of the variant's data (see [`crate::design`]).
    fn design_facts(&self) -> Option<crate::design::Facts>;
}

/// Plays `at` without game-end rules: parse each move in turn.
fn reach<R: Rules>(rules: &R, at: &At) -> Result<R::Position, VariantError> {
    let mut pos = match at.position {
        None => rules.start(),
        Some(text) => parse_position(rules, text)?,
    };
    for (i, text) in at.moves.iter().enumerate() {
        let a = rules
            .parse_action(&pos, text)
            .map_err(|error| move_error(i, text, error))?;
        pos = rules.apply(&pos, &a);
    }
    Ok(pos)
}

// Every error below leaves through this interface, which the CLI, the
// corpus and the protocol use, so its messages are bounded here: a family
// parser may quote a whole token, and the token may be megabytes long.

/// A position text parsed, its error's message bounded.
fn parse_position<R: Rules>(rules: &R, text: &str) -> Result<R::Position, PositionError> {
    rules.parse_position(text).map_err(|e| PositionError {
        field: quote::excerpt(&e.field).into_owned(),
        message: quote::bounded(&e.message).into_owned(),
    })
}

/// An action error with its message bounded.
fn bound_action(e: ActionError) -> ActionError {
    ActionError {
        code: e.code,
        message: quote::bounded(&e.message).into_owned(),
    }
}

/// The error of the `i`-th leading move (0-based), quoting an excerpt.
fn move_error(i: usize, text: &str, error: ActionError) -> VariantError {
    VariantError::Move {
        ply: i + 1,
        text: quote::excerpt(text).into_owned(),
        error: bound_action(error),
    }
}

impl<R: Rules> Variant for R {
    fn diagram(&self, at: &At) -> Result<crate::diagram::Diagram, VariantError> {
        let draw = self.drawing().ok_or_else(|| VariantError::NoPicture {
            variant: self.variant().to_string(),
        })?;
        let pos = reach(self, at)?;
        Ok(draw.diagram(&pos))
    }

    fn action_marks(
        &self,
        at: &At,
        actions: &[String],
    ) -> Result<Vec<Result<crate::diagram::ActionMark, ActionError>>, VariantError> {
        let draw = self.drawing().ok_or_else(|| VariantError::NoPicture {
            variant: self.variant().to_string(),
        })?;
        let pos = reach(self, at)?;
        Ok(actions
            .iter()
            .map(|text| {
                self.parse_action(&pos, text)
                    .map(|a| draw.action_mark(&pos, &a))
                    .map_err(bound_action)
            })
            .collect())
    }

    fn design_facts(&self) -> Option<crate::design::Facts> {
        Rules::design_facts(self)
    }

    fn audit(&self, at: &At, plies: u32) -> Result<crate::audit::Report, VariantError> {
        let pos = reach(self, at)?;
        Ok(crate::audit::audit(self, &pos, plies))
    }

    fn analysis_actions(
        &self,
        at: &At,
        mover: Player,
        king_safety: bool,
    ) -> Result<Option<Vec<String>>, VariantError> {
        let pos = reach(self, at)?;
        let Some((seen, actions)) = Rules::analysis_actions(self, &pos, mover, king_safety) else {
            return Ok(None);
        };
        let mut out: Vec<String> = actions
            .iter()
            .map(|a| self.format_action(&seen, a))
            .collect();
        out.sort();
        out.dedup();
        Ok(Some(out))
    }

    fn name(&self) -> &str {
        self.variant()
    }
    fn start_exchange_symmetric(&self) -> Option<bool> {
        let start = self.start();
        let passed = self.other_to_move(&start)?;
        Some(self.key(&self.exchange(&start)) == self.key(&passed))
    }
    fn rules_version(&self) -> &str {
        Rules::rules_version(self)
    }
    fn capabilities(&self) -> &'static [&'static str] {
        Rules::capabilities(self)
    }
    fn start_position(&self) -> String {
        self.format_position(&self.start())
    }

    fn legal_actions(&self, at: &At) -> Result<Vec<String>, VariantError> {
        let pos = reach(self, at)?;
        let mut out: Vec<String> = Rules::legal_actions(self, &pos)
            .iter()
            .map(|a| self.format_action(&pos, a))
            .collect();
        out.sort();
        Ok(out)
    }

    fn check_action(
        &self,
        at: &At,
        action: &str,
    ) -> Result<Result<String, ActionError>, VariantError> {
        let pos = reach(self, at)?;
        Ok(self
            .parse_action(&pos, action)
            .map(|a| self.format_action(&pos, &a))
            .map_err(bound_action))
    }

    fn perft(&self, at: &At, depth: u32) -> Result<u64, VariantError> {
        check_perft_depth(depth)?;
        let pos = reach(self, at)?;
        Ok(Rules::perft(self, &pos, depth))
    }

    fn divide(&self, at: &At, depth: u32) -> Result<Vec<(String, u64)>, VariantError> {
        check_perft_depth(depth)?;
        let pos = reach(self, at)?;
        let mut out: Vec<(String, u64)> = Rules::legal_actions(self, &pos)
            .iter()
            .map(|a| {
                let below = Rules::perft(self, &self.apply(&pos, a), depth.saturating_sub(1));
                (self.format_action(&pos, a), below)
            })
            .collect();
        out.sort();
        Ok(out)
    }

    fn play(&self, at: &At) -> Result<Played, VariantError> {
        let start = match at.position {
            None => self.start(),
            Some(text) => parse_position(self, text)?,
        };
        let mut game = Game::new(self, start);
        for (i, text) in at.moves.iter().enumerate() {
            game.play_text(text)
                .map_err(|error| move_error(i, text, error))?;
        }
        let pos = game.position();
        Ok(Played {
            position: self.format_position(pos),
            to_move: self.to_move(pos),
            in_check: self.in_check(pos),
            result: game.result(),
            key: self.key(pos),
            occurrences: game.history().occurrences_of_current(),
        })
    }

    fn reached(&self, at: &At) -> Result<(String, String), VariantError> {
        let pos = reach(self, at)?;
        Ok((self.format_position(&pos), self.key(&pos)))
    }

    fn verify_record(&self, record: &Record) -> RecordVerdict {
        let reject = |ply, reason, illegal, message: String| RecordVerdict::Rejected {
            ply,
            reason,
            illegal,
            message,
        };
        if record.variant != self.variant() {
            return reject(
                0,
                RecordReason::WrongVariant,
                None,
                format!(
                    "the record is for '{}', not '{}'",
                    quote::excerpt(&record.variant),
                    self.variant()
                ),
            );
        }
        if record.rules != Rules::rules_version(self) {
            return reject(
                0,
                RecordReason::WrongRulesVersion,
                None,
                format!(
                    "the record was played under rules {}, this engine implements {}",
                    quote::excerpt(&record.rules),
                    Rules::rules_version(self)
                ),
            );
        }
        let start = match &record.start {
            RecordStart::Initial => self.start(),
            RecordStart::Edited { position } => match parse_position(self, position) {
                Ok(p) => p,
                Err(e) => return reject(0, RecordReason::BadStart, None, e.to_string()),
            },
        };
        // Replaying is one legality check per ply, so the cost grows
        // linearly with the record's length; there is no length limit.
        let mut game = Game::new(self, start);
        for (i, text) in record.actions.iter().enumerate() {
            if let Err(e) = game.play_text(text) {
                return reject(
                    i + 1,
                    RecordReason::IllegalAction,
                    Some(e.code),
                    format!(
                        "ply {} '{}': {}",
                        i + 1,
                        quote::excerpt(text),
                        quote::bounded(&e.message)
                    ),
                );
            }
        }
        let after = record.actions.len() + 1;
        if game.result() != record.result {
            return reject(
                after,
                RecordReason::ResultMismatch,
                None,
                format!(
                    "the record claims {}, but replaying it gives {}",
                    describe(record.result),
                    describe(game.result())
                ),
            );
        }
        if let Some(claimed) = &record.final_position {
            let actual = self.format_position(game.position());
            let same = self
                .parse_position(claimed)
                .map(|p| self.format_position(&p) == actual)
                .unwrap_or(false);
            if !same {
                return reject(
                    after,
                    RecordReason::FinalPositionMismatch,
                    None,
                    format!(
                        "the record's final position '{}' differs from the replayed '{}'",
                        quote::excerpt(claimed),
                        quote::excerpt(&actual)
                    ),
                );
            }
        }
        let plies = game
            .actions()
            .iter()
            .filter(|a| matches!(a, GameAction::Play(_)))
            .count();
        RecordVerdict::Accepted {
            result: game.result(),
            plies,
        }
    }
}

fn describe(r: Option<GameResult>) -> String {
    match r {
        None => "no result (the game goes on)".into(),
        Some(GameResult {
            winner: None,
            reason,
        }) => format!("a draw by {}", reason_name(reason)),
        Some(GameResult {
            winner: Some(p),
            reason,
        }) => format!(
            "a win for the {} player by {}",
            if p == Player::First {
                "first"
            } else {
                "second"
            },
            reason_name(reason)
        ),
    }
}

fn reason_name(r: EndReason) -> String {
    serde_json::to_value(r)
        .ok()
        .and_then(|v| v.as_str().map(String::from))
        .unwrap_or_default()
}

/// Every shipped variant, built once from the embedded spec.
pub fn registry() -> &'static [Box<dyn Variant>] {
    static ALL: OnceLock<Vec<Box<dyn Variant>>> = OnceLock::new();
    ALL.get_or_init(|| {
        build_all(crate::spec::Library::builtin())
            .expect("the embedded variant data is validated by the test suite")
    })
}

/// Every family's variants built on the boards of `lib`: the registry uses
/// the built-in spec; mutant engines use a library with one rule broken.
pub fn build_all(lib: &crate::spec::Library) -> Result<Vec<Box<dyn Variant>>, String> {
    let mut all: Vec<Box<dyn Variant>> = Vec::new();
    let shogi = crate::shogi::variants_from_files(&crate::shogi::builtin_files(), lib)
        .map_err(|e| e.to_string())?;
    all.extend(shogi.into_iter().map(|v| Box::new(v) as Box<dyn Variant>));
    for (file, text) in crate::chess::builtin_files() {
        let v =
            crate::chess::ChessRules::from_file(&file, &text, lib).map_err(|e| e.to_string())?;
        all.push(Box::new(v));
    }
    let tetra = crate::tetra::variants_on(lib).map_err(|e| e.to_string())?;
    all.extend(tetra.into_iter().map(|v| Box::new(v) as Box<dyn Variant>));
    let kyoto = crate::kyoto::variants_on(lib).map_err(|e| e.to_string())?;
    all.extend(kyoto.into_iter().map(|v| Box::new(v) as Box<dyn Variant>));
    Ok(all)
}

/// Looks a variant up by name among the shipped ones.
pub fn find(name: &str) -> Result<&'static dyn Variant, VariantError> {
    let all: Vec<&'static dyn Variant> = registry().iter().map(|v| v.as_ref()).collect();
    find_in(&all, name)
}

/// Looks a variant up by name in `variants` (the shipped ones, or those of
/// an edited spec); the error lists the names and suggests the nearest.
pub fn find_in<'v>(
    variants: &[&'v dyn Variant],
    name: &str,
) -> Result<&'v dyn Variant, VariantError> {
    variants
        .iter()
        .find(|v| v.name() == name)
        .copied()
        .ok_or_else(|| VariantError::Unknown {
            name: quote::excerpt(name).into_owned(),
            known: crate::names::Known::new(name, variants.iter().map(|v| v.name())),
        })
}
