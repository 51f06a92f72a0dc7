//! Perft bisection: find the first position where an engine's legal
//! actions disagree with the reference.
//!
//! Starting from a position and a depth, both sides give their `divide`
//! (the perft count below each legal action). If the action sets differ,
//! this position is the culprit. Otherwise the walk follows the first
//! action whose counts differ, one ply deeper, until the sets differ. The
//! culprit is written out as a `legal-actions` corpus case with the
//! reference's answer, marked for review.

use std::collections::BTreeMap;

use super::case::{Case, CaseFile, Check, Place, Provenance};
use super::engine::{AskError, Engine};
use super::id;
use super::protocol::{Command, PerftReply};
use crate::variant::{At, Variant, VariantError};

/// Why a bisection could not finish.
#[derive(Debug, thiserror::Error)]
pub enum BisectError {
    #[error("the reference cannot ask this position: {0}")]
    Reference(#[from] VariantError),
    #[error("the engine did not answer perft with divide at moves [{moves}]: {message}")]
    Engine { moves: String, message: String },
    #[error("depth 0 has nothing to compare; use a depth of 1 or more")]
    DepthZero,
}

/// Where the walk ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Bisection {
    /// Same divide counts at the starting position.
    Agree { nodes: u64 },
    /// The first position whose legal actions differ.
    Found {
        /// Moves played from the start position to reach it.
        moves: Vec<String>,
        /// Actions the reference has and the engine lacks.
        missing: Vec<String>,
        /// Actions the engine has and the reference lacks.
        extra: Vec<String>,
        /// The reference's legal actions there, sorted.
        reference_actions: Vec<String>,
    },
    /// Counts differ, yet every child agrees on its action set down to the
    /// last ply (the engine's counts are inconsistent with its own moves).
    Inconsistent { moves: Vec<String>, detail: String },
}

fn engine_divide(
    engine: &mut dyn Engine,
    variant: &str,
    at: &Place,
    depth: u32,
) -> Result<BTreeMap<String, u64>, BisectError> {
    let fail = |message: String| BisectError::Engine {
        moves: at.moves.join(","),
        message,
    };
    let reply = engine
        .ask(&Command::Perft {
            variant: variant.to_string(),
            at: at.clone(),
            depth,
            divide: true,
        })
        .map_err(|e| match e {
            AskError::Unsupported => fail("it answered unsupported".into()),
            AskError::Failed { kind, message } => fail(format!("{}: {message}", kind.name())),
        })?;
    let r: PerftReply = serde_json::from_value(reply).map_err(|e| fail(e.to_string()))?;
    r.divide
        .ok_or_else(|| fail("the reply has no 'divide'".into()))
}

/// Walks down from `start` (a position text, or the initial position) and
/// `moves` to the first disagreement with `reference`.
pub fn bisect(
    engine: &mut dyn Engine,
    reference: &dyn Variant,
    start: Option<&str>,
    mut moves: Vec<String>,
    depth: u32,
) -> Result<Bisection, BisectError> {
    if depth == 0 {
        return Err(BisectError::DepthZero);
    }
    let mut depth = depth;
    let mut first = true;
    loop {
        let place = Place {
            position: start.map(String::from),
            moves: moves.clone(),
        };
        let at = At {
            position: start,
            moves: &moves,
        };
        let want: BTreeMap<String, u64> = reference.divide(&at, depth)?.into_iter().collect();
        let got = engine_divide(engine, reference.name(), &place, depth)?;
        if want == got && first {
            return Ok(Bisection::Agree {
                nodes: want.values().sum(),
            });
        }
        first = false;
        let missing: Vec<String> = want
            .keys()
            .filter(|k| !got.contains_key(*k))
            .cloned()
            .collect();
        let extra: Vec<String> = got
            .keys()
            .filter(|k| !want.contains_key(*k))
            .cloned()
            .collect();
        if !missing.is_empty() || !extra.is_empty() {
            return Ok(Bisection::Found {
                moves,
                missing,
                extra,
                reference_actions: want.keys().cloned().collect(),
            });
        }
        let differing = want.iter().find(|(k, n)| got.get(*k) != Some(n));
        match differing {
            Some((action, _)) if depth > 1 => {
                moves.push(action.clone());
                depth -= 1;
            }
            _ => {
                return Ok(Bisection::Inconsistent {
                    moves,
                    detail: "the action sets agree here but the counts below them differ, \
                             or the counts were equal at this depth after differing above"
                        .into(),
                });
            }
        }
    }
}

/// The culprit position as a corpus case: the reference's legal actions,
/// provenance `reference`, marked for review.
pub fn culprit_case(
    variant: &str,
    start: Option<&str>,
    moves: &[String],
    reference_actions: &[String],
) -> CaseFile {
    let mut case = Case {
        id: format!("bisect/{variant}/ply-{}", moves.len()),
        title: format!(
            "The legal actions of {variant} after {} (found by seams bisect)",
            if moves.is_empty() {
                "no moves".to_string()
            } else {
                moves.join(", ")
            }
        ),
        clauses: vec!["REVIEW: cite the clauses this position pins".into()],
        rules: None,
        capabilities: vec!["legal-actions".into()],
        provenance: Provenance::Reference {
            reviewed: format!(
                "{}: written by seams bisect from the reference engine's answer; check it by \
                 hand, cite the clauses, then say who reviewed it",
                super::case::UNREVIEWED
            ),
        },
        check: Check::LegalActions {
            variant: variant.to_string(),
            at: Place {
                position: start.map(String::from),
                moves: moves.to_vec(),
            },
            expect: reference_actions.to_vec(),
        },
    };
    case.id = id::expected_id(&case);
    CaseFile {
        schema: Some("../../schema/case-file.schema.json".into()),
        cases: vec![case],
    }
}
