//! Rule families seen through text, and the registry of shipped variants.
//!
//! [`Variant`] is the one interface the CLI, the corpus checker and the
//! engine protocol use: positions and actions are strings in each family's
//! documented formats. It is implemented once, for every [`Rules`] family,
//! by the blanket impl below, so a family never writes glue code.

use std::borrow::Cow;
use std::cell::OnceCell;
use std::sync::OnceLock;

use serde::{Deserialize, Serialize};

use crate::quote;
use crate::rules::{
    ActionError, Game, GameResult, History, IllegalReason, Player, PositionError, Rights, Rules,
};
use crate::session::{Live, Session};

/// The deepest perft any command, protocol request or corpus case may ask
/// for. The deepest perft ever published is 15 (orthodox chess); the bound
/// keeps a typo such as `4294967295` from recursing until the stack
/// overflows, while any real question stays far below it.
pub const MAX_PERFT_DEPTH: u32 = 20;

/// The longest position text read: a position text is a few hundred
/// bytes; the bound keeps a wrong file or a runaway generator from being
/// parsed (or echoed) at length.
pub const MAX_POSITION_TEXT_BYTES: usize = 64 << 10;

/// The most actions a question may play before it is asked (`--moves`, a
/// protocol request's `moves`). Game records are not bounded by it: they
/// are replayed as a stream.
pub const MAX_MOVES: usize = 100_000;

/// Parses a position text within [`MAX_POSITION_TEXT_BYTES`], with an
/// error that quotes at most a little of the text. Every error of this
/// interface, which the CLI, the corpus and the protocol use, is bounded
/// here: a family parser may quote a whole token, megabytes long.
fn parse_start<R: Rules>(rules: &R, text: &str) -> Result<R::Position, PositionError> {
    if text.len() > MAX_POSITION_TEXT_BYTES {
        return Err(PositionError {
            field: "text".into(),
            message: format!(
                "{} bytes; a position text has at most {MAX_POSITION_TEXT_BYTES}",
                text.len()
            ),
        });
    }
    rules.parse_position(text).map_err(|e| PositionError {
        field: quote::excerpt(&e.field).into_owned(),
        message: quote::bounded(&e.message).into_owned(),
    })
}

/// An action error whose message quotes at most a little of the text.
fn bounded(e: ActionError) -> ActionError {
    ActionError {
        code: e.code,
        message: quote::bounded(&e.message).into_owned(),
    }
}

/// Refuses a move list above [`MAX_MOVES`].
fn check_moves(at: &At) -> Result<(), VariantError> {
    check_move_count(at.moves)
}

/// Refuses a move list above [`MAX_MOVES`].
pub fn check_move_count(moves: &[String]) -> Result<(), VariantError> {
    if moves.len() > MAX_MOVES {
        return Err(VariantError::TooManyMoves { count: moves.len() });
    }
    Ok(())
}

/// A game from `at`'s start with its moves played as actions of that game
/// (so a move after the game's end is refused, unlike [`reach`]).
pub fn session_at<'v>(v: &'v dyn Variant, at: &At) -> Result<Box<dyn Session + 'v>, VariantError> {
    check_moves(at)?;
    let mut session = v.session(at.position)?;
    for (i, text) in at.moves.iter().enumerate() {
        session.play(text).map_err(|error| VariantError::Move {
            ply: i + 1,
            text: quote::excerpt(text).into_owned(),
            error,
        })?;
    }
    Ok(session)
}

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

/// One experiment of an analysis line: an action (canonical text) played
/// by `mover`, with king safety on or off.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AnalysisStep {
    pub action: String,
    pub mover: Player,
    pub king_safety: bool,
}

/// Where an analysis line stands.
#[derive(Clone, Debug)]
pub struct AnalysisLine {
    /// The position text (which the text reader may refuse: see
    /// `refused`).
    pub position: String,
    /// Why the text reader refuses the position, if it does: such a
    /// position is an experiment's alone and cannot start a game.
    pub refused: Option<String>,
    pub diagram: crate::diagram::Diagram,
    /// What the mover may try next, sorted by text.
    pub moves: Vec<(String, crate::diagram::ActionMark)>,
}

/// A question that cannot be asked: its position or a leading move is bad.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum VariantError {
    #[error(transparent)]
    Position(#[from] PositionError),
    #[error("move {ply} '{}' cannot be played: {error}", crate::quote::excerpt(.text))]
    Move {
        ply: usize,
        text: String,
        error: ActionError,
    },
    #[error("unknown variant '{}' ({known})", crate::quote::excerpt(.name))]
    Unknown {
        name: String,
        known: crate::names::Known,
    },
    #[error("variant '{variant}' cannot be pictured")]
    NoPicture { variant: String },
    #[error("perft depth {depth} is above the limit of {MAX_PERFT_DEPTH}")]
    PerftDepth { depth: u32 },
    #[error("{count} moves to play first; at most {MAX_MOVES} are taken")]
    TooManyMoves { count: usize },
    #[error(
        "{bytes} bytes of position text; a position text has at most {MAX_POSITION_TEXT_BYTES}"
    )]
    TooLong { bytes: usize },
    #[error(transparent)]
    Edit(#[from] crate::placement::EditError),
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
    /// Starts replaying a record one action at a time (the streaming form
    /// of [`Variant::verify_record`]), or says why its head is refused.
    fn replay<'s>(&'s self, head: &RecordHead) -> Result<Box<dyn Replay + 's>, RecordVerdict>;
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
    /// Analysis mode with pictures: the line of experiments `steps`
    /// played from `at` (each by its mover, with king safety as it says),
    /// then what `mover` may try next (see [`Variant::analysis_actions`]).
    /// The line goes through positions as values, never as text, since an
    /// experiment may leave one the text refuses (a king left in check
    /// with the move passed). `None` when the family has no analysis mode.
    fn analysis_line(
        &self,
        at: &At,
        steps: &[AnalysisStep],
        mover: Player,
        king_safety: bool,
    ) -> Result<Option<AnalysisLine>, VariantError>;
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
    /// The display arrows of a game (see [`Rules::display_arrows`]):
    /// `actions` played from `start` (default: the initial position) as a
    /// game's actions, the decisions `resign` and `draw` moving nothing.
    /// Each arrow is (canonical cell, facing); empty for a family or board
    /// without display arrows. A bad start or action is the error
    /// [`Variant::play`] gives, naming its ply.
    fn display_arrows(
        &self,
        start: Option<&str>,
        actions: &[String],
    ) -> Result<Vec<(String, crate::movement::Facing)>, VariantError>;
    /// The designer facts of the variant's data (see [`crate::design`]).
    fn design_facts(&self) -> Option<crate::design::Facts>;
    /// The position editor's pieces: every piece that may be placed on
    /// this variant's board, as its position text writes it (empty for a
    /// family that cannot be pictured).
    fn edit_palette(&self) -> Vec<crate::placement::PaletteEntry>;
    /// Every cell's canonical name in the order the position text writes
    /// the placement (empty for a family that cannot be pictured).
    fn edit_cells(&self) -> Vec<String>;
    /// What a hand may hold and how the text writes it; `None` for a
    /// family without hands.
    fn edit_hands(&self) -> Option<crate::placement::HandShape>;
    /// `position` (a text of this variant's shape, not necessarily a
    /// position) with `token` put on `cell`, or the cell emptied. Nothing
    /// but the shape is checked: an unknown cell, a token not in the
    /// palette, or a text that cannot be cut into this board's cells is an
    /// error naming the value; [`Variant::validate`] gives the verdict.
    fn edit_place(
        &self,
        position: &str,
        cell: &str,
        token: Option<&str>,
    ) -> Result<String, VariantError>;
    /// `position` with `player` to move (the text's side field).
    fn edit_side(&self, position: &str, player: Player) -> Result<String, VariantError>;
    /// `position` with `player` holding `count` of the hand kind `label`
    /// (its text letter, or its picture label); an error for a family
    /// without hands.
    fn edit_hand(
        &self,
        position: &str,
        player: Player,
        label: &str,
        count: u32,
    ) -> Result<String, VariantError>;
    /// The reference's verdict on a position text: its canonical text, or
    /// the exact error of its reading.
    fn validate(&self, position: &str) -> Result<String, VariantError>;
    /// The pieces a position text places, read as the editor wrote them
    /// and not checked by the rules: what an editor shows while the
    /// position is not yet one the reference accepts. Tokens outside the
    /// palette are left out (the reference's error names them).
    fn edit_pieces(&self, position: &str) -> Result<Vec<crate::diagram::PieceMark>, VariantError>;
    /// The position `text` (default: the initial one) read once, to be
    /// asked several questions (see [`ReadPosition`]).
    fn read(&self, text: Option<&str>) -> Result<Box<dyn ReadPosition + '_>, VariantError>;
    /// A game from `start` (default: the initial position) played one
    /// action at a time, with facts about each legal action (see
    /// [`crate::walk`]); `seams fuzz` plays its random games with it.
    fn walk(&self, start: Option<&str>) -> Result<Box<dyn crate::walk::Walk + '_>, VariantError>;
    /// The practice opponent's choice in the position `at` reaches (see
    /// [`crate::opponent`]): the canonical action text, or `None` when the
    /// side to move has no legal action. The moves of `at` are its game
    /// so far, against which it judges returns to earlier positions; a
    /// result already reached is not consulted. `stop`, set from another
    /// thread, ends the search early.
    fn opponent_choice(
        &self,
        at: &At,
        settings: &crate::opponent::Settings,
        stop: &std::sync::atomic::AtomicBool,
    ) -> Result<Option<crate::opponent::Choice<String>>, VariantError>;
    /// A new game from the initial position, or from an edited setup
    /// (position text), which its record labels as edited.
    fn session(&self, start: Option<&str>) -> Result<Box<dyn Session + '_>, VariantError>;
    /// A saved game, replayed and checked as `record verify` checks it,
    /// ready to go on; the verdict when the record is refused.
    fn resume(&self, record: &Record) -> Result<Box<dyn Session + '_>, RecordVerdict>;
}

/// A position read from its text once, asked the [`Variant`] questions of
/// the same names with `moves` played from it first. An engine asked
/// several questions about one position in a row keeps it rather than
/// reading the text for each (see
/// [`Reference`](crate::conformance::reference::Reference)): `seams fuzz`
/// asks four about every position of its games.
pub trait ReadPosition: Send {
    fn legal_actions(&self, moves: &[String]) -> Result<Vec<String>, VariantError>;
    fn check_action(
        &self,
        moves: &[String],
        action: &str,
    ) -> Result<Result<String, ActionError>, VariantError>;
    fn perft(&self, moves: &[String], depth: u32) -> Result<u64, VariantError>;
    fn divide(&self, moves: &[String], depth: u32) -> Result<Vec<(String, u64)>, VariantError>;
    fn play(&self, moves: &[String]) -> Result<Played, VariantError>;
    fn reached(&self, moves: &[String]) -> Result<(String, String), VariantError>;
}

/// The [`ReadPosition`] of every family.
struct Read<'r, R: Rules> {
    rules: &'r R,
    start: R::Position,
    /// The start's legal actions, listed on first use: its legal actions,
    /// its status (whose endings need them) and a divide share them.
    legal: OnceCell<Vec<R::Action>>,
}

/// Reads `text` (default: the initial position).
fn read<'r, R: Rules>(rules: &'r R, text: Option<&str>) -> Result<Read<'r, R>, VariantError> {
    let start = match text {
        None => rules.start(),
        Some(text) => parse_start(rules, text)?,
    };
    Ok(Read {
        rules,
        start,
        legal: OnceCell::new(),
    })
}

impl<R: Rules> Read<'_, R> {
    fn start_legal(&self) -> &[R::Action] {
        self.legal
            .get_or_init(|| Rules::legal_actions(self.rules, &self.start))
    }

    /// The legal actions in `pos`, the position after `moves`.
    fn legal(&self, moves: &[String], pos: &R::Position) -> Cow<'_, [R::Action]> {
        if moves.is_empty() {
            Cow::Borrowed(self.start_legal())
        } else {
            Cow::Owned(Rules::legal_actions(self.rules, pos))
        }
    }

    /// The position after `moves`, played without game-end rules: the
    /// start itself, not a copy, when there are none.
    fn reach(&self, moves: &[String]) -> Result<Cow<'_, R::Position>, VariantError> {
        check_move_count(moves)?;
        if moves.is_empty() {
            return Ok(Cow::Borrowed(&self.start));
        }
        let mut pos = self.start.clone();
        for (i, text) in moves.iter().enumerate() {
            let a = self
                .rules
                .parse_action(&pos, text)
                .map_err(|error| VariantError::Move {
                    ply: i + 1,
                    text: text.clone(),
                    error: bounded(error),
                })?;
            pos = self.rules.apply(&pos, &a);
        }
        Ok(Cow::Owned(pos))
    }
}

impl<R: Rules> ReadPosition for Read<'_, R> {
    fn legal_actions(&self, moves: &[String]) -> Result<Vec<String>, VariantError> {
        let pos = self.reach(moves)?;
        let mut out = self.rules.format_legal(&pos, &self.legal(moves, &pos));
        out.sort();
        Ok(out)
    }

    fn check_action(
        &self,
        moves: &[String],
        action: &str,
    ) -> Result<Result<String, ActionError>, VariantError> {
        let pos = self.reach(moves)?;
        Ok(self
            .rules
            .parse_action(&pos, action)
            .map(|a| self.rules.format_action(&pos, &a))
            .map_err(bounded))
    }

    fn perft(&self, moves: &[String], depth: u32) -> Result<u64, VariantError> {
        check_perft_depth(depth)?;
        let pos = self.reach(moves)?;
        Ok(Rules::perft(self.rules, &pos, depth))
    }

    fn divide(&self, moves: &[String], depth: u32) -> Result<Vec<(String, u64)>, VariantError> {
        check_perft_depth(depth)?;
        let pos = self.reach(moves)?;
        let r = self.rules;
        let mut out: Vec<(String, u64)> = self
            .legal(moves, &pos)
            .iter()
            .map(|a| {
                let below = Rules::perft(r, &r.apply(&pos, a), depth.saturating_sub(1));
                (r.format_action(&pos, a), below)
            })
            .collect();
        out.sort();
        Ok(out)
    }

    fn play(&self, moves: &[String]) -> Result<Played, VariantError> {
        check_move_count(moves)?;
        let r = self.rules;
        let mut game = Game::listed(r, self.start.clone(), !self.start_legal().is_empty());
        for (i, text) in moves.iter().enumerate() {
            game.play_text(text).map_err(|error| VariantError::Move {
                ply: i + 1,
                text: text.clone(),
                error: bounded(error),
            })?;
        }
        let pos = game.position();
        Ok(Played {
            position: r.format_position(pos),
            to_move: r.to_move(pos),
            in_check: r.in_check(pos),
            result: game.result(),
            key: r.key(pos),
            occurrences: game.history().occurrences_of_current(),
        })
    }

    fn reached(&self, moves: &[String]) -> Result<(String, String), VariantError> {
        let pos = self.reach(moves)?;
        Ok((self.rules.format_position(&pos), self.rules.key(&pos)))
    }
}

/// Plays `at` without game-end rules: parse each move in turn.
fn reach<R: Rules>(rules: &R, at: &At) -> Result<R::Position, VariantError> {
    check_moves(at)?;
    Ok(read(rules, at.position)?.reach(at.moves)?.into_owned())
}

/// A position as its mover sees it, with its actions listed by text.
type Listing<R> = (<R as Rules>::Position, Vec<(String, <R as Rules>::Action)>);

/// The analysis actions of `mover` in `pos` (see
/// [`Rules::analysis_actions`]) with their texts, sorted by text and one
/// per text, and the position as the mover sees it; `None` for a family
/// without analysis. The texts are written as one list, so that a mark
/// telling two actions apart is decided among the analysis actions
/// themselves.
fn analysis_listing<R: Rules>(
    rules: &R,
    pos: &R::Position,
    mover: Player,
    king_safety: bool,
) -> Option<Listing<R>> {
    let (seen, actions) = rules.analysis_actions(pos, mover, king_safety)?;
    let mut listed: Vec<(String, R::Action)> = rules
        .format_legal(&seen, &actions)
        .into_iter()
        .zip(actions)
        .collect();
    listed.sort_by(|a, b| a.0.cmp(&b.0));
    listed.dedup_by(|a, b| a.0 == b.0);
    Some((seen, listed))
}

/// A position text within [`MAX_POSITION_TEXT_BYTES`] cut into the cells
/// of `draw`'s board.
fn edit_layout<R: Rules>(
    draw: &dyn crate::diagram::Draw<R::Position, R::Action>,
    position: &str,
) -> Result<crate::placement::Layout, VariantError> {
    if position.len() > MAX_POSITION_TEXT_BYTES {
        return Err(VariantError::TooLong {
            bytes: position.len(),
        });
    }
    // A `+` starts a piece only where some piece is written with one.
    let plus_prefix = draw.palette().iter().any(|e| e.token.starts_with('+'));
    Ok(crate::placement::layout_of(
        position,
        plus_prefix,
        draw.text_cells().len(),
    )?)
}

impl<R: Rules> Variant for R {
    fn edit_palette(&self) -> Vec<crate::placement::PaletteEntry> {
        self.drawing().map(|d| d.palette()).unwrap_or_default()
    }

    fn edit_cells(&self) -> Vec<String> {
        self.drawing().map(|d| d.text_cells()).unwrap_or_default()
    }

    fn edit_pieces(&self, position: &str) -> Result<Vec<crate::diagram::PieceMark>, VariantError> {
        let draw = self.drawing().ok_or_else(|| VariantError::NoPicture {
            variant: self.variant().to_string(),
        })?;
        let layout = edit_layout::<R>(draw, position)?;
        let palette = draw.palette();
        Ok(draw
            .text_cells()
            .into_iter()
            .enumerate()
            .filter_map(|(i, cell)| {
                let token = layout.cell(i)?;
                let e = palette.iter().find(|e| e.token == token)?;
                Some(crate::diagram::PieceMark {
                    cell,
                    owner: e.owner,
                    label: e.label.clone(),
                    promoted: e.promoted,
                    facing: e.facing,
                    other_face: e.other_face.clone(),
                    royal: false,
                    arrow: false,
                })
            })
            .collect())
    }

    fn edit_hands(&self) -> Option<crate::placement::HandShape> {
        self.drawing().and_then(|d| d.hand_shape())
    }

    fn edit_place(
        &self,
        position: &str,
        cell: &str,
        token: Option<&str>,
    ) -> Result<String, VariantError> {
        use crate::placement::EditError;
        let draw = self.drawing().ok_or_else(|| VariantError::NoPicture {
            variant: self.variant().to_string(),
        })?;
        let cells = draw.text_cells();
        let index = cells
            .iter()
            .position(|c| c == cell)
            .ok_or_else(|| EditError::UnknownCell {
                cell: quote::excerpt(cell).into_owned(),
                known: crate::names::Known::new(cell, cells.iter().map(String::as_str)),
            })?;
        if let Some(token) = token {
            let palette = draw.palette();
            if !palette.iter().any(|e| e.token == token) {
                return Err(EditError::UnknownToken {
                    token: quote::excerpt(token).into_owned(),
                    known: crate::names::Known::new(
                        token,
                        palette.iter().map(|e| e.token.as_str()),
                    ),
                }
                .into());
            }
        }
        let mut layout = edit_layout::<R>(draw, position)?;
        layout.set_cell(index, token);
        Ok(layout.write())
    }

    fn edit_side(&self, position: &str, player: Player) -> Result<String, VariantError> {
        use crate::placement::EditError;
        let draw = self.drawing().ok_or_else(|| VariantError::NoPicture {
            variant: self.variant().to_string(),
        })?;
        let mut layout = edit_layout::<R>(draw, position)?;
        // The side field and its two words, as this family writes them:
        // the first field where the start and the start with the move
        // passed differ.
        let start = self.start();
        let words = |pos: &R::Position| {
            let text = self.format_position(pos);
            crate::placement::Layout::parse(&text)
                .map(|l| l.fields().to_vec())
                .unwrap_or_default()
        };
        let first = words(&start);
        let second = self
            .other_to_move(&start)
            .map(|p| words(&p))
            .unwrap_or_default();
        let (index, word) = first
            .iter()
            .zip(&second)
            .enumerate()
            .find(|(_, (a, b))| a != b)
            .map(|(i, (a, b))| {
                (
                    i,
                    match player {
                        Player::First => a.clone(),
                        Player::Second => b.clone(),
                    },
                )
            })
            .ok_or(EditError::MissingField { field: "side" })?;
        let field = layout
            .fields
            .get_mut(index)
            .ok_or(EditError::MissingField { field: "side" })?;
        *field = word;
        Ok(layout.write())
    }

    fn edit_hand(
        &self,
        position: &str,
        player: Player,
        label: &str,
        count: u32,
    ) -> Result<String, VariantError> {
        let draw = self.drawing().ok_or_else(|| VariantError::NoPicture {
            variant: self.variant().to_string(),
        })?;
        let shape = draw
            .hand_shape()
            .ok_or_else(|| crate::placement::EditError::NoHands {
                variant: self.variant().to_string(),
            })?;
        let mut layout = edit_layout::<R>(draw, position)?;
        crate::placement::set_hand(&mut layout, &shape, player, label, count)?;
        Ok(layout.write())
    }

    fn validate(&self, position: &str) -> Result<String, VariantError> {
        let pos = parse_start(self, position)?;
        Ok(self.format_position(&pos))
    }

    fn session(&self, start: Option<&str>) -> Result<Box<dyn Session + '_>, VariantError> {
        let live = match start {
            None => Live::new(self, self.start(), false),
            Some(text) => Live::new(self, parse_start(self, text)?, true),
        };
        Ok(Box::new(live))
    }

    fn resume(&self, record: &Record) -> Result<Box<dyn Session + '_>, RecordVerdict> {
        match Variant::verify_record(self, record) {
            RecordVerdict::Accepted { .. } => {}
            refused => return Err(refused),
        }
        let mut live = match &record.start {
            RecordStart::Initial => Live::new(self, self.start(), false),
            RecordStart::Edited { position } => {
                let start = parse_start(self, position)
                    .map_err(|e| reject(0, RecordReason::BadStart, None, e.to_string()))?;
                Live::new(self, start, true)
            }
        };
        for (i, text) in record.actions.iter().enumerate() {
            // Verified above; a refusal here would be a bug, reported as
            // the verdict it would be rather than a panic.
            live.play(text)
                .map_err(|e| reject(i + 1, RecordReason::IllegalAction, Some(e.code), e.message))?;
        }
        Ok(Box::new(live))
    }

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
                    .map_err(bounded)
            })
            .collect())
    }

    fn design_facts(&self) -> Option<crate::design::Facts> {
        Rules::design_facts(self)
    }

    fn display_arrows(
        &self,
        start: Option<&str>,
        actions: &[String],
    ) -> Result<Vec<(String, crate::movement::Facing)>, VariantError> {
        check_moves(&At {
            position: start,
            moves: actions,
        })?;
        let first = match start {
            None => self.start(),
            Some(text) => parse_start(self, text)?,
        };
        let mut pos = first.clone();
        let mut played = Vec::with_capacity(actions.len());
        for (i, text) in actions.iter().enumerate() {
            if matches!(text.trim(), "resign" | "draw") {
                continue;
            }
            let a = self
                .parse_action(&pos, text)
                .map_err(|error| VariantError::Move {
                    ply: i + 1,
                    text: quote::excerpt(text).into_owned(),
                    error: bounded(error),
                })?;
            pos = self.apply(&pos, &a);
            played.push(a);
        }
        Ok(Rules::display_arrows(self, &first, &played))
    }

    fn walk(&self, start: Option<&str>) -> Result<Box<dyn crate::walk::Walk + '_>, VariantError> {
        let pos = match start {
            None => self.start(),
            Some(text) => parse_start(self, text)?,
        };
        Ok(Box::new(crate::walk::Walker::new(self, pos)))
    }

    fn opponent_choice(
        &self,
        at: &At,
        settings: &crate::opponent::Settings,
        stop: &std::sync::atomic::AtomicBool,
    ) -> Result<Option<crate::opponent::Choice<String>>, VariantError> {
        // Played as a game through a session, so the opponent judges
        // repetitions against the same history a game keeps.
        Ok(session_at(self, at)?.opponent_choice(settings, stop))
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
        Ok(analysis_listing(self, &pos, mover, king_safety)
            .map(|(_, listed)| listed.into_iter().map(|(text, _)| text).collect()))
    }

    fn analysis_line(
        &self,
        at: &At,
        steps: &[AnalysisStep],
        mover: Player,
        king_safety: bool,
    ) -> Result<Option<AnalysisLine>, VariantError> {
        let draw = self.drawing().ok_or_else(|| VariantError::NoPicture {
            variant: self.variant().to_string(),
        })?;
        if steps.len() > MAX_MOVES {
            return Err(VariantError::TooManyMoves { count: steps.len() });
        }
        let mut pos = reach(self, at)?;
        for (i, step) in steps.iter().enumerate() {
            let Some((seen, listed)) = analysis_listing(self, &pos, step.mover, step.king_safety)
            else {
                return Ok(None);
            };
            // Matched by canonical text: the line holds what the player
            // chose from an earlier answer.
            let wanted = step.action.trim();
            let Some((_, chosen)) = listed.iter().find(|(t, _)| t == wanted) else {
                return Err(VariantError::Move {
                    ply: at.moves.len() + i + 1,
                    text: step.action.clone(),
                    error: ActionError {
                        code: IllegalReason::Unreachable,
                        message: "not an action of this analysis position".into(),
                    },
                });
            };
            pos = self.apply(&seen, chosen);
        }
        let Some((seen, listed)) = analysis_listing(self, &pos, mover, king_safety) else {
            return Ok(None);
        };
        let moves = listed
            .into_iter()
            .map(|(text, a)| {
                let mark = draw.action_mark(&seen, &a);
                (text, mark)
            })
            .collect();
        let position = self.format_position(&pos);
        Ok(Some(AnalysisLine {
            refused: self.parse_position(&position).err().map(|e| e.to_string()),
            position,
            diagram: draw.diagram(&pos),
            moves,
        }))
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
        check_moves(at)?;
        read(self, at.position)?.legal_actions(at.moves)
    }

    fn check_action(
        &self,
        at: &At,
        action: &str,
    ) -> Result<Result<String, ActionError>, VariantError> {
        check_moves(at)?;
        read(self, at.position)?.check_action(at.moves, action)
    }

    fn perft(&self, at: &At, depth: u32) -> Result<u64, VariantError> {
        check_perft_depth(depth)?;
        check_moves(at)?;
        read(self, at.position)?.perft(at.moves, depth)
    }

    fn divide(&self, at: &At, depth: u32) -> Result<Vec<(String, u64)>, VariantError> {
        check_perft_depth(depth)?;
        check_moves(at)?;
        read(self, at.position)?.divide(at.moves, depth)
    }

    fn play(&self, at: &At) -> Result<Played, VariantError> {
        check_moves(at)?;
        read(self, at.position)?.play(at.moves)
    }

    fn reached(&self, at: &At) -> Result<(String, String), VariantError> {
        check_moves(at)?;
        read(self, at.position)?.reached(at.moves)
    }

    fn read(&self, text: Option<&str>) -> Result<Box<dyn ReadPosition + '_>, VariantError> {
        Ok(Box::new(read(self, text)?))
    }

    fn verify_record(&self, record: &Record) -> RecordVerdict {
        let head = RecordHead::of(record);
        let mut replay = match Variant::replay(self, &head) {
            Ok(r) => r,
            Err(v) => return v,
        };
        for text in &record.actions {
            if let Err(v) = replay.play(text) {
                return v;
            }
        }
        replay.finish()
    }

    fn replay<'s>(&'s self, head: &RecordHead) -> Result<Box<dyn Replay + 's>, RecordVerdict> {
        if let Some(format) = head.format
            && !(1..=RECORD_FORMAT).contains(&format)
        {
            return Err(reject(
                0,
                RecordReason::UnknownFormat,
                None,
                format!(
                    "record format {format} is not one this engine reads (1 to {RECORD_FORMAT})"
                ),
            ));
        }
        if head.variant != self.variant() {
            return Err(reject(
                0,
                RecordReason::WrongVariant,
                None,
                format!(
                    "the record is for '{}', not '{}'",
                    quote::excerpt(&head.variant),
                    self.variant()
                ),
            ));
        }
        if head.rules != Rules::rules_version(self) {
            return Err(reject(
                0,
                RecordReason::WrongRulesVersion,
                None,
                format!(
                    "the record was played under rules {}, this engine implements {}",
                    quote::excerpt(&head.rules),
                    Rules::rules_version(self)
                ),
            ));
        }
        let start = match &head.start {
            RecordStart::Initial => self.start(),
            RecordStart::Edited { position } => parse_start(self, position)
                .map_err(|e| reject(0, RecordReason::BadStart, None, e.to_string()))?,
        };
        Ok(Box::new(Replayer {
            game: Game::new(self, start),
            actions: 0,
            result: head.result,
            final_position: head.final_position.clone(),
            rights: head.rights.clone(),
            repetitions: head.repetitions.clone(),
        }))
    }
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
    fn of(record: &Record) -> RecordHead {
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

fn reject(
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
struct Replayer<'r, R: Rules> {
    game: Game<'r, R>,
    /// Actions played so far, decisions included.
    actions: usize,
    result: Option<GameResult>,
    final_position: Option<String>,
    rights: Option<Rights>,
    repetitions: Option<Vec<Repetition>>,
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
                    describe(self.result),
                    describe(self.game.result())
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

/// A record's JSON text that cannot be read as a record.
#[derive(Debug, thiserror::Error)]
pub enum RecordJsonError {
    #[error("line {line} column {column}: {message}")]
    Json {
        line: usize,
        column: usize,
        message: String,
    },
    #[error(transparent)]
    Variant(#[from] VariantError),
}

impl From<serde_json::Error> for RecordJsonError {
    fn from(e: serde_json::Error) -> RecordJsonError {
        RecordJsonError::Json {
            line: e.line(),
            column: e.column(),
            // serde_json's text ends with the position, given apart here.
            message: quote::bounded(
                e.to_string()
                    .rsplit_once(" at line ")
                    .map_or(e.to_string().as_str(), |(m, _)| m),
            )
            .into_owned(),
        }
    }
}

/// Verifies a record given as JSON text, streaming its actions: the text
/// is read twice, once for everything but the actions (skipped without
/// being kept) and once playing each action as it is read, so memory holds
/// the text, the current position and the history's compact keys, never
/// the list of actions.
pub fn verify_record_json(
    variants: &[&dyn Variant],
    text: &str,
) -> Result<RecordVerdict, RecordJsonError> {
    // The record's fields spelled out: `#[serde(flatten)]` would buffer
    // the whole action list before skipping it.
    #[derive(Deserialize)]
    #[serde(deny_unknown_fields)]
    struct Shape {
        variant: String,
        rules: String,
        start: RecordStart,
        #[allow(dead_code)] // checked for shape, then streamed in the second pass
        actions: serde::de::IgnoredAny,
        result: Option<GameResult>,
        #[serde(default)]
        final_position: Option<String>,
        #[serde(default)]
        format: Option<u32>,
        #[serde(default)]
        rights: Option<Rights>,
        #[serde(default)]
        repetitions: Option<Vec<Repetition>>,
    }
    let shape: Shape = serde_json::from_str(text)?;
    let head = RecordHead {
        format: shape.format,
        variant: shape.variant,
        rules: shape.rules,
        start: shape.start,
        result: shape.result,
        final_position: shape.final_position,
        rights: shape.rights,
        repetitions: shape.repetitions,
    };
    let variant = find_in(variants, &head.variant)?;
    let mut replay = match variant.replay(&head) {
        Ok(r) => r,
        Err(verdict) => return Ok(verdict),
    };
    let mut rejected = None;
    let mut de = serde_json::Deserializer::from_str(text);
    serde::de::Deserializer::deserialize_map(
        &mut de,
        StreamActions {
            replay: replay.as_mut(),
            rejected: &mut rejected,
        },
    )?;
    Ok(match rejected {
        Some(verdict) => verdict,
        None => replay.finish(),
    })
}

/// The second pass of [`verify_record_json`]: every field skipped but
/// `actions`, whose elements are played one by one.
struct StreamActions<'a> {
    replay: &'a mut dyn Replay,
    rejected: &'a mut Option<RecordVerdict>,
}

impl<'de> serde::de::Visitor<'de> for StreamActions<'_> {
    type Value = ();

    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("a game record")
    }

    fn visit_map<M: serde::de::MapAccess<'de>>(self, mut map: M) -> Result<(), M::Error> {
        while let Some(key) = map.next_key::<String>()? {
            if key == "actions" {
                map.next_value_seed(StreamActions {
                    replay: &mut *self.replay,
                    rejected: &mut *self.rejected,
                })?;
            } else {
                map.next_value::<serde::de::IgnoredAny>()?;
            }
        }
        Ok(())
    }

    fn visit_seq<S: serde::de::SeqAccess<'de>>(self, mut seq: S) -> Result<(), S::Error> {
        while let Some(text) = seq.next_element::<String>()? {
            // After a rejection the rest is only read, to check the JSON.
            if self.rejected.is_none()
                && let Err(verdict) = self.replay.play(&text)
            {
                *self.rejected = Some(verdict);
            }
        }
        Ok(())
    }
}

impl<'de> serde::de::DeserializeSeed<'de> for StreamActions<'_> {
    type Value = ();

    fn deserialize<D: serde::Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
        d.deserialize_seq(self)
    }
}

fn describe(r: Option<GameResult>) -> String {
    match r {
        None => "no result (the game goes on)".into(),
        Some(GameResult {
            winner: None,
            reason,
        }) => format!("a draw by {reason}"),
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
            reason
        ),
    }
}

/// Perft below each legal action of `at`, sorted by action text, with the
/// root split across `threads` workers (at least 1): the counts are those
/// of [`Variant::divide`], whatever the number of threads.
pub fn divide_parallel(
    v: &dyn Variant,
    at: &At,
    depth: u32,
    threads: usize,
) -> Result<Vec<(String, u64)>, VariantError> {
    check_perft_depth(depth)?;
    if threads <= 1 || depth == 0 {
        return v.divide(at, depth);
    }
    let roots = v.legal_actions(at)?;
    let next = std::sync::atomic::AtomicUsize::new(0);
    let counts: Vec<std::sync::atomic::AtomicU64> =
        roots.iter().map(|_| Default::default()).collect();
    let work = || -> Result<(), VariantError> {
        loop {
            // Workers take the next root action until none is left, so a
            // slow subtree does not hold back the others.
            let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
            let Some(action) = roots.get(i) else {
                return Ok(());
            };
            let mut moves = at.moves.to_vec();
            moves.push(action.clone());
            let below = v.perft(
                &At {
                    position: at.position,
                    moves: &moves,
                },
                depth - 1,
            )?;
            counts[i].store(below, std::sync::atomic::Ordering::Relaxed);
        }
    };
    std::thread::scope(|scope| {
        let workers: Vec<_> = (0..threads.min(roots.len().max(1)))
            .map(|_| scope.spawn(work))
            .collect();
        workers
            .into_iter()
            // A worker's panic is a bug in the rules: pass it on.
            .map(|w| w.join().unwrap_or_else(|p| std::panic::resume_unwind(p)))
            .collect::<Result<Vec<()>, VariantError>>()
    })?;
    let mut out: Vec<(String, u64)> = roots
        .into_iter()
        .zip(counts)
        .map(|(a, n)| (a, n.into_inner()))
        .collect();
    out.sort();
    Ok(out)
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
