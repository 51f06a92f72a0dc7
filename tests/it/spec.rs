//! Traceability: every corpus citation names a spec clause, and every
//! clause of every `spec/*/rules.md` is pinned by at least one case.

use seams::conformance::Corpus;
use seams::conformance::coverage::coverage;
use seams::spec::{builtin_clauses, clause_order, is_clause_id, parse_clauses};

#[test]
fn every_citation_names_a_clause_and_every_clause_has_a_case() {
    let corpus = Corpus::builtin().expect("the built-in corpus loads");
    let cov = coverage(&builtin_clauses(), &corpus);
    let unknown: Vec<String> = cov
        .unknown
        .iter()
        .map(|(case, clause)| format!("{case} cites {clause}"))
        .collect();
    assert!(
        unknown.is_empty(),
        "citations of undefined clauses:\n{}",
        unknown.join("\n")
    );
    let uncovered: Vec<&str> = cov.uncovered().map(|r| r.clause.as_str()).collect();
    assert!(
        uncovered.is_empty(),
        "clauses without a case: {uncovered:?}"
    );
}

#[test]
fn clauses_sort_by_prefix_then_number_with_interpretations_last() {
    let mut ids = vec![
        "SC-I10",
        "SC-10.1",
        "not-a-clause",
        "GEO-2.1",
        "SC-I2",
        "SC-2.10",
        "SC-2.1",
        "SC-2.2",
        "KY-1.1",
    ];
    ids.sort_by(|a, b| clause_order(a, b));
    assert_eq!(
        ids,
        [
            "GEO-2.1",
            "KY-1.1",
            "SC-2.1",
            "SC-2.2",
            "SC-2.10",
            "SC-10.1",
            "SC-I2",
            "SC-I10",
            "not-a-clause"
        ]
    );
    // `seams spec coverage` lists its rows in that order.
    let cov = coverage(
        &builtin_clauses(),
        &Corpus::builtin().expect("the corpus loads"),
    );
    assert!(
        cov.rows
            .is_sorted_by(|a, b| clause_order(&a.clause, &b.clause).is_le())
    );
    let tetra: Vec<&str> = cov
        .rows
        .iter()
        .map(|r| r.clause.as_str())
        .filter(|c| c.starts_with("TH-") || c.starts_with("TS-2."))
        .take(3)
        .collect();
    assert_eq!(tetra, ["TH-2.1", "TH-2.2", "TH-2.3"]);
}

#[test]
fn clause_numbers_are_unique() {
    let clauses = builtin_clauses();
    let mut ids: Vec<&str> = clauses.iter().map(|c| c.id.as_str()).collect();
    ids.sort_unstable();
    let before = ids.len();
    ids.dedup();
    assert_eq!(before, ids.len(), "a clause number is defined twice");
}

/// Parses a rules text and lists the clause ids found.
fn check(text: &str, expect: &[&str]) {
    let got: Vec<String> = parse_clauses("t.md", text)
        .into_iter()
        .map(|c| c.id)
        .collect();
    assert_eq!(got, expect);
}

#[test]
fn clause_lines_are_recognised() {
    check("- **GEO-3.1** A diagonal…", &["GEO-3.1"]);
    check("- **SS-I2** Interpretation: …", &["SS-I2"]);
    check("**SC-10.4.2** deep numbering", &["SC-10.4.2"]);
    check("- **Not a clause** text", &[]);
    check("plain text with GEO-3.1 but no bold", &[]);
    check("- **geo-3.1** lower case", &[]);
    check("- **GEO-** empty number", &[]);
}

#[test]
fn clause_id_shape() {
    assert!(is_clause_id("GEO-7.6"));
    assert!(is_clause_id("KY-I1"));
    assert!(!is_clause_id("GEO-7."));
    assert!(!is_clause_id("GEO7.6"));
    assert!(!is_clause_id("GEO-I"));
}

/// The README's sentence on the corpus states its size and provenance mix;
/// it must be the corpus's, so the figure cannot go stale.
#[test]
fn the_readme_counts_are_the_corpus_counts() {
    let corpus = Corpus::builtin().expect("the built-in corpus loads");
    let count = |kind: &str| {
        corpus
            .cases
            .iter()
            .filter(|(_, c)| c.provenance.kind() == kind)
            .count()
    };
    let readme = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/README.md"))
        .expect("README.md");
    let text = readme.split_whitespace().collect::<Vec<_>>().join(" ");
    for claim in [
        format!("{} cases, each citing spec clauses", corpus.cases.len()),
        format!("{} from worked examples", count("seed")),
        format!("{} published figures", count("published")),
        format!("{} derived by hand", count("derived")),
        format!("{} cross-checked with other engines", count("cross-check")),
        format!("{} reviewed outputs of this engine", count("reference")),
    ] {
        assert!(text.contains(&claim), "README.md should say '{claim}'");
    }
}

/// The README's coverage table is the one `seams spec coverage` computes.
#[test]
fn the_readme_coverage_table_is_current() {
    let corpus = Corpus::builtin().expect("the built-in corpus loads");
    let cov = coverage(&builtin_clauses(), &corpus);
    let readme = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/README.md"))
        .expect("README.md");
    for (name, prefixes) in [
        ("geometry (`GEO`)", &["GEO"][..]),
        ("surface shogi (`SS`)", &["SS"]),
        ("surface chess (`SC`)", &["SC"]),
        ("Kyoto (`KY`)", &["KY"]),
        ("tetrahedral (`TS`, `TH`)", &["TS", "TH"]),
        ("notation, shared (`NT`)", &["NT"]),
        ("movement, shared (`MV`)", &["MV"]),
    ] {
        let rows: Vec<_> = cov
            .rows
            .iter()
            .filter(|r| {
                prefixes
                    .iter()
                    .any(|p| r.clause.starts_with(&format!("{p}-")))
            })
            .collect();
        let covered = rows.iter().filter(|r| !r.cases.is_empty()).count();
        let row = format!("| {name} | {} | {covered} |", rows.len());
        assert!(readme.contains(&row), "README.md should have the row {row}");
    }
}

/// Every family grammar compiles (with the shared cell names) and has the
/// three entry rules the readers and PROTOCOL.md name (NT-1.2); the
/// reference's gate would panic on a missing rule, so this is its check.
#[test]
fn every_notation_grammar_compiles_with_its_entry_rules() {
    for n in seams::spec::Notation::ALL {
        let g = n.compile().unwrap_or_else(|e| panic!("{}: {e}", n.file()));
        for rule in [
            "action",
            "game-action",
            "position",
            "sheet-cell",
            "tetra-cell",
        ] {
            assert!(g.has_rule(rule), "{} has no rule {rule}", n.file());
        }
        assert!(g.derives("game-action", "resign").is_ok(), "{}", n.file());
        assert!(g.derives("action", "resign").is_err(), "{}", n.file());
    }
}
