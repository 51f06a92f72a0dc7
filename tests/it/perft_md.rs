//! `conformance/PERFT.md` recounted: every row of its table of initial
//! positions and of its table of positions from seeded random play, to
//! depth 5, whose count is within a node budget, is counted again by the
//! engine as it stands and must equal the table. The tables were written
//! when every piece's movement was still Rust; since movement is data
//! (MV-6), this test is what holds the data to the old counts.
//!
//! The default budget (rows of at most four million leaves: 113 rows, 64
//! million leaves) keeps the test to seconds in a release build;
//! `SEAMS_SLOW=1` counts every row of depth 5 or less (238 rows, 29 billion
//! leaves; the tetrahedral random positions at depth 4 are a billion
//! leaves or more each).

use seams::registry;
use seams::variant::{At, divide_parallel};

/// The largest count recounted by default, and with `SEAMS_SLOW=1`.
const DEFAULT_BUDGET: u64 = 4_000_000;
const SLOW_BUDGET: u64 = u64::MAX;

/// The deepest row recounted (the issue asks for depth 4 or 5).
const MAX_DEPTH: u32 = 5;

/// One count the tables give: a variant, a position (`None`: the start),
/// a depth and the nodes.
#[derive(Debug)]
struct Row {
    variant: String,
    position: Option<String>,
    depth: u32,
    nodes: u64,
}

/// The rows of the two tables, read from the Markdown.
fn rows(text: &str) -> Vec<Row> {
    let mut out = Vec::new();
    let mut section = "";
    for line in text.lines() {
        if let Some(h) = line.strip_prefix("## ") {
            section = match h {
                "Initial positions" => "start",
                "Positions from seeded random play" => "random",
                _ => "",
            };
            continue;
        }
        // Cells are split at ` | `: a genus-two placement holds `|`
        // between its sheets. An empty cell first stands for the `|` the
        // row starts with, so that the columns count from 1.
        let Some(inner) = line.strip_prefix("| ").and_then(|l| l.strip_suffix(" |")) else {
            continue;
        };
        let cells: Vec<&str> = std::iter::once("").chain(inner.split(" | ")).collect();
        if cells.len() < 4 || cells[1] == "variant" {
            continue;
        }
        match section {
            "start" => out.push(Row {
                variant: cells[1].to_string(),
                position: None,
                depth: cells[2].parse().expect("a depth"),
                nodes: cells[3].parse().expect("a count"),
            }),
            "random" => {
                let position = cells[4].trim_matches('`').to_string();
                // `4: 3174548 (0.12 s)<br>5: 140625406 (6.68 s)`
                for count in cells[6].split("<br>") {
                    let (depth, rest) = count.split_once(':').expect("depth: nodes");
                    let nodes = rest.split_whitespace().next().expect("nodes");
                    out.push(Row {
                        variant: cells[1].to_string(),
                        position: Some(position.clone()),
                        depth: depth.trim().parse().expect("a depth"),
                        nodes: nodes.parse().expect("a count"),
                    });
                }
            }
            _ => {}
        }
    }
    out
}

#[test]
fn the_perft_tables_are_recounted() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(root.join("conformance/PERFT.md")).expect("PERFT.md");
    let all = rows(&text);
    // Not vacuous: both tables were read, every variant is in them.
    assert!(all.iter().filter(|r| r.position.is_none()).count() >= 60);
    assert!(all.iter().filter(|r| r.position.is_some()).count() >= 120);
    let budget = match std::env::var("SEAMS_SLOW").as_deref() {
        Ok("1") => SLOW_BUDGET,
        _ => DEFAULT_BUDGET,
    };
    let mut counted = 0;
    let mut nodes = 0u64;
    for r in all
        .iter()
        .filter(|r| r.depth <= MAX_DEPTH && r.nodes <= budget)
    {
        let v = registry::find(&r.variant).unwrap_or_else(|e| panic!("{}: {e}", r.variant));
        let at = At {
            position: r.position.as_deref(),
            moves: &[],
        };
        let got: u64 = divide_parallel(v, &at, r.depth, 2)
            .unwrap_or_else(|e| panic!("{r:?}: {e}"))
            .iter()
            .map(|(_, n)| n)
            .sum();
        assert_eq!(got, r.nodes, "{r:?}");
        counted += 1;
        nodes += got;
    }
    // Every variant has rows within the default budget, starts and
    // random positions alike, but for the tetrahedral random positions,
    // whose hands make depth 4, the table's only depth, a billion leaves
    // or more: `SEAMS_SLOW=1` counts those.
    for v in registry::variants() {
        let name = v.name();
        let kinds: &[bool] = if name.starts_with("tetra-") {
            &[true]
        } else {
            &[true, false]
        };
        for &start in kinds {
            assert!(
                all.iter().any(|r| r.variant == name
                    && r.position.is_none() == start
                    && r.depth <= MAX_DEPTH
                    && r.nodes <= DEFAULT_BUDGET),
                "{name}: no {} row within the budget",
                if start { "start" } else { "random" }
            );
        }
    }
    eprintln!("recounted {counted} rows of PERFT.md, {nodes} nodes (budget {budget})");
}

#[test]
fn the_table_reader_reads_both_kinds_of_row() {
    let text = "## Initial positions\n\n| variant | depth | nodes | seconds |\n|---|---|---|---|\n\
                | kyoto | 2 | 196 | 0.00 |\n\n## Positions from seeded random play\n\n\
                | variant | # | ply | position | holds | depth: nodes (seconds) |\n\
                |---|---|---|---|---|---|\n\
                | kyoto | 1 | 9 | `p1k1s/5/5/5/S1K1P w - 1` | hand | 4: 10 (0.1 s)<br>5: 20 (1.0 s) |\n";
    let r = rows(text);
    assert_eq!(r.len(), 3, "{r:?}");
    assert_eq!(
        (r[0].depth, r[0].nodes, r[0].position.is_none()),
        (2, 196, true)
    );
    assert_eq!(
        (r[2].depth, r[2].nodes, r[2].position.as_deref()),
        (5, 20, Some("p1k1s/5/5/5/S1K1P w - 1"))
    );
}
