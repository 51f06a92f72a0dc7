//! Pictures: every variant renders to an SVG that parses and rasterizes to
//! something visible; the SVG text is pinned by snapshots; marks of every
//! kind are drawn distinctly; bad input gives clear errors; and the README
//! pictures are what `seams render` draws now.

use crate::common::{check_input_error, seams};
use seams::registry;
use seams::render::{MarkKind, Marks, RenderError, moves_from, render_svg};
use seams::variant::{self, At, VariantError};

/// Parses `svg` and rasterizes it; returns how many pixels are not the
/// white background, and the share they are of the picture.
fn ink(svg: &str) -> (usize, f64) {
    let tree = resvg::usvg::Tree::from_str(svg, &resvg::usvg::Options::default())
        .unwrap_or_else(|e| panic!("the SVG parses: {e}"));
    let size = tree.size().to_int_size();
    let mut pixmap = resvg::tiny_skia::Pixmap::new(size.width(), size.height())
        .expect("a picture has a non-zero size");
    resvg::render(
        &tree,
        resvg::tiny_skia::Transform::default(),
        &mut pixmap.as_mut(),
    );
    let pixels = pixmap.pixels();
    let inked = pixels
        .iter()
        .filter(|p| p.alpha() > 0 && (p.red() < 240 || p.green() < 240 || p.blue() < 240))
        .count();
    (inked, inked as f64 / pixels.len() as f64)
}

#[test]
fn every_variant_start_position_rasterizes_to_a_visible_picture() {
    for v in registry::variants() {
        let svg = render_svg(v.as_ref(), &At::default(), &Marks::default())
            .unwrap_or_else(|e| panic!("{} renders: {e}", v.name()));
        let (_, share) = ink(&svg);
        assert!(
            share > 0.05,
            "{}: only {:.3} of the pixels are drawn",
            v.name(),
            share
        );
    }
}

#[test]
fn every_variant_start_position_svg_is_pinned() {
    for v in registry::variants() {
        let svg = render_svg(v.as_ref(), &At::default(), &Marks::default())
            .expect("every variant renders");
        insta::assert_snapshot!(format!("start-{}", v.name()), svg);
    }
}

#[test]
fn moves_from_a_cell_are_pinned() {
    // The rook on i2 reaches a10 across the Möbius side seam.
    let v = registry::find("shogi-mobius").expect("registered");
    let moves: Vec<String> = ["i2-i3", "b9-b8", "h2-i2", "b8-b7"]
        .map(String::from)
        .to_vec();
    let at = At {
        position: None,
        moves: &moves,
    };
    let marks = moves_from(v, &at, "i2").expect("i2 is a cell");
    let texts: Vec<&str> = marks.actions.iter().map(|(t, _)| t.as_str()).collect();
    assert!(texts.contains(&"i2-a10+"), "{texts:?}");
    assert!(marks.actions.iter().all(|(_, k)| *k == MarkKind::Legal));
    let svg = render_svg(v, &at, &marks).expect("renders");
    assert!(ink(&svg).1 > 0.05);
    insta::assert_snapshot!("moves-from-shogi-mobius-i2", svg);
}

/// How often each mark kind's colour is used as a mark (fill or stroke).
fn count(svg: &str, needle: &str) -> usize {
    svg.matches(needle).count()
}

/// Framed cells (an audit line's pieces) get a frame each, labelled with
/// their cell, and a legend line with the caller's words; a cell the
/// board lacks is listed, not drawn, and spoils nothing.
#[test]
fn framed_cells_are_drawn_with_their_words() {
    let v = registry::find("chess-flat").expect("registered");
    let marks = Marks {
        framed: vec![
            ("e1".into(), "king (K)".into()),
            ("e2".into(), "shield, pinned (P)".into()),
            ("z9".into(), "slider".into()),
        ],
        ..Marks::default()
    };
    let svg = render_svg(v, &At::default(), &marks).expect("renders");
    assert_eq!(count(&svg, "data-framed="), 2, "{svg}");
    assert!(svg.contains("data-framed=\"e1\"") && svg.contains("data-framed=\"e2\""));
    for line in [
        "e1: king (K)",
        "e2: shield, pinned (P)",
        "not on the picture:",
    ] {
        assert!(svg.contains(line), "no legend line '{line}'");
    }
    assert!(svg.contains("z9 ("), "the bad cell is listed: {svg}");
    let tree = resvg::usvg::Tree::from_str(&svg, &resvg::usvg::Options::default());
    assert!(tree.is_ok(), "{:?}", tree.err());
}

#[test]
fn mark_kinds_are_drawn_distinctly_and_unplaceable_texts_are_listed() {
    let v = registry::find("shogi-klein").expect("registered");
    let at = At::default();
    let plain = render_svg(v, &at, &Marks::default()).expect("renders");
    let marks = Marks {
        from: Some("e6".into()),
        actions: vec![
            ("e6-e7".into(), MarkKind::Legal),
            ("e6-e7".into(), MarkKind::Missing),
            // Not legal: placed by its cells all the same, both facings.
            ("e6-e8^".into(), MarkKind::Unexpected),
            ("e6-e8v".into(), MarkKind::Unexpected),
            ("castle-sideways".into(), MarkKind::Unexpected),
        ],
        caption: Some("a caption".into()),
        flip: false,
        framed: vec![],
        ghosts: false,
    };
    let svg = render_svg(v, &at, &marks).expect("renders");
    assert!(count(&svg, "fill=\"#1e9e45\"") > count(&plain, "fill=\"#1e9e45\""));
    assert!(
        count(&svg, "stroke=\"#1f5fd6\"") >= 2,
        "missing ring and its legend"
    );
    // Two crosses of two strokes each on the board, one in the legend.
    assert_eq!(count(&svg, "stroke=\"#d62020\""), 6, "{svg}");
    for text in [
        "legal destination",
        "expected destination the engine did not give",
        "destination the engine gave but was not expected",
        "castle-sideways",
        "a caption",
        "moves from e6",
    ] {
        assert!(svg.contains(text), "legend lacks '{text}'");
    }
    // Both facings of one destination are shown, as two triangles in the
    // unexpected colour beside the two crosses.
    assert!(count(&svg, "<polygon points=") >= count(&plain, "<polygon points=") + 2);
    assert!(ink(&svg).0 > ink(&plain).0);
}

#[test]
fn bad_questions_are_typed_errors_carrying_the_value() {
    let v = registry::find("chess-klein").expect("registered");
    let bad_cell = Marks {
        from: Some("z99".into()),
        ..Marks::default()
    };
    match render_svg(v, &At::default(), &bad_cell) {
        Err(RenderError::FromCell { cell, .. }) => assert_eq!(cell, "z99"),
        other => panic!("expected a bad-cell error, got {other:?}"),
    }
    match moves_from(v, &At::default(), "q1") {
        Err(RenderError::FromCell { cell, .. }) => assert_eq!(cell, "q1"),
        other => panic!("expected a bad-cell error, got {other:?}"),
    }
    let bad_position = At {
        position: Some("not a position"),
        moves: &[],
    };
    assert!(matches!(
        render_svg(v, &bad_position, &Marks::default()),
        Err(RenderError::Variant(VariantError::Position(_)))
    ));
    let moves = vec!["a1-a1".to_string()];
    let bad_move = At {
        position: None,
        moves: &moves,
    };
    assert!(matches!(
        render_svg(v, &bad_move, &Marks::default()),
        Err(RenderError::Variant(VariantError::Move { ply: 1, .. }))
    ));
}

#[test]
fn tetrahedral_cells_and_kyoto_faces_are_drawn() {
    let tetra = registry::find("tetra-shogi").expect("registered");
    let svg = render_svg(tetra, &At::default(), &Marks::default()).expect("renders");
    for r in 1..=9 {
        assert!(svg.contains(&format!(">rank {r}<")), "rank {r} is labelled");
    }
    assert!(svg.contains("bishop binding"));
    let kyoto = registry::find("kyoto").expect("registered");
    let svg = render_svg(kyoto, &At::default(), &Marks::default()).expect("renders");
    assert!(svg.contains("the token's other face"));
}

// The command line.

fn temp(tag: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("seams-render-{}-{tag}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir
}

#[test]
fn render_writes_stdout_or_a_file() {
    let r = seams(&["render", "kyoto"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(r.stdout.starts_with("<svg"), "{}", r.stdout);
    let dir = temp("ok");
    let out = dir.join("k.svg");
    let r = seams(&["render", "kyoto", "--out", out.to_str().expect("utf-8")]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(r.stdout.is_empty());
    let written = std::fs::read_to_string(&out).expect("the picture is written");
    assert_eq!(written, seams(&["render", "kyoto"]).stdout);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn render_input_errors() {
    check_input_error(&["render", "checkers"], "unknown variant 'checkers'");
    check_input_error(
        &["render", "shogi-flat", "--position", "x y z"],
        "bad position",
    );
    check_input_error(
        &["render", "shogi-flat", "--moves", "e3-e9"],
        "move 1 'e3-e9' cannot be played",
    );
    check_input_error(
        &["render", "shogi-genus2", "--moves-from", "e5"],
        "bad cell 'e5'",
    );
    check_input_error(
        &["render", "tetra-shogi", "--moves-from", "e5.9"],
        "bad cell 'e5.9'",
    );
}

#[test]
fn render_output_errors_leave_no_file() {
    let dir = temp("bad-out");
    let missing = dir.join("no-such-folder").join("p.svg");
    check_input_error(
        &["render", "kyoto", "--out", missing.to_str().expect("utf-8")],
        "does not exist",
    );
    assert!(!missing.exists());
    // A folder where the file should go.
    let folder = dir.join("taken.svg");
    std::fs::create_dir_all(&folder).expect("dir");
    check_input_error(
        &["render", "kyoto", "--out", folder.to_str().expect("utf-8")],
        "is a folder, not a file",
    );
    let left: Vec<_> = std::fs::read_dir(&dir)
        .expect("listable")
        .map(|e| e.expect("entry").file_name())
        .collect();
    assert_eq!(left.len(), 1, "no temporary file is left: {left:?}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn readme_pictures_are_current() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let script =
        std::fs::read_to_string(root.join("tools/pictures.sh")).expect("tools/pictures.sh");
    let mut checked = 0;
    for line in script.lines().filter(|l| l.starts_with("seams render ")) {
        let words: Vec<&str> = line.split_whitespace().skip(1).collect();
        let at = words
            .iter()
            .position(|w| *w == "--out")
            .expect("each picture line names its --out file");
        let file = words[at + 1];
        let mut args = words.clone();
        args.drain(at..at + 2);
        let r = seams(&args);
        assert_eq!(r.code, 0, "{line}: {}", r.stderr);
        let committed = std::fs::read_to_string(root.join(file))
            .unwrap_or_else(|e| panic!("{file}: {e}; run tools/pictures.sh"));
        assert!(
            committed == r.stdout,
            "{file} is stale: run tools/pictures.sh"
        );
        checked += 1;
    }
    assert!(checked >= 4, "the script lists the README pictures");
}

#[test]
fn loose_marks_place_action_texts_by_their_cells() {
    use seams::movement::Facing;
    use seams::render::loose_mark;
    let board = |name: &str| {
        registry::find(name)
            .expect("registered")
            .diagram(&At::default())
            .expect("pictured")
            .board
    };
    // (variant, text, from, to, facing, drop, promote); `None` for `to`
    // means the text cannot be placed.
    #[allow(clippy::type_complexity)]
    let table: &[(
        &str,
        &str,
        Option<&str>,
        Option<&str>,
        Option<Facing>,
        Option<&str>,
        bool,
    )] = &[
        (
            "chess-flat",
            "e2-e4",
            Some("e2"),
            Some("e4"),
            None,
            None,
            false,
        ),
        (
            "chess-flat",
            "e7-e8=Q",
            Some("e7"),
            Some("e8"),
            None,
            None,
            true,
        ),
        ("chess-flat", "O-O", None, None, None, None, false),
        (
            "chess-mobius",
            "e2-e4v",
            Some("e2"),
            Some("e4"),
            Some(Facing::Down),
            None,
            false,
        ),
        (
            "shogi-klein",
            "e6-e7^",
            Some("e6"),
            Some("e7"),
            Some(Facing::Up),
            None,
            false,
        ),
        (
            "shogi-flat",
            "e6-e7=",
            Some("e6"),
            Some("e7"),
            None,
            None,
            false,
        ),
        (
            "shogi-flat",
            "e6-e7+",
            Some("e6"),
            Some("e7"),
            None,
            None,
            true,
        ),
        (
            "shogi-flat",
            "P*e5",
            None,
            Some("e5"),
            None,
            Some("P"),
            false,
        ),
        (
            "shogi-genus2",
            "I:a4-II:a5",
            Some("I:a4"),
            Some("II:a5"),
            None,
            None,
            false,
        ),
        ("shogi-genus2", "a4-a5", None, None, None, None, false),
        (
            "tetra-shogi",
            "c3.2-c4.2+",
            Some("c3.2"),
            Some("c4.2"),
            None,
            None,
            true,
        ),
        (
            "tetra-shogi",
            "P*c5.3",
            None,
            Some("c5.3"),
            None,
            Some("P"),
            false,
        ),
        ("kyoto", "T*c3", None, Some("c3"), None, Some("T"), false),
        ("kyoto", "nonsense", None, None, None, None, false),
    ];
    for &(v, text, from, to, facing, drop, promote) in table {
        let got = loose_mark(&board(v), text);
        match to {
            None => assert!(got.is_none(), "{v} '{text}' placed as {got:?}"),
            Some(to) => {
                let m = got.unwrap_or_else(|| panic!("{v} '{text}' is placed"));
                assert_eq!(m.from.as_deref(), from, "{v} '{text}'");
                assert_eq!(m.to, to, "{v} '{text}'");
                assert_eq!(m.facing, facing, "{v} '{text}'");
                assert_eq!(m.drop.as_deref(), drop, "{v} '{text}'");
                assert_eq!(m.promote, promote, "{v} '{text}'");
            }
        }
    }
}

/// A deterministic walk of `plies` actions from the start.
fn walk(v: &dyn variant::Variant, plies: usize) -> Vec<Vec<String>> {
    let mut out = vec![vec![]];
    let mut moves: Vec<String> = vec![];
    for ply in 0..plies {
        let legal = v
            .legal_actions(&At {
                position: None,
                moves: &moves,
            })
            .expect("the walk stays legal");
        if legal.is_empty() {
            break;
        }
        moves.push(legal[(ply * 7 + 3) % legal.len()].clone());
        out.push(moves.clone());
    }
    out
}

#[test]
fn marks_agree_with_the_diagram_after_the_action() {
    for v in registry::variants() {
        let v = v.as_ref();
        for moves in walk(v, 6) {
            let at = At {
                position: None,
                moves: &moves,
            };
            let before = v.diagram(&at).expect("pictured");
            let legal = v.legal_actions(&at).expect("legal");
            let marks = v.action_marks(&at, &legal).expect("marks");
            for (text, mark) in legal.iter().zip(marks) {
                let mark = mark.unwrap_or_else(|e| panic!("{} {text}: {e}", v.name()));
                if let Some(from) = &mark.from {
                    let piece = before.pieces.iter().find(|p| &p.cell == from);
                    assert!(
                        piece.is_some_and(|p| p.owner == before.to_move),
                        "{} {text}: the mover stands on {from}",
                        v.name()
                    );
                }
                let mut next = moves.clone();
                next.push(text.clone());
                let after = v
                    .diagram(&At {
                        position: None,
                        moves: &next,
                    })
                    .expect("pictured");
                let landed = after
                    .pieces
                    .iter()
                    .find(|p| p.cell == mark.to)
                    .unwrap_or_else(|| panic!("{} {text}: a piece on {}", v.name(), mark.to));
                assert_eq!(landed.owner, before.to_move, "{} {text}", v.name());
                if let Some(f) = mark.facing {
                    assert_eq!(landed.facing, Some(f), "{} {text}: facing", v.name());
                }
                if let Some(d) = &mark.drop {
                    assert_eq!(&landed.label, d, "{} {text}: dropped kind", v.name());
                }
            }
        }
    }
}

#[test]
fn diagrams_name_cells_of_their_board_once() {
    for v in registry::variants() {
        let d = v.diagram(&At::default()).expect("pictured");
        let mut seen = std::collections::BTreeSet::new();
        for p in &d.pieces {
            let canonical = seams::render::canonical_cell(&d.board, &p.cell)
                .unwrap_or_else(|e| panic!("{}: {e}", v.name()));
            assert_eq!(canonical, p.cell, "{}: canonical names", v.name());
            assert!(
                seen.insert(p.cell.clone()),
                "{}: {} twice",
                v.name(),
                p.cell
            );
        }
        let zones = d.sides.iter().map(|s| s.zone.len()).sum::<usize>();
        let kyoto = v.name().starts_with("kyoto");
        assert_eq!(zones == 0, kyoto, "{}: promotion zones", v.name());
    }
}

#[test]
fn the_help_example_draws_moves() {
    let r = seams(&[
        "render",
        "shogi-klein",
        "--moves",
        "e6-e7,e13-e12",
        "--moves-from",
        "e7",
    ]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(r.stdout.contains("moves from e7<"), "{}", r.stdout);
    assert!(r.stdout.contains("legal destination"));
}

// What a page reads from a picture: cell shapes, neighbours, groups.

/// The SVG's elements, each as its text from `<` up to its closing `>`.
fn elements(svg: &str) -> Vec<&str> {
    svg.split('<')
        .skip(1)
        .map(|e| e.split('>').next().unwrap_or_default())
        .collect()
}

/// The value of attribute `name` in an element's text.
fn attr<'s>(element: &'s str, name: &str) -> Option<&'s str> {
    let key = format!(" {name}=\"");
    let at = element.find(&key)? + key.len();
    element[at..].split('"').next()
}

fn number(element: &str, name: &str) -> f64 {
    attr(element, name)
        .and_then(|v| v.parse().ok())
        .unwrap_or_else(|| panic!("{name} in <{element}>"))
}

/// Every cell name of a diagram's board.
fn cell_names(board: &seams::topology::file::AnyBoard) -> Vec<String> {
    use seams::topology::file::AnyBoard;
    match board {
        AnyBoard::Charts(b) => b.cells().map(|c| b.cell_name(c).to_string()).collect(),
        AnyBoard::Tetrahedron(t) => t.cells().map(|c| t.cell_name(c).to_string()).collect(),
    }
}

/// The `data-cell` shapes: cell name → the shape's element.
fn cell_shapes(svg: &str) -> std::collections::BTreeMap<String, Vec<&str>> {
    let mut out: std::collections::BTreeMap<String, Vec<&str>> = Default::default();
    for e in elements(svg) {
        if let Some(cell) = attr(e, "data-cell") {
            out.entry(cell.to_string()).or_default().push(e);
        }
    }
    out
}

/// The text between `<g id="{id}"` and the end of that group (groups in
/// these pictures nest only as mark groups, which close on their line).
fn group<'s>(svg: &'s str, id: &str) -> &'s str {
    let open = format!("<g id=\"{id}\"");
    assert_eq!(svg.matches(&open).count(), 1, "one {id} group");
    let start = svg.find(&open).expect("the group");
    let rest = &svg[start..];
    let mut depth = 0;
    let mut end = rest.len();
    for (i, _) in rest.match_indices('<') {
        let tail = &rest[i..];
        if tail.starts_with("<g ") || tail.starts_with("<g>") {
            depth += 1;
        } else if tail.starts_with("</g>") {
            depth -= 1;
            if depth == 0 {
                end = i + 4;
                break;
            }
        }
    }
    &rest[..end]
}

#[test]
fn every_cell_has_exactly_one_named_shape_in_the_board_group() {
    for v in registry::variants() {
        for flip in [false, true] {
            let marks = Marks {
                flip,
                ..Marks::default()
            };
            let svg = render_svg(v.as_ref(), &At::default(), &marks).expect("renders");
            let d = v.diagram(&At::default()).expect("pictured");
            let board = group(&svg, "board");
            let legend = group(&svg, "legend");
            let shapes = cell_shapes(board);
            let names = cell_names(&d.board);
            assert_eq!(
                shapes.keys().cloned().collect::<Vec<_>>(),
                {
                    let mut n = names.clone();
                    n.sort();
                    n
                },
                "{}: the named shapes are the board's cells",
                v.name()
            );
            for (cell, found) in &shapes {
                assert_eq!(found.len(), 1, "{} {cell}: {found:?}", v.name());
                assert!(found[0].starts_with("rect "), "{} {cell}", v.name());
            }
            assert_eq!(
                cell_shapes(&svg).values().map(Vec::len).sum::<usize>(),
                names.len(),
                "{}: no data-cell outside the board",
                v.name()
            );
            assert!(!legend.contains("data-cell"), "{}", v.name());
        }
    }
}

#[test]
fn cells_are_at_least_the_minimum_size_on_every_board_and_rank() {
    for v in registry::variants() {
        let svg = render_svg(v.as_ref(), &At::default(), &Marks::default()).expect("renders");
        for (cell, found) in cell_shapes(&svg) {
            let (w, h) = (number(found[0], "width"), number(found[0], "height"));
            assert!(
                w >= seams::render::MIN_CELL && h >= seams::render::MIN_CELL,
                "{} {cell}: {w} × {h}",
                v.name()
            );
        }
    }
}

#[test]
fn tetrahedral_cells_name_their_neighbours_on_the_adjacent_ranks() {
    use seams::topology::file::AnyBoard;
    for name in ["tetra-shogi", "tetra-hexgi"] {
        let v = registry::find(name).expect("registered");
        let svg = render_svg(v, &At::default(), &Marks::default()).expect("renders");
        let d = v.diagram(&At::default()).expect("pictured");
        let AnyBoard::Tetrahedron(t) = &d.board else {
            panic!("{name} stands on the tetrahedron");
        };
        let shapes = cell_shapes(&svg);
        let mut counts = std::collections::BTreeSet::new();
        for c in t.cells() {
            // Worked out from the lattice points, not the step table: the
            // nearest lattice points one rank away are the points at
            // (±1, 0, ±1) and (0, ±1, ±1).
            let (x, y, z) = t.point(c);
            let mut expected: Vec<String> = [(1, 0), (-1, 0), (0, 1), (0, -1)]
                .iter()
                .flat_map(|&(dx, dy)| [(dx, dy, 1), (dx, dy, -1)])
                .filter_map(|(dx, dy, dz)| t.cell_at((x + dx, y + dy, z + dz)))
                .map(|n| t.cell_name(n).to_string())
                .collect();
            expected.sort();
            let cell = t.cell_name(c);
            let element = shapes[cell][0];
            let mut near: Vec<String> = attr(element, "data-near")
                .unwrap_or_else(|| panic!("{name} {cell} has data-near"))
                .split_whitespace()
                .map(String::from)
                .collect();
            near.sort();
            assert_eq!(near, expected, "{name} {cell}");
            for n in &near {
                let other = t.parse_cell(n).expect("a cell");
                assert_eq!(
                    (i16::from(t.rank(other)) - i16::from(t.rank(c))).abs(),
                    1,
                    "{name} {cell} → {n}: an adjacent rank"
                );
            }
            counts.insert(near.len());
        }
        // Inner cells touch eight, corner cells fewer.
        assert!(
            counts.contains(&8) && counts.len() > 1,
            "{name}: {counts:?}"
        );
    }
    // Square boards have no such list.
    let svg = render_svg(
        registry::find("shogi-flat").expect("registered"),
        &At::default(),
        &Marks::default(),
    )
    .expect("renders");
    assert!(!svg.contains("data-near"));
}

#[test]
fn the_legend_names_every_piece_label_the_family_draws_and_no_other() {
    for v in registry::variants() {
        let v = v.as_ref();
        let start = v.diagram(&At::default()).expect("pictured");
        let labels: Vec<&str> = start.legend.iter().map(|(l, _)| l.as_str()).collect();
        let mut seen = std::collections::BTreeSet::new();
        for moves in walk(v, 30) {
            let d = v
                .diagram(&At {
                    position: None,
                    moves: &moves,
                })
                .expect("pictured");
            assert_eq!(d.legend, start.legend, "{}: one list per family", v.name());
            for p in &d.pieces {
                let drawn = if p.promoted {
                    format!("+{}", p.label)
                } else {
                    p.label.clone()
                };
                assert!(labels.contains(&drawn.as_str()), "{} {drawn}", v.name());
                seen.insert(p.label.clone());
                seen.extend(p.other_face.clone());
            }
        }
        // Every letter listed is one of the family's pieces: the start
        // shows each (Kyoto's as a token's other face), and a promoted
        // label is a listed letter with `+`.
        for label in &labels {
            let base = label.trim_start_matches('+');
            assert!(seen.contains(base), "{}: '{label}' is not drawn", v.name());
            assert!(labels.contains(&base), "{}: '{label}'", v.name());
        }
        let svg = render_svg(v, &At::default(), &Marks::default()).expect("renders");
        let legend = group(&svg, "legend");
        for (label, name) in &start.legend {
            assert!(
                legend.contains(&format!(">{label}</text>")),
                "{} {label}",
                v.name()
            );
            assert!(
                legend.contains(&format!(">{}</text>", seams::render::escape(name))),
                "{} {name}",
                v.name()
            );
        }
    }
    let names = |v: &str| -> Vec<String> {
        registry::find(v)
            .expect("registered")
            .diagram(&At::default())
            .expect("pictured")
            .legend
            .into_iter()
            .map(|(l, n)| format!("{l} {n}"))
            .collect()
    };
    assert!(names("tetra-shogi").contains(&"X saltire".to_string()));
    assert!(names("tetra-shogi").contains(&"+R chatelaine (promoted rook)".to_string()));
    assert!(names("tetra-hexgi").contains(&"D dexter".to_string()));
    assert!(!names("tetra-hexgi").iter().any(|n| n.starts_with("K ")));
    assert!(names("chess-flat").contains(&"Q queen".to_string()));
    assert!(!names("chess-flat").iter().any(|n| n.starts_with('+')));
    assert!(names("kyoto").contains(&"T tokin (moves as a gold)".to_string()));
}

#[test]
fn the_legend_explains_the_players_and_the_marks_drawn() {
    for (v, first, second) in [
        ("shogi-klein", "A (moves first)", "B (moves second)"),
        (
            "chess-mobius",
            "White (moves first)",
            "Black (moves second)",
        ),
        ("tetra-shogi", "White (moves first)", "Black (moves second)"),
        ("kyoto", "first player", "second player"),
    ] {
        let svg = render_svg(
            registry::find(v).expect("registered"),
            &At::default(),
            &Marks::default(),
        )
        .expect("renders");
        let legend = group(&svg, "legend");
        assert!(legend.contains(&format!(">{first}")), "{v}: {legend}");
        assert!(legend.contains(&format!(">{second}")), "{v}");
    }
    // Drops point the mover's way where facing matters.
    let svg = render_svg(
        registry::find("shogi-mobius").expect("registered"),
        &At::default(),
        &Marks::default(),
    )
    .expect("renders");
    assert!(svg.contains("A (moves first) — dropped pieces point up, toward higher ranks"));
    assert!(svg.contains("B (moves second) — dropped pieces point down, toward lower ranks"));
    assert!(
        svg.contains(
            "red letter in a red inner outline (+ in the notation): the piece is promoted"
        )
    );
    assert!(svg.contains("the orange tip: a reversing seam can turn it"));
    // A capture is ringed, a drop and a promotion are tagged, and each is
    // explained.
    let v = registry::find("shogi-flat").expect("registered");
    let moves: Vec<String> = ["c3-c4", "g7-g6"].map(String::from).to_vec();
    let at = At {
        position: None,
        moves: &moves,
    };
    let marks = Marks {
        actions: vec![("b2-h8+".into(), MarkKind::Legal)],
        ..Marks::default()
    };
    let svg = render_svg(v, &at, &marks).expect("renders");
    let legend = group(&svg, "legend");
    assert!(legend.contains("a ring round a piece"), "{legend}");
    assert!(legend.contains("+ beside a mark: the action promotes"));
    let moves: Vec<String> = ["c3-c4", "g7-g6", "b2-h8+", "b8-h8"]
        .map(String::from)
        .to_vec();
    let at = At {
        position: None,
        moves: &moves,
    };
    let marks = Marks {
        actions: vec![("B*e5".into(), MarkKind::Legal)],
        ..Marks::default()
    };
    let svg = render_svg(v, &at, &marks).expect("renders");
    let legend = group(&svg, "legend");
    assert!(legend.contains(">B*</text>"), "{legend}");
    assert!(legend.contains("a drop of that piece from hand"));
    assert!(
        legend.contains(
            "A (moves first) — dropped pieces point up, toward higher ranks — in hand: B — to move"
        ),
        "{legend}"
    );
    assert!(!legend.contains("a ring round a piece"));
}

#[test]
fn staircase_labels_are_as_large_as_the_file_and_rank_labels() {
    let svg = render_svg(
        registry::find("shogi-genus2").expect("registered"),
        &At::default(),
        &Marks::default(),
    )
    .expect("renders");
    let stairs: Vec<f64> = elements(&svg)
        .into_iter()
        .filter(|e| e.starts_with("text ") && attr(e, "fill") == Some("#d35400"))
        .map(|e| number(e, "font-size"))
        .collect();
    // Each sheet has 22 cell sides on the staircase, each labelled.
    assert_eq!(stairs.len(), 44);
    assert!(stairs.iter().all(|&s| s >= 10.0), "{stairs:?}");
}

/// The middle of the pentagon drawn for the piece on `cell` (the middle of
/// its box), and its fill.
fn piece_disc(svg: &str, cell: &str) -> ((f64, f64), String) {
    let shape = elements(group(svg, "board"))
        .into_iter()
        .find(|e| {
            e.starts_with("polygon ")
                && attr(e, "data-piece").is_some()
                && attr(e, "data-on") == Some(cell)
        })
        .unwrap_or_else(|| panic!("a piece on {cell}"));
    let points: Vec<(f64, f64)> = attr(shape, "points")
        .expect("points")
        .split(' ')
        .map(|p| {
            let (x, y) = p.split_once(',').expect("x,y");
            (x.parse::<f64>().expect("x"), y.parse::<f64>().expect("y"))
        })
        .collect();
    let span = |f: fn(&(f64, f64)) -> f64| {
        let vs: Vec<f64> = points.iter().map(f).collect();
        let lo = vs.iter().copied().fold(f64::MAX, f64::min);
        let hi = vs.iter().copied().fold(f64::MIN, f64::max);
        (lo + hi) / 2.0
    };
    (
        (span(|p| p.0), span(|p| p.1)),
        attr(shape, "fill").unwrap_or_default().to_string(),
    )
}

#[test]
fn flip_turns_the_board_half_round_and_keeps_text_upright() {
    let v = registry::find("shogi-flat").expect("registered");
    let plain = render_svg(v, &At::default(), &Marks::default()).expect("renders");
    let flip = Marks {
        flip: true,
        ..Marks::default()
    };
    let turned = render_svg(v, &At::default(), &flip).expect("renders");
    // A's lance on a1 is at the bottom left, and turned at the top right,
    // where B's lance on i9 was.
    let (a1, fill) = piece_disc(&plain, "a1");
    let (i9, other) = piece_disc(&plain, "i9");
    assert_eq!((fill.as_str(), other.as_str()), ("#ffffff", "#2b2b2b"));
    assert!(a1.0 < i9.0 && a1.1 > i9.1, "{a1:?} {i9:?}");
    let (turned_a1, turned_fill) = piece_disc(&turned, "a1");
    let (turned_i9, turned_other) = piece_disc(&turned, "i9");
    assert_eq!(
        (turned_fill.as_str(), turned_other.as_str()),
        ("#ffffff", "#2b2b2b")
    );
    assert!(
        turned_a1.0 > turned_i9.0 && turned_a1.1 < turned_i9.1,
        "{turned_a1:?} {turned_i9:?}"
    );
    // Half a turn about one centre: a point and its image sum to twice it.
    let sum = |p: (f64, f64), q: (f64, f64)| (p.0 + q.0, p.1 + q.1);
    let (s1, s2) = (sum(a1, turned_a1), sum(i9, turned_i9));
    assert!(
        (s1.0 - s2.0).abs() < 0.2 && (s1.1 - s2.1).abs() < 0.2,
        "{s1:?} {s2:?}"
    );
    // Nothing is turned by a transform, so every letter stays upright; the
    // same texts are drawn, and the legend is untouched.
    for svg in [&plain, &turned] {
        assert!(!svg.contains("rotate"));
        assert!(!svg.contains("scale("));
        assert!(!svg.contains("matrix("));
    }
    let texts = |svg: &str, id: &str| -> Vec<String> {
        let mut t: Vec<String> = group(svg, id)
            .split("<text ")
            .skip(1)
            .map(|r| r.split('>').nth(1).unwrap_or_default().to_string())
            .collect();
        t.sort();
        t
    };
    assert_eq!(texts(&plain, "board"), texts(&turned, "board"));
    // The legend says the same; only its drop-facing triangles point as
    // the turned board's pieces do.
    assert_eq!(texts(&plain, "legend"), texts(&turned, "legend"));
    let chess = registry::find("chess-flat").expect("registered");
    let turned_chess = render_svg(chess, &At::default(), &flip).expect("renders");
    let plain_chess = render_svg(chess, &At::default(), &Marks::default()).expect("renders");
    assert_eq!(
        group(&plain_chess, "legend"),
        group(&turned_chess, "legend")
    );
    // Through the command line too.
    let r = seams(&["render", "shogi-flat", "--flip"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert_eq!(r.stdout, turned);
    let help = seams(&["render", "--help"]);
    assert!(help.stdout.contains("--flip"), "{}", help.stdout);
}

#[test]
fn flip_turns_the_tetrahedron_and_its_facings() {
    let v = registry::find("tetra-shogi").expect("registered");
    let plain = render_svg(v, &At::default(), &Marks::default()).expect("renders");
    let turned = render_svg(
        v,
        &At::default(),
        &Marks {
            flip: true,
            ..Marks::default()
        },
    )
    .expect("renders");
    // White's king on rank 1 is at the bottom, turned at the top.
    let (king, _) = piece_disc(&plain, "e1.1");
    let (turned_king, fill) = piece_disc(&turned, "e1.1");
    assert_eq!(fill, "#ffffff");
    assert!(king.1 > turned_king.1 && king.0 < turned_king.0);
    assert!(group(&turned, "legend").contains("ranks stack down from rank 1"));
    // Facing triangles on a Möbius board point the other way, turned.
    let v = registry::find("shogi-mobius").expect("registered");
    let plain = render_svg(v, &At::default(), &Marks::default()).expect("renders");
    let turned = render_svg(
        v,
        &At::default(),
        &Marks {
            flip: true,
            ..Marks::default()
        },
    )
    .expect("renders");
    // A's pawn on a3 faces up: its triangle's tip is above the disc, and
    // below it once turned.
    let tip_above = |svg: &str| -> bool {
        let (centre, _) = piece_disc(svg, "a3");
        let triangle = elements(group(svg, "board"))
            .into_iter()
            .filter(|e| e.starts_with("polygon ") && attr(e, "fill") == Some("#e67e22"))
            .map(|e| {
                attr(e, "points")
                    .expect("points")
                    .split(' ')
                    .map(|p| {
                        let (x, y) = p.split_once(',').expect("x,y");
                        (x.parse::<f64>().expect("x"), y.parse::<f64>().expect("y"))
                    })
                    .collect::<Vec<_>>()
            })
            .find(|pts| (pts[0].0 - centre.0).abs() < 0.2 && (pts[0].1 - centre.1).abs() < 25.0)
            .expect("a facing triangle on a3");
        triangle[0].1 < centre.1
    };
    assert!(tip_above(&plain));
    assert!(!tip_above(&turned));
}

#[test]
fn a_diagram_renders_without_its_variant() {
    use seams::render::{Overlay, render_diagram_svg};
    let v = registry::find("kyoto").expect("registered");
    let moves: Vec<String> = ["b1-b2", "d5-d4"].map(String::from).to_vec();
    let at = At {
        position: None,
        moves: &moves,
    };
    let marks = moves_from(v, &at, "b2").expect("b2 is a cell");
    let svg = render_svg(v, &at, &marks).expect("renders");
    let d = v.diagram(&at).expect("pictured");
    let texts: Vec<String> = marks.actions.iter().map(|(t, _)| t.clone()).collect();
    let placed = v
        .action_marks(&at, &texts)
        .expect("marks")
        .into_iter()
        .map(|m| (m.expect("legal"), MarkKind::Legal))
        .collect();
    let overlay = Overlay {
        from: Some("b2".into()),
        marks: placed,
        ..Overlay::default()
    };
    assert_eq!(render_diagram_svg(&d, &overlay), svg);
}

/// A display arrow (SS-A2) is a hollow triangle in its own labelled group,
/// explained in the legend apart from the solid facing triangle; a piece
/// that moves by its facing keeps the solid one.
#[test]
fn display_arrows_are_hollow_and_explained_apart_from_facings() {
    use seams::movement::Facing;
    use seams::render::{Overlay, render_diagram_svg};
    let v = registry::find("shogi-mobius").unwrap();
    let plain = render_diagram_svg(&v.diagram(&At::default()).unwrap(), &Overlay::default());
    assert!(!plain.contains("data-arrow"));
    assert!(!plain.contains("arrow records transport"));
    let mut d = v.diagram(&At::default()).unwrap();
    for p in d.pieces.iter_mut().filter(|p| p.label == "R") {
        p.facing = Some(Facing::Down);
        p.arrow = true;
    }
    let svg = render_diagram_svg(&d, &Overlay::default());
    let arrows: Vec<&str> = svg
        .split("<g data-arrow=")
        .skip(1)
        .map(|g| &g[..g.find("</g>").unwrap()])
        .collect();
    assert_eq!(arrows.len(), 2, "{svg}");
    for g in &arrows {
        assert!(g.starts_with("\"down\" data-on="), "{g}");
        // Hollow: white inside, the facing colour as its outline.
        assert!(g.contains(r##"fill="#ffffff" stroke="#e67e22""##), "{g}");
    }
    let legend = group(&svg, "legend");
    assert!(legend.contains("hollow tip: arrow records transport; does not affect moves"));
    // Golds, silvers, knights, lances and pawns still show their facing.
    assert!(legend.contains("a piece points the way its forward points"));
    let (pixels, _) = ink(&svg);
    assert!(pixels > 0);
}

#[test]
fn a_page_gets_the_board_alone_at_one_size_and_the_legend_as_data() {
    use seams::render::{Overlay, escape, legend_entries, render_board_svg, render_diagram_svg};
    let size = |svg: &str| -> (f64, f64) {
        let head = elements(svg)
            .into_iter()
            .find(|e| e.starts_with("svg "))
            .expect("an svg element");
        (number(head, "width"), number(head, "height"))
    };
    for v in registry::variants() {
        for flip in [false, true] {
            let o = Overlay {
                flip,
                ..Overlay::default()
            };
            let d = v.diagram(&At::default()).expect("diagram");
            let full = render_diagram_svg(&d, &o);
            let board = render_board_svg(&d, &o);
            // The same board group, placed under no title, and no legend.
            let inside = |svg: &str| {
                let g = group(svg, "board");
                g[g.find('>').expect("a tag")..].to_string()
            };
            assert_eq!(inside(&full), inside(&board), "{}", v.name());
            assert!(!board.contains("id=\"legend\""), "{}", v.name());
            let (pixels, _) = ink(&board);
            assert!(pixels > 0, "{}", v.name());
            // The legend's lines, in order, are the picture's.
            let (title, entries) = legend_entries(&d, &o);
            assert!(full.contains(&format!(">{}</text>", escape(&title))));
            let legend = group(&full, "legend");
            let mut from = 0;
            for e in &entries {
                let text = format!(">{}</text>", escape(&e.text));
                let at = legend[from..]
                    .find(&text)
                    .unwrap_or_else(|| panic!("{}: no legend line {text} in order", v.name()));
                from += at;
                if let Some(icon) = &e.icon {
                    assert!(icon.starts_with("<svg xmlns="), "{icon}");
                }
                if let Some(label) = &e.label {
                    assert!(legend.contains(&format!(">{}</text>", escape(label))));
                }
            }
            // The board's size is the board's alone: the same after a move.
            let first = v.legal_actions(&At::default()).expect("actions")[0].clone();
            let moved = [first];
            let after = v
                .diagram(&At {
                    position: None,
                    moves: &moved,
                })
                .expect("diagram");
            assert_eq!(
                size(&render_board_svg(&after, &o)),
                size(&board),
                "{}",
                v.name()
            );
        }
    }
}
