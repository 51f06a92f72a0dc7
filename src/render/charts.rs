//! Layout of a square complex: each chart a grid with file and rank labels.
//!
//! Glued sides carry seam arrows in the usual drawing of a surface from a
//! square: the two sides of one gluing share a letter, and their arrows
//! point the same way for a plain wrap and opposite ways for a gluing with
//! reversal (the Möbius and Klein side seams). Boundary sides are thick.
//! Explicit transitions (the genus-two staircase) are drawn on the cell
//! edge they replace, labelled with the cell a step across it reaches.
//! Cone points are dots on every face corner that meets there.

use std::collections::{BTreeMap, BTreeSet};

use crate::topology::mesh;
use crate::topology::{Board, Dir, Gluing};

use super::svg::{Anchor, Canvas};
use super::{Icon, Layout, Square, ZoneStyle};

const CELL: f64 = 38.0;
const LEFT: f64 = 38.0;
const RIGHT: f64 = 22.0;
const BOTTOM: f64 = 36.0;
const GAP: f64 = 18.0;
const SEAM: &str = "#6a1b9a";
const STAIR: &str = "#d35400";

/// Seam letters: chart `ci` uses one letter for its east–west gluing and
/// the next for north–south, so every glued pair has its own letter.
fn seam_letter(ci: usize, north_south: bool) -> String {
    let k = 2 * ci + usize::from(north_south);
    ((b'a' + (k % 26) as u8) as char).to_string()
}

pub(super) fn layout(board: &Board) -> Layout {
    let (w, h) = (board.width() as f64, board.height() as f64);
    let multi = board.chart_count() > 1;
    let top = if multi { 40.0 } else { 22.0 };
    let block = LEFT + w * CELL + RIGHT;
    let origin = |ci: usize| (ci as f64 * (block + GAP) + LEFT, top);
    let (ew, ns) = board.side_gluing();

    let mut cells = BTreeMap::new();
    let mut under = Canvas::default();
    let mut over = Canvas::default();
    let mut topc = Canvas::default();
    for c in board.cells() {
        let sq = board.square(c);
        let (ox, oy) = origin(sq.chart as usize);
        let s = Square {
            x: ox + sq.x as f64 * CELL,
            y: oy + (h - 1.0 - sq.y as f64) * CELL,
            size: CELL,
        };
        under.rect(s.x, s.y, CELL, CELL, "#fbf7ee", "none", 0.0);
        over.rect(s.x, s.y, CELL, CELL, "none", "#8a8170", 0.7);
        cells.insert(board.cell_name(c).to_string(), s);
    }

    for (ci, name) in board.chart_names().iter().enumerate() {
        let (ox, oy) = origin(ci);
        let (right, bottom) = (ox + w * CELL, oy + h * CELL);
        if multi {
            over.text_styled(
                (ox + w * CELL / 2.0, 14.0),
                12.0,
                Anchor::Middle,
                "#333",
                "font-weight=\"bold\"",
                &format!("sheet {name}"),
            );
        }
        for x in 0..board.width() {
            over.text(
                (ox + (x as f64 + 0.5) * CELL, bottom + 30.0),
                11.0,
                Anchor::Middle,
                "#444",
                &Board::file_letter(x).to_string(),
            );
        }
        for y in 0..board.height() {
            over.text(
                (ox - 17.0, oy + (h - 1.0 - y as f64 + 0.5) * CELL + 4.0),
                11.0,
                Anchor::End,
                "#444",
                &(y as u32 + 1).to_string(),
            );
        }
        // East–west sides: arrows run north along the west side; the east
        // side's arrow runs north too for a wrap, south for a reversal.
        match ew {
            Gluing::Boundary => {
                over.line((ox, oy), (ox, bottom), "#000", 3.0);
                over.line((right, oy), (right, bottom), "#000", 3.0);
            }
            Gluing::Translate | Gluing::TranslateReversed => {
                let letter = seam_letter(ci, false);
                seam(
                    &mut over,
                    (ox - 8.0, bottom - 4.0),
                    (ox - 8.0, oy + 4.0),
                    1,
                    &letter,
                );
                let (a, b) = if ew == Gluing::Translate {
                    ((right + 8.0, bottom - 4.0), (right + 8.0, oy + 4.0))
                } else {
                    ((right + 8.0, oy + 4.0), (right + 8.0, bottom - 4.0))
                };
                seam(&mut over, a, b, 1, &letter);
            }
        }
        // North–south sides: arrows run east along the south side.
        match ns {
            Gluing::Boundary => {
                over.line((ox, oy), (right, oy), "#000", 3.0);
                over.line((ox, bottom), (right, bottom), "#000", 3.0);
            }
            Gluing::Translate | Gluing::TranslateReversed => {
                let letter = seam_letter(ci, true);
                seam(
                    &mut over,
                    (ox + 4.0, bottom + 9.0),
                    (right - 4.0, bottom + 9.0),
                    2,
                    &letter,
                );
                let (a, b) = if ns == Gluing::Translate {
                    ((ox + 4.0, oy - 9.0), (right - 4.0, oy - 9.0))
                } else {
                    ((right - 4.0, oy - 9.0), (ox + 4.0, oy - 9.0))
                };
                seam(&mut over, a, b, 2, &letter);
            }
        }
    }

    // Staircase edges, each labelled (over the pieces) with where a step
    // across it lands.
    let mut stairs = false;
    for c in board.cells() {
        let s = cells[board.cell_name(c)];
        for d in Dir::CARDINALS {
            if !board.is_transition(c, d) {
                continue;
            }
            stairs = true;
            let (x, y, z) = (s.x, s.y, CELL);
            let (a, b, at, anchor) = match d {
                Dir::N => ((x, y), (x + z, y), (x + z / 2.0, y + 8.0), Anchor::Middle),
                Dir::S => (
                    (x, y + z),
                    (x + z, y + z),
                    (x + z / 2.0, y + z - 2.5),
                    Anchor::Middle,
                ),
                Dir::E => (
                    (x + z, y),
                    (x + z, y + z),
                    (x + z - 2.0, y + z / 2.0 + 3.0),
                    Anchor::End,
                ),
                _ => (
                    (x, y),
                    (x, y + z),
                    (x + 2.0, y + z / 2.0 + 3.0),
                    Anchor::Start,
                ),
            };
            over.line(a, b, STAIR, 3.5);
            let label = match board.step(c, d) {
                Some(step) => board.cell_name(step.to),
                None => "boundary",
            };
            topc.text_styled(
                at,
                7.0,
                anchor,
                STAIR,
                "stroke=\"#ffffff\" stroke-width=\"2\" paint-order=\"stroke\"",
                label,
            );
        }
    }

    // Cone points: every face corner of each cone vertex.
    let inv = mesh::invariants(board);
    let mut cone_sizes = BTreeSet::new();
    for cone in &inv.cones {
        cone_sizes.insert(cone.corners);
        for at in &cone.at {
            let Some((cell, corner)) = at.rsplit_once(':') else {
                continue;
            };
            let Some(s) = cells.get(cell) else { continue };
            let p = match corner {
                "SW" => (s.x, s.y + CELL),
                "SE" => (s.x + CELL, s.y + CELL),
                "NE" => (s.x + CELL, s.y),
                _ => (s.x, s.y),
            };
            topc.circle(p, 4.5, "#c0392b", "#ffffff", 1.2);
        }
    }

    let mut legend = Vec::new();
    let glued = [ew, ns].iter().any(|g| *g != Gluing::Boundary);
    if glued {
        let reversed = [ew, ns].contains(&Gluing::TranslateReversed);
        legend.push((
            Icon::Seam(false),
            "glued sides: arrows with the same letter are one seam, matched arrow to arrow"
                .to_string(),
        ));
        if reversed {
            legend.push((
                Icon::Seam(true),
                "opposing arrows: the seam glues with reversal (a piece's facing flips across it)"
                    .to_string(),
            ));
        }
    }
    if [ew, ns].contains(&Gluing::Boundary) {
        legend.push((Icon::Boundary, "boundary: the board ends here".to_string()));
    }
    if stairs {
        legend.push((
            Icon::Staircase,
            "staircase edge: a step across it lands on the named cell".to_string(),
        ));
    }
    for k in cone_sizes {
        legend.push((
            Icon::Cone,
            format!("cone point: {k} square corners meet here (flat is 4)"),
        ));
    }

    let n = board.chart_count() as f64;
    Layout {
        cells,
        under,
        over,
        top: topc,
        width: n * block + (n - 1.0) * GAP,
        height: top + h * CELL + BOTTOM,
        zones: ZoneStyle::Fill,
        legend,
    }
}

/// One side's seam arrow with its letter in a small disc at the middle.
fn seam(c: &mut Canvas, a: (f64, f64), b: (f64, f64), heads: usize, letter: &str) {
    c.arrow(a, b, heads, SEAM);
    let mid = ((a.0 + b.0) / 2.0, (a.1 + b.1) / 2.0);
    c.circle(mid, 6.5, "#ffffff", SEAM, 1.0);
    c.text_styled(
        (mid.0, mid.1 + 3.5),
        9.5,
        Anchor::Middle,
        SEAM,
        "font-weight=\"bold\"",
        letter,
    );
}
