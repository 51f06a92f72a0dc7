//! Actions and their play: the cells a face reaches, the moves and drops
//! before the king-safety filter (`KY-4`, `KY-5`), and the position after
//! an action, where a moved token turns over (`KY-3.1`) and a dropped one
//! does not (`KY-I3`). The filter itself is `Rules::legal_actions` in
//! `mod.rs`. Apart so that the hot path of generation reads in one place;
//! [`attacks`](super::attacks) and the design facts reuse `targets`.

use crate::movement::square;
use crate::rules::Player;
use crate::topology::CellId;

use super::KyotoRules;
use super::pieces::{Face, Piece};
use super::position::Position;

/// A board move or a drop. The flip after a move is not a choice, so it is
/// not part of the action. Actions sort moves first, then drops by face in
/// the file's order (KY-1.4), then by cell.
#[derive(Copy, Clone, Eq, PartialEq, Hash, Ord, PartialOrd, Debug)]
pub enum Action {
    Move { from: CellId, to: CellId },
    Drop { face: Face, to: CellId },
}

impl KyotoRules {
    /// Every cell `piece` on `from` could move to by its face's pattern,
    /// occupied or not (the first occupied cell of a ray included).
    pub(super) fn targets(
        &self,
        board: &[Option<Piece>],
        from: CellId,
        piece: Piece,
        out: &mut Vec<CellId>,
    ) {
        let occupied = |c: CellId| board[c.index()].is_some();
        // Every shipped face moves and captures alike; a `m` or `c` term
        // keeps to its own kind of landing.
        square::targets(
            &self.geo,
            from,
            self.form(piece),
            &occupied,
            &mut |l, mode| {
                let taken = board[l.cell.index()].is_some();
                if mode.allows(taken) {
                    out.push(l.cell);
                }
            },
        );
    }

    /// Moves and drops before the king-safety filter.
    pub(super) fn pseudo(&self, pos: &Position) -> Vec<Action> {
        let me = pos.to_move;
        let royal = self.faces.royal();
        let mut out = Vec::new();
        let mut cells = Vec::new();
        for (i, slot) in pos.board.iter().enumerate() {
            let Some(p) = *slot else { continue };
            if p.owner != me {
                continue;
            }
            cells.clear();
            let from = CellId(i as u16);
            self.targets(&pos.board, from, p, &mut cells);
            for &to in &cells {
                match pos.board[to.index()] {
                    Some(q) if q.owner == me || q.face == royal => {}
                    _ => out.push(Action::Move { from, to }),
                }
            }
        }
        // Drops: any token in hand, either face up, on any empty cell
        // (no file, dead-cell or drop-mate restriction: KY-5).
        for token in self.faces.tokens() {
            if pos.hands[me.index()][token.index()] == 0 {
                continue;
            }
            let faces: [Face; 2] = self.faces.faces_of(token);
            for (i, slot) in pos.board.iter().enumerate() {
                if slot.is_none() {
                    for face in faces {
                        out.push(Action::Drop {
                            face,
                            to: CellId(i as u16),
                        });
                    }
                }
            }
        }
        out.sort();
        out.dedup();
        out
    }

    pub(super) fn play(&self, pos: &Position, action: &Action) -> Position {
        let mut next = pos.clone();
        let me = pos.to_move;
        match *action {
            Action::Move { from, to } => {
                let piece = next.board[from.index()]
                    .take()
                    .expect("a legal move starts on the mover's piece");
                if let Some(captured) = next.board[to.index()]
                    && let Some(token) = self.faces.token(captured.face)
                {
                    next.hands[me.index()][token.index()] += 1;
                }
                next.board[to.index()] = Some(Piece {
                    owner: me,
                    face: self.flipped(piece.face),
                });
                next.halfmoves = if pos.board[to.index()].is_some() {
                    0
                } else {
                    pos.halfmoves + 1
                };
            }
            Action::Drop { face, to } => {
                // Only the faces of tokens are dropped: the royal face is
                // never in hand, so it has no hand count to take from.
                if let Some(token) = self.faces.token(face) {
                    next.hands[me.index()][token.index()] -= 1;
                }
                let face = if self.mutant_flip_on_drop {
                    self.flipped(face)
                } else {
                    face
                };
                next.board[to.index()] = Some(Piece { owner: me, face });
                // KY-8.1: like a capture, a drop restarts the count.
                next.halfmoves = 0;
            }
        }
        if me == Player::Second {
            // KY-I9: the largest move number a text carries stays where it is.
            next.move_number = next.move_number.saturating_add(1);
        }
        next.to_move = me.other();
        next
    }
}
