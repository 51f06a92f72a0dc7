//! The player exchange Φ (`SS-3.3`): reverse files and ranks (and exchange
//! the sheets on a two-sheet board), exchange owners and hands, reverse
//! every facing and give the move to the other player. The move number is
//! kept. Φ is an involution and maps legal actions to legal actions.

use super::ShogiRules;
use super::movegen::Action;
use super::position::Position;

impl ShogiRules {
    pub fn phi_position(&self, pos: &Position) -> Position {
        let mut board = vec![None; pos.board.len()];
        let mut kings = [None, None];
        for (i, slot) in pos.board.iter().enumerate() {
            if let Some(p) = *slot {
                let c = self.phi[i];
                let mut q = p;
                q.owner = p.owner.other();
                q.facing = p.facing.reversed();
                if self.is_royal(q.kind) {
                    kings[q.owner.index()] = Some(c);
                }
                board[c.index()] = Some(q);
            }
        }
        Position {
            board,
            hands: [pos.hands[1], pos.hands[0]],
            to_move: pos.to_move.other(),
            move_number: pos.move_number,
            kings,
        }
    }

    pub fn phi_action(&self, a: &Action) -> Action {
        match *a {
            Action::Move {
                from,
                to,
                promote,
                facing,
            } => Action::Move {
                from: self.phi[from.index()],
                to: self.phi[to.index()],
                promote,
                facing: facing.reversed(),
            },
            Action::Drop { kind, to } => Action::Drop {
                kind,
                to: self.phi[to.index()],
            },
        }
    }
}
