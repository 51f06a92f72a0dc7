//! Differential testing (`seams fuzz`): seeded random games in which an
//! engine is asked, at every position, what the reference knows.
//!
//! The reference plays `games` random games of up to `plies` plies per
//! variant, choosing actions with a bias toward what breaks engines
//! ([`play`]). At every position the engine is asked the questions its
//! `hello` declares ([`ask`]): the legal action set, the status (side to
//! move, check, result, position), the position after the chosen action,
//! the repetition key (judged only by how keys group positions, so an
//! engine may write keys its own way), and now and then perft divide at
//! depth 2. Positions are sent as text, so a question costs the engine one
//! position to read, not a game to replay; the status is asked with the
//! game's actions when history matters (a repeated position, the game's
//! end, and one position in sixteen at random).
//!
//! Games are interleaved across variants (game 1 of every variant, then
//! game 2, …), so a mistake in any variant shows early. Besides games from
//! the initial position, some start from it with pieces taken off, some
//! hunt for perpetual checks, and with `edited` some start from made-up
//! positions ([`edit`]). Each game has its own random stream, derived from
//! the seed, the variant and the game's number, so a run is reproduced by
//! its seed, and one game by `--variant` and `--games`.
//!
//! No game depends on another: keys are grouped, and `unsupported`
//! remembered, within one game, and a game's tallies are its own
//! [`GameFacts`]. A run may therefore be split into shards
//! ([`Options::shard`]: the games whose key `variant/game` the shard
//! holds), each a run of its own, and [`merge`] rebuilds from the shards'
//! reports the run one process would have made, cutting at the first
//! finding it would have stopped at.
//!
//! On a disagreement the game stops; the action sequence is shrunk by
//! delta debugging to a short one that still disagrees ([`shrink`]), and
//! the finding carries a ready-made corpus case. A disagreement that an
//! expectations file documents ([`KnownDifference`]) ends its game and is
//! counted instead. Thin spots ([`thin`]) are counted along the way.
//!
//! Rule code does no I/O: the engine is any [`Engine`], progress goes to a
//! callback, and the command line (`src/cli/fuzz.rs`) writes the files.
//!
//! This file holds the public types, [`check_counts`] and the run across
//! variants; the rest is apart by what it does: `plan.rs` picks what a run
//! plays, `state.rs` keeps each variant's tallies across its games,
//! `game.rs` plays one game and posts its questions, and `judge.rs` judges
//! the replies and turns a disagreement into a raw finding.

pub mod ask;
mod edit;
mod game;
mod judge;
pub mod merge;
mod plan;
mod play;
pub mod report;
pub mod rng;
mod seed;
mod shrink;
mod state;
pub mod tally;
pub mod thin;

use std::collections::BTreeMap;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use serde::{Deserialize, Serialize};

pub use ask::{Difference, Form, Question};
pub use plan::plan;
pub use tally::{GameEnd, GameFacts};
pub use thin::Spot;

use super::case::Case;
use super::engine::Engine;
use super::expectations::KnownDifference;
use crate::shard::Shard;
use crate::variant::Variant;
use game::{Ended, Game};
use state::State;

/// The most games per variant a run may ask for.
pub const MAX_GAMES: u32 = 1_000_000;
/// The most plies a game may last.
pub const MAX_PLIES: u32 = 10_000;
/// The default number of games per variant.
pub const DEFAULT_GAMES: u32 = 200;
/// The default longest game.
pub const DEFAULT_PLIES: u32 = 120;

/// What a run does.
pub struct Options<'a> {
    pub games: u32,
    pub plies: u32,
    pub seed: u64,
    /// Also start games from made-up positions.
    pub edited: bool,
    /// After a finding, go on with the other variants.
    pub keep_going: bool,
    /// No game goes on past this instant (`--max-time`).
    pub deadline: Option<Instant>,
    /// Set from outside (Ctrl-C) to stop at the next position.
    pub stop: Option<&'a AtomicBool>,
    /// Documented differences (`--expect`).
    pub differences: &'a [KnownDifference],
    /// How the engine is named in the provenance of written cases.
    pub engine_label: String,
    /// The part of the run to play (`--shard`): the games whose key
    /// ([`game_key`]) the shard holds, each game's facts kept in the run's
    /// summary for a merge. `None` plays every game and keeps only sums.
    pub shard: Option<Shard>,
}

/// The key that puts a game in a shard: `variant/game`, the game counted
/// from 0, such as `chess-klein/17`. It names the game alone, so a game
/// is in the same shard of every split into the same number of parts,
/// whatever the other options.
pub fn game_key(variant: &str, game: u32) -> String {
    format!("{variant}/{game}")
}

/// A stable digest of the documented differences a run may meet
/// (`--expect`), so that shards run with different expectations are not
/// merged; `None` when there are none.
pub fn expectations_digest(differences: &[KnownDifference]) -> Option<String> {
    if differences.is_empty() {
        return None;
    }
    let text = serde_json::to_string(differences).unwrap_or_default();
    Some(format!(
        "fnv1a-64:{:016x}",
        crate::shard::fnv1a(text.as_bytes())
    ))
}

/// Why a run cannot start.
#[derive(Debug, thiserror::Error)]
pub enum FuzzError {
    #[error("--games must be between 1 and {MAX_GAMES}, not {0}")]
    Games(u32),
    #[error("--plies must be between 1 and {MAX_PLIES}, not {0}")]
    Plies(u32),
    #[error(
        "the engine '{0}' declares none of the questions seams fuzz asks: its hello lists \
         none of the commands legal_actions, apply, status, key, perft with its capability"
    )]
    NoQuestion(String),
    #[error("{0}")]
    Variant(#[from] crate::variant::VariantError),
    #[error("the engine does not play the variant '{variant}' ({reason})")]
    NotPlayed { variant: String, reason: String },
    #[error("the engine plays no variant the reference knows under the same rules version{0}")]
    NothingToPlay(String),
}

/// What a run will play: the variants and the questions.
pub struct Plan<'v> {
    pub variants: Vec<&'v dyn Variant>,
    pub questions: Vec<Question>,
    /// Variants left out, and why.
    pub skipped: Vec<Skipped>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Skipped {
    pub variant: String,
    pub reason: String,
}

/// Checks the number of games and plies against their bounds.
pub fn check_counts(games: u32, plies: u32) -> Result<(), FuzzError> {
    if !(1..=MAX_GAMES).contains(&games) {
        return Err(FuzzError::Games(games));
    }
    if !(1..=MAX_PLIES).contains(&plies) {
        return Err(FuzzError::Plies(plies));
    }
    Ok(())
}

/// How a game began.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum StartKind {
    /// The variant's initial position.
    Initial,
    /// The initial position with some pieces taken off.
    Thinned,
    /// Hunting perpetual checks (from an initial or thinned start).
    Hunting,
    /// Made up one or two actions away from a thin spot (no legal action
    /// without check; en passant by or against a reversed pawn).
    Seeded,
    /// A made-up position (`edited`).
    Edited,
}

/// Why a run ended.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "kebab-case")]
pub enum Stop {
    /// Every game was played.
    Completed,
    /// A disagreement was found (without `keep_going`).
    Found,
    /// The time limit was reached.
    MaxTime,
    /// Stopped from outside (Ctrl-C).
    Interrupted,
    /// The engine crashed or timed out too often in a row.
    EngineDead { reason: String },
}

/// A documented difference met, and how often.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Documented {
    pub question: Question,
    pub note: String,
    pub count: u64,
    /// Where it was first met.
    pub example: String,
}

/// One thin spot's count in one variant.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct ThinCount {
    pub spot: Spot,
    pub count: usize,
    /// The count a default run should reach here, if the spot applies.
    pub target: Option<usize>,
}

/// What happened in one variant: its games' facts, summed.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct VariantRun {
    pub variant: String,
    pub games: u32,
    pub positions: u64,
    /// Questions asked, by kind.
    pub asked: BTreeMap<Question, u64>,
    pub starts: BTreeMap<StartKind, u32>,
    pub documented: Vec<Documented>,
    /// Questions the engine answered `unsupported` in some game (not asked
    /// again in that game).
    pub unsupported: Vec<Question>,
    pub thin: Vec<ThinCount>,
    /// A shard's games, each with its facts, in order: what a merge needs
    /// to cut where one run would have stopped and to sum the rest. `None`
    /// for a run without `--shard`, which keeps only sums.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub per_game: Option<Vec<GameFacts>>,
}

/// A disagreement, shrunk, with the corpus case that asks it.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Finding {
    pub variant: String,
    /// The game (from 0) and the position in it (its number of actions).
    pub game: u32,
    pub ply: usize,
    pub question: Question,
    /// How the question is put in the case: a position text or the moves.
    pub form: Form,
    /// The game's start: `None` for the initial position.
    pub start: Option<String>,
    /// Actions played before the question when it was found.
    pub found_after: usize,
    /// The shrunk action sequence from the start.
    pub actions: Vec<String>,
    /// Pieces taken off an edited start while shrinking.
    pub pieces_removed: usize,
    /// The position asked about, after the shrunk sequence.
    pub position: String,
    /// Questions asked while shrinking.
    pub shrink_tests: usize,
    pub difference: Difference,
    /// The ready-made corpus case (provenance `reference`, NOT REVIEWED).
    pub case: Case,
    /// Whether the engine fails the case as written (a difference in
    /// `apply`, which no check kind asks, may not show in `status`);
    /// `None` when the run's time was up before it could be asked. A run
    /// stopped while shrinking reports the shortest sequence that still
    /// disagreed.
    pub case_reproduces: Option<bool>,
    /// The command that replays its game, and where its case was written:
    /// filled in by the command line, `None` from [`run`].
    #[serde(default)]
    pub reproduce: Option<String>,
    #[serde(default)]
    pub written: Option<String>,
}

/// The whole run, or one shard of it.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Run {
    pub shard: Shard,
    pub seed: u64,
    pub games: u32,
    pub plies: u32,
    pub edited: bool,
    pub keep_going: bool,
    /// [`expectations_digest`] of the documented differences.
    pub expectations: Option<String>,
    pub questions: Vec<Question>,
    pub variants: Vec<VariantRun>,
    pub skipped: Vec<Skipped>,
    pub findings: Vec<Finding>,
    pub stopped: Stop,
    pub elapsed_seconds: f64,
    pub positions: u64,
    pub positions_per_second: f64,
}

/// Progress, reported after every game.
pub struct Progress {
    pub games_done: u64,
    pub games_total: u64,
    pub positions: u64,
    pub elapsed: Duration,
}

/// Plays the run against `engine` (see the module documentation).
pub fn run(
    engine: &mut dyn Engine,
    plan: &Plan,
    opts: &Options,
    progress: &mut dyn FnMut(&Progress),
) -> Run {
    let began = Instant::now();
    engine.set_deadline(opts.deadline);
    let mut states: Vec<State> = plan
        .variants
        .iter()
        .map(|&v| State::new(v, &plan.questions, opts.seed, opts.shard.is_some()))
        .collect();
    let mut findings = Vec::new();
    let mut stopped = Stop::Completed;
    let shard = opts.shard.unwrap_or(Shard::WHOLE);
    let held = |v: &dyn Variant, game: u32| shard.holds(&game_key(v.name(), game));
    let games_total = games_held(plan, opts);
    let mut games_done = 0;
    'run: for game in 0..opts.games {
        for k in 0..states.len() {
            if states[k].done || !held(states[k].variant, game) {
                continue;
            }
            let variant = states[k].variant;
            let mut g = Game::new(&mut *engine, &mut states[k], opts, game);
            let ended = g.play();
            let facts = g.finish(&ended);
            states[k].record(facts);
            match ended {
                Ended::Played => {}
                Ended::Found(raw) => {
                    findings.push(shrink::finish(engine, variant, *raw, opts));
                    if !opts.keep_going {
                        stopped = Stop::Found;
                        break 'run;
                    }
                }
                Ended::Stopped(why) => {
                    stopped = why;
                    break 'run;
                }
            }
            games_done += 1;
            progress(&Progress {
                games_done,
                games_total,
                positions: states.iter().map(|s| s.totals.positions).sum(),
                elapsed: began.elapsed(),
            });
        }
        if states.iter().all(|s| s.done) {
            break;
        }
    }
    let positions: u64 = states.iter().map(|s| s.totals.positions).sum();
    let elapsed = began.elapsed().as_secs_f64();
    Run {
        shard,
        seed: opts.seed,
        games: opts.games,
        plies: opts.plies,
        edited: opts.edited,
        keep_going: opts.keep_going,
        expectations: expectations_digest(opts.differences),
        questions: plan.questions.clone(),
        variants: states.iter().map(State::summary).collect(),
        skipped: plan.skipped.clone(),
        findings,
        stopped,
        elapsed_seconds: elapsed,
        positions,
        positions_per_second: per_second(positions, elapsed),
    }
}

/// How many games of the plan the shard holds (all of them when whole).
pub fn games_held(plan: &Plan, opts: &Options) -> u64 {
    let Some(shard) = opts.shard.filter(|s| !s.is_whole()) else {
        return u64::from(opts.games) * plan.variants.len() as u64;
    };
    plan.variants
        .iter()
        .map(|v| {
            (0..opts.games)
                .filter(|&g| shard.holds(&game_key(v.name(), g)))
                .count() as u64
        })
        .sum()
}

/// Positions a second; 0 for no time at all.
pub fn per_second(positions: u64, seconds: f64) -> f64 {
    if seconds > 0.0 {
        positions as f64 / seconds
    } else {
        0.0
    }
}

// `Raw` and `KeyPair` stay here, above both the game that makes them and
// the shrinker that reads them, so that both see their fields.
/// A disagreement as found, before shrinking.
pub(crate) struct Raw {
    variant: String,
    game: u32,
    question: Question,
    form: Form,
    start: Option<String>,
    /// Actions from the start to the position asked about (for `apply`,
    /// the applied action last).
    moves: Vec<String>,
    difference: Difference,
    /// For a key conflict: the two positions.
    key_pair: Option<KeyPair>,
}

/// Two positions whose keys group differently: `a` met first, `b` now.
pub(crate) struct KeyPair {
    a: String,
    b: String,
    /// Whether the reference counts the two as the same position.
    same: bool,
}
