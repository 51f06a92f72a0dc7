//! The practice opponent: a small game-playing search for every variant.
//!
//! *Why.* A player learning a surface or the tetrahedron wants someone to
//! play against, and the conformance work wants games that are not
//! random walks. The opponent is deliberately small: it plays through the
//! [`Rules`] trait alone (legal actions, apply, check, the family's own
//! endings and [`Rules::material`]), so the same code plays chess on the
//! Klein bottle, shogi on the Möbius strip, Kyoto and the tetrahedron, and
//! it can never play an action the reference does not list.
//!
//! *How.* [`choose`] picks an action at one of the levels:
//!
//! - 0: a uniformly random legal action, seeded (the same seed and
//!   position give the same action);
//! - 1: greedy, one ply: a mate in one if there is one, otherwise the best
//!   material after the action;
//! - 2 and up: negamax with alpha-beta and iterative deepening (2 plies at
//!   level 2, 4 at level 3, as deep as the budget allows at level 4),
//!   quiescence over captures and promotions (an action after which the
//!   opponent's material is lower or the mover's higher) and, on its
//!   first ply, a look for a mate among the checks (so a quiet mate in
//!   reply is seen), captures tried
//!   first and the previous iteration's best action (root) or a remembered
//!   best action (inner nodes) before them. After the search a guard
//!   checks the choice: if it lets the opponent win material by an
//!   exchange of captures and the search has not seen a forced win, the
//!   first action in the search's order that loses nothing is played
//!   instead, so a searching level does not leave pieces hanging.
//!
//! The evaluation is the material difference plus a small mobility term
//! (the side to move's legal actions against the opponent's one ply
//! earlier, capped so it never outweighs a pawn). A position without a
//! legal action is judged by the family's own [`Rules::adjudicate`] on a
//! one-position [`History`]: a loss (checkmate, or no legal action where
//! that loses) or a draw (chess stalemate); nearer mates score higher.
//! [`choose`] sees one position; [`choose_in_game`] also sees the game so
//! far, and judges an action that returns to an earlier position by the
//! family's endings (a repetition that ends the game) or else as a draw,
//! so a side that is ahead does not walk in circles. Below the root the
//! search judges positions alone, without repetition or move counters. As
//! the same position and settings give the same choice, a caller that
//! wants variety along a game (or a level 0 that does not walk in
//! circles) changes the seed from move to move.
//!
//! The [`Budget`] is a deadline or a node count. A node budget makes the
//! choice deterministic (same position and settings, same action); a
//! deadline plays the best action of the deepest finished iteration. The
//! `stop` flag, set by another thread, ends the search within a node. A
//! choice is always ready: the search first looks once at every action
//! (which finds every mate in one), and before that look is done the
//! choice is the action with the best immediate material gain.

mod guard;
mod search;

use std::hash::{DefaultHasher, Hash, Hasher};
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use crate::rules::{GameResult, History, Rules};

use guard::{GUARD_NODES, GUARD_SHARE, Guard, SEARCH_SHARE};
use search::Search;

/// The strongest level; [`Settings::new`] refuses higher ones.
pub const MAX_LEVEL: u8 = 4;

/// The score of a won position at the root: a mate `n` plies away scores
/// `MATE - n` (and a loss `-(MATE - n)`), so nearer mates are preferred
/// and every mate outranks any material count (at most a few million).
pub const MATE: i32 = 1_000_000_000;

/// Scores within this many of [`MATE`] are mates.
const MATE_PLIES: i32 = 1000;

/// The deepest iteration at [`MAX_LEVEL`]; the budget ends it long before.
const MAX_DEPTH: u32 = 64;

/// How often (in nodes) the clock is read.
const CLOCK_EVERY: u64 = 256;

/// What bounds one search.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Budget {
    /// Stop at this much wall-clock time after the start.
    Time(Duration),
    /// Stop after visiting this many positions: deterministic.
    Nodes(u64),
}

/// How the opponent plays: its level, its budget and the seed that breaks
/// ties (and chooses at level 0).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Settings {
    /// 0 (random) to [`MAX_LEVEL`]; a higher value plays as `MAX_LEVEL`.
    pub level: u8,
    pub budget: Budget,
    pub seed: u64,
}

/// Settings that cannot be used.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum OpponentError {
    #[error("level {level} is above the strongest level, {MAX_LEVEL}")]
    Level { level: u8 },
}

impl Settings {
    /// Settings with a level checked against [`MAX_LEVEL`].
    pub fn new(level: u8, budget: Budget, seed: u64) -> Result<Settings, OpponentError> {
        if level > MAX_LEVEL {
            return Err(OpponentError::Level { level });
        }
        Ok(Settings {
            level,
            budget,
            seed,
        })
    }
}

impl Default for Settings {
    /// The strongest level, one second a move, seed 0.
    fn default() -> Settings {
        Settings {
            level: MAX_LEVEL,
            budget: Budget::Time(Duration::from_secs(1)),
            seed: 0,
        }
    }
}

/// The opponent's choice and how it came to it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Choice<A> {
    pub action: A,
    /// The action's value for the player to move, in centipawns; beyond
    /// `MATE - 1000` a forced win in `MATE - score` plies, below its
    /// negation a forced loss.
    pub score: i32,
    /// The plies searched below the action before quiescence (0 at levels
    /// 0 and 1, and when no iteration finished).
    pub depth: u32,
    /// Positions visited.
    pub nodes: u64,
}

/// The opponent's action in `pos`, or `None` when the side to move has no
/// legal action. The action is always one of `rules.legal_actions(pos)`.
pub fn choose<R: Rules>(
    rules: &R,
    pos: &R::Position,
    settings: &Settings,
    stop: &AtomicBool,
) -> Option<Choice<R::Action>> {
    let history = History::single(pos.clone(), rules.key(pos));
    choose_in_game(rules, &history, settings, stop)
}

/// As [`choose`], in the current position of a game so far. An action
/// that returns to a position the game has already seen is judged by the
/// family's endings on the game with that action played (a repetition
/// that ends the game scores as its result) and otherwise as a draw,
/// since returning makes no progress: a side ahead does not walk in
/// circles, and a side behind may. Deeper in the search, positions are
/// judged alone.
pub fn choose_in_game<R: Rules>(
    rules: &R,
    history: &History<R::Position>,
    settings: &Settings,
    stop: &AtomicBool,
) -> Option<Choice<R::Action>> {
    let pos = history.current();
    let actions = rules.legal_actions(pos);
    if actions.is_empty() {
        return None;
    }
    let mut rng = SplitMix64(settings.seed ^ hash_of(pos));
    if settings.level == 0 {
        let action = actions[rng.below(actions.len())].clone();
        return Some(Choice {
            action,
            score: 0,
            depth: 0,
            nodes: 1,
        });
    }
    let start = Instant::now();
    // Under a time budget the search gets most of it and the hanging-piece
    // guard the rest, so the choice is made within the budget.
    let search_budget = match settings.budget {
        Budget::Time(t) if settings.level >= 2 => Budget::Time(t.mul_f64(SEARCH_SHARE)),
        b => b,
    };
    let mut search = Search::new(rules, search_budget, stop);
    search.nodes = 1;
    let mut root = search.children(pos, actions);
    for child in &mut root {
        child.repeat = repetition_score(rules, history, &child.pos);
    }
    // Shuffled, then sorted stably: equal actions are met in an order the
    // seed decides, and the first of equals is kept.
    for i in (1..root.len()).rev() {
        root.swap(i, rng.below(i + 1));
    }
    root.sort_by_key(|c| std::cmp::Reverse((c.noisy, c.gain)));
    Some(if settings.level == 1 {
        search.greedy(root)
    } else {
        let max_depth = match settings.level {
            2 => 2,
            3 => 4,
            _ => MAX_DEPTH,
        };
        let (mut score, depth) = search.deepen(&mut root, max_depth);
        let mut guard = Guard {
            rules,
            nodes: 0,
            limit: match settings.budget {
                Budget::Nodes(n) => n.saturating_mul(GUARD_SHARE).min(GUARD_NODES),
                Budget::Time(_) => GUARD_NODES,
            },
            deadline: match settings.budget {
                Budget::Time(t) => Some(start + t),
                Budget::Nodes(_) => None,
            },
            stop,
        };
        let mut pick = 0;
        if score < MATE - MATE_PLIES
            && let Some((i, kept)) = guard.first_safe(pos, &root)
            && i != 0
        {
            (pick, score) = (i, kept);
        }
        Choice {
            action: root.swap_remove(pick).action,
            score,
            depth,
            nodes: search.nodes + guard.nodes,
        }
    })
}

/// The score, for the player who moved there, of `next` reached from the
/// game's current position when the game has seen `next` before: the
/// family's verdict on the game with it played, or a draw. `None` for a
/// position new to the game.
fn repetition_score<R: Rules>(
    rules: &R,
    history: &History<R::Position>,
    next: &R::Position,
) -> Option<i32> {
    let key = rules.key(next);
    if history.occurrences_of(&key) == 0 {
        return None;
    }
    let mover = rules.to_move(history.current());
    let mut played = history.clone();
    played.record(next.clone(), key, rules.in_check(next), mover);
    let empty = rules.legal_actions(next).is_empty();
    Some(match rules.adjudicate(&played, empty) {
        Some(GameResult {
            winner: Some(w), ..
        }) if w == mover => MATE - 1,
        Some(GameResult {
            winner: Some(_), ..
        }) => -(MATE - 1),
        _ => 0,
    })
}

/// A position's hash from the std hasher with its fixed keys, so the same
/// position hashes alike in every run of one build.
fn hash_of<T: Hash>(value: &T) -> u64 {
    let mut h = DefaultHasher::new();
    value.hash(&mut h);
    h.finish()
}

/// SplitMix64: a tiny, well-mixed generator, enough to pick among
/// actions; seeded from the settings' seed and the position.
struct SplitMix64(u64);

impl SplitMix64 {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// A number in `0..n` (`n > 0`), by multiply-and-shift.
    fn below(&mut self, n: usize) -> usize {
        ((u128::from(self.next()) * n as u128) >> 64) as usize
    }
}
