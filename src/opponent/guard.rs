//! The hanging-piece guard of levels 2 and up: after the search, a
//! choice that loses material to an exchange of captures gives way to the
//! first action in the search's order that does not. Apart from the
//! search because it is a separate pass after it, with its own capture
//! search and its own share of the budget; it only picks among the root
//! actions in the order the search left them.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use crate::rules::{History, Rules};

use super::search::Child;
use super::{CLOCK_EVERY, MATE};

/// Positions the hanging-piece guard may visit for one choice, at most
/// and, under a node budget, for each node of the budget: past its limit
/// it gives up and the search's choice stands.
pub(super) const GUARD_NODES: u64 = 20_000;
pub(super) const GUARD_SHARE: u64 = 1;

/// The part of a time budget the search of levels 2 and up may use; the
/// guard may use the rest.
pub(super) const SEARCH_SHARE: f64 = 0.8;

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
/// counted in [`Choice::nodes`](super::Choice::nodes) but bounded apart
/// from a node budget (by [`GUARD_NODES`], and [`GUARD_SHARE`] times the
/// budget), so the search keeps its full budget; under a time budget the
/// guard has what the search leaves ([`SEARCH_SHARE`]) and gives up at the
/// deadline.
pub(super) struct Guard<'a, R: Rules> {
    pub(super) rules: &'a R,
    pub(super) nodes: u64,
    pub(super) limit: u64,
    /// The end of a time budget: past it the guard gives up too.
    pub(super) deadline: Option<Instant>,
    pub(super) stop: &'a AtomicBool,
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
    pub(super) fn first_safe(
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
