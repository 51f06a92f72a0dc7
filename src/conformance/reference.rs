//! The reference engine: this crate answering protocol requests.
//!
//! [`Reference`] answers every [`Command`] from a [`Library`] (geometry)
//! and a list of [`Variant`]s (rules), exactly as an outside engine would
//! over the protocol. `seams engine` serves it on stdin/stdout
//! ([`Reference::serve`]); `seams conform` without `--engine` talks to it in
//! process through [`super::engine::Embedded`]. Questions are answered
//! here and compared in [`super::runner`], so the reference and every other
//! engine go through the same comparison code.

use std::cell::RefCell;
use std::collections::{BTreeMap, BTreeSet, VecDeque};
use std::io::{BufRead, Write};

use serde_json::Value;

use super::case::{Arrival, BoardFileExpect, Check, InvariantsExpect, OrbitExpect};
use super::protocol::{
    self, ActionsReply, ApplyReply, COMMANDS, CheckActionReply, Command, GeometryReply, Hello,
    KeyReply, PerftReply, RecordReply, Request, StatusReply, VariantInfo,
};
use crate::geometry::Geometry;
use crate::movement::{Facing, Landing, move_facts};
use crate::record::RecordVerdict;
use crate::spec::Library;
use crate::topology::tetra::{TDir, TetraBoard};
use crate::topology::{CellId, Dir, Transport, mesh};
use crate::variant::{ReadPosition, Variant, VariantError, check_move_count, check_perft_depth};

/// The capabilities of the rules check kinds, declared whenever the
/// reference serves a variant. Rule features (`drops`, `castling`, …) come
/// from each family's [`Rules::capabilities`](crate::rules::Rules::capabilities)
/// and from [`Reference::with_capabilities`].
pub const RULES_CAPABILITIES: [&str; 5] = ["legal-actions", "perft", "play", "keys", "records"];

/// This crate as an engine: geometry from a library, rules from variants.
pub struct Reference<'a> {
    lib: &'a Library,
    variants: Vec<&'a dyn Variant>,
    name: String,
    extra_capabilities: Vec<String>,
    /// The positions read last, newest first: see [`Reference::with_read`].
    recent: RefCell<VecDeque<Recent<'a>>>,
}

/// A position read, by its variant (an index into `variants`) and text.
struct Recent<'a> {
    variant: usize,
    text: Option<String>,
    read: Box<dyn ReadPosition + 'a>,
}

/// How many positions the reference keeps read. `seams fuzz` asks about
/// one position at a time (its legal actions, status, key, the action
/// applied to it) with at most a status about an earlier one between.
const RECENT: usize = 4;

impl<'a> Reference<'a> {
    pub fn new(lib: &'a Library, variants: Vec<&'a dyn Variant>) -> Reference<'a> {
        Reference {
            lib,
            variants,
            name: "seams-reference".into(),
            extra_capabilities: Vec::new(),
            recent: RefCell::new(VecDeque::with_capacity(RECENT)),
        }
    }

    /// The registry's variants over the built-in spec.
    pub fn builtin() -> Reference<'static> {
        Reference::new(
            Library::builtin(),
            crate::registry::variants()
                .iter()
                .map(|v| v.as_ref())
                .collect(),
        )
    }

    /// Renames the engine in its `hello` (mutants say which they are).
    pub fn named(mut self, name: impl Into<String>) -> Self {
        self.name = name.into();
        self
    }

    /// Declares rule features (`drops`, `castling`, …) beyond the check
    /// kinds' capabilities.
    pub fn with_capabilities(mut self, extra: &[&str]) -> Self {
        self.extra_capabilities
            .extend(extra.iter().map(|s| s.to_string()));
        self
    }

    pub fn hello(&self) -> Hello {
        // It reads requests while its replies are unread (protocol 1.1).
        let mut capabilities = vec![
            "geometry".to_string(),
            "board-files".to_string(),
            super::protocol::PIPELINING.to_string(),
        ];
        if !self.variants.is_empty() {
            capabilities.extend(RULES_CAPABILITIES.iter().map(|s| s.to_string()));
        }
        for c in self
            .variants
            .iter()
            .flat_map(|v| v.capabilities().iter().map(|c| c.to_string()))
            .chain(self.extra_capabilities.iter().cloned())
        {
            if !capabilities.contains(&c) {
                capabilities.push(c);
            }
        }
        Hello {
            protocol: protocol::PROTOCOL_VERSION,
            name: self.name.clone(),
            version: env!("CARGO_PKG_VERSION").to_string(),
            variants: self
                .variants
                .iter()
                .map(|v| VariantInfo {
                    name: v.name().to_string(),
                    rules: v.rules_version().to_string(),
                })
                .collect(),
            capabilities,
            commands: COMMANDS.iter().map(|s| s.to_string()).collect(),
            boards: Some(
                self.lib
                    .board_names()
                    .chain(self.lib.solid_names())
                    .map(String::from)
                    .collect(),
            ),
        }
    }

    fn variant(&self, name: &str) -> Option<usize> {
        self.variants.iter().position(|v| v.name() == name)
    }

    /// `answer` about the position `text` of variant `k`, read once for
    /// several questions: reading a position text and listing its legal
    /// actions was about a quarter of this engine's work under `seams
    /// fuzz`, which asks four questions about each position.
    fn with_read<T>(
        &self,
        k: usize,
        text: Option<&str>,
        answer: impl FnOnce(&dyn ReadPosition) -> Result<T, VariantError>,
    ) -> Result<T, VariantError> {
        let mut recent = self.recent.borrow_mut();
        match recent
            .iter()
            .position(|r| r.variant == k && r.text.as_deref() == text)
        {
            Some(i) => {
                let hit = recent.remove(i).expect("found");
                recent.push_front(hit);
            }
            None => {
                let read = self.variants[k].read(text)?;
                recent.truncate(RECENT - 1);
                recent.push_front(Recent {
                    variant: k,
                    text: text.map(String::from),
                    read,
                });
            }
        }
        answer(&*recent[0].read)
    }

    /// Answers one request with one reply line.
    pub fn handle(&self, req: &Request) -> Value {
        let id = req.id;
        let reply = |r: Result<Value, VariantError>| match r {
            Ok(v) => v,
            Err(e) => protocol::error_line(Some(id), e.to_string()),
        };
        match &req.command {
            Command::Hello { protocol: p } => {
                // Any 1.x runner is served: minor versions only add
                // optional fields, which this engine answers as 1.0.
                if !p.is_compatible() {
                    return protocol::error_line(
                        Some(id),
                        format!(
                            "protocol {p} is not spoken here (this engine speaks {})",
                            protocol::PROTOCOL_VERSION
                        ),
                    );
                }
                protocol::ok_line(id, &self.hello())
            }
            Command::Geometry { board, question } => {
                // An empty board name marks a question about an inline
                // board file; otherwise the board must be a shipped one.
                let known = board.is_empty()
                    || self.lib.geometry(board).is_ok()
                    || self.lib.solid(board).is_some();
                if !known {
                    return protocol::unsupported_line(id);
                }
                match geometry_answer(self.lib, question) {
                    Ok(answer) => protocol::ok_line(id, &GeometryReply { answer }),
                    Err(e) => protocol::error_line(Some(id), e),
                }
            }
            Command::VerifyRecord { record } => match self.variant(&record.variant) {
                None => protocol::unsupported_line(id),
                Some(k) => {
                    let v = self.variants[k];
                    let r = match v.verify_record(record) {
                        RecordVerdict::Accepted { result, plies } => RecordReply::Accepted {
                            result,
                            plies: Some(plies),
                        },
                        RecordVerdict::Rejected {
                            ply,
                            reason,
                            illegal,
                            message,
                        } => RecordReply::Rejected {
                            ply,
                            reason,
                            illegal,
                            message: Some(message),
                        },
                    };
                    protocol::ok_line(id, &r)
                }
            },
            Command::LegalActions { variant, at: p }
            | Command::CheckAction { variant, at: p, .. }
            | Command::Perft { variant, at: p, .. }
            | Command::Apply { variant, at: p }
            | Command::Status { variant, at: p }
            | Command::Key { variant, at: p } => {
                let Some(k) = self.variant(variant) else {
                    return protocol::unsupported_line(id);
                };
                // The bounds are checked before the position is read, in
                // the order the plain questions check them.
                let checked = match &req.command {
                    Command::Perft { depth, .. } => check_perft_depth(*depth),
                    _ => Ok(()),
                }
                .and_then(|()| check_move_count(&p.moves));
                reply(checked.and_then(|()| {
                    self.with_read(k, p.position.as_deref(), |read| {
                        rules_answer(read, &req.command, &p.moves, id)
                    })
                }))
            }
        }
    }

    /// Answers one request line; unreadable lines get an `error` reply.
    pub fn handle_line(&self, line: &str) -> Value {
        match serde_json::from_str::<Request>(line) {
            Ok(req) => self.handle(&req),
            Err(e) => {
                let raw: Option<Value> = serde_json::from_str(line).ok();
                let id = raw
                    .as_ref()
                    .and_then(|v| v.get("id"))
                    .and_then(Value::as_u64);
                let cmd = raw
                    .as_ref()
                    .and_then(|v| v.get("cmd"))
                    .and_then(Value::as_str)
                    .map(String::from);
                match (id, cmd) {
                    (Some(id), Some(c)) if !COMMANDS.contains(&c.as_str()) => {
                        protocol::unsupported_line(id)
                    }
                    _ => protocol::error_line(
                        id,
                        format!(
                            "unreadable request: {}",
                            crate::quote::bounded(&e.to_string())
                        ),
                    ),
                }
            }
        }
    }

    /// Serves requests line by line until the input ends.
    pub fn serve(&self, input: impl BufRead, mut output: impl Write) -> std::io::Result<()> {
        for line in input.lines() {
            let line = line?;
            if line.trim().is_empty() {
                continue;
            }
            let reply = self.handle_line(&line);
            writeln!(output, "{reply}")?;
            output.flush()?;
        }
        Ok(())
    }
}

/// The reply to a rules command about `moves` played from a position read.
fn rules_answer(
    v: &dyn ReadPosition,
    command: &Command,
    at: &[String],
    id: u64,
) -> Result<Value, VariantError> {
    Ok(match command {
        Command::LegalActions { .. } => protocol::ok_line(
            id,
            &ActionsReply {
                actions: v.legal_actions(at)?,
            },
        ),
        Command::CheckAction { action, .. } => {
            let r = match v.check_action(at, action)? {
                Ok(canonical) => CheckActionReply {
                    legal: true,
                    reason: None,
                    canonical: Some(canonical),
                },
                Err(e) => CheckActionReply {
                    legal: false,
                    reason: Some(e.code),
                    canonical: None,
                },
            };
            protocol::ok_line(id, &r)
        }
        Command::Perft { depth, divide, .. } => {
            let r = if *divide && *depth > 0 {
                let rows: BTreeMap<String, u64> = v.divide(at, *depth)?.into_iter().collect();
                PerftReply {
                    nodes: rows.values().sum(),
                    divide: Some(rows),
                }
            } else {
                PerftReply {
                    nodes: v.perft(at, *depth)?,
                    divide: divide.then(BTreeMap::new),
                }
            };
            protocol::ok_line(id, &r)
        }
        Command::Apply { .. } => protocol::ok_line(
            id,
            &ApplyReply {
                position: v.reached(at)?.0,
            },
        ),
        Command::Status { .. } => {
            let p = v.play(at)?;
            protocol::ok_line(
                id,
                &StatusReply {
                    position: p.position,
                    to_move: p.to_move,
                    in_check: p.in_check,
                    result: p.result,
                },
            )
        }
        Command::Key { .. } => protocol::ok_line(
            id,
            &KeyReply {
                key: v.reached(at)?.1,
            },
        ),
        Command::Hello { .. } | Command::Geometry { .. } | Command::VerifyRecord { .. } => {
            protocol::error_line(Some(id), "not a rules command")
        }
    })
}

/// The placeholder `expect` that turns a question back into a [`Check`].
fn placeholder_expect(kind: &str) -> Option<Value> {
    Some(match kind {
        "invariants" | "bishop-reach" => Value::Object(Default::default()),
        "walk" => Value::Null,
        "reach" | "forbidden-diagonals" | "diagonal-components" | "file-orbits" => {
            Value::Array(vec![])
        }
        "solid-facts" => Value::Object(Default::default()),
        "board-file" => serde_json::json!({"valid": true}),
        _ => return None,
    })
}

/// A geometry question (a check without `expect`) as a [`Check`].
pub fn question_to_check(question: &Value) -> Result<Check, String> {
    let mut q = question.clone();
    let kind = q
        .get("kind")
        .and_then(Value::as_str)
        .ok_or("the question has no 'kind'")?
        .to_string();
    let expect = placeholder_expect(&kind).ok_or_else(|| {
        format!(
            "'{}' is not a geometry question",
            crate::quote::excerpt(&kind)
        )
    })?;
    match &mut q {
        Value::Object(map) => {
            map.insert("expect".into(), expect);
        }
        _ => return Err("the question is not an object".into()),
    }
    serde_json::from_value(q).map_err(|e| {
        format!(
            "unreadable question: {}",
            crate::quote::bounded(&e.to_string())
        )
    })
}

fn cell(geo: &Geometry, text: &str) -> Result<CellId, String> {
    geo.board().parse_cell(text).map_err(|e| e.to_string())
}

fn arrival(geo: &Geometry, l: Landing, facing: Option<Facing>) -> Arrival {
    Arrival {
        cell: geo.board().cell_name(l.cell).to_string(),
        transport: l.transport.name().to_string(),
        facing: facing.map(|f| f.transported(l.transport)),
    }
}

fn json<T: serde::Serialize>(v: &T) -> Result<Value, String> {
    serde_json::to_value(v).map_err(|e| e.to_string())
}

/// Answers a geometry question with the full answer, shaped like `expect`.
pub fn geometry_answer(lib: &Library, question: &Value) -> Result<Value, String> {
    let check = question_to_check(question)?;
    if let Check::BoardFile { text, .. } = &check {
        return json(&board_file_answer(text));
    }
    if let Some(solid) = lib.solid(check.subject_name()) {
        return solid_answer(&check, solid);
    }
    let geo = lib
        .geometry(check.subject_name())
        .map_err(|e| e.to_string())?;
    let board = geo.board();
    match &check {
        Check::Invariants { .. } => {
            let inv = mesh::invariants(board);
            json(&InvariantsExpect {
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
            })
        }
        Check::Walk {
            from,
            steps,
            facing,
            ..
        } => {
            let start = cell(geo, from)?;
            let dirs = steps
                .iter()
                .map(|s| Dir::parse(s).ok_or_else(|| format!("'{s}' is not a direction")))
                .collect::<Result<Vec<_>, _>>()?;
            let mut here = Landing {
                cell: start,
                transport: Transport::IDENTITY,
            };
            for d in dirs {
                match geo.step(here.cell, here.transport.apply(d)) {
                    Some(s) => {
                        here = Landing {
                            cell: s.to,
                            transport: here.transport.then(s.transport),
                        }
                    }
                    None => return Ok(Value::Null),
                }
            }
            json(&arrival(geo, here, *facing))
        }
        Check::Reach {
            from,
            pattern,
            facing,
            occupied,
            ..
        } => {
            let start = cell(geo, from)?;
            let blocked: BTreeSet<CellId> = occupied
                .iter()
                .map(|c| cell(geo, c))
                .collect::<Result<_, _>>()?;
            let out: Vec<Arrival> = pattern
                .reach(geo, start, &|c| blocked.contains(&c))
                .into_iter()
                .map(|l| arrival(geo, l, *facing))
                .collect();
            json(&out)
        }
        Check::ForbiddenDiagonals { .. } => json(&move_facts(geo).forbidden_diagonals),
        Check::BishopReach { .. } => {
            let out: BTreeMap<String, usize> = move_facts(geo)
                .bishop_reach
                .into_iter()
                .map(|(k, v)| (k.to_string(), v))
                .collect();
            json(&out)
        }
        Check::DiagonalComponents { .. } => json(&geo.diagonal_components()),
        Check::FileOrbits { .. } => {
            let out: Vec<OrbitExpect> = move_facts(geo)
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
            json(&out)
        }
        _ => Err(format!("'{}' is not a geometry question", check.kind())),
    }
}

/// Whether a board file loads, and if not, what kind of error at which entry.
fn board_file_answer(text: &str) -> BoardFileExpect {
    match crate::topology::file::load_any("case", text) {
        Ok(_) => BoardFileExpect {
            valid: true,
            error: None,
            entry: None,
        },
        Err(e) => BoardFileExpect {
            valid: false,
            error: Some(e.kind),
            entry: Some(e.entry),
        },
    }
}

/// Answers a geometry question about a tetrahedral board.
fn solid_answer(check: &Check, solid: &TetraBoard) -> Result<Value, String> {
    use crate::movement::Pattern;
    match check {
        Check::SolidFacts { .. } => json(&solid.facts()),
        Check::Reach {
            from,
            pattern,
            facing,
            occupied,
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
                Pattern::Knight => return Err("the tetrahedral board has no knight pattern".into()),
            };
            let arrivals: Vec<Arrival> = cells
                .into_iter()
                // No step of the solid turns a piece, so every arrival has
                // the identity transport and keeps the facing asked about:
                // the answer has a facing exactly when the question does,
                // as on every other board.
                .map(|c| Arrival {
                    cell: solid.cell_name(c).to_string(),
                    transport: Transport::IDENTITY.name().to_string(),
                    facing: *facing,
                })
                .collect();
            json(&arrivals)
        }
        other => Err(format!(
            "a '{}' question does not apply to the tetrahedral board {}",
            other.kind(),
            solid.name()
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Positions kept read give the answers a reference reading every
    /// text afresh gives, whichever variant asks about which text.
    #[test]
    fn positions_kept_read_answer_as_read_afresh() {
        let kept = Reference::builtin();
        let moves = ["e2-e4".to_string()];
        let (after_e4, _) = crate::registry::find("chess-flat")
            .unwrap()
            .reached(&crate::variant::At {
                position: None,
                moves: &moves,
            })
            .unwrap();
        let mut lines = Vec::new();
        for (n, variant) in ["chess-flat", "shogi-flat", "chess-flat", "kyoto"]
            .iter()
            .enumerate()
        {
            for cmd in ["legal_actions", "status", "key", "apply"] {
                let moves = if cmd == "apply" { r#"["e2-e4"]"# } else { "[]" };
                lines.push(format!(
                    r#"{{"id":{n},"cmd":"{cmd}","variant":"{variant}","moves":{moves}}}"#
                ));
                lines.push(format!(
                    r#"{{"id":{n},"cmd":"{cmd}","variant":"{variant}","position":"{after_e4}","moves":[]}}"#
                ));
            }
            lines.push(format!(
                r#"{{"id":{n},"cmd":"perft","variant":"{variant}","depth":2,"divide":true}}"#
            ));
        }
        for line in &lines {
            let afresh = Reference::builtin().handle_line(line);
            assert_eq!(kept.handle_line(line), afresh, "{line}");
        }
        // The questions were answered, not refused as unreadable.
        let first = kept.handle_line(&lines[1]);
        assert!(first["actions"].as_array().is_some_and(|a| a.len() == 20));
    }
}
