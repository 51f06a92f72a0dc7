//! The pieces of surface chess: closed enums for kind, owner and castling side.
//!
//! A [`Piece`] carries its owner and kind, and for pawns the two fields the
//! rules keep (SC-3.1): the facing (toward increasing or decreasing ranks,
//! independent of owner) and the unused-double-step flag. Other pieces have
//! no facing; constructors normalise those fields so that equal pieces
//! compare and hash equal.

use crate::movement::Facing;
use crate::rules::Player;

/// The six piece kinds.
#[derive(Copy, Clone, Eq, PartialEq, Hash, Ord, PartialOrd, Debug)]
pub enum Kind {
    Pawn,
    Knight,
    Bishop,
    Rook,
    Queen,
    King,
}

impl Kind {
    pub const ALL: [Kind; 6] = [
        Kind::Pawn,
        Kind::Knight,
        Kind::Bishop,
        Kind::Rook,
        Kind::Queen,
        Kind::King,
    ];

    /// The upper-case letter (White's piece in position text).
    pub fn letter(self) -> char {
        match self {
            Kind::Pawn => 'P',
            Kind::Knight => 'N',
            Kind::Bishop => 'B',
            Kind::Rook => 'R',
            Kind::Queen => 'Q',
            Kind::King => 'K',
        }
    }

    /// The piece's name in the rules (`pawn`, `queen`, …).
    pub fn name(self) -> &'static str {
        match self {
            Kind::Pawn => "pawn",
            Kind::Knight => "knight",
            Kind::Bishop => "bishop",
            Kind::Rook => "rook",
            Kind::Queen => "queen",
            Kind::King => "king",
        }
    }

    /// Reads a letter of either case.
    pub fn from_letter(c: char) -> Option<Kind> {
        Kind::ALL
            .into_iter()
            .find(|k| k.letter() == c.to_ascii_uppercase())
    }
}

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
    /// A non-pawn piece (for a pawn use [`Piece::pawn`]).
    pub fn new(owner: Player, kind: Kind) -> Piece {
        Piece {
            owner,
            kind,
            facing: Facing::Up,
            double_step: false,
        }
    }

    pub fn pawn(owner: Player, facing: Facing, double_step: bool) -> Piece {
        Piece {
            owner,
            kind: Kind::Pawn,
            facing,
            double_step,
        }
    }

    /// Builds any kind, dropping the pawn fields for non-pawns.
    pub fn of(owner: Player, kind: Kind, facing: Facing, double_step: bool) -> Piece {
        if kind == Kind::Pawn {
            Piece::pawn(owner, facing, double_step)
        } else {
            Piece::new(owner, kind)
        }
    }

    /// The position-text letter: upper case for White, lower case for Black.
    pub fn letter(self) -> char {
        let c = self.kind.letter();
        match self.owner {
            Player::First => c,
            Player::Second => c.to_ascii_lowercase(),
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
