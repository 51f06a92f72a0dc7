//! `seams merge`: the JSON reports of the parts of a split run joined into
//! the report one run would give. Each file is read once, as JSON, and the
//! kind its `report` field names picks the merge; the library does the
//! rest (`conformance::merge` for `conform`, `conformance::fuzz::merge`
//! for `fuzz`, `variant::perft_report` for `perft`).

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{Context, Result, bail};
use seams::conformance::merge::{self, Part};
use seams::conformance::report;
use seams::files::{MAX_REPORT_BYTES, read_text};
use seams::variant::perft_report;

use super::Rulebook;
use super::conform::{Format, write_report};
use super::fuzz::FuzzFormat;
use super::rules::PerftFormat;

/// The options of `seams merge`.
#[derive(clap::Args)]
pub struct MergeArgs {
    /// The JSON reports of every part of one split run, in any order.
    #[arg(required = true, value_name = "FILE")]
    files: Vec<PathBuf>,
    /// Report format: text, json, junit, markdown, or html, as `seams
    /// conform` writes them.
    #[arg(long, value_enum, default_value = "text")]
    format: Format,
    /// Write the merged report to this file (atomically) instead of
    /// stdout.
    #[arg(long, value_name = "FILE")]
    out: Option<PathBuf>,
    /// The corpus folder the parts ran (their --corpus); default: the
    /// built-in corpus.
    #[arg(long, value_name = "DIR")]
    corpus: Option<PathBuf>,
    /// Also list unsupported cases, and clause rows with nothing to
    /// report, in the text report.
    #[arg(long)]
    verbose: bool,
}

/// The report kinds `seams merge` joins, as their `report` field names
/// them; each has an arm in [`merge`].
const KINDS: &[&str] = &[report::KIND, "fuzz", perft_report::KIND];

/// `seams merge`.
pub fn merge(book: &Rulebook, a: MergeArgs) -> Result<ExitCode> {
    if let Some(path) = &a.out {
        super::check_writable_parent(path).with_context(|| format!("--out {}", path.display()))?;
    }
    let (parts, texts) = read_parts(&a.files)?;
    match parts[0].kind.as_str() {
        report::KIND => merge_conform(book, &a, &parts),
        "fuzz" => {
            let format = match a.format {
                Format::Text => FuzzFormat::Text,
                Format::Json => FuzzFormat::Json,
                Format::Markdown => FuzzFormat::Markdown,
                Format::Html => FuzzFormat::Html,
                Format::Junit => bail!(
                    "fuzz reports are written as text, json, markdown or html: there is no junit \
                     fuzz report"
                ),
            };
            super::fuzz::merge(book, texts, format, a.out.as_deref())
        }
        perft_report::KIND => {
            let format = match a.format {
                Format::Text => PerftFormat::Text,
                Format::Json => PerftFormat::Json,
                Format::Markdown => PerftFormat::Markdown,
                Format::Html | Format::Junit => bail!(
                    "there is no {} perft report: merge perft shards as text, json or markdown",
                    format_name(a.format)
                ),
            };
            super::rules::merge_perft(&texts, format, a.out.as_deref())
        }
        other => bail!(
            "{}: the report kind '{}' is not one seams merge joins ({})",
            parts[0].name,
            seams::quote::excerpt(other),
            KINDS.join(", ")
        ),
    }
}

/// The name `--format` takes for `format`.
fn format_name(format: Format) -> String {
    use clap::ValueEnum as _;
    format
        .to_possible_value()
        .map(|v| v.get_name().to_string())
        .unwrap_or_default()
}

/// Each file's name and text, as the fuzz and perft merges read them.
type Texts = Vec<(String, String)>;

/// Every file read as JSON, each with its kind, and each file's name and
/// text; all must be of one kind.
fn read_parts(files: &[PathBuf]) -> Result<(Vec<Part>, Texts)> {
    let mut parts: Vec<Part> = Vec::new();
    let mut texts = Vec::new();
    for path in files {
        let name = path.display().to_string();
        let text = read_text(path, MAX_REPORT_BYTES)?;
        let part = Part::parse(&name, &text)?;
        if let Some(first) = parts.first()
            && first.kind != part.kind
        {
            bail!(
                "{} is a '{}' report but {} is a '{}' report: merge the parts of one run",
                first.name,
                seams::quote::excerpt(&first.kind),
                part.name,
                seams::quote::excerpt(&part.kind)
            );
        }
        parts.push(part);
        texts.push((name, text));
    }
    Ok((parts, texts))
}

/// The parts of a `seams conform` run merged: the report and exit status
/// the whole run would give.
fn merge_conform(book: &Rulebook, a: &MergeArgs, parts: &[Part]) -> Result<ExitCode> {
    let corpus = super::spec::load_corpus(a.corpus.as_deref())?;
    let finished = merge::merge(parts, &corpus)?;
    let reference = book.variants()?;
    write_report(a.format, a.verbose, a.out.as_deref(), &finished, &reference)?;
    Ok(if finished.mismatches() == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}
