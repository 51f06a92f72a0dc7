//! The board data file (`spec/boards/*.toml`) and its validation.
//!
//! A file names the charts and their size, says how each pair of outer sides
//! is glued, and lists explicit `north` and `east` transitions that replace
//! ordinary adjacency. The south and west transitions are their inverses and
//! are never written. Validation guarantees that the resulting gluing is an
//! involution: every glued edge has exactly one partner, and that partner's
//! step leads back with the inverse transport. Every rejection names the file
//! and the entry (`north[2].from`, `sides`, …) so a designer can find it.

use std::collections::HashMap;

use serde::{Deserialize, Serialize};

use super::{Board, CellId, Dir, Gluing, Square, Step, Transport};

/// The largest board the coordinate scheme and the `u16` cell index allow.
const MAX_FILES: u8 = 26;
const MAX_RANKS: u8 = 99;
/// The most cells a board may have: the shipped boards have at most 165,
/// and derived facts (bishop reach from every cell) grow with the square
/// of the size, so the bound keeps `seams geometry` to about a second.
const MAX_CELLS: usize = 10_000;

/// The serde form of a board file.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BoardFile {
    /// Identifier, such as `klein-9x18`; lowercase letters, digits and `-`.
    pub name: String,
    /// One-line human description.
    #[serde(default)]
    pub title: String,
    /// Files per chart (columns), 1–26.
    pub width: u8,
    /// Ranks per chart (rows), 1–99.
    pub height: u8,
    /// Names of the charts when there are two or more (e.g. `["I", "II"]`).
    /// Absent means one chart, whose coordinates carry no prefix.
    #[serde(default)]
    pub charts: Option<Vec<String>>,
    /// How each chart's opposite outer sides are glued to each other.
    pub sides: Sides,
    /// Explicit northward transitions; the southward ones are their inverses.
    #[serde(default)]
    pub north: Vec<Transition>,
    /// Explicit eastward transitions; the westward ones are their inverses.
    #[serde(default)]
    pub east: Vec<Transition>,
}

#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct Sides {
    /// The east side of each chart glued to its own west side.
    pub east_west: Gluing,
    /// The north side of each chart glued to its own south side.
    pub north_south: Gluing,
}

/// One line of a transition table: `from = "I:a4-d4"`, `to = "II:a4-d4"`
/// makes one transition per matching cell.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Transition {
    pub from: String,
    pub to: String,
    /// The derivative of the crossing; `identity` when absent.
    #[serde(default)]
    pub transport: Option<String>,
}

/// What kind of inconsistency a board file has; tests match on this.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum BoardErrorKind {
    /// Not valid TOML, a missing field, an unknown key or a wrong value type.
    Syntax,
    /// A bad name, size or chart list.
    Shape,
    /// A coordinate that does not parse or lies off the board.
    Coordinate,
    /// A range whose ends disagree, or whose `from` and `to` differ in length.
    Range,
    /// A transport name that is not one of the four.
    Transport,
    /// Two transitions leave through the same edge.
    GluedTwice,
    /// A transition arrives through an edge that another transition already uses.
    InverseCollision,
    /// A transition glues an edge to itself.
    SelfGlued,
    /// Re-gluing left an edge whose old partner is taken, with no new partner.
    Orphaned,
}

/// A rejected board file: which file, which entry, what is wrong.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
// The message may quote the file's text: shown bounded (see crate::quote).
#[error("{file}: {}: {}", crate::quote::excerpt(.entry), crate::quote::bounded(.message))]
pub struct BoardError {
    pub file: String,
    pub entry: String,
    pub message: String,
    pub kind: BoardErrorKind,
}

/// A loaded board of either shape.
#[derive(Clone, Debug)]
pub enum AnyBoard {
    /// Rectangular charts glued along their sides.
    Charts(Board),
    /// A tetrahedron of lattice cells.
    Tetrahedron(super::tetra::TetraBoard),
}

/// Parses a board file of any shape: a `shape = "tetrahedron"` key selects
/// the tetrahedral form; without it the file describes glued charts.
pub fn load_any(file: &str, text: &str) -> Result<AnyBoard, BoardError> {
    let syntax = |e: toml::de::Error| BoardError {
        file: file.to_string(),
        entry: e
            .span()
            .map(|s| format!("bytes {}..{}", s.start, s.end))
            .unwrap_or_else(|| "document".into()),
        message: e.message().trim().to_string(),
        kind: BoardErrorKind::Syntax,
    };
    let table: toml::Table = toml::from_str(text).map_err(syntax)?;
    match table.get("shape").map(|v| v.as_str()) {
        None => load(file, text).map(AnyBoard::Charts),
        Some(Some("tetrahedron")) => {
            let spec: super::tetra::TetraFile = toml::from_str(text).map_err(syntax)?;
            super::tetra::TetraBoard::new(&spec.name, &spec.title, spec.side)
                .map(AnyBoard::Tetrahedron)
                .map_err(|message| BoardError {
                    file: file.to_string(),
                    entry: "side".into(),
                    message,
                    kind: BoardErrorKind::Shape,
                })
        }
        Some(other) => Err(BoardError {
            file: file.to_string(),
            entry: "shape".into(),
            message: format!(
                "unknown shape {}: use \"tetrahedron\", or leave 'shape' out for glued charts",
                other
                    .map(|s| format!("'{s}'"))
                    .unwrap_or_else(|| "(not a string)".into())
            ),
            kind: BoardErrorKind::Shape,
        }),
    }
}

/// Parses and validates one board file. `file` labels errors.
pub fn load(file: &str, text: &str) -> Result<Board, BoardError> {
    let spec: BoardFile = toml::from_str(text).map_err(|e| BoardError {
        file: file.to_string(),
        entry: e
            .span()
            .map(|s| format!("bytes {}..{}", s.start, s.end))
            .unwrap_or_else(|| "document".into()),
        message: e.message().trim().to_string(),
        kind: BoardErrorKind::Syntax,
    })?;
    build_labelled(file, &spec)
}

/// Validates an already-parsed board file.
pub fn build(spec: &BoardFile) -> Result<Board, BoardError> {
    build_labelled(&format!("board {}", spec.name), spec)
}

fn build_labelled(file: &str, spec: &BoardFile) -> Result<Board, BoardError> {
    let fail = |entry: &str, kind: BoardErrorKind, message: String| BoardError {
        file: file.to_string(),
        entry: entry.to_string(),
        message,
        kind,
    };
    let shape = BoardErrorKind::Shape;
    let name_ok = !spec.name.is_empty()
        && spec
            .name
            .bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-');
    if !name_ok {
        return Err(fail(
            "name",
            shape,
            format!(
                "'{}' is not a board name: use lowercase letters, digits and '-'",
                spec.name
            ),
        ));
    }
    if !(1..=MAX_FILES).contains(&spec.width) {
        return Err(fail(
            "width",
            shape,
            format!("{} files: a chart has 1 to {MAX_FILES}", spec.width),
        ));
    }
    if !(1..=MAX_RANKS).contains(&spec.height) {
        return Err(fail(
            "height",
            shape,
            format!("{} ranks: a chart has 1 to {MAX_RANKS}", spec.height),
        ));
    }
    // The size is checked before anything else is done with the charts, so
    // a huge list of names is refused at once; every later check is linear.
    let chart_count = spec.charts.as_ref().map_or(1, Vec::len);
    let cells = chart_count.saturating_mul(spec.width as usize * spec.height as usize);
    if cells > MAX_CELLS {
        return Err(fail(
            "charts",
            shape,
            format!("{cells} cells: a board has at most {MAX_CELLS}"),
        ));
    }
    let charts = match &spec.charts {
        None => vec![String::new()],
        Some(names) => {
            if names.len() < 2 {
                return Err(fail(
                    "charts",
                    shape,
                    "list two or more chart names, or leave 'charts' out for a single chart".into(),
                ));
            }
            let mut seen = std::collections::HashSet::new();
            for (i, n) in names.iter().enumerate() {
                if n.is_empty() || !n.chars().all(|c| c.is_ascii_alphanumeric()) {
                    return Err(fail(
                        &format!("charts[{i}]"),
                        shape,
                        format!("'{}' is not a chart name: use letters and digits", quote(n)),
                    ));
                }
                if !seen.insert(n.as_str()) {
                    return Err(fail(
                        &format!("charts[{i}]"),
                        shape,
                        format!("chart name '{}' is used twice", quote(n)),
                    ));
                }
            }
            names.clone()
        }
    };
    // Each transition glues at least one of the 4 sides of some cell, and
    // each side once: more entries than that cannot all be right.
    let entries = spec.north.len() + spec.east.len();
    if entries > 4 * cells {
        return Err(fail(
            "north",
            BoardErrorKind::Range,
            format!(
                "{entries} transitions for {cells} cells: each glues a cell side, and a board \
                 has only {} sides",
                4 * cells
            ),
        ));
    }

    let mut board = Board {
        name: spec.name.clone(),
        title: spec.title.clone(),
        width: spec.width,
        height: spec.height,
        charts,
        east_west: spec.sides.east_west,
        north_south: spec.sides.north_south,
        cardinal: vec![[None; 4]; cells],
        names: Vec::new(),
    };
    board.names = board.cells().map(|c| board.format_cell(c)).collect();
    for c in board.cells() {
        let sq = board.square(c);
        for d in Dir::CARDINALS {
            board.cardinal[c.index()][d.cardinal_index()] = board.outer_step(sq, d);
        }
    }
    // The side gluing alone is always an involution; check it anyway so a
    // mistake in `outer_step` can never produce a silently broken surface.
    debug_assert!(find_orphan(&board).is_none());

    // Edge ownership by transitions: (cell, side) -> (entry, role).
    let mut owner: HashMap<(CellId, Dir), (String, &'static str)> = HashMap::new();
    for (list, dir) in [(&spec.north, Dir::N), (&spec.east, Dir::E)] {
        let list_name = if dir == Dir::N { "north" } else { "east" };
        for (i, t) in list.iter().enumerate() {
            let entry = format!("{list_name}[{i}]");
            let from = parse_range(&board, &t.from)
                .map_err(|(k, m)| fail(&format!("{entry}.from"), k, m))?;
            let to =
                parse_range(&board, &t.to).map_err(|(k, m)| fail(&format!("{entry}.to"), k, m))?;
            if from.len() != to.len() {
                return Err(fail(
                    &entry,
                    BoardErrorKind::Range,
                    format!(
                        "'{}' names {} cells but '{}' names {}",
                        t.from,
                        from.len(),
                        t.to,
                        to.len()
                    ),
                ));
            }
            let transport = match &t.transport {
                None => Transport::IDENTITY,
                Some(name) => Transport::parse(name).ok_or_else(|| {
                    fail(
                        &format!("{entry}.transport"),
                        BoardErrorKind::Transport,
                        format!(
                            "'{name}' is not a transport (identity, flip-v, flip-h, half-turn)"
                        ),
                    )
                })?,
            };
            for (&x, &y) in from.iter().zip(&to) {
                // Moving `dir` out of x, one moves `transport(dir)` inside y,
                // so one enters y through the side opposite that direction.
                let arrival_side = transport.apply(dir).opposite();
                if x == y && arrival_side == dir {
                    return Err(fail(
                        &entry,
                        BoardErrorKind::SelfGlued,
                        format!(
                            "glues the {} edge of {} to itself",
                            side_name(dir),
                            board.cell_name(x)
                        ),
                    ));
                }
                let describe = |c: CellId, side: Dir| {
                    format!("the {} edge of {}", side_name(side), board.cell_name(c))
                };
                if let Some((other, role)) = owner.get(&(x, dir)) {
                    let kind = if *role == "leaves" {
                        BoardErrorKind::GluedTwice
                    } else {
                        BoardErrorKind::InverseCollision
                    };
                    return Err(fail(
                        &entry,
                        kind,
                        format!(
                            "{} is glued twice: {other} already {role} through it",
                            describe(x, dir)
                        ),
                    ));
                }
                owner.insert((x, dir), (entry.clone(), "leaves"));
                if let Some((other, role)) = owner.get(&(y, arrival_side)) {
                    return Err(fail(
                        &entry,
                        BoardErrorKind::InverseCollision,
                        format!(
                            "its inverse leaves through {}, but {other} already {role} through it",
                            describe(y, arrival_side)
                        ),
                    ));
                }
                owner.insert((y, arrival_side), (entry.clone(), "arrives"));
                board.cardinal[x.index()][dir.cardinal_index()] = Some(Step { to: y, transport });
                board.cardinal[y.index()][arrival_side.cardinal_index()] = Some(Step {
                    to: x,
                    transport: transport.inverse(),
                });
            }
        }
    }

    if let Some((c, d, partner, partner_side)) = find_orphan(&board) {
        let culprit = owner
            .get(&(partner, partner_side))
            .map(|(e, _)| e.clone())
            .unwrap_or_else(|| "a transition".into());
        return Err(fail(
            &culprit,
            BoardErrorKind::Orphaned,
            format!(
                "re-gluing the {} edge of {} leaves the {} edge of {} without a partner; \
                 add a transition for it",
                side_name(partner_side),
                board.cell_name(partner),
                side_name(d),
                board.cell_name(c)
            ),
        ));
    }
    Ok(board)
}

/// At most the first 200 characters of a user's text, for error messages.
fn quote(text: &str) -> String {
    crate::quote::excerpt(text).into_owned()
}

/// An edge whose step does not come back: `(cell, side, partner, partner_side)`.
fn find_orphan(board: &Board) -> Option<(CellId, Dir, CellId, Dir)> {
    for c in board.cells() {
        for d in Dir::CARDINALS {
            if let Some(s) = board.step(c, d) {
                let back_side = s.transport.apply(d).opposite();
                let back = board.step(s.to, back_side);
                let ok = back.is_some_and(|b| b.to == c && b.transport == s.transport.inverse());
                if !ok {
                    return Some((c, d, s.to, back_side));
                }
            }
        }
    }
    None
}

fn side_name(d: Dir) -> &'static str {
    match d {
        Dir::N => "north",
        Dir::E => "east",
        Dir::S => "south",
        Dir::W => "west",
        _ => unreachable!("edges are cardinal"),
    }
}

/// Parses `I:a4`, `I:a4-d4` or `I:a4–I:d4` (en dash accepted) into cells in order.
fn parse_range(board: &Board, text: &str) -> Result<Vec<CellId>, (BoardErrorKind, String)> {
    let coord = |t: &str| {
        board
            .parse_cell(t.trim())
            .map_err(|e| (BoardErrorKind::Coordinate, e.to_string()))
    };
    let Some((a, b)) = text.split_once(['-', '–']) else {
        return Ok(vec![coord(text)?]);
    };
    let start = coord(a)?;
    let s = board.square(start);
    let end_text = if b.contains(':') || board.chart_count() == 1 {
        b.trim().to_string()
    } else {
        format!("{}:{}", board.chart_names()[s.chart as usize], b.trim())
    };
    let end = coord(&end_text)?;
    let e = board.square(end);
    if s.chart != e.chart {
        return Err((
            BoardErrorKind::Range,
            format!("range '{text}' changes chart"),
        ));
    }
    let cells: Vec<Square> = if s.y == e.y {
        step_between(s.x, e.x).map(|x| Square { x, ..s }).collect()
    } else if s.x == e.x {
        step_between(s.y, e.y).map(|y| Square { y, ..s }).collect()
    } else {
        return Err((
            BoardErrorKind::Range,
            format!("range '{text}' runs along neither a rank nor a file"),
        ));
    };
    Ok(cells.into_iter().map(|sq| board.cell(sq)).collect())
}

fn step_between(a: u8, b: u8) -> Box<dyn Iterator<Item = u8>> {
    if a <= b {
        Box::new(a..=b)
    } else {
        Box::new((b..=a).rev())
    }
}
