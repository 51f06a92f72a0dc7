//! The HTML report of a conformance run: one self-contained page.
//!
//! The page carries the same facts as the other report formats (see
//! [`super::report`]) and adds a picture of the position for every failing
//! case about a variant. The picture is drawn with the *reference* rules
//! (the board as the spec defines it), and the difference between the
//! expected and the actual answer is marked on it: actions the engine
//! should have given but did not are "missing", actions it gave but should
//! not have are "unexpected". A wrong destination is therefore seen, not
//! read out of a list of coordinates.
//!
//! Everything is inline (styles and SVG), so the file can be attached to a
//! CI run or mailed and still open anywhere.

use std::collections::BTreeSet;
use std::fmt::Write;

use super::case::{Case, Check, Place};
use super::report::{Report, Tally};
use super::runner::{Outcome, OutcomeKind};
use crate::render::{MarkKind, Marks, escape as esc, render_svg};
use crate::variant::{At, Variant};

/// The pictures shown beside a failing case.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Figure {
    /// Usually one picture; a wrong position after moves gets two, the
    /// expected one and the engine's.
    pub panels: Vec<Panel>,
    /// Why a picture could not be drawn (a position that does not parse,
    /// say), shown in place of it.
    pub notes: Vec<String>,
}

/// One SVG picture and a sentence saying what it marks.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Panel {
    pub svg: String,
    pub caption: String,
}

impl Figure {
    /// Adds a drawn picture, or the sentence saying why there is none.
    pub fn add(&mut self, drawn: Result<Panel, String>) {
        match drawn {
            Ok(p) => self.panels.push(p),
            Err(why) => self.notes.push(why),
        }
    }
}

/// More agreed actions than this are left unmarked, so that the differences
/// stay visible on a crowded position.
const AGREED_SHOWN: usize = 60;

/// A case's position with the difference between two answers marked on
/// it: what [`figure`] draws for a failing case, and what `seams spec
/// check --format html` draws for a case a rules draft changes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Marked<'c> {
    pub variant: &'c str,
    pub place: &'c Place,
    pub actions: Vec<(String, MarkKind)>,
    pub caption: String,
}

/// The marks for a case whose `expected` answer differs from the `actual`
/// one: `None` for the checks whose answer is no set of actions on one
/// position (a position after moves, a record, the board's geometry).
pub fn failure_marks<'c>(case: &'c Case, expected: &str, actual: &str) -> Option<Marked<'c>> {
    let (variant, place, actions, caption) = match &case.check {
        Check::LegalActions {
            variant,
            at,
            expect,
        } => {
            let want: BTreeSet<String> = expect.iter().cloned().collect();
            let got: BTreeSet<String> = string_set(actual);
            let missing: Vec<&String> = want.difference(&got).collect();
            let extra: Vec<&String> = got.difference(&want).collect();
            let agreed: Vec<&String> = want.intersection(&got).collect();
            let mut marks = Vec::new();
            if agreed.len() <= AGREED_SHOWN {
                marks.extend(agreed.iter().map(|a| ((*a).clone(), MarkKind::Legal)));
            }
            marks.extend(missing.iter().map(|a| ((*a).clone(), MarkKind::Missing)));
            marks.extend(extra.iter().map(|a| ((*a).clone(), MarkKind::Unexpected)));
            let caption = format!(
                "{} expected, {} given: {} missing, {} unexpected, {} agreed",
                want.len(),
                got.len(),
                missing.len(),
                extra.len(),
                agreed.len()
            );
            (variant, at, marks, caption)
        }
        Check::Action {
            variant,
            at,
            action,
            expect,
        } => {
            let got_legal = serde_json::from_str::<serde_json::Value>(actual)
                .ok()
                .and_then(|v| v.get("legal").and_then(|l| l.as_bool()));
            let (kind, caption) = match (expect.legal, got_legal) {
                (true, Some(false)) => (
                    Some(MarkKind::Missing),
                    format!("'{action}' is legal; the engine refused it"),
                ),
                (false, Some(true)) => (
                    Some(MarkKind::Unexpected),
                    format!("'{action}' is illegal; the engine accepted it"),
                ),
                _ => (None, format!("'{action}': the reason differs")),
            };
            let marks = kind.map(|k| (action.clone(), k)).into_iter().collect();
            (variant, at, marks, caption)
        }
        Check::Perft {
            variant,
            at,
            depth,
            divide: Some(want),
            ..
        } => {
            let got: BTreeSet<String> = serde_json::from_str::<serde_json::Map<_, _>>(actual)
                .map(|m| m.keys().cloned().collect())
                .unwrap_or_default();
            let mut marks: Vec<(String, MarkKind)> = want
                .keys()
                .filter(|k| !got.contains(*k))
                .map(|k| (k.clone(), MarkKind::Missing))
                .collect();
            marks.extend(
                got.iter()
                    .filter(|k| !want.contains_key(*k))
                    .map(|k| (k.clone(), MarkKind::Unexpected)),
            );
            let caption = format!(
                "perft({depth}) from here: {} root action(s) missing, {} unexpected",
                marks.iter().filter(|m| m.1 == MarkKind::Missing).count(),
                marks.iter().filter(|m| m.1 == MarkKind::Unexpected).count()
            );
            (variant, at, marks, caption)
        }
        Check::Perft {
            variant, at, depth, ..
        } => (
            variant,
            at,
            Vec::new(),
            format!("perft({depth}) from this position: expected {expected}, got {actual}"),
        ),
        Check::Keys { variant, a, .. } => (
            variant,
            a,
            Vec::new(),
            "the first of the two positions compared".to_string(),
        ),
        Check::Play { .. }
        | Check::Record { .. }
        | Check::Invariants { .. }
        | Check::Walk { .. }
        | Check::Reach { .. }
        | Check::ForbiddenDiagonals { .. }
        | Check::BishopReach { .. }
        | Check::DiagonalComponents { .. }
        | Check::FileOrbits { .. }
        | Check::SolidFacts { .. }
        | Check::BoardFile { .. } => return None,
    };
    Some(Marked {
        variant,
        place,
        actions,
        caption,
    })
}

/// The picture for one case's outcome: `None` for passing cases, engine
/// errors, and cases with no position to draw (geometry and records).
pub fn figure(case: &Case, outcome: &Outcome, variants: &[&dyn Variant]) -> Option<Figure> {
    let Outcome::Fail {
        expected, actual, ..
    } = outcome
    else {
        return None;
    };
    if let Check::Play { variant, at, .. } = &case.check {
        return Some(play_figure(variant, at, expected, actual, variants));
    }
    let m = failure_marks(case, expected, actual)?;
    let mut figure = Figure::default();
    figure.add(draw(m.variant, m.place, m.actions, m.caption, variants));
    Some(figure)
}

/// A wrong position after moves: the expected one, and the engine's own
/// when it gave a different one.
fn play_figure(
    variant: &str,
    at: &Place,
    expected: &str,
    actual: &str,
    variants: &[&dyn Variant],
) -> Figure {
    let mut figure = Figure::default();
    figure.add(draw(
        variant,
        at,
        Vec::new(),
        "expected: the position after the case's moves".to_string(),
        variants,
    ));
    let position = |json: &str| {
        serde_json::from_str::<serde_json::Value>(json)
            .ok()
            .and_then(|v| v.get("position").and_then(|p| p.as_str()).map(String::from))
    };
    let (ours, theirs) = (position(expected), position(actual));
    if let Some(text) = theirs.filter(|t| Some(t) != ours.as_ref()) {
        let place = Place {
            position: Some(text),
            moves: Vec::new(),
        };
        figure.add(draw(
            variant,
            &place,
            Vec::new(),
            "actual: the position the engine reached".to_string(),
            variants,
        ));
    }
    figure
}

fn draw(
    variant: &str,
    place: &Place,
    actions: Vec<(String, MarkKind)>,
    caption: String,
    variants: &[&dyn Variant],
) -> Result<Panel, String> {
    let Some(v) = variants.iter().find(|v| v.name() == variant) else {
        return Err(format!("the reference has no variant '{variant}'"));
    };
    let at = At {
        position: place.position.as_deref(),
        moves: &place.moves,
    };
    let marks = Marks {
        from: None,
        actions,
        caption: Some(caption),
        ..Marks::default()
    };
    panel(*v, &at, &marks)
}

/// One picture of `at` with `marks`, captioned with the marks' caption;
/// or, when it cannot be drawn, a sentence saying why.
pub fn panel(v: &dyn Variant, at: &At, marks: &Marks) -> Result<Panel, String> {
    let caption = marks.caption.clone().unwrap_or_default();
    match render_svg(v, at, marks) {
        Ok(svg) => Ok(Panel { svg, caption }),
        Err(e) => Err(format!("{caption}: cannot be drawn: {e}")),
    }
}

/// Writes a figure's pictures, each a `<figure>` labelled with its
/// caption, and a line for each picture that could not be drawn.
pub fn write_figure(s: &mut String, figure: &Figure) {
    for panel in &figure.panels {
        // The caption is drawn inside the SVG too, so that the picture
        // keeps it when saved on its own.
        let _ = writeln!(
            s,
            "<figure aria-label=\"{}\">\n{}\n</figure>",
            esc(&panel.caption),
            panel.svg
        );
    }
    for note in &figure.notes {
        let _ = writeln!(s, "<p class=\"meta\">No picture: {}</p>", esc(note));
    }
}

/// A JSON array of strings as a set; anything else as the empty set (the
/// runner wrote it, so only a malformed reply could get here, and that is
/// reported as an error, not a failure).
fn string_set(json: &str) -> BTreeSet<String> {
    serde_json::from_str::<Vec<String>>(json)
        .map(|v| v.into_iter().collect())
        .unwrap_or_default()
}

/// The style of the HTML reports, shared by `seams conform` and `seams
/// fuzz` so that a failing case and a finding look alike.
pub const STYLE: &str = "\
body{font-family:system-ui,sans-serif;margin:2em;color:#222;background:#fff}\
h1{font-size:1.5em}h2{font-size:1.2em;margin-top:2em}\
table{border-collapse:collapse;margin:1em 0}\
th,td{border:1px solid #ccc;padding:.25em .6em;text-align:right}\
th:first-child,td:first-child{text-align:left}\
.headline{font-size:1.1em;padding:.6em;border-radius:4px}\
.ok{background:#e3f6e3}.bad{background:#fde2e2}\
.case{border:1px solid #ddd;border-radius:6px;padding:1em;margin:1em 0}\
.case h3{margin:0 0 .4em 0;font-size:1em;font-family:monospace}\
.kind{display:inline-block;padding:0 .5em;border-radius:3px;color:#fff;font-weight:bold}\
.k-fail{background:#c62828}.k-error{background:#6a1b9a}.k-pass{background:#2e7d32}\
.k-unsupported{background:#757575}\
pre{background:#f6f6f6;padding:.6em;overflow-x:auto;white-space:pre-wrap}\
figure{margin:.6em 1em .6em 0;display:inline-block;vertical-align:top}\
figure svg{max-width:100%;height:auto;border:1px solid #eee}\
.meta{color:#555;font-size:.9em}";

impl Report<'_> {
    /// The self-contained HTML report. `figures` holds one entry per
    /// result (see [`figure`]); missing entries draw nothing.
    pub fn html(&self, figures: &[Option<Figure>]) -> String {
        let mut s = String::new();
        let total = self.total();
        let _ = write!(
            s,
            "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
             <title>seams conform: {}</title>\n<style>{STYLE}</style>\n</head>\n<body>\n",
            esc(&self.engine.name)
        );
        let _ = writeln!(
            s,
            "<h1>seams conform: {} {}</h1>",
            esc(&self.engine.name),
            esc(&self.engine.version)
        );
        let class = if self.mismatches() == 0 { "ok" } else { "bad" };
        let _ = writeln!(
            s,
            "<p class=\"headline {class}\">{}</p>",
            esc(&self.headline())
        );
        if self.verdicts.is_some() {
            let _ = writeln!(
                s,
                "<p>{} result(s) differ from the expectations file.</p>",
                self.mismatches()
            );
        }
        let _ = writeln!(s, "<h2>Summary</h2>");
        table(&mut s, "outcome", [("all cases".to_string(), total)]);
        table(&mut s, "board or variant", self.by_subject());
        let broken = self.broken_clauses();
        if !broken.is_empty() {
            let list: Vec<String> = broken
                .iter()
                .map(|(c, n)| format!("<code>{}</code> ({n})", esc(c)))
                .collect();
            let _ = writeln!(s, "<p>Clauses broken: {}</p>", list.join(", "));
        }
        let problems: Vec<usize> = (0..self.results.len())
            .filter(|&i| self.is_problem(i))
            .collect();
        let _ = writeln!(s, "<h2>Problems ({})</h2>", problems.len());
        if problems.is_empty() {
            let _ = writeln!(s, "<p>None.</p>");
        }
        for i in problems {
            let r = &self.results[i];
            let kind = r.outcome.kind();
            let class = match kind {
                OutcomeKind::Fail => "k-fail",
                OutcomeKind::Pass => "k-pass",
                OutcomeKind::Unsupported => "k-unsupported",
                OutcomeKind::Crash
                | OutcomeKind::Timeout
                | OutcomeKind::Malformed
                | OutcomeKind::WrongId
                | OutcomeKind::EngineError
                | OutcomeKind::NotRun => "k-error",
            };
            let verdict = self
                .verdict(i)
                .map(|v| format!(" <span class=\"meta\">[{}]</span>", esc(v.name())))
                .unwrap_or_default();
            let _ = writeln!(
                s,
                "<section class=\"case\" id=\"{id}\">\n<h3><span class=\"kind {class}\">{kind}</span> {id}{verdict}</h3>",
                id = esc(&r.id),
                kind = kind.name(),
            );
            let _ = writeln!(
                s,
                "<p>{}</p>\n<p class=\"meta\">{} · {} · clauses {} · provenance {}</p>",
                esc(&r.title),
                esc(&r.file),
                esc(&r.subject),
                esc(&r.clauses.join(", ")),
                esc(r.provenance)
            );
            if kind != OutcomeKind::Pass {
                let _ = writeln!(s, "<pre>{}</pre>", esc(&r.outcome.message()));
            }
            if let Some(figure) = figures.get(i).and_then(|f| f.as_ref()) {
                write_figure(&mut s, figure);
            }
            let _ = writeln!(s, "</section>");
        }
        let _ = writeln!(
            s,
            "<h2>By clause</h2>\n<details><summary>{} clauses</summary>",
            self.by_clause().len()
        );
        table(&mut s, "clause", self.by_clause_sorted());
        let _ = writeln!(s, "</details>\n</body>\n</html>");
        s
    }
}

fn table(s: &mut String, title: &str, rows: impl IntoIterator<Item = (String, Tally)>) {
    let _ = writeln!(
        s,
        "<table>\n<tr><th>{}</th><th>pass</th><th>fail</th><th>unsupported</th><th>errors</th></tr>",
        esc(title)
    );
    for (k, t) in rows {
        let _ = writeln!(
            s,
            "<tr><td><code>{}</code></td><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>",
            esc(&k),
            t.pass,
            t.fail,
            t.unsupported,
            t.errors
        );
    }
    let _ = writeln!(s, "</table>");
}
