//! `seams bisect`: the first position where an engine's perft disagrees
//! with the reference (the search is `conformance::bisect`).

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{Context, Result, bail};
use seams::conformance::bisect;
use seams::conformance::run::start_command;

use super::Rulebook;
use super::limits::LimitArgs;
use super::position::PositionArgs;

#[derive(clap::Args)]
pub struct BisectArgs {
    /// The engine command line.
    #[arg(long, value_name = "CMD")]
    engine: String,
    /// A variant name from `seams variants`.
    #[arg(long, value_name = "V")]
    variant: String,
    #[command(flatten)]
    at: PositionArgs,
    /// How many plies deep to compare.
    #[arg(long, value_name = "D")]
    depth: u32,
    /// Write the culprit position as a corpus case file here.
    #[arg(long, value_name = "FILE")]
    out: Option<PathBuf>,
    /// Time limit for each reply, in milliseconds.
    #[arg(long, value_name = "T", default_value_t = 300_000)]
    timeout_ms: u64,
    #[command(flatten)]
    limits: LimitArgs,
}

/// `seams bisect`.
pub fn bisect(book: &Rulebook, a: BisectArgs) -> Result<ExitCode> {
    if a.depth == 0 {
        bail!("--depth 0 has nothing to compare; use a depth of 1 or more");
    }
    if let Some(path) = &a.out {
        super::check_writable_parent(path).context("--out")?;
    }
    let reference = book.variant(&a.variant)?;
    let place = a.at.resolve()?;
    let mut engine = start_command(&a.engine, a.limits.limits(a.timeout_ms)?)?;
    let found = bisect::bisect(
        &mut engine,
        reference,
        place.position.as_deref(),
        place.moves.clone(),
        a.depth,
    )?;
    match found {
        bisect::Bisection::Agree { nodes } => {
            outln!(
                "the engine agrees with the reference: perft({}) = {nodes}",
                a.depth
            );
            Ok(ExitCode::SUCCESS)
        }
        bisect::Bisection::Inconsistent { moves, detail } => {
            outln!("after moves [{}]: {detail}", moves.join(","));
            Ok(ExitCode::from(1))
        }
        bisect::Bisection::Found {
            moves,
            missing,
            extra,
            reference_actions,
        } => {
            outln!(
                "first disagreement after moves [{}]{}",
                moves.join(","),
                place
                    .position
                    .as_deref()
                    .map(|p| format!(" from position {p}"))
                    .unwrap_or_default()
            );
            outln!("missing (the reference has them): {}", missing.join(" "));
            outln!("extra (only the engine has them): {}", extra.join(" "));
            if let Some(path) = &a.out {
                let file = bisect::culprit_case(
                    &a.variant,
                    place.position.as_deref(),
                    &moves,
                    &reference_actions,
                );
                let mut text = serde_json::to_string_pretty(&file)?;
                text.push('\n');
                seams::files::write_atomically(path, &text)
                    .with_context(|| format!("writing the case to {}", path.display()))?;
                outln!(
                    "wrote {} (provenance 'reference', marked for review)",
                    path.display()
                );
            }
            Ok(ExitCode::from(1))
        }
    }
}
