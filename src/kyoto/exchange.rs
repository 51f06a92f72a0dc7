//! The two symmetries of the board: the player exchange Φ (the half-turn
//! of the 5×5 board, owners and hands exchanged, the move to the other
//! player; counters kept) and the left–right mirror, which keeps owners.
//! Both map legal actions to legal actions and keep every token's face
//! (`tests/it/kyoto.rs`). Apart because no rule uses them: the `Rules` impl
//! hands Φ on to the callers of `Rules::exchange`, and only the tests use
//! the mirror.

use crate::topology::CellId;

use super::KyotoRules;
use super::movegen::Action;
use super::pieces::Piece;
use super::position::{Position, SIZE};

impl KyotoRules {
    /// The half-turn that exchanges the players: cell (x, y) ↦ (4−x, 4−y).
    fn phi_cell(c: CellId) -> CellId {
        CellId((SIZE * SIZE - 1) as u16 - c.0)
    }

    /// Φ on a position (`Rules::exchange`).
    pub(super) fn phi_position(&self, pos: &Position) -> Position {
        let mut out = pos.clone();
        for i in 0..SIZE * SIZE {
            out.board[Self::phi_cell(CellId(i as u16)).index()] = pos.board[i].map(|p| Piece {
                owner: p.owner.other(),
                face: p.face,
            });
        }
        out.hands = [pos.hands[1], pos.hands[0]];
        out.to_move = pos.to_move.other();
        out
    }

    /// Φ on an action (`Rules::exchange_action`).
    pub(super) fn phi_action(&self, action: &Action) -> Action {
        match *action {
            Action::Move { from, to } => Action::Move {
                from: Self::phi_cell(from),
                to: Self::phi_cell(to),
            },
            Action::Drop { face, to } => Action::Drop {
                face,
                to: Self::phi_cell(to),
            },
        }
    }

    /// The left–right mirror (x, y) ↦ (4−x, y), which keeps owners.
    pub fn mirror_cell(c: CellId) -> CellId {
        let (x, y) = (c.index() % SIZE, c.index() / SIZE);
        CellId((y * SIZE + (SIZE - 1 - x)) as u16)
    }

    /// The position mirrored left to right (owners and side kept).
    pub fn mirror(&self, pos: &Position) -> Position {
        let mut out = pos.clone();
        for i in 0..SIZE * SIZE {
            out.board[Self::mirror_cell(CellId(i as u16)).index()] = pos.board[i];
        }
        out
    }

    /// An action mirrored left to right.
    pub fn mirror_action(&self, a: &Action) -> Action {
        match *a {
            Action::Move { from, to } => Action::Move {
                from: Self::mirror_cell(from),
                to: Self::mirror_cell(to),
            },
            Action::Drop { face, to } => Action::Drop {
                face,
                to: Self::mirror_cell(to),
            },
        }
    }
}
