//! Layout of the tetrahedral board as its rank slices.
//!
//! Rank r (the slice z = r − 1) is a small grid of files by levels, files
//! from White's left and level 1 at the bottom, as the coordinates `e5.3`
//! read. The slices stand side by side from White's back rank to Black's,
//! bottoms aligned. Cells are tinted by bishop binding (the parity class a
//! diagonal move keeps), so a bishop's cells can be followed across ranks.

use std::collections::BTreeMap;

use crate::topology::tetra::TetraBoard;

use super::svg::{Anchor, Canvas};
use super::{Icon, Layout, Square, ZoneStyle};

const CELL: f64 = 27.0;
const LEFT: f64 = 16.0;
const GAP: f64 = 12.0;
const TOP: f64 = 24.0;
const BOTTOM: f64 = 24.0;

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

pub(super) fn layout(board: &TetraBoard) -> Layout {
    let side = board.side() as usize;
    let base = TOP + side as f64 * CELL;
    // Left edge of each rank's grid.
    let mut left = Vec::with_capacity(side);
    let mut x = LEFT;
    for z in 0..side {
        left.push(x);
        x += (side - z) as f64 * CELL + GAP + LEFT;
    }
    let width = x - GAP - LEFT;

    let mut cells = BTreeMap::new();
    let mut under = Canvas::default();
    let mut over = Canvas::default();
    for c in board.cells() {
        let z = board.rank(c) as usize;
        let (file, level) = board.in_rank(c);
        let s = Square {
            x: left[z] + file as f64 * CELL,
            y: base - (level as f64 + 1.0) * CELL,
            size: CELL,
        };
        under.rect(s.x, s.y, CELL, CELL, tint(board.binding(c)), "none", 0.0);
        over.rect(s.x, s.y, CELL, CELL, "none", "#8a8170", 0.7);
        cells.insert(board.cell_name(c), s);
    }
    for (z, &ox) in left.iter().enumerate() {
        let files = side - z;
        let levels = z + 1;
        let right = ox + files as f64 * CELL;
        let top = base - levels as f64 * CELL;
        over.rect(ox, top, right - ox, base - top, "none", "#333", 1.6);
        over.text_styled(
            ((ox + right) / 2.0, top - 7.0),
            11.0,
            Anchor::Middle,
            "#333",
            "font-weight=\"bold\"",
            &format!("rank {}", z + 1),
        );
        for f in 0..files {
            over.text(
                (ox + (f as f64 + 0.5) * CELL, base + 14.0),
                10.0,
                Anchor::Middle,
                "#444",
                &((b'a' + f as u8) as char).to_string(),
            );
        }
        for l in 0..levels {
            over.text(
                (ox - 3.0, base - (l as f64 + 0.5) * CELL + 3.5),
                8.5,
                Anchor::End,
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
                "rank r has {} − r files (letters) by r levels (small numbers, 1 at the bottom)",
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
        height: base + BOTTOM,
        zones: ZoneStyle::Frame,
        legend,
    }
}
