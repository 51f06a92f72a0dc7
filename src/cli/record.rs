//! `seams record`: game records.

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Result;
use seams::record::RecordVerdict;

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
    // Streamed: the actions are played as they are read, never held.
    let verdict = seams::variant::verify_record_json(&book.variants()?, &text)
        .with_context(|| file.display().to_string())?;
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
