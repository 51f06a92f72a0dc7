//! Deliberately wrong geometries, for checking that the corpus catches
//! mistakes (mutation testing of the conformance suite).
//!
//! [`Geometry::new_mutated`] builds the normal step tables with
//! [`Geometry::new`] and then replaces exactly one rule, so the normal path
//! stays untouched. The board itself (and so every mesh invariant) is not
//! changed: a mutant breaks how pieces move, not the surface.

use super::{Diagonal, Geometry, KnightWord, diagonal, walk};
use crate::topology::{Board, Dir, Step, Transport};

/// One wrong rule.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Mutation {
    /// A rank-reversing seam transports by the identity: crossing a Möbius
    /// or Klein side seam no longer reverses later directions or facing.
    SeamKeepsFacing,
    /// Where the two orders of a diagonal disagree, the diagonal is allowed
    /// and takes the horizontal-first route (instead of being forbidden).
    ConeDiagonals,
    /// Knights follow the word L,L,S instead of L,S,L.
    KnightLls,
}

impl Mutation {
    pub const ALL: [Mutation; 3] = [
        Mutation::SeamKeepsFacing,
        Mutation::ConeDiagonals,
        Mutation::KnightLls,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Mutation::SeamKeepsFacing => "seam-keeps-facing",
            Mutation::ConeDiagonals => "cone-diagonals",
            Mutation::KnightLls => "knight-lls",
        }
    }

    pub fn description(self) -> &'static str {
        match self {
            Mutation::SeamKeepsFacing => {
                "a rank-reversing seam transports by the identity (facing is kept)"
            }
            Mutation::ConeDiagonals => {
                "the two-order rule takes the horizontal-first route when the orders disagree"
            }
            Mutation::KnightLls => "knights use the word L,L,S instead of L,S,L",
        }
    }
}

/// Drops the vertical flip from every cardinal step's transport.
fn without_flip_v(s: Step) -> Step {
    Step {
        to: s.to,
        transport: Transport {
            flip_x: s.transport.flip_x,
            flip_y: false,
        },
    }
}

impl Geometry {
    /// A geometry with one rule replaced by a wrong one.
    pub fn new_mutated(board: Board, mutation: Mutation) -> Geometry {
        let mut g = Geometry::new(board);
        match mutation {
            Mutation::SeamKeepsFacing => g.seam_keeps_facing(),
            Mutation::ConeDiagonals => {
                let forbidden = std::mem::take(&mut g.forbidden);
                for (c, d) in forbidden {
                    match diagonal(&g.board, c, d) {
                        Diagonal::Forbidden {
                            horizontal_first: Some(s),
                            ..
                        } => g.unit[c.index()][d.index()] = Some(s),
                        _ => g.forbidden.push((c, d)),
                    }
                }
            }
            Mutation::KnightLls => {
                for c in g.board.cells() {
                    for w in KnightWord::ALL {
                        g.knight[c.index()][w.index()] =
                            walk(&g.board, c, &[w.long, w.long, w.short]).filter(|s| s.to != c);
                    }
                }
            }
        }
        g
    }

    /// Rebuilds the unit and knight tables as if every seam's transport
    /// had no vertical flip. Crossing cells are unchanged.
    fn seam_keeps_facing(&mut self) {
        let b = &self.board;
        let step = |c, d: Dir| b.step(c, d).map(without_flip_v);
        let walk_flat = |c, letters: &[Dir]| -> Option<Step> {
            let mut here = Step {
                to: c,
                transport: Transport::IDENTITY,
            };
            for &l in letters {
                let s = step(here.to, here.transport.apply(l))?;
                here = Step {
                    to: s.to,
                    transport: here.transport.then(s.transport),
                };
            }
            Some(here)
        };
        let mut forbidden = Vec::new();
        for c in b.cells() {
            for d in Dir::ALL {
                self.unit[c.index()][d.index()] = if d.is_cardinal() {
                    step(c, d)
                } else {
                    let (h, v) = d.split().expect("a diagonal splits");
                    match (walk_flat(c, &[h, v]), walk_flat(c, &[v, h])) {
                        (None, None) => None,
                        (Some(x), Some(y)) if x == y => Some(x),
                        _ => {
                            forbidden.push((c, d));
                            None
                        }
                    }
                };
            }
            for w in KnightWord::ALL {
                self.knight[c.index()][w.index()] =
                    walk_flat(c, &w.letters()).filter(|s| s.to != c);
            }
        }
        self.forbidden = forbidden;
    }
}
