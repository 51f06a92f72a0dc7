//! `seams corpus`: maintenance of corpus files.

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{Context, Result};
use seams::conformance;

#[derive(clap::Subcommand)]
pub enum CorpusCommand {
    /// Rewrite every case id under DIR to `slug#hash` after editing cases
    /// (each file is replaced atomically; nothing is written if any file
    /// is invalid).
    ///
    /// Example: seams corpus rehash conformance/cases
    Rehash {
        /// The corpus folder.
        #[arg(default_value = "conformance/cases")]
        dir: PathBuf,
    },
}

/// `seams corpus …`.
pub fn run(command: CorpusCommand) -> Result<ExitCode> {
    match command {
        CorpusCommand::Rehash { dir } => {
            let changed = conformance::rehash_dir(&dir)
                .with_context(|| format!("rehashing the corpus in {}", dir.display()))?;
            for (file, old, new) in &changed {
                outln!("{file}: {old} -> {new}");
            }
            outln!("{} id(s) rewritten", changed.len());
            Ok(ExitCode::SUCCESS)
        }
    }
}
