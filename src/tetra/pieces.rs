//! The pieces of the tetrahedral family: the kinds a player can own or hold
//! in hand, and pieces. How each kind moves is data: `moves` and
//! `promoted` in the variant file's `[pieces]` tables, in the movement
//! language of `spec/movement/rules.md` read in the owner's frame
//! (clauses TS-2, TH-2, MV-7); `movegen` turns it into absolute
//! directions once per variant.

use serde::{Deserialize, Serialize};

use crate::rules::Player;

/// A kind of piece as it is set up, held in hand and dropped. A promoted
/// piece keeps its kind and gains the variant's promoted mover.
#[derive(Copy, Clone, Eq, PartialEq, Hash, Ord, PartialOrd, Debug, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Kind {
    King,
    General,
    Rook,
    Bishop,
    Gold,
    Silver,
    Wing,
    Point,
    Saltire,
    Dexter,
    Sinister,
    Chief,
    Base,
}

impl Kind {
    pub const COUNT: usize = 13;
    pub const ALL: [Kind; Kind::COUNT] = [
        Kind::King,
        Kind::General,
        Kind::Rook,
        Kind::Bishop,
        Kind::Gold,
        Kind::Silver,
        Kind::Wing,
        Kind::Point,
        Kind::Saltire,
        Kind::Dexter,
        Kind::Sinister,
        Kind::Chief,
        Kind::Base,
    ];
    pub fn index(self) -> usize {
        self as usize
    }
    /// The royal kinds: they must be kept out of check and are never in hand.
    pub fn is_royal(self) -> bool {
        match self {
            Kind::King | Kind::General => true,
            Kind::Rook
            | Kind::Bishop
            | Kind::Gold
            | Kind::Silver
            | Kind::Wing
            | Kind::Point
            | Kind::Saltire
            | Kind::Dexter
            | Kind::Sinister
            | Kind::Chief
            | Kind::Base => false,
        }
    }
    /// The data-file name, e.g. `saltire`.
    pub fn name(self) -> &'static str {
        match self {
            Kind::King => "king",
            Kind::General => "general",
            Kind::Rook => "rook",
            Kind::Bishop => "bishop",
            Kind::Gold => "gold",
            Kind::Silver => "silver",
            Kind::Wing => "wing",
            Kind::Point => "point",
            Kind::Saltire => "saltire",
            Kind::Dexter => "dexter",
            Kind::Sinister => "sinister",
            Kind::Chief => "chief",
            Kind::Base => "base",
        }
    }
}

/// A piece on the board.
#[derive(Copy, Clone, Eq, PartialEq, Hash, Ord, PartialOrd, Debug)]
pub struct Piece {
    pub owner: Player,
    pub kind: Kind,
    pub promoted: bool,
}
