//! Pictures as data: what a position and its moves look like, without any
//! drawing.
//!
//! A rule family that can be pictured implements [`Draw`] and hands it out
//! through [`crate::rules::Rules::drawing`]. It describes a position as a
//! [`Diagram`] (the board it stands on, pieces by canonical cell name,
//! hands, promotion zones, drop facings) and an action as an
//! [`ActionMark`] (origin, destination, final facing). Everything here is
//! plain data computed without I/O; [`crate::render`] turns it into SVG and
//! other front ends (the HTML conformance report) may draw it their own way.
//!
//! Cells are named as the variant's notation names them (`e5`, `I:d4`,
//! `e5.3`), so a diagram never leaks internal cell indices.

use super::Player;
use crate::movement::Facing;
use crate::topology::file::AnyBoard;
use crate::topology::{Board, Dir};

/// One piece on the board.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct PieceMark {
    /// Canonical cell name.
    pub cell: String,
    pub owner: Player,
    /// The kind as the notation writes it, without promotion mark and in
    /// upper case (`P`, `K`, `W`, …).
    pub label: String,
    pub promoted: bool,
    /// The piece's facing, only where it matters: the piece moves by its
    /// facing and the board has a seam that can reverse it; or, when
    /// `arrow` is set, its display arrow.
    pub facing: Option<Facing>,
    /// `facing` is a display arrow (surface shogi's kings, rooks and
    /// bishops, `SS-A2`): it records the transport of the piece's routes
    /// in a game and does not affect its moves. Families never set it on
    /// a position's pieces; a game view does, from the game's history.
    pub arrow: bool,
    /// A two-faced token's hidden face (Kyoto), as a letter.
    pub other_face: Option<String>,
    /// Whether the piece is royal: kept out of check, its capture the
    /// point of the game (a king, or the general of Hexgi).
    pub royal: bool,
}

/// Pieces of one kind in a hand.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HandMark {
    /// The kind as the picture labels it: the letter its drops are
    /// written with, or both faces of a two-faced token (`S/B`).
    pub label: String,
    pub count: u32,
    /// The labels drops of this kind carry ([`ActionMark::drop`]): the
    /// label itself, or each face a two-faced token may be dropped with.
    pub drops: Vec<String>,
}

/// Everything one player owns or is told by the rules, for the picture.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Side {
    /// The rules text's name for the player (`A`, `White`, …).
    pub name: String,
    /// Pieces in hand, in the order the position text prints them.
    pub hand: Vec<HandMark>,
    /// Cells where this player's pieces promote (a band, a zone or the
    /// cells where a pawn with its home facing promotes).
    pub zone: Vec<String>,
    /// The facing a dropped piece takes, where drops exist and facing
    /// matters on this board.
    pub drop_facing: Option<Facing>,
}

/// A position as a picture: the board and what stands on it.
#[derive(Clone, Debug)]
pub struct Diagram {
    pub variant: String,
    /// The board, so that a renderer can lay out cells and seams.
    pub board: AnyBoard,
    pub pieces: Vec<PieceMark>,
    /// First player's side, then second player's.
    pub sides: [Side; 2],
    pub to_move: Player,
    pub in_check: bool,
    /// Every piece label the family draws (`K`, and promoted ones such as
    /// `+R`), each with the piece's name as the family's rules give it,
    /// in the order a legend lists them.
    pub legend: Vec<(String, String)>,
    /// How the family's pieces are drawn.
    pub shape: PieceShape,
}

/// How a family's pieces look on a picture.
#[derive(Copy, Clone, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum PieceShape {
    /// Chess figurines (king, queen, rook, bishop, knight, pawn, by the
    /// letters K Q R B N P), upright unless a facing turns them; a disc
    /// with its letter for any other letter (a draft's new kind).
    Figurine,
    /// Shogi's pentagon, pointing along the piece's facing, its letter
    /// upright inside.
    Pentagon,
}

impl Diagram {
    /// Puts display arrows, (cell, arrow) pairs from
    /// [`crate::rules::Rules::display_arrows`], on the pieces on those
    /// cells.
    pub fn set_arrows(&mut self, arrows: &[(String, Facing)]) {
        for p in &mut self.pieces {
            if let Some((_, f)) = arrows.iter().find(|(cell, _)| *cell == p.cell) {
                p.facing = Some(*f);
                p.arrow = true;
            }
        }
    }
}

/// One action as a picture: where it starts and ends.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ActionMark {
    /// The origin cell; `None` for a drop.
    pub from: Option<String>,
    /// The destination cell (a castling king's destination).
    pub to: String,
    /// The mover's facing after the action, where it matters (two routes
    /// to one cell can leave a piece facing either way).
    pub facing: Option<Facing>,
    /// The dropped kind's label, for drops.
    pub drop: Option<String>,
    /// The action promotes (or otherwise changes) the piece.
    pub promote: bool,
}

/// One unit step of the route an action's piece takes, by canonical cell
/// names: leaving `from` by `dir` (in `from`'s own frame), it lands on
/// `to`, and `transport` is the derivative of the edge it crossed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RouteHop {
    pub from: String,
    pub dir: Dir,
    pub to: String,
    pub transport: crate::topology::Transport,
}

/// A route: the hops from an action's origin to its destination.
pub type Route = Vec<RouteHop>;

/// Names the cells of a route traced on `board` (see
/// [`crate::movement::ray_hops`] and its siblings).
pub fn route_of(board: &Board, hops: &[crate::movement::Hop]) -> Route {
    hops.iter()
        .map(|h| RouteHop {
            from: board.cell_name(h.from).to_string(),
            dir: h.dir,
            to: board.cell_name(h.to).to_string(),
            transport: h.transport,
        })
        .collect()
}

/// Where the pieces stand, without the rest of a picture: for callers
/// that look at many positions (random play in `seams fuzz` looks at one
/// every other ply), to whom zones and hands would cost more than the
/// pieces.
#[derive(Clone, Debug)]
pub struct Pieces {
    pub pieces: Vec<PieceMark>,
    /// Each side's drop facing, as [`Side::drop_facing`].
    pub drop_facing: [Option<Facing>; 2],
    pub to_move: Player,
}

/// What a family provides to be pictured.
pub trait Draw<P, A> {
    /// The position as a diagram.
    fn diagram(&self, pos: &P) -> Diagram;
    /// A legal action of `pos` as a mark.
    fn action_mark(&self, pos: &P, action: &A) -> ActionMark;
    /// Every cell's canonical name, in the order the position text writes
    /// the placement: index `i` of a [`crate::placement::Layout`]'s cells
    /// is the cell `text_cells()[i]`.
    fn text_cells(&self) -> Vec<String>;
    /// Every piece a position editor may place on this variant's board,
    /// with its token and how a picture shows it.
    fn palette(&self) -> Vec<PaletteEntry>;
    /// How the hands are written in the position text; `None` for a
    /// family without hands.
    fn hand_shape(&self) -> Option<HandShape> {
        None
    }
    /// The routes by which the piece of a legal board action reaches its
    /// destination, traced with the family's own movement on the board's
    /// step tables: every clear route of the piece's moves that ends on the
    /// destination with the action's facing. Pictures draw the routes that
    /// cross a seam. Empty for a drop, for a route a family does not trace
    /// (castling) and by default.
    fn action_routes(&self, _pos: &P, _action: &A) -> Vec<Route> {
        Vec::new()
    }
    /// The pieces alone; taken from the diagram unless a family has a
    /// cheaper way.
    fn pieces(&self, pos: &P) -> Pieces {
        let d = self.diagram(pos);
        Pieces {
            drop_facing: [d.sides[0].drop_facing, d.sides[1].drop_facing],
            to_move: d.to_move,
            pieces: d.pieces,
        }
    }
}

/// Whether some seam of the board reverses vertical directions, so that a
/// piece's facing is not fixed by its owner and must be drawn.
pub fn reverses_facing(board: &Board) -> bool {
    board.cells().any(|c| {
        Dir::CARDINALS
            .iter()
            .any(|&d| board.step(c, d).is_some_and(|s| s.transport.flip_y))
    })
}

/// `Some(f)` when `matters`, else `None`: the one place that decides
/// whether a facing is worth drawing.
pub fn facing_if(matters: bool, f: Facing) -> Option<Facing> {
    matters.then_some(f)
}

/// One piece an editor may place, as the position text writes it and as a
/// picture of the position shows it ([`crate::rules::drawing::PieceMark`]).
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct PaletteEntry {
    /// The piece exactly as the position text writes it on a cell.
    pub token: String,
    pub owner: Player,
    /// The kind as the picture labels it (upper case, no promotion mark).
    pub label: String,
    pub promoted: bool,
    /// The facing, where this board's seams can reverse it (as the
    /// picture shows it); `None` elsewhere, where it is the owner's.
    pub facing: Option<Facing>,
    /// A two-faced token's hidden face (Kyoto), as a letter.
    pub other_face: Option<String>,
    /// A chess pawn's double-step flag when the token states it (`+`
    /// set, `-` clear); `None` for the text's default on the cell it is
    /// put on, and for every other piece.
    pub double_step: Option<bool>,
}

/// How a family writes its hands, for editing them as text.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct HandShape {
    pub place: HandPlace,
    /// What a hand may hold, in the order the text writes it.
    pub entries: Vec<HandEntry>,
    /// Whether a count is written before a letter (`2P`); otherwise the
    /// letter is repeated (`PP`).
    pub counted: bool,
    /// The text of two empty hands (`-`, or nothing).
    pub empty: String,
}

/// Where the hands stand in a position text.
#[derive(Copy, Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub enum HandPlace {
    /// In brackets right after the placement (Kyoto).
    Bracket,
    /// The field with this index among those after the placement.
    Field(usize),
}

/// One kind a hand may hold.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct HandEntry {
    /// The upper-case letter the position text writes (the first player's;
    /// the second player's is its lower case).
    pub letter: char,
    /// The label a picture of the hand gives it
    /// ([`crate::rules::drawing::HandMark`]).
    pub label: String,
}

/// The placement's cells of a board of charts, in the order every chart
/// family writes them: charts in the board's order, each chart's ranks from
/// the highest down, each rank from file `a`.
pub fn chart_text_cells(board: &crate::topology::Board) -> Vec<String> {
    let mut out = Vec::with_capacity(board.cell_count());
    for chart in 0..board.chart_count() as u8 {
        for y in (0..board.height()).rev() {
            for x in 0..board.width() {
                let c = board.cell(crate::topology::Square { chart, x, y });
                out.push(board.cell_name(c).to_string());
            }
        }
    }
    out
}
