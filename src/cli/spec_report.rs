//! The text of `seams spec check`: the boards, the designer findings and
//! the opening audits, one writer per part, each adding its lines to the
//! report (which is printed, or written to `--out`, whole).

use std::collections::BTreeMap;

use seams::design::Colouring;
use seams::draft::{CheckReport, DesignRow};
use seams::rules::design_facts::{DropFacts, PawnFacts};

use super::out::{Align, Table};

fn histogram(h: &BTreeMap<usize, usize>) -> String {
    h.iter()
        .map(|(k, n)| format!("{k}: {n}"))
        .collect::<Vec<_>>()
        .join(", ")
}

pub fn write_geometry_rows(o: &mut String, report: &CheckReport) {
    wln!(o, "boards:");
    let mut t = Table::new(&[
        Align::Left,
        Align::Right,
        Align::Right,
        Align::Right,
        Align::Right,
        Align::Left,
        Align::Right,
    ])
    .indent(2);
    t.row([
        "board",
        "F",
        "E",
        "V",
        "χ",
        "orientable",
        "cones",
        "bishop reach (destinations: cells)",
    ]);
    for b in &report.boards {
        t.row([
            b.board.clone(),
            b.faces.to_string(),
            b.edges.to_string(),
            b.vertices.to_string(),
            b.euler.to_string(),
            if b.orientable {
                "orientable"
            } else {
                "non-orientable"
            }
            .to_string(),
            b.cone_points.to_string(),
            histogram(&b.bishop_reach),
        ]);
    }
    o.push_str(&t.render());
    write_solid_rows(o, report);
}

fn write_solid_rows(o: &mut String, report: &CheckReport) {
    for t in &report.solids {
        let sizes: Vec<String> = t.facts.rank_sizes.iter().map(|n| n.to_string()).collect();
        let bindings: Vec<String> = t
            .facts
            .bindings
            .iter()
            .map(|b| {
                let ranks = if b.odd_ranks { "odd" } else { "even" };
                format!("{} ({} cells, {ranks} ranks)", b.parity, b.cells)
            })
            .collect();
        wln!(
            o,
            "  {} {} of side {}: {} cells; rank sizes {}",
            t.board,
            t.shape,
            t.side,
            t.facts.cells,
            sizes.join(" ")
        );
        wln!(
            o,
            "    rook reach (destinations: cells) {}",
            histogram(&t.facts.rook_reach)
        );
        wln!(
            o,
            "    bishop reach (destinations: cells) {}",
            histogram(&t.facts.bishop_reach)
        );
        wln!(o, "    bishop bindings {}", bindings.join(", "));
        wln!(
            o,
            "    most open directions: gold {}, silver {}",
            t.facts.gold_open_directions,
            t.facts.silver_open_directions
        );
    }
}

/// One line per variant under `heading`, the variant names aligned.
fn per_variant(
    o: &mut String,
    report: &CheckReport,
    heading: &str,
    what: impl Fn(&DesignRow) -> String,
) {
    wln!(o, "{heading}");
    let mut t = Table::new(&[]).indent(2);
    for d in &report.design {
        t.row([d.variant.clone(), what(d)]);
    }
    o.push_str(&t.render());
}

/// Every kind of every variant: its letter, name and movement, and its
/// reach on the empty board as the destinations of every cell added up,
/// promoted too where it promotes into a movement of its own.
pub fn write_pieces(o: &mut String, report: &CheckReport) {
    wln!(
        o,
        "pieces: movement and reach on the empty board (destinations from every cell, added up):"
    );
    let mut t = Table::new(&[
        Align::Left,
        Align::Left,
        Align::Left,
        Align::Left,
        Align::Right,
        Align::Left,
        Align::Right,
    ])
    .indent(2);
    for row in &report.pieces {
        for p in &row.pieces {
            t.row([
                row.variant.clone(),
                p.letter.clone(),
                p.piece.clone(),
                p.moves.clone(),
                p.destinations.to_string(),
                p.promoted
                    .as_ref()
                    .map_or_else(String::new, |m| format!("promoted {m}")),
                p.promoted_destinations
                    .map_or_else(String::new, |n| n.to_string()),
            ]);
        }
    }
    o.push_str(&t.render());
}

pub fn write_design(o: &mut String, report: &CheckReport) {
    per_variant(o, report, "bishop colours (GEO-I2):", bishop_colours);
    per_variant(
        o,
        report,
        "pawn paths to promotion on the empty board:",
        pawn_paths,
    );
    per_variant(
        o,
        report,
        "drops where the piece can never move:",
        immobile_drops,
    );
    per_variant(
        o,
        report,
        "promotion zones and drop restrictions under Φ:",
        mirrored,
    );
    write_all_findings(o, report);
}

fn mirrored(d: &DesignRow) -> String {
    if d.mirrored.is_empty() {
        return "one side stated, the other derived by Φ".into();
    }
    let broken: Vec<&str> = d
        .mirrored
        .iter()
        .filter(|m| !m.mirrors())
        .map(|m| m.rule.as_str())
        .collect();
    if broken.is_empty() {
        format!("all {} mirror", d.mirrored.len())
    } else {
        format!(
            "{} of {} do NOT mirror: {}",
            broken.len(),
            d.mirrored.len(),
            broken.join(", ")
        )
    }
}

/// Every design finding of the draft, counted, one per line (the full
/// report's absolute table).
fn write_all_findings(o: &mut String, report: &CheckReport) {
    let findings = report.design_findings();
    wln!(o, "design findings: {}", findings.len());
    for f in &findings {
        wln!(o, "  {f}");
    }
}

/// The findings against the base's: each new one and each gone one; the
/// ones the base has too, counted.
pub fn write_findings(o: &mut String, report: &CheckReport) {
    let f = &report.findings;
    wln!(
        o,
        "findings: {} new, {} gone, {} as in the base",
        f.new.len(),
        f.gone.len(),
        f.unchanged.len()
    );
    for line in &f.new {
        wln!(o, "  new: {line}");
    }
    for line in &f.gone {
        wln!(o, "  gone: {line}");
    }
}

/// The derived facts that differ from the base's, kind by kind; a kind
/// with no difference is one line.
pub fn write_fact_changes(o: &mut String, report: &CheckReport) {
    wln!(o, "facts:");
    for d in &report.fact_changes {
        if d.lines.is_empty() {
            wln!(o, "  {}: {} unchanged", d.kind, d.unchanged);
            continue;
        }
        wln!(
            o,
            "  {}: {} changed, {} unchanged",
            d.kind,
            d.changed_rows(),
            d.unchanged
        );
        let lines: Vec<(String, String)> = d
            .lines
            .iter()
            .map(|l| (fact_list(l), l.to_string()))
            .collect();
        write_capped(o, &lines);
    }
}

/// The most lines of one list (the items one field gained, the actions
/// one fingerprint changed) the text report shows; the rest are counted,
/// and `--format json` or `--format html` list them all.
const SHOWN_PER_LIST: usize = 8;

/// The list a fact line belongs to: the items one field gained, the items
/// it lost, or the same field of the items of one list (each pawn's
/// moves); empty for a line that stands alone.
fn fact_list(l: &seams::draft::FactLine) -> String {
    use seams::draft::FactLine;
    match l {
        FactLine::Added { .. } | FactLine::Removed { .. } => String::new(),
        FactLine::Changed { key, field, .. } if field.contains('[') => {
            format!("{key}: {}", unlabelled(field))
        }
        FactLine::Changed { .. } => String::new(),
        FactLine::Gained { key, field, .. } => format!("{key}: {field}: +"),
        FactLine::Lost { key, field, .. } => format!("{key}: {field}: −"),
    }
}

/// A field path without its items' names: `pawns.pawns[…].moves`.
fn unlabelled(field: &str) -> String {
    let mut out = String::new();
    let mut inside = false;
    for ch in field.chars() {
        match ch {
            '[' => {
                inside = true;
                out.push_str("[…]");
            }
            ']' => inside = false,
            _ if !inside => out.push(ch),
            _ => {}
        }
    }
    out
}

/// (list, text) lines under a heading, at most [`SHOWN_PER_LIST`] of each
/// list in a row, the rest counted in one line.
fn write_capped(o: &mut String, lines: &[(String, String)]) {
    let mut i = 0;
    while i < lines.len() {
        let list = &lines[i].0;
        let run = if list.is_empty() {
            1
        } else {
            lines[i..].iter().take_while(|(l, _)| l == list).count()
        };
        for (_, text) in &lines[i..i + run.min(SHOWN_PER_LIST)] {
            wln!(o, "    {text}");
        }
        if run > SHOWN_PER_LIST {
            wln!(
                o,
                "    {list} … and {} more (--format json lists them all)",
                run - SHOWN_PER_LIST
            );
        }
        i += run;
    }
}

fn bishop_colours(d: &DesignRow) -> String {
    match &d.bishops.colouring {
        Colouring::NotSquare => "no square-cell colouring (see the bishop bindings above)".into(),
        Colouring::None {
            cycle_length,
            seam_steps,
        } => format!(
            "no colouring (odd cycle of {cycle_length} orthogonal steps through {})",
            seam_steps.join(", ")
        ),
        Colouring::Exists { .. }
            if d.bishops
                .players
                .iter()
                .all(|p| p.dark.is_empty() && p.light.is_empty()) =>
        {
            "colourable; no bishops".into()
        }
        Colouring::Exists { .. } => {
            let players: Vec<String> = d
                .bishops
                .players
                .iter()
                .map(|p| {
                    format!(
                        "{} {} dark [{}] {} light [{}]{}",
                        d.players[p.owner.index()],
                        p.dark.len(),
                        p.dark.join(" "),
                        p.light.len(),
                        p.light.join(" "),
                        if p.balanced { "" } else { " NOT BALANCED" }
                    )
                })
                .collect();
            players.join("; ")
        }
    }
}

fn pawn_paths(d: &DesignRow) -> String {
    let pawns = match &d.pawns {
        PawnFacts::NotApplicable { reason } => return format!("not applicable: {reason}"),
        PawnFacts::Paths { pawns } => pawns,
    };
    if pawns.is_empty() {
        return "no pawns".into();
    }
    let stuck = d.stuck_pawns();
    if stuck.is_empty() {
        let most = pawns.iter().filter_map(|p| p.moves).max();
        let fewest = pawns.iter().filter_map(|p| p.moves).min();
        return format!(
            "all {} pawns have a path ({}–{} moves)",
            pawns.len(),
            fewest.unwrap_or(0),
            most.unwrap_or(0)
        );
    }
    let cells: Vec<String> = stuck
        .iter()
        .map(|p| format!("{} {}", d.players[p.owner.index()], p.cell))
        .collect();
    format!(
        "{} of {} pawns have NO path: {}",
        stuck.len(),
        pawns.len(),
        cells.join(", ")
    )
}

fn immobile_drops(d: &DesignRow) -> String {
    match &d.drops {
        DropFacts::NoDrops => "no drops".to_string(),
        DropFacts::Checked { rule, immobile } if immobile.is_empty() => {
            format!("none (drop restriction {rule})")
        }
        DropFacts::Checked { rule, immobile } => {
            let list: Vec<String> = immobile
                .iter()
                .map(|x| format!("{}*{}", x.piece, x.cell))
                .collect();
            format!("{} allowed by {rule}: {}", immobile.len(), list.join(" "))
        }
    }
}

pub fn write_audits(o: &mut String, report: &CheckReport) {
    let Some(plies) = report.audits.first().map(|a| a.plies) else {
        return;
    };
    wln!(o, "opening audit of every setup ({plies} plies):");
    // Each variant's summary is followed by its lines, so the names are
    // padded here rather than through a Table.
    let width = report
        .audits
        .iter()
        .map(|r| r.variant.chars().count())
        .max();
    for r in &report.audits {
        let count = |x: Option<usize>| x.map_or("n/a".to_string(), |n| n.to_string());
        wln!(
            o,
            "  {:<width$}  checks {}, forced mates {}, shield lines {}, attacked pieces {}",
            r.variant,
            r.checks.len(),
            r.mates.len(),
            count(r.shields.as_ref().map(Vec::len)),
            count(r.attacked.as_ref().map(Vec::len)),
            width = width.unwrap_or(0)
        );
        write_audit_lines(o, r);
    }
}

fn write_audit_lines(o: &mut String, r: &seams::audit::Report) {
    for line in &r.checks {
        let mate = if line.mate { "  checkmate" } else { "" };
        wln!(o, "    check: {}{mate}", line.moves.join(" "));
    }
    for m in &r.mates {
        wln!(o, "    mate in {}: {}", m.mate_in, m.line.join(" "));
    }
    for l in r.shields.iter().flatten() {
        wln!(
            o,
            "    {} {}{} shield {}{} slider {}{}",
            match l.kind {
                seams::rules::audit_facts::ShieldKind::Pin => "pin",
                seams::rules::audit_facts::ShieldKind::Discovery => "discovery",
            },
            l.king.piece,
            l.king.cell,
            l.shield.piece,
            l.shield.cell,
            l.slider.piece,
            l.slider.cell
        );
    }
    for x in r.attacked.iter().flatten() {
        let by: Vec<String> =
            x.by.iter()
                .map(|b| format!("{}{}", b.piece, b.cell))
                .collect();
        wln!(
            o,
            "    attacked {}{} by {}",
            x.target.piece,
            x.target.cell,
            by.join(" ")
        );
    }
}

/// The fingerprints that differ from the built-in spec's, with the first
/// actions whose counts differ; the unchanged ones in one line.
pub fn write_fingerprints(o: &mut String, report: &CheckReport) {
    let changed = &report.fingerprint_changes;
    wln!(
        o,
        "fingerprints (perft of each start to depth {}, against {}): {} changed, {} unchanged",
        seams::draft::FINGERPRINT_DEPTH,
        report.base,
        changed.len(),
        report.unchanged_fingerprints()
    );
    for c in changed {
        wln!(o, "  {}: {}", c.variant, c.perft_line());
        let list = format!("{}: divide", c.variant);
        let lines: Vec<(String, String)> = c
            .divide_lines()
            .into_iter()
            .map(|line| (list.clone(), line))
            .collect();
        write_capped(o, &lines);
    }
}
