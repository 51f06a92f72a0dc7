//! Positions: a [`Setup`] of public fields, validated into a [`Position`].
//!
//! A `Setup` may describe anything (an editor's scratch board); a `Position`
//! is a setup that [`super::ShogiRules::validate`] accepted for one variant:
//! the board has the variant's cell count, each player has at most one king,
//! golds and kings are unpromoted, facings obey the board, no unpromoted
//! piece stands on a dead rank, and the player who just moved is not in
//! check. Kings, rooks and bishops are stored with their owner's default
//! facing (`SS-I1`).

use crate::movement::Facing;
use crate::rules::{Player, PositionError};
use crate::topology::CellId;

use super::ShogiRules;
use super::pieces::{Kind, Piece};

/// Pieces in hand: `hands[player][kind.hand_index()]`.
pub type Hands = [[u8; 7]; 2];

/// An unvalidated position.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Setup {
    /// One entry per cell, indexed by [`CellId`].
    pub board: Vec<Option<Piece>>,
    pub hands: Hands,
    pub to_move: Player,
    /// The ply number, starting at 1; not part of the repetition key.
    pub move_number: u32,
}

/// A validated position of one variant.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Position {
    pub(super) board: Vec<Option<Piece>>,
    pub(super) hands: Hands,
    pub(super) to_move: Player,
    pub(super) move_number: u32,
    /// Cached king cells, derived from `board`.
    pub(super) kings: [Option<CellId>; 2],
}

impl Position {
    pub fn piece_at(&self, c: CellId) -> Option<Piece> {
        self.board.get(c.index()).copied().flatten()
    }
    pub fn board(&self) -> &[Option<Piece>] {
        &self.board
    }
    pub fn hand(&self, p: Player, k: Kind) -> u8 {
        k.hand_index().map_or(0, |i| self.hands[p.index()][i])
    }
    pub fn hands(&self) -> &Hands {
        &self.hands
    }
    pub fn to_move(&self) -> Player {
        self.to_move
    }
    pub fn move_number(&self) -> u32 {
        self.move_number
    }
    pub fn king(&self, p: Player) -> Option<CellId> {
        self.kings[p.index()]
    }
    /// Pieces on the board plus pieces in both hands.
    pub fn piece_count(&self) -> usize {
        self.board.iter().flatten().count()
            + self
                .hands
                .iter()
                .flat_map(|h| h.iter())
                .map(|&n| n as usize)
                .sum::<usize>()
    }
    /// Back to an editable setup.
    pub fn to_setup(&self) -> Setup {
        Setup {
            board: self.board.clone(),
            hands: self.hands,
            to_move: self.to_move,
            move_number: self.move_number,
        }
    }
}

fn err(field: impl Into<String>, message: impl Into<String>) -> PositionError {
    PositionError {
        field: field.into(),
        message: message.into(),
    }
}

impl ShogiRules {
    /// Checks a setup against this variant and returns the position.
    pub fn validate(&self, setup: Setup) -> Result<Position, PositionError> {
        let n = self.geo.board().cell_count();
        if setup.board.len() != n {
            return Err(err(
                "placement",
                format!(
                    "{} cells given, board {} has {n}",
                    setup.board.len(),
                    self.geo.board().name()
                ),
            ));
        }
        if setup.move_number == 0 {
            return Err(err("move number", "the move number starts at 1"));
        }
        let mut board = setup.board;
        let mut kings: [Option<CellId>; 2] = [None, None];
        for (i, slot) in board.iter_mut().enumerate() {
            let Some(p) = slot else { continue };
            let c = CellId(i as u16);
            let place = || self.geo.board().cell_name(c);
            if p.promoted && !p.kind.can_promote() {
                return Err(err(
                    place(),
                    format!("a {} cannot be promoted", p.kind.name()),
                ));
            }
            let default = self.drop_facing[p.owner.index()];
            if !p.has_facing() {
                p.facing = default;
            } else if self.fixed_facing && p.facing != default {
                return Err(err(
                    place(),
                    format!(
                        "no seam of {} reverses facing, so every piece faces its owner's direction ({default})",
                        self.geo.board().name()
                    ),
                ));
            }
            if !p.promoted && self.is_dead(p.kind, p.facing, c) {
                return Err(err(
                    place(),
                    format!(
                        "an unpromoted {} facing {} could never move from here (dead rank)",
                        p.kind.name(),
                        p.facing
                    ),
                ));
            }
            if p.kind == Kind::King {
                let k = &mut kings[p.owner.index()];
                if let Some(other) = k {
                    return Err(err(
                        place(),
                        format!(
                            "a second king for the same player (also on {})",
                            self.geo.board().cell_name(*other)
                        ),
                    ));
                }
                *k = Some(c);
            }
        }
        let pos = Position {
            board,
            hands: setup.hands,
            to_move: setup.to_move,
            move_number: setup.move_number,
            kings,
        };
        let waiting = pos.to_move.other();
        if let Some(k) = pos.kings[waiting.index()]
            && self.attacked(&pos.board, k, pos.to_move)
        {
            return Err(err(
                "side",
                "the player who is not to move is in check, which no legal move leaves",
            ));
        }
        Ok(pos)
    }

    /// A piece as the engine stores it: facing-free kinds take the owner's
    /// default facing.
    pub fn piece(&self, owner: Player, kind: Kind, promoted: bool, facing: Facing) -> Piece {
        let mut p = Piece {
            owner,
            kind,
            promoted,
            facing,
        };
        if !p.has_facing() {
            p.facing = self.drop_facing[owner.index()];
        }
        p
    }
}
