//! Every kind of bad board file gets a clear error naming the entry, and
//! coordinates parse and print. One `check` helper per area.

use rstest::rstest;
use seams::spec::Library;
use seams::topology::file::{BoardErrorKind, load};

const GENUS2_HEAD: &str = r#"
name = "g"
width = 9
height = 9
charts = ["I", "II"]
[sides]
east-west = "translate"
north-south = "translate"
"#;

/// Loads `text` and checks the error kind, the entry and a message fragment.
fn check(text: &str, kind: BoardErrorKind, entry: &str, fragment: &str) {
    let err = load("test.toml", text).expect_err("the board file must be rejected");
    assert_eq!(err.kind, kind, "wrong kind for error: {err}");
    assert!(
        err.entry.contains(entry),
        "entry '{}' should name '{entry}' ({err})",
        err.entry
    );
    let shown = err.to_string();
    assert!(
        shown.contains(fragment),
        "message should contain '{fragment}': {shown}"
    );
    assert!(shown.starts_with("test.toml: "), "names the file: {shown}");
}

fn with_head(rest: &str) -> String {
    format!("{GENUS2_HEAD}{rest}")
}

#[rstest]
#[case::not_toml("name = ", BoardErrorKind::Syntax, "bytes", "")]
#[case::missing_sides(
    "name = \"x\"\nwidth = 3\nheight = 3\n",
    BoardErrorKind::Syntax,
    "",
    "sides"
)]
#[case::unknown_key(
    "name = \"x\"\nwidth = 3\nheight = 3\ncolour = 1\n[sides]\neast-west = \"boundary\"\nnorth-south = \"boundary\"\n",
    BoardErrorKind::Syntax,
    "",
    "colour"
)]
#[case::unknown_gluing(
    "name = \"x\"\nwidth = 3\nheight = 3\n[sides]\neast-west = \"twist\"\nnorth-south = \"boundary\"\n",
    BoardErrorKind::Syntax,
    "",
    "twist"
)]
#[case::bad_name(
    "name = \"Big Board\"\nwidth = 3\nheight = 3\n[sides]\neast-west = \"boundary\"\nnorth-south = \"boundary\"\n",
    BoardErrorKind::Shape,
    "name",
    "Big Board"
)]
#[case::zero_width(
    "name = \"x\"\nwidth = 0\nheight = 3\n[sides]\neast-west = \"boundary\"\nnorth-south = \"boundary\"\n",
    BoardErrorKind::Shape,
    "width",
    "0 files"
)]
#[case::too_many_files(
    "name = \"x\"\nwidth = 27\nheight = 3\n[sides]\neast-west = \"boundary\"\nnorth-south = \"boundary\"\n",
    BoardErrorKind::Shape,
    "width",
    "27 files"
)]
#[case::zero_height(
    "name = \"x\"\nwidth = 3\nheight = 0\n[sides]\neast-west = \"boundary\"\nnorth-south = \"boundary\"\n",
    BoardErrorKind::Shape,
    "height",
    "0 ranks"
)]
#[case::one_chart_name(
    "name = \"x\"\nwidth = 3\nheight = 3\ncharts = [\"I\"]\n[sides]\neast-west = \"boundary\"\nnorth-south = \"boundary\"\n",
    BoardErrorKind::Shape,
    "charts",
    "two or more"
)]
#[case::duplicate_chart(
    "name = \"x\"\nwidth = 3\nheight = 3\ncharts = [\"I\", \"I\"]\n[sides]\neast-west = \"boundary\"\nnorth-south = \"boundary\"\n",
    BoardErrorKind::Shape,
    "charts[1]",
    "used twice"
)]
#[case::bad_chart_name(
    "name = \"x\"\nwidth = 3\nheight = 3\ncharts = [\"I\", \"II:\"]\n[sides]\neast-west = \"boundary\"\nnorth-south = \"boundary\"\n",
    BoardErrorKind::Shape,
    "charts[1]",
    "not a chart name"
)]
fn rejects_bad_shapes(
    #[case] text: &str,
    #[case] kind: BoardErrorKind,
    #[case] entry: &str,
    #[case] fragment: &str,
) {
    check(text, kind, entry, fragment);
}

#[rstest]
#[case::off_board_file(
    "[[north]]\nfrom = \"I:j4\"\nto = \"II:a4\"\n",
    BoardErrorKind::Coordinate,
    "north[0].from",
    "file 'j' is outside a–i"
)]
#[case::off_board_rank(
    "[[east]]\nfrom = \"I:d5\"\nto = \"II:e10\"\n",
    BoardErrorKind::Coordinate,
    "east[0].to",
    "rank 10 is outside 1–9"
)]
#[case::unknown_chart(
    "[[north]]\nfrom = \"III:a4\"\nto = \"II:a4\"\n",
    BoardErrorKind::Coordinate,
    "north[0].from",
    "unknown chart 'III'"
)]
#[case::missing_chart(
    "[[north]]\nfrom = \"a4\"\nto = \"II:a4\"\n",
    BoardErrorKind::Coordinate,
    "north[0].from",
    "write the chart first"
)]
#[case::length_mismatch(
    "[[north]]\nfrom = \"I:a4-d4\"\nto = \"II:a4-c4\"\n",
    BoardErrorKind::Range,
    "north[0]",
    "names 4 cells but"
)]
#[case::diagonal_range(
    "[[north]]\nfrom = \"I:a4-d7\"\nto = \"II:a4-d7\"\n",
    BoardErrorKind::Range,
    "north[0].from",
    "neither a rank nor a file"
)]
#[case::chart_changing_range(
    "[[north]]\nfrom = \"I:a4-II:d4\"\nto = \"II:a4-d4\"\n",
    BoardErrorKind::Range,
    "north[0].from",
    "changes chart"
)]
#[case::unknown_transport(
    "[[north]]\nfrom = \"I:a4\"\nto = \"II:a4\"\ntransport = \"twist\"\n",
    BoardErrorKind::Transport,
    "north[0].transport",
    "'twist' is not a transport"
)]
#[case::glued_twice(
    "[[north]]\nfrom = \"I:a4-d4\"\nto = \"II:a4-d4\"\n[[north]]\nfrom = \"I:c4\"\nto = \"II:e5\"\n",
    BoardErrorKind::GluedTwice,
    "north[1]",
    "the north edge of I:c4 is glued twice: north[0] already leaves through it"
)]
#[case::inverse_collides(
    "[[north]]\nfrom = \"I:a4\"\nto = \"II:a4\"\n[[north]]\nfrom = \"I:b4\"\nto = \"II:a4\"\n",
    BoardErrorKind::InverseCollision,
    "north[1]",
    "the south edge of II:a4, but north[0] already arrives through it"
)]
#[case::self_glued(
    "[[north]]\nfrom = \"I:a4\"\nto = \"I:a4\"\ntransport = \"flip-v\"\n",
    BoardErrorKind::SelfGlued,
    "north[0]",
    "glues the north edge of I:a4 to itself"
)]
#[case::orphaned_edge(
    "[[north]]\nfrom = \"I:a4\"\nto = \"II:a4\"\n",
    BoardErrorKind::Orphaned,
    "north[0]",
    "without a partner"
)]
fn rejects_inconsistent_transitions(
    #[case] rest: &str,
    #[case] kind: BoardErrorKind,
    #[case] entry: &str,
    #[case] fragment: &str,
) {
    check(&with_head(rest), kind, entry, fragment);
}

#[test]
fn duplicate_board_names_are_rejected() {
    let text = "name = \"x\"\nwidth = 3\nheight = 3\n[sides]\neast-west = \"boundary\"\nnorth-south = \"boundary\"\n";
    let err = Library::from_files(vec![
        ("a.toml".into(), text.into()),
        ("b.toml".into(), text.into()),
    ])
    .expect_err("two boards with one name");
    assert!(
        err.to_string()
            .contains("board 'x' is defined twice (also in a.toml)"),
        "{err}"
    );
}

#[test]
fn every_shipped_board_loads() {
    let lib = Library::builtin();
    let names: Vec<&str> = lib.board_names().collect();
    for want in [
        "mobius-9x11",
        "mobius-10x9",
        "klein-9x18",
        "genus2-9x9",
        "flat-9x9",
        "flat-8x8",
        "flat-5x5",
    ] {
        assert!(names.contains(&want), "missing board {want}");
    }
}

/// Parses a coordinate on a named board and prints it back, or shows the error.
fn check_coord(board: &str, text: &str, expect: &str) {
    let geo = Library::builtin().geometry(board).expect("shipped board");
    let got = match geo.board().parse_cell(text) {
        Ok(c) => geo.board().cell_name(c).to_string(),
        Err(e) => format!("error: {e}"),
    };
    assert_eq!(got, expect);
}

#[rstest]
#[case("flat-9x9", "a1", "a1")]
#[case("mobius-9x11", "i11", "i11")]
#[case("mobius-10x9", "j9", "j9")]
#[case("genus2-9x9", "I:a1", "I:a1")]
#[case("genus2-9x9", "II:i9", "II:i9")]
#[case(
    "mobius-9x11",
    "j1",
    "error: bad coordinate 'j1' on board mobius-9x11: file 'j' is outside a–i"
)]
#[case(
    "mobius-9x11",
    "a12",
    "error: bad coordinate 'a12' on board mobius-9x11: rank 12 is outside 1–11"
)]
#[case(
    "mobius-9x11",
    "a0",
    "error: bad coordinate 'a0' on board mobius-9x11: rank 0 is outside 1–11"
)]
#[case(
    "flat-9x9",
    "",
    "error: bad coordinate '' on board flat-9x9: missing file letter"
)]
#[case(
    "flat-9x9",
    "A1",
    "error: bad coordinate 'A1' on board flat-9x9: a coordinate starts with a file letter a–i"
)]
#[case(
    "flat-9x9",
    "e",
    "error: bad coordinate 'e' on board flat-9x9: the rank must be a number from 1 to 9"
)]
#[case(
    "flat-9x9",
    "e1x",
    "error: bad coordinate 'e1x' on board flat-9x9: the rank must be a number from 1 to 9"
)]
#[case(
    "flat-9x9",
    "I:e1",
    "error: bad coordinate 'I:e1' on board flat-9x9: this board has a single chart, so coordinates carry no chart prefix"
)]
#[case(
    "genus2-9x9",
    "e1",
    "error: bad coordinate 'e1' on board genus2-9x9: this board has several charts; write the chart first, as in I:e1"
)]
#[case(
    "genus2-9x9",
    "III:e1",
    "error: bad coordinate 'III:e1' on board genus2-9x9: unknown chart 'III' (charts are I, II)"
)]
fn coordinates(#[case] board: &str, #[case] text: &str, #[case] expect: &str) {
    check_coord(board, text, expect);
}

#[rstest]
#[case::bad_side(
    "name = \"t\"\nshape = \"tetrahedron\"\nside = 1\n",
    BoardErrorKind::Shape,
    "side",
    "side 1: a tetrahedral board has side 2 to 26"
)]
#[case::unknown_shape(
    "name = \"t\"\nshape = \"cube\"\nside = 3\n",
    BoardErrorKind::Shape,
    "shape",
    "unknown shape 'cube'"
)]
#[case::tetra_unknown_key(
    "name = \"t\"\nshape = \"tetrahedron\"\nside = 3\nwidth = 3\n",
    BoardErrorKind::Syntax,
    "",
    "width"
)]
fn rejects_bad_solids(
    #[case] text: &str,
    #[case] kind: BoardErrorKind,
    #[case] entry: &str,
    #[case] fragment: &str,
) {
    let err = seams::topology::file::load_any("test.toml", text).expect_err("must be rejected");
    assert_eq!(err.kind, kind, "{err}");
    assert!(err.entry.contains(entry), "{err}");
    assert!(err.to_string().contains(fragment), "{err}");
}

#[rstest]
#[case("a1.1", "a1.1")]
#[case("c5.3", "c5.3")]
#[case("a9.9", "a9.9")]
#[case(
    "j1.1",
    "error: bad coordinate 'j1.1' on board tetra9: rank 1 has files a–i"
)]
#[case(
    "f5.1",
    "error: bad coordinate 'f5.1' on board tetra9: rank 5 has files a–e"
)]
#[case(
    "a5.6",
    "error: bad coordinate 'a5.6' on board tetra9: rank 5 has levels 1–5"
)]
#[case(
    "a10.1",
    "error: bad coordinate 'a10.1' on board tetra9: rank 10 is outside 1–9"
)]
#[case(
    "a5",
    "error: bad coordinate 'a5' on board tetra9: missing '.level' (as in e5.3)"
)]
#[case(
    "a0.1",
    "error: bad coordinate 'a0.1' on board tetra9: the rank must be a number from 1"
)]
#[case(
    "5.1",
    "error: bad coordinate '5.1' on board tetra9: a coordinate is file letter, rank, '.', level, as in e5.3"
)]
fn tetra_coordinates(#[case] text: &str, #[case] expect: &str) {
    let t = Library::builtin().solid("tetra9").expect("shipped solid");
    let got = match t.parse_cell(text) {
        Ok(c) => t.cell_name(c).to_string(),
        Err(e) => format!("error: {e}"),
    };
    assert_eq!(got, expect);
}
