//! The corpus run against a spec: the reference engine built on a
//! draft's boards and variants answers every applicable case, and the
//! cases whose expectation it does not reproduce are listed. Apart from
//! the report because `gate` and `accept` run it too.

use std::path::Path;

use serde::Serialize;

use crate::conformance::case::Subject;
use crate::conformance::engine::{Embedded, Engine};
use crate::conformance::reference::Reference;
use crate::conformance::runner::{self, Outcome, Selection};
use crate::conformance::{Case, Corpus};
use crate::spec::Library;
use crate::variant::Variant;

use super::{Draft, DraftError};

/// One corpus case whose expectation the spec does not reproduce.
#[derive(Clone, Debug, Serialize, PartialEq, Eq, schemars::JsonSchema)]
pub struct Change {
    pub id: String,
    pub file: String,
    pub title: String,
    pub subject: String,
    pub clauses: Vec<String>,
    /// `fail` or the error kind.
    pub outcome: String,
    pub old: String,
    pub new: String,
    pub detail: String,
}

impl Change {
    /// `old → new` on one line: the answers are JSON or words, and their
    /// line breaks carry nothing.
    pub fn answers(&self) -> String {
        format!("{} → {}", one_line(&self.old), one_line(&self.new))
    }

    /// The runner's detail on one line; empty when it gave none.
    pub fn detail_line(&self) -> String {
        one_line(&self.detail)
    }
}

fn one_line(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// The corpus run against a spec.
#[derive(Clone, Debug, Default, Serialize, PartialEq, Eq, schemars::JsonSchema)]
pub struct CorpusRun {
    pub checked: usize,
    pub not_applicable: usize,
    pub unsupported: usize,
    pub changes: Vec<Change>,
}

/// Runs every applicable corpus case against the spec of `lib` and
/// `variants` (the reference engine built on them) and lists the cases
/// whose expectation it does not reproduce.
pub fn run_corpus(lib: &Library, variants: &[&dyn Variant], corpus: &Corpus) -> CorpusRun {
    let mut engine = Embedded::new(Reference::new(lib, variants.to_vec()));
    let hello = engine.hello().clone();
    let (cases, not_applicable) = runner::select(corpus, &Selection::default(), &hello);
    let mut run = CorpusRun {
        not_applicable,
        ..CorpusRun::default()
    };
    for (file, case) in cases.iter().map(|e| (&e.0, &e.1)) {
        run.checked += 1;
        let outcome = runner::check_case(&mut engine, case, variants);
        let (old, new, detail) = match &outcome {
            Outcome::Pass => continue,
            Outcome::Unsupported(_) => {
                run.unsupported += 1;
                continue;
            }
            Outcome::Fail {
                expected,
                actual,
                detail,
                ..
            } => (expected.clone(), actual.clone(), detail.clone()),
            Outcome::Error { message, .. } | Outcome::NotRun(message) => (
                serde_json::to_string(&check_expect(case)).unwrap_or_default(),
                format!("error: {message}"),
                message.clone(),
            ),
        };
        run.changes.push(Change {
            id: case.id.clone(),
            file: file.clone(),
            title: case.title.clone(),
            subject: subject_label(case),
            clauses: case.clauses.clone(),
            outcome: outcome.kind().name().to_string(),
            old,
            new,
            detail,
        });
    }
    run
}

fn check_expect(case: &Case) -> serde_json::Value {
    serde_json::to_value(&case.check)
        .ok()
        .and_then(|v| v.get("expect").cloned())
        .unwrap_or_default()
}

fn subject_label(case: &Case) -> String {
    match case.check.subject() {
        Subject::Board(b) => format!("board:{b}"),
        Subject::BoardFile => crate::conformance::runner::BOARD_FILES.into(),
        Subject::Variant(v) => format!("variant:{v}"),
    }
}

/// `seams spec gate`: the corpus against the built-in spec, or against a
/// spec folder when one is given.
pub fn gate(spec: Option<&Path>, corpus: &Corpus) -> Result<CorpusRun, DraftError> {
    match spec {
        None => {
            let variants: Vec<&dyn Variant> = crate::registry::variants()
                .iter()
                .map(|v| v.as_ref())
                .collect();
            Ok(run_corpus(Library::builtin(), &variants, corpus))
        }
        Some(dir) => {
            let draft = Draft::load(dir)?;
            Ok(run_corpus(&draft.lib, &draft.variant_refs(), corpus))
        }
    }
}
