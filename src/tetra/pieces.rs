//! The pieces of the tetrahedral family. Kinds are data: the `[pieces]`
//! tables of a variant file, in the file's order, give each kind's name,
//! letter, count and starting cells, movement and promotion, switching
//! partner, and which kind is royal (TS-3.3); a [`Kind`] is its place in
//! that list. How each kind moves is in the movement language of
//! `spec/movement/rules.md`, read in the owner's frame (clauses TS-2,
//! TH-2, MV-7); `movegen` turns it into absolute directions once per
//! variant.

use crate::rules::Player;
pub use crate::rules::roster::Kind;

/// A piece on the board. A promoted piece keeps its kind and gains the
/// variant's promoted mover.
#[derive(Copy, Clone, Eq, PartialEq, Hash, Ord, PartialOrd, Debug)]
pub struct Piece {
    pub owner: Player,
    pub kind: Kind,
    pub promoted: bool,
}
