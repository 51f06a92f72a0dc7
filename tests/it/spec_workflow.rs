//! The designer's workflow end to end, on temporary copies of `spec/` and
//! `conformance/cases/`: `seams spec check` on a draft, the CI gate, and
//! `--accept` turning a draft into a new rules version.

use std::path::Path;

use crate::common::drafts::{edit, klein_14, scratch, swapped_mobius};
use crate::common::seams;

use seams::conformance::Corpus;
use seams::draft::{self, Draft, DraftError};

fn p(path: &Path) -> &str {
    path.to_str().unwrap()
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
    assert!(report.fingerprint_changes.is_empty());
    let r = seams(&["spec", "check", p(&d)]);
    assert_eq!(r.code, 0, "{}{}", r.stdout, r.stderr);
    // The summary is the first line and the last.
    let summary = "summary: no changes (0 load errors, 0 changed cases, 0 changed fact rows, 0 changed fingerprints (of 12), 0 new findings, 0 gone findings)";
    assert_eq!(r.stdout.lines().next(), Some(summary), "{}", r.stdout);
    assert_eq!(r.stdout.lines().last(), Some(summary), "{}", r.stdout);
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
    assert_eq!(r.code, 2, "{}{}", r.stdout, r.stderr);
    // Every data file the edit breaks is named in this one run (#32),
    // with the line of each entry: shogi's and chess's Klein files both.
    let first = r.stdout.lines().next().unwrap_or_default();
    assert!(
        first.ends_with("in 2 files; the draft must load before anything is compared"),
        "{first}"
    );
    assert!(
        r.stdout
            .contains("shogi-klein.toml:26: promotion.first: '13-15': the board has 14 ranks")
            && r.stdout
                .contains("chess-klein.toml:27: promotion.first: rank 15 is outside 1–14"),
        "{}",
        r.stdout
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
    let r = seams(&["spec", "check", p(&d), "--corpus", p(&cases), "--full"]);
    assert_eq!(r.code, 1, "{}{}", r.stdout, r.stderr);
    assert!(r.stdout.contains("62: 126"), "{}", r.stdout);
    assert!(r.stdout.contains("42 → 39"), "{}", r.stdout);
    let r = seams(&["spec", "check", p(&d), "--json"]);
    assert_eq!(r.code, 1);
    let v: serde_json::Value = serde_json::from_str(&r.stdout).unwrap();
    assert_eq!(
        v["changes"]["corpus"]["changes"].as_array().unwrap().len(),
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
    let r = seams(&["spec", "check", p(&d), "--full"]);
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
    assert_eq!(loaded.variants.len(), seams::registry::variants().len());
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
    assert!(
        r.stdout.contains("mobius-9x11.toml:6: width:"),
        "{}",
        r.stdout
    );
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
    assert!(r.stdout.contains("shogi-genus2.toml"), "{}", r.stdout);

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

/// The lines of a text report from `from` (included) up to the first line
/// starting with `to` (excluded).
fn section(text: &str, from: &str, to: &str) -> String {
    let start = text
        .find(from)
        .unwrap_or_else(|| panic!("no '{from}' in {text}"));
    let rest = &text[start..];
    let end = rest.find(&format!("\n{to}")).map_or(rest.len(), |i| i + 1);
    rest[..end].to_string()
}

#[test]
fn designer_checks_on_the_shipped_spec() {
    use seams::design::Colouring;
    use seams::rules::design_facts::{DropFacts, PawnFacts};
    let root = scratch();
    let d = root.join("draft");
    let (_, report) = draft::check(&d, &Corpus::builtin().unwrap()).unwrap();
    let row = |v: &str| report.design.iter().find(|r| r.variant == v).unwrap();

    // Bishop colours: balanced where a colouring exists; the odd cycle
    // through the seam where none does.
    for v in ["chess-flat", "chess-mobius", "chess-klein"] {
        assert_eq!(row(v).bishops.balanced(), Some(true), "{v}");
        for p in &row(v).bishops.players {
            assert_eq!((p.dark.len(), p.light.len()), (1, 1), "{v}");
        }
    }
    let m = &row("chess-mobius").bishops.players[0];
    assert_eq!(
        (m.dark.as_slice(), m.light.as_slice()),
        (&["g1".to_string()][..], &["d1".to_string()][..])
    );
    // Seed 001, "Initial positions and rationale": the Klein bishops c5
    // and h5 are on opposite colour classes (SC-6.3).
    let k = &row("chess-klein").bishops.players[0];
    assert_eq!(
        (k.dark.as_slice(), k.light.as_slice()),
        (&["c5".to_string()][..], &["h5".to_string()][..])
    );
    match &row("chess-genus2").bishops.colouring {
        Colouring::None {
            cycle_length,
            seam_steps,
        } => {
            assert_eq!(*cycle_length, 9);
            assert_eq!(seam_steps, &["I:i1 E→ I:a1"]);
        }
        other => panic!("{other:?}"),
    }
    assert!(matches!(
        row("shogi-mobius").bishops.colouring,
        Colouring::None { .. }
    ));
    assert_eq!(row("shogi-klein").bishops.balanced(), Some(true));
    assert_eq!(row("tetra-shogi").bishops.colouring, Colouring::NotSquare);

    // Every initial pawn reaches promotion; Kyoto has none to reach.
    for r in &report.design {
        assert!(r.stuck_pawns().is_empty(), "{}", r.variant);
    }
    match &row("chess-flat").pawns {
        PawnFacts::Paths { pawns } => {
            assert_eq!(pawns.len(), 16);
            assert!(pawns.iter().all(|p| p.moves == Some(6)));
        }
        other => panic!("{other:?}"),
    }
    // Seed 001, "Mandatory promotion": forward-only paths of 7–8 single
    // steps on Möbius, 8–11 on Klein, 6–9 on genus two (SC-6.6). Each
    // White pawn's count, worked by hand in SC-6.6; Black's are their
    // exchange images, with the same counts.
    let paths = |v: &str| -> Vec<(String, usize)> {
        match &row(v).pawns {
            PawnFacts::Paths { pawns } => pawns
                .iter()
                .filter(|p| p.owner == seams::rules::Player::First)
                .map(|p| (p.cell.clone(), p.moves.unwrap()))
                .collect(),
            other => panic!("{other:?}"),
        }
    };
    let sorted = |mut v: Vec<(String, usize)>| {
        v.sort();
        v
    };
    let want = |w: &[(&str, usize)]| sorted(w.iter().map(|&(c, n)| (c.to_string(), n)).collect());
    assert_eq!(
        sorted(paths("chess-mobius")),
        want(&[
            ("a1", 8),
            ("j1", 8),
            ("b2", 7),
            ("d2", 7),
            ("e2", 7),
            ("f2", 7),
            ("h2", 7),
            ("i2", 7)
        ])
    );
    assert_eq!(
        sorted(paths("chess-klein")),
        want(&[
            ("b4", 11),
            ("h4", 11),
            ("b6", 9),
            ("d6", 9),
            ("e6", 9),
            ("f6", 9),
            ("h6", 9),
            ("e7", 8)
        ])
    );
    assert_eq!(
        sorted(paths("chess-genus2")),
        want(&[
            ("I:b1", 9),
            ("I:h1", 9),
            ("I:b3", 7),
            ("I:d3", 7),
            ("I:e3", 7),
            ("I:f3", 7),
            ("I:h3", 7),
            ("I:e4", 6)
        ])
    );
    // Black's counts equal White's (Φ): all sixteen, sorted, are White's
    // eight each twice.
    for v in ["chess-mobius", "chess-klein", "chess-genus2"] {
        let mut all: Vec<usize> = match &row(v).pawns {
            PawnFacts::Paths { pawns } => pawns.iter().map(|p| p.moves.unwrap()).collect(),
            other => panic!("{other:?}"),
        };
        all.sort();
        let mut white: Vec<usize> = paths(v).into_iter().map(|p| p.1).collect();
        white.sort();
        let doubled: Vec<usize> = white.iter().flat_map(|&n| [n, n]).collect();
        assert_eq!(all, doubled, "{v}");
    }
    assert!(matches!(
        row("kyoto").pawns,
        PawnFacts::NotApplicable { .. }
    ));

    // No immobile drops except in Kyoto, whose KY-5.2 allows them: pawns
    // and lances on the last rank, knights on the last two, per player.
    for v in [
        "shogi-flat",
        "shogi-mobius",
        "shogi-klein",
        "shogi-genus2",
        "tetra-shogi",
        "tetra-hexgi",
    ] {
        assert!(row(v).immobile_drops().is_empty(), "{v}");
    }
    assert!(matches!(row("chess-klein").drops, DropFacts::NoDrops));
    assert_eq!(row("kyoto").immobile_drops().len(), 40);
    assert_eq!(
        report.design_findings(),
        [
            "kyoto-repetition-loss: 40 drops land where the piece can never move",
            "kyoto: 40 drops land where the piece can never move"
        ]
    );

    // The tetrahedral board has its row, and every setup its audit.
    let t = &report.solids[0];
    assert_eq!((t.board.as_str(), t.facts.cells), ("tetra9", 165));
    assert_eq!(t.facts.rank_sizes, [9, 16, 21, 24, 25, 24, 21, 16, 9]);
    assert_eq!(report.audits.len(), report.variants.len());
    let klein = report
        .audits
        .iter()
        .find(|a| a.variant == "chess-klein")
        .unwrap();
    assert_eq!(klein.plies, draft::DEFAULT_AUDIT_PLIES);
    assert_eq!(klein.shields.as_ref().map(Vec::len), Some(2));

    // The text report, from the geometry table to the corpus line.
    let r = seams(&["spec", "check", p(&d), "--full"]);
    assert_eq!(r.code, 0, "{}{}", r.stdout, r.stderr);
    insta::assert_snapshot!(
        "spec-check-shipped",
        section(&r.stdout, "boards:", "corpus:")
    );
    std::fs::remove_dir_all(root).unwrap();
}

#[test]
fn unbalanced_bishops_stuck_pawns_and_immobile_drops_are_reported() {
    use seams::design::Colouring;
    let root = scratch();
    let d = root.join("draft");
    // Both White bishops on dark cells of the colourable Möbius strip
    // (c1 and g1: x + y even); Black's are their exchange images.
    edit(
        &d.join("chess/chess-mobius.toml"),
        "row = \"P R . B Q K B N R P\"",
        "row = \"P R B . Q K B N R P\"",
    );
    // Player A's band moved behind its pawns: forward steps from rank 3
    // never reach ranks 1–2.
    edit(
        &d.join("shogi/shogi-flat.toml"),
        "first = [\"7-9\"]",
        "first = [\"1-2\"]",
    );
    // No dead rank for pawns: a pawn may be dropped on its last rank.
    edit(
        &d.join("shogi/shogi-flat.toml"),
        "pawn = { up = [9], down = [1] }",
        "pawn = { up = [], down = [] }",
    );
    let (_, report) = draft::check(&d, &Corpus::builtin().unwrap()).unwrap();
    let row = |v: &str| report.design.iter().find(|r| r.variant == v).unwrap();

    let mobius = &row("chess-mobius").bishops;
    assert!(matches!(mobius.colouring, Colouring::Exists { .. }));
    assert_eq!(mobius.balanced(), Some(false));
    assert_eq!(mobius.players[0].dark, ["c1", "g1"]);
    assert!(mobius.players[0].light.is_empty());

    let stuck: Vec<&str> = row("shogi-flat")
        .stuck_pawns()
        .iter()
        .map(|p| p.cell.as_str())
        .collect();
    assert_eq!(
        stuck,
        ["a3", "b3", "c3", "d3", "e3", "f3", "g3", "h3", "i3"]
    );

    let drops: Vec<String> = row("shogi-flat")
        .immobile_drops()
        .iter()
        .map(|x| format!("{}*{}", x.piece, x.cell))
        .collect();
    assert_eq!(drops.len(), 18);
    assert!(drops.contains(&"P*e9".to_string()) && drops.contains(&"p*e1".to_string()));

    let findings = report.design_findings();
    assert!(
        findings.contains(
            &"chess-mobius: White bishops not colour-balanced (2 dark, 0 light)".to_string()
        ),
        "{findings:?}"
    );
    assert!(
        findings
            .contains(&"shogi-flat: the A pawn on a3 has no forward path to promotion".to_string()),
        "{findings:?}"
    );
    assert!(
        findings.contains(&"shogi-flat: 18 drops land where the piece can never move".to_string())
    );

    // The CLI shows the same in text and JSON.
    let r = seams(&["spec", "check", p(&d), "--full"]);
    assert!(
        r.stdout
            .lines()
            .any(|l| l.contains("chess-mobius") && l.contains("NOT BALANCED")),
        "{}",
        r.stdout
    );
    assert!(
        r.stdout.contains("9 of 18 pawns have NO path: A a3"),
        "{}",
        r.stdout
    );
    assert!(
        r.stdout.contains("18 allowed by SS-6.4: P*a9"),
        "{}",
        r.stdout
    );
    let r = seams(&["spec", "check", p(&d), "--json"]);
    let v: serde_json::Value = serde_json::from_str(&r.stdout).unwrap();
    let findings_json = v["tables"]["design_findings"].as_array().unwrap();
    assert_eq!(findings_json.len(), findings.len());
    let mobius_json = v["tables"]["design"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["variant"] == "chess-mobius")
        .unwrap();
    assert_eq!(mobius_json["bishops"]["colouring"]["kind"], "exists");
    assert_eq!(mobius_json["bishops"]["players"][0]["balanced"], false);
    assert_eq!(v["tables"]["solids"][0]["cells"], 165);
    assert_eq!(v["tables"]["audits"].as_array().unwrap().len(), 12);
    std::fs::remove_dir_all(root).unwrap();
}

#[test]
fn an_odd_seam_on_a_draft_board_removes_the_colour_classes() {
    use seams::design::Colouring;
    let root = scratch();
    let d = root.join("draft");
    // Nine files instead of ten: the Möbius seam j,r → a,10 − r becomes
    // i,r → a,10 − r, which joins cells of equal chart parity.
    edit(
        &d.join("boards/mobius-10x9.toml"),
        "width = 10",
        "width = 9",
    );
    edit(
        &d.join("chess/chess-mobius.toml"),
        "row = \". P N P P P . P P .\"",
        "row = \". P N P P . P P .\"",
    );
    edit(
        &d.join("chess/chess-mobius.toml"),
        "row = \"P R . B Q K B N R P\"",
        "row = \"P R . B K B N R P\"",
    );
    // The castling cells no longer fit: a load error naming file and entry.
    let err = Draft::load(&d).err().unwrap();
    assert!(
        err.to_string()
            .contains("chess-mobius.toml: castling.east.king"),
        "{err}"
    );
    let text = std::fs::read_to_string(d.join("chess/chess-mobius.toml")).unwrap();
    let (cut, end) = (
        text.find("# SC-5").unwrap(),
        text.find("[endings]").unwrap(),
    );
    std::fs::write(
        d.join("chess/chess-mobius.toml"),
        format!("{}{}", &text[..cut], &text[end..]),
    )
    .unwrap();
    let (_, report) = draft::check(&d, &Corpus::builtin().unwrap()).unwrap();
    let row = report
        .design
        .iter()
        .find(|r| r.variant == "chess-mobius")
        .unwrap();
    match &row.bishops.colouring {
        Colouring::None { seam_steps, .. } => {
            assert!(!seam_steps.is_empty());
            assert!(
                seam_steps
                    .iter()
                    .all(|s| s.contains("i") && s.contains("a")),
                "{seam_steps:?}"
            );
        }
        other => panic!("{other:?}"),
    }
    assert_eq!(row.bishops.balanced(), None);
    assert!(row.bishops.players.is_empty());
    std::fs::remove_dir_all(root).unwrap();
}

#[test]
fn audit_plies_are_a_flag_and_checked() {
    let root = scratch();
    let d = root.join("draft");
    let r = seams(&["spec", "check", p(&d), "--plies", "1", "--json"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let v: serde_json::Value = serde_json::from_str(&r.stdout).unwrap();
    assert!(
        v["tables"]["audits"]
            .as_array()
            .unwrap()
            .iter()
            .all(|a| a["plies"] == 1)
    );
    let r = seams(&["spec", "check", p(&d), "--plies", "1", "--full"]);
    assert!(
        r.stdout.contains("opening audit of every setup (1 plies):"),
        "{}",
        r.stdout
    );
    for bad in ["0", "9"] {
        crate::common::check_input_error(
            &["spec", "check", p(&d), "--plies", bad],
            &format!("--plies must be between 1 and 4, not {bad}"),
        );
    }
    crate::common::check_input_error(&["spec", "check", p(&d), "--plies", "x"], "--plies");
    let err = draft::check_with(&d, &Corpus::builtin().unwrap(), 0)
        .err()
        .unwrap();
    assert!(
        matches!(err, DraftError::Plies { plies: 0, max: 4 }),
        "{err:?}"
    );
    std::fs::remove_dir_all(root).unwrap();
}

#[test]
fn accept_into_writes_a_scratch_spec_folder() {
    let root = scratch();
    let cases = root.join("cases");
    let d = klein_14(&root);
    // The folder to release into: a scratch copy of spec/, never the
    // project's own.
    let here = Path::new(env!("CARGO_MANIFEST_DIR"));
    let into = root.join("released");
    crate::common::copy_dir(&here.join("spec"), &into);
    // A stale data file the draft does not have is removed.
    std::fs::write(
        into.join("chess/chess-stale.toml"),
        std::fs::read_to_string(into.join("chess/chess-flat.toml"))
            .unwrap()
            .replace("variant = \"chess-flat\"", "variant = \"chess-stale\""),
    )
    .unwrap();

    // Usage errors: --into needs --accept; --into must be a spec folder
    // other than the draft; nothing is written by a refused run.
    let cases_before = Corpus::from_dir(&cases).unwrap().cases.len();
    let r = seams(&["spec", "check", p(&d), "--into", p(&into)]);
    assert_eq!(r.code, 2, "{}", r.stderr);
    crate::common::check_input_error(
        &[
            "spec",
            "check",
            p(&d),
            "--accept",
            "--version",
            "0.3",
            "--corpus",
            p(&cases),
            "--into",
            p(&root.join("cases")),
        ],
        "not a spec folder",
    );
    let data = std::fs::read_to_string(d.join("shogi/shogi-klein.toml")).unwrap();
    assert!(
        data.contains("rules-version = \"0.2\""),
        "the refused run wrote the draft"
    );
    let err = draft::write_into(&d, &d).err().unwrap();
    assert!(err.to_string().contains("the draft folder itself"), "{err}");
    crate::common::check_input_error(
        &[
            "spec",
            "check",
            p(&d),
            "--accept",
            "--version",
            "0.3",
            "--corpus",
            p(&cases),
            "--into",
            p(&d),
        ],
        "the draft folder itself",
    );
    let data = std::fs::read_to_string(d.join("shogi/shogi-klein.toml")).unwrap();
    assert!(
        data.contains("rules-version = \"0.2\""),
        "the refused run wrote the draft"
    );
    assert_eq!(Corpus::from_dir(&cases).unwrap().cases.len(), cases_before);

    let r = seams(&[
        "spec",
        "check",
        p(&d),
        "--accept",
        "--version",
        "0.3",
        "--corpus",
        p(&cases),
        "--into",
        p(&into),
    ]);
    assert_eq!(r.code, 0, "{}{}", r.stdout, r.stderr);
    assert!(r.stdout.contains("written into"), "{}", r.stdout);
    let board = std::fs::read_to_string(into.join("boards/klein-9x18.toml")).unwrap();
    assert!(board.contains("height = 14"));
    let data = std::fs::read_to_string(into.join("shogi/shogi-klein.toml")).unwrap();
    assert!(data.contains("rules-version = \"0.3\""));
    let md = std::fs::read_to_string(into.join("chess/rules.md")).unwrap();
    assert!(md.contains("## Changelog: rules 0.3"));
    assert!(!into.join("chess/chess-stale.toml").exists());
    // The released folder passes the gate against the updated corpus.
    let r = seams(&["--spec", p(&into), "spec", "gate", "--corpus", p(&cases)]);
    assert_eq!(r.code, 0, "{}{}", r.stdout, r.stderr);
    // And the written folder is identical to the draft where it mirrors.
    let released = Draft::load(&into).unwrap();
    assert_eq!(released.variants.len(), seams::registry::variants().len());
    std::fs::remove_dir_all(root).unwrap();
}

/// A setup edit no case need pin (White's bishop and knight on g1 and h1
/// of the Möbius strip swapped, and so Black's, its exchange image) is
/// reported through the fingerprint: the perft of the start and the first
/// actions whose subtrees changed, with the summary counting it first.
#[test]
fn a_swapped_setup_shows_in_the_fingerprint() {
    let root = scratch();
    let d = swapped_mobius(&root);
    let r = seams(&["spec", "check", p(&d)]);
    assert_eq!(r.code, 1, "{}{}", r.stdout, r.stderr);
    let first = r.stdout.lines().next().unwrap_or_default();
    assert!(
        first.starts_with("summary: ") && first.contains(", 1 changed fingerprint (of 12), "),
        "{first}"
    );
    for line in [
        "fingerprints (perft of each start to depth 3, against the built-in spec): 1 changed, 11 unchanged",
        "  chess-mobius: perft 25 630 18710 → 31 929 31284",
        "    a1-a2: 707 → 1025",
        // Only what differs is listed; the rest is counted.
        "facts:",
        "  boards: 8 unchanged",
        "  bishop colours, pawn paths and drops: 1 changed, 11 unchanged",
        "  opening audits: 1 changed, 11 unchanged",
        "    chess-mobius: position: pr1bqkbnrp/1pnppp1pp1/10/10/10/10/10/1PNPPP1PP1/PR1BQKBNRP w KQkq - 0 1 → pr1bqknbrp/1pnppp1pp1/10/10/10/10/10/1PNPPP1PP1/PR1BQKNBRP w KQkq - 0 1",
    ] {
        assert!(
            r.stdout.lines().any(|l| l == line),
            "no line '{line}':\n{}",
            r.stdout
        );
    }
    std::fs::remove_dir_all(root).unwrap();
}

/// `--base DIR` and `--base-rev REV` change what the fingerprints are
/// compared with: the edited draft against itself changes nothing, against
/// the repository's committed spec/ it shows the swap; a revision that is
/// not one is a usage error naming it (exit 2), and the two flags exclude
/// each other.
#[test]
fn the_base_is_a_folder_or_a_git_revision() {
    let root = scratch();
    let d = swapped_mobius(&root);
    let r = seams(&["spec", "check", p(&d), "--base", p(&d)]);
    let line = format!(
        "fingerprints (perft of each start to depth 3, against {}): 0 changed, 12 unchanged",
        p(&d)
    );
    assert!(r.stdout.lines().any(|l| l == line), "{}", r.stdout);
    // The tests run in the repository's root, whose HEAD holds spec/.
    let r = seams(&["spec", "check", p(&d), "--base-rev", "HEAD"]);
    assert!(
        r.stdout.lines().any(|l| l
            == "fingerprints (perft of each start to depth 3, against spec/ at HEAD): 1 changed, 11 unchanged"),
        "{}{}",
        r.stdout,
        r.stderr
    );
    let r = seams(&["spec", "check", p(&d), "--base-rev", "no-such-revision"]);
    assert_eq!(r.code, 2, "{}", r.stderr);
    assert!(
        r.stderr
            .contains("--base-rev no-such-revision: not a revision of the repository"),
        "{}",
        r.stderr
    );
    let r = seams(&[
        "spec",
        "check",
        p(&d),
        "--base-rev",
        "HEAD",
        "--base",
        p(&d),
    ]);
    assert_eq!(r.code, 2, "{}", r.stderr);
    assert!(r.stderr.contains("cannot be used with"), "{}", r.stderr);
    std::fs::remove_dir_all(root).unwrap();
}
