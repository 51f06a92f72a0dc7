//! `--position TEXT|FILE` and `--moves`: where a question is asked.
//!
//! The rule that tells a file from position text: every family's position
//! text has fields separated by spaces, so
//! 1. a value naming something that exists on disk is a file, which must be
//!    a regular file of at most [`MAX_POSITION_FILE_BYTES`];
//! 2. otherwise a value without whitespace is a file name, and a missing
//!    file is reported as such;
//! 3. otherwise the value is position text.

use std::path::Path;

use anyhow::{Context, Result, bail};
use seams::variant::At;

/// The largest position file read: far above any position text (a few
/// hundred bytes), small enough that a wrong path to a large file fails at
/// once.
pub const MAX_POSITION_FILE_BYTES: u64 = 1 << 20;

/// Where a question is asked: a start position and moves played from it.
#[derive(clap::Args)]
pub struct PositionArgs {
    /// The start position as text, or a file holding it (default: the
    /// variant's initial position).
    ///
    /// Position text always has spaces between its fields, so a value that
    /// names an existing path, or has no spaces, is a file (a regular file
    /// of at most 1 MiB).
    #[arg(long, value_name = "TEXT|FILE")]
    pub position: Option<String>,
    /// Actions to play first, comma-separated, in canonical notation.
    #[arg(long, value_delimiter = ',', value_name = "M1,M2,…")]
    pub moves: Vec<String>,
}

/// A resolved [`PositionArgs`]: the position text (a file read) and moves.
pub struct Place {
    pub position: Option<String>,
    pub moves: Vec<String>,
}

impl Place {
    pub fn at(&self) -> At<'_> {
        At {
            position: self.position.as_deref(),
            moves: &self.moves,
        }
    }
}

impl PositionArgs {
    /// Reads `--position` by the rule in the module documentation.
    pub fn resolve(&self) -> Result<Place> {
        Ok(Place {
            position: match &self.position {
                None => None,
                Some(value) => Some(position_text(value)?),
            },
            moves: self.moves.clone(),
        })
    }
}

fn position_text(value: &str) -> Result<String> {
    let path = Path::new(value);
    match std::fs::metadata(path) {
        Ok(meta) => {
            let text = read_regular_file(path, &meta, "position file", MAX_POSITION_FILE_BYTES)?;
            Ok(text.trim().to_string())
        }
        Err(_) if !value.chars().any(char::is_whitespace) => bail!(
            "--position '{value}': no such file (position text has spaces between its \
             fields, so a value without spaces is read as a file name)"
        ),
        Err(_) => Ok(value.to_string()),
    }
}

/// Reads a file given on the command line: only a regular file is read
/// (a folder, FIFO or device is refused before any read, so nothing
/// blocks or runs out of memory), of at most `limit` bytes.
pub fn read_regular_file(
    path: &Path,
    meta: &std::fs::Metadata,
    what: &str,
    limit: u64,
) -> Result<String> {
    let shown = path.display();
    if meta.is_dir() {
        bail!("the {what} {shown} is a folder, not a file");
    }
    if !meta.is_file() {
        bail!("the {what} {shown} is not a regular file (a FIFO, device or socket)");
    }
    if meta.len() > limit {
        bail!(
            "the {what} {shown} has {} bytes; at most {limit} are read",
            meta.len()
        );
    }
    let bytes = std::fs::read(path).with_context(|| format!("reading the {what} {shown}"))?;
    String::from_utf8(bytes).map_err(|e| {
        anyhow::anyhow!(
            "the {what} {shown} is not UTF-8 text (bad byte at offset {})",
            e.utf8_error().valid_up_to()
        )
    })
}

/// [`read_regular_file`] for a path that must exist.
pub fn read_input_file(path: &Path, what: &str, limit: u64) -> Result<String> {
    let meta = std::fs::metadata(path)
        .with_context(|| format!("reading the {what} {}", path.display()))?;
    read_regular_file(path, &meta, what, limit)
}
