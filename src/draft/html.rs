//! The HTML page of `seams spec check --format html`: the text report's
//! facts in the text report's order, with pictures of what a rules draft
//! changes, so that a designer sees an edit instead of reading cell names.
//!
//! - each changed board, before and after: the start of a variant played
//!   on it in the base, and in the draft;
//! - each opening-audit line the draft has and the base has not: a check
//!   or a mate with its last move marked, a shield line or an attacked
//!   piece with its pieces framed;
//! - each variant whose fingerprint changed, its start before and after
//!   with the first actions whose counts differ marked;
//! - each changed corpus case's position, with the corpus's answer and the
//!   draft's marked on it as `seams conform --format html` marks an
//!   engine's (the "engine" here is the reference engine built on the
//!   draft).
//!
//! The pictures and the page's style are those of the conformance report
//! ([`crate::conformance::html`]); everything is inline, so the page opens
//! anywhere, without scripts.

mod audit;
mod cases;

use std::fmt::Write;

use crate::audit::{CheckLine, ForcedMate, Report as AuditReport};
use crate::conformance::Corpus;
use crate::conformance::case::{Case, Check, Place, Subject};
use crate::conformance::html::{Figure, STYLE, failure_marks, panel, write_figure};
use crate::render::{MarkKind, Marks, escape as esc};
use crate::rules::audit_facts::{Attacked, Placed, Shield, ShieldKind};
use crate::topology::file::AnyBoard;
use crate::variant::{At, Variant};

use super::report::{AUDIT_FACTS, BOARD_FACTS};
use super::{
    Change, CheckReport, Checked, DraftError, FactDiff, FactLine, FingerprintChange, audit_rows,
};
use audit::{NewLines, audit_pictures, new_audit_lines};
use cases::{cases, fingerprints};

/// What the page adds to the conformance report's style: before and
/// after side by side.
const PAGE_STYLE: &str = "\
.pair{display:flex;flex-wrap:wrap;gap:.5em;align-items:flex-start}\
.side-label{font-weight:bold;margin:.6em 0 0 0}\
.case h4{margin:0 0 .4em 0;font-size:1em;font-family:monospace}\
ul.lines{font-family:monospace;font-size:.9em}\
.fallback{color:#8a4b00}";

/// The variants of both sides and the base's name, which every picture
/// needs.
struct Sides<'a> {
    draft: Vec<&'a dyn Variant>,
    base: Vec<&'a dyn Variant>,
    /// The base as the report names it ("the built-in spec", a folder).
    base_name: &'a str,
}

impl Sides<'_> {
    fn find<'v>(list: &[&'v dyn Variant], name: &str) -> Option<&'v dyn Variant> {
        list.iter().find(|v| v.name() == name).copied()
    }
}

/// The page for a checked draft. The corpus is the one the draft was
/// checked against: each changed case is found in it by id, for its
/// position. Fails only when the base's opening audits, recomputed to
/// compare their lines, cannot run.
pub fn html(checked: &Checked, corpus: &Corpus) -> Result<String, DraftError> {
    let report = &checked.report;
    let sides = Sides {
        draft: checked.draft.variant_refs(),
        base: checked.base_variants(),
        base_name: &report.base,
    };
    let new_lines = new_audit_lines(report, &sides)?;
    let mut s = String::new();
    head(&mut s, report);
    facts(&mut s, report, &sides, &new_lines);
    fingerprints(&mut s, report, &sides);
    cases(&mut s, report, corpus, &sides);
    findings(&mut s, report);
    s.push_str("</body>\n</html>\n");
    Ok(s)
}

fn head(s: &mut String, report: &CheckReport) {
    let _ = write!(
        s,
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
         <title>seams spec check: {}</title>\n<style>{STYLE}{PAGE_STYLE}</style>\n</head>\n<body>\n",
        esc(&report.spec)
    );
    let _ = writeln!(s, "<h1>seams spec check: {}</h1>", esc(&report.spec));
    // Green as the exit status is 0: no corpus case changes.
    let class = if report.corpus.changes.is_empty() {
        "ok"
    } else {
        "bad"
    };
    let _ = writeln!(
        s,
        "<p class=\"headline {class}\" id=\"summary\">{}</p>",
        esc(&report.summary().to_string())
    );
    let _ = writeln!(
        s,
        "<p class=\"meta\">spec: <code>{}</code> · base: {}. \"Before\" is the base, \
         \"after\" the draft.</p>",
        esc(&report.spec),
        esc(&report.base)
    );
}

/// The changed facts, kind by kind, each kind's lines as the text gives
/// them, then its pictures: changed boards, new audit lines.
fn facts(s: &mut String, report: &CheckReport, sides: &Sides, new_lines: &[NewLines]) {
    let _ = writeln!(
        s,
        "<section id=\"facts\">\n<h2>Changed facts (against {})</h2>",
        esc(&report.base)
    );
    for d in &report.fact_changes {
        fact_kind(s, d);
        if BOARD_FACTS.contains(&d.kind.as_str()) {
            board_pictures(s, d, sides);
        }
        if d.kind == AUDIT_FACTS {
            audit_pictures(s, report, new_lines, sides);
        }
    }
    let _ = writeln!(s, "</section>");
}

fn fact_kind(s: &mut String, d: &FactDiff) {
    if d.lines.is_empty() {
        let _ = writeln!(s, "<p>{}: {} unchanged</p>", esc(&d.kind), d.unchanged);
        return;
    }
    let _ = writeln!(
        s,
        "<h3>{}: {} changed, {} unchanged</h3>\n<ul class=\"lines\">",
        esc(&d.kind),
        d.changed_rows(),
        d.unchanged
    );
    for l in &d.lines {
        let _ = writeln!(s, "<li>{}</li>", esc(&l.to_string()));
    }
    let _ = writeln!(s, "</ul>");
}

// ---------------------------------------------------------------------
// Boards

/// The board a variant is played on, read off the picture of its start.
fn board_of(v: &dyn Variant) -> Option<String> {
    let at = At {
        position: None,
        moves: &[],
    };
    v.diagram(&at).ok().map(|d| match d.board {
        AnyBoard::Charts(b) => b.name().to_string(),
        AnyBoard::Tetrahedron(t) => t.name().to_string(),
    })
}

/// The variant to draw `board` with: `prefer` when it is played on that
/// board, else the first that is.
fn played_on<'v>(
    list: &[&'v dyn Variant],
    board: &str,
    prefer: Option<&str>,
) -> Option<&'v dyn Variant> {
    let on: Vec<&'v dyn Variant> = list
        .iter()
        .copied()
        .filter(|v| board_of(*v).as_deref() == Some(board))
        .collect();
    on.iter()
        .find(|v| Some(v.name()) == prefer)
        .or(on.first())
        .copied()
}

/// Each changed board of one kind, before and after.
fn board_pictures(s: &mut String, d: &FactDiff, sides: &Sides) {
    let mut keys: Vec<&str> = d.lines.iter().map(|l| l.key()).collect();
    keys.dedup();
    for board in keys {
        // A board only one side has is drawn on that side alone.
        let says =
            |kind: fn(&FactLine) -> bool| d.lines.iter().any(|l| l.key() == board && kind(l));
        let added = says(|l| matches!(l, FactLine::Added { .. }));
        let removed = says(|l| matches!(l, FactLine::Removed { .. }));
        let after = played_on(&sides.draft, board, None).filter(|_| !removed);
        let before = played_on(&sides.base, board, after.map(|v| v.name())).filter(|_| !added);
        let _ = writeln!(
            s,
            "<h4>Board {}, before and after</h4>\n<div class=\"pair\">",
            esc(board)
        );
        let base = format!("the base ({})", sides.base_name);
        let before = board_figure(board, before, &base, "before", added);
        side(s, "Before", &base, &before);
        let after = board_figure(board, after, "the draft", "after", removed);
        side(s, "After", "the draft", &after);
        let _ = writeln!(s, "</div>");
    }
}

/// One side's picture of `board`: the start of `v`, played on it; or why
/// there is none (`absent`: that side has no such board).
fn board_figure(
    board: &str,
    v: Option<&dyn Variant>,
    side: &str,
    when: &str,
    absent: bool,
) -> Figure {
    let mut figure = Figure::default();
    match v {
        None if absent => figure
            .notes
            .push(format!("{when}: {side} has no board {board}")),
        None => figure.notes.push(format!(
            "{when}: no variant of {side} is played on {board}, so there is no position to draw \
             it with"
        )),
        Some(v) => figure.add(start_panel(
            v,
            format!("{when}: {board} in {side}, under the start of {}", v.name()),
            Vec::new(),
        )),
    }
    figure
}

/// One side of a before-and-after pair, labelled above the picture as
/// well as in it, so that which is which shows at a glance.
fn side(s: &mut String, when: &str, whose: &str, figure: &Figure) {
    let _ = writeln!(
        s,
        "<div class=\"side\">\n<p class=\"side-label\">{when}: {}</p>",
        esc(whose)
    );
    write_figure(s, figure);
    let _ = writeln!(s, "</div>");
}

/// A variant's start with `actions` marked as legal.
fn start_panel(
    v: &dyn Variant,
    caption: String,
    actions: Vec<String>,
) -> Result<crate::conformance::html::Panel, String> {
    let at = At {
        position: None,
        moves: &[],
    };
    let marks = Marks {
        actions: actions.into_iter().map(|a| (a, MarkKind::Legal)).collect(),
        caption: Some(caption),
        ..Marks::default()
    };
    panel(v, &at, &marks)
}

// ---------------------------------------------------------------------
// Findings and fingerprints

/// The findings against the base's: the new ones and the gone ones
/// listed, the ones the base has too counted.
fn findings(s: &mut String, report: &CheckReport) {
    let f = &report.findings;
    let _ = writeln!(
        s,
        "<section id=\"findings\">\n<h2>Findings ({} new, {} gone, {} as in the base)</h2>",
        f.new.len(),
        f.gone.len(),
        f.unchanged.len()
    );
    if f.new.is_empty() && f.gone.is_empty() {
        let _ = writeln!(s, "<p>No new findings, and none gone.</p>");
    } else {
        let _ = writeln!(s, "<ul>");
        for (word, lines) in [("new", &f.new), ("gone", &f.gone)] {
            for line in lines {
                let _ = writeln!(s, "<li>{word}: {}</li>", esc(line));
            }
        }
        let _ = writeln!(s, "</ul>");
    }
    let _ = writeln!(s, "</section>");
}

/// The page of a draft that does not load: the summary and every error
/// of every file, with its line.
pub fn load_errors_page(spec: &str, base: &str, errors: &[super::LoadError]) -> String {
    let summary = super::Summary::of_load_errors(errors).to_string();
    let mut s = String::new();
    let _ = write!(
        s,
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
         <title>seams spec check: {}</title>\n<style>{STYLE}{PAGE_STYLE}</style>\n</head>\n<body>\n",
        esc(spec)
    );
    let _ = writeln!(s, "<h1>seams spec check: {}</h1>", esc(spec));
    let _ = writeln!(
        s,
        "<p class=\"headline bad\" id=\"summary\">{}</p>",
        esc(&summary)
    );
    let _ = writeln!(
        s,
        "<p class=\"meta\">spec: <code>{}</code> · base: {}.</p>",
        esc(spec),
        esc(base)
    );
    let _ = writeln!(
        s,
        "<section id=\"load-errors\">\n<h2>Load errors</h2>\n<ul>"
    );
    for e in errors {
        let _ = writeln!(s, "<li><code>{}</code></li>", esc(&e.to_string()));
    }
    let _ = writeln!(s, "</ul>\n</section>\n</body>\n</html>");
    s
}
