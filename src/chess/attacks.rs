//! Attacks and check (SC-7.2).
//!
//! A cell is attacked by a player when one of that player's pieces could
//! capture there by its geometric capture rule with the current blockers.
//! The attacker's own king safety is not consulted, so pinned pieces still
//! attack. Pawn advances, double steps and castling never attack; kings
//! attack by their one-step moves.
//!
//! The test runs backwards from the target: every step is reversible (the
//! gluing is an involution, the two-order diagonal test is symmetric and the
//! reverse of an L,S,L word is an L,S,L word), so tracing rays outward from
//! the target and asking what piece ends each one is the same relation as
//! tracing every enemy piece's rays, at a fraction of the cost.

use super::ChessRules;
use super::pieces::{Kind, Piece};
use crate::geometry::KnightWord;
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
                && p.kind == Kind::Knight
                && found(s.to)
            {
                return true;
            }
        }
        let bound = board.len() * 8;
        for d in Dir::ALL {
            let diagonal = !d.is_cardinal();
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
                    let adjacent = n == 0;
                    let hit = match p.kind {
                        Kind::Queen => true,
                        Kind::Rook => !diagonal,
                        Kind::Bishop => diagonal,
                        Kind::King => adjacent,
                        // The pawn steps back along `dir` reversed; that is
                        // a forward diagonal when its vertical part points
                        // the way the pawn faces.
                        Kind::Pawn => {
                            adjacent && diagonal && dir.opposite().vector().1 == p.facing.sign()
                        }
                        Kind::Knight => false,
                    };
                    if hit && found(here) {
                        return true;
                    }
                }
                break;
            }
        }
        false
    }
}
