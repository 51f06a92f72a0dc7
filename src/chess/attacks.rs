//! Attacks and check (SC-7.2).
//!
//! A cell is attacked by a player when one of that player's pieces could
//! capture there by its geometric capture rule with the current blockers.
//! The attacker's own king safety is not consulted, so pinned pieces still
//! attack. Move-only steps (the pawn's advance), double steps and castling
//! never attack; kings attack by their one-step moves.
//!
//! The test runs backwards from the target: every step is reversible (the
//! gluing is an involution, the two-order diagonal test is symmetric and the
//! reverse of an L,S,L word is an L,S,L word), so tracing rays outward from
//! the target and asking what piece ends each one is the same relation as
//! tracing every enemy piece's rays, at a fraction of the cost. Each piece
//! met answers from its compiled form ([`crate::movement::square::Form`]);
//! terms outside the masks are checked forwards, only where a kind has one.

use super::ChessRules;
use super::pieces::Piece;
use crate::geometry::KnightWord;
use crate::movement::square;
use crate::rules::Player;
use crate::topology::{CellId, Dir};

impl ChessRules {
    /// Whether `by` attacks `target` on this board.
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

    /// Calls `found` with each attacker of `target` (a piece may come more
    /// than once, by different routes) until it returns `true`; returns
    /// whether it did.
    fn each_attacker(
        &self,
        board: &[Option<Piece>],
        target: CellId,
        by: Player,
        mut found: impl FnMut(CellId) -> bool,
    ) -> bool {
        let geo = &self.geo;
        for w in KnightWord::ALL {
            if let Some(s) = geo.knight(target, w)
                && let Some(p) = board[s.to.index()]
                && p.owner == by
            {
                // The word back is the arrival's letters reversed.
                let t = s.transport;
                let back = KnightWord::new(t.apply(w.long).opposite(), t.apply(w.short).opposite());
                if self.form(p).capture_knights() & (1 << back.index()) != 0 && found(s.to) {
                    return true;
                }
            }
        }
        let bound = board.len() * 8;
        for d in Dir::ALL {
            let (mut here, mut dir) = (target, d);
            for n in 0..bound {
                let Some(s) = geo.step(here, dir) else { break };
                if s.to == target {
                    break;
                }
                dir = s.transport.apply(dir);
                here = s.to;
                let Some(p) = board[here.index()] else {
                    continue;
                };
                if p.owner == by {
                    // The piece moves back along `dir` reversed: by a ray,
                    // or by a single step from the adjacent cell.
                    let back = 1 << dir.opposite().index();
                    let form = self.form(p);
                    let hit = form.capture_rays() & back != 0
                        || (n == 0 && form.capture_steps() & back != 0);
                    if hit && found(here) {
                        return true;
                    }
                }
                break;
            }
        }
        if self.data.pieces.has_other {
            let occupied = |c: CellId| board[c.index()].is_some();
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
}
