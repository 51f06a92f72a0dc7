//! The board commands: `boards`, `geometry` and `rays`. They read only the
//! boards of the spec in force, never a family file.

use std::fmt::Write as _;
use std::process::ExitCode;

use anyhow::{Context, Result, bail};
use serde_json::Value;

use seams::geometry::Geometry;
use seams::movement::{Facing, Pattern};
use seams::names::Known;
use seams::topology::tetra::{TDir, TetraBoard};
use seams::topology::{CellId, mesh};

use super::Rulebook;
use super::out::{Align, Table};

#[derive(clap::Args)]
pub struct BoardsArgs {
    /// Print JSON instead of text.
    #[arg(long)]
    json: bool,
}

#[derive(clap::Args)]
pub struct GeometryArgs {
    /// A board name from `seams boards`.
    board: Option<String>,
    /// Print JSON instead of text.
    #[arg(long)]
    json: bool,
}

#[derive(clap::Args)]
pub struct RaysArgs {
    /// A board name from `seams boards`.
    board: String,
    /// The departure cell, e.g. `e5` or `I:d4` on genus two.
    #[arg(long)]
    from: String,
    /// orthogonal (rook rays), diagonal (bishop rays), knight (L,S,L
    /// words) or king (one step each way).
    #[arg(long)]
    pattern: String,
    /// Report the facing each route leaves a piece with: up or down.
    #[arg(long)]
    facing: Option<String>,
    /// Cells to treat as occupied, comma-separated: rays stop on them.
    #[arg(long, value_delimiter = ',')]
    occupied: Vec<String>,
    /// Print JSON instead of text.
    #[arg(long)]
    json: bool,
}

/// `seams boards`.
pub fn boards(book: &Rulebook, a: BoardsArgs) -> Result<ExitCode> {
    let lib = book.library()?;
    let mut rows: Vec<Value> = Vec::new();
    for n in lib.board_names() {
        let g = lib.geometry(n)?;
        rows.push(board_row(
            n,
            g.board().title(),
            g.board().cell_count(),
            lib.source(n),
        ));
    }
    for n in lib.solid_names() {
        if let Some(t) = lib.solid(n) {
            rows.push(board_row(n, t.title(), t.cell_count(), lib.source(n)));
        }
    }
    if a.json {
        outln!("{}", serde_json::to_string_pretty(&rows)?);
        return Ok(ExitCode::SUCCESS);
    }
    let mut t = Table::new(&[Align::Left, Align::Right]);
    for r in &rows {
        t.row([
            str_of(&r["name"]).to_string(),
            format!("{} cells", r["cells"]),
            str_of(&r["title"]).to_string(),
        ]);
    }
    t.print()?;
    Ok(ExitCode::SUCCESS)
}

fn board_row(name: &str, title: &str, cells: usize, file: Option<&str>) -> Value {
    serde_json::json!({"name": name, "title": title, "cells": cells, "file": file})
}

fn str_of(v: &Value) -> &str {
    v.as_str().unwrap_or_default()
}

/// `seams geometry`.
pub fn geometry(book: &Rulebook, a: GeometryArgs) -> Result<ExitCode> {
    let lib = book.library()?;
    let names: Vec<String> = match a.board {
        Some(b) => vec![b],
        None => lib
            .board_names()
            .chain(lib.solid_names())
            .map(String::from)
            .collect(),
    };
    let mut reports = Vec::new();
    for n in &names {
        reports.push(match lib.solid(n) {
            Some(t) => solid_report(t),
            None => geometry_report(lib.geometry(n)?),
        });
    }
    if a.json {
        let v = if reports.len() == 1 {
            reports.remove(0)
        } else {
            Value::Array(reports)
        };
        outln!("{}", serde_json::to_string_pretty(&v)?);
        return Ok(ExitCode::SUCCESS);
    }
    for (i, r) in reports.iter().enumerate() {
        if i > 0 {
            outln!();
        }
        if r["shape"] == "tetrahedron" {
            out!("{}", solid_text(r));
        } else {
            out!("{}", geometry_text(r));
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// `seams rays`.
pub fn rays(book: &Rulebook, a: RaysArgs) -> Result<ExitCode> {
    const PATTERNS: [&str; 4] = ["orthogonal", "diagonal", "knight", "king"];
    let Some(pattern) = Pattern::parse(&a.pattern) else {
        bail!(
            "unknown pattern '{}' ({})",
            a.pattern,
            Known::new(&a.pattern, PATTERNS)
        );
    };
    let lib = book.library()?;
    if let Some(t) = lib.solid(&a.board) {
        return solid_rays(t, &a, pattern);
    }
    let geo = lib.geometry(&a.board)?;
    let b = geo.board();
    let start = b.parse_cell(&a.from)?;
    let facing = match &a.facing {
        None => None,
        Some(f) => Some(Facing::parse(f).with_context(|| {
            format!("unknown facing '{f}' ({})", Known::new(f, ["up", "down"]))
        })?),
    };
    let blocked: Vec<CellId> = a
        .occupied
        .iter()
        .map(|c| b.parse_cell(c))
        .collect::<Result<_, _>>()?;
    let landings = pattern.reach(geo, start, &|c| blocked.contains(&c));
    let rows: Vec<Value> = landings
        .iter()
        .map(|l| {
            let mut v = serde_json::json!({
                "cell": b.cell_name(l.cell),
                "transport": l.transport.name(),
            });
            if let Some(f) = facing {
                v["facing"] = serde_json::json!(f.transported(l.transport));
            }
            v
        })
        .collect();
    print_rays(&rows, a.json)
}

fn print_rays(rows: &[Value], json: bool) -> Result<ExitCode> {
    if json {
        outln!("{}", serde_json::to_string_pretty(rows)?);
        return Ok(ExitCode::SUCCESS);
    }
    let mut t = Table::new(&[Align::Left]);
    for r in rows {
        let mut cells = vec![str_of(&r["cell"]).to_string()];
        if !r["transport"].is_null() {
            cells.push(str_of(&r["transport"]).to_string());
        }
        if let Some(f) = r.get("facing").and_then(|f| f.as_str()) {
            cells.push(format!("facing {f}"));
        }
        t.row(cells);
    }
    t.print()?;
    outln!("{} destinations", rows.len());
    Ok(ExitCode::SUCCESS)
}

/// Rays on the tetrahedral board, which has no seams: every route keeps
/// its transport, so the text lists cells alone.
fn solid_rays(t: &TetraBoard, a: &RaysArgs, pattern: Pattern) -> Result<ExitCode> {
    let start = t.parse_cell(&a.from)?;
    let blocked: Vec<CellId> = a
        .occupied
        .iter()
        .map(|c| t.parse_cell(c))
        .collect::<Result<_, _>>()?;
    let occ = |c: CellId| blocked.contains(&c);
    let cells = match pattern {
        Pattern::Orthogonal => t.reach(start, TDir::orthogonals(), true, &occ),
        Pattern::Diagonal => t.reach(start, TDir::diagonals(), true, &occ),
        Pattern::King => t.reach(start, TDir::all(), false, &occ),
        Pattern::Knight => bail!("the tetrahedral board has no knight pattern"),
    };
    if a.json {
        let rows: Vec<Value> = cells
            .iter()
            .map(|&c| serde_json::json!({"cell": t.cell_name(c), "transport": "identity"}))
            .collect();
        return print_rays(&rows, true);
    }
    let rows: Vec<Value> = cells
        .iter()
        .map(|&c| serde_json::json!({"cell": t.cell_name(c)}))
        .collect();
    print_rays(&rows, false)
}

fn solid_report(t: &TetraBoard) -> Value {
    let mut v = serde_json::to_value(t.facts()).unwrap_or_default();
    v["board"] = serde_json::json!(t.name());
    v["title"] = serde_json::json!(t.title());
    v["shape"] = serde_json::json!("tetrahedron");
    v["side"] = serde_json::json!(t.side());
    v
}

/// A histogram `{"n": count}` as `n cells from count, …`, largest n first.
fn histogram(v: &Value) -> String {
    let mut rows: Vec<(u64, String)> = v
        .as_object()
        .map(|m| {
            m.iter()
                .map(|(k, n)| (k.parse().unwrap_or(0), format!("{k} cells from {n}")))
                .collect()
        })
        .unwrap_or_default();
    rows.sort_by_key(|r| std::cmp::Reverse(r.0));
    rows.into_iter().map(|r| r.1).collect::<Vec<_>>().join(", ")
}

fn joined(v: &Value, each: impl Fn(&Value) -> String) -> Vec<String> {
    v.as_array()
        .map(|a| a.iter().map(each).collect())
        .unwrap_or_default()
}

fn row(s: &mut String, key: &str, value: impl std::fmt::Display) {
    let _ = writeln!(s, "  {key:<22} {value}");
}

fn solid_text(r: &Value) -> String {
    let mut s = String::new();
    let _ = writeln!(s, "{} — {}", str_of(&r["board"]), str_of(&r["title"]));
    let ranks = joined(&r["rank_sizes"], |x| x.to_string());
    let bindings = joined(&r["bindings"], |b| {
        let parity = if b["odd_ranks"] == true {
            "odd"
        } else {
            "even"
        };
        format!("{} ({parity} ranks)", b["cells"])
    });
    row(&mut s, "cells", &r["cells"]);
    row(&mut s, "rank sizes", ranks.join(", "));
    row(&mut s, "rook reach", histogram(&r["rook_reach"]));
    row(&mut s, "bishop reach", histogram(&r["bishop_reach"]));
    row(&mut s, "bishop bindings", bindings.join(", "));
    row(&mut s, "gold directions", &r["gold_open_directions"]);
    row(&mut s, "silver directions", &r["silver_open_directions"]);
    s
}

fn geometry_report(geo: &Geometry) -> Value {
    let inv = mesh::invariants(geo.board());
    let facts = seams::movement::move_facts(geo);
    let mut v = serde_json::to_value(&inv).unwrap_or_default();
    v["board"] = serde_json::json!(geo.board().name());
    v["title"] = serde_json::json!(geo.board().title());
    v["cells"] = serde_json::json!(geo.board().cell_count());
    v["forbidden_diagonals"] = serde_json::json!(facts.forbidden_diagonals);
    v["diagonal_components"] = serde_json::json!(facts.diagonal_components);
    v["bishop_reach"] = serde_json::json!(facts.bishop_reach);
    v["file_orbits"] = serde_json::json!(facts.file_orbits);
    v
}

fn yes(b: &Value) -> &'static str {
    if b.as_bool() == Some(true) {
        "yes"
    } else {
        "no"
    }
}

/// The text of `seams geometry` for a square complex: the surface rows,
/// then the rows about moves.
fn geometry_text(r: &Value) -> String {
    let mut s = String::new();
    let _ = writeln!(s, "{} — {}", str_of(&r["board"]), str_of(&r["title"]));
    surface_rows(&mut s, r);
    move_rows(&mut s, r);
    s
}

fn surface_rows(s: &mut String, r: &Value) {
    row(s, "surface", str_of(&r["surface"]));
    row(s, "faces F", &r["faces"]);
    row(s, "edges E", &r["edges"]);
    row(s, "vertices V", &r["vertices"]);
    row(s, "Euler characteristic", &r["euler"]);
    row(s, "orientable", yes(&r["orientable"]));
    let boundary = format!(
        "{} component(s), {} edges",
        r["boundary_components"], r["boundary_edges"]
    );
    row(s, "boundary", boundary);
    let corners: Vec<String> = r["circle_corners"]
        .as_object()
        .map(|m| {
            m.iter()
                .map(|(k, v)| format!("{v} with {k} corners"))
                .collect()
        })
        .unwrap_or_default();
    let links = format!(
        "{} circles ({}), {} intervals",
        r["link_circles"],
        corners.join(", "),
        r["link_intervals"]
    );
    row(s, "vertex links", links);
    let cones = joined(&r["cones"], |c| {
        let at = joined(&c["at"], |x| str_of(x).to_string());
        format!("{} corners at {}", c["corners"], at.join(" "))
    });
    if cones.is_empty() {
        row(s, "cone points", "none");
    } else {
        row(s, "cone points", &r["cone_points"]);
    }
    for c in cones {
        let _ = writeln!(s, "  {:<22}   {c}", "");
    }
}

fn move_rows(s: &mut String, r: &Value) {
    row(s, "alternating colouring", yes(&r["alternating_colouring"]));
    let comps = joined(&r["diagonal_components"], |x| x.to_string());
    row(s, "diagonal components", comps.join(", "));
    row(s, "bishop reach", histogram(&r["bishop_reach"]));
    let forbidden = joined(&r["forbidden_diagonals"], |x| str_of(x).to_string());
    if forbidden.is_empty() {
        row(s, "forbidden diagonals", "none");
    } else {
        row(
            s,
            "forbidden diagonals",
            format!("{}: {}", forbidden.len(), forbidden.join(", ")),
        );
    }
    let mut summary: std::collections::BTreeMap<String, usize> = Default::default();
    for o in r["file_orbits"].as_array().into_iter().flatten() {
        let kind = if o["closed"].as_bool() == Some(true) {
            "cycles"
        } else {
            "paths"
        };
        *summary
            .entry(format!("{kind} of {}", o["cells"]))
            .or_default() += 1;
    }
    let files: Vec<String> = summary.iter().map(|(k, v)| format!("{v} {k}")).collect();
    row(s, "files (north orbits)", files.join(", "));
}
