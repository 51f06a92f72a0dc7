//! SVG pictures of boards, positions and moves.
//!
//! [`render_svg`] asks a variant for the [`Diagram`] of a position and the
//! [`ActionMark`]s of some actions, lays the board out ([`charts`] for glued
//! square charts, [`tetra`] for the tetrahedron's rank slices) and writes
//! one self-contained SVG document with a legend. Rendering does no I/O and
//! is deterministic: the same question gives the same bytes, which the
//! snapshot tests and the committed README pictures rely on.
//!
//! Layouts only place cells and draw the board's own marks (grid, labels,
//! seams, cone points, tints); pieces, zones and action marks are drawn
//! here, once, over whatever layout placed the cells.

mod charts;
mod place;
mod svg;
mod tetra;
pub mod text;

use std::collections::BTreeMap;

use crate::movement::Facing;
use crate::rules::Player;
use crate::rules::drawing::{ActionMark, Diagram, PieceMark};
use crate::topology::file::AnyBoard;
use crate::variant::{At, Variant, VariantError};

pub use place::{canonical_cell, loose_mark};
pub use svg::escape;
use svg::{Anchor, Canvas, num};

/// What to mark on a picture besides the position.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Marks {
    /// Cell whose piece's moves are shown (highlighted origin), if any.
    pub from: Option<String>,
    /// Action texts (variant's canonical notation) to mark, each with a kind.
    pub actions: Vec<(String, MarkKind)>,
    /// Optional caption drawn under the diagram.
    pub caption: Option<String>,
    /// Draw the board half a turn round, as the second player sees it
    /// (text stays upright; the legend is not turned).
    pub flip: bool,
}

/// What is drawn over a [`Diagram`], already placed on its cells: for a
/// caller that holds a diagram and action marks (a web page, a report)
/// and should not have them parsed again.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Overlay {
    /// The highlighted origin, a canonical cell name.
    pub from: Option<String>,
    /// Actions to mark, each with a kind.
    pub marks: Vec<(ActionMark, MarkKind)>,
    /// Action texts that could not be placed, listed in the legend.
    pub unplaced: Vec<String>,
    /// Optional caption drawn under the diagram.
    pub caption: Option<String>,
    /// Draw the board half a turn round (see [`Marks::flip`]).
    pub flip: bool,
}

/// How an action mark is drawn.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum MarkKind {
    /// A legal action (a filled green dot).
    Legal,
    /// Expected but the engine did not give it (a hollow blue ring).
    Missing,
    /// The engine gave it but it was not expected (a red cross).
    Unexpected,
}

impl MarkKind {
    const ALL: [MarkKind; 3] = [MarkKind::Legal, MarkKind::Missing, MarkKind::Unexpected];

    fn colour(self) -> &'static str {
        match self {
            MarkKind::Legal => "#1e9e45",
            MarkKind::Missing => "#1f5fd6",
            MarkKind::Unexpected => "#d62020",
        }
    }

    /// The mark's name in the SVG's `data-mark` attribute.
    pub fn name(self) -> &'static str {
        match self {
            MarkKind::Legal => "legal",
            MarkKind::Missing => "missing",
            MarkKind::Unexpected => "unexpected",
        }
    }

    fn legend(self) -> &'static str {
        match self {
            MarkKind::Legal => "legal destination",
            MarkKind::Missing => "expected destination the engine did not give",
            MarkKind::Unexpected => "destination the engine gave but was not expected",
        }
    }
}

/// A picture that cannot be drawn, carrying the rejected value.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum RenderError {
    /// The variant, position or a leading move is bad.
    #[error(transparent)]
    Variant(#[from] VariantError),
    /// The `--moves-from` cell is not a cell of the board.
    #[error("bad cell '{cell}' to show moves from: {reason}")]
    FromCell { cell: String, reason: String },
}

/// Renders the position `at` of `variant` with `marks` as an SVG document.
///
/// Action texts that do not parse as actions of the position are placed by
/// their cell names when those name cells (an illegal action an engine
/// gave is still drawn where it claims to go); the rest are listed as text
/// in the legend, so one bad text never spoils the picture.
pub fn render_svg(variant: &dyn Variant, at: &At, marks: &Marks) -> Result<String, RenderError> {
    let diagram = variant.diagram(at)?;
    let from = match &marks.from {
        None => None,
        Some(text) => {
            Some(
                canonical_cell(&diagram.board, text).map_err(|e| RenderError::FromCell {
                    cell: text.clone(),
                    reason: e.reason,
                })?,
            )
        }
    };
    let texts: Vec<String> = marks.actions.iter().map(|(t, _)| t.clone()).collect();
    let found = variant.action_marks(at, &texts)?;
    let mut overlay = Overlay {
        from,
        caption: marks.caption.clone(),
        flip: marks.flip,
        ..Overlay::default()
    };
    for ((text, kind), result) in marks.actions.iter().zip(found) {
        match result {
            Ok(m) => overlay.marks.push((m, *kind)),
            Err(e) => match loose_mark(&diagram.board, text) {
                Some(m) => overlay.marks.push((m, *kind)),
                None => overlay.unplaced.push(format!("{text} ({})", e.message)),
            },
        }
    }
    Ok(render_diagram_svg(&diagram, &overlay))
}

/// Renders a diagram with what is drawn over it as an SVG document.
///
/// The board is one `<g id="board">` group and the legend another,
/// `<g id="legend">`. Every cell has one shape carrying
/// `data-cell="<canonical name>"`: a transparent square drawn last in the
/// board, so that a page finds the cell under the pointer whatever stands
/// on it. On the tetrahedron the shape also carries `data-near`, the
/// cell's neighbours on the ranks before and after it.
pub fn render_diagram_svg(d: &Diagram, overlay: &Overlay) -> String {
    draw(d, overlay)
}

/// The marks for `--moves-from`: every legal action of the position whose
/// origin is `cell`, as [`MarkKind::Legal`], with the origin highlighted.
pub fn moves_from(variant: &dyn Variant, at: &At, cell: &str) -> Result<Marks, RenderError> {
    let diagram = variant.diagram(at)?;
    let canonical = canonical_cell(&diagram.board, cell).map_err(|e| RenderError::FromCell {
        cell: cell.to_string(),
        reason: e.reason,
    })?;
    let legal = variant.legal_actions(at)?;
    let found = variant.action_marks(at, &legal)?;
    let actions = legal
        .into_iter()
        .zip(found)
        .filter(|(_, m)| {
            m.as_ref()
                .is_ok_and(|m| m.from.as_deref() == Some(canonical.as_str()))
        })
        .map(|(text, _)| (text, MarkKind::Legal))
        .collect();
    Ok(Marks {
        from: Some(canonical),
        actions,
        ..Marks::default()
    })
}

/// A cell's square on the picture, in layout coordinates.
#[derive(Copy, Clone, Debug)]
struct Square {
    x: f64,
    y: f64,
    size: f64,
}

impl Square {
    fn centre(self) -> (f64, f64) {
        (self.x + self.size / 2.0, self.y + self.size / 2.0)
    }
}

/// How promotion zones are shown: filled cells on charts, an inset frame on
/// the tetrahedron (whose cells already carry binding tints).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum ZoneStyle {
    Fill,
    Frame,
}

/// One legend line's icon.
#[derive(Clone, Debug, PartialEq)]
enum Icon {
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

/// A board placed on the picture by a layout.
struct Layout {
    cells: BTreeMap<String, Square>,
    /// Each cell's neighbours worth highlighting with it (`data-near`);
    /// empty where a layout has none.
    near: BTreeMap<String, Vec<String>>,
    /// Drawn under zones: cell fills and tints.
    under: Canvas,
    /// Drawn over zones, under pieces: grid, labels, seams.
    over: Canvas,
    /// Drawn over pieces: labels that must stay readable.
    top: Canvas,
    width: f64,
    height: f64,
    zones: ZoneStyle,
    legend: Vec<(Icon, String)>,
}

/// The smallest cell any layout draws, so that a piece's letter reads at
/// a glance on every board and every rank of the tetrahedron.
pub const MIN_CELL: f64 = 34.0;

const PAD: f64 = 16.0;
const TITLE: f64 = 30.0;
const LINE: f64 = 17.0;
/// Legend text size and the width of one of its characters, roughly, for
/// sizing the picture to its longest line.
const LEGEND_FONT: f64 = 11.0;
const CHAR: f64 = 6.2;
/// Room for a legend line's icon before its text.
const ICON: f64 = 26.0;

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

fn zone_colour(p: Player, style: ZoneStyle) -> &'static str {
    match (p, style) {
        (Player::First, ZoneStyle::Fill) => "#f8e79a",
        (Player::Second, ZoneStyle::Fill) => "#bcd5f5",
        (Player::First, ZoneStyle::Frame) => "#c99a00",
        (Player::Second, ZoneStyle::Frame) => "#2f6fc4",
    }
}

/// The words for a facing, which hold however the board is turned.
fn facing_words(f: Facing) -> &'static str {
    match f {
        Facing::Up => "up, toward higher ranks",
        Facing::Down => "down, toward lower ranks",
    }
}

/// One item of the legend.
enum Item {
    Line(Option<Icon>, String),
    /// Piece labels with their names, set out in columns.
    Pieces(Vec<(String, String)>),
}

/// The piece names set out in columns, filled column by column in the
/// family's order: as many columns as fit in `room`. Gives each column's
/// width and its entries.
fn piece_columns(entries: &[(String, String)], room: f64) -> Vec<(f64, &[(String, String)])> {
    let width = |(_, name): &(String, String)| ICON + name.chars().count() as f64 * CHAR + 14.0;
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

fn draw(d: &Diagram, o: &Overlay) -> String {
    let names = [d.sides[0].name.as_str(), d.sides[1].name.as_str()];
    let mut layout = match &d.board {
        AnyBoard::Charts(b) => charts::layout(b, o.flip),
        AnyBoard::Tetrahedron(t) => tetra::layout(t, names, o.flip),
    };
    let from = o.from.as_deref();
    let placed = &o.marks;
    let mut board = Canvas::turned(layout.width, layout.height, o.flip);
    board.raw(&format!(
        "<g id=\"board\" transform=\"translate({},{})\">\n",
        num(PAD),
        num(TITLE)
    ));
    let under = std::mem::take(&mut layout.under);
    board.raw(&under.into_string());
    draw_zones(&mut board, d, &layout);
    let over = std::mem::take(&mut layout.over);
    board.raw(&over.into_string());
    if let Some(sq) = from.and_then(|f| layout.cells.get(f)) {
        board.rect(
            sq.x + 1.5,
            sq.y + 1.5,
            sq.size - 3.0,
            sq.size - 3.0,
            "none",
            "#ff9800",
            3.0,
        );
    }
    for p in &d.pieces {
        if let Some(sq) = layout.cells.get(&p.cell) {
            draw_piece(&mut board, *sq, p);
        }
    }
    let top = std::mem::take(&mut layout.top);
    board.raw(&top.into_string());
    let occupied: std::collections::BTreeSet<&str> =
        d.pieces.iter().map(|p| p.cell.as_str()).collect();
    draw_marks(&mut board, &layout, &occupied, placed);
    // The cells' shapes for a page to find, last so that nothing drawn
    // covers them; transparent, so the picture is unchanged.
    for (name, sq) in &layout.cells {
        let near = match layout.near.get(name) {
            Some(n) => format!(" data-near=\"{}\"", svg::escape(&n.join(" "))),
            None => String::new(),
        };
        board.rect_with(
            sq.x,
            sq.y,
            sq.size,
            sq.size,
            &format!("data-cell=\"{}\"{near}", svg::escape(name)),
            "fill=\"#ffffff\" fill-opacity=\"0\" stroke=\"none\"",
        );
    }
    board.close_group();

    // The legend under the board: sides, hands, marks, pieces, caption.
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
            "+ before a letter (red): the piece is promoted".into(),
        ));
    }
    if d.pieces.iter().any(|p| p.facing.is_some() && !p.arrow) {
        items.push(Item::Line(
            Some(Icon::Facing(shown(Facing::Up))),
            "facing triangle: the way the piece's forward points (a reversing seam can turn it)"
                .into(),
        ));
    }
    if d.pieces.iter().any(|p| p.facing.is_some() && p.arrow) {
        items.push(Item::Line(
            Some(Icon::Arrow(shown(Facing::Up))),
            "hollow triangle: arrow records transport; does not affect moves".into(),
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
                "pieces, by letter: white discs are {}'s, dark discs {}'s",
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

    let longest = items
        .iter()
        .map(|i| match i {
            Item::Line(_, t) => t.chars().count(),
            Item::Pieces(_) => 0,
        })
        .max()
        .unwrap_or(0) as f64;
    let title = match &d.board {
        AnyBoard::Charts(b) => format!("{} — {}", d.variant, b.title()),
        AnyBoard::Tetrahedron(t) => format!("{} — {}", d.variant, t.title()),
    };
    let title = if o.flip {
        format!(
            "{title}, turned for {}",
            d.sides[Player::Second.index()].name
        )
    } else {
        title
    };
    // The bold title's characters are wider than the legend's.
    let width = (layout.width + 2.0 * PAD)
        .max(PAD * 2.0 + ICON + longest * CHAR)
        .max(PAD * 2.0 + title.chars().count() as f64 * 8.6)
        .ceil();
    let mut legend = Canvas::default();
    legend.raw("<g id=\"legend\">\n");
    let mut y = TITLE + layout.height + 12.0;
    for item in &items {
        match item {
            Item::Line(icon, text) => {
                if let Some(icon) = icon {
                    draw_icon(&mut legend, icon, PAD, y);
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
                        draw_label_disc(&mut legend, (x + 9.0, top + 7.0), label);
                        legend.text(
                            (x + ICON, top + 11.0),
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
    let height = (y + PAD).ceil();

    let mut doc = String::new();
    doc.push_str(&format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{w}\" height=\"{h}\" viewBox=\"0 0 {w} {h}\" font-family=\"DejaVu Sans, Verdana, sans-serif\">\n",
        w = num(width),
        h = num(height)
    ));
    doc.push_str(&format!(
        "<title>{}</title>\n",
        svg::escape(&format!("{title}: {}", placement_summary(d)))
    ));
    let mut head = Canvas::default();
    head.comment(&format!("{} drawn by seams render", d.variant));
    head.rect(0.0, 0.0, width, height, "#ffffff", "none", 0.0);
    head.text_styled(
        (PAD, 20.0),
        14.0,
        Anchor::Start,
        "#111",
        "font-weight=\"bold\"",
        &title,
    );
    doc.push_str(&head.into_string());
    doc.push_str(&board.into_string());
    doc.push_str(&legend.into_string());
    doc.push_str("</svg>\n");
    doc
}

/// A short description for the SVG `<title>` (what screen readers say).
fn placement_summary(d: &Diagram) -> String {
    let count = |p: Player| d.pieces.iter().filter(|m| m.owner == p).count();
    format!(
        "{} pieces of {}, {} of {}; {} to move",
        count(Player::First),
        d.sides[0].name,
        count(Player::Second),
        d.sides[1].name,
        d.sides[d.to_move.index()].name
    )
}

fn draw_zones(c: &mut Canvas, d: &Diagram, layout: &Layout) {
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

fn draw_piece(c: &mut Canvas, sq: Square, p: &PieceMark) {
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
fn draw_facing(c: &mut Canvas, centre: (f64, f64), s: f64, f: Facing, colour: &str) {
    facing_triangle(c, centre, s, f, colour, "#ffffff", 0.8);
}

/// A display arrow: the facing triangle's shape, hollow, so that it reads
/// as a record of the piece's route rather than a direction it moves by.
fn draw_arrow(c: &mut Canvas, centre: (f64, f64), s: f64, f: Facing) {
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

fn draw_marks(
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

/// A piece label (`K`, `+R`) on a small white disc, as the legend's
/// piece names show it.
fn draw_label_disc(c: &mut Canvas, centre: (f64, f64), label: &str) {
    c.circle(centre, 8.0, "#ffffff", "#222222", 1.0);
    let (size, ink) = if label.starts_with('+') {
        (8.0, "#c0392b")
    } else {
        (10.0, "#111111")
    };
    c.text_styled(
        (centre.0, centre.1 + size * 0.36),
        size,
        Anchor::Middle,
        ink,
        "font-weight=\"bold\"",
        label,
    );
}

fn draw_icon(c: &mut Canvas, icon: &Icon, x: f64, y: f64) {
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
            let (fill, stroke, _, _) = piece_colours(*p);
            c.circle(centre, 6.5, fill, stroke, 1.2);
            if let Some(f) = facing {
                draw_facing(c, centre, 26.0, *f, "#e67e22");
            }
        }
        Icon::Promoted => {
            c.text_styled(
                (centre.0, y + 12.0),
                12.0,
                Anchor::Middle,
                "#c0392b",
                "font-weight=\"bold\"",
                "+",
            );
        }
        Icon::Facing(f) => {
            c.circle(centre, 5.5, "#ffffff", "#222222", 1.0);
            draw_facing(c, centre, 22.0, *f, "#e67e22");
        }
        Icon::Arrow(f) => {
            c.circle(centre, 5.5, "#ffffff", "#222222", 1.0);
            draw_arrow(c, centre, 22.0, *f);
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
