//! Across the seams: the ghost cells a picture draws beyond every glued
//! edge are the reference's own steps, drawn beside the edge they stand
//! beyond and turned as the step's transport turns directions; flat
//! boards have none; and the routes drawn for the moves that cross a seam
//! are the reference's walks, leaving through the edge into the ghost of
//! the cell they reach.

use std::collections::BTreeSet;

use proptest::prelude::*;
use seams::geometry::Geometry;
use seams::registry;
use seams::render::{GhostKind, Marks, crosses, ghosts, moves_from, render_svg};
use seams::spec::Library;
use seams::topology::file::AnyBoard;
use seams::topology::{Board, Dir, Gluing, Transport};
use seams::variant::At;

use crate::common::seams;

/// What one ghost should be: (beside, direction, real cell, transport).
type Expected = BTreeSet<(String, Dir, String, Transport)>;

/// The ghosts worked out from the reference's steps alone: every glued
/// outer side of an edge cell, every staircase edge, every outer corner
/// whose diagonal the two-order rule allows.
fn expected(geo: &Geometry) -> Expected {
    let b = geo.board();
    let mut out = Expected::new();
    for c in b.cells() {
        let sq = b.square(c);
        for d in Dir::ALL {
            let (dx, dy) = d.vector();
            let x = sq.x as i16 + dx as i16;
            let y = sq.y as i16 + dy as i16;
            let off_x = !(0..b.width() as i16).contains(&x);
            let off_y = !(0..b.height() as i16).contains(&y);
            let wanted = if d.is_cardinal() {
                off_x || off_y || b.is_transition(c, d)
            } else {
                off_x && off_y
            };
            if let (true, Some(s)) = (wanted, geo.step(c, d)) {
                out.insert((
                    b.cell_name(c).to_string(),
                    d,
                    b.cell_name(s.to).to_string(),
                    s.transport,
                ));
            }
        }
    }
    out
}

fn listed(b: &Board) -> Expected {
    ghosts(b)
        .into_iter()
        .map(|g| (g.beside, g.dir, g.of, g.transport))
        .collect()
}

#[test]
fn render_ghosts_are_the_reference_steps_on_every_board() {
    let lib = Library::builtin();
    let mut counts = Vec::new();
    for name in lib.board_names() {
        let geo = lib.geometry(name).expect("a shipped board");
        let b = geo.board();
        let all = ghosts(b);
        assert_eq!(listed(b), expected(geo), "{name}");
        assert_eq!(all.len(), expected(geo).len(), "{name}: a ghost twice");
        for g in &all {
            let c = b.parse_cell(&g.beside).expect("a canonical name");
            let s = geo.step(c, g.dir).expect("a ghost is a step");
            assert_eq!(b.cell_name(s.to), g.of, "{name}: {} {}", g.beside, g.dir);
            assert_eq!(s.transport, g.transport, "{name}: {} {}", g.beside, g.dir);
            let kind_ok = match g.kind {
                GhostKind::Staircase => b.is_transition(c, g.dir),
                GhostKind::Corner => !g.dir.is_cardinal(),
                GhostKind::Side => g.dir.is_cardinal(),
            };
            assert!(kind_ok, "{name}: {g:?}");
        }
        let (ew, ns) = b.side_gluing();
        if ew == Gluing::Boundary && ns == Gluing::Boundary && b.chart_count() == 1 {
            assert!(all.is_empty(), "{name}: a flat board has no ghosts");
        }
        counts.push((name.to_string(), all.len()));
    }
    // The shipped boards, counted: two side columns (and rows where the
    // top and bottom are glued too), the corners the two-order rule
    // allows, and on genus two each sheet's margin and its 44 staircase
    // edges.
    let count = |n: &str| counts.iter().find(|(b, _)| b == n).map(|(_, k)| *k);
    assert_eq!(count("mobius-10x9"), Some(18));
    assert_eq!(count("mobius-9x11"), Some(22));
    assert_eq!(count("klein-9x18"), Some(58));
    assert_eq!(count("klein-9x14"), Some(50));
    assert_eq!(count("genus2-9x9"), Some(124));
    assert_eq!(count("flat-8x8"), Some(0));
    assert_eq!(count("flat-9x9"), Some(0));
    assert_eq!(count("flat-5x5"), Some(0));
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]
    /// On every rectangle gluing the ghosts are the steps across its glued
    /// sides and allowed corners, and none where every side is boundary.
    #[test]
    fn render_ghosts_follow_random_gluings(
        w in 2u8..=10, h in 2u8..=10,
        ew in prop_oneof![Just(Gluing::Boundary), Just(Gluing::Translate), Just(Gluing::TranslateReversed)],
        ns in prop_oneof![Just(Gluing::Boundary), Just(Gluing::Translate), Just(Gluing::TranslateReversed)],
    ) {
        let b = Board::rectangle(w, h, ew, ns);
        let geo = Geometry::new(b.clone());
        prop_assert_eq!(listed(&b), expected(&geo));
        let sides = |g: Gluing, n: u8| if g == Gluing::Boundary { 0 } else { 2 * n as usize };
        let corners = ghosts(&b).iter().filter(|g| g.kind == GhostKind::Corner).count();
        prop_assert_eq!(ghosts(&b).len(), sides(ew, h) + sides(ns, w) + corners);
    }
}

/// The value of attribute `name` in the tag that starts `text`.
fn attr<'t>(text: &'t str, name: &str) -> Option<&'t str> {
    let tag = &text[..text.find('>')?];
    let start = tag.find(&format!(" {name}=\""))? + name.len() + 3;
    let len = tag[start..].find('"')?;
    Some(&tag[start..start + len])
}

fn num(text: &str, name: &str) -> f64 {
    attr(text, name)
        .and_then(|v| v.parse().ok())
        .unwrap_or_else(|| panic!("no number {name} in {}", &text[..text.len().min(200)]))
}

/// The group that starts at `at` (an index of `<g`), whole.
fn group(svg: &str, at: usize) -> &str {
    let mut depth = 0;
    let mut i = at;
    loop {
        let open = svg[i..].find("<g").map(|k| i + k);
        let close = svg[i..].find("</g>").map(|k| i + k).expect("closed");
        match open {
            Some(o) if o < close => {
                depth += 1;
                i = o + 2;
            }
            _ => {
                depth -= 1;
                i = close + 4;
                if depth == 0 {
                    return &svg[at..i];
                }
            }
        }
    }
}

/// Every group starting with `<g {marker}`, whole.
fn groups<'s>(svg: &'s str, marker: &str) -> Vec<&'s str> {
    let needle = format!("<g {marker}");
    svg.match_indices(&needle)
        .map(|(i, _)| group(svg, i))
        .collect()
}

/// A rectangle's (x, y, size) from its tag.
fn rect(tag: &str) -> (f64, f64, f64) {
    (num(tag, "x"), num(tag, "y"), num(tag, "width"))
}

/// The cell shape of `cell`.
fn cell_rect(svg: &str, cell: &str) -> (f64, f64, f64) {
    let at = svg
        .find(&format!("<rect data-cell=\"{cell}\""))
        .unwrap_or_else(|| panic!("no shape for {cell}"));
    rect(&svg[at..])
}

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() < 0.11
}

/// Checks every ghost of a picture against the reference: its attributes
/// are a step of the board, it stands beyond its edge cell in its
/// direction (against it for a staircase), its content is turned about
/// its own centre as the transport turns directions, and it shows a piece
/// exactly where the real cell holds one.
fn check_picture(variant: &str, svg: &str, flip: bool) -> usize {
    let v = registry::find(variant).expect("registered");
    let d = v.diagram(&At::default()).expect("pictured");
    let AnyBoard::Charts(b) = &d.board else {
        panic!("{variant} is drawn in charts")
    };
    let geo = Geometry::new(b.clone());
    let drawn = groups(svg, "data-ghost-of=");
    assert_eq!(
        drawn.len(),
        ghosts(b).len(),
        "{variant}: one group per ghost"
    );
    let mut seen = Expected::new();
    for g in &drawn {
        let of = attr(g, "data-ghost-of").unwrap();
        let beside = attr(g, "data-beside").unwrap();
        let dir = Dir::parse(attr(g, "data-dir").unwrap()).unwrap();
        let transport = Transport::parse(attr(g, "data-transport").unwrap()).unwrap();
        let kind = attr(g, "data-kind").unwrap();
        let c = b.parse_cell(beside).unwrap();
        let s = geo.step(c, dir).expect("a ghost is a step");
        assert_eq!(
            (b.cell_name(s.to), s.transport),
            (of, transport),
            "{variant}: {g}"
        );
        seen.insert((beside.to_string(), dir, of.to_string(), transport));

        // Where it stands.
        let body = &g[g.find("<rect").expect("a ghost's square")..];
        let (x, y, size) = rect(body);
        let (cx, cy, cs) = cell_rect(svg, beside);
        let (dx, dy) = dir.vector();
        let (sx, sy) = if flip { (-1.0, 1.0) } else { (1.0, -1.0) };
        if kind == "staircase" {
            assert!(
                size < cs && x >= cx - 0.1 && y >= cy - 0.1,
                "{variant}: {g}"
            );
            assert!(x + size <= cx + cs + 0.1 && y + size <= cy + cs + 0.1);
            // Against the edge it stands for, as the screen shows it.
            let (screen_dx, screen_dy) = (sx * dx as f64, sy * dy as f64);
            let edge_x = match screen_dx {
                v if v > 0.0 => close(x + size, cx + cs),
                v if v < 0.0 => close(x, cx),
                _ => true,
            };
            let edge_y = match screen_dy {
                v if v > 0.0 => close(y + size, cy + cs),
                v if v < 0.0 => close(y, cy),
                _ => true,
            };
            assert!(edge_x && edge_y, "{variant}: {beside} {dir}: {g}");
        } else {
            assert!(close(size, cs), "{variant}: {g}");
            assert!(
                close(x, cx + sx * dx as f64 * cs) && close(y, cy + sy * dy as f64 * cs),
                "{variant}: the ghost of {beside} {dir} at ({x}, {y}), the cell at ({cx}, {cy})"
            );
        }

        // How it is turned: a mirror of each flipped axis about the
        // ghost's own centre.
        let turn = &g[g.find("<g data-turn=").expect("turned content")..];
        assert_eq!(attr(turn, "data-turn"), Some(transport.name()));
        let m: Vec<f64> = attr(turn, "transform")
            .and_then(|t| t.strip_prefix("matrix(")?.strip_suffix(')'))
            .expect("a matrix")
            .split(' ')
            .map(|v| v.parse().unwrap())
            .collect();
        let want = |flipped: bool| if flipped { -1.0 } else { 1.0 };
        assert_eq!(
            (m[0], m[1], m[2], m[3]),
            (want(transport.flip_x), 0.0, 0.0, want(transport.flip_y)),
            "{variant}: {beside} {dir} {transport}"
        );
        let (gx, gy) = (x + size / 2.0, y + size / 2.0);
        assert!(close(m[4], gx * (1.0 - m[0])) && close(m[5], gy * (1.0 - m[3])));

        // The real cell's piece, or nothing.
        let content = group(turn, 0);
        let inner = &content[content.find('>').unwrap() + 1..content.len() - 4];
        let piece = d.pieces.iter().any(|p| p.cell == of);
        assert_eq!(inner.contains('<'), piece, "{variant}: the ghost of {of}");
        assert!(!inner.contains(" data-on="), "a ghost names no real piece");
    }
    assert_eq!(seen, listed(b), "{variant}");
    drawn.len()
}

#[test]
fn render_ghosts_drawn_on_every_surface_variant_match_the_steps() {
    for v in registry::variants() {
        let d = v.diagram(&At::default()).unwrap();
        let AnyBoard::Charts(b) = &d.board else {
            continue;
        };
        for flip in [false, true] {
            let marks = Marks {
                ghosts: true,
                flip,
                ..Marks::default()
            };
            let svg = render_svg(v.as_ref(), &At::default(), &marks).unwrap();
            let n = check_picture(v.name(), &svg, flip);
            assert_eq!(n, ghosts(b).len());
            let hits = svg.matches("data-ghost-hit=").count();
            assert_eq!(hits, n, "{}: one pointer shape per ghost", v.name());
            if n > 0 {
                assert!(svg.contains("ghost cell: what a step across the edge reaches"));
            }
        }
    }
}

#[test]
fn render_ghosts_leave_flat_boards_and_the_tetrahedron_as_they_were() {
    for name in [
        "chess-flat",
        "shogi-flat",
        "kyoto",
        "tetra-shogi",
        "tetra-hexgi",
    ] {
        let v = registry::find(name).unwrap();
        let at = At::default();
        let plain = render_svg(v, &at, &Marks::default()).unwrap();
        let ghosted = render_svg(
            v,
            &at,
            &Marks {
                ghosts: true,
                ..Marks::default()
            },
        )
        .unwrap();
        assert_eq!(plain, ghosted, "{name}");
        assert!(!ghosted.contains("data-ghost"), "{name}");
    }
}

/// Every route of every legal move of the start of `variant` (and after
/// `moves`) is a walk of the reference: hops chained from the origin to
/// the destination, each one the board's step.
fn check_routes(variant: &str, moves: &[String]) -> usize {
    let v = registry::find(variant).unwrap();
    let at = At {
        position: None,
        moves,
    };
    let d = v.diagram(&at).unwrap();
    let AnyBoard::Charts(b) = &d.board else {
        panic!("charts")
    };
    let geo = Geometry::new(b.clone());
    let legal = v.legal_actions(&at).unwrap();
    let marks = v.action_marks(&at, &legal).unwrap();
    let routes = v.action_routes(&at, &legal).unwrap();
    let mut crossing = 0;
    for ((text, mark), routes) in legal.iter().zip(marks).zip(routes) {
        let mark = mark.unwrap();
        let Some(from) = mark.from else {
            assert!(routes.is_empty(), "{variant}: a drop has no route");
            continue;
        };
        if !text.starts_with('O') {
            assert!(!routes.is_empty(), "{variant}: {text} has no route");
        }
        for r in &routes {
            assert_eq!(r.first().map(|h| h.from.as_str()), Some(from.as_str()));
            assert_eq!(r.last().map(|h| h.to.as_str()), Some(mark.to.as_str()));
            for pair in r.windows(2) {
                assert_eq!(pair[0].to, pair[1].from, "{variant}: {text}");
            }
            for h in r {
                let c = b.parse_cell(&h.from).unwrap();
                let s = geo.step(c, h.dir).expect("a hop is a step");
                assert_eq!(
                    (b.cell_name(s.to), s.transport),
                    (h.to.as_str(), h.transport),
                    "{variant}: {text}"
                );
            }
        }
        if routes.iter().any(|r| crosses(b, r)) {
            crossing += 1;
        }
    }
    crossing
}

#[test]
fn render_crossing_routes_are_the_reference_walks() {
    let klein: Vec<String> = ["h5-d1"].iter().map(|s| s.to_string()).collect();
    assert!(
        check_routes("chess-klein", &[]) > 0,
        "the Klein bishops cross"
    );
    check_routes("chess-klein", &klein);
    check_routes("chess-mobius", &[]);
    check_routes("chess-genus2", &[]);
    check_routes("shogi-klein", &[]);
    check_routes("shogi-mobius", &[]);
    check_routes("shogi-genus2", &[]);
    let flat = check_routes("chess-flat", &[]);
    assert_eq!(flat, 0, "nothing crosses on a flat board");
}

#[test]
fn render_crossings_leave_through_the_edge_into_the_ghost_they_reach() {
    // The bishop on h5 of the Klein start reaches across both side seams.
    let v = registry::find("chess-klein").unwrap();
    let at = At::default();
    let mut marks = moves_from(v, &at, "h5").unwrap();
    marks.ghosts = true;
    let svg = render_svg(v, &at, &marks).unwrap();
    let legal = v.legal_actions(&at).unwrap();
    let routes = v.action_routes(&at, &legal).unwrap();
    let d = v.diagram(&at).unwrap();
    let AnyBoard::Charts(b) = &d.board else {
        panic!("charts")
    };
    let want: BTreeSet<&str> = legal
        .iter()
        .zip(&routes)
        .filter(|(t, r)| t.starts_with("h5-") && r.iter().any(|r| crosses(b, r)))
        .map(|(t, _)| t.as_str())
        .collect();
    let drawn: BTreeSet<&str> = groups(&svg, "data-crossing=")
        .iter()
        .map(|g| attr(g, "data-crossing").unwrap())
        .collect();
    assert!(!want.is_empty());
    assert_eq!(drawn, want);
    assert!(svg.contains("a move across a seam: it leaves through the edge"));
    let ghost_rects: Vec<(String, (f64, f64, f64))> = groups(&svg, "data-ghost-of=")
        .iter()
        .map(|g| {
            (
                attr(g, "data-ghost-of").unwrap().to_string(),
                rect(&g[g.find("<rect").unwrap()..]),
            )
        })
        .collect();
    let inside = |(px, py): (f64, f64), (x, y, s): (f64, f64, f64)| {
        px > x && px < x + s && py > y && py < y + s
    };
    let mut exits = 0;
    for g in groups(&svg, "data-crossing=") {
        for (i, _) in g.match_indices("<circle data-exit=") {
            let ring = &g[i..];
            let to = attr(ring, "data-exit-to").unwrap();
            let p = (num(ring, "cx"), num(ring, "cy"));
            assert!(
                ghost_rects.iter().any(|(of, r)| of == to && inside(p, *r)),
                "the exit toward {to} is not in its ghost"
            );
            exits += 1;
        }
        // Every exit has its entry, on the partner edge.
        assert_eq!(
            g.matches("<circle data-exit=").count(),
            g.matches("<circle data-entry=").count()
        );
    }
    assert!(exits >= want.len());
    // Hidden for a page, the same routes are drawn, out of sight.
    let placed = v.action_marks(&at, &legal).unwrap();
    let overlay = seams::render::Overlay {
        across: seams::render::Across::Hidden,
        marks: placed
            .into_iter()
            .map(|m| (m.unwrap(), seams::render::MarkKind::Legal))
            .collect(),
        routes: legal.iter().cloned().zip(routes).collect(),
        ..Default::default()
    };
    let hidden = seams::render::render_diagram_svg(&d, &overlay);
    for g in groups(&hidden, "data-crossing=") {
        assert_eq!(attr(g, "display"), Some("none"));
    }
    assert_eq!(
        attr(
            &hidden[hidden.find("<g data-ghosts=").unwrap()..],
            "display"
        ),
        Some("none")
    );
    assert!(!hidden.contains("ghost cell: what a step"));
}

#[test]
fn render_ghosts_on_the_command_line() {
    let help = seams(&["render", "--help"]);
    assert!(help.stdout.contains("--ghosts"), "{}", help.stdout);
    assert!(help.stdout.contains("ghost cells beyond every glued edge"));
    let run = seams(&["render", "chess-klein", "--ghosts", "--moves-from", "h5"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(run.stdout.matches("<g data-ghost-of=").count(), 58);
    assert!(run.stdout.contains("<g data-crossing=\"h5-"));
    let plain = seams(&["render", "chess-klein", "--moves-from", "h5"]);
    assert!(!plain.stdout.contains("data-ghost"));
    assert!(!plain.stdout.contains("data-crossing"));
}
