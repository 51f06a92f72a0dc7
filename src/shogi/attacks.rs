//! Attacks and check (`SS-7`).
//!
//! A cell is attacked when some piece could move onto it by its movement
//! pattern, routes and blockers as they stand; pins are not consulted.
//! The search runs backwards from the target: every route a piece could
//! take to the target, reversed, is a route from the target, because every
//! seam is an involution (the gluing, the two-order diagonals and the
//! L,S,L knight words all retrace themselves; `tests/it/shogi.rs` checks this
//! on every board). So the engine traces the eight rays and eight knight
//! words from the target once and asks each piece it meets whether its
//! compiled form ([`crate::movement::square::Form`]) holds the reversed
//! step. Terms the masks do not hold (limited rides, long leapers,
//! two-stage moves) are checked forwards, and only on a board where some
//! kind has one.

use crate::geometry::KnightWord;
use crate::movement::{for_each_on_ray, square};
use crate::rules::Player;
use crate::topology::{CellId, Dir};

use super::ShogiRules;
use super::pieces::Piece;
use super::position::Position;

impl ShogiRules {
    /// Whether any piece of `by` attacks `target` on this board.
    pub fn attacked(&self, board: &[Option<Piece>], target: CellId, by: Player) -> bool {
        self.each_attacker(board, target, by, |_| true)
    }

    /// The cells of every piece of `by` that attacks `target`, sorted.
    pub fn attackers(&self, board: &[Option<Piece>], target: CellId, by: Player) -> Vec<CellId> {
        let mut out = vec![];
        self.each_attacker(board, target, by, |c| {
            out.push(c);
            false
        });
        out.sort();
        out.dedup();
        out
    }

    /// Calls `found` with each attacker of `target` until it returns
    /// `true`; returns whether it did.
    fn each_attacker(
        &self,
        board: &[Option<Piece>],
        target: CellId,
        by: Player,
        mut found: impl FnMut(CellId) -> bool,
    ) -> bool {
        let geo = &self.geo;
        let occupied = |c: CellId| board[c.index()].is_some();
        for d in Dir::ALL {
            let mut hit = None;
            let mut first = true;
            for_each_on_ray(geo, target, d, &occupied, |l| {
                let is_first = first;
                first = false;
                let Some(p) = board[l.cell.index()] else {
                    return;
                };
                if p.owner != by {
                    return;
                }
                // The attacker moves back along the reversed arrival direction.
                let back = 1 << l.transport.apply(d).opposite().index();
                let form = self.form(p);
                if form.capture_rays() & back != 0 || (is_first && form.capture_steps() & back != 0)
                {
                    hit = Some(l.cell);
                }
            });
            if let Some(c) = hit
                && found(c)
            {
                return true;
            }
        }
        for w in KnightWord::ALL {
            let Some(s) = geo.knight(target, w) else {
                continue;
            };
            let Some(p) = board[s.to.index()] else {
                continue;
            };
            if p.owner == by {
                // The word back is the arrival's letters reversed.
                let t = s.transport;
                let back = KnightWord::new(t.apply(w.long).opposite(), t.apply(w.short).opposite());
                if self.form(p).capture_knights() & (1 << back.index()) != 0 && found(s.to) {
                    return true;
                }
            }
        }
        if self.pieces.has_other {
            for (i, slot) in board.iter().enumerate() {
                let Some(p) = *slot else { continue };
                let form = self.form(p);
                if p.owner != by || form.other.is_empty() {
                    continue;
                }
                let from = CellId(i as u16);
                let mut hit = false;
                for o in &form.other {
                    square::other_targets(geo, from, o, &occupied, &mut |l, mode| {
                        hit |= l.cell == target && mode.allows(true);
                    });
                }
                if hit && found(from) {
                    return true;
                }
            }
        }
        false
    }

    /// Whether the player to move has a king and it is attacked.
    pub fn checked(&self, pos: &Position) -> bool {
        let me = pos.to_move;
        pos.kings[me.index()].is_some_and(|k| self.attacked(&pos.board, k, me.other()))
    }

    /// Every cell `by` attacks, by forward generation; used only to test
    /// [`Self::attacked`].
    pub fn attacked_cells_forward(&self, board: &[Option<Piece>], by: Player) -> Vec<CellId> {
        let mut out = vec![];
        for (i, slot) in board.iter().enumerate() {
            let Some(p) = slot else { continue };
            if p.owner != by {
                continue;
            }
            self.piece_targets(board, CellId(i as u16), *p, &mut |to, _| out.push(to));
        }
        out.sort();
        out.dedup();
        out
    }
}
