//! Kyoto pieces: two-faced tokens whose face decides how they move.
//!
//! Every non-king token has two faces and shows one of them. How each face
//! moves is data (`[pieces.<face>]` in the variant file, in the movement
//! language of `spec/movement/rules.md`); what is particular to Kyoto is
//! which faces share a token, and that the face turns over after every
//! move (the flip table lives in the variant data too, `KY-3.1`).

use serde::{Deserialize, Serialize};

use crate::rules::Player;

/// A face a token can show.
#[derive(Copy, Clone, Eq, PartialEq, Hash, Ord, PartialOrd, Debug, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Face {
    King,
    Tokin,
    Lance,
    Silver,
    Bishop,
    Gold,
    Knight,
    Pawn,
    Rook,
}

/// The four two-faced tokens (plus the one-faced king). A token in hand is
/// a token, not a face: it may be dropped either face up.
#[derive(Copy, Clone, Eq, PartialEq, Hash, Ord, PartialOrd, Debug)]
pub enum Token {
    TokinLance,
    SilverBishop,
    GoldKnight,
    PawnRook,
}

impl Token {
    pub const ALL: [Token; 4] = [
        Token::TokinLance,
        Token::SilverBishop,
        Token::GoldKnight,
        Token::PawnRook,
    ];

    pub fn index(self) -> usize {
        self as usize
    }

    /// The two faces of the token.
    pub fn faces(self) -> [Face; 2] {
        match self {
            Token::TokinLance => [Face::Tokin, Face::Lance],
            Token::SilverBishop => [Face::Silver, Face::Bishop],
            Token::GoldKnight => [Face::Gold, Face::Knight],
            Token::PawnRook => [Face::Pawn, Face::Rook],
        }
    }

    /// The hand letter, as in the exchange FEN (`L`, `S`, `N`, `P`).
    pub fn hand_letter(self) -> char {
        match self {
            Token::TokinLance => 'L',
            Token::SilverBishop => 'S',
            Token::GoldKnight => 'N',
            Token::PawnRook => 'P',
        }
    }
}

impl Face {
    pub const ALL: [Face; 9] = [
        Face::King,
        Face::Tokin,
        Face::Lance,
        Face::Silver,
        Face::Bishop,
        Face::Gold,
        Face::Knight,
        Face::Pawn,
        Face::Rook,
    ];

    /// The token showing this face; `None` for the king.
    pub fn token(self) -> Option<Token> {
        match self {
            Face::King => None,
            Face::Tokin | Face::Lance => Some(Token::TokinLance),
            Face::Silver | Face::Bishop => Some(Token::SilverBishop),
            Face::Gold | Face::Knight => Some(Token::GoldKnight),
            Face::Pawn | Face::Rook => Some(Token::PawnRook),
        }
    }

    /// The notation letter of a face (drops are written with it: `T*c3`).
    pub fn letter(self) -> char {
        match self {
            Face::King => 'K',
            Face::Tokin => 'T',
            Face::Lance => 'L',
            Face::Silver => 'S',
            Face::Bishop => 'B',
            Face::Gold => 'G',
            Face::Knight => 'N',
            Face::Pawn => 'P',
            Face::Rook => 'R',
        }
    }

    pub fn from_letter(c: char) -> Option<Face> {
        Face::ALL.into_iter().find(|f| f.letter() == c)
    }

    /// The face in the exchange FEN: a base letter, `+` for the other face
    /// (`+L` is the tokin, `+S` the bishop, `+N` the gold, `+P` the rook).
    pub fn fen(self) -> &'static str {
        match self {
            Face::King => "K",
            Face::Tokin => "+L",
            Face::Lance => "L",
            Face::Silver => "S",
            Face::Bishop => "+S",
            Face::Gold => "+N",
            Face::Knight => "N",
            Face::Pawn => "P",
            Face::Rook => "+P",
        }
    }

    /// Reads a FEN face (upper case; the caller handles owner case).
    pub fn from_fen(plus: bool, letter: char) -> Option<Face> {
        Face::ALL
            .into_iter()
            .find(|f| f.fen() == format!("{}{letter}", if plus { "+" } else { "" }))
    }

    /// The data-file name (`tokin`, `silver`, …).
    pub fn name(self) -> &'static str {
        match self {
            Face::King => "king",
            Face::Tokin => "tokin",
            Face::Lance => "lance",
            Face::Silver => "silver",
            Face::Bishop => "bishop",
            Face::Gold => "gold",
            Face::Knight => "knight",
            Face::Pawn => "pawn",
            Face::Rook => "rook",
        }
    }
}

/// A token on the board: its owner and the face it shows.
#[derive(Copy, Clone, Eq, PartialEq, Hash, Debug)]
pub struct Piece {
    pub owner: Player,
    pub face: Face,
}

impl Piece {
    /// The piece as the position text writes it: the face (`+S` for the
    /// bishop face), upper case for the first player.
    pub fn text(self) -> String {
        let f = self.face.fen();
        match self.owner {
            Player::First => f.to_string(),
            Player::Second => f.to_lowercase(),
        }
    }
}
