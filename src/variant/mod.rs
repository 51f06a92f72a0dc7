//! Rule families seen through text: the one interface the CLI, the corpus
//! checker and the engine protocol use. Positions and actions are strings
//! in each family's documented formats. [`Variant`] is implemented once,
//! for every [`Rules`] family, in `for_rules.rs`, so a family never writes
//! glue code; `read.rs` keeps a position read from its text for several
//! questions, and `records.rs` verifies a record's JSON as a stream. The
//! shipped variants are listed by [`crate::registry`].

mod for_rules;
pub mod perft_report;
mod read;
mod records;

use serde::{Deserialize, Serialize};

use crate::quote;
use crate::record::{Record, RecordHead, RecordVerdict, Replay};
pub use crate::rules::perft_table::{MAX_TABLE_MIB, PerftTable};
use crate::rules::{
    ActionError, GameResult, MAX_POSITION_TEXT_BYTES, Player, PositionError, Rules,
};
use crate::session::Session;
use crate::shard::Shard;

pub use read::ReadPosition;
pub use records::{RecordJsonError, verify_record_json};

/// The deepest perft any command, protocol request or corpus case may ask
/// for. The deepest perft ever published is 15 (orthodox chess); the bound
/// keeps a typo such as `4294967295` from recursing until the stack
/// overflows, while any real question stays far below it.
pub const MAX_PERFT_DEPTH: u32 = 20;

/// The most actions a question may play before it is asked (`--moves`, a
/// protocol request's `moves`). Game records are not bounded by it: they
/// are replayed as a stream.
pub const MAX_MOVES: usize = 100_000;

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
    pub diagram: crate::rules::drawing::Diagram,
    /// What the mover may try next, sorted by text.
    pub moves: Vec<(String, crate::rules::drawing::ActionMark)>,
    /// Each of `moves`' routes, in the same order (see
    /// [`Variant::action_routes`]).
    pub routes: Vec<Vec<crate::rules::drawing::Route>>,
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

/// A rule family instance seen through text.
pub trait Variant: Send + Sync {
    fn name(&self) -> &str;
    fn rules_version(&self) -> &str;
    /// Rule features beyond the basic commands (see [`Rules::capabilities`]).
    fn capabilities(&self) -> &'static [&'static str];
    fn start_position(&self) -> String;
    /// A player's name as the family's rules give it ([`Rules::player_name`]).
    fn player_name(&self, p: Player) -> &'static str;
    /// Canonical texts of all legal actions, sorted.
    fn legal_actions(&self, at: &At) -> Result<Vec<String>, VariantError>;
    /// Whether `action` is legal (its canonical text) or why not.
    fn check_action(
        &self,
        at: &At,
        action: &str,
    ) -> Result<Result<String, ActionError>, VariantError>;
    fn perft(&self, at: &At, depth: u32) -> Result<u64, VariantError>;
    /// [`Variant::perft`] with a transposition table shared by whoever
    /// holds it ([`Rules::perft_hashed`]): the same count, sooner when
    /// positions repeat.
    fn perft_hashed(&self, at: &At, depth: u32, table: &PerftTable) -> Result<u64, VariantError>;
    /// Perft below each legal action, sorted by action text.
    fn divide(&self, at: &At, depth: u32) -> Result<Vec<(String, u64)>, VariantError>;
    /// Canonical texts of all legal actions by the family's second path
    /// ([`Rules::independent_legal_actions`]), sorted; `None` without one.
    fn independent_legal_actions(&self, at: &At) -> Result<Option<Vec<String>>, VariantError>;
    /// Perft by the family's second path ([`Rules::independent_perft`]);
    /// `None` without one.
    fn independent_perft(&self, at: &At, depth: u32) -> Result<Option<u64>, VariantError>;
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
    /// The position as a picture (see [`crate::rules::drawing`]).
    fn diagram(&self, at: &At) -> Result<crate::rules::drawing::Diagram, VariantError>;
    /// Each action text placed on the picture of the position, or why it
    /// cannot be: one bad text does not spoil the others.
    fn action_marks(
        &self,
        at: &At,
        actions: &[String],
    ) -> Result<Vec<Result<crate::rules::drawing::ActionMark, ActionError>>, VariantError>;
    /// The routes by which each action's piece reaches its destination
    /// (see [`crate::rules::drawing::Draw::action_routes`]), in the order
    /// of `actions`: none for a text that is no action of the position,
    /// for a drop, or where the family traces none.
    fn action_routes(
        &self,
        at: &At,
        actions: &[String],
    ) -> Result<Vec<Vec<crate::rules::drawing::Route>>, VariantError>;
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
    fn design_facts(&self) -> Option<crate::rules::design_facts::Facts>;
    /// The position editor's pieces: every piece that may be placed on
    /// this variant's board, as its position text writes it (empty for a
    /// family that cannot be pictured).
    fn edit_palette(&self) -> Vec<crate::rules::drawing::PaletteEntry>;
    /// Every cell's canonical name in the order the position text writes
    /// the placement (empty for a family that cannot be pictured).
    fn edit_cells(&self) -> Vec<String>;
    /// What a hand may hold and how the text writes it; `None` for a
    /// family without hands.
    fn edit_hands(&self) -> Option<crate::rules::drawing::HandShape>;
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
    fn edit_pieces(
        &self,
        position: &str,
    ) -> Result<Vec<crate::rules::drawing::PieceMark>, VariantError>;
    /// The hands a position text writes, read as the editor wrote them
    /// and not checked by the rules: each hand kind's picture label with
    /// the first and the second player's counts, in the order the text
    /// writes them; empty for a family without hands.
    fn edit_hand_counts(&self, position: &str) -> Result<Vec<(String, [u32; 2])>, VariantError>;
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

/// Why an audit cannot be asked.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum AuditError {
    #[error("--plies must be between 1 and {max}, not {0}", max = crate::audit::MAX_PLIES)]
    Plies(u32),
    #[error(transparent)]
    Variant(#[from] VariantError),
}

/// The opening audit of a position of `variant` (any variant, those of an
/// edited spec included), with `plies` checked.
pub fn audit_of(
    variant: &dyn Variant,
    at: &At,
    plies: u32,
) -> Result<crate::audit::Report, AuditError> {
    if plies == 0 || plies > crate::audit::MAX_PLIES {
        return Err(AuditError::Plies(plies));
    }
    Ok(variant.audit(at, plies)?)
}

/// Which path a perft count goes through.
#[derive(
    Copy, Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema,
)]
#[serde(rename_all = "kebab-case")]
pub enum Counter {
    /// [`Variant::perft`]: the family's fast count.
    #[default]
    Perft,
    /// [`Variant::independent_perft`]: the family's second path, written
    /// apart from the first so that agreement is evidence.
    Independent,
}

/// A perft count to make: how deep, on how many threads, which part of
/// the root actions, by which path.
#[derive(Copy, Clone, Debug)]
pub struct PerftJob {
    pub depth: u32,
    /// Workers sharing the root actions (at least 1).
    pub threads: usize,
    /// The root actions counted: those whose text this shard holds.
    pub shard: Shard,
    pub counter: Counter,
    /// A transposition table of at most this many MiB (0: none) shared by
    /// the job's threads; only the fast path uses one.
    pub hash_mib: usize,
}

/// One shard's divide: how many legal root actions there are in all, and
/// the count below each that the shard holds, sorted by action text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ShardDivide {
    pub roots: usize,
    pub rows: Vec<(String, u64)>,
}

/// Why a perft job cannot be done.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PerftError {
    #[error(transparent)]
    Variant(#[from] VariantError),
    #[error(
        "{0} has no second counting path (its second count is another engine's; see conformance/PERFT.md)"
    )]
    NoIndependentPath(String),
    #[error("depth 0 has no root actions to split into shards")]
    ShardAtDepthZero,
    #[error("the second path counts without a transposition table: drop --hash or --independent")]
    HashWithIndependent,
    #[error("a transposition table of {mib} MiB is over the bound of {MAX_TABLE_MIB} MiB")]
    HashTooLarge { mib: usize },
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
    let job = PerftJob {
        depth,
        threads,
        shard: Shard::WHOLE,
        counter: Counter::Perft,
        hash_mib: 0,
    };
    match divide_job(v, at, &job, &|_| ()) {
        Ok(d) => Ok(d.rows),
        Err(PerftError::Variant(e)) => Err(e),
        // The fast path of the whole root exists for every family.
        Err(e) => unreachable!("{e}"),
    }
}

/// The root actions of `at` the job's shard holds, each with the count
/// below it by the job's path, the root split across the job's threads.
/// The counts are the same for any number of threads, and the shards of a
/// split together hold every root action once. `done` hears of each root
/// action as its count ends (a progress bar).
pub fn divide_job(
    v: &dyn Variant,
    at: &At,
    job: &PerftJob,
    done: &(dyn Fn(&str) + Sync),
) -> Result<ShardDivide, PerftError> {
    check_perft_depth(job.depth)?;
    if job.depth == 0 && !job.shard.is_whole() {
        return Err(PerftError::ShardAtDepthZero);
    }
    let independent = job.counter == Counter::Independent;
    if job.hash_mib > MAX_TABLE_MIB {
        return Err(PerftError::HashTooLarge { mib: job.hash_mib });
    }
    if independent && job.hash_mib > 0 {
        return Err(PerftError::HashWithIndependent);
    }
    let table = (job.hash_mib > 0).then(|| PerftTable::with_mib(job.hash_mib));
    if !independent && job.depth == 0 {
        let rows = v.divide(at, 0)?;
        return Ok(ShardDivide {
            roots: rows.len(),
            rows,
        });
    }
    let all = if independent {
        v.independent_legal_actions(at)?
            .ok_or_else(|| PerftError::NoIndependentPath(v.name().to_string()))?
    } else {
        v.legal_actions(at)?
    };
    let roots = all.len();
    let mine: Vec<String> = all.into_iter().filter(|a| job.shard.holds(a)).collect();
    let below = |action: &String| -> Result<u64, VariantError> {
        let mut moves = at.moves.to_vec();
        moves.push(action.clone());
        let at = At {
            position: at.position,
            moves: &moves,
        };
        let depth = job.depth.saturating_sub(1);
        let n = if independent {
            // The family has the path: the root was listed by it.
            v.independent_perft(&at, depth)?.unwrap_or(0)
        } else if let Some(table) = &table {
            v.perft_hashed(&at, depth, table)?
        } else {
            v.perft(&at, depth)?
        };
        done(action);
        Ok(n)
    };
    let counts = on_threads(&mine, job.threads, below)?;
    let mut rows: Vec<(String, u64)> = mine.into_iter().zip(counts).collect();
    rows.sort();
    Ok(ShardDivide { roots, rows })
}

/// `work` on each of `items` across `threads` workers (at least 1), the
/// results in the items' order.
fn on_threads(
    items: &[String],
    threads: usize,
    work: impl Fn(&String) -> Result<u64, VariantError> + Sync,
) -> Result<Vec<u64>, VariantError> {
    use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
    let next = AtomicUsize::new(0);
    let counts: Vec<AtomicU64> = items.iter().map(|_| AtomicU64::new(0)).collect();
    let worker = || -> Result<(), VariantError> {
        loop {
            // Workers take the next root action until none is left, so a
            // slow subtree does not hold back the others.
            let i = next.fetch_add(1, Ordering::Relaxed);
            let Some(item) = items.get(i) else {
                return Ok(());
            };
            counts[i].store(work(item)?, Ordering::Relaxed);
        }
    };
    std::thread::scope(|scope| {
        let workers: Vec<_> = (0..threads.clamp(1, items.len().max(1)))
            .map(|_| scope.spawn(worker))
            .collect();
        workers
            .into_iter()
            // A worker's panic is a bug in the rules: pass it on.
            .map(|w| w.join().unwrap_or_else(|p| std::panic::resume_unwind(p)))
            .collect::<Result<Vec<()>, VariantError>>()
    })?;
    Ok(counts.into_iter().map(AtomicU64::into_inner).collect())
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
