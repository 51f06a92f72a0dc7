//! The HTML conformance report: a failing case from a mutant engine is
//! drawn with its wrong destinations marked and every embedded picture is
//! valid SVG. (That the page renders in a browser is checked by
//! `tests/external/html_chromium.rs`.)

use crate::common::html::{html_report, mutant_report, scratch};
use crate::common::{check_input_error, seams};

/// The `<svg …>…</svg>` elements of a page.
fn svgs(html: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut rest = html;
    while let Some(start) = rest.find("<svg") {
        let Some(len) = rest[start..].find("</svg>") else {
            break;
        };
        let end = start + len + "</svg>".len();
        out.push(&rest[start..end]);
        rest = &rest[end..];
    }
    out
}

#[test]
fn a_mutant_failure_is_drawn_with_the_wrong_destination_marked() {
    let dir = scratch("html-mutant");
    let (_, html) = mutant_report(&dir);
    assert!(html.starts_with("<!DOCTYPE html>"));
    assert!(html.contains("seams-mutant-cone-diagonals"));
    assert!(html.contains("shogi/genus2/cone-diagonal-forbidden"));
    assert!(html.contains("0 missing, 1 unexpected, 7 agreed"), "{html}");
    let pictures = svgs(&html);
    assert_eq!(pictures.len(), 1, "one failing variant case, one picture");
    let svg = pictures[0];
    // The unexpected destination is marked as such, the agreed ones as
    // legal, and none is marked missing.
    assert_eq!(svg.matches("data-mark=\"unexpected\"").count(), 1, "{svg}");
    assert!(svg.contains("data-mark=\"legal\""), "{svg}");
    assert!(!svg.contains("data-mark=\"missing\""), "{svg}");
    let tree = resvg::usvg::Tree::from_str(svg, &resvg::usvg::Options::default());
    assert!(tree.is_ok(), "the embedded SVG parses: {:?}", tree.err());
}

#[test]
fn a_passing_run_has_no_problems_and_no_pictures() {
    let dir = scratch("html-pass");
    let (_, html) = html_report(&dir, None, "shogi/genus2/*", 0);
    assert!(html.contains("<h2>Problems (0)</h2>"));
    assert!(svgs(&html).is_empty());
}

#[test]
fn html_goes_to_stdout_without_out() {
    let r = seams(&[
        "conform",
        "--case",
        "kyoto/drop/pawn-face*",
        "--format",
        "html",
    ]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(r.stdout.starts_with("<!DOCTYPE html>"));
    assert!(r.stdout.trim_end().ends_with("</html>"));
}

#[test]
fn a_report_path_that_cannot_be_written_is_refused_before_the_run() {
    let dir = scratch("html-bad-out");
    let missing = dir.join("no/such/folder/report.html");
    check_input_error(
        &[
            "conform",
            "--format",
            "html",
            "--out",
            missing.to_str().expect("utf-8"),
        ],
        "does not exist",
    );
    check_input_error(
        &[
            "conform",
            "--format",
            "html",
            "--out",
            dir.to_str().expect("utf-8"),
        ],
        "is a folder",
    );
    assert!(
        std::fs::read_dir(&dir).expect("readable").next().is_none(),
        "nothing was written"
    );
}

/// The picture `html::figure` draws for a case given as JSON and an
/// engine's wrong answer, as (mark kind, cell) pairs read off the SVG.
fn figure_marks(case: serde_json::Value, expected: &str, actual: &str) -> Vec<(String, String)> {
    use seams::conformance::html::{Figure, figure};
    use seams::conformance::{Case, Outcome};
    let case: Case = serde_json::from_value(case).expect("a case");
    let variants: Vec<&dyn seams::variant::Variant> = seams::registry::variants()
        .iter()
        .map(|v| v.as_ref())
        .collect();
    let outcome = Outcome::Fail {
        expected: expected.into(),
        actual: actual.into(),
        detail: "differs".into(),
        missing: vec![],
        extra: vec![],
    };
    let Some(Figure { panels, notes }) = figure(&case, &outcome, &variants) else {
        panic!("a picture is drawn");
    };
    assert!(notes.is_empty(), "{notes:?}");
    assert_eq!(panels.len(), 1);
    let svg = &panels[0].svg;
    let mut out: Vec<(String, String)> = svg
        .split("<g data-mark=\"")
        .skip(1)
        .map(|rest| {
            let kind = rest.split('"').next().unwrap_or_default().to_string();
            let cell = rest
                .split("data-to=\"")
                .nth(1)
                .and_then(|r| r.split('"').next())
                .unwrap_or_default()
                .to_string();
            (kind, cell)
        })
        .collect();
    out.sort();
    out
}

fn pair(kind: &str, cell: &str) -> (String, String) {
    (kind.to_string(), cell.to_string())
}

#[test]
fn legal_action_sets_mark_missing_unexpected_and_agreed_destinations() {
    // A knight's two moves are expected; the engine gives one of them and
    // a move that is not legal at all. Illegal texts are still drawn where
    // they claim to go.
    let marks = figure_marks(
        serde_json::json!({
            "id": "x", "title": "t", "clauses": [], "provenance": {"kind": "reference", "reviewed": "test"},
            "check": {"kind": "legal-actions", "variant": "chess-flat",
                      "position": "4k3/8/8/8/8/8/8/1N2K3 w - -",
                      "expect": ["b1-a3", "b1-c3"]}
        }),
        r#"["b1-a3","b1-c3"]"#,
        r#"["b1-c3","b1-b3"]"#,
    );
    assert_eq!(
        marks,
        [
            pair("legal", "c3"),
            pair("missing", "a3"),
            pair("unexpected", "b3")
        ]
    );
}

#[test]
fn a_refused_legal_action_is_missing_and_an_accepted_illegal_one_unexpected() {
    let case = |action: &str, legal: bool| {
        serde_json::json!({
            "id": "x", "title": "t", "clauses": [], "provenance": {"kind": "reference", "reviewed": "test"},
            "check": {"kind": "action", "variant": "chess-flat", "action": action,
                      "expect": {"legal": legal}}
        })
    };
    assert_eq!(
        figure_marks(
            case("e2-e4", true),
            r#"{"legal":true}"#,
            r#"{"legal":false}"#
        ),
        [pair("missing", "e4")]
    );
    assert_eq!(
        figure_marks(
            case("e2-e5", false),
            r#"{"legal":false}"#,
            r#"{"legal":true}"#
        ),
        [pair("unexpected", "e5")]
    );
}

#[test]
fn a_wrong_divide_marks_missing_and_extra_root_actions() {
    let marks = figure_marks(
        serde_json::json!({
            "id": "x", "title": "t", "clauses": [], "provenance": {"kind": "reference", "reviewed": "test"},
            "check": {"kind": "perft", "variant": "chess-flat",
                      "position": "4k3/8/8/8/8/8/8/1N2K3 w - -", "depth": 1, "expect": 2,
                      "divide": {"b1-a3": 1, "b1-c3": 1}}
        }),
        r#"{"b1-a3":1,"b1-c3":1}"#,
        r#"{"b1-c3":1,"b1-d2":1}"#,
    );
    assert_eq!(marks, [pair("missing", "a3"), pair("unexpected", "d2")]);
}

#[test]
fn a_wrong_position_after_moves_is_drawn_next_to_the_expected_one() {
    // The kyoto-flip-on-drop mutant turns a dropped token over: the report
    // shows the expected tokin and the engine's lance side by side.
    let dir = scratch("html-play");
    let (_, html) = html_report(
        &dir,
        Some("seams engine --mutant kyoto-flip-on-drop"),
        "kyoto/drop/tokin-face*",
        1,
    );
    let pictures = svgs(&html);
    assert_eq!(pictures.len(), 2, "expected and actual positions");
    assert!(pictures[0].contains("expected: the position after the case"));
    assert!(pictures[1].contains("actual: the position the engine reached"));
    for svg in pictures {
        let tree = resvg::usvg::Tree::from_str(svg, &resvg::usvg::Options::default());
        assert!(tree.is_ok(), "{:?}", tree.err());
    }
}

#[test]
fn an_engine_position_that_does_not_parse_is_named_instead_of_drawn() {
    use seams::conformance::html::figure;
    use seams::conformance::{Case, Outcome};
    let case: Case = serde_json::from_value(serde_json::json!({
        "id": "x", "title": "t", "clauses": [], "provenance": {"kind": "reference", "reviewed": "test"},
        "check": {"kind": "play", "variant": "kyoto", "moves": ["c1-c2"],
                  "expect": {"position": "p+nks+l/5/5/2K2/+LS1+NP[] b - - 1 1", "result": null}}
    }))
    .expect("a case");
    let variants: Vec<&dyn seams::variant::Variant> = seams::registry::variants()
        .iter()
        .map(|v| v.as_ref())
        .collect();
    let outcome = Outcome::Fail {
        expected: r#"{"position":"p+nks+l/5/5/2K2/+LS1+NP[] b - - 1 1","result":null}"#.into(),
        actual: r#"{"position":"not a position","result":null}"#.into(),
        detail: "differs".into(),
        missing: vec![],
        extra: vec![],
    };
    let f = figure(&case, &outcome, &variants).expect("a figure");
    assert_eq!(f.panels.len(), 1, "the expected position is drawn");
    assert_eq!(f.notes.len(), 1, "{:?}", f.notes);
    assert!(f.notes[0].starts_with("actual: the position the engine reached: cannot be drawn"));
}
