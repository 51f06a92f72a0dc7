//! Derived step tables: diagonals by the two-order rule and knight words.
//!
//! [`Geometry`] is built once per board and owns it. It precomputes, for every
//! cell, the eight unit steps (four cardinals from the gluing, four diagonals
//! from the two-order rule) and the eight knight words, so that movement and
//! rule code read a table instead of re-deriving seams in the hot path.
//!
//! **Two-order rule.** A diagonal made of horizontal `h` and vertical `v` is
//! allowed exactly when `h`-then-`v` and `v`-then-`h` both exist and reach the
//! same cell with the same transport. The side cells are only used for this
//! computation; pieces on them never block the diagonal.
//!
//! **Knight words.** A knight follows the edge word L,S,L (long, short, long),
//! transporting the remaining letters at each crossing. L,L,S is a different
//! word and is never used.

mod mutant;

pub use mutant::Mutation;

use crate::topology::mesh::UnionFind;
use crate::topology::{Board, CellId, Dir, Step, Transport};

/// One of the eight knight jumps: `long` twice with `short` between them.
#[derive(Copy, Clone, Eq, PartialEq, Hash, Debug)]
pub struct KnightWord {
    pub long: Dir,
    pub short: Dir,
}

impl KnightWord {
    pub const ALL: [KnightWord; 8] = [
        KnightWord::new(Dir::N, Dir::E),
        KnightWord::new(Dir::N, Dir::W),
        KnightWord::new(Dir::E, Dir::N),
        KnightWord::new(Dir::E, Dir::S),
        KnightWord::new(Dir::S, Dir::E),
        KnightWord::new(Dir::S, Dir::W),
        KnightWord::new(Dir::W, Dir::N),
        KnightWord::new(Dir::W, Dir::S),
    ];

    pub const fn new(long: Dir, short: Dir) -> KnightWord {
        KnightWord { long, short }
    }

    pub fn index(self) -> usize {
        // ALL lists the long letters N, E, S, W in turn, each with its two
        // short letters, the one toward W or S second: read off directly,
        // since attack detection asks this for every word it traces back.
        debug_assert!(self.long.is_cardinal() && self.short.is_cardinal());
        debug_assert_ne!(
            self.long.cardinal_index() % 2,
            self.short.cardinal_index() % 2
        );
        let i = 2 * self.long.cardinal_index() + usize::from(matches!(self.short, Dir::S | Dir::W));
        debug_assert_eq!(KnightWord::ALL[i], self);
        i
    }

    /// The edge word in order: L, S, L.
    pub fn letters(self) -> [Dir; 3] {
        [self.long, self.short, self.long]
    }
}

/// What the two-order rule says about one diagonal from one cell.
#[derive(Copy, Clone, Eq, PartialEq, Debug)]
pub enum Diagonal {
    /// Both orders agree; this is the step.
    Allowed(Step),
    /// At least one order exists and they disagree (a cone point, or a seam
    /// that only one order crosses).
    Forbidden {
        horizontal_first: Option<Step>,
        vertical_first: Option<Step>,
    },
    /// Neither order exists (the diagonal runs off a boundary).
    Absent,
}

/// A board with its precomputed step tables.
#[derive(Clone, Debug)]
pub struct Geometry {
    board: Board,
    /// `unit[cell][Dir::index()]`.
    unit: Vec<[Option<Step>; 8]>,
    /// `knight[cell][KnightWord::index()]`, `None` where unavailable.
    knight: Vec<[Option<Step>; 8]>,
    forbidden: Vec<(CellId, Dir)>,
}

impl Geometry {
    pub fn new(board: Board) -> Geometry {
        let n = board.cell_count();
        let mut unit = vec![[None; 8]; n];
        let mut knight = vec![[None; 8]; n];
        let mut forbidden = Vec::new();
        for c in board.cells() {
            for d in Dir::ALL {
                unit[c.index()][d.index()] = if d.is_cardinal() {
                    board.step(c, d)
                } else {
                    match diagonal(&board, c, d) {
                        Diagonal::Allowed(s) => Some(s),
                        Diagonal::Forbidden { .. } => {
                            forbidden.push((c, d));
                            None
                        }
                        Diagonal::Absent => None,
                    }
                };
            }
            for w in KnightWord::ALL {
                knight[c.index()][w.index()] = walk(&board, c, &w.letters()).filter(|s| s.to != c);
            }
        }
        Geometry {
            board,
            unit,
            knight,
            forbidden,
        }
    }

    pub fn board(&self) -> &Board {
        &self.board
    }

    /// Every diagonal the two-order rule forbids (GEO-3.1), in cell order.
    pub fn forbidden_diagonals(&self) -> &[(CellId, Dir)] {
        &self.forbidden
    }

    /// One unit step (cardinal, or diagonal allowed by the two-order rule).
    #[inline]
    pub fn step(&self, c: CellId, d: Dir) -> Option<Step> {
        self.unit[c.index()][d.index()]
    }

    /// One knight jump, `None` where a letter of its word meets a boundary or
    /// it would land on its departure cell.
    #[inline]
    pub fn knight(&self, c: CellId, w: KnightWord) -> Option<Step> {
        self.knight[c.index()][w.index()]
    }

    /// The orbit of repeated northward steps through `start`: the board's
    /// "file" in the sense pawns and lances move along it. Returns the cells in
    /// order and whether the orbit closes into a cycle.
    pub fn north_orbit(&self, start: CellId) -> (Vec<CellId>, bool) {
        // Walk south to the beginning of an open path (or around a cycle).
        let mut first = start;
        let mut dir = Dir::S;
        loop {
            match self.board.step(first, dir) {
                Some(s) if s.to != start => {
                    first = s.to;
                    dir = s.transport.apply(dir);
                }
                Some(_) => {
                    // A cycle: start the forward walk at `start` itself.
                    first = start;
                    dir = Dir::S;
                    break;
                }
                None => break,
            }
        }
        let mut cells = vec![first];
        let mut dir = if dir == Dir::S { Dir::N } else { Dir::S };
        let mut here = first;
        loop {
            match self.board.step(here, dir) {
                Some(s) if s.to == first => return (cells, true),
                Some(s) => {
                    here = s.to;
                    dir = s.transport.apply(dir);
                    cells.push(here);
                }
                None => return (cells, false),
            }
        }
    }

    /// All north orbits, each listed once, ordered by their first cell.
    pub fn file_orbits(&self) -> Vec<(Vec<CellId>, bool)> {
        let mut seen = vec![false; self.board.cell_count()];
        let mut out = Vec::new();
        for c in self.board.cells() {
            if seen[c.index()] {
                continue;
            }
            let (cells, closed) = self.north_orbit(c);
            for x in &cells {
                seen[x.index()] = true;
            }
            out.push((cells, closed));
        }
        out
    }

    /// Sizes of the connected components of diagonal moves on the empty
    /// board, largest first.
    pub fn diagonal_components(&self) -> Vec<usize> {
        let mut uf = UnionFind::new(self.board.cell_count());
        for c in self.board.cells() {
            for d in Dir::DIAGONALS {
                if let Some(s) = self.step(c, d) {
                    uf.union(c.index(), s.to.index());
                }
            }
        }
        let mut sizes: Vec<usize> = uf.classes().values().map(Vec::len).collect();
        sizes.sort_unstable_by(|a, b| b.cmp(a));
        sizes
    }
}

/// Follows cardinal letters from `c`, each transported by the crossings
/// before it. `None` as soon as a letter meets a boundary.
pub fn walk(board: &Board, c: CellId, letters: &[Dir]) -> Option<Step> {
    let mut here = Step {
        to: c,
        transport: Transport::IDENTITY,
    };
    for &letter in letters {
        let s = board.step(here.to, here.transport.apply(letter))?;
        here = Step {
            to: s.to,
            transport: here.transport.then(s.transport),
        };
    }
    Some(here)
}

/// Applies the two-order rule to one diagonal from one cell.
pub fn diagonal(board: &Board, c: CellId, d: Dir) -> Diagonal {
    let (h, v) = d.split().expect("diagonal() takes a diagonal direction");
    let horizontal_first = walk(board, c, &[h, v]);
    let vertical_first = walk(board, c, &[v, h]);
    match (horizontal_first, vertical_first) {
        (None, None) => Diagonal::Absent,
        (Some(a), Some(b)) if a == b => Diagonal::Allowed(a),
        _ => Diagonal::Forbidden {
            horizontal_first,
            vertical_first,
        },
    }
}
