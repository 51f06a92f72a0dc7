//! `seams bench`: perft speed per variant. Speed is measured here (and in
//! `cargo bench`), never asserted in tests.

use std::process::ExitCode;
use std::time::Instant;

use anyhow::Result;
use seams::variant::{At, Variant};

use super::Rulebook;
use super::out::{Align, Table};

#[derive(clap::Args)]
pub struct BenchArgs {
    /// Only this variant.
    #[arg(long)]
    variant: Option<String>,
    /// The depth (default: 5 for chess-flat and kyoto, 3 for the
    /// tetrahedral variants, 4 otherwise).
    #[arg(long)]
    depth: Option<u32>,
    /// Print JSON instead of text.
    #[arg(long)]
    json: bool,
}

/// The default depth: each a fraction of a second to a few seconds in a
/// release build.
fn default_depth(v: &dyn Variant) -> u32 {
    match v.name() {
        "chess-flat" | "kyoto" | "kyoto-repetition-loss" => 5,
        n if n.starts_with("tetra-") => 3,
        _ => 4,
    }
}

/// `seams bench`.
pub fn bench(book: &Rulebook, a: BenchArgs) -> Result<ExitCode> {
    let chosen: Vec<&dyn Variant> = match &a.variant {
        Some(name) => vec![book.variant(name)?],
        None => book.variants()?,
    };
    let mut rows = Vec::new();
    let mut table = Table::new(&[Align::Left, Align::Left, Align::Right, Align::Right]);
    let bar = super::out::progress(chosen.len());
    for v in chosen {
        if let Some(bar) = &bar {
            bar.set_message(v.name().to_string());
        }
        let depth = a.depth.unwrap_or_else(|| default_depth(v));
        let started = Instant::now();
        let nodes = v.perft(&At::default(), depth)?;
        let seconds = started.elapsed().as_secs_f64();
        let rate = if seconds > 0.0 {
            nodes as f64 / seconds
        } else {
            0.0
        };
        if let Some(bar) = &bar {
            bar.inc(1);
        }
        if !a.json {
            table.row([
                v.name().to_string(),
                format!("depth {depth}"),
                format!("{nodes} nodes"),
                format!("{seconds:.3} s"),
                format!("{:.2} Mnodes/s", rate / 1e6),
            ]);
        }
        rows.push(serde_json::json!({
            "variant": v.name(), "depth": depth, "nodes": nodes,
            "seconds": seconds, "nodes_per_second": rate,
        }));
    }
    if let Some(bar) = bar {
        bar.finish_and_clear();
    }
    if a.json {
        outln!("{}", serde_json::to_string_pretty(&rows)?);
    } else {
        table.print()?;
    }
    Ok(ExitCode::SUCCESS)
}
