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
use crate::rules::roster::MAX_KINDS;
use crate::rules::{Player, PositionError};
use crate::topology::CellId;

use super::ShogiRules;
use super::pieces::{Kind, Piece};

/// Pieces in hand: `hands[player][kind.index()]`; the royal kind's count
/// is always 0.
pub type Hands = [[u8; MAX_KINDS]; 2];

/// Both hands empty.
pub const NO_HANDS: Hands = [[0; MAX_KINDS]; 2];

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
        self.hands[p.index()][k.index()]
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
    /// Pieces of each droppable kind on the board (promoted or not) and in
    /// both hands, by kind; the royal kind counts none.
    pub(super) fn piece_counts(&self, pos: &Position) -> Vec<u32> {
        let mut counts = vec![0u32; self.kinds().len()];
        for p in pos.board.iter().flatten() {
            if !self.is_royal(p.kind) {
                counts[p.kind.index()] += 1;
            }
        }
        for hand in &pos.hands {
            for (count, &n) in counts.iter_mut().zip(hand) {
                *count += u32::from(n);
            }
        }
        counts
    }

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
            if p.kind.index() >= self.kinds().len() {
                return Err(err(place(), "a kind this variant does not have"));
            }
            if p.promoted && !self.can_promote(p.kind) {
                return Err(err(
                    place(),
                    format!("a {} cannot be promoted", self.kind_name(p.kind)),
                ));
            }
            let default = self.drop_facing[p.owner.index()];
            if !self.has_facing(p.kind) {
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
                        self.kind_name(p.kind),
                        p.facing
                    ),
                ));
            }
            if self.is_royal(p.kind) {
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
        for (p, hand) in [Player::First, Player::Second]
            .into_iter()
            .zip(&setup.hands)
        {
            let held = |k: usize| hand[k] > 0;
            if let Some(k) = (0..MAX_KINDS).find(|&k| held(k) && k >= self.kinds().len()) {
                return Err(err(
                    "hand",
                    format!("{p:?}'s hand holds kind {k}, which this variant does not have"),
                ));
            }
            if held(self.pieces.royal.index()) {
                return Err(err(
                    "hand",
                    format!("a {} is never in hand", self.kind_name(self.pieces.royal)),
                ));
            }
        }
        let pos = Position {
            board,
            hands: setup.hands,
            to_move: setup.to_move,
            move_number: setup.move_number,
            kings,
        };
        self.check_piece_set(&pos)?;
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

    /// SS-I9: no kind outnumbers the game's set, counting the board and
    /// both hands, since play only moves pieces between them.
    fn check_piece_set(&self, pos: &Position) -> Result<(), PositionError> {
        let Some(set) = &self.piece_set else {
            return Ok(());
        };
        let have = self.piece_counts(pos);
        for &kind in self.hand_kinds() {
            let i = kind.index();
            if have[i] > set[i] {
                return Err(err(
                    "hand",
                    format!(
                        "{} {} pieces on the board and in hand; the game has {} (SS-I9)",
                        have[i],
                        self.kind_name(kind),
                        set[i]
                    ),
                ));
            }
        }
        Ok(())
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
        if !self.has_facing(kind) {
            p.facing = self.drop_facing[owner.index()];
        }
        p
    }
}
