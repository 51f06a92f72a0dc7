//! The expectations file: which cases an engine is known to fail, and how.
//!
//! An engine's implementer owns this file. A run matches its expectations
//! when every listed case fails exactly as listed and every unlisted case
//! passes (or is unsupported). A new failure, a changed failure kind and a
//! listed case that now passes are all mismatches, so the file always
//! describes the engine as it is. `seams conform --baseline FILE` writes it
//! from a run.

use std::collections::{BTreeMap, HashSet};
use std::path::Path;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::runner::{CaseResult, OutcomeKind};

/// The file: an optional engine label and the known failures.
#[derive(Clone, Debug, Default, Serialize, Deserialize, JsonSchema, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct Expectations {
    /// Optional pointer to the JSON Schema, for editors.
    #[serde(rename = "$schema", default, skip_serializing_if = "Option::is_none")]
    pub schema: Option<String>,
    /// Which engine this file describes (free text).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub engine: Option<String>,
    pub known: Vec<Known>,
    /// Rules differences `seams fuzz` meets in random play, where `known`
    /// lists corpus cases: a difference that matches an entry ends its
    /// game and is counted as documented instead of reported as new.
    /// `seams conform` does not read them.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub differences: Vec<KnownDifference>,
}

/// The questions `seams fuzz` asks, by the protocol command that asks them.
pub const FUZZ_QUESTIONS: [&str; 5] = ["legal_actions", "apply", "status", "key", "perft"];

/// A documented rules difference, as `seams fuzz` sees it: the engine's
/// answer to one question differs from the reference's in a known way.
#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct KnownDifference {
    /// The question, by its protocol command: `legal_actions`, `apply`,
    /// `status`, `key` or `perft`.
    pub question: String,
    /// Only in this variant; in every variant when absent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub variant: Option<String>,
    /// A pattern the reference's reply matches, such as `{"result":
    /// null}`: an object matches when each field it gives matches, any
    /// other value by equality. Absent: any reply.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reference: Option<serde_json::Value>,
    /// A pattern the engine's reply matches, such as `{"result":
    /// {"reason": "repetition"}}`. Absent: any reply.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub engine: Option<serde_json::Value>,
    /// The corpus case that shows the difference (listed in `known`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub case: Option<String>,
    /// Why the engine differs, with the rules clause it departs from.
    pub note: String,
}

impl KnownDifference {
    /// Whether the engine's `engine` reply to `question` in `variant`,
    /// where the reference replied `reference`, is this difference.
    pub fn covers(
        &self,
        question: &str,
        variant: &str,
        reference: &serde_json::Value,
        engine: &serde_json::Value,
    ) -> bool {
        self.question == question
            && self.variant.as_deref().is_none_or(|v| v == variant)
            && self
                .reference
                .as_ref()
                .is_none_or(|p| matches_pattern(p, reference))
            && self
                .engine
                .as_ref()
                .is_none_or(|p| matches_pattern(p, engine))
    }
}

/// Whether `value` matches `pattern`: an object pattern when each of its
/// fields matches the value's field of that name, anything else by
/// equality (so `null` matches only `null`).
pub fn matches_pattern(pattern: &serde_json::Value, value: &serde_json::Value) -> bool {
    match (pattern, value) {
        (serde_json::Value::Object(p), serde_json::Value::Object(v)) => p
            .iter()
            .all(|(k, pv)| v.get(k).is_some_and(|vv| matches_pattern(pv, vv))),
        _ => pattern == value,
    }
}

/// One known failure.
#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct Known {
    /// The full case id, `slug#hash`.
    pub id: String,
    /// How it fails: `fail`, `unsupported`, `crash`, `timeout`,
    /// `malformed`, `wrong-id` or `engine-error`.
    pub kind: OutcomeKind,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
    /// An issue or discussion about it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub link: Option<String>,
}

/// An expectations file that cannot be used.
#[derive(Debug, thiserror::Error)]
pub enum ExpectationsError {
    #[error("{file}: {}", crate::quote::bounded(.message))]
    Read { file: String, message: String },
    #[error(
        "{file}: known[{index}] '{}': {}",
        crate::quote::excerpt(.id),
        crate::quote::bounded(.message)
    )]
    Entry {
        file: String,
        index: usize,
        id: String,
        message: String,
    },
    #[error("{file}: differences[{index}]: {}", crate::quote::bounded(.message))]
    Difference {
        file: String,
        index: usize,
        message: String,
    },
}

impl Expectations {
    /// Reads and checks a file; `corpus_ids` are every id in the corpus.
    pub fn load(
        path: &Path,
        corpus_ids: &HashSet<&str>,
    ) -> Result<Expectations, ExpectationsError> {
        let file = path.display().to_string();
        let text =
            crate::files::read_text(path, crate::files::MAX_CASE_FILE_BYTES).map_err(|e| {
                ExpectationsError::Read {
                    file: file.clone(),
                    message: e.reason(),
                }
            })?;
        Expectations::parse(&file, &text, corpus_ids)
    }

    pub fn parse(
        file: &str,
        text: &str,
        corpus_ids: &HashSet<&str>,
    ) -> Result<Expectations, ExpectationsError> {
        let e: Expectations = serde_json::from_str(text).map_err(|e| ExpectationsError::Read {
            file: file.to_string(),
            message: format!("line {} column {}: {e}", e.line(), e.column()),
        })?;
        let mut seen = HashSet::new();
        for (index, k) in e.known.iter().enumerate() {
            let entry = |message: String| ExpectationsError::Entry {
                file: file.to_string(),
                index,
                id: k.id.clone(),
                message,
            };
            if k.kind == OutcomeKind::Pass {
                return Err(entry(
                    "'pass' is not a failure kind; remove the entry instead".into(),
                ));
            }
            if !seen.insert(k.id.as_str()) {
                return Err(entry("the id is listed twice".into()));
            }
            if !corpus_ids.contains(k.id.as_str()) {
                return Err(entry(
                    "no case in the corpus has this id (was it edited and rehashed?)".into(),
                ));
            }
        }
        for (index, d) in e.differences.iter().enumerate() {
            let entry = |message: String| ExpectationsError::Difference {
                file: file.to_string(),
                index,
                message,
            };
            if !FUZZ_QUESTIONS.contains(&d.question.as_str()) {
                return Err(entry(format!(
                    "'{}' is not a question seams fuzz asks ({})",
                    crate::quote::excerpt(&d.question),
                    FUZZ_QUESTIONS.join(", ")
                )));
            }
            if d.note.trim().is_empty() {
                return Err(entry(
                    "the note is empty: say why the engine differs".into(),
                ));
            }
            if let Some(case) = &d.case
                && !seen.contains(case.as_str())
            {
                return Err(entry(format!(
                    "the case '{}' is not listed in 'known'",
                    crate::quote::excerpt(case)
                )));
            }
        }
        Ok(e)
    }

    /// A digest of what judging reads: 64-bit FNV-1a (16 hex digits) over
    /// the known failures as `id kind` lines, sorted. Notes, links and
    /// `differences` are left out, so two files that judge every result
    /// alike have the same digest; reports carry it so that `seams merge`
    /// can refuse parts judged against different files.
    pub fn digest(&self) -> String {
        let mut lines: Vec<String> = self
            .known
            .iter()
            .map(|k| format!("{} {}", k.id, k.kind.name()))
            .collect();
        lines.sort_unstable();
        format!("{:016x}", super::id::fnv1a64(lines.join("\n").as_bytes()))
    }

    fn listed(&self) -> BTreeMap<&str, &Known> {
        self.known.iter().map(|k| (k.id.as_str(), k)).collect()
    }
}

/// How one result compares with the expectations.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Verdict {
    /// As expected (a pass or unsupported not listed, or a listed failure
    /// of the listed kind).
    Expected,
    /// Fails but is not listed.
    NewFailure,
    /// Listed, but fails differently.
    Changed,
    /// Listed, but passes now.
    NowPasses,
}

impl Verdict {
    pub fn is_mismatch(self) -> bool {
        self != Verdict::Expected
    }
    pub fn name(self) -> &'static str {
        match self {
            Verdict::Expected => "expected",
            Verdict::NewFailure => "new failure",
            Verdict::Changed => "changed failure kind",
            Verdict::NowPasses => "now passes",
        }
    }
}

/// Judges one result; `listed` is its entry, if any.
pub fn verdict(kind: OutcomeKind, listed: Option<&Known>) -> Verdict {
    match listed {
        None if kind.is_failure() => Verdict::NewFailure,
        None => Verdict::Expected,
        Some(k) if k.kind == kind => Verdict::Expected,
        Some(_) if kind == OutcomeKind::Pass => Verdict::NowPasses,
        Some(_) => Verdict::Changed,
    }
}

/// Every result's verdict, in order.
pub fn judge(results: &[CaseResult], expect: &Expectations) -> Vec<Verdict> {
    let listed = expect.listed();
    results
        .iter()
        .map(|r| verdict(r.outcome.kind(), listed.get(r.id.as_str()).copied()))
        .collect()
}

/// An expectations file describing this run: every failure (unsupported
/// cases are not listed), keeping notes and links from `previous` where
/// the id and kind are unchanged.
pub fn baseline(
    results: &[CaseResult],
    previous: Option<&Expectations>,
    engine: &str,
) -> Expectations {
    let old = previous.map(|p| p.listed()).unwrap_or_default();
    let known = results
        .iter()
        .filter(|r| r.outcome.kind().is_failure())
        .map(|r| {
            let kind = r.outcome.kind();
            let prev = old.get(r.id.as_str()).filter(|k| k.kind == kind);
            Known {
                id: r.id.clone(),
                kind,
                note: prev.and_then(|k| k.note.clone()),
                link: prev.and_then(|k| k.link.clone()),
            }
        })
        .collect();
    Expectations {
        schema: previous.and_then(|p| p.schema.clone()),
        engine: Some(engine.to_string()),
        known,
        differences: previous.map(|p| p.differences.clone()).unwrap_or_default(),
    }
}
