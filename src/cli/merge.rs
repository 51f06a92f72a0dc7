//! `seams merge`: joins the JSON reports of a run split with `--shard K/N`
//! into the report one run would have made. This module reads the files
//! and tells report kinds apart by their `"report"` field; each kind's own
//! module merges and writes (`fuzz::merge` for `seams fuzz`,
//! `rules::merge_perft` for `seams perft`).

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{Result, anyhow, bail};
use clap::ValueEnum as _;
use seams::files::{self, MAX_REPORT_BYTES};

use super::Rulebook;
use super::rules::PerftFormat;

/// The report kinds `seams merge` joins, by their `"report"` field.
const KINDS: [&str; 2] = ["fuzz", "perft"];

#[derive(Copy, Clone, PartialEq, Eq, clap::ValueEnum)]
pub enum MergeFormat {
    Text,
    Json,
    Markdown,
    Html,
    /// JUnit XML, for the kinds that write it (not fuzz).
    Junit,
}

/// The options of `seams merge`.
#[derive(clap::Args)]
pub struct MergeArgs {
    /// The shards' JSON reports: every shard of one run, once each.
    #[arg(required = true, value_name = "FILE")]
    files: Vec<PathBuf>,
    /// The merged report's format.
    #[arg(long, value_enum, default_value = "text")]
    format: MergeFormat,
    /// Write the merged report to this file instead of printing it.
    #[arg(long, value_name = "FILE")]
    out: Option<PathBuf>,
}

/// `seams merge`.
pub fn merge(book: &Rulebook, a: MergeArgs) -> Result<ExitCode> {
    if let Some(out) = &a.out {
        super::check_writable_parent(out)?;
    }
    let mut reports = Vec::new();
    let mut first: Option<(String, String)> = None;
    for path in &a.files {
        let name = path.display().to_string();
        let text = files::read_text(path, MAX_REPORT_BYTES)?;
        let kind = kind_of(&name, &text)?;
        match &first {
            None => first = Some((name.clone(), kind)),
            Some((first_name, first_kind)) if *first_kind != kind => bail!(
                "{name} is a {kind} report and {first_name} a {first_kind} report: merge the \
                 shards of one run"
            ),
            Some(_) => {}
        }
        reports.push((name, text));
    }
    let (_, kind) = first.ok_or_else(|| anyhow!("no report files were given"))?;
    let format = a
        .format
        .to_possible_value()
        .map(|v| v.get_name().to_string())
        .unwrap_or_default();
    match kind.as_str() {
        "fuzz" => super::fuzz::merge(book, reports, &format, a.out.as_deref()),
        "perft" => {
            let format = match a.format {
                MergeFormat::Text => PerftFormat::Text,
                MergeFormat::Json => PerftFormat::Json,
                MergeFormat::Markdown => PerftFormat::Markdown,
                MergeFormat::Html | MergeFormat::Junit => bail!(
                    "there is no {format} perft report: merge perft shards as text, json or markdown"
                ),
            };
            super::rules::merge_perft(&reports, format, a.out.as_deref())
        }
        other => bail!("seams merge does not join {other} reports"),
    }
}

/// The report kind a file's `"report"` field names, if `seams merge`
/// joins it.
fn kind_of(name: &str, text: &str) -> Result<String> {
    #[derive(serde::Deserialize)]
    struct Head {
        report: Option<serde_json::Value>,
    }
    let not_report =
        || anyhow!("{name} is not a seams report: a JSON object with a \"report\" field");
    let head: Head = serde_json::from_str(text).map_err(|e| match e.classify() {
        serde_json::error::Category::Data => not_report(),
        _ => anyhow!("{name}: not JSON: {e}"),
    })?;
    // serde reads a struct from an array too; a report is an object.
    if !text.trim_start().starts_with('{') {
        return Err(not_report());
    }
    let known = KINDS.join(", ");
    match head.report {
        None => bail!("{name} has no \"report\" field; seams merge joins the reports of: {known}"),
        Some(serde_json::Value::String(k)) if KINDS.contains(&k.as_str()) => Ok(k),
        Some(serde_json::Value::String(k)) => bail!(
            "{name} is a '{}' report, which seams merge does not join; it joins: {known}",
            seams::quote::excerpt(&k)
        ),
        Some(other) => bail!(
            "{name}: its \"report\" field is {}, not a report kind; seams merge joins: {known}",
            seams::quote::excerpt(&other.to_string())
        ),
    }
}
