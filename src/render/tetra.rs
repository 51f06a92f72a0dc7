//! Layout of the tetrahedral board as its rank slices.
//!
//! The rules source draws every rank as a square-cell board, Black's back
//! rank along the top and White's along one side, the ranks of each side
//! converging on the square middle rank in a corner. Here that reads as an
//! L: the middle rank (5 × 5 on side 9) sits in the top-left corner,
//! Black's ranks run from it to the right along the top with rank 9 at the
//! end, and White's ranks run from it downward along the left side with
//! rank 1 at the bottom. Every slice is drawn the same way round: levels
//! across (level 1 at the left, as the coordinate `e5.3` ends), files down
//! (file a at the top). So rank 9, one file of nine levels, is a strip
//! along the top; rank 1, nine files of one level, a strip down the side;
//! and the slices shrink toward the corner from both arms.
//!
//! Cells are tinted by bishop binding (the parity class a diagonal move
//! keeps), so a bishop's cells can be followed across ranks.

use std::collections::BTreeMap;

use crate::topology::tetra::TetraBoard;

use super::svg::{Anchor, Canvas};
use super::{Icon, Layout, Square, ZoneStyle};

const CELL: f64 = 27.0;
/// Room left of each slice for its file letters.
const LEFT: f64 = 22.0;
/// Room above each slice for its title.
const TITLE: f64 = 22.0;
/// Room below each slice for its level numbers.
const UNDER: f64 = 16.0;
const GAP: f64 = 10.0;
const BOTTOM: f64 = 12.0;

/// The four bindings, by (x, y, z) parity, with their tints.
const BINDINGS: [((u8, u8, u8), &str); 4] = [
    ((0, 0, 0), "#f6efdc"),
    ((1, 1, 0), "#e2f0dc"),
    ((1, 0, 1), "#e6e2f5"),
    ((0, 1, 1), "#f6dfe0"),
];

fn tint(parity: (u8, u8, u8)) -> &'static str {
    BINDINGS
        .iter()
        .find(|(p, _)| *p == parity)
        .map_or("#ffffff", |(_, t)| *t)
}

/// The top-left corner of each rank's grid, by rank index z (rank z + 1):
/// the middle rank in the corner, higher ranks to its right, lower ranks
/// below it.
fn origins(side: usize) -> Vec<(f64, f64)> {
    let mid = (side - 1) / 2;
    let levels = |z: usize| (z + 1) as f64 * CELL;
    let files = |z: usize| (side - z) as f64 * CELL;
    let mut at = vec![(0.0, 0.0); side];
    at[mid] = (LEFT, TITLE);
    for z in mid + 1..side {
        let (x, y) = at[z - 1];
        at[z] = (x + levels(z - 1) + GAP + LEFT, y);
    }
    for z in (0..mid).rev() {
        let (x, y) = at[z + 1];
        at[z] = (x, y + files(z + 1) + UNDER + GAP + TITLE);
    }
    at
}

pub(super) fn layout(board: &TetraBoard) -> Layout {
    let side = board.side() as usize;
    let at = origins(side);
    let width = (0..side)
        .map(|z| at[z].0 + (z + 1) as f64 * CELL)
        .fold(0.0, f64::max);
    let height = (0..side)
        .map(|z| at[z].1 + (side - z) as f64 * CELL + UNDER)
        .fold(0.0, f64::max);

    let mut cells = BTreeMap::new();
    let mut under = Canvas::default();
    let mut over = Canvas::default();
    for c in board.cells() {
        let z = board.rank(c) as usize;
        let (file, level) = board.in_rank(c);
        let (ox, oy) = at[z];
        let s = Square {
            x: ox + level as f64 * CELL,
            y: oy + file as f64 * CELL,
            size: CELL,
        };
        under.rect(s.x, s.y, CELL, CELL, tint(board.binding(c)), "none", 0.0);
        over.rect(s.x, s.y, CELL, CELL, "none", "#8a8170", 0.7);
        cells.insert(board.cell_name(c).to_string(), s);
    }
    for (z, &(ox, oy)) in at.iter().enumerate() {
        let files = side - z;
        let levels = z + 1;
        let right = ox + levels as f64 * CELL;
        let bottom = oy + files as f64 * CELL;
        over.rect(ox, oy, right - ox, bottom - oy, "none", "#333", 1.6);
        over.text_styled(
            (ox, oy - 7.0),
            11.0,
            Anchor::Start,
            "#333",
            "font-weight=\"bold\"",
            &format!("rank {}", z + 1),
        );
        for f in 0..files {
            over.text(
                (ox - 4.0, oy + (f as f64 + 0.5) * CELL + 3.5),
                10.0,
                Anchor::End,
                "#444",
                &((b'a' + f as u8) as char).to_string(),
            );
        }
        for l in 0..levels {
            over.text(
                (ox + (l as f64 + 0.5) * CELL, bottom + 11.0),
                8.5,
                Anchor::Middle,
                "#777",
                &(l + 1).to_string(),
            );
        }
    }
    let legend = BINDINGS
        .iter()
        .map(|((x, y, z), t)| {
            (
                Icon::Swatch(t),
                format!("bishop binding: x, y, z parities {x}{y}{z}"),
            )
        })
        .chain(std::iter::once((
            Icon::Note,
            format!(
                "rank 1 is the first player's back rank, rank {side} the second's; each moves forward toward the other's"
            ),
        )))
        .chain(std::iter::once((
            Icon::Note,
            format!(
                "rank r has {} − r files (letters, down) by r levels (small numbers, across)",
                side + 1
            ),
        )))
        .collect();
    Layout {
        cells,
        under,
        over,
        top: Canvas::default(),
        width,
        height: height + BOTTOM,
        zones: ZoneStyle::Frame,
        legend,
    }
}
