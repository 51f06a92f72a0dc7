//! Reports of a conformance run: text for people, JSON for tools, JUnit XML
//! for CI test views and Markdown for a CI step summary.
//!
//! Every format carries the same facts: each case's outcome (with expected
//! and actual answers for failures), the verdict against the expectations
//! file when one was given, and summaries per board or variant and per
//! clause, so a broken rule shows up as the clauses it breaks. A report of
//! a run also states the run ([`RunFacts`]): which part of a split run it
//! is, its wall time, and what `seams merge` compares to refuse parts of
//! different runs.

use std::collections::BTreeMap;
use std::fmt::Write;

use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

use super::expectations::Verdict;
use super::protocol::Hello;
use super::runner::{BOARD_FILES, CaseResult, Outcome, OutcomeKind, SelectionFacts};
use crate::shard::Shard;
use crate::spec::clause_order;

/// The `report` field of a conformance report's JSON: which command's
/// report it is, for `seams merge`.
pub const KIND: &str = "conform";

/// Everything a report is made from.
pub struct Report<'a> {
    pub engine: &'a Hello,
    pub results: &'a [CaseResult],
    /// One per result when an expectations file was given.
    pub verdicts: Option<&'a [Verdict]>,
    /// Cases left out because their `rules` range excludes the version.
    pub not_applicable: usize,
    /// The run behind the results; `None` for results gathered without
    /// one (a test's own loop), whose report then states no run.
    pub run: Option<&'a RunFacts>,
}

/// What a report states of the run behind its results: the part of a
/// split run it is and how long it took, and what `seams merge` compares
/// to refuse parts of different runs (the version of seams, the corpus,
/// the selection and the expectations; the engine is in the report too).
/// The JSON report carries these fields at its top level.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RunFacts {
    /// The version of seams that ran the cases.
    pub seams: String,
    /// Which part of a split run this is; `1/1` for a whole run and for
    /// parts merged into one.
    pub shard: Shard,
    /// Seconds of wall-clock time from the engine's start to its last
    /// reply; for merged parts, their sum.
    pub wall_seconds: f64,
    /// For merged parts: how many shard reports were merged.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub merged_from: Option<u32>,
    /// For merged parts: the longest part's wall time, the run's time
    /// when the parts ran side by side.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub wall_seconds_max: Option<f64>,
    /// The corpus's digest (`Corpus::digest`), over every case id.
    pub corpus_digest: String,
    /// How many cases the corpus holds, selected or not.
    pub corpus_cases: usize,
    /// The filters that chose the cases, all but the shard.
    pub selection: SelectionFacts,
    /// The expectations' digest (`Expectations::digest`), when the
    /// results were judged against a file.
    pub expectations_digest: Option<String>,
}

impl RunFacts {
    /// `shard 2/7: ` before the headline of a part of a split run.
    fn headline_prefix(&self) -> String {
        if self.shard.is_whole() {
            String::new()
        } else {
            format!("shard {}: ", self.shard)
        }
    }

    /// `; wall time 1.23 s` (with the parts' count and the longest for
    /// merged parts) after the headline.
    fn headline_suffix(&self) -> String {
        let mut s = format!("; wall time {:.2} s", self.wall_seconds);
        if let (Some(n), Some(max)) = (self.merged_from, self.wall_seconds_max) {
            let _ = write!(s, " over {n} shard(s), the longest {max:.2} s");
        }
        s
    }
}

/// Counts of outcomes in one group.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    pub pass: usize,
    pub fail: usize,
    pub unsupported: usize,
    pub errors: usize,
    /// Cases not asked (time limit or dead engine).
    pub not_run: usize,
}

impl Tally {
    fn add(&mut self, k: OutcomeKind) {
        match k {
            OutcomeKind::Pass => self.pass += 1,
            OutcomeKind::Fail => self.fail += 1,
            OutcomeKind::Unsupported => self.unsupported += 1,
            OutcomeKind::NotRun => self.not_run += 1,
            _ => self.errors += 1,
        }
    }
    fn total(&self) -> usize {
        self.pass + self.fail + self.unsupported + self.errors + self.not_run
    }
    /// Whether every case counted here passed: nothing failed, was
    /// unsupported or erred.
    pub fn all_passed(&self) -> bool {
        self.fail == 0 && self.unsupported == 0 && self.errors == 0 && self.not_run == 0
    }
    fn json(&self) -> Value {
        json!({"pass": self.pass, "fail": self.fail, "unsupported": self.unsupported, "errors": self.errors, "not_run": self.not_run})
    }
}

impl Report<'_> {
    pub fn total(&self) -> Tally {
        let mut t = Tally::default();
        for r in self.results {
            t.add(r.outcome.kind());
        }
        t
    }

    /// Tallies per `board:NAME` / `variant:NAME`.
    pub fn by_subject(&self) -> BTreeMap<String, Tally> {
        let mut m: BTreeMap<String, Tally> = BTreeMap::new();
        for r in self.results {
            m.entry(r.subject.clone())
                .or_default()
                .add(r.outcome.kind());
        }
        m
    }

    /// Tallies per clause (a case counts for each clause it cites).
    pub fn by_clause(&self) -> BTreeMap<String, Tally> {
        let mut m: BTreeMap<String, Tally> = BTreeMap::new();
        for r in self.results {
            for c in &r.clauses {
                m.entry(c.clone()).or_default().add(r.outcome.kind());
            }
        }
        m
    }

    /// Tallies per clause in [`clause_order`] (`SC-2.1` before `SC-10.1`),
    /// the order `seams spec coverage` lists clauses in.
    pub fn by_clause_sorted(&self) -> Vec<(String, Tally)> {
        let mut v: Vec<(String, Tally)> = self.by_clause().into_iter().collect();
        v.sort_by(|a, b| clause_order(&a.0, &b.0));
        v
    }

    /// Clauses cited by a case that failed (a wrong answer), most first,
    /// then in [`clause_order`].
    pub fn broken_clauses(&self) -> Vec<(String, usize)> {
        let mut v: Vec<(String, usize)> = self
            .by_clause()
            .into_iter()
            .filter(|(_, t)| t.fail > 0)
            .map(|(c, t)| (c, t.fail))
            .collect();
        v.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| clause_order(&a.0, &b.0)));
        v
    }

    /// Error counts by kind, e.g. `crash 2, timeout 1`.
    fn error_kinds(&self) -> String {
        let mut m: BTreeMap<&str, usize> = BTreeMap::new();
        for r in self.results {
            let k = r.outcome.kind();
            if k.is_failure() && k != OutcomeKind::Fail && k != OutcomeKind::NotRun {
                *m.entry(k.name()).or_default() += 1;
            }
        }
        m.iter()
            .map(|(k, n)| format!("{k} {n}"))
            .collect::<Vec<_>>()
            .join(", ")
    }

    pub(super) fn verdict(&self, i: usize) -> Option<Verdict> {
        self.verdicts.and_then(|v| v.get(i).copied())
    }

    /// Whether result `i` belongs in a list of problems: it fails or errs,
    /// or it differs from the expectations file.
    pub(super) fn is_problem(&self, i: usize) -> bool {
        self.results[i].outcome.kind().is_failure()
            || self.verdict(i).is_some_and(|v| v.is_mismatch())
    }

    /// Number of results that do not match expectations (or, without an
    /// expectations file, that fail or error).
    pub fn mismatches(&self) -> usize {
        match self.verdicts {
            Some(v) => v.iter().filter(|x| x.is_mismatch()).count(),
            None => self
                .results
                .iter()
                .filter(|r| r.outcome.kind().is_failure())
                .count(),
        }
    }

    pub(super) fn headline(&self) -> String {
        let t = self.total();
        let mut s = format!(
            "{}{} cases: {} passed, {} failed, {} unsupported, {} errors",
            self.run.map(RunFacts::headline_prefix).unwrap_or_default(),
            t.total(),
            t.pass,
            t.fail,
            t.unsupported,
            t.errors
        );
        let kinds = self.error_kinds();
        if !kinds.is_empty() {
            let _ = write!(s, " ({kinds})");
        }
        if t.not_run > 0 {
            let _ = write!(s, ", {} not run", t.not_run);
        }
        if self.not_applicable > 0 {
            let _ = write!(
                s,
                "; {} not applicable to the rules version",
                self.not_applicable
            );
        }
        if let Some(run) = self.run {
            s.push_str(&run.headline_suffix());
        }
        s
    }

    /// The text report: the headline, the problem cases (with `verbose`,
    /// unsupported ones too), tallies by board or variant and by clause,
    /// the broken clauses, and the headline again.
    ///
    /// A tally row is hidden unless `verbose` when every case in it passed
    /// (no failure, no unsupported case, no error): such a row says nothing
    /// the headline does not. A section with hidden rows ends with one line
    /// saying how many and that `--verbose` shows them.
    pub fn text(&self, verbose: bool) -> String {
        let mut s = String::new();
        self.text_summary(&mut s);
        let _ = writeln!(s, "engine {} {}", self.engine.name, self.engine.version);
        for i in 0..self.results.len() {
            self.text_case(&mut s, i, verbose);
        }
        let _ = writeln!(s);
        let _ = writeln!(s, "by board or variant:");
        text_tallies(&mut s, self.by_subject(), verbose);
        let _ = writeln!(s, "by clause:");
        text_tallies(&mut s, self.by_clause_sorted(), verbose);
        let broken = self.broken_clauses();
        if !broken.is_empty() {
            let list: Vec<String> = broken.iter().map(|(c, n)| format!("{c} ({n})")).collect();
            let _ = writeln!(s, "clauses broken: {}", list.join(", "));
        }
        self.text_summary(&mut s);
        s
    }

    /// The headline and, with an expectations file, how many results
    /// differ from it: the first and the last lines of the text report.
    fn text_summary(&self, s: &mut String) {
        let _ = writeln!(s, "{}", self.headline());
        if self.verdicts.is_some() {
            let _ = writeln!(
                s,
                "{} result(s) differ from the expectations file",
                self.mismatches()
            );
        }
    }

    /// Result `i` with its message, if it is a problem (or, with
    /// `verbose`, unsupported).
    fn text_case(&self, s: &mut String, i: usize, verbose: bool) {
        let r = &self.results[i];
        let kind = r.outcome.kind();
        let verdict = self.verdict(i);
        let show = kind.is_failure()
            || verdict.is_some_and(|v| v.is_mismatch())
            || (verbose && kind == OutcomeKind::Unsupported);
        if !show {
            return;
        }
        let label = match kind {
            OutcomeKind::Fail => "FAIL".to_string(),
            OutcomeKind::Pass => "PASS".to_string(),
            OutcomeKind::Unsupported => "UNSUPPORTED".to_string(),
            OutcomeKind::NotRun => "NOT RUN".to_string(),
            k => format!("ERROR ({})", k.name()),
        };
        let mark = match verdict {
            Some(v) if v.is_mismatch() => format!(" [{}]", v.name()),
            Some(_) => " [expected]".into(),
            None => String::new(),
        };
        let _ = writeln!(
            s,
            "{label}{mark} {} ({}) [{}]",
            r.id,
            r.file,
            r.clauses.join(", ")
        );
        if kind != OutcomeKind::Pass {
            for line in r.outcome.message().lines() {
                let _ = writeln!(s, "  {line}");
            }
        }
    }

    /// The JSON report.
    pub fn json(&self) -> Value {
        let cases: Vec<Value> = self
            .results
            .iter()
            .enumerate()
            .map(|(i, r)| {
                let mut v = json!({
                    "id": r.id,
                    "file": r.file,
                    "title": r.title,
                    "subject": r.subject,
                    "check": r.check,
                    "clauses": r.clauses,
                    "provenance": r.provenance,
                    "outcome": r.outcome.kind().name(),
                });
                match &r.outcome {
                    Outcome::Pass => {}
                    Outcome::Fail {
                        expected,
                        actual,
                        detail,
                        missing,
                        extra,
                    } => {
                        v["detail"] = json!(detail);
                        v["expected"] = serde_json::from_str(expected).unwrap_or(json!(expected));
                        v["actual"] = serde_json::from_str(actual).unwrap_or(json!(actual));
                        // The answers as the runner wrote them, which the
                        // values above do not keep (layout, key order):
                        // `seams merge` rebuilds the outcome from them.
                        v["expected_text"] = json!(expected);
                        v["actual_text"] = json!(actual);
                        // Set differences as data, so a CI step can act on
                        // them without parsing the detail text.
                        if !missing.is_empty() || !extra.is_empty() {
                            v["missing"] = json!(missing);
                            v["extra"] = json!(extra);
                            v["missing_count"] = json!(missing.len());
                            v["extra_count"] = json!(extra.len());
                        }
                    }
                    Outcome::Unsupported(m)
                    | Outcome::Error { message: m, .. }
                    | Outcome::NotRun(m) => {
                        v["message"] = json!(m);
                    }
                }
                if let Some(verdict) = self.verdict(i) {
                    v["verdict"] = json!(verdict);
                }
                v
            })
            .collect();
        let mut out = json!({
            "report": KIND,
            "engine": {"name": self.engine.name, "version": self.engine.version},
            "summary": self.total().json(),
            "by_subject": self.by_subject().into_iter().map(|(k, t)| (k, t.json())).collect::<serde_json::Map<_, _>>(),
            "by_clause": self.by_clause().into_iter().map(|(k, t)| (k, t.json())).collect::<serde_json::Map<_, _>>(),
            "clauses_broken": self.broken_clauses().into_iter().map(|(clause, cases)| json!({"clause": clause, "cases": cases})).collect::<Vec<_>>(),
            "not_applicable": self.not_applicable,
            "cases": cases,
        });
        if self.verdicts.is_some() {
            out["mismatches"] = json!(self.mismatches());
        }
        if let (Some(run), Value::Object(map)) = (self.run, &mut out)
            && let Ok(Value::Object(facts)) = serde_json::to_value(run)
        {
            map.extend(facts);
        }
        out
    }

    /// JUnit XML: one suite per board or variant, one test case per case.
    /// Failures are `failure`, errors `error`, unsupported `skipped`.
    pub fn junit(&self) -> Result<String, quick_junit::SerializeError> {
        use quick_junit::{NonSuccessKind, TestCase, TestCaseStatus, TestSuite};
        let shard = match self.run {
            Some(run) if !run.shard.is_whole() => format!(" (shard {})", run.shard),
            _ => String::new(),
        };
        let mut report =
            quick_junit::Report::new(format!("seams conform: {}{shard}", self.engine.name));
        if let Some(run) = self.run {
            // A time no `Duration` holds (negative, huge) is left out,
            // never a panic: merged reports come from files.
            if let Ok(time) = std::time::Duration::try_from_secs_f64(run.wall_seconds) {
                report.set_time(time);
            }
        }
        let mut suites: BTreeMap<&str, TestSuite> = BTreeMap::new();
        for r in self.results {
            let status = match &r.outcome {
                Outcome::Pass => TestCaseStatus::success(),
                Outcome::Unsupported(m) => {
                    let mut s = TestCaseStatus::skipped();
                    s.set_message(m.as_str());
                    s
                }
                o => {
                    let kind = if o.kind() == OutcomeKind::Fail {
                        NonSuccessKind::Failure
                    } else {
                        NonSuccessKind::Error
                    };
                    let mut s = TestCaseStatus::non_success(kind);
                    s.set_type(o.kind().name());
                    s.set_message(o.message().lines().next().unwrap_or_default());
                    s.set_description(o.message());
                    s
                }
            };
            let mut tc = TestCase::new(r.id.as_str(), status);
            tc.set_classname(r.subject.as_str());
            suites
                .entry(r.subject.as_str())
                .or_insert_with(|| TestSuite::new(r.subject.as_str()))
                .add_test_case(tc);
        }
        report.add_test_suites(suites.into_values());
        report.to_string()
    }

    /// Markdown for a CI step summary.
    pub fn markdown(&self) -> String {
        let mut s = String::new();
        let _ = writeln!(
            s,
            "## seams conform: {} {}\n",
            self.engine.name, self.engine.version
        );
        let _ = writeln!(s, "{}\n", self.headline());
        if self.verdicts.is_some() {
            let _ = writeln!(
                s,
                "**{}** result(s) differ from the expectations file.\n",
                self.mismatches()
            );
        }
        // Problems first: they are what a reader of a CI summary acts on.
        let problems: Vec<(usize, &CaseResult)> = self
            .results
            .iter()
            .enumerate()
            .filter(|(i, _)| self.is_problem(*i))
            .collect();
        if !problems.is_empty() {
            let _ = writeln!(s, "### Problems\n");
            for (i, r) in problems {
                let verdict = self
                    .verdict(i)
                    .map(|v| format!(" ({})", v.name()))
                    .unwrap_or_default();
                let _ = writeln!(
                    s,
                    "<details><summary><code>{}</code>: {}{verdict}</summary>\n\n```\n{}\n```\n</details>\n",
                    r.id,
                    r.outcome.kind().name(),
                    r.outcome.message().replace("```", "'''")
                );
            }
        }
        let table = |s: &mut String, title: &str, rows: Vec<(String, Tally)>| {
            let _ = writeln!(
                s,
                "| {title} | pass | fail | unsupported | errors | not run |"
            );
            let _ = writeln!(s, "|---|---:|---:|---:|---:|---:|");
            for (k, t) in rows {
                let _ = writeln!(
                    s,
                    "| `{k}` | {} | {} | {} | {} | {} |",
                    t.pass, t.fail, t.unsupported, t.errors, t.not_run
                );
            }
            let _ = writeln!(s);
        };
        table(
            &mut s,
            "board / variant",
            self.by_subject().into_iter().collect(),
        );
        table(&mut s, "clause", self.by_clause_sorted());
        s
    }
}

/// Tally rows of one text-report section, each labelled by its group (see
/// [`subject_note`]); rows where every case passed are hidden unless
/// `verbose`, and one line then says how many.
fn text_tallies(s: &mut String, rows: impl IntoIterator<Item = (String, Tally)>, verbose: bool) {
    let rows: Vec<(String, Tally)> = rows.into_iter().collect();
    let shown: Vec<&(String, Tally)> = rows
        .iter()
        .filter(|(_, t)| verbose || !t.all_passed())
        .collect();
    let width = shown.iter().map(|(k, _)| k.len()).max().unwrap_or(0).max(8);
    for (k, t) in &shown {
        let note = subject_note(k)
            .map(|n| format!("  ({n})"))
            .unwrap_or_default();
        // Shown only when some case was not run, to keep the usual row short.
        let not_run = if t.not_run > 0 {
            format!(" {:>4} not run", t.not_run)
        } else {
            String::new()
        };
        let _ = writeln!(
            s,
            "  {k:<width$}  {:>4} pass {:>4} fail {:>4} unsupported {:>4} errors{not_run}{note}",
            t.pass, t.fail, t.unsupported, t.errors
        );
    }
    let hidden = rows.len() - shown.len();
    if hidden > 0 {
        let (noun, verb) = if hidden == 1 {
            ("row", "is")
        } else {
            ("rows", "are")
        };
        let _ = writeln!(
            s,
            "  ({hidden} {noun} where every case passed {verb} hidden; --verbose shows them)"
        );
    }
}

/// What a group name alone does not tell a reader: `board:NAME` and
/// `variant:NAME` say what they are; the group of board-file checks does
/// not name a board, since each of its cases carries its own board file.
fn subject_note(group: &str) -> Option<&'static str> {
    (group == BOARD_FILES)
        .then_some("board-file checks: is a board file accepted, or which entry is rejected")
}
