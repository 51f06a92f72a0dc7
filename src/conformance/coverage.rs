//! Traceability between spec clauses and corpus cases.
//!
//! Every case cites clause numbers; every clause of a `spec/*/rules.md`
//! should be pinned by at least one case. This module computes both
//! directions so `seams spec coverage` and the test suite can gate on them.

use std::collections::BTreeMap;

use serde::Serialize;

use super::Corpus;
use crate::spec::{Clause, clause_order};

/// One clause and the cases that cite it.
#[derive(Clone, Debug, Serialize)]
pub struct ClauseRow {
    pub clause: String,
    pub file: String,
    pub interpretation: bool,
    pub summary: String,
    /// Case ids by provenance kind.
    pub cases: BTreeMap<String, Vec<String>>,
}

/// The coverage table plus the citations that name no clause.
#[derive(Clone, Debug, Serialize)]
pub struct Coverage {
    pub rows: Vec<ClauseRow>,
    /// (case id, cited clause) pairs whose clause is not defined.
    pub unknown: Vec<(String, String)>,
}

impl Coverage {
    pub fn uncovered(&self) -> impl Iterator<Item = &ClauseRow> {
        self.rows.iter().filter(|r| r.cases.is_empty())
    }
    /// Whether every clause is cited and every citation names a clause.
    pub fn complete(&self) -> bool {
        self.unknown.is_empty() && self.uncovered().next().is_none()
    }
}

/// Which cases cite each clause, rows in [`clause_order`] (the order
/// `seams conform` lists its clause rows in), and the citations of clauses
/// no spec defines.
pub fn coverage(clauses: &[Clause], corpus: &Corpus) -> Coverage {
    let mut clauses: Vec<&Clause> = clauses.iter().collect();
    clauses.sort_by(|a, b| clause_order(&a.id, &b.id));
    let mut rows: Vec<ClauseRow> = clauses
        .iter()
        .map(|c| ClauseRow {
            clause: c.id.clone(),
            file: c.file.clone(),
            interpretation: c.interpretation,
            summary: c.summary.clone(),
            cases: BTreeMap::new(),
        })
        .collect();
    let index: BTreeMap<String, usize> = rows
        .iter()
        .enumerate()
        .map(|(i, r)| (r.clause.clone(), i))
        .collect();
    let mut unknown = Vec::new();
    for (_, case) in &corpus.cases {
        for cited in &case.clauses {
            match index.get(cited) {
                Some(&i) => rows[i]
                    .cases
                    .entry(case.provenance.kind().to_string())
                    .or_default()
                    .push(case.id.clone()),
                None => unknown.push((case.id.clone(), cited.clone())),
            }
        }
    }
    Coverage { rows, unknown }
}
