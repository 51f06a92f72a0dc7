//! The rules commands: `variants`, `moves`, `perft` and `play`.

use std::process::ExitCode;

use anyhow::{Result, bail};
use seams::rules::Player;

use super::Rulebook;
use super::out::{Align, Table};
use super::position::PositionArgs;

#[derive(clap::Args)]
pub struct VariantsArgs {
    /// Print JSON instead of text.
    #[arg(long)]
    json: bool,
}

#[derive(clap::Args)]
pub struct MovesArgs {
    /// A variant name from `seams variants`.
    variant: String,
    #[command(flatten)]
    at: PositionArgs,
    /// Analysis mode (every variant): list the actions of this army,
    /// `first` or `second`, whoever is to move, as in the same position
    /// with that army to move. The result is an experiment, not the legal
    /// moves of a scored game.
    #[arg(long, value_name = "ARMY")]
    analysis: Option<String>,
    /// With --analysis: do not filter out actions that leave the army's
    /// own king attacked (in chess, castling then also ignores attacks on
    /// the king's cells). Every other rule still applies, and no action
    /// captures a king.
    #[arg(long, requires = "analysis")]
    no_king_safety: bool,
    /// Print JSON instead of text.
    #[arg(long)]
    json: bool,
}

#[derive(clap::Args)]
pub struct PerftArgs {
    /// A variant name from `seams variants`.
    variant: String,
    /// How many plies deep.
    depth: u32,
    #[command(flatten)]
    at: PositionArgs,
    /// Also print the count below each legal action.
    #[arg(long)]
    divide: bool,
    /// Split the work at the root across this many threads (default: every
    /// core); the counts are the same for any number.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u16).range(1..=1024))]
    threads: Option<u16>,
    /// Print JSON instead of text.
    #[arg(long)]
    json: bool,
}

/// `seams variants`.
pub fn variants(book: &Rulebook, a: VariantsArgs) -> Result<ExitCode> {
    let variants = book.variants()?;
    if a.json {
        let rows: Vec<serde_json::Value> = variants
            .iter()
            .map(|v| serde_json::json!({"name": v.name(), "rules": v.rules_version()}))
            .collect();
        outln!("{}", serde_json::to_string_pretty(&rows)?);
    } else {
        let mut t = Table::new(&[Align::Left]);
        for v in &variants {
            t.row([v.name().to_string(), format!("rules {}", v.rules_version())]);
        }
        t.print()?;
    }
    Ok(ExitCode::SUCCESS)
}

/// `seams moves`.
pub fn moves(book: &Rulebook, a: MovesArgs) -> Result<ExitCode> {
    let v = book.variant(&a.variant)?;
    let place = a.at.resolve()?;
    let actions = match &a.analysis {
        None => v.legal_actions(&place.at())?,
        Some(army) => {
            let mover = match army.as_str() {
                "first" => Player::First,
                "second" => Player::Second,
                other => bail!(
                    "unknown army '{other}' ({})",
                    seams::names::Known::new(other, ["first", "second"])
                ),
            };
            let Some(found) = v.analysis_actions(&place.at(), mover, !a.no_king_safety)? else {
                bail!("{} has no analysis mode", a.variant);
            };
            // Said on stderr so that stdout stays one action a line.
            eprintln!(
                "analysis mode ({army} army{}): experiments, not legal moves of a scored game",
                if a.no_king_safety {
                    ", king safety off"
                } else {
                    ""
                }
            );
            found
        }
    };
    if a.json {
        outln!("{}", serde_json::to_string_pretty(&actions)?);
    } else {
        for action in &actions {
            outln!("{action}");
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// `seams perft`.
pub fn perft(book: &Rulebook, a: PerftArgs) -> Result<ExitCode> {
    let v = book.variant(&a.variant)?;
    let place = a.at.resolve()?;
    let threads = match a.threads {
        Some(n) => usize::from(n),
        None => std::thread::available_parallelism().map_or(1, |n| n.get()),
    };
    let rows = seams::variant::divide_parallel(v, &place.at(), a.depth, threads)?;
    let total = match a.depth {
        0 => v.perft(&place.at(), 0)?,
        _ => rows.iter().map(|(_, n)| n).sum(),
    };
    let rows = a.divide.then_some(rows);
    if a.json {
        let mut out = serde_json::json!({"variant": a.variant, "depth": a.depth, "nodes": total});
        if let Some(r) = &rows {
            out["divide"] = serde_json::json!(
                r.iter()
                    .cloned()
                    .collect::<std::collections::BTreeMap<_, _>>()
            );
        }
        outln!("{}", serde_json::to_string_pretty(&out)?);
    } else {
        for (action, n) in rows.iter().flatten() {
            outln!("{action} {n}");
        }
        outln!("{total}");
    }
    Ok(ExitCode::SUCCESS)
}
