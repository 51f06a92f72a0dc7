//! The family's spec data: one TOML file per variant in `spec/shogi/`.
//!
//! A file names the variant, its board and rules version, the drop facing,
//! the initial rows, the promotion bands and the dead ranks. Nothing about a
//! variant is written in code: changing a number here changes behaviour.
//! These are the serde types and their validation into [`VariantData`];
//! every rejection names the file and the field.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::movement::Facing;

/// The serde form of `spec/shogi/<variant>.toml`.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct VariantFile {
    pub variant: String,
    pub board: String,
    pub rules_version: String,
    /// Whether the position text also reads the USI side letters `b`/`w`.
    #[serde(default)]
    pub usi_sfen: bool,
    pub drop_facing: DropFacing,
    pub setup: SetupFile,
    pub promotion: PromotionFile,
    #[serde(default)]
    pub dead_ranks: BTreeMap<String, DeadRanksFile>,
    /// Piece values by kind name, read only by the practice opponent (see
    /// [`crate::values`]); absent, every piece but the king is worth 100.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub values: Option<toml::Value>,
}

#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DropFacing {
    pub first: Facing,
    pub second: Facing,
}

#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SetupFile {
    pub rows: Vec<RowFile>,
}

/// One row of the army table: player A's pieces from file a, `.` for empty;
/// player B gets the file-reversed row.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RowFile {
    pub pieces: String,
    /// Player A's rank for this row, with a sheet prefix on multi-sheet
    /// boards (`"I:1"`).
    pub first: String,
    /// Player B's rank for this row.
    pub second: String,
}

/// Promotion bands per owner as rank ranges (`"7-9"`, `"II:7-9"`).
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PromotionFile {
    pub first: Vec<String>,
    pub second: Vec<String>,
}

/// Dead ranks of one kind, per facing.
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DeadRanksFile {
    #[serde(default)]
    pub up: Vec<u8>,
    #[serde(default)]
    pub down: Vec<u8>,
}

/// A rejected data file, naming the file and field.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
// The message may quote the file's text: shown bounded (see crate::quote).
#[error("{file}: {}: {}", crate::quote::excerpt(.field), crate::quote::bounded(.message))]
pub struct DataError {
    pub file: String,
    pub field: String,
    pub message: String,
}

/// Parses one variant file. Cross-checks against the board (coordinates,
/// ranks) happen when the variant is built, in [`super::ShogiRules::new`].
pub fn parse(file: &str, text: &str) -> Result<VariantFile, DataError> {
    let parsed: VariantFile = toml::from_str(text).map_err(|e| DataError {
        file: file.to_string(),
        field: "toml".into(),
        message: e.to_string(),
    })?;
    if parsed.rules_version.trim().is_empty() {
        return Err(DataError {
            file: file.to_string(),
            field: "rules-version".into(),
            message: "empty".into(),
        });
    }
    Ok(parsed)
}

/// A rank range `"7-9"`, `"9"`, or with a sheet `"II:7-9"`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RankRange {
    pub chart: Option<String>,
    pub low: u8,
    pub high: u8,
}

pub fn parse_rank_range(text: &str) -> Option<RankRange> {
    let (chart, ranks) = match text.split_once(':') {
        Some((c, r)) => (Some(c.to_string()), r),
        None => (None, text),
    };
    let (lo, hi) = match ranks.split_once('-') {
        Some((a, b)) => (a, b),
        None => (ranks, ranks),
    };
    let low: u8 = lo.trim().parse().ok()?;
    let high: u8 = hi.trim().parse().ok()?;
    (low >= 1 && low <= high).then_some(RankRange { chart, low, high })
}

/// Splits `"I:1"` into sheet and rank text.
pub fn split_rank(text: &str) -> (Option<&str>, &str) {
    match text.split_once(':') {
        Some((c, r)) => (Some(c), r),
        None => (None, text),
    }
}
