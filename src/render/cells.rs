//! What is drawn on the cells a layout placed: promotion zones, pieces
//! (with their facing triangles, display arrows and other faces) and
//! action marks. Apart from the layouts so that every board shows pieces
//! and marks alike, and from the legend, which only borrows their colours
//! and triangles for its icons.

use std::collections::BTreeMap;

use crate::movement::Facing;
use crate::rules::Player;
use crate::rules::drawing::{ActionMark, Diagram, PieceMark, PieceShape};

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

fn piece_colours(p: Player) -> (&'static str, &'static str, &'static str, &'static str) {
    // (fill, stroke, text, promoted text)
    match p {
        Player::First => ("#ffffff", "#222222", "#111111", "#c0392b"),
        Player::Second => ("#2b2b2b", "#000000", "#ffffff", "#ff8a7a"),
    }
}

/// Which way a piece points on the picture, as it is drawn (after any
/// half turn of the board).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(super) enum Points {
    Up,
    Down,
    Left,
    Right,
}

impl Points {
    pub(super) fn name(self) -> &'static str {
        match self {
            Points::Up => "up",
            Points::Down => "down",
            Points::Left => "left",
            Points::Right => "right",
        }
    }

    fn reversed(self) -> Points {
        match self {
            Points::Up => Points::Down,
            Points::Down => Points::Up,
            Points::Left => Points::Right,
            Points::Right => Points::Left,
        }
    }

    /// The unit step forward, in layout coordinates (y grows downward).
    fn step(self) -> (f64, f64) {
        match self {
            Points::Up => (0.0, -1.0),
            Points::Down => (0.0, 1.0),
            Points::Left => (-1.0, 0.0),
            Points::Right => (1.0, 0.0),
        }
    }

    /// The way `f` points in layout coordinates on a cell whose ranks run
    /// `sideways` (left to right, as on the tetrahedron's rightward arm).
    pub(super) fn of(f: Facing, sideways: bool) -> Points {
        match (f, sideways) {
            (Facing::Up, false) => Points::Up,
            (Facing::Down, false) => Points::Down,
            (Facing::Up, true) => Points::Right,
            (Facing::Down, true) => Points::Left,
        }
    }
}

/// The way a piece's forward points when it carries no facing of its own:
/// toward the other player's side.
pub(super) fn home_facing(p: Player) -> Facing {
    match p {
        Player::First => Facing::Up,
        Player::Second => Facing::Down,
    }
}

/// The pentagon of a shogi piece pointing `to` (layout coordinates):
/// tip, shoulders and base, in the units of a cell `s` wide.
fn pentagon((cx, cy): (f64, f64), s: f64, to: Points, shrink: f64) -> Vec<(f64, f64)> {
    let (fx, fy) = to.step();
    // Across: a quarter turn from forward.
    let (ax, ay) = (-fy, fx);
    let at = |across: f64, along: f64| {
        let (a, b) = (across * s * shrink, along * s * shrink);
        (cx + a * ax + b * fx, cy + a * ay + b * fy)
    };
    vec![
        at(0.0, 0.47),
        at(0.34, 0.26),
        at(0.41, -0.45),
        at(-0.41, -0.45),
        at(-0.34, 0.26),
    ]
}

/// The small triangle in a pentagon's tip that shows its facing.
fn tip((cx, cy): (f64, f64), s: f64, to: Points) -> Vec<(f64, f64)> {
    let (fx, fy) = to.step();
    let (ax, ay) = (-fy, fx);
    let at = |across: f64, along: f64| {
        let (a, b) = (across * s, along * s);
        (cx + a * ax + b * fx, cy + a * ay + b * fy)
    };
    vec![at(0.0, 0.41), at(0.13, 0.25), at(-0.13, 0.25)]
}

/// Chess figurines, drawn for this project in a 100 × 100 box (base at
/// the bottom): the outline, then the detail lines drawn in the
/// contrasting colour.
fn figurine(label: &str) -> Option<(&'static str, &'static str)> {
    Some(match label {
        "K" => (
            "M27 88H73V81H66Q79 62 70 50Q62 42 54 50L50 55L46 50Q38 42 30 50Q21 62 34 81H27Z\
             M47 16H53V24H60V30H53V47H47V30H40V24H47Z",
            "M31 81H69M38 70H62",
        ),
        "Q" => (
            "M27 88H73V81H66L79 38L70 59L65 30L58 57L50 25L42 57L35 30L30 59L21 38L34 81H27Z",
            "M31 81H69M37 70H63",
        ),
        "R" => (
            "M27 88H73V81H67L64 48L70 43V21H61V28H55V21H45V28H39V21H30V43L36 48L33 81H27Z",
            "M31 81H69M36 48H64",
        ),
        "B" => (
            "M27 88H73V81H62Q59 73 58 66H62V61H58Q69 50 62 37Q57 29 50 24Q43 29 38 37Q31 50 42 61H38V66H42Q41 73 38 81H27Z\
             M55 17A5 5 0 1 1 45 17A5 5 0 1 1 55 17Z",
            "M31 81H69M55 37L47 47",
        ),
        "N" => (
            "M29 88H75V81Q75 55 67 40Q60 26 50 22L47 13L41 24Q33 28 29 38L21 51Q19 58 26 60L32 57Q37 60 41 55L47 51Q49 60 41 68Q32 75 32 81H29Z",
            "M33 81H71M45 32L47 34",
        ),
        "P" => (
            "M30 88H70V82Q70 77 63 75Q56 66 56 56H61V50H56.6A12 12 0 1 0 43.4 50H39V56H44Q44 66 37 75Q30 77 30 82Z",
            "M33 82H67",
        ),
        _ => return None,
    })
}

/// A piece as drawn on its cell: a shogi pentagon pointing along its
/// facing with its letter upright inside, or a chess figurine (turned
/// over when its facing points down the picture), or for a chess kind
/// without a figurine (a draft's new piece) a disc with its letter. `sideways` says the
/// cell's ranks run left to right (the tetrahedron's rightward arm).
pub(super) fn draw_piece(
    c: &mut Canvas,
    sq: Square,
    p: &PieceMark,
    shape: PieceShape,
    sideways: bool,
) {
    piece(c, sq, p, shape, sideways, true);
}

/// A piece, with the attributes that name it (`data-piece`, `data-on`,
/// `data-points`, `data-arrow`) when `tagged`: a legend's example piece
/// stands on no cell.
fn piece(
    c: &mut Canvas,
    sq: Square,
    p: &PieceMark,
    shape: PieceShape,
    sideways: bool,
    tagged: bool,
) {
    let centre = sq.centre();
    let s = sq.size;
    let (fill, stroke, ink, promoted_ink) = piece_colours(p.owner);
    let facing = p.facing.unwrap_or_else(|| home_facing(p.owner));
    let to = Points::of(facing, sideways);
    let shown = if c.is_turned() { to.reversed() } else { to };
    let on = svg::escape(&p.cell);
    let tags = |points: &str| {
        if tagged {
            format!(
                "data-piece=\"{}\" data-on=\"{on}\" data-points=\"{points}\"",
                svg::escape(&p.label)
            )
        } else {
            String::new()
        }
    };
    match (shape, figurine(&p.label)) {
        (PieceShape::Figurine, Some((outline, detail))) => {
            // Upright, unless the piece carries a facing that points down
            // the picture: then it stands on its head, the way it moves.
            let degrees = match (p.facing, shown) {
                (Some(_), Points::Down) => 180,
                _ => 0,
            };
            let k = s / 100.0;
            let (fill, stroke, detail_ink) = match p.owner {
                Player::First => ("#ffffff", "#1a1a1a", "#1a1a1a"),
                Player::Second => ("#2b2b2b", "#000000", "#e8e8e8"),
            };
            c.figure(
                centre,
                k,
                degrees,
                outline,
                &format!(
                    "{}{}fill=\"{fill}\" stroke=\"{stroke}\" stroke-width=\"4\" stroke-linejoin=\"round\"",
                    tags(if degrees == 180 { "down" } else { "up" }),
                    if tagged { " " } else { "" },
                ),
            );
            c.figure(
                centre,
                k,
                degrees,
                detail,
                &format!(
                    "fill=\"none\" stroke=\"{detail_ink}\" stroke-width=\"3\" stroke-linecap=\"round\""
                ),
            );
        }
        (PieceShape::Figurine, None) => {
            // A kind of a draft with no figurine of its own: a disc in the
            // figurines' colours with its letter, upright, and the rule
            // facing's tip where it has one.
            let (fill, stroke, letter_ink) = match p.owner {
                Player::First => ("#ffffff", "#1a1a1a", "#1a1a1a"),
                Player::Second => ("#2b2b2b", "#000000", "#e8e8e8"),
            };
            let points = match (p.facing, shown) {
                (Some(_), Points::Down) => "down",
                _ => "up",
            };
            c.circle_with(
                centre,
                s * 0.36,
                &tags(points),
                &format!("fill=\"{fill}\" stroke=\"{stroke}\" stroke-width=\"1.6\""),
            );
            if p.facing.is_some() {
                c.polygon(&tip(centre, s, to), "#e67e22", "none", 0.0);
            }
            let size = s * 0.4;
            c.text_styled(
                (centre.0, centre.1 + size * 0.36),
                size,
                Anchor::Middle,
                letter_ink,
                "font-weight=\"bold\"",
                &p.label,
            );
        }
        (PieceShape::Pentagon, _) => {
            c.polygon_with(
                &pentagon(centre, s, to, 1.0),
                &tags(shown.name()),
                &format!("fill=\"{fill}\" stroke=\"{stroke}\" stroke-width=\"1.4\" stroke-linejoin=\"round\""),
            );
            if p.promoted {
                // The promoted side: a red letter in a red inner outline.
                c.polygon(&pentagon(centre, s, to, 0.78), "none", promoted_ink, 1.6);
            }
            match (p.facing, p.arrow) {
                (Some(_), false) => c.polygon(&tip(centre, s, to), "#e67e22", "none", 0.0),
                (Some(f), true) => {
                    // Labelled, so that a page or a test finds the arrow (and
                    // which way the board says it points) without reading
                    // shapes. `data-on`, not `data-cell`: the cell's own
                    // shape is the one element carrying its name.
                    if tagged {
                        c.raw(&format!("<g data-arrow=\"{}\" data-on=\"{on}\">", f.name()));
                    }
                    c.polygon(&tip(centre, s, to), "#ffffff", "#e67e22", 1.4);
                    if tagged {
                        c.close_group();
                    }
                }
                (None, _) => {}
            }
            // The letter sits a little toward the base, clear of the tip.
            let (fx, fy) = to.step();
            let (lx, ly) = (centre.0 - fx * s * 0.06, centre.1 - fy * s * 0.06);
            let size = if p.label.chars().count() > 1 {
                s * 0.34
            } else {
                s * 0.46
            };
            c.text_styled(
                (lx, ly + size * 0.36),
                size,
                Anchor::Middle,
                if p.promoted { promoted_ink } else { ink },
                "font-weight=\"bold\"",
                &p.label,
            );
        }
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

/// A small piece for the legend: a pentagon (with `label`, and its tip
/// marked `tip` when given) or a figurine, `s` wide, pointing `f`.
#[allow(clippy::too_many_arguments)]
pub(super) fn draw_small_piece(
    c: &mut Canvas,
    centre: (f64, f64),
    s: f64,
    owner: Player,
    shape: PieceShape,
    f: Facing,
    label: Option<&str>,
    tip_mark: Option<bool>,
) {
    let mark = PieceMark {
        cell: String::new(),
        owner,
        label: label.unwrap_or("").trim_start_matches('+').to_string(),
        promoted: label.is_some_and(|l| l.starts_with('+')),
        facing: tip_mark.map(|_| f),
        arrow: tip_mark == Some(true),
        other_face: None,
        royal: false,
    };
    let sq = Square {
        x: centre.0 - s / 2.0,
        y: centre.1 - s / 2.0,
        size: s,
    };
    piece(c, sq, &mark, shape, false, false);
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
