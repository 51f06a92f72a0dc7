//! The legend under the board: who plays which discs, hands and who is
//! to move, zones, the layout's own lines, what the marks on pieces and
//! cells mean, the piece names in columns, and the caption. Apart from
//! the board because it is drawn from the diagram and the overlay alone,
//! whatever layout placed the cells.

use crate::movement::Facing;
use crate::rules::Player;
use crate::rules::drawing::Diagram;

use super::cells::{draw_small_piece, home_facing, zone_colour};
use super::svg::{Anchor, Canvas};
use super::{
    CHAR, FRAMED, ICON, LEGEND_FONT, LINE, Layout, MarkKind, Overlay, PAD, TITLE, ZoneStyle, tetra,
};
use crate::rules::drawing::PieceShape;

/// One legend line's icon.
#[derive(Clone, Debug, PartialEq)]
pub(super) enum Icon {
    Swatch(&'static str),
    Frame(&'static str),
    /// A seam arrow pair; `true` when the pair opposes (a reversing seam).
    Seam(bool),
    Boundary,
    Staircase,
    Cone,
    /// The thin lines joining one rank slice of the tetrahedron to the next.
    Bridge,
    /// A player's piece, with the facing its drops take (as drawn) when it
    /// matters.
    Piece(Player, Option<Facing>),
    Promoted,
    /// The facing triangle, pointing as an up-facing piece's is drawn.
    Facing(Facing),
    /// The hollow display-arrow triangle, pointing the same way.
    Arrow(Facing),
    OtherFace,
    Origin,
    Mark(MarkKind),
    /// The ring a mark puts round a piece it lands on.
    Ring(MarkKind),
    /// A short text drawn as a mark draws it (`P*`, `+`).
    Tag(String),
    /// No icon: an explanatory line.
    Note,
}

/// A player's name as the rules give it, with who moves first where the
/// name does not already say so.
fn owner_name(d: &Diagram, p: Player) -> String {
    let which = match p {
        Player::First => "first",
        Player::Second => "second",
    };
    let name = &d.sides[p.index()].name;
    if name.to_lowercase().contains(which) {
        name.clone()
    } else {
        format!("{name} (moves {which})")
    }
}

/// The words for a facing, which hold however the board is turned.
fn facing_words(f: Facing) -> &'static str {
    match f {
        Facing::Up => "up, toward higher ranks",
        Facing::Down => "down, toward lower ranks",
    }
}

/// Room for a piece's label, as the notation writes it, between its
/// picture and its name.
const LABEL: f64 = 27.0;

/// One item of the legend.
pub(super) enum Item {
    Line(Option<Icon>, String),
    /// Piece labels with their names, set out in columns.
    Pieces(Vec<(String, String)>),
}

/// The piece names set out in columns, filled column by column in the
/// family's order: as many columns as fit in `room`. Gives each column's
/// width and its entries.
fn piece_columns(entries: &[(String, String)], room: f64) -> Vec<(f64, &[(String, String)])> {
    let width =
        |(_, name): &(String, String)| ICON + LABEL + name.chars().count() as f64 * CHAR + 14.0;
    let split = |n: usize| -> Vec<(f64, &[(String, String)])> {
        entries
            .chunks(entries.len().div_ceil(n).max(1))
            .map(|col| (col.iter().map(width).fold(0.0, f64::max), col))
            .collect()
    };
    (1..=entries.len().max(1))
        .rev()
        .map(split)
        .find(|cols| cols.len() == 1 || cols.iter().map(|(w, _)| w).sum::<f64>() <= room)
        .unwrap_or_default()
}

/// The legend's items, in the order they are drawn: sides, hands, marks,
/// pieces, caption. Takes the layout's own lines out of `layout`.
pub(super) fn items(
    d: &Diagram,
    o: &Overlay,
    layout: &mut Layout,
    occupied: &std::collections::BTreeSet<&str>,
) -> Vec<Item> {
    let from = o.from.as_deref();
    let placed = &o.marks;
    let shown = |f: Facing| if o.flip { f.reversed() } else { f };
    let mut items: Vec<Item> = Vec::new();
    for p in [Player::First, Player::Second] {
        let side = &d.sides[p.index()];
        let hand: Vec<String> = side
            .hand
            .iter()
            .filter(|h| h.count > 0)
            .map(|h| {
                if h.count == 1 {
                    h.label.clone()
                } else {
                    format!("{}×{}", h.label, h.count)
                }
            })
            .collect();
        let mut s = owner_name(d, p);
        if let Some(f) = side.drop_facing {
            s.push_str(&format!(" — dropped pieces point {}", facing_words(f)));
        }
        if !hand.is_empty() {
            s.push_str(&format!(" — in hand: {}", hand.join(" ")));
        }
        if p == d.to_move {
            s.push_str(" — to move");
            if d.in_check {
                s.push_str(", in check");
            }
        }
        items.push(Item::Line(
            Some(Icon::Piece(p, side.drop_facing.map(shown))),
            s,
        ));
    }
    for p in [Player::First, Player::Second] {
        if !d.sides[p.index()].zone.is_empty() {
            let icon = match layout.zones {
                ZoneStyle::Fill => Icon::Swatch(zone_colour(p, ZoneStyle::Fill)),
                ZoneStyle::Frame => Icon::Frame(zone_colour(p, ZoneStyle::Frame)),
            };
            items.push(Item::Line(
                Some(icon),
                format!("promotion zone of {}", d.sides[p.index()].name),
            ));
        }
    }
    if layout.zones == ZoneStyle::Fill
        && d.sides[0].zone.iter().any(|c| d.sides[1].zone.contains(c))
    {
        items.push(Item::Line(
            Some(Icon::Note),
            "a cell split in two: both players promote there".into(),
        ));
    }
    for (icon, text) in std::mem::take(&mut layout.legend) {
        items.push(Item::Line(Some(icon), text));
    }
    // The marks a piece can carry: explained whenever the family can show
    // them (its names list a promoted label) or this picture does.
    let promotable = d.legend.iter().any(|(label, _)| label.starts_with('+'));
    if promotable || d.pieces.iter().any(|p| p.promoted) {
        items.push(Item::Line(
            Some(Icon::Promoted),
            match d.shape {
                PieceShape::Pentagon => {
                    "red letter in a red inner outline (+ in the notation): the piece is promoted"
                }
                PieceShape::Figurine => "+ before a letter (red): the piece is promoted",
            }
            .into(),
        ));
    }
    if d.pieces.iter().any(|p| p.facing.is_some() && !p.arrow) {
        let (icon, text) = match d.shape {
            PieceShape::Pentagon => (
                Icon::Facing(shown(Facing::Up)),
                "a piece points the way its forward points; the orange tip: a reversing seam can turn it",
            ),
            PieceShape::Figurine => (
                Icon::Facing(shown(Facing::Down)),
                "a pawn on its head moves down the picture, an upright one up (a reversing seam can turn it)",
            ),
        };
        items.push(Item::Line(Some(icon), text.into()));
    }
    if d.pieces.iter().any(|p| p.facing.is_some() && p.arrow) {
        items.push(Item::Line(
            Some(Icon::Arrow(shown(Facing::Up))),
            "hollow tip: arrow records transport; does not affect moves".into(),
        ));
    }
    if d.pieces.iter().any(|p| p.other_face.is_some()) {
        items.push(Item::Line(
            Some(Icon::OtherFace),
            "small grey letter: the token's other face, shown after it moves".into(),
        ));
    }
    if !d.legend.is_empty() {
        items.push(Item::Line(
            None,
            format!(
                "pieces, as drawn and as written: white ones are {}'s, dark ones {}'s",
                d.sides[0].name, d.sides[1].name
            ),
        ));
        items.push(Item::Pieces(d.legend.clone()));
    }
    if let Some(f) = from {
        let any = placed.iter().any(|(m, _)| m.from.as_deref() == Some(f));
        items.push(Item::Line(
            Some(Icon::Origin),
            if any {
                format!("moves from {f}")
            } else {
                format!("moves from {f}: none")
            },
        ));
    }
    for (cell, words) in &o.framed {
        items.push(Item::Line(
            Some(Icon::Frame(FRAMED)),
            format!("{cell}: {words}"),
        ));
    }
    for kind in MarkKind::ALL {
        if placed.iter().any(|(_, k)| *k == kind) {
            items.push(Item::Line(Some(Icon::Mark(kind)), kind.legend().into()));
        }
    }
    if let Some((_, kind)) = placed
        .iter()
        .find(|(m, _)| occupied.contains(m.to.as_str()))
    {
        items.push(Item::Line(
            Some(Icon::Ring(*kind)),
            "a ring round a piece: a marked action lands there and captures it".into(),
        ));
    }
    if placed.iter().any(|(m, _)| m.facing.is_some()) {
        items.push(Item::Line(
            None,
            "a small triangle beside a mark is the facing on arrival; one cell may show both"
                .into(),
        ));
    }
    if let Some(drop) = placed.iter().find_map(|(m, _)| m.drop.as_ref()) {
        items.push(Item::Line(
            Some(Icon::Tag(format!("{drop}*"))),
            "a letter and * above a mark: a drop of that piece from hand".into(),
        ));
    }
    if placed.iter().any(|(m, _)| m.promote) {
        items.push(Item::Line(
            Some(Icon::Tag("+".into())),
            "+ beside a mark: the action promotes (or changes) the piece".into(),
        ));
    }
    if !o.unplaced.is_empty() {
        items.push(Item::Line(None, "not on the picture:".into()));
        for u in &o.unplaced {
            items.push(Item::Line(None, format!("  {u}")));
        }
    }
    if let Some(cap) = &o.caption {
        items.push(Item::Line(None, cap.clone()));
    }
    items
}

/// Draws `items` under the board of `layout`, in a picture `width` wide;
/// gives the legend's group and the height its last line reaches.
pub(super) fn draw(
    items: &[Item],
    layout: &Layout,
    width: f64,
    shape: PieceShape,
) -> (Canvas, f64) {
    let mut legend = Canvas::default();
    legend.raw("<g id=\"legend\">\n");
    let mut y = TITLE + layout.height + 12.0;
    for item in items {
        match item {
            Item::Line(icon, text) => {
                if let Some(icon) = icon {
                    draw_icon(&mut legend, icon, PAD, y, shape);
                }
                legend.text(
                    (PAD + ICON, y + 11.0),
                    LEGEND_FONT,
                    Anchor::Start,
                    "#222",
                    text,
                );
                y += LINE;
            }
            Item::Pieces(entries) => {
                let cols = piece_columns(entries, width - 2.0 * PAD);
                let mut x = PAD;
                for (w, col) in &cols {
                    for (row, (label, name)) in col.iter().enumerate() {
                        let top = y + row as f64 * (LINE + 2.0);
                        draw_label_piece(&mut legend, (x + 9.0, top + 7.0), label, shape);
                        legend.text(
                            (x + ICON + LABEL, top + 11.0),
                            LEGEND_FONT,
                            Anchor::Start,
                            "#222",
                            name,
                        );
                    }
                    x += w;
                }
                let rows = cols.iter().map(|(_, c)| c.len()).max().unwrap_or(0);
                y += rows as f64 * (LINE + 2.0);
            }
        }
    }
    legend.close_group();
    (legend, y)
}

/// A piece as the legend's piece names show it: its picture (a first
/// player's piece) and its label as the notation writes it (`K`, `+R`).
fn draw_label_piece(c: &mut Canvas, centre: (f64, f64), label: &str, shape: PieceShape) {
    draw_small_piece(
        c,
        centre,
        17.0,
        Player::First,
        shape,
        Facing::Up,
        Some(label),
        None,
    );
    c.text_styled(
        (centre.0 + ICON - 9.0, centre.1 + 4.0),
        LEGEND_FONT,
        Anchor::Start,
        if label.starts_with('+') {
            "#c0392b"
        } else {
            "#111111"
        },
        "font-weight=\"bold\"",
        label,
    );
}

/// An SVG document around a legend icon drawn in an 18 × 14 box (the
/// size they have in the picture), for a page to show.
fn icon_document(draw: impl FnOnce(&mut Canvas), width: f64) -> String {
    let mut c = Canvas::default();
    draw(&mut c);
    format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{w}\" height=\"16\" viewBox=\"0 -1 {w} 16\" font-family=\"DejaVu Sans, Verdana, sans-serif\">{}</svg>",
        c.into_string(),
        w = width,
    )
}

/// A legend line's icon as its own SVG document.
pub(super) fn icon_svg(icon: &Icon, shape: PieceShape) -> String {
    icon_document(|c| draw_icon(c, icon, 0.0, 0.0, shape), 18.0)
}

/// A piece's picture as the legend's piece names show it, as its own SVG
/// document.
pub(super) fn piece_svg(label: &str, shape: PieceShape) -> String {
    icon_document(
        |c| {
            draw_small_piece(
                c,
                (9.0, 7.0),
                17.0,
                Player::First,
                shape,
                Facing::Up,
                Some(label),
                None,
            )
        },
        18.0,
    )
}

fn draw_icon(c: &mut Canvas, icon: &Icon, x: f64, y: f64, shape: PieceShape) {
    let centre = (x + 9.0, y + 7.0);
    match icon {
        Icon::Note => {}
        Icon::Swatch(fill) => c.rect(x + 2.0, y + 1.0, 14.0, 12.0, fill, "#888888", 0.6),
        Icon::Frame(stroke) => c.rect(x + 2.0, y + 1.0, 14.0, 12.0, "none", stroke, 1.6),
        Icon::Seam(opposed) => {
            c.arrow((x + 4.0, y + 13.0), (x + 4.0, y + 1.0), 1, "#6a1b9a");
            if *opposed {
                c.arrow((x + 14.0, y + 1.0), (x + 14.0, y + 13.0), 1, "#6a1b9a");
            } else {
                c.arrow((x + 14.0, y + 13.0), (x + 14.0, y + 1.0), 1, "#6a1b9a");
            }
        }
        Icon::Boundary => c.line((x + 1.0, y + 7.0), (x + 17.0, y + 7.0), "#000000", 3.0),
        Icon::Staircase => c.line((x + 1.0, y + 7.0), (x + 17.0, y + 7.0), "#d35400", 3.5),
        Icon::Cone => c.circle(centre, 4.5, "#c0392b", "#ffffff", 1.2),
        Icon::Bridge => {
            c.rect(x + 1.0, y + 9.0, 16.0, 4.0, "none", "#333", 1.2);
            c.rect(x + 4.0, y + 1.0, 10.0, 4.0, "none", "#333", 1.2);
            c.line((x + 1.0, y + 9.0), (x + 4.0, y + 5.0), tetra::BRIDGE, 1.0);
            c.line((x + 17.0, y + 9.0), (x + 14.0, y + 5.0), tetra::BRIDGE, 1.0);
        }
        Icon::Piece(p, facing) => {
            let label = match shape {
                PieceShape::Figurine => Some("K"),
                PieceShape::Pentagon => None,
            };
            let f = facing.unwrap_or_else(|| home_facing(*p));
            draw_small_piece(c, centre, 16.0, *p, shape, f, label, facing.map(|_| false));
        }
        Icon::Promoted => match shape {
            PieceShape::Pentagon => {
                draw_small_piece(
                    c,
                    centre,
                    17.0,
                    Player::First,
                    shape,
                    Facing::Up,
                    Some("+P"),
                    None,
                );
            }
            PieceShape::Figurine => c.text_styled(
                (centre.0, y + 12.0),
                12.0,
                Anchor::Middle,
                "#c0392b",
                "font-weight=\"bold\"",
                "+",
            ),
        },
        Icon::Facing(f) => {
            let label = match shape {
                PieceShape::Figurine => Some("P"),
                PieceShape::Pentagon => None,
            };
            draw_small_piece(
                c,
                centre,
                17.0,
                Player::First,
                shape,
                *f,
                label,
                Some(false),
            );
        }
        Icon::Arrow(f) => {
            draw_small_piece(c, centre, 17.0, Player::First, shape, *f, None, Some(true));
        }
        Icon::OtherFace => c.text((centre.0, y + 12.0), 10.0, Anchor::Middle, "#777777", "g"),
        Icon::Origin => c.rect(x + 2.0, y + 1.0, 14.0, 12.0, "none", "#ff9800", 3.0),
        Icon::Mark(kind) => {
            let colour = kind.colour();
            match kind {
                MarkKind::Legal => c.circle(centre, 4.5, colour, "#ffffff", 1.0),
                MarkKind::Missing => c.circle(centre, 5.5, "none", colour, 2.2),
                MarkKind::Unexpected => {
                    let (cx, cy) = centre;
                    c.line((cx - 5.0, cy - 5.0), (cx + 5.0, cy + 5.0), colour, 2.4);
                    c.line((cx - 5.0, cy + 5.0), (cx + 5.0, cy - 5.0), colour, 2.4);
                }
            }
        }
        Icon::Ring(kind) => {
            c.circle(centre, 5.0, "#2b2b2b", "#000000", 1.0);
            c.circle(centre, 7.5, "none", kind.colour(), 2.0);
        }
        Icon::Tag(text) => c.text_styled(
            (centre.0, y + 11.5),
            10.0,
            Anchor::Middle,
            MarkKind::Legal.colour(),
            "font-weight=\"bold\"",
            text,
        ),
    }
}
