//! Rules drafts: a whole edited copy of `spec/` loaded at once, checked
//! against the corpus (`seams spec check`), gated (`seams spec gate`) and
//! accepted as a new rules version (`seams spec check --accept`).
//!
//! A draft folder is laid out like `spec/`: `boards/` plus the family
//! folders `shogi/`, `chess/`, `kyoto/` and `tetra/`. A missing family
//! folder means "use the built-in one". Every variant is built by its
//! family's own builder, so a draft is read exactly as the built-in spec
//! is; nothing here changes a rule.
//!
//! Each step a draft goes through has its own file, so that one can be
//! read without the others: `load` builds the draft, `report` is what
//! `seams spec check` finds in it, `corpus` runs the corpus against a
//! spec (for `check`, `gate` and `accept` alike), `html` draws the report
//! as a page, `accept` writes a new rules version and `mirror` copies a
//! draft into another spec folder.
//! What they share (the family folders and the one error) is kept here.

mod accept;
mod base_rev;
mod corpus;
mod facts;
mod fingerprint;
mod html;
mod json;
mod load;
mod mirror;
mod report;

use crate::conformance::CorpusError;
use crate::spec::SpecError;

pub use accept::{Accepted, accept};
pub use base_rev::spec_at_rev;
pub use corpus::{Change, CorpusRun, gate, run_corpus};
pub use facts::{FactDiff, FactLine, diff_rows};
pub use fingerprint::{FINGERPRINT_DEPTH, Fingerprint, FingerprintChange, compare, fingerprint};
pub use html::{html, load_errors_page};
pub use json::{Changes, CheckJson, SCHEMA_FILE, Tables, schemas};
pub use load::{Draft, FamilyFiles, LoadError};
pub use mirror::{Released, check_into, write_into};
pub use report::{
    BoardRow, CheckReport, Checked, DEFAULT_AUDIT_PLIES, DesignRow, Findings, PieceRow, SolidRow,
    Summary, SymmetryRow, audit_rows, board_rows, check, check_against, check_with, design_rows,
    findings, solid_rows,
};

/// The errors of [`DraftError::Several`], one per line.
fn several(errors: &[DraftError]) -> String {
    errors
        .iter()
        .map(|e| format!("  - {e}"))
        .collect::<Vec<_>>()
        .join("\n")
}

/// The family folders of a spec, in the order variants are built.
pub const FAMILIES: [&str; 4] = ["shogi", "chess", "tetra", "kyoto"];

/// Why a draft could not be loaded or accepted. Every variant names the
/// file and, where there is one, the entry.
#[derive(Debug, thiserror::Error)]
pub enum DraftError {
    /// A board file (or the boards folder) is bad; the message names the
    /// file and entry.
    #[error(transparent)]
    Spec(#[from] SpecError),
    #[error("{path}: {message}")]
    Io { path: String, message: String },
    #[error(transparent)]
    Shogi(#[from] crate::shogi::DataError),
    #[error(transparent)]
    Chess(#[from] crate::chess::VariantError),
    #[error(transparent)]
    Tetra(#[from] crate::tetra::DataError),
    #[error(transparent)]
    Kyoto(#[from] crate::kyoto::DataError),
    #[error(transparent)]
    Corpus(#[from] CorpusError),
    /// Several entries of the data files are bad: each one's error, in
    /// build order (the families' order, then file names, then the order
    /// each builder checks its entries), all from one run.
    #[error("{} data file errors:\n{}", .0.len(), several(.0))]
    Several(Vec<DraftError>),
    #[error("--version '{version}': {message}")]
    BadVersion { version: String, message: String },
    #[error("{file}: rules-version: the new version {new} is not above the current {current}")]
    VersionNotNewer {
        file: String,
        current: String,
        new: String,
    },
    /// The base could not be loaded: its errors are not the draft's.
    #[error("the base spec {dir}: {error}")]
    Base { dir: String, error: Box<DraftError> },
    #[error("--base-rev {rev}: {message}")]
    BaseRev { rev: String, message: String },
    #[error("{variant}: the fingerprint (perft of the start) cannot be counted: {message}")]
    Fingerprint { variant: String, message: String },
    #[error("{variant}: the opening audit cannot run: {message}")]
    Audit { variant: String, message: String },
    #[error("--plies must be between 1 and {max}, not {plies}")]
    Plies { plies: u32, max: u32 },
    #[error(
        "case '{id}' changes, but its new answer cannot be written as an expectation: {message}"
    )]
    Unwritable { id: String, message: String },
}
