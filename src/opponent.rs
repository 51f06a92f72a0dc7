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

use std::collections::HashMap;
use std::hash::{DefaultHasher, Hash, Hasher};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use crate::rules::{GameResult, History, Rules};

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

/// How many plies of captures quiescence follows past the horizon.
const QUIESCENCE_PLIES: u32 = 8;

/// The margin of delta pruning in quiescence: a capture is tried only
/// if the evaluation plus its gain plus this much reaches alpha.
const DELTA_MARGIN: i32 = 200;

/// Within this many quiescence plies a side in check searches every
/// evasion instead of standing pat, so mates just past the horizon count.
const EVASION_PLIES: u32 = 2;

/// Centipawns per legal action of difference, and the cap of the whole
/// mobility term: it breaks ties between equal material, never more.
const MOBILITY_WEIGHT: i32 = 2;
const MOBILITY_CAP: i32 = 50;

/// How often (in nodes) the clock is read.
const CLOCK_EVERY: u64 = 256;

/// The most remembered best actions; the table is cleared when full.
const MEMORY: usize = 1 << 18;

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

/// Positions the hanging-piece guard may visit for one choice, at most
/// and, under a node budget, for each node of the budget: past its limit
/// it gives up and the search's choice stands.
const GUARD_NODES: u64 = 20_000;
const GUARD_SHARE: u64 = 1;

/// The part of a time budget the search of levels 2 and up may use; the
/// guard may use the rest.
const SEARCH_SHARE: f64 = 0.8;

/// How many captures deep the guard follows an exchange.
const GUARD_PLIES: u32 = 8;

/// The hanging-piece guard of levels 2 and up. After the search, when the
/// chosen action lets the opponent win material by an exchange of
/// captures and the search has not found a forced win, the first action
/// in the search's order that loses nothing that way is played instead. A
/// search of a few plies can prefer a loose action for what it sees past
/// its horizon, but it is rarely right, and a practice opponent that
/// leaves pieces hanging teaches the wrong thing; the price is that it
/// offers no sacrifice short of a forced win it has seen. Its work is
/// counted in [`Choice::nodes`] but bounded apart from a node budget (by
/// [`GUARD_NODES`], and [`GUARD_SHARE`] times the budget), so the search
/// keeps its full budget; under a time budget the guard has what the
/// search leaves ([`SEARCH_SHARE`]) and gives up at the deadline.
struct Guard<'a, R: Rules> {
    rules: &'a R,
    nodes: u64,
    limit: u64,
    /// The end of a time budget: past it the guard gives up too.
    deadline: Option<Instant>,
    stop: &'a AtomicBool,
}

impl<R: Rules> Guard<'_, R> {
    /// The first safe child of `pos` in the search's order, with the
    /// mover's lead once the opponent's best exchange is played out. Safe
    /// means that lead is no lower than before the action or, when the
    /// action itself lowers it (a Kyoto token turning to a weaker face),
    /// no lower than just after it: the opponent wins nothing by captures.
    /// Measured from before a capture, so winning a piece and losing a
    /// smaller one is safe. `None` when no child is safe or the guard's
    /// limit is reached first.
    fn first_safe(
        &mut self,
        pos: &R::Position,
        root: &[Child<R::Action, R::Position>],
    ) -> Option<(usize, i32)> {
        let me = self.rules.to_move(pos).index();
        let m = self.rules.material(pos);
        let before = m[me] - m[1 - me];
        for (i, child) in root.iter().enumerate() {
            let floor = before.min(child.lead);
            // The opponent's view: it must get above -floor to win material.
            let theirs = self.exchange(&child.pos, GUARD_PLIES, -MATE, -floor + 1)?;
            if -theirs >= floor {
                return Some((i, -theirs));
            }
        }
        None
    }

    /// The material lead the player to move can reach by captures alone,
    /// each side free to stop whenever that suits it, `plies` captures deep,
    /// as an alpha-beta search between `alpha` and `beta`; the family's
    /// verdict where no action is legal. `None` once the guard's node limit
    /// is spent or `stop` is seen.
    fn exchange(
        &mut self,
        pos: &R::Position,
        plies: u32,
        mut alpha: i32,
        beta: i32,
    ) -> Option<i32> {
        let late = self.nodes.is_multiple_of(CLOCK_EVERY / 4)
            && self.deadline.is_some_and(|d| Instant::now() >= d);
        if self.nodes >= self.limit || late || self.stop.load(Ordering::Relaxed) {
            return None;
        }
        self.nodes += 1;
        let rules = self.rules;
        let me = rules.to_move(pos).index();
        let actions = rules.legal_actions(pos);
        if actions.is_empty() {
            let history = History::single(pos.clone(), rules.key(pos));
            return Some(
                match rules.adjudicate(&history, true).and_then(|r| r.winner) {
                    Some(w) if w.index() == me => MATE,
                    Some(_) => -MATE,
                    None => 0,
                },
            );
        }
        let m = rules.material(pos);
        let stand = m[me] - m[1 - me];
        if plies == 0 || stand >= beta {
            return Some(stand);
        }
        alpha = alpha.max(stand);
        for action in &actions {
            let next = rules.apply(pos, action);
            if rules.material(&next)[1 - me] >= m[1 - me] {
                continue;
            }
            let value = -self.exchange(&next, plies - 1, -beta, -alpha)?;
            if value >= beta {
                return Some(value);
            }
            alpha = alpha.max(value);
        }
        Some(alpha)
    }
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

/// One action from a node, already played.
struct Child<A, P> {
    action: A,
    pos: P,
    /// The mover's material lead after the action.
    lead: i32,
    /// How much the action changes that lead.
    gain: i32,
    /// It lowers the opponent's material (a capture) or raises the
    /// mover's (a promotion): quiescence follows it.
    noisy: bool,
    /// At the root, for an action returning to a position the game has
    /// seen: its score, which the search takes instead of searching it.
    repeat: Option<i32>,
}

/// The state of one search: the budget, the node count and the best
/// actions remembered from earlier iterations.
struct Search<'a, R: Rules> {
    rules: &'a R,
    stop: &'a AtomicBool,
    deadline: Option<Instant>,
    node_limit: Option<u64>,
    nodes: u64,
    /// Set once the budget is spent or `stop` is seen; every result
    /// computed after it is discarded.
    aborted: bool,
    /// Position hash → best action found there at an earlier iteration.
    best: HashMap<u64, R::Action>,
}

impl<'a, R: Rules> Search<'a, R> {
    fn new(rules: &'a R, budget: Budget, stop: &'a AtomicBool) -> Self {
        let (deadline, node_limit) = match budget {
            Budget::Time(t) => (Some(Instant::now() + t), None),
            Budget::Nodes(n) => (None, Some(n)),
        };
        Search {
            rules,
            stop,
            deadline,
            node_limit,
            nodes: 0,
            aborted: false,
            best: HashMap::new(),
        }
    }

    /// Counts a node about to be visited; false (and `aborted` set) once
    /// the budget is spent or `stop` is seen.
    fn visit(&mut self) -> bool {
        if self.aborted {
            return false;
        }
        let spent = self.stop.load(Ordering::Relaxed)
            || self.node_limit.is_some_and(|n| self.nodes >= n)
            || (self.nodes.is_multiple_of(CLOCK_EVERY)
                && self.deadline.is_some_and(|d| Instant::now() >= d));
        if spent {
            self.aborted = true;
            return false;
        }
        self.nodes += 1;
        true
    }

    /// Every action of `pos` played, with its material change.
    fn children(
        &self,
        pos: &R::Position,
        actions: Vec<R::Action>,
    ) -> Vec<Child<R::Action, R::Position>> {
        let me = self.rules.to_move(pos).index();
        let before = self.rules.material(pos);
        actions
            .into_iter()
            .map(|action| {
                let next = self.rules.apply(pos, &action);
                let after = self.rules.material(&next);
                let lead = |m: [i32; 2]| m[me] - m[1 - me];
                Child {
                    action,
                    lead: lead(after),
                    gain: lead(after) - lead(before),
                    noisy: after[1 - me] < before[1 - me] || after[me] > before[me],
                    repeat: None,
                    pos: next,
                }
            })
            .collect()
    }

    /// The score of a position without a legal action, for its player to
    /// move, `ply` plies below the root: the family's own verdict.
    fn terminal(&self, pos: &R::Position, ply: u32) -> i32 {
        let history = History::single(pos.clone(), self.rules.key(pos));
        let mover = self.rules.to_move(pos);
        match self.rules.adjudicate(&history, true) {
            Some(GameResult {
                winner: Some(w), ..
            }) if w == mover => MATE - ply as i32,
            Some(GameResult {
                winner: Some(_), ..
            }) => -(MATE - ply as i32),
            _ => 0,
        }
    }

    /// Material lead of the player to move plus the capped mobility term.
    fn evaluate(&self, pos: &R::Position, mobility: usize, opponent_mobility: usize) -> i32 {
        let m = self.rules.material(pos);
        let me = self.rules.to_move(pos).index();
        let mobility = (mobility as i32 - opponent_mobility as i32) * MOBILITY_WEIGHT;
        m[me] - m[1 - me] + mobility.clamp(-MOBILITY_CAP, MOBILITY_CAP)
    }

    /// Level 1: the root's children judged one ply deep, a win at once
    /// first, then the material lead after the action.
    fn greedy(&mut self, mut root: Vec<Child<R::Action, R::Position>>) -> Choice<R::Action> {
        let mut best: Option<(i32, usize)> = None;
        for (i, child) in root.iter().enumerate() {
            if !self.visit() {
                break;
            }
            let score = if let Some(r) = child.repeat {
                r
            } else if self.rules.legal_actions(&child.pos).is_empty() {
                -self.terminal(&child.pos, 1)
            } else {
                child.lead
            };
            if best.is_none_or(|(s, _)| score > s) {
                best = Some((score, i));
            }
        }
        let (score, i) = best.unwrap_or((root[0].lead, 0));
        Choice {
            action: root.swap_remove(i).action,
            score,
            depth: 0,
            nodes: self.nodes,
        }
    }

    /// Levels 2 and up: a first look at every child (a mate in one ends
    /// the search there), then iterative deepening. The best so far is
    /// kept first, so it is searched first at the next depth, and left
    /// first at the end. Returns its score and the depth of the last
    /// finished iteration.
    fn deepen(
        &mut self,
        root: &mut Vec<Child<R::Action, R::Position>>,
        max_depth: u32,
    ) -> (i32, u32) {
        // Ready before any iteration: the best immediate gain, or better
        // the best static score of the first look.
        let (mut score, mut depth) = (root[0].lead, 0);
        if let Some(s) = self.first_look(root) {
            score = s;
        }
        for d in 1..=max_depth {
            if self.aborted || score.abs() >= MATE - MATE_PLIES || root.len() == 1 {
                break;
            }
            // An unfinished iteration counts when it finished its first
            // child, the previous best: its best is then at least as good.
            // Children finish in order, so any finished child means that.
            let Some((i, s)) = self.iterate(root, d) else {
                break;
            };
            root[..=i].rotate_right(1);
            (score, depth) = (s, d);
        }
        (score, depth)
    }

    /// Every child of the root once, in order, as far as the budget
    /// allows: each is scored by the family's verdict when it has no
    /// legal action, else by the evaluation, and the children looked at
    /// are sorted by that score. Returns the best score. Searching first
    /// with quiescence could spend a small budget on the first children's
    /// captures and never reach a mate in one further down.
    fn first_look(&mut self, root: &mut Vec<Child<R::Action, R::Position>>) -> Option<i32> {
        let mut scores = Vec::with_capacity(root.len());
        for child in root.iter() {
            if !self.visit() {
                break;
            }
            let actions = self.rules.legal_actions(&child.pos);
            scores.push(if let Some(r) = child.repeat {
                r
            } else if actions.is_empty() {
                -self.terminal(&child.pos, 1)
            } else {
                -self.evaluate(&child.pos, actions.len(), root.len())
            });
        }
        let rest = root.split_off(scores.len());
        let mut looked: Vec<_> = scores.into_iter().zip(root.drain(..)).collect();
        // Stable: equal scores keep the seeded order.
        looked.sort_by_key(|(s, _)| std::cmp::Reverse(*s));
        let best = looked.first().map(|(s, _)| *s);
        root.extend(looked.into_iter().map(|(_, c)| c));
        root.extend(rest);
        best
    }

    /// One iteration at the root: the best child searched to `depth` and
    /// its score, among the children finished before the budget ran out.
    fn iterate(
        &mut self,
        root: &[Child<R::Action, R::Position>],
        depth: u32,
    ) -> Option<(usize, i32)> {
        let mut best: Option<(usize, i32)> = None;
        let mut alpha = -MATE - 1;
        for (i, child) in root.iter().enumerate() {
            let score = match child.repeat {
                Some(r) => r,
                None => -self.negamax(&child.pos, depth - 1, 1, -MATE - 1, -alpha, root.len()),
            };
            if self.aborted {
                break;
            }
            if score > alpha {
                best = Some((i, score));
                alpha = score;
            }
        }
        best
    }

    /// The negamax score of `pos` for its player to move, `depth` plies
    /// before quiescence, within the window (`alpha`, `beta`).
    fn negamax(
        &mut self,
        pos: &R::Position,
        depth: u32,
        ply: u32,
        mut alpha: i32,
        beta: i32,
        opponent_mobility: usize,
    ) -> i32 {
        if !self.visit() {
            return 0;
        }
        let actions = self.rules.legal_actions(pos);
        if actions.is_empty() {
            return self.terminal(pos, ply);
        }
        if depth == 0 {
            return self.quiesce(pos, actions, ply, 0, alpha, beta, opponent_mobility);
        }
        let key = hash_of(pos);
        let mut children = self.children(pos, actions);
        children.sort_by_key(|c| std::cmp::Reverse((c.noisy, c.gain)));
        if let Some(remembered) = self.best.get(&key)
            && let Some(at) = children.iter().position(|c| c.action == *remembered)
        {
            children[..=at].rotate_right(1);
        }
        let mobility = children.len();
        let mut best = -MATE - 1;
        let mut best_action = None;
        for child in children {
            let score = -self.negamax(&child.pos, depth - 1, ply + 1, -beta, -alpha, mobility);
            if self.aborted {
                return 0;
            }
            if score > best {
                best = score;
                best_action = Some(child.action);
                alpha = alpha.max(score);
                if alpha >= beta {
                    break;
                }
            }
        }
        if self.best.len() >= MEMORY {
            self.best.clear();
        }
        if let Some(a) = best_action {
            self.best.insert(key, a);
        }
        best
    }

    /// Quiescence: the player to move may stand on the evaluation or try
    /// its noisy actions (every action, when in check near the horizon).
    /// On the first ply past the horizon it first looks for a mate among
    /// its checks: a quiet mate answering the last searched action would
    /// otherwise hide behind the evaluation.
    #[allow(clippy::too_many_arguments)] // the negamax window and two counters
    fn quiesce(
        &mut self,
        pos: &R::Position,
        actions: Vec<R::Action>,
        ply: u32,
        qply: u32,
        mut alpha: i32,
        beta: i32,
        opponent_mobility: usize,
    ) -> i32 {
        let mobility = actions.len();
        let stand = self.evaluate(pos, mobility, opponent_mobility);
        let evading = qply < EVASION_PLIES && self.rules.in_check(pos);
        let look_for_mate = qply == 0 && !evading;
        if !evading && !look_for_mate && (stand >= beta || qply >= QUIESCENCE_PLIES) {
            return stand;
        }
        let mut children = self.children(pos, actions);
        if look_for_mate {
            if let Some(mate) = self.mate_among_checks(&children, ply) {
                return mate;
            }
            if self.aborted {
                return 0;
            }
            if stand >= beta {
                return stand;
            }
        }
        let mut best = if evading { -MATE - 1 } else { stand };
        if !evading {
            alpha = alpha.max(stand);
        }
        children.retain(|c| evading || c.noisy);
        children.sort_by_key(|c| std::cmp::Reverse((c.noisy, c.gain)));
        for child in children {
            // Delta pruning: a capture that cannot lift the score to alpha
            // even with a margin for what follows is not tried (the rest
            // gain less still).
            if !evading && stand + child.gain + DELTA_MARGIN <= alpha {
                break;
            }
            if !self.visit() {
                return 0;
            }
            let next = self.rules.legal_actions(&child.pos);
            let score = if next.is_empty() {
                -self.terminal(&child.pos, ply + 1)
            } else {
                -self.quiesce(&child.pos, next, ply + 1, qply + 1, -beta, -alpha, mobility)
            };
            if self.aborted {
                return 0;
            }
            if score > best {
                best = score;
                alpha = alpha.max(score);
                if alpha >= beta {
                    break;
                }
            }
        }
        best
    }

    /// The score of a mate in one among the checking children of a node
    /// `ply` plies below the root, for the node's player to move.
    fn mate_among_checks(
        &mut self,
        children: &[Child<R::Action, R::Position>],
        ply: u32,
    ) -> Option<i32> {
        for child in children {
            if !self.rules.in_check(&child.pos) {
                continue;
            }
            if !self.visit() {
                return None;
            }
            if self.rules.legal_actions(&child.pos).is_empty() {
                let score = -self.terminal(&child.pos, ply + 1);
                if score > 0 {
                    return Some(score);
                }
            }
        }
        None
    }
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
