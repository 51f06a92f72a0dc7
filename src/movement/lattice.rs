//! The movement language on the tetrahedral board (MV-7): the board is one
//! region of a lattice with no seams, so a direction is a vector, a
//! piece's frame is its owner's (TS-1.4), and a leap lands where its
//! displacement points whether or not the cells between exist.
//!
//! The atoms are `W` (the twelve orthogonals), `F` (the six diagonals) and
//! what is made of them (`K R B Q`, the long leapers `D A H G` as
//! multiples of one vector, and two-stage moves). The knight's edge word
//! has no meaning here. Direction letters read a direction's name
//! (`FRU`: forward, right, up; TS-1.2) as its components.

use crate::topology::tetra::TDir;

use super::lang::{Atom, Body, Components, Leg, Mode, Movement, MovementError, chosen};

/// One move of a compiled movement, in the owner's frame.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Move {
    /// Up to `limit` steps along `dir` (`None`: any number) over empty
    /// cells, the last one landing.
    Ride {
        dir: TDir,
        limit: Option<u8>,
        mode: Mode,
    },
    /// Straight to the cell `vector` away. `via`: the first stage of a
    /// lame two-stage move, whose cell must exist and be empty.
    Leap {
        vector: (i8, i8, i8),
        via: Option<TDir>,
        mode: Mode,
    },
}

/// A movement compiled for the tetrahedron: its moves in the owner's
/// frame, in text order without repeats.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Compiled {
    pub text: String,
    pub moves: Vec<Move>,
}

/// A direction's components, read from its name.
pub fn components(d: TDir) -> Components {
    let name = d.name();
    let has = |c: char| name.contains(c);
    let sign = |p: char, n: char| i8::from(has(p)) - i8::from(has(n));
    Components {
        forward: sign('F', 'B'),
        right: sign('R', 'L'),
        up: sign('U', 'D'),
        long: None,
    }
}

fn atom_dirs(atom: Atom) -> Vec<TDir> {
    match atom {
        Atom::W | Atom::D | Atom::H => TDir::orthogonals().collect(),
        Atom::F | Atom::A | Atom::G => TDir::diagonals().collect(),
        Atom::N | Atom::K | Atom::R | Atom::B | Atom::Q => Vec::new(),
    }
}

fn scaled((x, y, z): (i8, i8, i8), k: i8) -> (i8, i8, i8) {
    (x * k, y * k, z * k)
}

fn leg_dirs(leg: &Leg) -> Vec<TDir> {
    atom_dirs(leg.atom)
        .into_iter()
        .filter(|&d| chosen(&leg.dirs, components(d)))
        .collect()
}

/// Compiles a movement for the tetrahedral board named `board` (for
/// errors).
pub fn compile(m: &Movement, board: &str) -> Result<Compiled, MovementError> {
    let mut moves: Vec<Move> = Vec::new();
    for (i, term) in m.terms.iter().enumerate() {
        let mut own = Vec::new();
        match &term.body {
            Body::Ride {
                dirs,
                atom,
                atom_at,
                range,
            } => {
                for &simple in atom.parts() {
                    if simple == Atom::N {
                        return Err(MovementError::Unsupported {
                            at: *atom_at,
                            atom: 'N',
                            board: board.to_string(),
                            why: "a knight is an edge word of square charts; the tetrahedron has none",
                        });
                    }
                    for d in atom_dirs(simple) {
                        if !chosen(dirs, components(d)) {
                            continue;
                        }
                        own.push(match simple {
                            Atom::W | Atom::F => Move::Ride {
                                dir: d,
                                limit: range.limit(),
                                mode: term.mode,
                            },
                            // D A H G: a jump by a multiple of one vector;
                            // a count or a doubling has nothing to ride.
                            _ => Move::Leap {
                                vector: scaled(
                                    d.vector(),
                                    if matches!(simple, Atom::D | Atom::A) {
                                        2
                                    } else {
                                        3
                                    },
                                ),
                                via: None,
                                mode: term.mode,
                            },
                        });
                    }
                }
            }
            Body::Chain {
                lame,
                first,
                second,
            } => {
                for a in leg_dirs(first) {
                    for b in leg_dirs(second) {
                        let (ax, ay, az) = a.vector();
                        let (bx, by, bz) = b.vector();
                        let vector = (ax + bx, ay + by, az + bz);
                        if vector == (0, 0, 0) {
                            continue;
                        }
                        own.push(Move::Leap {
                            vector,
                            via: lame.then_some(a),
                            mode: term.mode,
                        });
                    }
                }
            }
        }
        if own.is_empty() {
            return Err(MovementError::NoDirection {
                at: term.at,
                term: term.text(m, m.terms.get(i + 1)),
            });
        }
        for mv in own {
            if !moves.contains(&mv) {
                moves.push(mv);
            }
        }
    }
    Ok(Compiled {
        text: m.text.clone(),
        moves,
    })
}

/// Reads and compiles a movement text for the tetrahedron.
pub fn compile_text(text: &str, board: &str) -> Result<Compiled, MovementError> {
    compile(&super::lang::parse(text)?, board)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The directions a movement's single steps and rides take, by name.
    fn check(text: &str, expect: &str) {
        let got = match compile_text(text, "tetra9") {
            Ok(c) => c
                .moves
                .iter()
                .map(|m| match m {
                    Move::Ride { dir, limit, .. } => match limit {
                        Some(1) => dir.name().to_string(),
                        Some(n) => format!("{}{n}", dir.name()),
                        None => format!("{}*", dir.name()),
                    },
                    Move::Leap { vector, via, .. } => {
                        format!("{vector:?}{}", if via.is_some() { "n" } else { "" })
                    }
                })
                .collect::<Vec<_>>()
                .join(" "),
            Err(e) => format!("error: {e}"),
        };
        assert_eq!(got, expect, "{text}");
    }

    #[test]
    fn the_tetrahedral_pieces_read_as_the_rules_list_them() {
        // TS-2.9 point, TS-2.8 wing, TS-2.6 gold, TS-2.7 silver.
        check("fW", "FRU FRD FLU FLD");
        check("fR", "FRU* FRD* FLU* FLD*");
        check("WfF", "R L U D FRU FRD FLU FLD BRU BRD BLU BLD F");
        check("FfW", "RU RD LU LD F B FRU FRD FLU FLD");
        // TH-2.3 dexter and sinister, TH-2.4 chief and base.
        check("rslW", "R L FRU FRD BRU BRD");
        check("lsrW", "R L FLU FLD BLU BLD");
        check("usdW", "U D FRU FLU BRU BLU");
        check("dsuW", "U D FRD FLD BRD BLD");
        // TH-2.5 wazirranker.
        check("vW", "FRU FRD FLU FLD BRU BRD BLU BLD");
        // TS-2.10 saltire.
        check("[fF-sW]", "(1, 1, 2) (-1, -1, 2) (1, -1, 2) (-1, 1, 2)");
        check(
            "n[fF-sW]",
            "(1, 1, 2)n (-1, -1, 2)n (1, -1, 2)n (-1, 1, 2)n",
        );
        check(
            "N",
            "error: at character 1 ('N'): the board tetra9 does not define the atom N (a knight is an edge word of square charts; the tetrahedron has none): expected an atom it defines",
        );
        check("sF", "RU RD LU LD");
        check("vF", "F B");
        check("suF", "RU LU");
        check(
            "ffR",
            "error: at character 1 ('f'): a doubled direction letter picks an oblique atom's long leg, and R has none (only N does): expected one direction letter before R",
        );
    }
}
