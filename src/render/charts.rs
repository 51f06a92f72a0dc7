//! Layout of a square complex: each chart a grid with file and rank labels.
//!
//! Glued sides carry seam arrows in the usual drawing of a surface from a
//! square: the two sides of one gluing share a letter, and their arrows
//! point the same way for a plain wrap and opposite ways for a gluing with
//! reversal (the Möbius and Klein side seams). Boundary sides are thick.
//! Explicit transitions (the genus-two staircase) are drawn on the cell
//! edge they replace, labelled with the cell a step across it reaches.
//! Cone points are dots on every face corner that meets there.
//!
//! Staircase labels name whole cells (`II:f6`), so a board with a
//! staircase gets larger cells, letting the labels be about the size of
//! the file and rank labels without covering the pieces' letters.

use std::collections::{BTreeMap, BTreeSet};

use crate::topology::mesh;
use crate::topology::{Board, Dir, Gluing};

use super::svg::{Anchor, Canvas};
use super::{Icon, Layout, Square, ZoneStyle};

const CELL: f64 = 38.0;
/// The cell size of a board with a staircase.
const STAIR_CELL: f64 = 46.0;
/// The staircase labels' font size (file and rank labels are 11).
pub(super) const STAIR_FONT: f64 = 10.0;
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

/// Lays the board out; `turned` draws it half a turn round, `ghosts`
/// leaves a cell's margin beyond every glued side for the ghost cells
/// (`ghosts.rs`), with the labels and seam arrows beyond it, and
/// `coordinates` labels the files and ranks.
pub(super) fn layout(board: &Board, turned: bool, ghosts: bool, coordinates: bool) -> Layout {
    let (w, h) = (board.width() as f64, board.height() as f64);
    let multi = board.chart_count() > 1;
    let stairs = board
        .cells()
        .any(|c| Dir::CARDINALS.iter().any(|&d| board.is_transition(c, d)));
    let cell = if stairs { STAIR_CELL } else { CELL };
    let (glued_ew, glued_ns) = super::ghosts::margins(board);
    let mx = if ghosts && glued_ew { cell } else { 0.0 };
    let my = if ghosts && glued_ns { cell } else { 0.0 };
    let top = if multi { 40.0 } else { 22.0 } + my;
    let block = LEFT + w * cell + RIGHT + 2.0 * mx;
    let origin = |ci: usize| (ci as f64 * (block + GAP) + LEFT + mx, top);
    let (ew, ns) = board.side_gluing();
    let n = board.chart_count() as f64;
    let (width, height) = (n * block + (n - 1.0) * GAP, top + h * cell + my + BOTTOM);

    let mut cells = BTreeMap::new();
    let mut under = Canvas::turned(width, height, turned);
    let mut over = under.like();
    let mut topc = under.like();
    for c in board.cells() {
        let sq = board.square(c);
        let (ox, oy) = origin(sq.chart as usize);
        let s = Square {
            x: ox + sq.x as f64 * cell,
            y: oy + (h - 1.0 - sq.y as f64) * cell,
            size: cell,
        };
        under.rect(s.x, s.y, cell, cell, "#fbf7ee", "none", 0.0);
        over.rect(s.x, s.y, cell, cell, "none", "#8a8170", 0.7);
        cells.insert(board.cell_name(c).to_string(), s);
    }

    for (ci, name) in board.chart_names().iter().enumerate() {
        let (ox, oy) = origin(ci);
        let (right, bottom) = (ox + w * cell, oy + h * cell);
        if multi {
            over.text_styled(
                (ox + w * cell / 2.0, 14.0),
                12.0,
                Anchor::Middle,
                "#333",
                "font-weight=\"bold\"",
                &format!("sheet {name}"),
            );
        }
        for x in (0..board.width()).filter(|_| coordinates) {
            over.text(
                (ox + (x as f64 + 0.5) * cell, bottom + my + 30.0),
                11.0,
                Anchor::Middle,
                "#444",
                &Board::file_letter(x).to_string(),
            );
        }
        for y in (0..board.height()).filter(|_| coordinates) {
            over.text(
                (ox - mx - 17.0, oy + (h - 1.0 - y as f64 + 0.5) * cell + 4.0),
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
                    (ox - mx - 8.0, bottom - 4.0),
                    (ox - mx - 8.0, oy + 4.0),
                    1,
                    &letter,
                );
                let r = right + mx + 8.0;
                let (a, b) = if ew == Gluing::Translate {
                    ((r, bottom - 4.0), (r, oy + 4.0))
                } else {
                    ((r, oy + 4.0), (r, bottom - 4.0))
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
                    (ox + 4.0, bottom + my + 9.0),
                    (right - 4.0, bottom + my + 9.0),
                    2,
                    &letter,
                );
                let t = oy - my - 9.0;
                let (a, b) = if ns == Gluing::Translate {
                    ((ox + 4.0, t), (right - 4.0, t))
                } else {
                    ((right - 4.0, t), (ox + 4.0, t))
                };
                seam(&mut over, a, b, 2, &letter);
            }
        }
    }

    // Staircase edges, each labelled (over the pieces) with where a step
    // across it lands. A label sits in its cell along the edge; one on a
    // side edge keeps to the corner away from the cell's own north or
    // south label, so two labels of one cell never meet.
    for c in board.cells() {
        let s = cells[board.cell_name(c)];
        let (x, y, z) = (s.x, s.y, cell);
        let side_y = if board.is_transition(c, Dir::N) {
            y + z - 3.0
        } else {
            y + STAIR_FONT + 1.0
        };
        for d in Dir::CARDINALS {
            if !board.is_transition(c, d) {
                continue;
            }
            let (a, b, at, anchor) = match d {
                Dir::N => (
                    (x, y),
                    (x + z, y),
                    (x + z / 2.0, y + STAIR_FONT + 1.0),
                    Anchor::Middle,
                ),
                Dir::S => (
                    (x, y + z),
                    (x + z, y + z),
                    (x + z / 2.0, y + z - 3.0),
                    Anchor::Middle,
                ),
                Dir::E => (
                    (x + z, y),
                    (x + z, y + z),
                    (x + z - 2.5, side_y),
                    Anchor::End,
                ),
                _ => ((x, y), (x, y + z), (x + 2.5, side_y), Anchor::Start),
            };
            over.line(a, b, STAIR, 3.5);
            let label = match board.step(c, d) {
                Some(step) => board.cell_name(step.to),
                None => "boundary",
            };
            topc.text_styled(
                at,
                STAIR_FONT,
                anchor,
                STAIR,
                "font-weight=\"bold\" stroke=\"#ffffff\" stroke-width=\"2.5\" paint-order=\"stroke\"",
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
            let Some((name, corner)) = at.rsplit_once(':') else {
                continue;
            };
            let Some(s) = cells.get(name) else { continue };
            let p = match corner {
                "SW" => (s.x, s.y + cell),
                "SE" => (s.x + cell, s.y + cell),
                "NE" => (s.x + cell, s.y),
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

    Layout {
        cells,
        near: BTreeMap::new(),
        sideways: BTreeSet::new(),
        under,
        over,
        top: topc,
        width,
        height,
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
