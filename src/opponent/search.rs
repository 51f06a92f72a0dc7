//! The search of levels 1 and up: one action from a node played ahead
//! ([`Child`]), level 1's greedy look, and for levels 2 and up the first
//! look at every root action, iterative deepening, negamax with
//! alpha-beta and remembered best actions, quiescence on captures and
//! promotions, and the evaluation. Apart from the entry points in
//! `mod.rs` because it is the whole engine room: its order of work is what
//! the node counts of `tests/it/opponent.rs` pin down.

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use crate::rules::{GameResult, History, Rules};

use super::{Budget, CLOCK_EVERY, Choice, MATE, MATE_PLIES, hash_of};

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

/// The most remembered best actions; the table is cleared when full.
const MEMORY: usize = 1 << 18;

/// One action from a node, already played.
pub(super) struct Child<A, P> {
    pub(super) action: A,
    pub(super) pos: P,
    /// The mover's material lead after the action.
    pub(super) lead: i32,
    /// How much the action changes that lead.
    pub(super) gain: i32,
    /// It lowers the opponent's material (a capture) or raises the
    /// mover's (a promotion): quiescence follows it.
    pub(super) noisy: bool,
    /// At the root, for an action returning to a position the game has
    /// seen: its score, which the search takes instead of searching it.
    pub(super) repeat: Option<i32>,
}

/// The state of one search: the budget, the node count and the best
/// actions remembered from earlier iterations.
pub(super) struct Search<'a, R: Rules> {
    rules: &'a R,
    stop: &'a AtomicBool,
    deadline: Option<Instant>,
    node_limit: Option<u64>,
    pub(super) nodes: u64,
    /// Set once the budget is spent or `stop` is seen; every result
    /// computed after it is discarded.
    aborted: bool,
    /// Position hash → best action found there at an earlier iteration.
    best: HashMap<u64, R::Action>,
}

impl<'a, R: Rules> Search<'a, R> {
    pub(super) fn new(rules: &'a R, budget: Budget, stop: &'a AtomicBool) -> Self {
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
    pub(super) fn children(
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
    pub(super) fn greedy(
        &mut self,
        mut root: Vec<Child<R::Action, R::Position>>,
    ) -> Choice<R::Action> {
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
    pub(super) fn deepen(
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
