//! Pieces.
//!
//! A [`Piece`] is an owner, a base [`Kind`], a promotion flag and a facing.
//! Kinds are data: the `[pieces]` tables of each variant's file give each
//! kind's name, letter, movement (in the language of
//! `spec/movement/rules.md`), promoted movement and the special rules it
//! takes part in, compiled once per board ([`super::data::PieceTable`]);
//! a [`Kind`] is its place in that list. A kind whose movement is the same
//! in either facing carries no rule-relevant facing: the engine stores its
//! owner's default facing (see `SS-I1` in `spec/shogi/rules.md`).

use crate::movement::Facing;
use crate::rules::Player;
pub use crate::rules::roster::Kind;

/// A piece on the board.
#[derive(Copy, Clone, Eq, PartialEq, Hash, Debug)]
pub struct Piece {
    pub owner: Player,
    pub kind: Kind,
    pub promoted: bool,
    pub facing: Facing,
}

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
