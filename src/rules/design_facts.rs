//! The designer facts a family gathers about one variant's data, through
//! [`Rules::design_facts`](super::Rules::design_facts): the initial
//! bishops, whether every initial pawn can walk to its promotion target on
//! the empty board, every drop the restrictions allow onto a cell the
//! dropped piece could never leave, and each kind's movement with its
//! reach on the empty board. `seams spec check` shows them; the checks
//! that judge them (colour classes, GEO-I2) are [`crate::design`].

use std::collections::{BTreeMap, HashSet, VecDeque};
use std::hash::Hash;

use serde::Serialize;

use super::Player;
use crate::topology::CellId;

/// What a family reports about one variant's data.
#[derive(Clone, Debug)]
pub struct Facts {
    /// The square-cell board the variant is played on; `None` for boards
    /// without a square-cell colouring (the tetrahedron).
    pub board: Option<String>,
    /// Every bishop of the initial position (unpromoted), by owner.
    pub bishops: Vec<(Player, CellId)>,
    pub pawns: PawnFacts,
    pub drops: DropFacts,
    /// Rules each player has over cells (promotion zones, where drops are
    /// allowed), which the exchange Φ should carry from the first player's
    /// cells onto the second's. Empty where the family's data states one
    /// side only and derives the other (tetrahedral shogi, Kyoto).
    pub mirrored: Vec<PlayerCells>,
    /// Φ on cells, indexed by cell; empty when `mirrored` is.
    pub phi: Vec<CellId>,
    /// Every kind of piece, in the data file's order.
    pub pieces: Vec<PieceFacts>,
}

/// One kind of piece: its movement as its data file writes it, and where
/// that movement reaches on the empty board. `seams spec check` compares
/// them with the base's, so an edit to a movement shows as the reach it
/// changes and a new kind as a new item. The reach is every landing of the
/// movement from every cell of the empty board, the piece facing its first
/// player's way: captures and moves alike, each destination cell once
/// however many routes reach it, the departure cell never.
#[derive(Clone, Debug, Serialize, PartialEq, Eq, schemars::JsonSchema)]
pub struct PieceFacts {
    /// The kind's name: the key of its `[pieces]` table (a Kyoto face's).
    pub piece: String,
    pub letter: String,
    /// The movement text (MV).
    pub moves: String,
    /// The destinations of every cell, added up.
    pub destinations: usize,
    /// How many departure cells have each number of destinations, as
    /// `destinations×cells` pairs from the fewest destinations up:
    /// `5×162`, `2×4 3×28 …`.
    pub reach: String,
    /// The promoted movement, for a kind that promotes into a movement of
    /// its own, with its destinations and reach.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub promoted: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub promoted_destinations: Option<usize>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub promoted_reach: Option<String>,
}

/// A movement's reach on the empty board, as [`PieceFacts`] reports it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Reach {
    /// The destinations of every cell, added up.
    pub destinations: usize,
    /// How many departure cells have each number of destinations.
    pub cells: BTreeMap<usize, usize>,
}

impl Reach {
    /// The reach of a piece over `cells` of a board of `n` cells, where
    /// `landings(from, out)` pushes every cell the piece lands on from
    /// `from` (repeats and `from` itself allowed: they are dropped here).
    pub fn of(
        cells: impl IntoIterator<Item = CellId>,
        n: usize,
        mut landings: impl FnMut(CellId, &mut Vec<CellId>),
    ) -> Reach {
        let mut reach = Reach {
            destinations: 0,
            cells: BTreeMap::new(),
        };
        let mut seen = vec![false; n];
        let mut out = Vec::new();
        for from in cells {
            out.clear();
            landings(from, &mut out);
            let mut count = 0;
            for &c in &out {
                if c != from && !seen[c.index()] {
                    seen[c.index()] = true;
                    count += 1;
                }
            }
            for &c in &out {
                seen[c.index()] = false;
            }
            reach.destinations += count;
            *reach.cells.entry(count).or_default() += 1;
        }
        reach
    }

    /// `destinations×cells` pairs, from the fewest destinations up.
    pub fn spread(&self) -> String {
        let pairs: Vec<String> = self.cells.iter().map(|(d, n)| format!("{d}×{n}")).collect();
        pairs.join(" ")
    }
}

impl PieceFacts {
    /// A kind's facts from its texts and reaches.
    pub fn new(
        piece: &str,
        letter: char,
        moves: &str,
        reach: &Reach,
        promoted: Option<(&str, &Reach)>,
    ) -> PieceFacts {
        PieceFacts {
            piece: piece.to_string(),
            letter: letter.to_string(),
            moves: moves.to_string(),
            destinations: reach.destinations,
            reach: reach.spread(),
            promoted: promoted.map(|(m, _)| m.to_string()),
            promoted_destinations: promoted.map(|(_, r)| r.destinations),
            promoted_reach: promoted.map(|(_, r)| r.spread()),
        }
    }
}

/// One rule each player has over cells, as the cells it covers for each.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlayerCells {
    /// What the rule is, in the family's words (`promotion zone`, `drops
    /// of L`).
    pub rule: String,
    /// The cells it covers for the first and for the second player.
    pub cells: [Vec<CellId>; 2],
}

/// Forward paths of the initial pawns.
#[derive(Clone, Debug, Serialize, PartialEq, Eq, schemars::JsonSchema)]
#[serde(tag = "kind", rename_all = "kebab-case")]
pub enum PawnFacts {
    /// The family has no promotion target for pawns; `reason` cites the rule.
    NotApplicable { reason: String },
    /// One entry per initial pawn.
    Paths { pawns: Vec<PawnPath> },
}

/// One initial pawn and the fewest of its own non-capturing moves that
/// bring it to a promotion target on the otherwise empty board.
#[derive(Clone, Debug, Serialize, PartialEq, Eq, schemars::JsonSchema)]
pub struct PawnPath {
    pub owner: Player,
    pub cell: String,
    /// `None`: no sequence of its moves reaches a promotion target.
    pub moves: Option<usize>,
}

/// Drops onto cells the dropped piece could never leave.
#[derive(Clone, Debug, Serialize, PartialEq, Eq, schemars::JsonSchema)]
#[serde(tag = "kind", rename_all = "kebab-case")]
pub enum DropFacts {
    /// The family has no drops.
    NoDrops,
    /// Every (player, piece, cell) a drop restriction allows where the
    /// piece, with its dropped facing, has no move on the empty board.
    /// `rule` cites the family's drop restriction.
    Checked {
        rule: String,
        immobile: Vec<ImmobileDrop>,
    },
}

#[derive(Clone, Debug, Serialize, PartialEq, Eq, PartialOrd, Ord, schemars::JsonSchema)]
pub struct ImmobileDrop {
    pub owner: Player,
    /// The piece (or face) dropped, in the family's letters.
    pub piece: String,
    pub cell: String,
}

/// The fewest steps from `start` to a state that `done` accepts, where
/// `next` lists the states one move away. Breadth-first over the finite
/// state space, so it terminates on every board (cycles included).
pub fn fewest_moves<S: Copy + Eq + Hash>(
    start: S,
    mut next: impl FnMut(S, &mut Vec<S>),
    done: impl Fn(S) -> bool,
) -> Option<usize> {
    let mut seen = HashSet::from([start]);
    let mut queue = VecDeque::from([(start, 0usize)]);
    let mut out = Vec::new();
    while let Some((s, d)) = queue.pop_front() {
        out.clear();
        next(s, &mut out);
        for &t in &out {
            if done(t) {
                return Some(d + 1);
            }
            if seen.insert(t) {
                queue.push_back((t, d + 1));
            }
        }
    }
    None
}
