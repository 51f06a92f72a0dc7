//! The pieces of surface chess: pieces and castling sides.
//!
//! A [`Piece`] carries its owner and kind, and for pawns the two fields the
//! rules keep (SC-3.1): the facing (toward increasing or decreasing ranks,
//! independent of owner) and the unused-double-step flag. Other pieces have
//! no facing; constructors normalise those fields so that equal pieces
//! compare and hash equal. Kinds are data: the `[pieces]` tables of each
//! variant's file (SC-3.8), read into [`super::data::PieceTable`]; a
//! [`Kind`] is a kind's place there, and [`super::ChessRules::piece`]
//! builds a piece of any kind, knowing which one is the pawn.

use crate::movement::Facing;
use crate::rules::Player;
pub use crate::rules::roster::Kind;

/// Which castling: toward the king's east (increasing files) or west.
#[derive(Copy, Clone, Eq, PartialEq, Hash, Ord, PartialOrd, Debug)]
pub enum Side {
    East,
    West,
}

impl Side {
    pub const BOTH: [Side; 2] = [Side::East, Side::West];
    pub fn index(self) -> usize {
        self as usize
    }
    pub fn name(self) -> &'static str {
        match self {
            Side::East => "east",
            Side::West => "west",
        }
    }
}

/// One piece on a cell.
#[derive(Copy, Clone, Eq, PartialEq, Hash, Ord, PartialOrd, Debug)]
pub struct Piece {
    pub owner: Player,
    pub kind: Kind,
    /// A pawn's facing; `Up` for every other kind.
    pub facing: Facing,
    /// A pawn's unused-double-step flag; `false` for every other kind.
    pub double_step: bool,
}

impl Piece {
    /// A piece that is not a pawn (for any kind use
    /// [`super::ChessRules::piece`]).
    pub fn new(owner: Player, kind: Kind) -> Piece {
        Piece {
            owner,
            kind,
            facing: Facing::Up,
            double_step: false,
        }
    }
}

/// White is the first player, Black the second.
pub fn player_name(p: Player) -> &'static str {
    match p {
        Player::First => "White",
        Player::Second => "Black",
    }
}

/// The facing every pawn of this owner starts with.
pub fn home_facing(p: Player) -> Facing {
    match p {
        Player::First => Facing::Up,
        Player::Second => Facing::Down,
    }
}
