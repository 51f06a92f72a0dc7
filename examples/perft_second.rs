//! A second, independent count of the random positions of
//! `conformance/PERFT.md`, to depth 4.
//!
//! The first counts in that file come from each family's fast perft. This
//! counts the same positions again by a path written apart from it
//! (`seams perft --independent`: chess and surface shogi make every
//! candidate and test the king, where the fast path tests only the
//! candidates that could expose it; the tetrahedral variants filter by
//! shields, where the fast path makes and tests every candidate; both copy
//! positions instead of make/unmake). Kyoto has one path, so its positions
//! are asked of another engine over the protocol instead, the
//! Fairy-Stockfish adapter (`tools/ffish-engine`) when `--engine` names it.
//!
//! Run with `cargo run --release --example perft_second -- [THREADS]
//! [--engine CMD]`: it reads the table from conformance/PERFT.md, prints
//! the Markdown section "A second count" on stdout (progress on stderr),
//! and exits 1 if any count differs from the table's.

use std::time::Instant;

use seams::conformance::case::Place;
use seams::conformance::engine::{Engine, Limits};
use seams::conformance::protocol::Command;
use seams::conformance::run::start_command;
use seams::registry;
use seams::shard::Shard;
use seams::variant::{At, Counter, PerftJob, Variant, divide_job};

/// The depth every random position is counted to twice.
const DEPTH: u32 = 4;

/// One row of the random-position table: variant, number, position, and
/// its depth-4 count.
struct Row {
    variant: String,
    number: String,
    position: String,
    nodes: u64,
}

/// The random-position rows of PERFT.md's table.
fn rows(table: &str) -> Vec<Row> {
    let mut out = Vec::new();
    let section = table
        .split("## Positions from seeded random play")
        .nth(1)
        .unwrap_or_default();
    for line in section.lines().filter(|l| l.starts_with("| ")) {
        let cells: Vec<&str> = line.split(" | ").collect();
        // | variant | # | ply | `position` | holds | 4: N (s)<br>5: … |
        let (Some(variant), Some(number), Some(position), Some(counts)) =
            (cells.first(), cells.get(1), cells.get(3), cells.get(5))
        else {
            continue;
        };
        let Some(nodes) = counts
            .strip_prefix("4: ")
            .and_then(|c| c.split_whitespace().next())
            .and_then(|n| n.parse().ok())
        else {
            continue;
        };
        out.push(Row {
            variant: variant.trim_start_matches("| ").to_string(),
            number: number.to_string(),
            position: position.trim_matches('`').to_string(),
            nodes,
        });
    }
    out
}

/// The count by the variant's second path, or `None` without one.
fn independent(v: &dyn Variant, position: &str, threads: usize) -> Option<u64> {
    let at = At {
        position: Some(position),
        moves: &[],
    };
    let job = PerftJob {
        depth: DEPTH,
        threads,
        shard: Shard::WHOLE,
        counter: Counter::Independent,
        hash_mib: 0,
    };
    let d = divide_job(v, &at, &job, &|_| ()).ok()?;
    Some(d.rows.iter().map(|(_, n)| n).sum())
}

/// The count another engine gives over the protocol. Kyoto's variants
/// differ only in how repetition ends a game, which perft ignores, so
/// both are asked as `kyoto`.
fn by_engine(engine: &mut dyn Engine, variant: &str, position: &str) -> Result<u64, String> {
    let asked = if variant.starts_with("kyoto") {
        "kyoto"
    } else {
        variant
    };
    let reply = engine
        .ask(&Command::Perft {
            variant: asked.to_string(),
            at: Place {
                position: Some(position.to_string()),
                moves: vec![],
            },
            depth: DEPTH,
            divide: false,
        })
        .map_err(|e| format!("{e:?}"))?;
    reply["nodes"]
        .as_u64()
        .ok_or_else(|| format!("no count in the reply {reply}"))
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let threads: usize = args
        .first()
        .and_then(|a| a.parse().ok())
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
    let command = args
        .iter()
        .position(|a| a == "--engine")
        .and_then(|i| args.get(i + 1));
    let mut engine = command.map(|c| {
        let limits = Limits {
            reply_timeout: std::time::Duration::from_secs(3600),
            ..Limits::default()
        };
        start_command(c, limits).unwrap_or_else(|e| panic!("starting {c}: {e}"))
    });
    let table = std::fs::read_to_string("conformance/PERFT.md")
        .expect("run from the repository's root: conformance/PERFT.md");
    let began = Instant::now();
    let mut differ = 0;
    println!("| variant | # | depth | table | second count | by | seconds |");
    println!("|---|---|---|---|---|---|---|");
    for row in rows(&table) {
        let Some(v) = registry::variants()
            .iter()
            .find(|v| v.name() == row.variant)
        else {
            panic!("PERFT.md names an unknown variant {}", row.variant);
        };
        let t = Instant::now();
        let (second, by) = match independent(v.as_ref(), &row.position, threads) {
            Some(n) => (Ok(n), "seams perft --independent"),
            None => match engine.as_mut() {
                Some(e) => (
                    by_engine(e, &row.variant, &row.position),
                    "Fairy-Stockfish (tools/ffish-engine)",
                ),
                None => (Err("no second path; pass --engine".into()), "—"),
            },
        };
        let shown = match &second {
            Ok(n) if *n == row.nodes => n.to_string(),
            Ok(n) => {
                differ += 1;
                format!("**{n} (differs)**")
            }
            Err(e) => {
                differ += 1;
                format!("**not counted: {e}**")
            }
        };
        let seconds = t.elapsed().as_secs_f64();
        eprintln!("{} {}: {shown} ({seconds:.1} s)", row.variant, row.number);
        println!(
            "| {} | {} | {DEPTH} | {} | {shown} | {by} | {seconds:.2} |",
            row.variant, row.number, row.nodes
        );
    }
    println!(
        "\nGenerated by `cargo run --release --example perft_second -- {threads}{}` in {:.0} s; \
         {differ} count(s) differ.",
        command
            .map(|c| format!(" --engine \"{c}\""))
            .unwrap_or_default(),
        began.elapsed().as_secs_f64()
    );
    if differ > 0 {
        std::process::exit(1);
    }
}
