//! `seams fuzz`: random-play differential testing of an engine against
//! the reference (the games and judging are `conformance::fuzz`;
//! this module reads the options, catches Ctrl-C, shows progress and
//! writes the report and the case files), and the fuzz half of `seams
//! merge` (the joining is `conformance::fuzz::merge`; this writes it).

use std::collections::HashSet;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use anyhow::{Context, Result, bail};
use seams::conformance::case::CaseFile;
use seams::conformance::expectations::Expectations;
use seams::conformance::fuzz::{
    self, DEFAULT_GAMES, DEFAULT_PLIES, Finding, Options, Progress,
    report::{EngineId, Report},
};
use seams::conformance::run::{self, EngineChoice};
use seams::files::write_atomically;
use seams::shard::Shard;
use seams::variant::Variant;

use super::Rulebook;
use super::limits::{LimitArgs, run_deadline};

#[derive(Copy, Clone, PartialEq, Eq, clap::ValueEnum)]
pub enum FuzzFormat {
    Text,
    Json,
    Markdown,
    /// One page that draws each finding's position with the missing and
    /// unexpected actions marked.
    Html,
}

impl FuzzFormat {
    fn extension(self) -> &'static str {
        match self {
            FuzzFormat::Text => "txt",
            FuzzFormat::Json => "json",
            FuzzFormat::Markdown => "md",
            FuzzFormat::Html => "html",
        }
    }
}

/// The options of `seams fuzz`.
#[derive(clap::Args)]
pub struct FuzzArgs {
    /// The engine command line, split like a shell would (quotes group
    /// words). `seams` as the program means this same binary.
    #[arg(long, value_name = "CMD")]
    engine: String,
    /// Only this variant (repeat for more). Default: every variant the
    /// engine plays under the reference's rules version.
    #[arg(long = "variant", value_name = "V")]
    variants: Vec<String>,
    /// Games per variant, 1 to 1 000 000.
    #[arg(long, value_name = "N", default_value_t = DEFAULT_GAMES)]
    games: u32,
    /// The longest game, in plies, 1 to 10 000.
    #[arg(long, value_name = "P", default_value_t = DEFAULT_PLIES)]
    plies: u32,
    /// The seed: the same seed plays the same games.
    #[arg(long, value_name = "S", default_value_t = 1)]
    seed: u64,
    /// Also start games from made-up positions the reference accepts
    /// (random placements, facings, promotions, hands, rights and flags,
    /// positions without kings where the rules allow them).
    #[arg(long)]
    edited: bool,
    /// After a disagreement, go on with the other variants (one finding
    /// per variant at most).
    #[arg(long)]
    keep_going: bool,
    /// Stop after this many seconds and report what was compared.
    #[arg(long, value_name = "SECONDS")]
    max_time: Option<f64>,
    /// Write each finding as a corpus case file into this folder (created
    /// if missing; its parent must exist), with the report as
    /// fuzz-report.<format>.
    #[arg(long, value_name = "DIR")]
    out: Option<PathBuf>,
    /// Report format: text, json, markdown, or html (a page that draws
    /// each finding's position).
    #[arg(long, value_enum, default_value = "text")]
    format: FuzzFormat,
    /// An expectations file whose `differences` document rules
    /// differences: a matching difference ends its game and is counted,
    /// not reported as a finding.
    #[arg(long, value_name = "FILE")]
    expect: Option<PathBuf>,
    /// Show the thin-spot counts (situations random play rarely reaches)
    /// in the text and Markdown reports; the JSON report always has them.
    #[arg(long)]
    stats: bool,
    /// Time limit for each reply, in milliseconds.
    #[arg(long, value_name = "T", default_value_t = 30_000)]
    timeout_ms: u64,
    /// Play only the K-th of N parts of the run (from 1): the games whose
    /// key "variant/game" (the game counted from 0) falls in part K by
    /// FNV-1a. Each shard is a run of its own; `seams merge` joins the
    /// shards' JSON reports into what one run would have reported.
    #[arg(long, value_name = "K/N")]
    shard: Option<Shard>,
    #[command(flatten)]
    limits: LimitArgs,
}

/// Set by the Ctrl-C handler; the run stops at the next position.
static INTERRUPTED: AtomicBool = AtomicBool::new(false);

#[cfg(unix)]
extern "C" fn on_interrupt(_: libc::c_int) {
    // Only an atomic store: nothing else is safe in a signal handler.
    INTERRUPTED.store(true, Ordering::Relaxed);
}

/// The first Ctrl-C stops the run cleanly (the report says what was
/// compared); the handler then resets, so a second one ends the program
/// at once. The engine runs in its own process group and gets no signal:
/// it is stopped like at the end of any run.
#[cfg(unix)]
fn catch_interrupt() {
    // SAFETY: sigaction with a zeroed struct, an empty mask and a handler
    // that only stores to an atomic; no memory of this process is touched.
    unsafe {
        let mut action: libc::sigaction = std::mem::zeroed();
        action.sa_sigaction = on_interrupt as extern "C" fn(libc::c_int) as libc::sighandler_t;
        action.sa_flags = libc::SA_RESETHAND;
        libc::sigemptyset(&mut action.sa_mask);
        libc::sigaction(libc::SIGINT, &action, std::ptr::null_mut());
    }
}

#[cfg(not(unix))]
fn catch_interrupt() {}

/// `--out DIR` must be a folder, or a name whose parent folder exists.
fn check_out_dir(dir: &Path) -> Result<()> {
    if dir.is_dir() {
        return Ok(());
    }
    if dir.exists() {
        bail!("--out {}: not a folder", dir.display());
    }
    let parent = match dir.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    };
    if !parent.is_dir() {
        bail!(
            "--out {}: the folder {} does not exist",
            dir.display(),
            parent.display()
        );
    }
    Ok(())
}

/// A word the shell reads back as itself.
fn quoted(word: &str) -> String {
    let plain = !word.is_empty()
        && word
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "-_./:=+,".contains(c));
    if plain {
        word.to_string()
    } else {
        format!("'{}'", word.replace('\'', r"'\''"))
    }
}

/// The command line that plays the same games (`variants` and `games`
/// narrow it to one finding's game).
fn command_line(book: &Rulebook, a: &FuzzArgs, variants: &[String], games: u32) -> String {
    let mut words = vec!["seams".to_string()];
    if let Some(dir) = book.spec_dir() {
        words.extend(["--spec".into(), quoted(&dir.display().to_string())]);
    }
    words.extend(["fuzz".into(), "--engine".into(), quoted(&a.engine)]);
    for v in variants {
        words.extend(["--variant".into(), quoted(v)]);
    }
    words.extend(["--seed".into(), a.seed.to_string()]);
    if games != DEFAULT_GAMES {
        words.extend(["--games".into(), games.to_string()]);
    }
    if a.plies != DEFAULT_PLIES {
        words.extend(["--plies".into(), a.plies.to_string()]);
    }
    if a.edited {
        words.push("--edited".into());
    }
    words.join(" ")
}

/// `seams fuzz`.
pub fn fuzz(book: &Rulebook, a: FuzzArgs) -> Result<ExitCode> {
    let began = Instant::now();
    fuzz::check_counts(a.games, a.plies)?;
    if let Some(dir) = &a.out {
        check_out_dir(dir)?;
    }
    let differences = match &a.expect {
        None => Vec::new(),
        Some(path) => {
            let corpus = super::spec::load_corpus(None)?;
            let ids: HashSet<&str> = corpus.cases.iter().map(|(_, c)| c.id.as_str()).collect();
            Expectations::load(path, &ids)?.differences
        }
    };
    let reference = book.variants()?;
    for v in &a.variants {
        book.variant(v)?;
    }
    let deadline = run_deadline(a.max_time)?;
    let mut engine = run::start(
        EngineChoice::Command {
            command: a.engine.clone(),
            limits: a.limits.limits(a.timeout_ms)?,
        },
        deadline,
    )?;
    let hello = engine.hello().clone();
    let opts = Options {
        games: a.games,
        plies: a.plies,
        seed: a.seed,
        edited: a.edited,
        keep_going: a.keep_going,
        deadline,
        stop: Some(&INTERRUPTED),
        differences: &differences,
        engine_label: format!("'{} {}' (run as `{}`)", hello.name, hello.version, a.engine),
        shard: a.shard,
    };
    let plan = fuzz::plan(&hello, &reference, &a.variants, &opts)?;
    catch_interrupt();
    let bar = super::out::progress(fuzz::games_held(&plan, &opts) as usize);
    let shard = a.shard.map(|s| format!("shard {s}: "));
    let mut run = fuzz::run(engine.as_mut(), &plan, &opts, &mut |p: &Progress| {
        if let Some(bar) = &bar {
            let rate = p.positions as f64 / p.elapsed.as_secs_f64().max(1e-9);
            bar.set_position(p.games_done);
            bar.set_message(format!(
                "{}{} positions, {rate:.0}/s",
                shard.as_deref().unwrap_or_default(),
                p.positions
            ));
        }
    });
    if let Some(bar) = bar {
        bar.finish_and_clear();
    }
    drop(engine);
    let written = write_cases(a.out.as_deref(), &run.findings)?;
    for (f, w) in run.findings.iter_mut().zip(written) {
        f.reproduce = Some(command_line(
            book,
            &a,
            std::slice::from_ref(&f.variant),
            f.game + 1,
        ));
        f.written = w;
    }
    let report = Report {
        run: &run,
        engine: EngineId {
            name: hello.name.clone(),
            version: hello.version.clone(),
        },
        command: command_line(book, &a, &a.variants, a.games),
        stats: a.stats,
        wall_seconds: began.elapsed().as_secs_f64(),
        merged_shards: None,
    };
    let text = render(&report, a.format, &reference)?;
    out!("{text}");
    if let Some(dir) = &a.out {
        let path = dir.join(format!("fuzz-report.{}", a.format.extension()));
        write_atomically(&path, &text)
            .with_context(|| format!("writing the report {}", path.display()))?;
        eprintln!("wrote the report to {}", path.display());
    }
    Ok(if run.findings.is_empty() {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}

/// The report in `format`; `variants` are the reference's, to draw
/// positions.
fn render(report: &Report, format: FuzzFormat, variants: &[&dyn Variant]) -> Result<String> {
    Ok(match format {
        FuzzFormat::Text => report.text(),
        FuzzFormat::Json => {
            let mut s = serde_json::to_string_pretty(&report.json())?;
            s.push('\n');
            s
        }
        FuzzFormat::Markdown => report.markdown(),
        FuzzFormat::Html => report.html(variants),
    })
}

/// The fuzz half of `seams merge`: the shards' JSON reports (each with its
/// file's name) joined into the report one run would have made, written
/// in `format` to stdout or `out`. Exit status as `seams fuzz`'s: 1 when
/// the merged run has a finding.
pub fn merge(
    book: &Rulebook,
    files: Vec<(String, String)>,
    format: FuzzFormat,
    out: Option<&Path>,
) -> Result<ExitCode> {
    let merged = fuzz::merge::merge(&files)?;
    let reference = book.variants()?;
    let text = render(&merged.report(false), format, &reference)?;
    super::write_out(out, &text)?;
    Ok(if merged.run.findings.is_empty() {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}

/// Writes each finding's case into `dir`, one file each; the paths, in
/// the findings' order.
fn write_cases(dir: Option<&Path>, findings: &[Finding]) -> Result<Vec<Option<String>>> {
    let Some(dir) = dir else {
        return Ok(vec![None; findings.len()]);
    };
    std::fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
    let mut out = Vec::new();
    for f in findings {
        let name = f.case.slug().replace('/', "-");
        let path = dir.join(format!("{name}.json"));
        let file = CaseFile {
            schema: None,
            cases: vec![f.case.clone()],
        };
        let mut text = serde_json::to_string_pretty(&file)?;
        text.push('\n');
        write_atomically(&path, &text)
            .with_context(|| format!("writing the case {}", path.display()))?;
        out.push(Some(path.display().to_string()));
    }
    Ok(out)
}
