//! The designer's change report (`seams spec check DRAFT`) on the
//! scenarios a rule designer meets: each edit is checked for the summary a
//! designer reads first, the differences listed under it, that nothing
//! unchanged is listed by itself, and that `--json` says the same and
//! follows its published schema.

use std::path::Path;

use crate::common::drafts::{edit, klein_14, scratch, swapped_mobius};
use crate::common::seams;
use seams::draft::Summary;

/// How many lines of the report a designer is promised to find the
/// summary in (#32): it is the first.
const SUMMARY_WITHIN: usize = 15;

fn p(path: &Path) -> &str {
    path.to_str().unwrap()
}

/// The counts of a draft that loads.
fn counts(cases: usize, fact_rows: usize, fingerprints: usize, new: usize, gone: usize) -> Summary {
    Summary {
        load_errors: 0,
        files_with_load_errors: 0,
        changed_cases: cases,
        changed_fact_rows: fact_rows,
        changed_fingerprints: fingerprints,
        fingerprints: seams::registry::variants().len(),
        new_findings: new,
        gone_findings: gone,
    }
}

/// Runs `seams spec check DRAFT ARGS` as text and as JSON, and checks
/// what a designer relies on: the exit code; `summary` as the first line
/// (within [`SUMMARY_WITHIN`]) and the last; every line of `expect`;
/// under `facts:` only counts of kinds and changes; and the JSON's
/// summary and schema. Returns the text report.
fn check(draft: &Path, args: &[&str], code: i32, summary: &Summary, expect: &[&str]) -> String {
    let mut argv = vec!["spec", "check", p(draft)];
    argv.extend_from_slice(args);
    let r = seams(&argv);
    assert_eq!(r.code, code, "{}{}", r.stdout, r.stderr);
    let lines: Vec<&str> = r.stdout.lines().collect();
    let head = summary.to_string();
    assert!(
        lines.iter().take(SUMMARY_WITHIN).any(|l| *l == head),
        "no '{head}' in the first {SUMMARY_WITHIN} lines:\n{}",
        r.stdout
    );
    assert_eq!(lines.first(), Some(&head.as_str()), "{}", r.stdout);
    assert_eq!(lines.last(), Some(&head.as_str()), "{}", r.stdout);
    for line in expect {
        assert!(lines.contains(line), "no line '{line}':\n{}", r.stdout);
    }
    only_changes_under_facts(&lines);

    argv.push("--json");
    let r = seams(&argv);
    assert_eq!(r.code, code, "{}", r.stderr);
    let v: serde_json::Value = serde_json::from_str(&r.stdout).expect("the report is JSON");
    assert_eq!(v["summary"], serde_json::to_value(summary).unwrap());
    let errors: Vec<String> = schema().iter_errors(&v).map(|e| e.to_string()).collect();
    assert!(errors.is_empty(), "{errors:?}\n{}", r.stdout);
    lines.join("\n")
}

/// The published schema of `--json`.
fn schema() -> jsonschema::Validator {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("conformance/schema")
        .join(seams::draft::SCHEMA_FILE);
    let schema: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    jsonschema::draft202012::new(&schema).expect("the schema compiles")
}

/// Under `facts:`, a kind is one line of counts and every other line is a
/// change (`old → new`, an item gained or lost, a row new or gone, or the
/// count of a long list's remaining items): no unchanged row is listed.
fn only_changes_under_facts(lines: &[&str]) {
    let Some(start) = lines.iter().position(|l| *l == "facts:") else {
        return;
    };
    for line in lines[start + 1..]
        .iter()
        .take_while(|l| l.starts_with("  "))
    {
        let kind = line.len() - line.trim_start().len() == 2;
        let ok = if kind {
            line.ends_with(" unchanged")
        } else {
            [" → ", ": + ", ": − ", ": new", ": gone", " more ("]
                .iter()
                .any(|m| line.contains(m))
        };
        assert!(ok, "not a change: '{line}'");
    }
}

#[test]
fn an_unchanged_draft_is_a_short_no_changes_report() {
    let root = scratch();
    let report = check(&root.join("draft"), &[], 0, &counts(0, 0, 0, 0, 0), &[]);
    assert!(report.starts_with("summary: no changes ("), "{report}");
    assert!(report.lines().count() <= 13, "{report}");
    assert!(
        report.contains("findings: 0 new, 0 gone, 2 as in the base"),
        "{report}"
    );
    std::fs::remove_dir_all(root).unwrap();
}

/// The README's example: the Klein bottle 14 ranks high, with the Klein
/// variants' ranks moved to fit.
#[test]
fn the_klein_height_edit() {
    let root = scratch();
    let d = klein_14(&root);
    check(
        &d,
        &[],
        1,
        &counts(46, 7, 2, 0, 0),
        &[
            "  boards: 1 changed, 7 unchanged",
            "    klein-9x18: faces: 162 → 126",
            "    klein-9x18: bishop_reach.62: absent → 126",
            // The seed's numbers: a bishop reaches 31 cells from 144 and 16
            // from the other 18 of the 9 × 18 Klein bottle, and all 62 others
            // of its colour from every cell of the 9 × 14 one.
            "  pieces: movement and reach on the empty board: 2 changed, 10 unchanged",
            "    chess-klein: pieces[bishop].destinations: 4752 → 7812",
            "    chess-klein: pieces[bishop].reach: 16×18 31×144 → 62×126",
            "  opening audits: 2 changed, 10 unchanged",
            "    chess-klein: attacked: + by: Bh5; target: pe8",
            "  chess-klein: perft 42 1677 88228 → 39 1434 70650",
            "  [SC-6.1, SC-8.2, SC-1.1, SC-1.2]",
            "    chess/klein/perft-start-1#50ef6647",
            "      42 → 39",
        ],
    );
    std::fs::remove_dir_all(root).unwrap();
}

/// Player A's promotion zone on the Möbius strip grows to rank 8; player
/// B's stays: the zones no longer mirror under Φ.
#[test]
fn an_asymmetric_promotion_zone() {
    let root = scratch();
    let d = root.join("draft");
    edit(
        &d.join("shogi/shogi-mobius.toml"),
        "first = [\"9-11\"]",
        "first = [\"8-11\"]",
    );
    check(
        &d,
        &[],
        1,
        &counts(3, 1, 1, 1, 0),
        &[
            "    shogi-mobius: mirrored[promotion zone].first_only: + a8 b8 c8 d8 e8 f8 g8 h8 i8",
            "    shogi-mobius: pawns.pawns[first a3].moves: 6 → 5",
            "  new: shogi-mobius: promotion zone does not mirror under Φ: Φ takes A's a8 b8 c8 d8 \
             e8 f8 … (9 in all) outside B's",
            "    shogi/mobius/lance-keeps-its-file#506777db",
        ],
    );
    std::fs::remove_dir_all(root).unwrap();
}

/// Player B's pawns may be dropped on rank 1, player A's still not on
/// rank 11: the drop restriction no longer mirrors.
#[test]
fn an_asymmetric_drop_restriction() {
    let root = scratch();
    let d = root.join("draft");
    edit(
        &d.join("shogi/shogi-mobius.toml"),
        "pawn = { up = [11], down = [1] }",
        "pawn = { up = [11], down = [] }",
    );
    let report = check(&d, &[], 0, &counts(0, 1, 0, 2, 0), &[]);
    assert!(
        report.contains(
            "  new: shogi-mobius: drops of P does not mirror under Φ: B's a1 b1 c1 d1 e1 f1 … \
             (9 in all) are not Φ of A's"
        ),
        "{report}"
    );
    std::fs::remove_dir_all(root).unwrap();
}

/// Player B's bishop-and-rook row moves from rank 10 to rank 8: the setup
/// is no longer its own image under Φ.
#[test]
fn a_setup_edit_that_breaks_exchange_symmetry() {
    let root = scratch();
    let d = root.join("draft");
    edit(
        &d.join("shogi/shogi-mobius.toml"),
        "second = \"10\"",
        "second = \"8\"",
    );
    check(
        &d,
        &[],
        1,
        &counts(3, 3, 1, 1, 0),
        &[
            "  exchange symmetry of the starts: 1 changed, 11 unchanged",
            "    shogi-mobius: exchange_symmetric: true → false",
            "  new: shogi-mobius: the two players' setups do not mirror under Φ (the start is not \
             exchange-symmetric)",
            "  shogi-mobius: perft 29 841 23226 → 29 1358 36896",
        ],
    );
    std::fs::remove_dir_all(root).unwrap();
}

/// White's bishop and knight swapped (and Black's, their image): the
/// fingerprint shows it with the divide actions that differ, and the
/// bishops now stand on one colour.
#[test]
fn a_swapped_pair_shows_in_the_fingerprint() {
    let root = scratch();
    let d = swapped_mobius(&root);
    check(
        &d,
        &[],
        1,
        &counts(17, 2, 1, 2, 0),
        &[
            "fingerprints (perft of each start to depth 3, against the built-in spec): 1 changed, \
             11 unchanged",
            "  chess-mobius: perft 25 630 18710 → 31 929 31284",
            "    a1-a2: 707 → 1025",
            "  new: chess-mobius: White bishops not colour-balanced (0 dark, 2 light)",
        ],
    );
    std::fs::remove_dir_all(root).unwrap();
}

/// `--base-rev` reads the base from a commit: the swapped draft against
/// the repository's HEAD (the tests run in its root).
#[test]
fn the_base_is_a_commit() {
    let root = scratch();
    let d = swapped_mobius(&root);
    let report = check(
        &d,
        &["--base-rev", "HEAD"],
        1,
        &counts(17, 2, 1, 2, 0),
        &["  chess-mobius: perft 25 630 18710 → 31 929 31284"],
    );
    assert!(
        report.contains("spec check: ") && report.contains(" against spec/ at HEAD"),
        "{report}"
    );
    std::fs::remove_dir_all(root).unwrap();
}

/// The Klein height edit alone breaks shogi's and chess's Klein files (the
/// promotion zones and a setup row), and a slip in Kyoto's file makes a
/// third: every error of every file is listed in one run, with its line.
#[test]
fn three_broken_files_in_one_run() {
    let root = scratch();
    let d = root.join("draft");
    edit(
        &d.join("boards/klein-9x18.toml"),
        "height = 18",
        "height = 14",
    );
    edit(
        &d.join("kyoto/kyoto.toml"),
        "pawn = \"rook\"",
        "pawn = \"rock\"",
    );
    let summary = Summary {
        load_errors: 4,
        files_with_load_errors: 3,
        ..Summary::default()
    };
    let report = check(&d, &[], 2, &summary, &[]);
    let errors: Vec<&str> = report
        .lines()
        .skip_while(|l| *l != "load errors:")
        .skip(1)
        .take_while(|l| l.starts_with("  "))
        .collect();
    let at = |file: &str| d.join(file).display().to_string();
    assert_eq!(
        errors,
        [
            format!(
                "  {}:26: promotion.first: '13-15': the board has 14 ranks",
                at("shogi/shogi-klein.toml")
            ),
            format!(
                "  {}:13: setup.rows[0].second: bad coordinate 'i15' on board klein-9x18: rank \
                 15 is outside 1–14",
                at("shogi/shogi-klein.toml")
            ),
            format!(
                "  {}:27: promotion.first: rank 15 is outside 1–14",
                at("chess/chess-klein.toml")
            ),
            format!(
                "  {}:17: flips.pawn: unknown face 'rock' (known: king, tokin, lance, silver, \
                 bishop, gold, knight, pawn, rook; did you mean 'rook'?)",
                at("kyoto/kyoto.toml")
            ),
        ]
    );
    // The page says the same: the summary and one item per error.
    let r = seams(&["spec", "check", p(&d), "--format", "html"]);
    assert_eq!(r.code, 2, "{}", r.stderr);
    assert!(r.stdout.starts_with("<!DOCTYPE html>"), "{}", r.stdout);
    assert!(r.stdout.contains(&summary.to_string()), "{}", r.stdout);
    assert_eq!(r.stdout.matches("<li><code>").count(), 4, "{}", r.stdout);
    std::fs::remove_dir_all(root).unwrap();
}
