//! What is drawn on the cells a layout placed: promotion zones, pieces
//! (with their facing triangles, display arrows and other faces) and
//! action marks. Apart from the layouts so that every board shows pieces
//! and marks alike, and from the legend, which only borrows their colours
//! and triangles for its icons.

use std::collections::BTreeMap;

use crate::movement::Facing;
use crate::rules::Player;
use crate::rules::drawing::{ActionMark, Diagram, PieceMark};

use super::svg::{self, Anchor, Canvas};
use super::{Layout, MarkKind, Square, ZoneStyle};

pub(super) fn zone_colour(p: Player, style: ZoneStyle) -> &'static str {
    match (p, style) {
        (Player::First, ZoneStyle::Fill) => "#f8e79a",
        (Player::Second, ZoneStyle::Fill) => "#bcd5f5",
        (Player::First, ZoneStyle::Frame) => "#c99a00",
        (Player::Second, ZoneStyle::Frame) => "#2f6fc4",
    }
}

pub(super) fn draw_zones(c: &mut Canvas, d: &Diagram, layout: &Layout) {
    let first: std::collections::BTreeSet<&str> =
        d.sides[0].zone.iter().map(String::as_str).collect();
    let second: std::collections::BTreeSet<&str> =
        d.sides[1].zone.iter().map(String::as_str).collect();
    for p in [Player::First, Player::Second] {
        let colour = zone_colour(p, layout.zones);
        for cell in &d.sides[p.index()].zone {
            let Some(sq) = layout.cells.get(cell) else {
                continue;
            };
            match layout.zones {
                ZoneStyle::Fill => {
                    let (x, y, z) = (sq.x, sq.y, sq.size);
                    if first.contains(cell.as_str()) && second.contains(cell.as_str()) {
                        // Both players promote here (a pawn's facing decides
                        // which last rank it has): split the cell diagonally.
                        let half = match p {
                            Player::First => [(x, y), (x + z, y), (x, y + z)],
                            Player::Second => [(x + z, y), (x + z, y + z), (x, y + z)],
                        };
                        c.polygon(&half, colour, "none", 0.0);
                    } else {
                        c.rect(x, y, z, z, colour, "none", 0.0);
                    }
                }
                ZoneStyle::Frame => {
                    let inset = if p == Player::First { 2.0 } else { 4.0 };
                    c.rect(
                        sq.x + inset,
                        sq.y + inset,
                        sq.size - 2.0 * inset,
                        sq.size - 2.0 * inset,
                        "none",
                        colour,
                        1.6,
                    );
                }
            }
        }
    }
}

pub(super) fn piece_colours(p: Player) -> (&'static str, &'static str, &'static str, &'static str) {
    // (fill, stroke, text, promoted text)
    match p {
        Player::First => ("#ffffff", "#222222", "#111111", "#c0392b"),
        Player::Second => ("#2b2b2b", "#000000", "#ffffff", "#ff8a7a"),
    }
}

pub(super) fn draw_piece(c: &mut Canvas, sq: Square, p: &PieceMark) {
    let (cx, cy) = sq.centre();
    let s = sq.size;
    let (fill, stroke, ink, promoted_ink) = piece_colours(p.owner);
    c.circle((cx, cy), s * 0.36, fill, stroke, 1.4);
    let label = if p.promoted {
        format!("+{}", p.label)
    } else {
        p.label.clone()
    };
    let size = if label.chars().count() > 1 {
        s * 0.34
    } else {
        s * 0.42
    };
    c.text_styled(
        (cx, cy + size * 0.36),
        size,
        Anchor::Middle,
        if p.promoted { promoted_ink } else { ink },
        "font-weight=\"bold\"",
        &label,
    );
    match (p.facing, p.arrow) {
        (Some(f), false) => draw_facing(c, (cx, cy), s, f, "#e67e22"),
        (Some(f), true) => {
            // Labelled, so that a page or a test finds the arrow (and
            // which way the board says it points) without reading shapes.
            // `data-on`, not `data-cell`: the cell's own shape is the one
            // element carrying its name.
            c.raw(&format!(
                "<g data-arrow=\"{}\" data-on=\"{}\">",
                f.name(),
                svg::escape(&p.cell)
            ));
            draw_arrow(c, (cx, cy), s, f);
            c.close_group();
        }
        (None, _) => {}
    }
    if let Some(other) = &p.other_face {
        c.text(
            (sq.x + s - 2.5, sq.y + s - 2.5),
            s * 0.24,
            Anchor::End,
            "#777777",
            other,
        );
    }
}

/// A small triangle at the top (up) or bottom (down) edge of a piece.
pub(super) fn draw_facing(c: &mut Canvas, centre: (f64, f64), s: f64, f: Facing, colour: &str) {
    facing_triangle(c, centre, s, f, colour, "#ffffff", 0.8);
}

/// A display arrow: the facing triangle's shape, hollow, so that it reads
/// as a record of the piece's route rather than a direction it moves by.
pub(super) fn draw_arrow(c: &mut Canvas, centre: (f64, f64), s: f64, f: Facing) {
    facing_triangle(c, centre, s, f, "#ffffff", "#e67e22", 1.4);
}

fn facing_triangle(
    c: &mut Canvas,
    (cx, cy): (f64, f64),
    s: f64,
    f: Facing,
    fill: &str,
    stroke: &str,
    width: f64,
) {
    let sign = match f {
        Facing::Up => -1.0,
        Facing::Down => 1.0,
    };
    let tip = (cx, cy + sign * s * 0.49);
    let base_y = cy + sign * s * 0.33;
    let half = s * 0.12;
    c.polygon(
        &[tip, (cx - half, base_y), (cx + half, base_y)],
        fill,
        stroke,
        width,
    );
}

pub(super) fn draw_marks(
    c: &mut Canvas,
    layout: &Layout,
    occupied: &std::collections::BTreeSet<&str>,
    placed: &[(ActionMark, MarkKind)],
) {
    // Marks sharing a destination are spread side by side, so that both
    // facings of one destination stay visible.
    let mut by_cell: BTreeMap<&str, Vec<&(ActionMark, MarkKind)>> = BTreeMap::new();
    for m in placed {
        by_cell.entry(m.0.to.as_str()).or_default().push(m);
    }
    for (cell, marks) in by_cell {
        let Some(sq) = layout.cells.get(cell) else {
            continue;
        };
        let (cx, cy) = sq.centre();
        let s = sq.size;
        let mut distinct: Vec<&(ActionMark, MarkKind)> = Vec::new();
        for m in marks {
            if !distinct
                .iter()
                .any(|o| o.1 == m.1 && o.0.facing == m.0.facing && o.0.drop == m.0.drop)
            {
                distinct.push(m);
            }
        }
        // A capture: ring the piece too, since a dot on a dark piece is
        // easy to miss.
        if occupied.contains(cell) {
            let mut kinds: Vec<MarkKind> = distinct.iter().map(|m| m.1).collect();
            kinds.dedup();
            for (k, kind) in kinds.iter().enumerate() {
                c.circle(
                    (cx, cy),
                    s * 0.44 - k as f64 * 3.0,
                    "none",
                    kind.colour(),
                    2.2,
                );
            }
        }
        // On an occupied cell the marks sit small along the bottom edge,
        // so the piece they would capture stays readable.
        let (my, k) = if occupied.contains(cell) {
            (sq.y + s * 0.84, s * 0.6)
        } else {
            (cy, s)
        };
        let n = distinct.len() as f64;
        for (i, (mark, kind)) in distinct.iter().map(|m| (&m.0, m.1)).enumerate() {
            let x = cx + (i as f64 - (n - 1.0) / 2.0) * k * 0.5;
            let colour = kind.colour();
            // Grouped and labelled, so that a reader (or a test) can tell
            // which kind of mark stands on which cell without reading
            // colours. `data-to`, not `data-cell`: the cell's own shape is
            // the one element carrying its name.
            c.raw(&format!(
                "<g data-mark=\"{}\" data-to=\"{}\">",
                kind.name(),
                svg::escape(cell)
            ));
            match kind {
                MarkKind::Legal => c.circle((x, my), k * 0.13, colour, "#ffffff", 1.0),
                MarkKind::Missing => c.circle((x, my), k * 0.2, "none", colour, 2.4),
                MarkKind::Unexpected => {
                    let r = k * 0.16;
                    c.line((x - r, my - r), (x + r, my + r), colour, 2.6);
                    c.line((x - r, my + r), (x + r, my - r), colour, 2.6);
                }
            }
            if let Some(f) = mark.facing {
                let sign = match f {
                    Facing::Up => -1.0,
                    Facing::Down => 1.0,
                };
                let tip = (x, my + sign * k * 0.42);
                let base = my + sign * k * 0.27;
                c.polygon(
                    &[tip, (x - k * 0.08, base), (x + k * 0.08, base)],
                    colour,
                    "#ffffff",
                    0.6,
                );
            }
            if let Some(drop) = &mark.drop {
                c.text(
                    (x, my - k * 0.22),
                    k * 0.26,
                    Anchor::Middle,
                    colour,
                    &format!("{drop}*"),
                );
            }
            if mark.promote {
                c.text_styled(
                    (x + k * 0.2, my - k * 0.08),
                    k * 0.3,
                    Anchor::Middle,
                    colour,
                    "font-weight=\"bold\"",
                    "+",
                );
            }
            c.close_group();
        }
    }
}
