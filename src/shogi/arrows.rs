//! Display arrows of kings, rooks and bishops (`SS-A2` in
//! `spec/shogi/rules.md`, informative).
//!
//! These pieces carry no rule-relevant facing (`SS-I1`): the position
//! stores them with their owner's drop facing, and no rule reads it. The
//! source still wants their displayed arrow to record the transport their
//! routes took, so the arrow is computed here, beside the rules, from a
//! game's start and its actions: it never enters a position, a key, perft
//! or legality, and two positions that differ only in arrows stay one rule
//! state.
//!
//! A board move turns the arrow only when *every* clear route of the
//! moving piece to its destination reverses vertical directions; if some
//! route keeps them, the arrow is kept. That choice names no direction
//! order, so it commutes with the player exchange Φ and the left–right
//! mirror, and the arrow turns only when the move could not be made
//! without turning. Route transports come from the board's step and ray
//! tables ([`ShogiRules::piece_targets`]), never from a board's name.

use crate::movement::Facing;
use crate::topology::CellId;

use super::ShogiRules;
use super::movegen::Action;
use super::pieces::Piece;
use super::position::Position;

/// The display arrow of every king, rook and bishop of one position,
/// indexed by cell; `None` on cells holding no such piece.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Arrows {
    by_cell: Vec<Option<Facing>>,
}

impl Arrows {
    /// The arrow of the piece on `c`, if it is a king, rook or bishop.
    pub fn at(&self, c: CellId) -> Option<Facing> {
        self.by_cell.get(c.index()).copied().flatten()
    }

    /// Every arrow with its cell, in cell order.
    pub fn iter(&self) -> impl Iterator<Item = (CellId, Facing)> + '_ {
        self.by_cell
            .iter()
            .enumerate()
            .filter_map(|(i, f)| f.map(|f| (CellId(i as u16), f)))
    }
}

impl ShogiRules {
    /// Whether a piece carries a display arrow rather than a rule facing.
    fn has_arrow(&self, p: Piece) -> bool {
        !self.has_facing(p.kind)
    }

    /// The arrows of a position placed without history (the initial
    /// position, an edited setup, any position text): every king, rook and
    /// bishop points its owner's drop facing.
    pub fn placed_arrows(&self, pos: &Position) -> Arrows {
        Arrows {
            by_cell: pos
                .board
                .iter()
                .map(|slot| {
                    slot.filter(|&p| self.has_arrow(p))
                        .map(|p| self.drop_facing(p.owner))
                })
                .collect(),
        }
    }

    /// Whether a board move of the piece on `from` to `to` in `pos` turns
    /// its display arrow: some clear route reaches `to` and every such
    /// route reverses vertical directions. `false` when nothing on `from`
    /// reaches `to`.
    pub fn route_turns_arrow(&self, pos: &Position, from: CellId, to: CellId) -> bool {
        let Some(piece) = pos.piece_at(from) else {
            return false;
        };
        let (mut turning, mut keeping) = (false, false);
        self.piece_targets(&pos.board, from, piece, &mut |cell, t| {
            if cell == to {
                if t.flip_y {
                    turning = true;
                } else {
                    keeping = true;
                }
            }
        });
        turning && !keeping
    }

    /// The arrows after `action` is played in `pos`, whose arrows are
    /// `before`. A moved king, rook or bishop takes its arrow along,
    /// turned by [`Self::route_turns_arrow`]; a dropped rook or bishop
    /// points its owner's drop facing; a captured piece's arrow is gone.
    pub fn arrows_after(&self, pos: &Position, before: &Arrows, action: &Action) -> Arrows {
        let mut by_cell = before.by_cell.clone();
        match *action {
            Action::Move { from, to, .. } => {
                let carried = pos.piece_at(from).filter(|&p| self.has_arrow(p)).map(|p| {
                    // Arrows of another position than `pos` miss
                    // this piece: it is then read as just placed.
                    let arrow = before.at(from).unwrap_or(self.drop_facing(p.owner));
                    if self.route_turns_arrow(pos, from, to) {
                        arrow.reversed()
                    } else {
                        arrow
                    }
                });
                by_cell[from.index()] = None;
                by_cell[to.index()] = carried;
            }
            Action::Drop { kind, to } => {
                by_cell[to.index()] =
                    (!self.has_facing(kind)).then(|| self.drop_facing(pos.to_move));
            }
        }
        Arrows { by_cell }
    }

    /// The display arrow of every king, rook and bishop after `actions`
    /// (legal actions, in order) are played from `start`, as (cell,
    /// arrow) in cell order.
    pub fn game_arrows(&self, start: &Position, actions: &[Action]) -> Vec<(CellId, Facing)> {
        let mut pos = start.clone();
        let mut arrows = self.placed_arrows(start);
        for a in actions {
            arrows = self.arrows_after(&pos, &arrows, a);
            pos = self.play(&pos, a);
        }
        arrows.iter().collect()
    }
}
