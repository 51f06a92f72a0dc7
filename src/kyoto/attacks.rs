//! Attacks and check (`KY-6.1`): a cell is attacked when a piece of the
//! other side has it among its targets (see [`movegen`](super::movegen)),
//! with the blockers as they stand; pins are not consulted. Apart from
//! generation because the king-safety filter, the endings and the opening
//! audit all ask it.

use crate::rules::Player;
use crate::topology::CellId;

use super::KyotoRules;
use super::pieces::Piece;
use super::position::Position;

impl KyotoRules {
    /// Whether `by` attacks `target`: some piece of `by` has it among its
    /// targets. Pins are not consulted.
    pub fn attacked(&self, board: &[Option<Piece>], target: CellId, by: Player) -> bool {
        self.each_attacker(board, target, by, |_| true)
    }

    /// The cells of every piece of `by` that attacks `target`, in board
    /// order.
    pub fn attackers(&self, board: &[Option<Piece>], target: CellId, by: Player) -> Vec<CellId> {
        let mut out = vec![];
        self.each_attacker(board, target, by, |c| {
            out.push(c);
            false
        });
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
        let mut cells = Vec::new();
        board.iter().enumerate().any(|(i, slot)| match slot {
            Some(p) if p.owner == by => {
                let from = CellId(i as u16);
                cells.clear();
                self.targets(board, from, *p, &mut cells);
                cells.contains(&target) && found(from)
            }
            _ => false,
        })
    }

    pub(super) fn checked(&self, pos: &Position, p: Player) -> bool {
        self.king(pos, p)
            .is_some_and(|k| self.attacked(&pos.board, CellId(k as u16), p.other()))
    }
}
