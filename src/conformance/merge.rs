//! `seams merge` for conformance reports: the JSON reports of the parts of
//! a split run (`seams conform --shard K/N`) joined into the run one
//! `seams conform` would have made. No I/O: the caller reads the files and
//! gives each one's name and text.
//!
//! The parts must be every shard of one split exactly once, of one run:
//! the same version of seams, corpus, engine, selection and expectations.
//! Each case must be in one part only, the part its id hashes to, and in
//! the corpus given, and the parts' cases and not-applicable counts must
//! add up to what the selection picks from that corpus. The results are
//! then rebuilt in the corpus's order, from the corpus's own case (title,
//! clauses, provenance…) and each report's outcome and verdict, so that
//! every format is written by the same [`Report`](super::report::Report)
//! methods as a run's and reads as the unsplit run's would.

use std::collections::HashMap;

use serde::Deserialize;
use serde_json::Value;

use super::case::Case;
use super::corpus::Corpus;
use super::expectations::Verdict;
use super::protocol::{Hello, PROTOCOL_VERSION};
use super::report::RunFacts;
use super::run::Finished;
use super::runner::{CaseResult, Outcome, OutcomeKind, Selection};
use crate::quote::{bounded, excerpt};
use crate::shard::{Shard, ShardSetError, check_whole, part_of};

/// The longest wall time a report may state: about 31 years.
const MAX_WALL_SECONDS: f64 = 1e9;

/// One report file read as JSON, with the kind its `report` field names
/// (`conform`, …), before it is read as a report of that kind.
#[derive(Clone, Debug)]
pub struct Part {
    /// The file, as messages name it.
    pub name: String,
    /// The top-level `report` field.
    pub kind: String,
    json: Value,
}

/// Why reports could not be merged. Every variant names the file (or
/// files) and the value refused.
#[derive(Debug, thiserror::Error)]
pub enum MergeError {
    #[error("{file}: not JSON: {}", bounded(.message))]
    Json { file: String, message: String },
    #[error(
        "{file}: not a seams report: the top level is no object with a \"report\" field naming its kind"
    )]
    NoKind { file: String },
    #[error("{file}: not a conform report as this seams writes it: {}", bounded(.message))]
    Field { file: String, message: String },
    #[error("{file}: cases[{index}] '{}': {}", excerpt(.id), bounded(.message))]
    Case {
        file: String,
        index: usize,
        id: String,
        message: String,
    },
    #[error(transparent)]
    Shards(#[from] ShardSetError),
    #[error(
        "{first} and {other} are parts of different runs: {what} {} in {first} but {} in {other}",
        excerpt(.first_value),
        excerpt(.other_value)
    )]
    Differ {
        what: &'static str,
        first: String,
        first_value: String,
        other: String,
        other_value: String,
    },
    #[error(
        "{file} ran the corpus {digest} ({cases} cases), but the corpus given is {given} ({given_cases} cases): \
         give --corpus the folder the shards ran"
    )]
    Corpus {
        file: String,
        digest: String,
        cases: usize,
        given: String,
        given_cases: usize,
    },
    #[error(
        "case '{}' is in {first} and again in {other}: a case belongs to one shard",
        excerpt(.id)
    )]
    Overlap {
        id: String,
        first: String,
        other: String,
    },
    #[error("{file}: case '{}' is not in the corpus given", excerpt(.id))]
    UnknownCase { file: String, id: String },
    #[error("{file} is shard {shard} but holds case '{}', which is shard {belongs}'s", excerpt(.id))]
    WrongShard {
        file: String,
        shard: Shard,
        id: String,
        belongs: u32,
    },
    #[error(
        "{file}: case '{}' is in {} by the report but in {} in the corpus given: \
         give --corpus the folder the shards ran, as they named it",
        excerpt(.id),
        excerpt(.reported),
        excerpt(.corpus)
    )]
    CaseFile {
        file: String,
        id: String,
        reported: String,
        corpus: String,
    },
    #[error("{file}: case '{}' is not one the run's selection picks", excerpt(.id))]
    NotSelected { file: String, id: String },
    #[error(
        "the reports hold {reported} case(s) and {not_applicable} not applicable, but the run's \
         selection picks {selected} case(s) from the corpus: a report lost cases"
    )]
    Count {
        reported: usize,
        not_applicable: usize,
        selected: usize,
    },
}

impl Part {
    /// Reads `text`, the contents of the file `name`, as JSON and finds
    /// its kind.
    pub fn parse(name: &str, text: &str) -> Result<Part, MergeError> {
        let json: Value = serde_json::from_str(text).map_err(|e| MergeError::Json {
            file: name.to_string(),
            message: e.to_string(),
        })?;
        let kind = json
            .get("report")
            .and_then(Value::as_str)
            .ok_or_else(|| MergeError::NoKind {
                file: name.to_string(),
            })?
            .to_string();
        Ok(Part {
            name: name.to_string(),
            kind,
            json,
        })
    }
}

/// The engine as a report names it.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
struct EngineName {
    name: String,
    version: String,
}

/// What a conform report holds besides its [`RunFacts`] and its cases.
#[derive(Deserialize)]
struct Body {
    engine: EngineName,
    not_applicable: usize,
    cases: Vec<Value>,
}

/// One case of a report: what the corpus cannot give back.
#[derive(Deserialize)]
struct CaseOutcome {
    id: String,
    file: String,
    outcome: OutcomeKind,
    detail: Option<String>,
    expected_text: Option<String>,
    actual_text: Option<String>,
    #[serde(default)]
    missing: Vec<String>,
    #[serde(default)]
    extra: Vec<String>,
    message: Option<String>,
    verdict: Option<Verdict>,
}

/// A conform report read.
struct Conform {
    name: String,
    facts: RunFacts,
    body: Body,
}

impl Conform {
    fn read(part: &Part) -> Result<Conform, MergeError> {
        let field = |e: serde_json::Error| MergeError::Field {
            file: part.name.clone(),
            message: e.to_string(),
        };
        let facts = RunFacts::deserialize(&part.json).map_err(field)?;
        for time in [Some(facts.wall_seconds), facts.wall_seconds_max]
            .into_iter()
            .flatten()
        {
            // A sum of such times stays finite, so the merged report
            // writes a number that reads back.
            if !(0.0..=MAX_WALL_SECONDS).contains(&time) {
                return Err(MergeError::Field {
                    file: part.name.clone(),
                    message: format!("a wall time of {time} s is not one a run takes"),
                });
            }
        }
        let body = Body::deserialize(&part.json).map_err(field)?;
        Ok(Conform {
            name: part.name.clone(),
            facts,
            body,
        })
    }

    /// The values that must be equal in every part of one run, each with
    /// what it is called in a refusal.
    fn run_identity(&self) -> [(&'static str, String); 5] {
        let f = &self.facts;
        [
            ("seams", f.seams.clone()),
            (
                "the corpus",
                format!("{} ({} cases)", f.corpus_digest, f.corpus_cases),
            ),
            (
                "the engine",
                format!("{} {}", self.body.engine.name, self.body.engine.version),
            ),
            (
                "the selection",
                serde_json::to_string(&f.selection).unwrap_or_default(),
            ),
            (
                "the expectations",
                f.expectations_digest
                    .clone()
                    .unwrap_or_else(|| "none".into()),
            ),
        ]
    }
}

/// Joins the conform reports `parts` (every shard of one run, in any
/// order) into the run they split, on `corpus`, the corpus they ran.
pub fn merge<'c>(parts: &[Part], corpus: &'c Corpus) -> Result<Finished<'c>, MergeError> {
    let reports: Vec<Conform> = parts.iter().map(Conform::read).collect::<Result<_, _>>()?;
    check_whole(reports.iter().map(|r| (r.name.as_str(), r.facts.shard)))?;
    let first = &reports[0];
    check_same_run(&reports)?;
    check_corpus(first, corpus)?;
    let found = collect(&reports, corpus)?;
    // Saturating: the counts come from files, and a sum that wraps could
    // pass the check below.
    let not_applicable = reports
        .iter()
        .fold(0usize, |n, r| n.saturating_add(r.body.not_applicable));
    check_count(first, corpus, found.len(), not_applicable)?;
    let judged = first.facts.expectations_digest.is_some();
    let mut cases = Vec::new();
    let mut results = Vec::new();
    let mut verdicts = Vec::new();
    // The corpus's order is the order an unsplit run asks in.
    for entry in &corpus.cases {
        let Some(found) = found.get(entry.1.id.as_str()) else {
            continue;
        };
        let (result, verdict) = rebuild(found, entry, judged)?;
        cases.push(entry);
        results.push(result);
        verdicts.extend(verdict);
    }
    Ok(Finished {
        hello: hello(&first.body.engine),
        cases,
        results,
        verdicts: judged.then_some(verdicts),
        not_applicable,
        facts: merged_facts(&reports),
    })
}

/// Refuses parts whose runs differ, naming the first part and the one
/// that differs from it.
fn check_same_run(reports: &[Conform]) -> Result<(), MergeError> {
    let first = &reports[0];
    let want = first.run_identity();
    for other in &reports[1..] {
        for ((what, a), (_, b)) in want.iter().zip(other.run_identity()) {
            if *a != b {
                return Err(MergeError::Differ {
                    what,
                    first: first.name.clone(),
                    first_value: a.clone(),
                    other: other.name.clone(),
                    other_value: b,
                });
            }
        }
    }
    Ok(())
}

/// Refuses parts that ran another corpus than the one given.
fn check_corpus(first: &Conform, corpus: &Corpus) -> Result<(), MergeError> {
    let given = corpus.digest();
    let f = &first.facts;
    if f.corpus_digest != given || f.corpus_cases != corpus.cases.len() {
        return Err(MergeError::Corpus {
            file: first.name.clone(),
            digest: excerpt(&f.corpus_digest).into_owned(),
            cases: f.corpus_cases,
            given,
            given_cases: corpus.cases.len(),
        });
    }
    Ok(())
}

/// A case of a report, with the report it came from.
struct Found<'r> {
    report: &'r Conform,
    index: usize,
    case: CaseOutcome,
}

/// Every case of every report by id, each checked: in one report only,
/// then in the corpus, in its report's shard, from the same file. Overlap
/// is looked for first, so that a case in two reports is named as such
/// whichever report it does not belong to.
fn collect<'r>(
    reports: &'r [Conform],
    corpus: &Corpus,
) -> Result<HashMap<String, Found<'r>>, MergeError> {
    let mut found: HashMap<String, Found<'r>> = HashMap::new();
    // The ids in the reports' order, so that the same reports are always
    // refused for the same case.
    let mut order: Vec<String> = Vec::new();
    for report in reports {
        for (index, value) in report.body.cases.iter().enumerate() {
            let case = read_case(report, index, value)?;
            if let Some(earlier) = found.get(&case.id) {
                return Err(MergeError::Overlap {
                    id: case.id,
                    first: earlier.report.name.clone(),
                    other: report.name.clone(),
                });
            }
            order.push(case.id.clone());
            found.insert(
                case.id.clone(),
                Found {
                    report,
                    index,
                    case,
                },
            );
        }
    }
    let files: HashMap<&str, &str> = corpus
        .cases
        .iter()
        .map(|(file, c)| (c.id.as_str(), file.as_str()))
        .collect();
    for id in &order {
        let f = &found[id];
        check_place(f.report, &f.case, &files)?;
    }
    Ok(found)
}

fn read_case(report: &Conform, index: usize, value: &Value) -> Result<CaseOutcome, MergeError> {
    CaseOutcome::deserialize(value).map_err(|e| MergeError::Case {
        file: report.name.clone(),
        index,
        id: value
            .get("id")
            .and_then(Value::as_str)
            .unwrap_or("?")
            .to_string(),
        message: e.to_string(),
    })
}

/// Refuses a case the corpus does not have, one in another shard than
/// its report's, and one the report places in another file.
fn check_place(
    report: &Conform,
    case: &CaseOutcome,
    files: &HashMap<&str, &str>,
) -> Result<(), MergeError> {
    let Some(&file) = files.get(case.id.as_str()) else {
        return Err(MergeError::UnknownCase {
            file: report.name.clone(),
            id: case.id.clone(),
        });
    };
    let shard = report.facts.shard;
    if !shard.holds(&case.id) {
        return Err(MergeError::WrongShard {
            file: report.name.clone(),
            shard,
            id: case.id.clone(),
            belongs: part_of(&case.id, shard.count()),
        });
    }
    if case.file != file {
        return Err(MergeError::CaseFile {
            file: report.name.clone(),
            id: case.id.clone(),
            reported: case.file.clone(),
            corpus: file.to_string(),
        });
    }
    Ok(())
}

/// Refuses reports whose cases and not-applicable counts do not add up to
/// what their selection picks from the corpus (everything but the rules
/// range, which splits the picked cases into asked and not applicable).
fn check_count(
    first: &Conform,
    corpus: &Corpus,
    reported: usize,
    not_applicable: usize,
) -> Result<(), MergeError> {
    let s = &first.facts.selection;
    let selection = Selection {
        tier: Some(s.tier),
        variant: s.variant.clone(),
        rules: None,
        case: s.case.clone(),
        shard: Shard::WHOLE,
    };
    let selected = corpus
        .cases
        .iter()
        .filter(|(_, c)| selection.picks(c))
        .count();
    if reported.saturating_add(not_applicable) != selected {
        return Err(MergeError::Count {
            reported,
            not_applicable,
            selected,
        });
    }
    Ok(())
}

/// One case's result as the unsplit run gives it: the corpus's case with
/// the report's outcome, and its verdict when the run was judged.
fn rebuild(
    found: &Found<'_>,
    entry: &(String, Case),
    judged: bool,
) -> Result<(CaseResult, Option<Verdict>), MergeError> {
    let c = &found.case;
    let refuse = |message: String| MergeError::Case {
        file: found.report.name.clone(),
        index: found.index,
        id: c.id.clone(),
        message,
    };
    let outcome = outcome(c).map_err(refuse)?;
    let verdict = match (judged, c.verdict) {
        (false, _) => None,
        (true, Some(v)) => Some(v),
        (true, None) => {
            return Err(refuse(
                "no verdict, though the run was judged against expectations".into(),
            ));
        }
    };
    Ok((CaseResult::of(&entry.0, &entry.1, outcome), verdict))
}

/// The outcome a report's case states, from the fields its kind has.
fn outcome(c: &CaseOutcome) -> Result<Outcome, String> {
    let need = |field: &Option<String>, name: &str| {
        field
            .clone()
            .ok_or_else(|| format!("a '{}' outcome needs '{name}'", c.outcome.name()))
    };
    Ok(match c.outcome {
        OutcomeKind::Pass => Outcome::Pass,
        OutcomeKind::Fail => Outcome::Fail {
            expected: need(&c.expected_text, "expected_text")?,
            actual: need(&c.actual_text, "actual_text")?,
            detail: need(&c.detail, "detail")?,
            missing: c.missing.clone(),
            extra: c.extra.clone(),
        },
        OutcomeKind::Unsupported => Outcome::Unsupported(need(&c.message, "message")?),
        OutcomeKind::NotRun => Outcome::NotRun(need(&c.message, "message")?),
        k => Outcome::Error {
            kind: k.error_kind().ok_or("an outcome of no known kind")?,
            message: need(&c.message, "message")?,
        },
    })
}

/// The engine's hello as far as a report gives it: its name and version,
/// which is all a report shows.
fn hello(engine: &EngineName) -> Hello {
    Hello {
        protocol: PROTOCOL_VERSION,
        name: engine.name.clone(),
        version: engine.version.clone(),
        variants: Vec::new(),
        capabilities: Vec::new(),
        commands: Vec::new(),
        boards: None,
    }
}

/// The merged run's facts: the parts' run, whole, with their wall times
/// summed, how many parts there were, and the longest part's time.
fn merged_facts(reports: &[Conform]) -> RunFacts {
    let wall = |f: &RunFacts| f.wall_seconds_max.unwrap_or(f.wall_seconds);
    let sum: f64 = reports.iter().map(|r| r.facts.wall_seconds).sum();
    RunFacts {
        shard: Shard::WHOLE,
        wall_seconds: (sum * 1000.0).round() / 1000.0,
        merged_from: Some(reports.iter().fold(0u32, |n, r| {
            n.saturating_add(r.facts.merged_from.unwrap_or(1))
        })),
        wall_seconds_max: Some(reports.iter().map(|r| wall(&r.facts)).fold(0.0, f64::max)),
        ..reports[0].facts.clone()
    }
}
