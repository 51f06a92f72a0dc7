//! `seams spec check --format html`: the draft page on drafts that change
//! a board, a setup, promotion zones and opening-audit lines. Each part
//! of the page holds the pictures the JSON report says it must, every
//! picture is well-formed SVG, before and after are told apart, and an
//! unchanged draft gives a short page without pictures. (That the
//! pictures show in a browser is checked by `tests/external/spec_html.rs`.)

use std::path::{Path, PathBuf};

use crate::common::drafts::{
    deeper_shogi_zones, expected_pictures, klein_14, scratch, swapped_mobius,
};
use crate::common::{check_input_error, seams};

fn p(path: &Path) -> &str {
    path.to_str().expect("a UTF-8 path")
}

/// The draft's page (written with `--out`) and its JSON report.
fn page(root: &Path, draft: &Path, code: i32) -> (String, serde_json::Value) {
    let out = root.join("check.html");
    let r = seams(&[
        "spec",
        "check",
        p(draft),
        "--format",
        "html",
        "--out",
        p(&out),
    ]);
    assert_eq!(r.code, code, "{}", r.stderr);
    assert!(r.stdout.is_empty(), "the page went to --out: {}", r.stdout);
    assert!(r.stderr.contains("wrote the report to"), "{}", r.stderr);
    let html = std::fs::read_to_string(&out).expect("the page was written");
    let r = seams(&["spec", "check", p(draft), "--json"]);
    let json = serde_json::from_str(&r.stdout).expect("the JSON report");
    (html, json)
}

/// The part of the page from the section `id` to the next section of the
/// page (or the end).
fn part<'h>(html: &'h str, id: &str) -> &'h str {
    let start = html
        .find(&format!("<section id=\"{id}\">"))
        .unwrap_or_else(|| panic!("no section {id}"));
    let rest = &html[start + 1..];
    let end = ["facts", "findings", "fingerprints", "cases"]
        .iter()
        .filter_map(|next| rest.find(&format!("<section id=\"{next}\">")))
        .min()
        .unwrap_or(rest.len());
    &html[start..start + 1 + end]
}

/// The `<svg …>…</svg>` elements of a text.
fn svgs(html: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut rest = html;
    while let Some(start) = rest.find("<svg") {
        let Some(len) = rest[start..].find("</svg>") else {
            panic!("an <svg> without its end");
        };
        let end = start + len + "</svg>".len();
        out.push(&rest[start..end]);
        rest = &rest[end..];
    }
    out
}

/// Each part holds the pictures the JSON report says, each in its own
/// `<figure>`, and every picture parses as SVG.
fn check_pictures(html: &str, json: &serde_json::Value) {
    let (facts, fingerprints, cases) = expected_pictures(json);
    for (id, want) in [
        ("facts", facts),
        ("fingerprints", fingerprints),
        ("cases", cases),
    ] {
        let part = part(html, id);
        assert_eq!(svgs(part).len(), want, "pictures under {id}");
        assert_eq!(part.matches("<figure").count(), want, "figures under {id}");
    }
    assert_eq!(svgs(html).len(), facts + fingerprints + cases);
    for svg in svgs(html) {
        let tree = resvg::usvg::Tree::from_str(svg, &resvg::usvg::Options::default());
        assert!(tree.is_ok(), "an SVG that does not parse: {:?}", tree.err());
    }
}

/// The cells drawn in a picture: one shape each.
fn cells(svg: &str) -> usize {
    svg.matches("data-cell=").count()
}

#[test]
fn a_swapped_setup_is_drawn_before_and_after_with_its_new_audit_lines() {
    let root = scratch();
    let d = swapped_mobius(&root);
    let (html, json) = page(&root, &d, 1);
    check_pictures(&html, &json);
    let first = html.lines().find(|l| l.contains("id=\"summary\""));
    assert!(
        first.is_some_and(|l| l.contains("1 changed fingerprint (of 12)")),
        "{first:?}"
    );
    // The fingerprint's text as the text report gives it, then the start
    // before and after, labelled.
    let prints = part(&html, "fingerprints");
    assert!(
        prints.contains("chess-mobius: perft 25 630 18710 → 31 929 31284")
            && prints.contains("<li>a1-a2: 707 → 1025</li>"),
        "{prints}"
    );
    let before = prints.find("Before: the base (the built-in spec)");
    let after = prints.find("After: the draft");
    assert!(before.is_some() && before < after, "{prints}");
    let [old, new] = svgs(prints)[..] else {
        panic!("two pictures of the start");
    };
    // Two different starts, each with the first actions whose counts
    // differ marked.
    assert_ne!(old, new);
    for svg in [old, new] {
        assert!(svg.contains("data-mark=\"legal\""), "first actions marked");
    }
    // The opening audit's new check lines, each drawn with its last move.
    let facts = part(&html, "facts");
    assert!(facts.contains("New audit lines of chess-mobius"), "{facts}");
    assert!(
        facts.contains("aria-label=\"check: ")
            && facts.contains("(the last move, marked, gives check)"),
        "{facts}"
    );
    std::fs::remove_dir_all(root).unwrap();
}

#[test]
fn every_case_a_promotion_zone_edit_changes_is_drawn() {
    let root = scratch();
    let d = deeper_shogi_zones(&root);
    let (html, json) = page(&root, &d, 1);
    check_pictures(&html, &json);
    let changes = json["changes"]["corpus"]["changes"]
        .as_array()
        .expect("changes");
    assert!(changes.len() > 10, "{changes:?}");
    let cases = part(&html, "cases");
    // One section per case, each with its answers and one picture.
    for c in changes {
        let id = c["id"].as_str().expect("an id");
        let start = cases
            .find(&format!("<section class=\"case\" id=\"{id}\">"))
            .unwrap_or_else(|| panic!("no section for {id}"));
        let section = &cases[start..];
        let section = &section[..section.find("</section>").expect("its end")];
        assert_eq!(svgs(section).len(), 1, "{id}");
        let answers = format!(
            "{} → {}",
            c["old"].as_str().unwrap(),
            c["new"].as_str().unwrap()
        );
        // The page escapes the answers as HTML text (a list of actions
        // has quotes).
        let answers = answers.replace('&', "&amp;").replace('"', "&quot;");
        assert!(section.contains(&answers), "{id}: no '{answers}'");
        assert!(
            section.contains("shogi-flat — "),
            "{id}: drawn with flat shogi"
        );
    }
    // Grouped by the first clause each cites.
    assert!(cases.contains("<h3>SS-10.1 ("), "{cases}");
    std::fs::remove_dir_all(root).unwrap();
}

#[test]
fn a_smaller_board_is_drawn_before_and_after_and_its_old_positions_by_the_base() {
    let root = scratch();
    let d = klein_14(&root);
    let (html, json) = page(&root, &d, 1);
    check_pictures(&html, &json);
    let facts = part(&html, "facts");
    let board = &facts[facts
        .find("<h4>Board klein-9x18, before and after</h4>")
        .expect("the board")..];
    let pictures = svgs(board);
    assert_eq!((cells(pictures[0]), cells(pictures[1])), (162, 126));
    // New attacked pieces are drawn with their pieces framed.
    let attacked = facts
        .find("<figure aria-label=\"attacked: ")
        .map(|at| svgs(&facts[at..])[0])
        .expect("an attacked piece drawn");
    assert!(attacked.matches("data-framed=").count() >= 2, "{attacked}");
    // A case on rank 15 cannot be read by the draft: it is drawn by the
    // base's rules, and the page says so.
    let cases = part(&html, "cases");
    assert!(
        cases.contains("The draft cannot draw this position (")
            && cases.contains("<figure aria-label=\"by the base's rules: "),
        "{cases}"
    );
    // Board cases have no position: they say so instead.
    assert!(
        cases.contains("No picture: the case asks about the board klein-9x18 alone"),
        "{cases}"
    );
    std::fs::remove_dir_all(root).unwrap();
}

#[test]
fn an_unchanged_draft_gives_a_short_page_without_pictures() {
    let root = scratch();
    let d: PathBuf = root.join("draft");
    let (html, json) = page(&root, &d, 0);
    assert_eq!(expected_pictures(&json), (0, 0, 0));
    assert!(html.starts_with("<!DOCTYPE html>") && html.trim_end().ends_with("</html>"));
    assert!(
        !html.contains("<svg") && !html.contains("<figure"),
        "{html}"
    );
    assert!(html.contains("class=\"headline ok\""), "{html}");
    assert!(html.len() < 8_000, "{} bytes", html.len());
    // To stdout without --out, and --format json is --json.
    let r = seams(&["spec", "check", p(&d), "--format", "html"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert_eq!(r.stdout, html);
    let json_flag = seams(&["spec", "check", p(&d), "--json"]);
    let json_format = seams(&["spec", "check", p(&d), "--format", "json"]);
    assert_eq!(json_flag.stdout, json_format.stdout);
    std::fs::remove_dir_all(root).unwrap();
}

#[test]
fn a_page_that_cannot_be_written_is_refused_before_the_check() {
    let root = scratch();
    let d = root.join("draft");
    let before: Vec<_> = std::fs::read_dir(&root)
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .collect();
    let missing = root.join("no/such/folder/check.html");
    for (out, says) in [
        (missing.as_path(), "does not exist"),
        (root.as_path(), "is a folder"),
    ] {
        check_input_error(
            &["spec", "check", p(&d), "--format", "html", "--out", p(out)],
            says,
        );
    }
    let after: Vec<_> = std::fs::read_dir(&root)
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .collect();
    assert_eq!(before, after, "nothing was written");
    check_input_error(
        &["spec", "check", p(&d), "--json", "--format", "html"],
        "cannot be used with",
    );
    check_input_error(
        &[
            "spec",
            "check",
            p(&d),
            "--format",
            "html",
            "--accept",
            "--version",
            "0.3",
            "--corpus",
            p(&root.join("cases")),
        ],
        "--accept reports what it writes as text or JSON",
    );
    std::fs::remove_dir_all(root).unwrap();
}
