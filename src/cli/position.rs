//! `--position TEXT|FILE` and `--moves`: where a question is asked.
//!
//! The rule that tells a file from position text: every family's position
//! text has fields separated by spaces, so
//! 1. a value naming something that exists on disk is a file, which must be
//!    a regular file of at most `files::MAX_POSITION_FILE_BYTES`;
//! 2. otherwise a value without whitespace is a file name, and a missing
//!    file is reported as such;
//! 3. otherwise the value is position text.

use std::path::Path;

use anyhow::{Context, Result, bail};
use seams::files::{self, MAX_POSITION_FILE_BYTES};
use seams::variant::At;

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
    /// Actions to play first, comma-separated (spaces after a comma are
    /// allowed), in the family's notation.
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
        // No action text has a space inside it, so one that does is a list
        // written with spaces: say how to write it.
        if let Some(m) = self
            .moves
            .iter()
            .find(|m| m.trim().contains(char::is_whitespace))
        {
            let commas: Vec<&str> = m.split_whitespace().collect();
            bail!(
                "--moves '{}': actions are separated by commas, not spaces \
                 (--moves {})",
                seams::quote::excerpt(m),
                seams::quote::excerpt(&commas.join(","))
            );
        }
        Ok(Place {
            position: match &self.position {
                None => None,
                Some(value) => Some(position_text(value)?),
            },
            // Spaces around a comma are a way of writing the list, not
            // part of an action (whose grammar has none, NT-I1).
            moves: self.moves.iter().map(|m| m.trim().to_string()).collect(),
        })
    }
}

fn position_text(value: &str) -> Result<String> {
    let path = Path::new(value);
    if path.symlink_metadata().is_ok() {
        let text = files::read_text(path, MAX_POSITION_FILE_BYTES)
            .with_context(|| format!("reading the position file {value}"))?;
        return Ok(text.trim().to_string());
    }
    if !value.chars().any(char::is_whitespace) {
        bail!(
            "--position '{value}': no such file (position text has spaces between its \
             fields, so a value without spaces is read as a file name)"
        );
    }
    Ok(value.to_string())
}
