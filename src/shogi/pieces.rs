//! Piece kinds and pieces.
//!
//! A [`Piece`] is an owner, a base [`Kind`], a promotion flag and a facing.
//! How a kind moves is data: the `[pieces]` table of each variant's file,
//! in the movement language of `spec/movement/rules.md`, compiled once per
//! board ([`super::data::PieceTable`]). A kind whose movement is the same
//! in either facing carries no rule-relevant facing: the engine stores its
//! owner's default facing (see `SS-I1` in `spec/shogi/rules.md`).

use crate::movement::Facing;
use crate::rules::Player;

/// The eight base kinds. Promotion is a flag on [`Piece`], never a kind.
#[derive(Copy, Clone, Eq, PartialEq, Hash, Ord, PartialOrd, Debug)]
pub enum Kind {
    Pawn,
    Lance,
    Knight,
    Silver,
    Gold,
    Bishop,
    Rook,
    King,
}

impl Kind {
    pub const ALL: [Kind; 8] = [
        Kind::Pawn,
        Kind::Lance,
        Kind::Knight,
        Kind::Silver,
        Kind::Gold,
        Kind::Bishop,
        Kind::Rook,
        Kind::King,
    ];

    /// Kinds that can be held in hand, in the order hands are printed
    /// (rook first, pawn last).
    pub const HAND: [Kind; 7] = [
        Kind::Rook,
        Kind::Bishop,
        Kind::Gold,
        Kind::Silver,
        Kind::Knight,
        Kind::Lance,
        Kind::Pawn,
    ];

    /// Index into a hand array (`0..7`); the king has none.
    pub fn hand_index(self) -> Option<usize> {
        match self {
            Kind::Pawn => Some(0),
            Kind::Lance => Some(1),
            Kind::Knight => Some(2),
            Kind::Silver => Some(3),
            Kind::Gold => Some(4),
            Kind::Bishop => Some(5),
            Kind::Rook => Some(6),
            Kind::King => None,
        }
    }

    /// The upper-case letter (`P L N S G B R K`).
    pub fn letter(self) -> char {
        match self {
            Kind::Pawn => 'P',
            Kind::Lance => 'L',
            Kind::Knight => 'N',
            Kind::Silver => 'S',
            Kind::Gold => 'G',
            Kind::Bishop => 'B',
            Kind::Rook => 'R',
            Kind::King => 'K',
        }
    }

    /// Reads a letter in either case.
    pub fn from_letter(c: char) -> Option<Kind> {
        Kind::ALL
            .into_iter()
            .find(|k| k.letter() == c.to_ascii_uppercase())
    }

    /// The name used in data files (`pawn`, `lance`, …).
    pub fn name(self) -> &'static str {
        match self {
            Kind::Pawn => "pawn",
            Kind::Lance => "lance",
            Kind::Knight => "knight",
            Kind::Silver => "silver",
            Kind::Gold => "gold",
            Kind::Bishop => "bishop",
            Kind::Rook => "rook",
            Kind::King => "king",
        }
    }
}

/// A piece on the board.
#[derive(Copy, Clone, Eq, PartialEq, Hash, Debug)]
pub struct Piece {
    pub owner: Player,
    pub kind: Kind,
    pub promoted: bool,
    pub facing: Facing,
}

impl Piece {
    /// The letter with promotion mark, upper case for the first player:
    /// `P`, `+p`, …
    pub fn text(self) -> String {
        let mut s = String::new();
        self.push_text(&mut s);
        s
    }

    /// [`Piece::text`], written onto `out`.
    pub fn push_text(self, out: &mut String) {
        if self.promoted {
            out.push('+');
        }
        let c = self.kind.letter();
        out.push(match self.owner {
            Player::First => c,
            Player::Second => c.to_ascii_lowercase(),
        });
    }
}

/// The owner's name in the rules text: `A` moves first, `B` second.
/// The players' names, SS-1.3: A moves first, B second.
pub fn player_name(p: Player) -> &'static str {
    match p {
        Player::First => "A",
        Player::Second => "B",
    }
}

pub fn player_letter(p: Player) -> char {
    match p {
        Player::First => 'A',
        Player::Second => 'B',
    }
}
