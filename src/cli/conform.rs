//! `seams conform`: the corpus against an engine, with its options and
//! reports. The run itself is `conformance::run::Run`; this module reads
//! the options, shows progress and writes the report.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::{Context, Result, bail};
use seams::conformance::Tier;
use seams::conformance::expectations::Expectations;
use seams::conformance::reference::Reference;
use seams::conformance::run::{EngineChoice, Finished, Progress, Run, RunError};
use seams::conformance::runner::{CaseResult, Selection};
use seams::conformance::version::Version;
use seams::files::write_atomically;
use seams::shard::Shard;
use seams::variant::Variant;

use super::Rulebook;
use super::limits::{LimitArgs, run_deadline};

#[derive(Copy, Clone, PartialEq, Eq, clap::ValueEnum)]
pub enum TierArg {
    Quick,
    Full,
}

#[derive(Copy, Clone, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    Text,
    Json,
    Junit,
    Markdown,
    /// One self-contained page with a picture of every failing position.
    Html,
}

/// The options of `seams conform`.
#[derive(clap::Args)]
pub struct ConformArgs {
    /// The engine command line, split like a shell would (quotes group
    /// words). `seams` as the program means this same binary. Default:
    /// the reference engine, in process.
    #[arg(long, value_name = "CMD")]
    engine: Option<String>,
    /// Only cases about this variant.
    #[arg(long, value_name = "V")]
    variant: Option<String>,
    /// Judge each case's `rules` range against this version instead of
    /// the version the engine declares.
    #[arg(long, value_name = "R")]
    rules: Option<String>,
    /// Only cases whose id matches this glob (`*`, `?`) or, without glob
    /// characters, contains this text.
    #[arg(long = "case", value_name = "GLOB")]
    case: Option<String>,
    /// quick: skip cases above the node budget; full: every case.
    #[arg(long, value_enum, default_value = "full")]
    tier: TierArg,
    /// The engine's expectations file (known failures).
    #[arg(long, value_name = "FILE")]
    expect: Option<PathBuf>,
    /// Write an expectations file describing this run (atomically) and
    /// exit 0. Notes from --expect are kept where a failure is unchanged.
    #[arg(long, value_name = "FILE")]
    baseline: Option<PathBuf>,
    /// Report format: text, json, junit, markdown, or html (a page that
    /// draws each failing position with the expected and actual
    /// answers marked).
    #[arg(long, value_enum, default_value = "text")]
    format: Format,
    /// Write the report to this file (atomically) instead of stdout.
    #[arg(long, value_name = "FILE")]
    out: Option<PathBuf>,
    /// Time limit for each reply, in milliseconds.
    #[arg(long, value_name = "T", default_value_t = 30_000)]
    timeout_ms: u64,
    #[command(flatten)]
    limits: LimitArgs,
    /// Read cases from this folder instead of the built-in corpus.
    #[arg(long, value_name = "DIR")]
    corpus: Option<PathBuf>,
    /// Stop the whole run after this many seconds: cases not reached by
    /// then are reported as not run (and count as mismatches).
    #[arg(long, value_name = "SECONDS")]
    max_time: Option<f64>,
    /// Also list unsupported cases, and clause rows with nothing to
    /// report, in the text report.
    #[arg(long)]
    verbose: bool,
    /// Run only part K of N of the selected cases (1/1, the whole run, by
    /// default), for a run split across CI jobs: a case belongs to the
    /// part a hash of its id names, the same on every machine. Each part
    /// is a complete run with its own report and exit status; `seams
    /// merge` joins the JSON reports of all N parts into the report one
    /// run would give. Not with --baseline: an expectations file written
    /// from part of a run would list only that part's failures.
    #[arg(long, value_name = "K/N", default_value = "1/1")]
    shard: Shard,
}

/// `seams conform`.
pub fn conform(book: &Rulebook, a: ConformArgs) -> Result<ExitCode> {
    if a.baseline.is_some() && !a.shard.is_whole() {
        bail!(
            "--baseline with --shard {}: an expectations file lists the failures of a whole \
             run, and a shard is part of one; write the baseline from a run without --shard",
            a.shard
        );
    }
    for path in a.out.iter().chain(&a.baseline) {
        // Refuse an output path that cannot be written before the run,
        // not after minutes of cases.
        super::check_writable_parent(path)
            .with_context(|| format!("--out/--baseline {}", path.display()))?;
    }
    let corpus = super::spec::load_corpus(a.corpus.as_deref())?;
    let expectations = match &a.expect {
        None => None,
        Some(p) => {
            let ids = corpus.cases.iter().map(|(_, c)| c.id.as_str()).collect();
            Some(Expectations::load(p, &ids)?)
        }
    };
    let run = Run {
        corpus,
        selection: selection(&a)?,
        expectations,
        deadline: run_deadline(a.max_time)?,
        reference: book.variants()?,
    };
    let engine = match &a.engine {
        None => EngineChoice::Reference(Reference::new(book.library()?, run.reference.clone())),
        Some(command) => EngineChoice::Command {
            command: command.clone(),
            limits: a.limits.limits(a.timeout_ms)?,
        },
    };
    let mut bar = Bar(None, a.shard);
    let finished = run.execute(engine, &mut bar);
    if let Some(bar) = bar.0 {
        bar.finish_and_clear();
    }
    let finished = match finished {
        Err(RunError::NothingSelected) => bail!("no case in the corpus matches{}", filters(&a)),
        other => other?,
    };
    if let Some(path) = &a.baseline {
        write_baseline(path, finished.baseline(run.expectations.as_ref()))?;
    }
    write_report(
        a.format,
        a.verbose,
        a.out.as_deref(),
        &finished,
        &run.reference,
    )?;
    Ok(if a.baseline.is_some() || finished.mismatches() == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}

/// The cases `--tier`, `--variant`, `--rules` and `--case` select.
fn selection(a: &ConformArgs) -> Result<Selection> {
    let rules = match &a.rules {
        None => None,
        Some(r) => Some(Version::parse(r).map_err(|e| anyhow::anyhow!("--rules: {e}"))?),
    };
    Ok(Selection {
        tier: Some(match a.tier {
            TierArg::Quick => Tier::Quick,
            TierArg::Full => Tier::Full,
        }),
        variant: a.variant.clone(),
        rules,
        case: a.case.clone(),
        shard: a.shard,
    })
}

/// A progress bar on a terminal, made once the cases are selected, that
/// names the shard when the run is one.
struct Bar(Option<indicatif::ProgressBar>, Shard);

impl Progress for Bar {
    fn planned(&mut self, cases: usize) {
        self.0 = if self.1.is_whole() {
            super::out::progress(cases)
        } else {
            super::out::progress_labelled(cases, &format!("shard {}", self.1))
        };
    }
    fn done(&mut self, result: &CaseResult) {
        if let Some(bar) = &self.0 {
            bar.set_message(result.id.clone());
            bar.inc(1);
        }
    }
}

/// ` --case '…' --variant '…'` as given, for "no case matches".
fn filters(a: &ConformArgs) -> String {
    let case = a.case.as_deref().map(|c| format!(" --case '{c}'"));
    let variant = a.variant.as_deref().map(|v| format!(" --variant '{v}'"));
    format!(
        "{}{}",
        case.unwrap_or_default(),
        variant.unwrap_or_default()
    )
}

fn write_baseline(path: &std::path::Path, file: Expectations) -> Result<()> {
    let mut text = serde_json::to_string_pretty(&file)?;
    text.push('\n');
    write_atomically(path, &text)
        .with_context(|| format!("writing the baseline {}", path.display()))?;
    eprintln!(
        "wrote {} known failure(s) to {}",
        file.known.len(),
        path.display()
    );
    Ok(())
}

/// Writes the report in `format` to stdout or `out`; the HTML page draws
/// each failing position with the `reference` variants. `seams merge`
/// writes its merged run through here too.
pub(super) fn write_report(
    format: Format,
    verbose: bool,
    out: Option<&Path>,
    finished: &Finished,
    reference: &[&dyn Variant],
) -> Result<()> {
    let report = finished.report();
    let text = match format {
        Format::Text => report.text(verbose),
        Format::Json => {
            let mut s = serde_json::to_string_pretty(&report.json())?;
            s.push('\n');
            s
        }
        Format::Junit => report.junit().context("writing the JUnit report")?,
        Format::Markdown => report.markdown(),
        Format::Html => report.html(&finished.figures(reference)),
    };
    super::write_out(out, &text)
}
