//! Checking engines: `conform` (the corpus against an engine), `engine`
//! (the reference served over the protocol), `bisect` and `mutants`.

use std::collections::HashSet;
use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

use anyhow::{Context, Result, bail};
use seams::conformance::case::Check;
use seams::conformance::engine::{
    CappedLines, DEFAULT_MAX_REPLY_BYTES, Embedded, Engine, Limits, Line, Process, split_command,
};
use seams::conformance::expectations::{self, Expectations};
use seams::conformance::protocol;
use seams::conformance::reference::Reference;
use seams::conformance::report::Report;
use seams::conformance::runner::{self, Selection};
use seams::conformance::version::Version;
use seams::conformance::{Corpus, Tier, bisect, html};
use seams::mutants::{self, MutantKind};
use seams::names::Known;
use seams::spec::Library;
use seams::variant::Variant;

use super::Rulebook;
use super::out::{Align, Table};
use super::position::PositionArgs;

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
}

/// The bounds on an outside engine (see `conformance::engine::Limits`).
#[derive(clap::Args)]
pub struct LimitArgs {
    /// Time limit for the hello reply after each start, in milliseconds.
    #[arg(long, value_name = "T", default_value_t = 10_000)]
    hello_timeout_ms: u64,
    /// The longest reply line read, in bytes; a longer one is reported as
    /// `malformed: reply too long` and skipped unread.
    #[arg(long, value_name = "BYTES", default_value_t = DEFAULT_MAX_REPLY_BYTES)]
    max_reply_bytes: usize,
    /// After this many crashes or timeouts in a row the engine is
    /// declared dead and the remaining cases are not run.
    #[arg(long, value_name = "N", default_value_t = 5)]
    max_failures: usize,
}

impl LimitArgs {
    pub(super) fn limits(&self, timeout_ms: u64) -> Result<Limits> {
        if timeout_ms == 0 {
            bail!("--timeout-ms must be at least 1");
        }
        if self.hello_timeout_ms == 0 {
            bail!("--hello-timeout-ms must be at least 1");
        }
        if self.max_reply_bytes == 0 {
            bail!("--max-reply-bytes must be at least 1");
        }
        if self.max_failures == 0 {
            bail!("--max-failures must be at least 1");
        }
        Ok(Limits {
            reply_timeout: Duration::from_millis(timeout_ms),
            hello_timeout: Duration::from_millis(self.hello_timeout_ms),
            max_reply_bytes: self.max_reply_bytes,
            max_consecutive_failures: self.max_failures,
        })
    }
}

#[derive(clap::Args)]
pub struct EngineArgs {
    /// Serve a deliberately wrong engine (see `seams mutants`).
    #[arg(long, value_name = "NAME")]
    mutant: Option<String>,
    /// Misbehave on purpose, to test runners: crash (exit without
    /// replying), hang (never reply), garbage (reply with a non-JSON
    /// line), wrong-id (reply with another id), wrong-shape (an `ok`
    /// reply whose fields have the wrong shape), bad-hello (a hello reply
    /// without its fields), no-hello (never answer hello), fork-exit
    /// (leave a child holding stdout and exit), close-stdout (close stdout
    /// and stay alive), bad-stderr (1 MiB of non-UTF-8 on stderr, then a
    /// good reply) or huge-reply (a 100 MiB reply line).
    #[arg(long, value_enum, value_name = "KIND")]
    fault: Option<Fault>,
    /// Only misbehave on geometry questions of this check kind (e.g.
    /// `walk`); by default on every request after hello.
    #[arg(long, value_name = "CHECK", requires = "fault")]
    fault_on: Option<String>,
}

#[derive(Copy, Clone, PartialEq, Eq, clap::ValueEnum)]
pub enum Fault {
    Crash,
    Hang,
    Garbage,
    WrongId,
    /// Reply `ok` with fields of the wrong shape.
    WrongShape,
    /// Answer hello without the fields a hello reply has.
    BadHello,
    /// Never answer hello.
    NoHello,
    /// Start a child that keeps stdout open, then exit without replying.
    ForkExit,
    /// Close stdout and stay alive.
    CloseStdout,
    /// Write 1 MiB of bytes that are not UTF-8 to stderr, then answer.
    BadStderr,
    /// Answer with a 100 MiB line.
    HugeReply,
}

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

/// Starts an outside engine; `seams` as the program means this binary.
pub(super) fn start_engine(command: &str, limits: Limits) -> Result<Process> {
    let mut argv = split_command(command)?;
    if argv[0] == "seams" {
        argv[0] = std::env::current_exe()
            .context("finding this binary to run `seams` as the engine")?
            .display()
            .to_string();
    }
    Ok(Process::start_with(argv, limits)?)
}

/// `--variant` must name a variant the spec or the corpus knows; an
/// unknown one lists them and suggests the nearest, instead of a run that
/// selects nothing.
fn check_variant_name(name: &str, variants: &[&dyn Variant], corpus: &Corpus) -> Result<()> {
    let mut known: Vec<&str> = variants.iter().map(|v| v.name()).collect();
    for (_, case) in &corpus.cases {
        if let seams::conformance::case::Subject::Variant(v) = case.check.subject() {
            known.push(v);
        }
    }
    known.sort_unstable();
    known.dedup();
    if !known.contains(&name) {
        bail!("unknown variant '{name}' ({})", Known::new(name, known));
    }
    Ok(())
}

/// `seams conform`.
pub fn conform(book: &Rulebook, a: ConformArgs) -> Result<ExitCode> {
    for path in a.out.iter().chain(&a.baseline) {
        // Refuse an output path that cannot be written before the run,
        // not after minutes of cases.
        super::check_writable_parent(path)
            .with_context(|| format!("--out/--baseline {}", path.display()))?;
    }
    let corpus = super::spec::load_corpus(a.corpus.as_deref())?;
    let ids: HashSet<&str> = corpus.cases.iter().map(|(_, c)| c.id.as_str()).collect();
    let expectations = match &a.expect {
        None => None,
        Some(p) => Some(Expectations::load(p, &ids)?),
    };
    let normalizers = book.variants()?;
    if let Some(v) = &a.variant {
        check_variant_name(v, &normalizers, &corpus)?;
    }
    let selection = selection(&a)?;
    let deadline = run_deadline(a.max_time)?;
    let mut engine: Box<dyn Engine> = match &a.engine {
        None => Box::new(Embedded::new(Reference::new(
            book.library()?,
            normalizers.clone(),
        ))),
        Some(cmd) => {
            let mut limits = a.limits.limits(a.timeout_ms)?;
            if let Some(d) = deadline {
                // The handshake counts against the run's time too.
                limits.hello_timeout = limits
                    .hello_timeout
                    .min(d.saturating_duration_since(std::time::Instant::now()));
            }
            Box::new(start_engine(cmd, limits)?)
        }
    };
    let hello = engine.hello().clone();
    let (cases, not_applicable) = runner::select(&corpus, &selection, &hello);
    if cases.is_empty() && not_applicable == 0 {
        bail!("no case in the corpus matches{}", filters(&a));
    }
    let results = run_cases(engine.as_mut(), &cases, &normalizers, deadline);
    drop(engine);
    let verdicts = expectations
        .as_ref()
        .map(|e| expectations::judge(&results, e));
    let report = Report {
        engine: &hello,
        results: &results,
        verdicts: verdicts.as_deref(),
        not_applicable,
    };
    if let Some(path) = &a.baseline {
        // The engine as it names itself, which stays the same however it
        // is started.
        let label = hello.name.clone();
        write_baseline(
            path,
            expectations::baseline(&results, expectations.as_ref(), &label),
        )?;
    }
    let figures = || {
        cases
            .iter()
            .zip(&results)
            .map(|((_, case), r)| html::figure(case, &r.outcome, &normalizers))
            .collect::<Vec<_>>()
    };
    write_report(&a, &report, figures)?;
    Ok(if a.baseline.is_some() || report.mismatches() == 0 {
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
    })
}

/// When `--max-time` ends the run, counted from now.
pub(super) fn run_deadline(max_time: Option<f64>) -> Result<Option<std::time::Instant>> {
    let Some(seconds) = max_time else {
        return Ok(None);
    };
    // Up to a year: beyond that a deadline means nothing.
    if !(seconds > 0.0 && seconds <= 3.2e7) {
        bail!("--max-time must be a number of seconds above 0 (at most a year), not {seconds}");
    }
    Ok(Some(
        std::time::Instant::now() + Duration::from_secs_f64(seconds),
    ))
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

/// Runs the cases with a progress bar on a terminal.
fn run_cases(
    engine: &mut dyn Engine,
    cases: &[&(String, seams::conformance::Case)],
    normalizers: &[&dyn Variant],
    deadline: Option<std::time::Instant>,
) -> Vec<runner::CaseResult> {
    let bar = super::out::progress(cases.len());
    let results = runner::run_until(engine, cases, normalizers, deadline, &mut |r| {
        if let Some(bar) = &bar {
            bar.set_message(r.id.clone());
            bar.inc(1);
        }
    });
    if let Some(bar) = bar {
        bar.finish_and_clear();
    }
    results
}

fn write_baseline(path: &std::path::Path, file: Expectations) -> Result<()> {
    let mut text = serde_json::to_string_pretty(&file)?;
    text.push('\n');
    seams::files::write_atomically(path, &text)
        .with_context(|| format!("writing the baseline {}", path.display()))?;
    eprintln!(
        "wrote {} known failure(s) to {}",
        file.known.len(),
        path.display()
    );
    Ok(())
}

/// Writes the report in the chosen format to stdout or `--out`; `figures`
/// draws the failing positions, only for the HTML page.
fn write_report(
    a: &ConformArgs,
    report: &Report,
    figures: impl FnOnce() -> Vec<Option<html::Figure>>,
) -> Result<()> {
    let text = match a.format {
        Format::Text => report.text(a.verbose),
        Format::Json => {
            let mut s = serde_json::to_string_pretty(&report.json())?;
            s.push('\n');
            s
        }
        Format::Junit => report.junit().context("writing the JUnit report")?,
        Format::Markdown => report.markdown(),
        Format::Html => report.html(&figures()),
    };
    match &a.out {
        None => out!("{text}"),
        Some(path) => {
            seams::files::write_atomically(path, &text)
                .with_context(|| format!("writing the report {}", path.display()))?;
            eprintln!("wrote the report to {}", path.display());
        }
    }
    Ok(())
}

/// The library and variants an engine serves: those of the spec in force,
/// or a mutant's.
fn served(
    book: &Rulebook,
    mutant: &str,
) -> Result<(&'static Library, Vec<&'static dyn Variant>, String)> {
    let m = mutants::find(mutant)?;
    let name = format!("seams-mutant-{}", m.name);
    match m.kind {
        MutantKind::Geometry(g) => {
            // The broken rule reaches the rules too: every variant is
            // rebuilt on the mutated boards, so perft sees it.
            let lib = book.library()?.mutated(g);
            if let Some(d) = book.draft()? {
                let mutated: &'static seams::draft::Draft = Box::leak(Box::new(
                    d.with_library(lib)
                        .context("building the mutant's variants")?,
                ));
                return Ok((&mutated.lib, mutated.variant_refs(), name));
            }
            let variants = seams::registry::build_all(&lib)
                .map_err(|e| anyhow::anyhow!("building the mutant's variants: {e}"))?;
            let lib: &'static Library = Box::leak(Box::new(lib));
            let made: &'static [Box<dyn Variant>] = Box::leak(variants.into_boxed_slice());
            Ok((lib, made.iter().map(|v| v.as_ref()).collect(), name))
        }
        MutantKind::Variants(make) => {
            if book.spec_dir().is_some() {
                bail!(
                    "--mutant {} replaces the built-in variants of its family, so it cannot \
                     serve the rules of --spec; drop --spec, or use a geometry mutant",
                    m.name
                );
            }
            let made: &'static [Box<dyn Variant>] = Box::leak(make().into_boxed_slice());
            Ok((
                book.library()?,
                made.iter().map(|v| v.as_ref()).collect(),
                name,
            ))
        }
    }
}

/// The longest request line `seams engine` reads; a longer one gets an
/// error reply and is skipped unread.
pub const MAX_REQUEST_BYTES: usize = 16 << 20;

/// `seams engine`: the reference (or a mutant, or a faulty one) on stdio.
pub fn engine(book: &Rulebook, a: EngineArgs) -> Result<ExitCode> {
    if let Some(f) = &a.fault_on
        && !Check::GEOMETRY_KINDS.contains(&f.as_str())
    {
        bail!(
            "--fault-on '{f}' is not a geometry check kind ({})",
            Known::new(f, Check::GEOMETRY_KINDS)
        );
    }
    let (lib, variants, name) = match &a.mutant {
        None => (
            book.library()?,
            book.variants()?,
            "seams-reference".to_string(),
        ),
        Some(m) => served(book, m)?,
    };
    let reference = Reference::new(lib, variants).named(name);
    let mut requests = CappedLines::new(std::io::stdin().lock(), MAX_REQUEST_BYTES);
    // Replies are held while more requests are already waiting (a runner
    // that pipelines sends several at once) and flushed before waiting for
    // input, so a runner that waits for each reply still gets it at once.
    let mut stdout = std::io::BufWriter::with_capacity(64 << 10, std::io::stdout().lock());
    loop {
        // A line that cannot be a request still gets a reply (with a null
        // id), so a client is never left waiting and later requests are
        // served.
        let line = match requests.next_line() {
            Line::Closed => break,
            Line::TooLong(n) => {
                let reply = protocol::error_line(
                    None,
                    format!("request too long: {n} bytes; at most {MAX_REQUEST_BYTES} are read"),
                );
                writeln!(stdout, "{reply}")?;
                flush_unless_busy(&mut stdout, &requests)?;
                continue;
            }
            Line::Text(bytes) => match String::from_utf8(bytes) {
                Ok(line) => line,
                Err(e) => {
                    let reply = protocol::error_line(
                        None,
                        format!(
                            "the request is not UTF-8 (bad byte at offset {})",
                            e.utf8_error().valid_up_to()
                        ),
                    );
                    writeln!(stdout, "{reply}")?;
                    flush_unless_busy(&mut stdout, &requests)?;
                    continue;
                }
            },
        };
        if line.trim().is_empty() {
            continue;
        }
        match a.fault {
            Some(f) if faulty_here(f, a.fault_on.as_deref(), &line) => {
                // Replies held so far go out first: the fault is this
                // request's alone.
                stdout.flush()?;
                match misbehave(f, &reference, &line) {
                    Some(reply) => writeln!(stdout, "{reply}")?,
                    None => return Ok(ExitCode::from(3)),
                }
            }
            _ => {
                // Serialised straight onto the output: through a string
                // (`Display`), every piece of the reply also passed the
                // formatting machinery (3 % of the engine's work under
                // `seams fuzz`). The bytes are the same.
                serde_json::to_writer(&mut stdout, &reference.handle_line(&line))?;
                stdout.write_all(b"\n")?;
            }
        }
        flush_unless_busy(&mut stdout, &requests)?;
    }
    stdout.flush()?;
    Ok(ExitCode::SUCCESS)
}

/// Flushes the replies written so far unless another request is already
/// read and waiting to be answered.
fn flush_unless_busy<R: std::io::Read>(
    out: &mut impl Write,
    requests: &CappedLines<R>,
) -> std::io::Result<()> {
    if requests.line_waiting() {
        Ok(())
    } else {
        out.flush()
    }
}

/// Whether `--fault` applies to this request line.
fn faulty_here(f: Fault, fault_on: Option<&str>, line: &str) -> bool {
    let req: Option<serde_json::Value> = serde_json::from_str(line).ok();
    let cmd = req.as_ref().and_then(|r| r["cmd"].as_str()).unwrap_or("");
    let kind = req
        .as_ref()
        .and_then(|r| r["question"]["kind"].as_str())
        .unwrap_or("");
    if matches!(f, Fault::BadHello | Fault::NoHello) {
        cmd == "hello"
    } else {
        cmd != "hello" && fault_on.is_none_or(|k| k == kind)
    }
}

/// The faulty reply line, or `None` to crash.
fn misbehave(f: Fault, reference: &Reference, line: &str) -> Option<String> {
    let req: Option<serde_json::Value> = serde_json::from_str(line).ok();
    let id = req.as_ref().and_then(|r| r["id"].as_u64()).unwrap_or(0);
    Some(match f {
        Fault::Crash => {
            eprintln!("seams engine: crashing on purpose (--fault crash)");
            return None;
        }
        Fault::Hang | Fault::NoHello => hang(),
        Fault::ForkExit => {
            // The child inherits stdout and outlives this process; a runner
            // must kill it with the process group.
            let _ = std::process::Command::new("sleep")
                .arg(FORKED_SLEEP)
                .stdin(std::process::Stdio::null())
                .spawn();
            return None;
        }
        Fault::CloseStdout => {
            close_stdout();
            hang()
        }
        Fault::BadStderr => {
            let _ = std::io::stderr().write_all(&vec![0xff; 1 << 20]);
            reference.handle_line(line).to_string()
        }
        Fault::HugeReply => "x".repeat(100 << 20),
        Fault::Garbage => "this is not JSON {".to_string(),
        Fault::WrongShape => {
            serde_json::json!({"id": id, "ok": true, "answer": 42, "actions": 42, "nodes": "many"})
                .to_string()
        }
        // It names its protocol, so the handshake fails on the missing
        // fields rather than on the version.
        Fault::BadHello => {
            serde_json::json!({"id": id, "ok": true, "protocol": protocol::PROTOCOL_VERSION})
                .to_string()
        }
        Fault::WrongId => {
            let mut reply = reference.handle_line(line);
            reply["id"] = serde_json::json!(id + 1000);
            reply.to_string()
        }
    })
}

/// The argument of the child `--fault fork-exit` leaves behind, so tests
/// can look for it among the running processes.
pub const FORKED_SLEEP: &str = "3600.0417";

fn hang() -> ! {
    loop {
        std::thread::sleep(Duration::from_secs(3600));
    }
}

#[cfg(unix)]
fn close_stdout() {
    // SAFETY: closing fd 1 has no effect on memory; nothing writes to
    // stdout afterwards, since the caller only sleeps.
    unsafe {
        libc::close(1);
    }
}

#[cfg(not(unix))]
fn close_stdout() {}

/// `seams mutants`.
pub fn list_mutants() -> Result<ExitCode> {
    let mut t = Table::new(&[Align::Left]);
    for m in mutants::all() {
        t.row([m.name, m.description]);
    }
    t.print()?;
    Ok(ExitCode::SUCCESS)
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
    let mut engine = start_engine(&a.engine, a.limits.limits(a.timeout_ms)?)?;
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
