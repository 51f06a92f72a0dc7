//! Judging geometry cases: the question asked of a board, and its answer
//! compared with the case (arrivals named by what differs, invariants
//! restricted to the facts a case pins).

use std::collections::BTreeMap;

use serde::de::DeserializeOwned;
use serde_json::Value;

use super::{Outcome, ask, compare, compare_sets};
use crate::conformance::case::{Arrival, BoardFileExpect, Check, InvariantsExpect, OrbitExpect};
use crate::conformance::engine::{Engine, ErrorKind};
use crate::conformance::protocol::Command;
use crate::movement::Facing;
use crate::topology::file::BoardErrorKind;

/// The `answer` of the engine's reply to a check's geometry question.
pub(super) fn geometry_answer(
    engine: &mut dyn Engine,
    board: &str,
    check: &Check,
) -> Result<Value, Outcome> {
    let reply = ask(
        engine,
        Command::Geometry {
            board: board.to_string(),
            question: check.question(),
        },
    )?;
    reply.get("answer").cloned().ok_or_else(|| Outcome::Error {
        kind: ErrorKind::Malformed,
        message: "the reply to 'geometry' has no 'answer'".into(),
    })
}

fn answer_as<T: DeserializeOwned>(answer: Value) -> Result<T, Outcome> {
    serde_json::from_value(answer).map_err(|e| Outcome::Error {
        kind: ErrorKind::Malformed,
        message: format!("the geometry answer does not have the expected shape: {e}"),
    })
}

pub(super) fn judge_geometry(check: &Check, answer: Value) -> Result<Outcome, Outcome> {
    Ok(match check {
        Check::Invariants { expect, .. } => {
            let full: InvariantsExpect = answer_as(answer)?;
            compare(expect, &restrict(expect, &full), "invariants differ".into())
        }
        Check::Walk { expect, .. } => judge_walk(expect, &answer_as(answer)?),
        Check::Reach { expect, .. } => {
            let actual: Vec<Arrival> = answer_as(answer)?;
            compare_sets(expect, &actual, "reached cells")
        }
        Check::ForbiddenDiagonals { expect, .. } => {
            let actual: Vec<String> = answer_as(answer)?;
            compare_sets(expect, &actual, "forbidden diagonals")
        }
        Check::BishopReach { expect, .. } => {
            let actual: BTreeMap<String, usize> = answer_as(answer)?;
            compare(expect, &actual, "bishop reach histogram differs".into())
        }
        Check::DiagonalComponents { expect, .. } => {
            let actual: Vec<usize> = answer_as(answer)?;
            compare(expect, &actual, "diagonal components differ".into())
        }
        Check::FileOrbits { expect, .. } => {
            let actual: Vec<OrbitExpect> = answer_as(answer)?;
            compare(expect, &actual, "file orbits differ".into())
        }
        Check::SolidFacts { expect, .. } => {
            let full: serde_json::Map<String, Value> = answer_as(answer)?;
            compare(
                expect,
                &restrict_facts(expect, &full),
                "solid facts differ".into(),
            )
        }
        Check::BoardFile { expect, .. } => {
            let mut actual: BoardFileExpect = answer_as(answer)?;
            // Where a TOML parser points at a syntax error is its own
            // business (PROTOCOL.md, board-file): that entry is not compared.
            if expect.error == Some(BoardErrorKind::Syntax) && actual.error == expect.error {
                actual.entry.clone_from(&expect.entry);
            }
            compare(expect, &actual, "board file verdict".into())
        }
        _ => unreachable!("only geometry checks reach judge_geometry"),
    })
}

/// Judges where a walk ends, naming what differs: no end where one was
/// expected (or the reverse), another cell, or the right cell reached with
/// another transport or facing.
fn judge_walk(expect: &Option<Arrival>, actual: &Option<Arrival>) -> Outcome {
    let detail = match (expect, actual) {
        (None, None) => return Outcome::Pass,
        (Some(e), Some(a)) if e == a => return Outcome::Pass,
        (Some(e), None) => format!(
            "the walk has no end (the engine found a step that does not exist), expected it to end on {}",
            e.cell
        ),
        (None, Some(a)) => format!(
            "the walk ends on {}, expected no end (a step that does not exist)",
            a.cell
        ),
        (Some(e), Some(a)) if e.cell != a.cell => {
            format!("the walk ends on {}, expected {}", a.cell, e.cell)
        }
        (Some(e), Some(a)) => format!(
            "the walk ends on the right cell {} but with {}",
            e.cell,
            arrival_differences(e, a).join(", and ")
        ),
    };
    compare(expect, actual, detail)
}

/// How `actual` differs from `expect` at the same cell: "transport flip-h,
/// expected identity" and "facing down, expected up", as they apply.
fn arrival_differences(expect: &Arrival, actual: &Arrival) -> Vec<String> {
    let mut out = Vec::new();
    if expect.transport != actual.transport {
        out.push(format!(
            "transport {}, expected {}",
            actual.transport, expect.transport
        ));
    }
    if expect.facing != actual.facing {
        // A facing is absent when the question gave none.
        let name = |f: Option<Facing>| f.map_or("none", Facing::name);
        out.push(format!(
            "facing {}, expected {}",
            name(actual.facing),
            name(expect.facing)
        ));
    }
    out
}

/// Copies from `full` exactly the facts named in `wanted`.
fn restrict_facts(
    wanted: &serde_json::Map<String, Value>,
    full: &serde_json::Map<String, Value>,
) -> serde_json::Map<String, Value> {
    wanted
        .keys()
        .filter_map(|k| full.get(k).map(|v| (k.clone(), v.clone())))
        .collect()
}

/// Copies from `full` exactly the fields that are present in `wanted`.
fn restrict(wanted: &InvariantsExpect, full: &InvariantsExpect) -> InvariantsExpect {
    fn pick<T: Clone>(w: &Option<T>, f: &Option<T>) -> Option<T> {
        w.as_ref().and(f.clone())
    }
    InvariantsExpect {
        faces: pick(&wanted.faces, &full.faces),
        edges: pick(&wanted.edges, &full.edges),
        vertices: pick(&wanted.vertices, &full.vertices),
        euler: pick(&wanted.euler, &full.euler),
        orientable: pick(&wanted.orientable, &full.orientable),
        boundary_components: pick(&wanted.boundary_components, &full.boundary_components),
        boundary_edges: pick(&wanted.boundary_edges, &full.boundary_edges),
        link_circles: pick(&wanted.link_circles, &full.link_circles),
        link_intervals: pick(&wanted.link_intervals, &full.link_intervals),
        circle_corners: pick(&wanted.circle_corners, &full.circle_corners),
        cone_points: pick(&wanted.cone_points, &full.cone_points),
        alternating_colouring: pick(&wanted.alternating_colouring, &full.alternating_colouring),
        surface: pick(&wanted.surface, &full.surface),
    }
}
