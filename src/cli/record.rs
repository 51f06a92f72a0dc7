//! `seams record`: game records.

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Result;
use seams::variant::{Record, RecordVerdict};

use super::Rulebook;
use anyhow::Context;
use seams::files::{self, MAX_RECORD_BYTES};

#[derive(clap::Subcommand)]
pub enum RecordCommand {
    /// Replay a record and check every action, the result and the final
    /// position. Exit status 0 when accepted, 1 when rejected.
    ///
    /// Example: seams record verify game.json
    Verify {
        /// The record file (JSON).
        file: PathBuf,
        /// Print JSON instead of text.
        #[arg(long)]
        json: bool,
    },
}

/// `seams record …`.
pub fn run(book: &Rulebook, command: RecordCommand) -> Result<ExitCode> {
    match command {
        RecordCommand::Verify { file, json } => verify(book, &file, json),
    }
}

fn verify(book: &Rulebook, file: &std::path::Path, json: bool) -> Result<ExitCode> {
    let text = files::read_text(file, MAX_RECORD_BYTES)
        .with_context(|| format!("reading the record {}", file.display()))?;
    let record: Record = serde_json::from_str(&text).map_err(|e| {
        anyhow::anyhow!(
            "{}: line {} column {}: {e}",
            file.display(),
            e.line(),
            e.column()
        )
    })?;
    let v = book.variant(&record.variant)?;
    let verdict = v.verify_record(&record);
    if json {
        outln!("{}", serde_json::to_string_pretty(&verdict)?);
    } else {
        match &verdict {
            RecordVerdict::Accepted { result, plies } => outln!(
                "accepted: {plies} plies, result {}",
                serde_json::to_string(result)?
            ),
            RecordVerdict::Rejected { ply, message, .. } => {
                outln!("rejected at ply {ply}: {message}")
            }
        }
    }
    Ok(match verdict {
        RecordVerdict::Accepted { .. } => ExitCode::SUCCESS,
        RecordVerdict::Rejected { .. } => ExitCode::from(1),
    })
}
