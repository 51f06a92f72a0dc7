//! The designer's workflow end to end, on temporary copies of `spec/` and
//! `conformance/cases/`: `seams spec check` on a draft, the CI gate, and
//! `--accept` turning a draft into a new rules version.

use std::path::{Path, PathBuf};
mod common;

use common::seams;
use std::sync::atomic::{AtomicUsize, Ordering};

use seams::conformance::Corpus;
use seams::draft::{self, Draft, DraftError};

static NEXT: AtomicUsize = AtomicUsize::new(0);

/// A fresh folder holding `spec/` as `draft/` and the corpus as `cases/`.
fn scratch() -> PathBuf {
    let root = std::env::temp_dir().join(format!(
        "seams-spec-workflow-{}-{}",
        std::process::id(),
        NEXT.fetch_add(1, Ordering::SeqCst)
    ));
    let _ = std::fs::remove_dir_all(&root);
    let here = Path::new(env!("CARGO_MANIFEST_DIR"));
    copy_dir(&here.join("spec"), &root.join("draft"));
    copy_dir(&here.join("conformance/cases"), &root.join("cases"));
    root
}

fn copy_dir(from: &Path, to: &Path) {
    for entry in walkdir::WalkDir::new(from) {
        let entry = entry.unwrap();
        let rel = entry.path().strip_prefix(from).unwrap();
        let dest = to.join(rel);
        if entry.file_type().is_dir() {
            std::fs::create_dir_all(&dest).unwrap();
        } else {
            std::fs::copy(entry.path(), &dest).unwrap();
        }
    }
}

fn edit(path: &Path, from: &str, to: &str) {
    let text = std::fs::read_to_string(path).unwrap();
    assert!(text.contains(from), "{} has no '{from}'", path.display());
    std::fs::write(path, text.replacen(from, to, 1)).unwrap();
}

fn p(path: &Path) -> &str {
    path.to_str().unwrap()
}

/// Klein height 14, with the two Klein variants' ranks moved to fit.
fn klein_14(root: &Path) -> PathBuf {
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

#[test]
fn the_unedited_spec_changes_nothing_and_passes_the_gate() {
    let root = scratch();
    let d = root.join("draft");
    let corpus = Corpus::builtin().unwrap();
    let (_, report) = draft::check(&d, &corpus).unwrap();
    assert!(
        report.corpus.changes.is_empty(),
        "{:?}",
        report.corpus.changes
    );
    assert_eq!(report.corpus.checked, corpus.cases.len());
    assert!(report.symmetric());
    let r = seams(&["spec", "check", p(&d)]);
    assert_eq!(r.code, 0, "{}{}", r.stdout, r.stderr);
    assert!(r.stdout.contains("0 changed"), "{}", r.stdout);
    let r = seams(&["spec", "gate"]);
    assert_eq!(r.code, 0, "{}{}", r.stdout, r.stderr);
    assert!(r.stdout.contains("gate: pass"), "{}", r.stdout);
    std::fs::remove_dir_all(root).unwrap();
}

#[test]
fn klein_height_14_draft_is_reported_gated_and_accepted() {
    let root = scratch();
    let cases = root.join("cases");
    // The height alone: the Klein variants' data no longer fits the board.
    let d = root.join("draft");
    edit(
        &d.join("boards/klein-9x18.toml"),
        "height = 18",
        "height = 14",
    );
    let r = seams(&["spec", "check", p(&d)]);
    assert_eq!(r.code, 2, "{}", r.stdout);
    assert!(
        r.stderr.contains("shogi-klein.toml: promotion.first")
            && r.stderr.contains("the board has 14 ranks"),
        "{}",
        r.stderr
    );
    edit(
        &d.join("boards/klein-9x18.toml"),
        "height = 14",
        "height = 18",
    );
    let d = klein_14(&root);

    // The geometry table: bishop reach 62 from every cell, χ 0, non-orientable.
    let (_, report) = draft::check(&d, &Corpus::from_dir(&cases).unwrap()).unwrap();
    let klein = report
        .boards
        .iter()
        .find(|b| b.board == "klein-9x18")
        .unwrap();
    assert_eq!(klein.faces, 126);
    assert_eq!(klein.euler, 0);
    assert!(!klein.orientable);
    assert_eq!(klein.cone_points, 0);
    assert_eq!(klein.bishop_reach, [(62, 126)].into_iter().collect());
    let changed: Vec<&str> = report
        .corpus
        .changes
        .iter()
        .map(|c| c.id.as_str())
        .collect();
    assert!(
        changed
            .iter()
            .any(|id| id.starts_with("shogi/klein/start-perft-3#")),
        "{changed:?}"
    );
    assert!(
        changed
            .iter()
            .any(|id| id.starts_with("chess/klein/perft-start-1#")),
        "{changed:?}"
    );
    assert!(
        changed.iter().all(|id| id.contains("klein")),
        "only Klein cases change: {changed:?}"
    );
    let perft = report
        .corpus
        .changes
        .iter()
        .find(|c| c.id.starts_with("chess/klein/perft-start-1#"))
        .unwrap();
    assert_eq!((perft.old.as_str(), perft.new.as_str()), ("42", "39"));
    assert!(perft.clauses.contains(&"SC-8.2".to_string()));
    assert!(report.symmetric());

    // The CLI says the same, as text and JSON, and exits 1.
    let r = seams(&["spec", "check", p(&d), "--corpus", p(&cases)]);
    assert_eq!(r.code, 1, "{}{}", r.stdout, r.stderr);
    assert!(r.stdout.contains("62: 126"), "{}", r.stdout);
    assert!(r.stdout.contains("42 → 39"), "{}", r.stdout);
    let r = seams(&["spec", "check", p(&d), "--json"]);
    assert_eq!(r.code, 1);
    let v: serde_json::Value = serde_json::from_str(&r.stdout).unwrap();
    assert_eq!(
        v["corpus"]["changes"].as_array().unwrap().len(),
        report.corpus.changes.len()
    );

    // The gate refuses the draft.
    let r = seams(&["--spec", p(&d), "spec", "gate", "--corpus", p(&cases)]);
    assert_eq!(r.code, 1, "{}{}", r.stdout, r.stderr);
    assert!(r.stdout.contains("gate: FAIL"), "{}", r.stdout);

    // Accepted as rules 0.3 (on the scratch copy), the gate passes.
    let r = seams(&[
        "spec",
        "check",
        p(&d),
        "--accept",
        "--version",
        "0.3",
        "--corpus",
        p(&cases),
    ]);
    assert_eq!(r.code, 0, "{}{}", r.stdout, r.stderr);
    let r = seams(&["--spec", p(&d), "spec", "gate", "--corpus", p(&cases)]);
    assert_eq!(r.code, 0, "{}{}", r.stdout, r.stderr);
    assert!(r.stdout.contains("gate: pass"), "{}", r.stdout);
    let r = seams(&[
        "spec",
        "check",
        p(&d),
        "--accept",
        "--version",
        "0.4",
        "--corpus",
        p(&cases),
    ]);
    assert_eq!(r.code, 0, "{}{}", r.stdout, r.stderr);
    assert!(r.stdout.contains("nothing to accept"), "{}", r.stdout);

    // What was written: versions, narrowed and new cases, the changelog.
    let data = std::fs::read_to_string(d.join("shogi/shogi-klein.toml")).unwrap();
    assert!(data.contains("rules-version = \"0.3\""));
    let md = std::fs::read_to_string(d.join("chess/rules.md")).unwrap();
    assert!(
        md.contains("## Changelog: rules 0.3") && md.contains("SC-8.2"),
        "{md}"
    );
    let corpus = Corpus::from_dir(&cases).unwrap();
    let old = corpus
        .cases
        .iter()
        .map(|(_, c)| c)
        .find(|c| c.id.starts_with("chess/klein/perft-start-1#"))
        .unwrap();
    assert_eq!(old.rules.as_deref(), Some("<0.3"));
    let new = corpus
        .cases
        .iter()
        .map(|(_, c)| c)
        .find(|c| c.id.starts_with("chess/klein/perft-start-1/rules-0-3#"))
        .unwrap();
    assert_eq!(new.rules.as_deref(), Some(">=0.3"));
    assert_eq!(new.provenance.kind(), "reference");
    assert!(matches!(
        new.check,
        seams::conformance::Check::Perft { expect: 39, .. }
    ));
    // The unedited spec still reproduces the old version's cases.
    let builtin = draft::gate(None, &corpus).unwrap();
    assert!(
        builtin
            .changes
            .iter()
            .all(|c| c.subject.starts_with("board:")),
        "{:?}",
        builtin.changes
    );
    std::fs::remove_dir_all(root).unwrap();
}

#[test]
fn mobius_setup_without_exchange_symmetry_is_reported() {
    let root = scratch();
    let d = root.join("draft");
    // Player B's bishop-and-rook row moves from rank 10 to rank 8.
    edit(
        &d.join("shogi/shogi-mobius.toml"),
        "second = \"10\"",
        "second = \"8\"",
    );
    let (_, report) = draft::check(&d, &Corpus::builtin().unwrap()).unwrap();
    let row = report
        .variants
        .iter()
        .find(|v| v.variant == "shogi-mobius")
        .unwrap();
    assert_eq!(row.exchange_symmetric, Some(false));
    assert!(!report.symmetric());
    assert!(
        report
            .variants
            .iter()
            .filter(|v| v.variant != "shogi-mobius")
            .all(|v| v.exchange_symmetric == Some(true))
    );
    let r = seams(&["spec", "check", p(&d)]);
    assert_eq!(r.code, 1, "{}{}", r.stdout, r.stderr);
    assert!(
        r.stdout
            .lines()
            .any(|l| l.contains("shogi-mobius") && l.contains("NOT exchange-symmetric")),
        "{}",
        r.stdout
    );
    std::fs::remove_dir_all(root).unwrap();
}

#[test]
fn a_missing_family_folder_means_the_built_in_one() {
    let root = scratch();
    let d = root.join("draft");
    std::fs::remove_dir_all(d.join("tetra")).unwrap();
    let loaded = Draft::load(&d).unwrap();
    assert!(!loaded.families["tetra"].from_draft);
    assert!(loaded.families["shogi"].from_draft);
    assert_eq!(loaded.variants.len(), seams::variant::registry().len());
    std::fs::remove_dir_all(root).unwrap();
}

#[test]
fn load_errors_name_file_and_entry() {
    let root = scratch();
    let d = root.join("draft");

    edit(&d.join("boards/mobius-9x11.toml"), "width = 9", "width = 0");
    let err = Draft::load(&d).err().unwrap();
    assert!(matches!(err, DraftError::Spec(_)), "{err:?}");
    let msg = err.to_string();
    assert!(msg.contains("mobius-9x11.toml: width:"), "{msg}");
    let r = seams(&["spec", "check", p(&d)]);
    assert_eq!(r.code, 2);
    assert!(r.stderr.contains("mobius-9x11.toml"), "{}", r.stderr);
    let r = seams(&["--spec", p(&d), "spec", "gate"]);
    assert_eq!(r.code, 2);
    assert!(r.stderr.contains("mobius-9x11.toml"), "{}", r.stderr);
    edit(&d.join("boards/mobius-9x11.toml"), "width = 0", "width = 9");

    edit(
        &d.join("chess/chess-mobius.toml"),
        "rules-version",
        "rules-versoin",
    );
    let err = Draft::load(&d).err().unwrap();
    assert!(matches!(err, DraftError::Chess(_)), "{err:?}");
    assert!(err.to_string().contains("chess-mobius.toml"), "{err}");
    edit(
        &d.join("chess/chess-mobius.toml"),
        "rules-versoin",
        "rules-version",
    );

    edit(
        &d.join("shogi/shogi-genus2.toml"),
        "[promotion]",
        "[promotion]\nlast = 3",
    );
    let err = Draft::load(&d).err().unwrap();
    assert!(matches!(err, DraftError::Shogi(_)), "{err:?}");
    assert!(err.to_string().contains("shogi-genus2.toml"), "{err}");
    let r = seams(&["spec", "check", p(&d)]);
    assert_eq!(r.code, 2);
    assert!(r.stderr.contains("shogi-genus2.toml"), "{}", r.stderr);

    let err = Draft::load(&root.join("no-such-folder")).err().unwrap();
    assert!(matches!(err, DraftError::Io { .. }), "{err:?}");
    std::fs::remove_dir_all(root).unwrap();
}

#[test]
fn accept_refuses_bad_versions_and_usage_errors_exit_2() {
    let root = scratch();
    let d = klein_14(&root);
    let cases = root.join("cases");
    let corpus = Corpus::from_dir(&cases).unwrap();
    let (loaded, report) = draft::check(&d, &corpus).unwrap();
    for bad in ["0.1", "0.2", "x.y", "3"] {
        let err = draft::accept(&loaded, &report, &cases, bad).err().unwrap();
        assert!(
            matches!(
                err,
                DraftError::BadVersion { .. } | DraftError::VersionNotNewer { .. }
            ),
            "{bad}: {err:?}"
        );
    }
    // Nothing was written by the refused attempts.
    let data = std::fs::read_to_string(d.join("shogi/shogi-klein.toml")).unwrap();
    assert!(data.contains("rules-version = \"0.2\""));
    assert!(Corpus::from_dir(&cases).unwrap().cases.len() == corpus.cases.len());

    let r = seams(&["spec", "check", p(&d), "--accept", "--version", "0.3"]);
    assert_eq!(r.code, 2);
    assert!(r.stderr.contains("--corpus"), "{}", r.stderr);
    let r = seams(&["spec", "check", p(&d), "--accept"]);
    assert_eq!(r.code, 2);
    let r = seams(&[
        "spec",
        "check",
        p(&d),
        "--accept",
        "--version",
        "0.1",
        "--corpus",
        p(&cases),
    ]);
    assert_eq!(r.code, 2);
    assert!(r.stderr.contains("not above"), "{}", r.stderr);
    let r = seams(&["spec", "gate", "--corpus", p(&root.join("nope"))]);
    assert_eq!(r.code, 2);
    let r = seams(&["spec", "check", "--help"]);
    assert_eq!(r.code, 0);
    assert!(r.stdout.contains("Example:"), "{}", r.stdout);
    std::fs::remove_dir_all(root).unwrap();
}
