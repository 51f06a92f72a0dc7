//! Rules drafts for tests: scratch copies of `spec/` and the corpus with
//! one edit each, shared by `tests/it/spec_workflow.rs`,
//! `tests/it/spec_html.rs` and the browser trial of the draft page
//! (`tests/external/spec_html.rs`).

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};

static NEXT: AtomicUsize = AtomicUsize::new(0);

/// A fresh folder holding `spec/` as `draft/` and the corpus as `cases/`.
pub fn scratch() -> PathBuf {
    let root = std::env::temp_dir().join(format!(
        "seams-spec-workflow-{}-{}",
        std::process::id(),
        NEXT.fetch_add(1, Ordering::SeqCst)
    ));
    let _ = std::fs::remove_dir_all(&root);
    let here = Path::new(env!("CARGO_MANIFEST_DIR"));
    super::copy_dir(&here.join("spec"), &root.join("draft"));
    super::copy_dir(&here.join("conformance/cases"), &root.join("cases"));
    root
}

/// Replaces the first `from` in the file with `to`; the text must be there.
pub fn edit(path: &Path, from: &str, to: &str) {
    let text = std::fs::read_to_string(path).unwrap();
    assert!(text.contains(from), "{} has no '{from}'", path.display());
    std::fs::write(path, text.replacen(from, to, 1)).unwrap();
}

/// Klein height 14, with the two Klein variants' ranks moved to fit.
pub fn klein_14(root: &Path) -> PathBuf {
    let d = root.join("draft");
    edit(
        &d.join("boards/klein-9x18.toml"),
        "height = 18",
        "height = 14",
    );
    let shogi = d.join("shogi/shogi-klein.toml");
    for (a, b) in [
        ("second = \"15\"", "second = \"11\""),
        ("second = \"14\"", "second = \"10\""),
        ("second = \"13\"", "second = \"9\""),
        ("first = [\"13-15\"]", "first = [\"9-11\"]"),
    ] {
        edit(&shogi, a, b);
    }
    edit(
        &d.join("chess/chess-klein.toml"),
        "first = \"15\"",
        "first = \"11\"",
    );
    d
}

/// The draft of `root` with White's bishop and knight on g1 and h1 of the
/// Möbius strip swapped (and so Black's, its exchange image).
pub fn swapped_mobius(root: &Path) -> PathBuf {
    let d = root.join("draft");
    edit(
        &d.join("chess/chess-mobius.toml"),
        "row = \"P R . B Q K B N R P\"",
        "row = \"P R . B Q K N B R P\"",
    );
    d
}

/// The draft of `root` with flat shogi's promotion zones one rank deeper
/// (ranks 6–9 for A, 1–4 for B): pawns promote a move sooner, which
/// changes the perft cases of flat shogi and nothing else.
pub fn deeper_shogi_zones(root: &Path) -> PathBuf {
    let d = root.join("draft");
    let flat = d.join("shogi/shogi-flat.toml");
    edit(&flat, "first = [\"7-9\"]", "first = [\"6-9\"]");
    edit(&flat, "second = [\"1-3\"]", "second = [\"1-4\"]");
    d
}

/// The pictures the draft page must hold in each of its parts, worked out
/// from the `--json` report alone: (changed facts, fingerprints, cases).
/// A changed board is drawn before and after; each variant's new audit
/// lines (items the `checks`, `mates`, `shields` and `attacked` fields
/// gained) up to the page's limit of 40; a changed fingerprint's start on
/// each side that has the variant; each changed case about a variant.
pub fn expected_pictures(report: &serde_json::Value) -> (usize, usize, usize) {
    let mut facts = 0;
    let mut audit_lines: std::collections::BTreeMap<&str, usize> = Default::default();
    for kind in report["changes"]["facts"].as_array().into_iter().flatten() {
        let lines = kind["lines"].as_array().into_iter().flatten();
        match kind["kind"].as_str() {
            Some("boards" | "tetrahedral boards") => {
                let mut keys: Vec<&str> = lines.filter_map(|l| l["key"].as_str()).collect();
                keys.dedup();
                facts += 2 * keys.len();
            }
            Some("opening audits") => {
                for l in lines.filter(|l| {
                    l["change"] == "gained"
                        && ["checks", "mates", "shields", "attacked"]
                            .contains(&l["field"].as_str().unwrap_or_default())
                }) {
                    *audit_lines
                        .entry(l["key"].as_str().unwrap_or_default())
                        .or_default() += 1;
                }
            }
            _ => {}
        }
    }
    facts += audit_lines.values().map(|n| (*n).min(40)).sum::<usize>();
    let fingerprints = report["changes"]["fingerprints"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|c| {
            c["perft"]
                .as_array()
                .map_or(0, |p| p.iter().filter(|s| !s.is_null()).count())
        })
        .sum();
    let cases = report["changes"]["corpus"]["changes"]
        .as_array()
        .into_iter()
        .flatten()
        .filter(|c| {
            c["subject"]
                .as_str()
                .is_some_and(|s| s.starts_with("variant:"))
        })
        .count();
    (facts, fingerprints, cases)
}
