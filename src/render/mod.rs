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
//! here (in `cells`), once, over whatever layout placed the cells, and
//! `legend` sets out the lines under the board that explain them. This
//! file keeps the entry points and puts the picture together.

mod cells;
mod charts;
mod ghosts;
mod legend;
mod place;
mod svg;
mod tetra;
pub mod text;

use std::collections::BTreeMap;

use crate::rules::Player;
use crate::rules::drawing::{ActionMark, Diagram};
use crate::topology::file::AnyBoard;
use crate::variant::{At, Variant, VariantError};

use cells::{draw_marks, draw_piece, draw_zones};
pub use ghosts::{Across, Ghost, GhostKind, crosses, ghosts};
use legend::{Icon, Item};
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
    /// Cells framed in violet, each with the words the legend gives it:
    /// the pieces of a line that is no action (an audit's king, shield
    /// and slider, say), which action marks would misname.
    pub framed: Vec<(String, String)>,
    /// Draw the ghost cells beyond every glued edge, and the routes of
    /// the marked actions that cross a seam (see [`Across`]).
    pub ghosts: bool,
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
    /// Framed cells, canonical names, with their legend words (see
    /// [`Marks::framed`]).
    pub framed: Vec<(String, String)>,
    /// Ghost cells beyond the glued edges and seam-crossing routes:
    /// off, shown, or drawn hidden for a page to show.
    pub across: Across,
    /// Actions (their texts) with the routes their pieces take; those
    /// that cross a seam are drawn when `across` is not off.
    pub routes: Vec<(String, Vec<crate::rules::drawing::Route>)>,
    /// Leave out the file and rank labels (a page lets its player switch
    /// them off); the cells keep their names in `data-cell`.
    pub hide_coordinates: bool,
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
    for (cell, words) in &marks.framed {
        // A cell the board lacks spoils nothing: it is listed, like an
        // action that cannot be placed.
        match canonical_cell(&diagram.board, cell) {
            Ok(c) => overlay.framed.push((c, words.clone())),
            Err(e) => overlay.unplaced.push(format!("{cell} ({})", e.reason)),
        }
    }
    if marks.ghosts {
        overlay.across = Across::Shown;
        let routes = variant.action_routes(at, &texts)?;
        overlay.routes = texts.iter().cloned().zip(routes).collect();
    }
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

/// A board placed on the picture by a layout.
struct Layout {
    cells: BTreeMap<String, Square>,
    /// Each cell's neighbours worth highlighting with it (`data-near`);
    /// empty where a layout has none.
    near: BTreeMap<String, Vec<String>>,
    /// Cells whose ranks run left to right rather than upward (the
    /// tetrahedron's rightward arm): a piece there points right or left.
    sideways: std::collections::BTreeSet<String>,
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

/// The colour of [`Marks::framed`] cells: apart from the origin's orange
/// and the marks' green, blue and red.
const FRAMED: &str = "#8e24aa";

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

/// The board of a picture drawn: its layout (its own legend lines still in
/// it), the board group with its top-left corner at (`PAD`, `top`), and the
/// occupied cells.
fn draw_board(d: &Diagram, o: &Overlay, top: f64) -> (Layout, Canvas) {
    let names = [d.sides[0].name.as_str(), d.sides[1].name.as_str()];
    let mut layout = match &d.board {
        AnyBoard::Charts(b) => {
            charts::layout(b, o.flip, o.across != Across::Off, !o.hide_coordinates)
        }
        AnyBoard::Tetrahedron(t) => tetra::layout(t, names, o.flip, !o.hide_coordinates),
    };
    let from = o.from.as_deref();
    let placed = &o.marks;
    let mut board = Canvas::turned(layout.width, layout.height, o.flip);
    board.raw(&format!(
        "<g id=\"board\" transform=\"translate({},{})\">\n",
        num(PAD),
        num(top)
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
    for (cell, _) in &o.framed {
        if let Some(sq) = layout.cells.get(cell) {
            // Inset further than the origin's frame, so that a cell that
            // is both shows both.
            board.rect_with(
                sq.x + 4.5,
                sq.y + 4.5,
                sq.size - 9.0,
                sq.size - 9.0,
                &format!("data-framed=\"{}\"", svg::escape(cell)),
                &format!("fill=\"none\" stroke=\"{FRAMED}\" stroke-width=\"3\""),
            );
        }
    }
    for p in &d.pieces {
        if let Some(sq) = layout.cells.get(&p.cell) {
            let sideways = layout.sideways.contains(&p.cell);
            draw_piece(&mut board, *sq, p, d.shape, sideways);
        }
    }
    across(&mut board, d, o, &mut layout);
    let top = std::mem::take(&mut layout.top);
    board.raw(&top.into_string());
    let occupied = occupied(d);
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
    if let (AnyBoard::Charts(b), false) = (&d.board, o.across == Across::Off) {
        ghosts::draw_ghost_hits(&mut board, b, &layout, o.across == Across::Hidden);
    }
    board.close_group();
    (layout, board)
}

/// The cells with a piece on them.
fn occupied(d: &Diagram) -> std::collections::BTreeSet<&str> {
    d.pieces.iter().map(|p| p.cell.as_str()).collect()
}

/// The picture's title: the variant and its board, and for whom it is
/// turned.
fn title(d: &Diagram, o: &Overlay) -> String {
    let title = match &d.board {
        AnyBoard::Charts(b) => format!("{} — {}", d.variant, b.title()),
        AnyBoard::Tetrahedron(t) => format!("{} — {}", d.variant, t.title()),
    };
    if o.flip {
        format!(
            "{title}, turned for {}",
            d.sides[Player::Second.index()].name
        )
    } else {
        title
    }
}

fn draw(d: &Diagram, o: &Overlay) -> String {
    let (mut layout, board) = draw_board(d, o, TITLE);
    let occupied = occupied(d);

    // The legend under the board: sides, hands, marks, pieces, caption.
    let items = legend::items(d, o, &mut layout, &occupied);

    let longest = items
        .iter()
        .map(|i| match i {
            Item::Line(_, t) => t.chars().count(),
            Item::Pieces(_) => 0,
        })
        .max()
        .unwrap_or(0) as f64;
    let title = title(d, o);
    // The bold title's characters are wider than the legend's.
    let width = (layout.width + 2.0 * PAD)
        .max(PAD * 2.0 + ICON + longest * CHAR)
        .max(PAD * 2.0 + title.chars().count() as f64 * 8.6)
        .ceil();
    let (legend, y) = legend::draw(&items, &layout, width, d.shape);
    let height = (y + PAD).ceil();

    let mut doc = svg_head(width, height, &format!("{title}: {}", placement_summary(d)));
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

/// The ghost cells and seam-crossing routes of `o.across`, with their
/// legend lines when they are shown.
fn across(board: &mut Canvas, d: &Diagram, o: &Overlay, layout: &mut Layout) {
    let AnyBoard::Charts(b) = &d.board else {
        return;
    };
    if o.across == Across::Off {
        return;
    }
    let hidden = o.across == Across::Hidden;
    let ghosts = ghosts::draw_ghosts(board, b, d, layout, hidden);
    let crossings = ghosts::draw_crossings(board, b, layout, &o.routes, hidden);
    if hidden {
        return;
    }
    if ghosts > 0 {
        layout.legend.push((
            Icon::Frame("#6a1b9a"),
            "ghost cell: what a step across the edge reaches, turned as the seam turns it"
                .to_string(),
        ));
    }
    if crossings > 0 {
        layout.legend.push((
            Icon::Swatch("#6a1b9a"),
            "a move across a seam: it leaves through the edge and comes back in through its partner"
                .to_string(),
        ));
    }
}

/// The opening `<svg>` element of a picture `width` by `height` and its
/// `<title>`, shared by the whole picture and the board alone.
fn svg_head(width: f64, height: f64, title: &str) -> String {
    format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{w}\" height=\"{h}\" viewBox=\"0 0 {w} {h}\" font-family=\"DejaVu Sans, Verdana, sans-serif\">\n<title>{}</title>\n",
        svg::escape(title),
        w = num(width),
        h = num(height)
    )
}

/// The board alone, as an SVG document, for a page that sets out the
/// legend itself ([`legend_entries`]): the same board group as
/// [`render_diagram_svg`] draws, with no title and no legend. Its size
/// depends on the board alone, never on the position, so a page can give
/// it one place for a whole game.
pub fn render_board_svg(d: &Diagram, overlay: &Overlay) -> String {
    let (layout, board) = draw_board(d, overlay, PAD);
    let width = (layout.width + 2.0 * PAD).ceil();
    let height = (layout.height + 2.0 * PAD).ceil();
    let mut doc = svg_head(
        width,
        height,
        &format!("{}: {}", title(d, overlay), placement_summary(d)),
    );
    let mut head = Canvas::default();
    head.rect(0.0, 0.0, width, height, "#ffffff", "none", 0.0);
    doc.push_str(&head.into_string());
    doc.push_str(&board.into_string());
    doc.push_str("</svg>\n");
    doc
}

/// One line of a legend set out by a page: a small picture (an SVG
/// document, where the line has one) and its words; a piece's line also
/// carries its label as the notation writes it.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct LegendEntry {
    pub icon: Option<String>,
    /// The piece's label (`K`, `+R`), on a line that names a piece.
    pub label: Option<String>,
    pub text: String,
}

/// The legend [`render_diagram_svg`] draws under the board, as data: the
/// same lines in the same order, each icon its own small SVG document.
/// With the title first, for a page to head the legend with.
pub fn legend_entries(d: &Diagram, overlay: &Overlay) -> (String, Vec<LegendEntry>) {
    let names = [d.sides[0].name.as_str(), d.sides[1].name.as_str()];
    let mut layout = match &d.board {
        AnyBoard::Charts(b) => charts::layout(
            b,
            overlay.flip,
            overlay.across != Across::Off,
            !overlay.hide_coordinates,
        ),
        AnyBoard::Tetrahedron(t) => {
            tetra::layout(t, names, overlay.flip, !overlay.hide_coordinates)
        }
    };
    let occupied = occupied(d);
    let items = legend::items(d, overlay, &mut layout, &occupied);
    let mut out = Vec::new();
    for item in &items {
        match item {
            Item::Line(icon, text) => out.push(LegendEntry {
                icon: icon.as_ref().map(|i| legend::icon_svg(i, d.shape)),
                label: None,
                text: text.clone(),
            }),
            Item::Pieces(entries) => {
                for (label, name) in entries {
                    out.push(LegendEntry {
                        icon: Some(legend::piece_svg(label, d.shape)),
                        label: Some(label.clone()),
                        text: name.clone(),
                    });
                }
            }
        }
    }
    (title(d, overlay), out)
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
