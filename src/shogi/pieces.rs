//! Piece kinds, pieces and their movement in the piece's own frame.
//!
//! A [`Piece`] is an owner, a base [`Kind`], a promotion flag and a facing.
//! Movement is written relative to the piece (north = forward) and turned
//! into board directions with [`Facing::absolute`]. Kings, rooks and bishops
//! (promoted or not) move the same whichever way they face, so they carry no
//! rule-relevant facing: the engine stores their owner's default facing
//! (see `SS-I1` in `spec/shogi/rules.md`).

use crate::movement::Facing;
use crate::rules::Player;
use crate::topology::Dir;

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

    pub fn can_promote(self) -> bool {
        match self {
            Kind::Pawn | Kind::Lance | Kind::Knight | Kind::Silver | Kind::Bishop | Kind::Rook => {
                true
            }
            Kind::Gold | Kind::King => false,
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

/// Relative directions as a bit set over [`Dir::index`].
#[derive(Copy, Clone, Eq, PartialEq, Debug, Default)]
pub struct DirSet(pub u8);

impl DirSet {
    pub const EMPTY: DirSet = DirSet(0);

    pub const fn of(dirs: &[Dir]) -> DirSet {
        let mut bits = 0u8;
        let mut i = 0;
        while i < dirs.len() {
            bits |= 1 << (dirs[i] as u8);
            i += 1;
        }
        DirSet(bits)
    }

    #[inline]
    pub fn contains(self, d: Dir) -> bool {
        self.0 & (1 << d.index()) != 0
    }

    pub fn iter(self) -> impl Iterator<Item = Dir> {
        Dir::ALL.into_iter().filter(move |d| self.contains(*d))
    }
}

use Dir::{E, N, NE, NW, S, SE, SW, W};

const ALL8: DirSet = DirSet::of(&[N, NE, E, SE, S, SW, W, NW]);
const ORTHO: DirSet = DirSet::of(&[N, E, S, W]);
const DIAG: DirSet = DirSet::of(&[NE, SE, SW, NW]);
const GOLD: DirSet = DirSet::of(&[N, NE, NW, E, W, S]);
const SILVER: DirSet = DirSet::of(&[N, NE, NW, SE, SW]);
const FORWARD: DirSet = DirSet::of(&[N]);

/// How a piece moves, in its own frame: single steps, rays, and whether it
/// has the two forward knight jumps.
#[derive(Copy, Clone, Eq, PartialEq, Debug)]
pub struct Movement {
    pub steps: DirSet,
    pub rays: DirSet,
    pub knight: bool,
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
    /// The piece's movement in its own frame.
    pub fn movement(self) -> Movement {
        let (steps, rays, knight) = match (self.kind, self.promoted) {
            (Kind::King, _) => (ALL8, DirSet::EMPTY, false),
            (Kind::Gold, _)
            | (Kind::Pawn, true)
            | (Kind::Lance, true)
            | (Kind::Knight, true)
            | (Kind::Silver, true) => (GOLD, DirSet::EMPTY, false),
            (Kind::Silver, false) => (SILVER, DirSet::EMPTY, false),
            (Kind::Knight, false) => (DirSet::EMPTY, DirSet::EMPTY, true),
            (Kind::Lance, false) => (DirSet::EMPTY, FORWARD, false),
            (Kind::Pawn, false) => (FORWARD, DirSet::EMPTY, false),
            (Kind::Rook, false) => (DirSet::EMPTY, ORTHO, false),
            (Kind::Rook, true) => (DIAG, ORTHO, false),
            (Kind::Bishop, false) => (DirSet::EMPTY, DIAG, false),
            (Kind::Bishop, true) => (ORTHO, DIAG, false),
        };
        Movement {
            steps,
            rays,
            knight,
        }
    }

    /// Whether the piece's movement depends on its facing (`SS-I1`).
    pub fn has_facing(self) -> bool {
        has_facing(self.kind)
    }

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

/// Kings, rooks and bishops move the same in either facing; every other
/// kind (promoted or not) moves by its facing.
pub fn has_facing(kind: Kind) -> bool {
    match kind {
        Kind::King | Kind::Rook | Kind::Bishop => false,
        Kind::Pawn | Kind::Lance | Kind::Knight | Kind::Silver | Kind::Gold => true,
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
