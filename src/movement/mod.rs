//! Movement over a [`Geometry`]: facing, rays and leaps, and the movement
//! language every piece is written in (`spec/movement/rules.md`).
//!
//! [`lang`] reads a piece's movement text into terms; [`square`] compiles
//! them once per facing for boards of square charts, and [`lattice`] for
//! the tetrahedral board, into the tables every family's move generation
//! and attack detection read. The primitives here know about occupancy (a
//! predicate the caller supplies) but not about owners, captures or
//! legality: a ray reports the first occupied cell it meets as its last
//! landing, and the rule code decides whether that is a capture.

pub mod lang;
pub mod lattice;
pub mod square;

use std::collections::BTreeMap;
use std::fmt;

use serde::{Deserialize, Serialize};

use crate::geometry::{Geometry, KnightWord};
use crate::topology::Board;
use crate::topology::{CellId, Dir, Transport};

/// Which way "forward" points for a piece: toward increasing ranks (`Up`,
/// +1) or decreasing ranks (`Down`, −1). Facing is independent of owner.
#[derive(
    Copy,
    Clone,
    Eq,
    PartialEq,
    Hash,
    Ord,
    PartialOrd,
    Debug,
    Serialize,
    Deserialize,
    schemars::JsonSchema,
)]
#[serde(rename_all = "lowercase")]
pub enum Facing {
    Up,
    Down,
}

impl Facing {
    pub fn sign(self) -> i8 {
        match self {
            Facing::Up => 1,
            Facing::Down => -1,
        }
    }

    pub fn reversed(self) -> Facing {
        match self {
            Facing::Up => Facing::Down,
            Facing::Down => Facing::Up,
        }
    }

    /// The facing after a route with this total transport: a vertical
    /// reflection reverses it, a horizontal one leaves it alone.
    pub fn transported(self, t: Transport) -> Facing {
        if t.flip_y { self.reversed() } else { self }
    }

    /// Turns a direction in the piece's own frame (north = forward) into the
    /// board's local frame.
    pub fn absolute(self, relative: Dir) -> Dir {
        match self {
            Facing::Up => relative,
            Facing::Down => Transport::FLIP_V.apply(relative),
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Facing::Up => "up",
            Facing::Down => "down",
        }
    }

    pub fn parse(s: &str) -> Option<Facing> {
        match s {
            "up" | "+1" | "+" => Some(Facing::Up),
            "down" | "-1" | "-" => Some(Facing::Down),
            _ => None,
        }
    }
}

impl fmt::Display for Facing {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Where a route ends and the total transport it accumulated.
#[derive(Copy, Clone, Eq, PartialEq, Hash, Ord, PartialOrd, Debug)]
pub struct Landing {
    pub cell: CellId,
    pub transport: Transport,
}

/// Traces one ray from `from`, first in direction `dir`, calling `visit` for
/// each cell it lands on. The ray stops at a boundary or forbidden diagonal
/// (no step), at the departure cell (which stays occupied by the mover), and
/// after the first occupied cell (which *is* visited, so the caller can
/// decide on a capture).
///
/// The rules also stop a ray at a repeated (cell, direction) state. Because
/// the gluing is an involution, the step map on directed states is injective,
/// so the only state a ray could repeat is its initial one — whose cell is the
/// departure cell, where the ray has already stopped. The state bound below is
/// therefore a defensive check, and `tests/it/topology.rs` compares this function
/// against a literal implementation that keeps a visited set.
#[inline]
pub fn for_each_on_ray<O: Fn(CellId) -> bool + ?Sized>(
    geo: &Geometry,
    from: CellId,
    dir: Dir,
    occupied: &O,
    mut visit: impl FnMut(Landing),
) {
    let mut here = from;
    let mut d = dir;
    let mut total = Transport::IDENTITY;
    let bound = geo.board().cell_count() * 8;
    for _ in 0..bound {
        let Some(s) = geo.step(here, d) else { return };
        if s.to == from {
            return;
        }
        total = total.then(s.transport);
        d = s.transport.apply(d);
        here = s.to;
        visit(Landing {
            cell: here,
            transport: total,
        });
        if occupied(here) {
            return;
        }
    }
}

/// The same ray, written literally from the rule text with a visited set of
/// directed states. Used only to check [`for_each_on_ray`].
pub fn ray_literal(
    geo: &Geometry,
    from: CellId,
    dir: Dir,
    occupied: &dyn Fn(CellId) -> bool,
) -> Vec<Landing> {
    let mut out = Vec::new();
    let mut seen = std::collections::HashSet::new();
    let (mut here, mut d, mut total) = (from, dir, Transport::IDENTITY);
    seen.insert((here, d));
    while let Some(s) = geo.step(here, d) {
        if s.to == from {
            break;
        }
        total = total.then(s.transport);
        d = s.transport.apply(d);
        here = s.to;
        if !seen.insert((here, d)) {
            break;
        }
        out.push(Landing {
            cell: here,
            transport: total,
        });
        if occupied(here) {
            break;
        }
    }
    out
}

/// Geometry-level move shapes, independent of any piece or rule family.
#[derive(Copy, Clone, Eq, PartialEq, Debug, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum Pattern {
    /// Rays along the four cardinals (a rook).
    Orthogonal,
    /// Rays along the four diagonals (a bishop).
    Diagonal,
    /// The eight L,S,L words.
    Knight,
    /// One unit step in each of the eight directions.
    King,
}

impl Pattern {
    pub const ALL: [Pattern; 4] = [
        Pattern::Orthogonal,
        Pattern::Diagonal,
        Pattern::Knight,
        Pattern::King,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Pattern::Orthogonal => "orthogonal",
            Pattern::Diagonal => "diagonal",
            Pattern::Knight => "knight",
            Pattern::King => "king",
        }
    }

    pub fn parse(s: &str) -> Option<Pattern> {
        Pattern::ALL.into_iter().find(|p| p.name() == s)
    }

    /// Every distinct (cell, transport) this pattern reaches from `from`,
    /// sorted. Distinct routes with the same outcome appear once; routes to
    /// one cell with different transports appear separately.
    pub fn reach(
        self,
        geo: &Geometry,
        from: CellId,
        occupied: &dyn Fn(CellId) -> bool,
    ) -> Vec<Landing> {
        let mut out = Vec::new();
        match self {
            Pattern::Orthogonal | Pattern::Diagonal => {
                let dirs = if self == Pattern::Orthogonal {
                    Dir::CARDINALS
                } else {
                    Dir::DIAGONALS
                };
                for d in dirs {
                    for_each_on_ray(geo, from, d, occupied, |l| out.push(l));
                }
            }
            Pattern::Knight => {
                for w in KnightWord::ALL {
                    if let Some(s) = geo.knight(from, w) {
                        out.push(Landing {
                            cell: s.to,
                            transport: s.transport,
                        });
                    }
                }
            }
            Pattern::King => {
                for d in Dir::ALL {
                    if let Some(s) = geo.step(from, d).filter(|s| s.to != from) {
                        out.push(Landing {
                            cell: s.to,
                            transport: s.transport,
                        });
                    }
                }
            }
        }
        out.sort();
        out.dedup();
        out
    }
}

/// Facts about moves on the empty board, printed beside the mesh invariants.
#[derive(Clone, Debug, Serialize, PartialEq, Eq)]
pub struct MoveFacts {
    /// Every diagonal the two-order rule forbids, as `cell NE`.
    pub forbidden_diagonals: Vec<String>,
    /// Component sizes of diagonal moves on the empty board, largest first.
    pub diagonal_components: Vec<usize>,
    /// Number of bishop destinations → number of departure cells with it.
    pub bishop_reach: BTreeMap<usize, usize>,
    /// Cells per north orbit ("file"), with whether it closes and which
    /// file letters and charts it visits.
    pub file_orbits: Vec<FileOrbit>,
}

#[derive(Clone, Debug, Serialize, PartialEq, Eq)]
pub struct FileOrbit {
    pub first: String,
    pub cells: usize,
    pub closed: bool,
    pub files: String,
    pub charts: Vec<String>,
}

/// The facts about moves on the empty board of `geo` (`seams geometry`
/// prints them; the corpus asks for each).
pub fn move_facts(geo: &Geometry) -> MoveFacts {
    let b = geo.board();
    let mut bishop_reach = BTreeMap::new();
    for c in b.cells() {
        let n = Pattern::Diagonal
            .reach(geo, c, &|_| false)
            .iter()
            .map(|l| l.cell)
            .collect::<std::collections::BTreeSet<_>>()
            .len();
        *bishop_reach.entry(n).or_insert(0) += 1;
    }
    let file_orbits = geo
        .file_orbits()
        .into_iter()
        .map(|(cells, closed)| {
            let mut files: Vec<char> = cells
                .iter()
                .map(|&c| Board::file_letter(b.square(c).x))
                .collect();
            files.sort_unstable();
            files.dedup();
            let mut charts: Vec<String> = cells
                .iter()
                .map(|&c| b.chart_names()[b.square(c).chart as usize].clone())
                .collect();
            charts.sort();
            charts.dedup();
            FileOrbit {
                first: b.cell_name(cells[0]).to_string(),
                cells: cells.len(),
                closed,
                files: files.into_iter().collect(),
                charts,
            }
        })
        .collect();
    MoveFacts {
        forbidden_diagonals: geo
            .forbidden_diagonals()
            .iter()
            .map(|&(c, d)| format!("{} {}", b.cell_name(c), d))
            .collect(),
        diagonal_components: geo.diagonal_components(),
        bishop_reach,
        file_orbits,
    }
}

/// One unit step of a route: leaving `from` by `dir` (in `from`'s own
/// frame), the step lands on `to`, and `transport` is the derivative of
/// the edge it crossed (the identity inside a chart).
#[derive(Copy, Clone, Eq, PartialEq, Hash, Debug)]
pub struct Hop {
    pub from: CellId,
    pub dir: Dir,
    pub to: CellId,
    pub transport: Transport,
}

/// The ray [`for_each_on_ray`] traces from `from` in `dir`, as hops, up to
/// its landing on `to`; `None` when the ray stops before reaching `to`.
/// A ray passes each cell at most once before it stops, so there is at
/// most one such route.
pub fn ray_hops(
    geo: &Geometry,
    from: CellId,
    dir: Dir,
    occupied: &dyn Fn(CellId) -> bool,
    to: CellId,
) -> Option<Vec<Hop>> {
    let mut hops = Vec::new();
    let mut done = false;
    let (mut here, mut total) = (from, Transport::IDENTITY);
    for_each_on_ray(geo, from, dir, occupied, |l| {
        if done {
            return;
        }
        // Every step so far has turned the ray's direction by the
        // transport accumulated before it; this step's own transport is
        // what it adds to that total.
        hops.push(Hop {
            from: here,
            dir: total.apply(dir),
            to: l.cell,
            transport: total.then(l.transport),
        });
        here = l.cell;
        total = l.transport;
        done = l.cell == to;
    });
    done.then_some(hops)
}

/// The unit step from `from` in `dir` (cardinal, or a diagonal the
/// two-order rule allows), as one hop, when it lands on `to`.
pub fn step_hops(geo: &Geometry, from: CellId, dir: Dir, to: CellId) -> Option<Vec<Hop>> {
    let s = geo.step(from, dir).filter(|s| s.to == to && s.to != from)?;
    Some(vec![Hop {
        from,
        dir,
        to: s.to,
        transport: s.transport,
    }])
}

/// The knight jump `word` from `from` as its three cardinal hops (the
/// letters L, S, L, each transported by the crossings before it, as
/// [`crate::geometry::walk`] follows them), when the jump lands on `to`.
pub fn knight_hops(geo: &Geometry, from: CellId, word: KnightWord, to: CellId) -> Option<Vec<Hop>> {
    let jump = geo.knight(from, word).filter(|s| s.to == to)?;
    let mut hops = Vec::with_capacity(3);
    let (mut here, mut total) = (from, Transport::IDENTITY);
    for letter in word.letters() {
        let d = total.apply(letter);
        let s = geo.board().step(here, d)?;
        hops.push(Hop {
            from: here,
            dir: d,
            to: s.to,
            transport: s.transport,
        });
        here = s.to;
        total = total.then(s.transport);
    }
    // The table and the letters are the same walk.
    debug_assert_eq!((here, total), (jump.to, jump.transport));
    Some(hops)
}

/// A route's transport from its first cell to its last.
pub fn hops_transport(hops: &[Hop]) -> Transport {
    hops.iter()
        .fold(Transport::IDENTITY, |t, h| t.then(h.transport))
}
