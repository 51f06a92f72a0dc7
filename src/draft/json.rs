//! `seams spec check --format json`: the change report as one JSON
//! object, in the text report's order (the summary, the load errors, what
//! changed, then the absolute tables), with a schema generated from these
//! types and published as `conformance/schema/spec-check.schema.json`, so
//! that a CI bot can post the report on a pull request without scraping
//! text.

use std::path::Path;

use schemars::JsonSchema;
use serde::Serialize;
use serde_json::Value;

use super::{
    Accepted, BoardRow, CheckReport, CorpusRun, DesignRow, FactDiff, Findings, Fingerprint,
    FingerprintChange, LoadError, PieceRow, Released, SolidRow, Summary, SymmetryRow,
};

/// The whole report. Exactly one of `load_errors` (non-empty) and
/// `changes` is there: a draft that does not load is compared with
/// nothing.
#[derive(Clone, Debug, Serialize, JsonSchema)]
pub struct CheckJson {
    pub summary: Summary,
    /// The draft spec folder.
    pub spec: String,
    /// What it is compared with: a spec folder, `spec/ at REV`, or `the
    /// built-in spec`.
    pub base: String,
    /// Every error of every file of a draft that does not load.
    pub load_errors: Vec<LoadError>,
    /// What differs from the base; absent when the draft does not load.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub changes: Option<Changes>,
    /// The draft's absolute tables (what `--full` prints as text).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tables: Option<Tables>,
    /// What `--accept` wrote.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub accepted: Option<Accepted>,
    /// What `--accept --into` wrote into the spec folder.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub released: Option<Released>,
}

/// Everything that differs from the base.
#[derive(Clone, Debug, Serialize, JsonSchema)]
pub struct Changes {
    /// The derived facts, one entry per kind, with only the rows that
    /// differ listed.
    pub facts: Vec<FactDiff>,
    /// The fingerprints that differ, with every divide action that does.
    pub fingerprints: Vec<FingerprintChange>,
    /// The corpus run: every case whose answer changes.
    pub corpus: CorpusRun,
    pub findings: Findings,
}

/// The draft's derived facts, whole.
#[derive(Clone, Debug, Serialize, JsonSchema)]
pub struct Tables {
    pub boards: Vec<BoardRow>,
    pub solids: Vec<SolidRow>,
    pub variants: Vec<SymmetryRow>,
    pub design: Vec<DesignRow>,
    /// Each kind's movement and reach on the empty board.
    pub pieces: Vec<PieceRow>,
    pub audits: Vec<crate::audit::Report>,
    pub fingerprints: Vec<Fingerprint>,
    /// Every design finding of the draft, old and new.
    pub design_findings: Vec<String>,
}

impl CheckJson {
    /// The report of a draft that loaded.
    pub fn of_report(
        report: &CheckReport,
        accepted: Option<&Accepted>,
        released: Option<&Released>,
    ) -> CheckJson {
        CheckJson {
            summary: report.summary(),
            spec: report.spec.clone(),
            base: report.base.clone(),
            load_errors: Vec::new(),
            changes: Some(Changes {
                facts: report.fact_changes.clone(),
                fingerprints: report.fingerprint_changes.clone(),
                corpus: report.corpus.clone(),
                findings: report.findings.clone(),
            }),
            tables: Some(Tables {
                boards: report.boards.clone(),
                solids: report.solids.clone(),
                variants: report.variants.clone(),
                design: report.design.clone(),
                pieces: report.pieces.clone(),
                audits: report.audits.clone(),
                fingerprints: report.fingerprints.clone(),
                design_findings: report.design_findings(),
            }),
            accepted: accepted.cloned(),
            released: released.cloned(),
        }
    }

    /// The report of a draft that does not load.
    pub fn of_load_errors(spec: &Path, base: &str, errors: Vec<LoadError>) -> CheckJson {
        CheckJson {
            summary: Summary::of_load_errors(&errors),
            spec: spec.display().to_string(),
            base: base.to_string(),
            load_errors: errors,
            changes: None,
            tables: None,
            accepted: None,
            released: None,
        }
    }
}

/// The schema's file name in `conformance/schema/`.
pub const SCHEMA_FILE: &str = "spec-check.schema.json";

/// Every published schema: the conformance ones and this report's.
pub fn schemas() -> Vec<(&'static str, Value)> {
    let mut all = crate::conformance::schema::all();
    let schema = serde_json::to_value(schemars::schema_for!(CheckJson)).unwrap_or(Value::Null);
    all.push((
        SCHEMA_FILE,
        crate::conformance::schema::with_id(
            schema,
            SCHEMA_FILE,
            "seams spec check report (--format json)",
        ),
    ));
    all
}
