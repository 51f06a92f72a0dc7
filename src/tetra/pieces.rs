//! The pieces of the tetrahedral family: the kinds a player can own or hold
//! in hand, the movement patterns ("movers") a piece may have, and each
//! pattern written in its owner's frame (clauses TS-2, TH-2).
//!
//! Directions are the board's names from [`TDir`] (`R`, `FRU`, `F`, …),
//! read in the owner's frame; `movegen` turns them into absolute
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
    /// How the kind moves unpromoted.
    pub fn mover(self) -> Mover {
        match self {
            Kind::King => Mover::King,
            Kind::General => Mover::General,
            Kind::Rook => Mover::Rook,
            Kind::Bishop => Mover::Bishop,
            Kind::Gold => Mover::Gold,
            Kind::Silver => Mover::Silver,
            Kind::Wing => Mover::Wing,
            Kind::Point => Mover::Point,
            Kind::Saltire => Mover::Saltire,
            Kind::Dexter => Mover::Dexter,
            Kind::Sinister => Mover::Sinister,
            Kind::Chief => Mover::Chief,
            Kind::Base => Mover::Base,
        }
    }
    /// The data-file name, e.g. `saltire`.
    pub fn name(self) -> &'static str {
        self.mover().name()
    }
}

/// A movement pattern. Every kind has one; promotion may give another.
#[derive(Copy, Clone, Eq, PartialEq, Hash, Ord, PartialOrd, Debug, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Mover {
    King,
    General,
    Rook,
    Chatelaine,
    Bishop,
    Primate,
    Gold,
    Silver,
    Wing,
    Point,
    Saltire,
    Wazirranker,
    Dexter,
    Sinister,
    Chief,
    Base,
}

const ORTHOGONALS: [&str; 12] = [
    "R", "L", "U", "D", "FRU", "FRD", "FLU", "FLD", "BRU", "BRD", "BLU", "BLD",
];
const DIAGONALS: [&str; 6] = ["RU", "RD", "LU", "LD", "F", "B"];
const FORWARD_ORTHOGONALS: [&str; 4] = ["FRU", "FRD", "FLU", "FLD"];
const RANK_CHANGING: [&str; 8] = ["FRU", "FRD", "FLU", "FLD", "BRU", "BRD", "BLU", "BLD"];
/// The saltire's two-stage leap: straight forward, then one in-rank step.
const SALTIRE_LEAPS: [(&str, &str); 4] = [("F", "R"), ("F", "L"), ("F", "U"), ("F", "D")];

/// A pattern in the owner's frame: one-step directions, sliding
/// directions, and leaps given as two directions whose vectors add up.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Pattern {
    pub steps: Vec<&'static str>,
    pub slides: Vec<&'static str>,
    pub leaps: Vec<(&'static str, &'static str)>,
}

impl Mover {
    pub fn name(self) -> &'static str {
        match self {
            Mover::King => "king",
            Mover::General => "general",
            Mover::Rook => "rook",
            Mover::Chatelaine => "chatelaine",
            Mover::Bishop => "bishop",
            Mover::Primate => "primate",
            Mover::Gold => "gold",
            Mover::Silver => "silver",
            Mover::Wing => "wing",
            Mover::Point => "point",
            Mover::Saltire => "saltire",
            Mover::Wazirranker => "wazirranker",
            Mover::Dexter => "dexter",
            Mover::Sinister => "sinister",
            Mover::Chief => "chief",
            Mover::Base => "base",
        }
    }

    /// The pattern, in the owner's frame (TS-2, TH-2).
    pub fn pattern(self) -> Pattern {
        let v = |s: &[&'static str]| s.to_vec();
        let cat = |a: &[&'static str], b: &[&'static str]| [a, b].concat();
        let steps = |s: Vec<&'static str>| Pattern {
            steps: s,
            ..Pattern::default()
        };
        match self {
            Mover::King => steps(cat(&ORTHOGONALS, &DIAGONALS)),
            Mover::General => steps(v(&ORTHOGONALS)),
            Mover::Rook => Pattern {
                slides: v(&ORTHOGONALS),
                ..Pattern::default()
            },
            Mover::Chatelaine => Pattern {
                slides: v(&ORTHOGONALS),
                steps: v(&DIAGONALS),
                ..Pattern::default()
            },
            Mover::Bishop => Pattern {
                slides: v(&DIAGONALS),
                ..Pattern::default()
            },
            Mover::Primate => Pattern {
                slides: v(&DIAGONALS),
                steps: v(&ORTHOGONALS),
                ..Pattern::default()
            },
            Mover::Gold => steps(cat(&ORTHOGONALS, &["F"])),
            Mover::Silver => steps(cat(&DIAGONALS, &FORWARD_ORTHOGONALS)),
            Mover::Wing => Pattern {
                slides: v(&FORWARD_ORTHOGONALS),
                ..Pattern::default()
            },
            Mover::Point => steps(v(&FORWARD_ORTHOGONALS)),
            Mover::Saltire => Pattern {
                leaps: SALTIRE_LEAPS.to_vec(),
                ..Pattern::default()
            },
            Mover::Wazirranker => steps(v(&RANK_CHANGING)),
            Mover::Dexter => steps(v(&["R", "FRU", "FRD", "BRU", "BRD", "L"])),
            Mover::Sinister => steps(v(&["L", "FLU", "FLD", "BLU", "BLD", "R"])),
            Mover::Chief => steps(v(&["U", "FRU", "FLU", "BRU", "BLU", "D"])),
            Mover::Base => steps(v(&["D", "FRD", "FLD", "BRD", "BLD", "U"])),
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
