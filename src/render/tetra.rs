//! Layout of the tetrahedral board as its rank slices, stacked.
//!
//! Rank r is a rectangle of `side + 1 − r` files by `r` levels. Every slice
//! is drawn the same way round, as the first player sees it: files across
//! (file a at the left), levels up (level 1 at the bottom), so that the
//! in-rank directions *right* and *up* point right and up. Rank 1, the
//! first player's back rank, is then a row along the bottom.
//!
//! The slices stack as the ranks do, in an L (the rules source draws its
//! ranks converging on the square middle rank in a corner too): from rank 1
//! upward to the middle rank, each slice one file narrower and centred over
//! the one before, then from the middle rank rightward to the last rank,
//! each slice one level taller and centred beside the one before. Centring
//! puts every cell half a cell from the cells it touches on the next rank,
//! along the axis the slice shrinks on, and thin lines join each slice's
//! corners to the next slice's, so the stack reads as one solid. Both arms
//! are short (each slice is thin along its arm), which keeps the picture
//! compact at a cell size large enough to read every piece.
//!
//! Cells are tinted by bishop binding (the parity class a diagonal move
//! keeps), so a bishop's cells can be followed across ranks. Each cell's
//! neighbours on the ranks before and after it are listed for the cell's
//! `data-near` attribute, from the board's own steps.

use std::collections::BTreeMap;

use crate::topology::tetra::{TDir, TetraBoard};

use super::svg::{Anchor, Canvas};
use super::{Icon, Layout, Square, ZoneStyle};

/// The cell size: the same on every rank, and large enough for a piece's
/// letter to read (see [`super::MIN_CELL`]).
const CELL: f64 = super::MIN_CELL;
/// Room between two slices of the upward arm, for the upper slice's file
/// letters.
const VGAP: f64 = 24.0;
/// Room between two slices of the rightward arm, for the right slice's
/// level numbers.
const HGAP: f64 = 28.0;
/// Room left of the widest slice for its level numbers and rank title.
const TITLE_ROOM: f64 = 70.0;
/// Room above the rightward arm for the rank titles.
const TITLE_ABOVE: f64 = 20.0;
/// Room below the lowest slice for its file letters.
const UNDER: f64 = 18.0;
const RIGHT: f64 = 8.0;
/// The lines joining one slice to the next.
pub(super) const BRIDGE: &str = "#a39a88";

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

/// One rank's slice: its rectangle, and whether it stacks upward (the arm
/// up to the middle rank) or rightward.
#[derive(Copy, Clone, Debug)]
struct Slice {
    left: f64,
    top: f64,
    files: usize,
    levels: usize,
    upward: bool,
}

impl Slice {
    fn right(self) -> f64 {
        self.left + self.files as f64 * CELL
    }
    fn bottom(self) -> f64 {
        self.top + self.levels as f64 * CELL
    }
}

/// Every rank's slice, by rank index z (rank z + 1), in coordinates whose
/// origin is the picture's top-left corner.
fn slices(side: usize) -> Vec<Slice> {
    let mid = (side - 1) / 2;
    let files = |z: usize| side - z;
    let levels = |z: usize| z + 1;
    let mut out: Vec<Slice> = Vec::with_capacity(side);
    // The upward arm, with rank 1's bottom at y = 0 and every slice
    // centred on x = 0.
    let mut bottom = 0.0;
    for z in 0..=mid {
        let (w, h) = (files(z) as f64 * CELL, levels(z) as f64 * CELL);
        out.push(Slice {
            left: -w / 2.0,
            top: bottom - h,
            files: files(z),
            levels: levels(z),
            upward: true,
        });
        bottom -= h + VGAP;
    }
    // The rightward arm, centred on the middle rank's middle.
    let centre = out[mid].top + levels(mid) as f64 * CELL / 2.0;
    for z in mid + 1..side {
        let h = levels(z) as f64 * CELL;
        let left = out[z - 1].right() + HGAP;
        out.push(Slice {
            left,
            top: centre - h / 2.0,
            files: files(z),
            levels: levels(z),
            upward: false,
        });
    }
    let min_x = out.iter().map(|s| s.left).fold(f64::MAX, f64::min) - TITLE_ROOM;
    let min_y = out
        .iter()
        .map(|s| s.top - if s.upward { 0.0 } else { TITLE_ABOVE })
        .fold(f64::MAX, f64::min)
        - 4.0;
    for s in &mut out {
        s.left -= min_x;
        s.top -= min_y;
    }
    out
}

/// Each cell's neighbours on the ranks before and after it: the cells one
/// orthogonal step away that change rank.
fn near(board: &TetraBoard) -> BTreeMap<String, Vec<String>> {
    board
        .cells()
        .map(|c| {
            let cells = TDir::orthogonals()
                .filter(|d| d.rank_change().abs() == 1)
                .filter_map(|d| board.step(c, d))
                .map(|n| board.cell_name(n).to_string())
                .collect();
            (board.cell_name(c).to_string(), cells)
        })
        .collect()
}

/// Lays the board out; `turned` draws it half a turn round. `names` are
/// the first and second players' names, for the legend.
/// `coordinates` labels each slice's files and levels.
pub(super) fn layout(
    board: &TetraBoard,
    names: [&str; 2],
    turned: bool,
    coordinates: bool,
) -> Layout {
    let side = board.side() as usize;
    let at = slices(side);
    let width = at.iter().map(|s| s.right()).fold(0.0, f64::max) + RIGHT;
    let height = at.iter().map(|s| s.bottom()).fold(0.0, f64::max) + UNDER;

    let mut cells = BTreeMap::new();
    let mut sideways = std::collections::BTreeSet::new();
    let mut under = Canvas::turned(width, height, turned);
    let mut over = under.like();
    for c in board.cells() {
        let s = at[board.rank(c) as usize];
        if !s.upward {
            sideways.insert(board.cell_name(c).to_string());
        }
        let (file, level) = board.in_rank(c);
        let sq = Square {
            x: s.left + file as f64 * CELL,
            y: s.bottom() - (level as f64 + 1.0) * CELL,
            size: CELL,
        };
        under.rect(sq.x, sq.y, CELL, CELL, tint(board.binding(c)), "none", 0.0);
        over.rect(sq.x, sq.y, CELL, CELL, "none", "#8a8170", 0.7);
        cells.insert(board.cell_name(c).to_string(), sq);
    }
    // Each slice joined to the next along the sides where they face.
    for pair in at.windows(2) {
        let (a, b) = (pair[0], pair[1]);
        if b.upward {
            under.line((a.left, a.top), (b.left, b.bottom()), BRIDGE, 1.0);
            under.line((a.right(), a.top), (b.right(), b.bottom()), BRIDGE, 1.0);
        } else {
            under.line((a.right(), a.top), (b.left, b.top), BRIDGE, 1.0);
            under.line((a.right(), a.bottom()), (b.left, b.bottom()), BRIDGE, 1.0);
        }
    }
    for (z, s) in at.iter().enumerate() {
        over.rect(
            s.left,
            s.top,
            s.right() - s.left,
            s.bottom() - s.top,
            "none",
            "#333",
            1.6,
        );
        let title = format!("rank {}", z + 1);
        let bold = "font-weight=\"bold\"";
        if s.upward {
            over.text_styled(
                (s.left - 18.0, (s.top + s.bottom()) / 2.0 + 4.0),
                11.0,
                Anchor::End,
                "#333",
                bold,
                &title,
            );
        } else {
            over.text_styled(
                ((s.left + s.right()) / 2.0, s.top - 6.0),
                11.0,
                Anchor::Middle,
                "#333",
                bold,
                &title,
            );
        }
        for f in (0..s.files).filter(|_| coordinates) {
            over.text(
                (s.left + (f as f64 + 0.5) * CELL, s.bottom() + 13.0),
                10.0,
                Anchor::Middle,
                "#444",
                &((b'a' + f as u8) as char).to_string(),
            );
        }
        for l in (0..s.levels).filter(|_| coordinates) {
            over.text(
                (s.left - 5.0, s.bottom() - (l as f64 + 0.5) * CELL + 3.5),
                9.0,
                Anchor::End,
                "#777",
                &(l + 1).to_string(),
            );
        }
    }
    // The middle rank's number, where the stack turns.
    let mid = (side - 1) / 2 + 1;
    // Said as the picture shows it: half a turn round, up is down.
    let (up, right) = if turned {
        ("down", "left")
    } else {
        ("up", "right")
    };
    let legend = BINDINGS
        .iter()
        .map(|((x, y, z), t)| {
            (
                Icon::Swatch(t),
                format!("bishop binding: x, y, z parities {x}{y}{z}"),
            )
        })
        .chain([
            (
                Icon::Bridge,
                format!(
                    "ranks stack {up} from rank 1 ({}'s back rank) to rank {mid}, then {right} to rank {side} ({}'s)",
                    names[0], names[1]
                ),
            ),
            (
                Icon::Note,
                format!(
                    "rank r: {} − r files (letters, across) by r levels (numbers, {up}); each player moves toward the other's back rank",
                    side + 1
                ),
            ),
            (
                Icon::Note,
                "a cell at file f, level l touches the next rank at files f−1 and f, levels l and l+1,"
                    .to_string(),
            ),
            (
                Icon::Note,
                "and the rank before at files f and f+1, levels l−1 and l"
                    .to_string(),
            ),
        ])
        .collect();
    Layout {
        cells,
        near: near(board),
        sideways,
        under,
        over,
        top: Canvas::turned(width, height, turned),
        width,
        height,
        zones: ZoneStyle::Frame,
        legend,
    }
}
