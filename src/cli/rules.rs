//! The rules commands: `variants`, `moves`, `perft` and `play`.

use std::process::ExitCode;

use anyhow::{Result, bail};
use std::time::Instant;

use seams::rules::Player;
use seams::shard::Shard;
use seams::variant::perft_report::{self, PerftReport};
use seams::variant::{At, Counter, PerftJob, Variant, divide_job};

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
    /// Count only the root actions this part holds: K of N parts, chosen
    /// by a stable hash of each root action's text, so the N parts run
    /// anywhere hold every root action once. Each part's `--json` report
    /// lists its divide; `seams merge` adds the parts up to the whole
    /// count and divide.
    #[arg(long, value_name = "K/N")]
    shard: Option<seams::shard::Shard>,
    /// Count by the family's second path, written apart from the fast one
    /// (every candidate made and the king tested, copied positions), to
    /// check a count independently. Slower; Kyoto has none.
    #[arg(long)]
    independent: bool,
    /// Count each position met again by another order of the same
    /// actions once, remembering counts in a transposition table of at
    /// most MIB MiB (1 to 65536) shared by the threads. The count is the
    /// same; deep counts take a fraction of the time. Positions are keyed
    /// by a 128-bit digest of their text (conformance/PERFT.md gives the
    /// odds of a collision). Not with --independent.
    #[arg(long, value_name = "MIB", value_parser = clap::value_parser!(u32).range(1..=65536))]
    hash: Option<u32>,
    /// Print JSON instead of text: the question, the shard, the root
    /// actions in all, the count (and the divide with --divide or
    /// --shard) and the wall-clock seconds.
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
    let shard = a.shard.unwrap_or(seams::shard::Shard::WHOLE);
    let job = PerftJob {
        depth: a.depth,
        threads: match a.threads {
            Some(n) => usize::from(n),
            None => std::thread::available_parallelism().map_or(1, |n| n.get()),
        },
        shard,
        counter: if a.independent {
            Counter::Independent
        } else {
            Counter::Perft
        },
        hash_mib: a.hash.map_or(0, |m| m as usize),
    };
    let started = Instant::now();
    let bar = Progress::new(v, &place.at(), shard)?;
    let divide = divide_job(v, &place.at(), &job, &|action| bar.done(action));
    bar.finish();
    let divide = divide?;
    let nodes = match a.depth {
        0 => 1,
        _ => divide.rows.iter().map(|(_, n)| n).sum(),
    };
    let report = PerftReport {
        report: perft_report::KIND.into(),
        seams: env!("CARGO_PKG_VERSION").into(),
        variant: v.name().into(),
        rules: v.rules_version().into(),
        position: place.position.clone(),
        moves: place.moves.clone(),
        depth: a.depth,
        counter: job.counter,
        shard,
        roots: divide.roots,
        nodes,
        divide: (a.divide || a.shard.is_some()).then(|| divide.rows.into_iter().collect()),
        threads: job.threads,
        hash_mib: a.hash,
        wall_seconds: started.elapsed().as_secs_f64(),
        merged_from: None,
    };
    if !a.json && !shard.is_whole() {
        // On stderr, so that stdout stays the count alone.
        eprintln!(
            "shard {shard}: {} of {} root actions, {:.2} s",
            report.divide.as_ref().map_or(0, |d| d.len()),
            report.roots,
            report.wall_seconds
        );
    }
    print_perft(&report, a.json, a.divide)?;
    Ok(ExitCode::SUCCESS)
}

/// Prints a perft report: as JSON, or as text (the divide, when asked
/// for, one `action count` line each, then the count).
pub fn print_perft(report: &PerftReport, json: bool, divide: bool) -> Result<()> {
    if json {
        outln!("{}", serde_json::to_string_pretty(report)?);
        return Ok(());
    }
    if divide {
        for (action, n) in report.divide.iter().flatten() {
            outln!("{action} {n}");
        }
    }
    outln!("{}", report.nodes);
    Ok(())
}

/// A progress bar over the root actions a perft counts, on a terminal.
struct Progress(Option<indicatif::ProgressBar>);

impl Progress {
    fn new(v: &dyn Variant, at: &At, shard: Shard) -> Result<Progress> {
        use std::io::IsTerminal as _;
        if !std::io::stderr().is_terminal() {
            return Ok(Progress(None));
        }
        let roots = v.legal_actions(at)?;
        let mine = roots.iter().filter(|r| shard.holds(r)).count();
        let bar = super::out::progress(mine);
        if let Some(b) = &bar
            && !shard.is_whole()
        {
            b.set_prefix(format!("shard {shard} "));
        }
        Ok(Progress(bar))
    }
    fn done(&self, action: &str) {
        if let Some(bar) = &self.0 {
            bar.set_message(action.to_string());
            bar.inc(1);
        }
    }
    fn finish(&self) {
        if let Some(bar) = &self.0 {
            bar.finish_and_clear();
        }
    }
}

/// The formats a merged perft report is written in.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum PerftFormat {
    /// The divide, one `action count` line each, then the count.
    Text,
    Json,
    /// A table of the divide under a heading with the question and count.
    Markdown,
}

/// `seams merge` of perft shard reports: the whole count and its divide.
pub fn merge_perft(
    parts: &[(String, String)],
    format: PerftFormat,
    out: Option<&std::path::Path>,
) -> Result<ExitCode> {
    let merged = perft_report::merge(parts)?;
    let text = match format {
        PerftFormat::Json => format!("{}\n", serde_json::to_string_pretty(&merged)?),
        PerftFormat::Text => {
            let mut s = String::new();
            for (action, n) in merged.divide.iter().flatten() {
                s.push_str(&format!("{action} {n}\n"));
            }
            s + &format!("{}\n", merged.nodes)
        }
        PerftFormat::Markdown => perft_markdown(&merged),
    };
    super::write_out(out, &text)?;
    Ok(ExitCode::SUCCESS)
}

fn perft_markdown(r: &PerftReport) -> String {
    let at = match (&r.position, r.moves.is_empty()) {
        (None, true) => "the initial position".to_string(),
        (p, _) => format!(
            "`{}`{}",
            p.as_deref().unwrap_or("(initial)"),
            if r.moves.is_empty() {
                String::new()
            } else {
                format!(" after `{}`", r.moves.join(","))
            }
        ),
    };
    let mut s = format!(
        "## seams perft: {} (rules {}) depth {}\n\n{} nodes from {at}, {} root actions, merged from {} shard(s) in {:.1} s of work.\n\n| action | nodes |\n|---|---:|\n",
        r.variant,
        r.rules,
        r.depth,
        r.nodes,
        r.roots,
        r.merged_from.unwrap_or(1),
        r.wall_seconds
    );
    for (action, n) in r.divide.iter().flatten() {
        s.push_str(&format!("| `{action}` | {n} |\n"));
    }
    s
}
