//! Across the seams: ghost cells and seam-crossing routes.
//!
//! A *ghost* is drawn beyond a glued edge of a chart: the cell a step
//! across that edge reaches, with its piece, faded, and turned as the
//! gluing turns directions (mirrored across a reversing seam), so that a
//! player sees what lies beyond the edge without working it out. Ghosts
//! come from the board's own steps ([`Board::step`], and the two-order
//! rule for the corners), never from a second copy of the gluing: one
//! ghost per outer side of an edge cell that is glued, one per outer
//! corner whose diagonal the two-order rule allows, and one per staircase
//! edge (a small tab inside the cell, on the edge, since the cell beyond
//! the edge on the drawing is another one).
//!
//! A *crossing* is an action whose route (the family's own, see
//! [`crate::rules::drawing::Draw::action_routes`]) takes a step that is
//! not the drawing's plain neighbour: the route is drawn leaving through
//! the edge into the ghost of the cell it reaches and re-entering through
//! the partner edge.
//!
//! Every ghost carries the real cell's canonical name (`data-ghost-of`),
//! the edge cell and direction it stands beyond (`data-beside`,
//! `data-dir`) and the transport (`data-transport`); its turned content is
//! the group with `data-turn`, whose `transform` mirrors it. Ghosts are
//! drawn over the pieces and under the staircase labels (a tab lies on
//! its edge's label, which names the same cell); transparent
//! `data-ghost-hit` shapes drawn after the cells' own are what a pointer
//! finds. A page only shows, hides and lights them.

use crate::geometry::{Diagonal, diagonal};
use crate::rules::drawing::{Diagram, Route, RouteHop};
use crate::topology::{Board, CellId, Dir, Gluing, Transport};

use super::cells::draw_piece;
use super::svg::{self, Anchor, Canvas, num};
use super::{Layout, Square};

/// Whether and how a picture shows what lies across the seams.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub enum Across {
    /// Nothing: the picture as it always was.
    #[default]
    Off,
    /// Ghost cells and crossing routes, drawn and shown.
    Shown,
    /// Drawn but hidden (`display="none"`), for a page that shows the
    /// ghosts on request and the routes of the piece a player selects.
    Hidden,
}

/// Where a ghost stands.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum GhostKind {
    /// Beyond an outer side of a chart.
    Side,
    /// Beyond an outer corner of a chart.
    Corner,
    /// On a staircase edge inside a chart (genus two).
    Staircase,
}

impl GhostKind {
    pub fn name(self) -> &'static str {
        match self {
            GhostKind::Side => "side",
            GhostKind::Corner => "corner",
            GhostKind::Staircase => "staircase",
        }
    }
}

/// One ghost cell: beyond the edge of `beside` in direction `dir`, the
/// cell `of` that the step reaches, turned by `transport`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ghost {
    pub beside: String,
    pub dir: Dir,
    pub of: String,
    pub transport: Transport,
    pub kind: GhostKind,
}

/// The seam purple of the layout's arrows.
const SEAM: &str = "#6a1b9a";
/// A staircase tab's size, as a share of the cell.
const TAB: f64 = 0.5;

/// The cell at `c`'s position plus `d` on its own chart, if it is on it.
fn drawn_neighbour(board: &Board, c: CellId, d: Dir) -> Option<CellId> {
    let sq = board.square(c);
    let (dx, dy) = d.vector();
    let x = sq.x as i16 + dx as i16;
    let y = sq.y as i16 + dy as i16;
    let inside = |v: i16, n: u8| (0..n as i16).contains(&v);
    (inside(x, board.width()) && inside(y, board.height())).then(|| {
        board.cell(crate::topology::Square {
            chart: sq.chart,
            x: x as u8,
            y: y as u8,
        })
    })
}

/// Every ghost of `board`, in cell order and then direction order: none
/// on a board whose every side is boundary and that has no staircase.
pub fn ghosts(board: &Board) -> Vec<Ghost> {
    let mut out = Vec::new();
    for c in board.cells() {
        let sq = board.square(c);
        for d in Dir::ALL {
            let (dx, dy) = d.vector();
            let off_x = !(0..board.width() as i16).contains(&(sq.x as i16 + dx as i16));
            let off_y = !(0..board.height() as i16).contains(&(sq.y as i16 + dy as i16));
            let (step, kind) = if d.is_cardinal() {
                if off_x || off_y {
                    (board.step(c, d), GhostKind::Side)
                } else if board.is_transition(c, d) {
                    (board.step(c, d), GhostKind::Staircase)
                } else {
                    continue;
                }
            } else if off_x && off_y {
                match diagonal(board, c, d) {
                    Diagonal::Allowed(s) => (Some(s), GhostKind::Corner),
                    _ => continue,
                }
            } else {
                continue;
            };
            if let Some(s) = step {
                out.push(Ghost {
                    beside: board.cell_name(c).to_string(),
                    dir: d,
                    of: board.cell_name(s.to).to_string(),
                    transport: s.transport,
                    kind,
                });
            }
        }
    }
    out
}

/// Whether `board`'s pictures get a margin for ghosts on its east–west
/// and on its north–south sides.
pub(super) fn margins(board: &Board) -> (bool, bool) {
    let (ew, ns) = board.side_gluing();
    (ew != Gluing::Boundary, ns != Gluing::Boundary)
}

/// Where a ghost is drawn: a whole cell beyond a side or corner, a tab
/// against the edge inside the cell for a staircase.
fn ghost_square(g: &Ghost, sq: Square) -> Square {
    let (dx, dy) = g.dir.vector();
    let (dx, dy) = (dx as f64, dy as f64);
    match g.kind {
        GhostKind::Side | GhostKind::Corner => Square {
            x: sq.x + dx * sq.size,
            y: sq.y - dy * sq.size,
            size: sq.size,
        },
        GhostKind::Staircase => {
            let t = sq.size * TAB;
            let along = (sq.size - t) / 2.0;
            let far = sq.size - t;
            Square {
                x: sq.x
                    + if dx > 0.0 {
                        far
                    } else if dx < 0.0 {
                        0.0
                    } else {
                        along
                    },
                y: sq.y
                    + if dy > 0.0 {
                        0.0
                    } else if dy < 0.0 {
                        far
                    } else {
                        along
                    },
                size: t,
            }
        }
    }
}

/// The SVG `matrix` that turns a ghost's content about its drawn centre
/// as `t` turns directions: a horizontal flip mirrors left and right, a
/// vertical one top and bottom. Turning the whole board half round
/// commutes with both, so the drawn centre is all it needs.
fn turn_matrix(t: Transport, (cx, cy): (f64, f64)) -> String {
    let sx = if t.flip_x { -1.0 } else { 1.0 };
    let sy = if t.flip_y { -1.0 } else { 1.0 };
    format!(
        "matrix({} 0 0 {} {} {})",
        num(sx),
        num(sy),
        num(cx * (1.0 - sx)),
        num(cy * (1.0 - sy))
    )
}

/// Draws the ghosts of `board` for the cells `layout` placed, with the
/// pieces of `d`, in one `data-ghosts` group (hidden when `hidden`).
pub(super) fn draw_ghosts(
    c: &mut Canvas,
    board: &Board,
    d: &Diagram,
    layout: &Layout,
    hidden: bool,
) -> usize {
    let all = ghosts(board);
    if all.is_empty() {
        return 0;
    }
    c.raw(&format!(
        "<g data-ghosts=\"{}\"{}>\n",
        all.len(),
        if hidden { " display=\"none\"" } else { "" }
    ));
    for g in &all {
        let Some(&beside) = layout.cells.get(&g.beside) else {
            continue;
        };
        let sq = ghost_square(g, beside);
        c.raw(&format!(
            "<g data-ghost-of=\"{}\" data-beside=\"{}\" data-dir=\"{}\" data-transport=\"{}\" data-kind=\"{}\">\n",
            svg::escape(&g.of),
            svg::escape(&g.beside),
            g.dir.name(),
            g.transport.name(),
            g.kind.name()
        ));
        c.rect_with(
            sq.x,
            sq.y,
            sq.size,
            sq.size,
            "",
            &format!(
                "fill=\"#f3ecf7\" fill-opacity=\"{}\" stroke=\"{SEAM}\" stroke-width=\"1\" stroke-dasharray=\"3 2\"",
                // A tab stands on a real cell, whose piece shows through.
                if g.kind == GhostKind::Staircase { "0.8" } else { "1" }
            ),
        );
        let centre = c.at(sq.centre());
        c.raw(&format!(
            "<g data-turn=\"{}\" transform=\"{}\" opacity=\"0.55\">\n",
            g.transport.name(),
            turn_matrix(g.transport, centre)
        ));
        if let Some(p) = d.pieces.iter().find(|p| p.cell == g.of) {
            // The real piece's drawing, its labels renamed so that a page
            // finding a piece's arrow or cell by its data finds the real
            // one only.
            let mut piece = c.like();
            draw_piece(&mut piece, sq, p, d.shape, false);
            c.raw(&piece.into_string().replace(" data-", " data-ghost-"));
        }
        c.close_group();
        // A staircase tab lies under the edge's own label, which names
        // the same cell; a ghost beyond a side is named in its corner.
        if g.kind != GhostKind::Staircase {
            c.text_styled(
                (sq.x + 2.0, sq.y + 9.0),
                8.5,
                Anchor::Start,
                SEAM,
                "stroke=\"#ffffff\" stroke-width=\"2\" paint-order=\"stroke\"",
                &g.of,
            );
        }
        c.close_group();
    }
    c.close_group();
    all.len()
}

/// Transparent shapes over the ghosts, drawn after the cells' own shapes
/// (a staircase tab stands on a real cell), for a page's pointer to find:
/// each carries `data-ghost-hit` with the real cell's name, and the edge
/// cell and direction. Hidden with the ghosts when `hidden`.
pub(super) fn draw_ghost_hits(c: &mut Canvas, board: &Board, layout: &Layout, hidden: bool) {
    let all = ghosts(board);
    if all.is_empty() {
        return;
    }
    c.raw(&format!(
        "<g data-ghost-hits=\"\"{}>\n",
        if hidden { " display=\"none\"" } else { "" }
    ));
    for g in &all {
        let Some(&beside) = layout.cells.get(&g.beside) else {
            continue;
        };
        let sq = ghost_square(g, beside);
        c.rect_with(
            sq.x,
            sq.y,
            sq.size,
            sq.size,
            &format!(
                "data-ghost-hit=\"{}\" data-beside=\"{}\" data-dir=\"{}\"",
                svg::escape(&g.of),
                svg::escape(&g.beside),
                g.dir.name()
            ),
            "fill=\"#ffffff\" fill-opacity=\"0\" stroke=\"none\"",
        );
    }
    c.close_group();
}

/// Whether a hop of a route is drawn as a plain step to the next cell of
/// its chart; every other hop crosses a seam (a glued side, a corner, a
/// staircase edge).
fn plain(board: &Board, h: &RouteHop) -> bool {
    let (Ok(from), Ok(to)) = (board.parse_cell(&h.from), board.parse_cell(&h.to)) else {
        return true;
    };
    h.transport == Transport::IDENTITY && drawn_neighbour(board, from, h.dir) == Some(to)
}

/// Whether `route` crosses a seam anywhere.
pub fn crosses(board: &Board, route: &Route) -> bool {
    route.iter().any(|h| !plain(board, h))
}

/// How far past a cell's centre, in cells, a route leaving it across a
/// seam is drawn: to the ghost's centre beyond an outer side or corner,
/// just over the edge at a staircase.
fn reach(board: &Board, cell: &str, d: Dir) -> f64 {
    match board.parse_cell(cell) {
        Ok(c) if drawn_neighbour(board, c, d).is_none() => 1.0,
        _ => 0.62,
    }
}

fn offset(sq: Square, d: Dir, k: f64) -> (f64, f64) {
    let (dx, dy) = d.vector();
    let (cx, cy) = sq.centre();
    (cx + dx as f64 * k * sq.size, cy - dy as f64 * k * sq.size)
}

/// Draws, for each action whose routes cross a seam, those routes in one
/// `data-crossing` group (hidden when `hidden`): solid within a chart, a
/// ring where the route leaves through an edge (`data-exit`) and one
/// where it comes back in through the partner edge (`data-entry`), an
/// arrowhead on the destination. Returns how many actions were drawn.
pub(super) fn draw_crossings(
    c: &mut Canvas,
    board: &Board,
    layout: &Layout,
    actions: &[(String, Vec<Route>)],
    hidden: bool,
) -> usize {
    let mut drawn = 0;
    for (text, routes) in actions {
        let crossing: Vec<&Route> = routes.iter().filter(|r| crosses(board, r)).collect();
        let (Some(first), Some(last)) = (
            crossing.first().and_then(|r| r.first()),
            crossing.first().and_then(|r| r.last()),
        ) else {
            continue;
        };
        drawn += 1;
        c.raw(&format!(
            "<g data-crossing=\"{}\" data-from=\"{}\" data-to=\"{}\"{}>\n",
            svg::escape(text),
            svg::escape(&first.from),
            svg::escape(&last.to),
            if hidden { " display=\"none\"" } else { "" }
        ));
        for route in crossing {
            draw_route(c, board, layout, route);
        }
        c.close_group();
    }
    drawn
}

fn draw_route(c: &mut Canvas, board: &Board, layout: &Layout, route: &Route) {
    let at = |name: &str| layout.cells.get(name).copied();
    let Some(start) = route.first().and_then(|h| at(&h.from)) else {
        return;
    };
    let mut pieces: Vec<Vec<(f64, f64)>> = vec![vec![start.centre()]];
    let mut rings = Vec::new();
    for h in route {
        let (Some(from), Some(to)) = (at(&h.from), at(&h.to)) else {
            return;
        };
        if plain(board, h) {
            pieces
                .last_mut()
                .expect("one piece at least")
                .push(to.centre());
            continue;
        }
        let exit = offset(from, h.dir, reach(board, &h.from, h.dir));
        pieces.last_mut().expect("one piece at least").push(exit);
        // The route arrives in `to`'s frame moving the transported way,
        // so it comes in from the side opposite that direction.
        let arrival = h.transport.apply(h.dir);
        let back = arrival.opposite();
        let entry = offset(to, back, reach(board, &h.to, back));
        rings.push((
            exit,
            format!(
                "data-exit=\"{} {}\" data-exit-to=\"{}\"",
                svg::escape(&h.from),
                h.dir.name(),
                svg::escape(&h.to)
            ),
        ));
        rings.push((
            entry,
            format!(
                "data-entry=\"{} {}\" data-entry-from=\"{}\"",
                svg::escape(&h.to),
                back.name(),
                svg::escape(&h.from)
            ),
        ));
        pieces.push(vec![entry, to.centre()]);
    }
    let stroke = format!(
        "fill=\"none\" stroke=\"{SEAM}\" stroke-width=\"2.6\" stroke-opacity=\"0.85\" stroke-linecap=\"round\" stroke-linejoin=\"round\""
    );
    for p in &pieces {
        let points: Vec<String> = p
            .iter()
            .map(|&q| {
                let (x, y) = c.at(q);
                format!("{},{}", num(x), num(y))
            })
            .collect();
        c.raw(&format!(
            "<polyline data-route=\"\" points=\"{}\" {stroke}/>\n",
            points.join(" ")
        ));
    }
    for (p, data) in &rings {
        let (x, y) = c.at(*p);
        c.raw(&format!(
            "<circle {data} cx=\"{}\" cy=\"{}\" r=\"4\" fill=\"#ffffff\" stroke=\"{SEAM}\" stroke-width=\"2\"/>\n",
            num(x),
            num(y)
        ));
    }
    // An arrowhead on the destination, along the last segment.
    if let Some(last) = pieces.last()
        && last.len() >= 2
    {
        let (a, b) = (c.at(last[last.len() - 2]), c.at(last[last.len() - 1]));
        let (dx, dy) = (b.0 - a.0, b.1 - a.1);
        let len = (dx * dx + dy * dy).sqrt().max(1e-9);
        let (ux, uy) = (dx / len, dy / len);
        let size = start.size * 0.22;
        let base = (b.0 - ux * size, b.1 - uy * size);
        let (px, py) = (-uy * size * 0.5, ux * size * 0.5);
        c.raw(&format!(
            "<polygon points=\"{},{} {},{} {},{}\" fill=\"{SEAM}\" fill-opacity=\"0.85\"/>\n",
            num(b.0),
            num(b.1),
            num(base.0 + px),
            num(base.1 + py),
            num(base.0 - px),
            num(base.1 - py)
        ));
    }
}
