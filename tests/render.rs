//! Pictures: every variant renders to an SVG that parses and rasterizes to
//! something visible; the SVG text is pinned by snapshots; marks of every
//! kind are drawn distinctly; bad input gives clear errors; and the README
//! pictures are what `seams render` draws now.

mod common;

use common::{check_input_error, seams};
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
    for v in variant::registry() {
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
    for v in variant::registry() {
        let svg = render_svg(v.as_ref(), &At::default(), &Marks::default())
            .expect("every variant renders");
        insta::assert_snapshot!(format!("start-{}", v.name()), svg);
    }
}

#[test]
fn moves_from_a_cell_are_pinned() {
    // The rook on i2 reaches a10 across the Möbius side seam.
    let v = variant::find("shogi-mobius").expect("registered");
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

#[test]
fn mark_kinds_are_drawn_distinctly_and_unplaceable_texts_are_listed() {
    let v = variant::find("shogi-klein").expect("registered");
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
    let v = variant::find("chess-klein").expect("registered");
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
    let tetra = variant::find("tetra-shogi").expect("registered");
    let svg = render_svg(tetra, &At::default(), &Marks::default()).expect("renders");
    for r in 1..=9 {
        assert!(svg.contains(&format!(">rank {r}<")), "rank {r} is labelled");
    }
    assert!(svg.contains("bishop binding"));
    let kyoto = variant::find("kyoto").expect("registered");
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
    use seams::diagram::loose_mark;
    use seams::movement::Facing;
    let board = |name: &str| {
        variant::find(name)
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
    for v in variant::registry() {
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
    for v in variant::registry() {
        let d = v.diagram(&At::default()).expect("pictured");
        let mut seen = std::collections::BTreeSet::new();
        for p in &d.pieces {
            let canonical = seams::diagram::canonical_cell(&d.board, &p.cell)
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
