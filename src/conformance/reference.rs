//! Answers corpus questions with the reference implementation and compares.

use std::collections::{BTreeMap, BTreeSet};

use serde::Serialize;

use super::case::{
    ActionExpect, Arrival, Case, Check, InvariantsExpect, KeyRelation, OrbitExpect, Place,
    PlayExpect, RecordExpect, Subject,
};
use crate::geometry::Geometry;
use crate::movement::{Facing, Landing};
use crate::spec::Library;
use crate::topology::{CellId, Dir, mesh};
use crate::variant::{self, At, RecordVerdict, Variant};

/// The result of checking one case.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    Pass,
    /// The answer differs; both sides are pretty JSON, plus what differs.
    Fail {
        expected: String,
        actual: String,
        detail: String,
    },
    /// The case itself cannot be asked (unknown board, bad coordinate, …).
    Error(String),
}

/// Checks one case against the reference implementation.
pub fn run(case: &Case, lib: &Library) -> Outcome {
    match answer(&case.check, lib) {
        Ok(o) => o,
        Err(e) => Outcome::Error(e),
    }
}

fn pretty<T: Serialize>(v: &T) -> String {
    serde_json::to_string_pretty(v).unwrap_or_else(|e| format!("<unprintable: {e}>"))
}

fn compare<T: Serialize + PartialEq>(expected: &T, actual: &T, detail: String) -> Outcome {
    if expected == actual {
        Outcome::Pass
    } else {
        Outcome::Fail {
            expected: pretty(expected),
            actual: pretty(actual),
            detail,
        }
    }
}

/// Compares two sets and names what is missing and what is extra.
fn compare_sets<T: Serialize + Ord + Clone>(expected: &[T], actual: &[T]) -> Outcome {
    let e: BTreeSet<T> = expected.iter().cloned().collect();
    let a: BTreeSet<T> = actual.iter().cloned().collect();
    if e == a {
        return Outcome::Pass;
    }
    let missing: Vec<&T> = e.difference(&a).collect();
    let extra: Vec<&T> = a.difference(&e).collect();
    Outcome::Fail {
        expected: pretty(&e),
        actual: pretty(&a),
        detail: format!(
            "missing {}; extra {}",
            serde_json::to_string(&missing).unwrap_or_default(),
            serde_json::to_string(&extra).unwrap_or_default()
        ),
    }
}

fn cell(geo: &Geometry, text: &str) -> Result<CellId, String> {
    geo.board().parse_cell(text).map_err(|e| e.to_string())
}

fn arrival(geo: &Geometry, l: Landing, facing: Option<Facing>) -> Arrival {
    Arrival {
        cell: geo.board().cell_name(l.cell),
        transport: l.transport.name().to_string(),
        facing: facing.map(|f| f.transported(l.transport)),
    }
}

fn at(place: &Place) -> At<'_> {
    At {
        position: place.position.as_deref(),
        moves: &place.moves,
    }
}

fn answer(check: &Check, lib: &Library) -> Result<Outcome, String> {
    let board_name = match check.subject() {
        Subject::Board(b) => b,
        Subject::BoardFile => return Ok(answer_board_file(check)),
        Subject::Variant(v) => {
            let variant = variant::find(v).map_err(|e| e.to_string())?;
            return answer_rules(check, variant).map_err(|e| e.to_string());
        }
    };
    if let Some(solid) = lib.solid(board_name) {
        return answer_solid(check, solid);
    }
    let geo = lib.geometry(board_name).map_err(|e| e.to_string())?;
    let board = geo.board();
    Ok(match check {
        Check::Invariants { expect, .. } => {
            let inv = mesh::invariants(board);
            let full = InvariantsExpect {
                faces: Some(inv.faces),
                edges: Some(inv.edges),
                vertices: Some(inv.vertices),
                euler: Some(inv.euler),
                orientable: Some(inv.orientable),
                boundary_components: Some(inv.boundary_components),
                boundary_edges: Some(inv.boundary_edges),
                link_circles: Some(inv.link_circles),
                link_intervals: Some(inv.link_intervals),
                circle_corners: Some(
                    inv.circle_corners
                        .iter()
                        .map(|(k, v)| (k.to_string(), *v))
                        .collect(),
                ),
                cone_points: Some(inv.cone_points),
                alternating_colouring: Some(inv.alternating_colouring),
                surface: Some(inv.surface.clone()),
            };
            // Keep only the fields the case asks about.
            let actual = restrict(expect, &full);
            compare(expect, &actual, "invariants differ".into())
        }
        Check::Walk {
            from,
            steps,
            facing,
            expect,
            ..
        } => {
            let start = cell(geo, from)?;
            let dirs = steps
                .iter()
                .map(|s| Dir::parse(s).ok_or_else(|| format!("'{s}' is not a direction")))
                .collect::<Result<Vec<_>, _>>()?;
            let mut here = Landing {
                cell: start,
                transport: crate::topology::Transport::IDENTITY,
            };
            let mut alive = true;
            for d in dirs {
                match geo.step(here.cell, here.transport.apply(d)) {
                    Some(s) => {
                        here = Landing {
                            cell: s.to,
                            transport: here.transport.then(s.transport),
                        }
                    }
                    None => {
                        alive = false;
                        break;
                    }
                }
            }
            let actual = alive.then(|| arrival(geo, here, *facing));
            compare(expect, &actual, "the walk ends elsewhere".into())
        }
        Check::Reach {
            from,
            pattern,
            facing,
            occupied,
            expect,
            ..
        } => {
            let start = cell(geo, from)?;
            let blocked: BTreeSet<CellId> = occupied
                .iter()
                .map(|c| cell(geo, c))
                .collect::<Result<_, _>>()?;
            let actual: Vec<Arrival> = pattern
                .reach(geo, start, &|c| blocked.contains(&c))
                .into_iter()
                .map(|l| arrival(geo, l, *facing))
                .collect();
            compare_sets(expect, &actual)
        }
        Check::ForbiddenDiagonals { expect, .. } => {
            let actual = geo.move_facts().forbidden_diagonals;
            compare_sets(expect, &actual)
        }
        Check::BishopReach { expect, .. } => {
            let actual: BTreeMap<String, usize> = geo
                .move_facts()
                .bishop_reach
                .into_iter()
                .map(|(k, v)| (k.to_string(), v))
                .collect();
            compare(expect, &actual, "bishop reach histogram differs".into())
        }
        Check::DiagonalComponents { expect, .. } => compare(
            expect,
            &geo.diagonal_components(),
            "diagonal components differ".into(),
        ),
        Check::FileOrbits { expect, .. } => {
            let actual: Vec<OrbitExpect> = geo
                .move_facts()
                .file_orbits
                .into_iter()
                .map(|o| OrbitExpect {
                    first: o.first,
                    cells: o.cells,
                    closed: o.closed,
                    files: o.files,
                    charts: o.charts,
                })
                .collect();
            compare(expect, &actual, "file orbits differ".into())
        }
        _ => unreachable!("rules questions are answered by answer_rules"),
    })
}

/// Answers a geometry question about a tetrahedral board.
fn answer_solid(
    check: &Check,
    solid: &crate::topology::tetra::TetraBoard,
) -> Result<Outcome, String> {
    use crate::movement::Pattern;
    use crate::topology::tetra::TDir;
    match check {
        Check::SolidFacts { expect, .. } => {
            let full = serde_json::to_value(solid.facts()).map_err(|e| e.to_string())?;
            let mut actual = serde_json::Map::new();
            for key in expect.keys() {
                let v = full
                    .get(key)
                    .ok_or_else(|| format!("'{key}' is not a solid fact"))?;
                actual.insert(key.clone(), v.clone());
            }
            Ok(compare(expect, &actual, "solid facts differ".into()))
        }
        Check::Reach {
            from,
            pattern,
            occupied,
            expect,
            ..
        } => {
            let start = solid.parse_cell(from).map_err(|e| e.to_string())?;
            let blocked: BTreeSet<CellId> = occupied
                .iter()
                .map(|c| solid.parse_cell(c).map_err(|e| e.to_string()))
                .collect::<Result<_, _>>()?;
            let occ = |c: CellId| blocked.contains(&c);
            let cells = match pattern {
                Pattern::Orthogonal => solid.reach(start, TDir::orthogonals(), true, &occ),
                Pattern::Diagonal => solid.reach(start, TDir::diagonals(), true, &occ),
                Pattern::King => solid.reach(start, TDir::all(), false, &occ),
                Pattern::Knight => {
                    return Err("the tetrahedral board has no knight pattern".into());
                }
            };
            let actual: Vec<Arrival> = cells
                .into_iter()
                .map(|c| Arrival {
                    cell: solid.cell_name(c),
                    transport: "identity".into(),
                    facing: None,
                })
                .collect();
            Ok(compare_sets(expect, &actual))
        }
        other => Err(format!(
            "a '{}' question does not apply to the tetrahedral board {}",
            other.kind(),
            solid.name()
        )),
    }
}

fn answer_board_file(check: &Check) -> Outcome {
    let Check::BoardFile { text, expect } = check else {
        unreachable!("only board-file questions come here")
    };
    let actual = match crate::topology::file::load("case", text) {
        Ok(_) => super::case::BoardFileExpect {
            valid: true,
            error: None,
            entry: None,
        },
        Err(e) => super::case::BoardFileExpect {
            valid: false,
            error: Some(e.kind),
            entry: Some(e.entry.clone()),
        },
    };
    compare(expect, &actual, "board file verdict".into())
}

/// Answers a rules question through the variant's text interface, exactly
/// as an outside engine would be asked.
fn answer_rules(check: &Check, v: &dyn Variant) -> Result<Outcome, variant::VariantError> {
    Ok(match check {
        Check::LegalActions {
            at: place, expect, ..
        } => compare_sets(expect, &v.legal_actions(&at(place))?),
        Check::Action {
            at: place,
            action,
            expect,
            ..
        } => {
            let actual = match v.check_action(&at(place), action)? {
                Ok(_) => ActionExpect {
                    legal: true,
                    reason: None,
                },
                Err(e) => ActionExpect {
                    legal: false,
                    reason: Some(e.code),
                },
            };
            compare(expect, &actual, format!("action '{action}'"))
        }
        Check::Perft {
            at: place,
            depth,
            expect,
            divide,
            ..
        } => match divide {
            None => compare(
                expect,
                &v.perft(&at(place), *depth)?,
                format!("perft({depth})"),
            ),
            Some(want) => {
                let got: BTreeMap<String, u64> =
                    v.divide(&at(place), *depth)?.into_iter().collect();
                let total: u64 = got.values().sum();
                if total != *expect {
                    compare(expect, &total, format!("perft({depth})"))
                } else {
                    compare(want, &got, format!("perft({depth}) divide"))
                }
            }
        },
        Check::Play {
            at: place, expect, ..
        } => {
            let played = v.play(&at(place))?;
            // Compare positions through the variant's own parser so that
            // equivalent spellings agree.
            let position = expect.position.as_ref().map(|_| played.position.clone());
            let expected_position = expect.position.as_ref().map(|text| {
                v.play(&At {
                    position: Some(text),
                    moves: &[],
                })
                .map(|p| p.position)
                .unwrap_or_else(|e| format!("<unparsable: {e}>"))
            });
            let want = PlayExpect {
                position: expected_position,
                in_check: expect.in_check,
                result: expect.result,
            };
            let actual = PlayExpect {
                position,
                in_check: expect.in_check.map(|_| played.in_check),
                result: played.result,
            };
            compare(&want, &actual, "state after the moves".into())
        }
        Check::Keys { a, b, expect, .. } => {
            let ka = v.play(&at(a))?.key;
            let kb = v.play(&at(b))?.key;
            let actual = if ka == kb {
                KeyRelation::Equal
            } else {
                KeyRelation::Different
            };
            compare(expect, &actual, format!("keys: a = {ka}, b = {kb}"))
        }
        Check::Record { record, expect, .. } => {
            let actual = match v.verify_record(record) {
                RecordVerdict::Accepted { result, .. } => RecordExpect::Accepted { result },
                RecordVerdict::Rejected {
                    ply,
                    reason,
                    illegal,
                    ..
                } => RecordExpect::Rejected {
                    ply,
                    reason,
                    illegal,
                },
            };
            compare(expect, &actual, "record verdict".into())
        }
        _ => unreachable!("geometry questions are answered by answer"),
    })
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
