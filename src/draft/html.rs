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

/// More first actions than this are left unmarked on a fingerprint's
/// pictures: on a crowded start the marks would hide the pieces.
const MARKED_ACTIONS: usize = 60;

/// At most this many new audit lines of one variant are drawn; the rest
/// are listed in words. A draft that opens a line can give thousands of
/// new checks at four plies, and a page of thousands of boards helps no
/// one.
const AUDIT_LINES_DRAWN: usize = 40;

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
// Opening audits

/// The audit lines of one variant the draft has and the base has not.
struct NewLines<'r> {
    variant: &'r str,
    checks: Vec<&'r CheckLine>,
    mates: Vec<&'r ForcedMate>,
    shields: Vec<&'r Shield>,
    attacked: Vec<&'r Attacked>,
}

impl NewLines<'_> {
    fn len(&self) -> usize {
        self.checks.len() + self.mates.len() + self.shields.len() + self.attacked.len()
    }
}

/// The base's audits, recomputed to the report's plies, compared line by
/// line with the draft's: the report keeps only their text.
fn new_audit_lines<'r>(
    report: &'r CheckReport,
    sides: &Sides,
) -> Result<Vec<NewLines<'r>>, DraftError> {
    let Some(plies) = report.audits.first().map(|a| a.plies) else {
        return Ok(Vec::new());
    };
    let base = audit_rows(&sides.base, plies)?;
    Ok(report
        .audits
        .iter()
        .map(|r| lines_beyond(r, base.iter().find(|b| b.variant == r.variant)))
        .filter(|n| n.len() > 0)
        .collect())
}

/// The lines of `draft` that `base` lacks (all of them without a base).
fn lines_beyond<'r>(draft: &'r AuditReport, base: Option<&AuditReport>) -> NewLines<'r> {
    fn beyond<'r, T: PartialEq>(d: &'r [T], b: Option<&[T]>) -> Vec<&'r T> {
        d.iter()
            .filter(|x| !b.is_some_and(|b| b.contains(x)))
            .collect()
    }
    NewLines {
        variant: &draft.variant,
        checks: beyond(&draft.checks, base.map(|b| b.checks.as_slice())),
        mates: beyond(&draft.mates, base.map(|b| b.mates.as_slice())),
        shields: beyond(
            draft.shields.as_deref().unwrap_or_default(),
            base.and_then(|b| b.shields.as_deref()),
        ),
        attacked: beyond(
            draft.attacked.as_deref().unwrap_or_default(),
            base.and_then(|b| b.attacked.as_deref()),
        ),
    }
}

/// One new audit line in words and as the marks of its picture.
struct AuditPicture {
    words: String,
    /// The moves played before the picture's position (from the start).
    played: Vec<String>,
    marks: Marks,
}

fn audit_pictures(s: &mut String, report: &CheckReport, new_lines: &[NewLines], sides: &Sides) {
    let plies = report.audits.first().map_or(0, |a| a.plies);
    for n in new_lines {
        let pictures = audit_line_pictures(n);
        let _ = writeln!(
            s,
            "<h4>New audit lines of {} ({} plies, against {}): {}</h4>",
            esc(n.variant),
            plies,
            esc(sides.base_name),
            pictures.len()
        );
        let Some(v) = Sides::find(&sides.draft, n.variant) else {
            let _ = writeln!(
                s,
                "<p class=\"meta\">No picture: the draft has no variant '{}'</p>",
                esc(n.variant)
            );
            continue;
        };
        for p in pictures.iter().take(AUDIT_LINES_DRAWN) {
            let at = At {
                position: None,
                moves: &p.played,
            };
            let mut figure = Figure::default();
            figure.add(panel(v, &at, &with_origin(v, &at, &p.marks)));
            write_figure(s, &figure);
        }
        let rest = &pictures[pictures.len().min(AUDIT_LINES_DRAWN)..];
        if !rest.is_empty() {
            let _ = writeln!(
                s,
                "<p>{} more new lines, not drawn (at most {AUDIT_LINES_DRAWN} are):</p>\n<ul class=\"lines\">",
                rest.len()
            );
            for p in rest {
                let _ = writeln!(s, "<li>{}</li>", esc(&p.words));
            }
            let _ = writeln!(s, "</ul>");
        }
    }
}

/// Every new line of a variant as a picture to draw, in the text's
/// order (its fields sorted by name): attacked pieces, checks, mates,
/// shield lines.
fn audit_line_pictures(n: &NewLines) -> Vec<AuditPicture> {
    let mut out: Vec<AuditPicture> = n.attacked.iter().map(|x| attacked_picture(x)).collect();
    for c in &n.checks {
        let what = if c.mate { "checkmate" } else { "check" };
        out.push(line_picture(
            format!("{what}: {}", c.moves.join(" ")),
            &c.moves,
            &format!("the last move, marked, gives {what}"),
        ));
    }
    for m in &n.mates {
        out.push(line_picture(
            format!("forced mate in {}: {}", m.mate_in, m.line.join(" ")),
            &m.line,
            "the last move, marked, mates",
        ));
    }
    out.extend(n.shields.iter().map(|l| shield_picture(l)));
    out
}

/// A line of moves from the start: all but the last played, the last
/// marked from its origin.
fn line_picture(words: String, moves: &[String], says: &str) -> AuditPicture {
    let (last, played) = match moves.split_last() {
        Some((last, played)) => (Some(last.clone()), played.to_vec()),
        None => (None, Vec::new()),
    };
    AuditPicture {
        marks: Marks {
            actions: last.into_iter().map(|a| (a, MarkKind::Legal)).collect(),
            caption: Some(format!("{words} ({says})")),
            ..Marks::default()
        },
        words,
        played,
    }
}

/// `marks` with the origin of its one marked move highlighted, so that
/// the move is seen whole; as it was when the move has no origin (a drop)
/// or cannot be placed (the picture then lists it).
fn with_origin(v: &dyn Variant, at: &At, marks: &Marks) -> Marks {
    let texts: Vec<String> = marks.actions.iter().map(|(t, _)| t.clone()).collect();
    let from = match (texts.len(), v.action_marks(at, &texts)) {
        (1, Ok(found)) => found.into_iter().next().and_then(|m| m.ok()?.from),
        _ => None,
    };
    Marks {
        from,
        ..marks.clone()
    }
}

fn piece(p: &Placed) -> String {
    format!("{}{}", p.piece, p.cell)
}

fn shield_picture(l: &Shield) -> AuditPicture {
    let (kind, shield) = match l.kind {
        ShieldKind::Pin => ("pin", "shield, pinned"),
        ShieldKind::Discovery => ("discovery", "shield, whose move gives discovered check"),
    };
    let words = format!(
        "{kind}: king {} shield {} slider {} ({} from the king)",
        piece(&l.king),
        piece(&l.shield),
        piece(&l.slider),
        l.direction
    );
    AuditPicture {
        marks: Marks {
            framed: vec![
                (l.king.cell.clone(), format!("king ({})", l.king.piece)),
                (
                    l.shield.cell.clone(),
                    format!("{shield} ({})", l.shield.piece),
                ),
                (
                    l.slider.cell.clone(),
                    format!("slider ({})", l.slider.piece),
                ),
            ],
            caption: Some(words.clone()),
            ..Marks::default()
        },
        words,
        played: Vec::new(),
    }
}

fn attacked_picture(x: &Attacked) -> AuditPicture {
    let by: Vec<String> = x.by.iter().map(piece).collect();
    let words = format!("attacked: {} by {}", piece(&x.target), by.join(" "));
    let mut framed = vec![(
        x.target.cell.clone(),
        format!("attacked ({})", x.target.piece),
    )];
    framed.extend(
        x.by.iter()
            .map(|b| (b.cell.clone(), format!("attacker ({})", b.piece))),
    );
    AuditPicture {
        marks: Marks {
            framed,
            caption: Some(words.clone()),
            ..Marks::default()
        },
        words,
        played: Vec::new(),
    }
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

fn fingerprints(s: &mut String, report: &CheckReport, sides: &Sides) {
    let changed = &report.fingerprint_changes;
    let _ = writeln!(
        s,
        "<section id=\"fingerprints\">\n<h2>Fingerprints (perft of each start to depth {}, \
         against {}): {} changed, {} unchanged</h2>",
        super::FINGERPRINT_DEPTH,
        esc(&report.base),
        changed.len(),
        report.unchanged_fingerprints()
    );
    for c in changed {
        let _ = writeln!(
            s,
            "<h3>{}: {}</h3>\n<ul class=\"lines\">",
            esc(&c.variant),
            esc(&c.perft_line())
        );
        for line in c.divide_lines() {
            let _ = writeln!(s, "<li>{}</li>", esc(&line));
        }
        let _ = writeln!(s, "</ul>\n<div class=\"pair\">");
        let base = format!("the base ({})", sides.base_name);
        side(s, "Before", &base, &fingerprint_figure(c, sides, true));
        side(
            s,
            "After",
            "the draft",
            &fingerprint_figure(c, sides, false),
        );
        let _ = writeln!(s, "</div>");
    }
    let _ = writeln!(s, "</section>");
}

/// The start of a changed variant on one side, with the first actions
/// whose counts differ that exist there marked.
fn fingerprint_figure(c: &FingerprintChange, sides: &Sides, before: bool) -> Figure {
    let (when, side, list, present) = if before {
        let side = format!("the base ({})", sides.base_name);
        ("before", side, &sides.base, c.perft.0.is_some())
    } else {
        (
            "after",
            "the draft".to_string(),
            &sides.draft,
            c.perft.1.is_some(),
        )
    };
    let mut figure = Figure::default();
    let v = Sides::find(list, &c.variant).filter(|_| present);
    let Some(v) = v else {
        figure
            .notes
            .push(format!("{when}: {side} has no variant '{}'", c.variant));
        return figure;
    };
    let actions: Vec<String> = c
        .divide
        .iter()
        .filter(|(_, old, new)| if before { old.is_some() } else { new.is_some() })
        .map(|(a, _, _)| a.clone())
        .collect();
    let n = actions.len();
    let (actions, marked) = if n <= MARKED_ACTIONS {
        (
            actions,
            format!("marked: the {n} first actions whose counts differ"),
        )
    } else {
        (
            Vec::new(),
            format!("{n} first actions differ, too many to mark"),
        )
    };
    figure.add(start_panel(
        v,
        format!("{when}: the start of {} in {side}; {marked}", c.variant),
        actions,
    ));
    figure
}

// ---------------------------------------------------------------------
// Corpus cases

fn cases(s: &mut String, report: &CheckReport, corpus: &Corpus, sides: &Sides) {
    let run = &report.corpus;
    let _ = writeln!(
        s,
        "<section id=\"cases\">\n<h2>Corpus: {} cases checked, {} not applicable (rules range), \
         {} unsupported, {} changed</h2>",
        run.checked,
        run.not_applicable,
        run.unsupported,
        run.changes.len()
    );
    if !run.changes.is_empty() {
        let _ = writeln!(
            s,
            "<p class=\"meta\">Old → new: the corpus's answer, then the draft's. In the pictures \
             \"expected\" is the corpus's answer and \"the engine\" the reference engine built on \
             the draft. Grouped by the first clause each case cites.</p>"
        );
    }
    for (clause, changes) in by_first_clause(&run.changes) {
        let n = changes.len();
        let _ = writeln!(
            s,
            "<h3>{} ({n} {})</h3>",
            esc(clause),
            if n == 1 { "case" } else { "cases" }
        );
        for c in changes {
            let case = corpus.cases.iter().map(|(_, c)| c).find(|k| k.id == c.id);
            case_section(s, c, case, sides);
        }
    }
    let _ = writeln!(s, "</section>");
}

/// The changes under the first clause each cites, clauses in the order
/// the changes first cite them.
fn by_first_clause(changes: &[Change]) -> Vec<(&str, Vec<&Change>)> {
    let mut groups: Vec<(&str, Vec<&Change>)> = Vec::new();
    for c in changes {
        let clause = c.clauses.first().map_or("no clause", String::as_str);
        match groups.iter_mut().find(|(k, _)| *k == clause) {
            Some((_, list)) => list.push(c),
            None => groups.push((clause, vec![c])),
        }
    }
    groups
}

fn case_section(s: &mut String, c: &Change, case: Option<&Case>, sides: &Sides) {
    let kind = if c.outcome == "fail" {
        "k-fail"
    } else {
        "k-error"
    };
    let _ = writeln!(
        s,
        "<section class=\"case\" id=\"{id}\">\n<h4><span class=\"kind {kind}\">{}</span> {id}</h4>",
        esc(&c.outcome),
        id = esc(&c.id),
    );
    let _ = writeln!(
        s,
        "<p>{}</p>\n<p class=\"meta\">{} · {} · clauses {}</p>",
        esc(&c.title),
        esc(&c.file),
        esc(&c.subject),
        esc(&c.clauses.join(", "))
    );
    let detail = c.detail_line();
    let _ = writeln!(
        s,
        "<pre>{}{}</pre>",
        esc(&c.answers()),
        if detail.is_empty() {
            String::new()
        } else {
            format!("\n{}", esc(&detail))
        }
    );
    let (figure, fallback) = match case {
        Some(case) => case_figure(case, c, sides),
        None => (
            Figure {
                notes: vec![format!("the corpus has no case '{}' to draw", c.id)],
                ..Figure::default()
            },
            None,
        ),
    };
    if let Some(why) = fallback {
        let _ = writeln!(s, "<p class=\"meta fallback\">{}</p>", esc(&why));
    }
    write_figure(s, &figure);
    let _ = writeln!(s, "</section>");
}

/// The variant and position a case asks about, or why it has none.
fn position_of(case: &Case) -> Result<(&str, Place, String), String> {
    let board = |b: &str| {
        Err(format!(
            "the case asks about the board {b} alone, not a position (changed boards are drawn \
             under Changed facts)"
        ))
    };
    match (&case.check, case.check.subject()) {
        (_, Subject::Board(b)) => board(b),
        (_, Subject::BoardFile) => Err("the case asks whether a board file loads".into()),
        (Check::Play { variant, at, .. }, _) => Ok((
            variant,
            at.clone(),
            "the position the case's moves reach".into(),
        )),
        (
            Check::Record {
                variant, record, ..
            },
            _,
        ) => {
            let position = match &record.start {
                crate::record::RecordStart::Initial => None,
                crate::record::RecordStart::Edited { position } => Some(position.clone()),
            };
            Ok((
                variant,
                Place {
                    position,
                    moves: Vec::new(),
                },
                format!(
                    "the record's start ({} actions follow)",
                    record.actions.len()
                ),
            ))
        }
        (Check::LegalActions { variant, at, .. }, _)
        | (Check::Action { variant, at, .. }, _)
        | (Check::Perft { variant, at, .. }, _)
        | (Check::Keys { variant, a: at, .. }, _) => {
            Ok((variant, at.clone(), "the case's position".into()))
        }
        (_, Subject::Variant(v)) => Err(format!("no position of {v} to draw")),
    }
}

/// A changed case's position, marked as the conformance report marks a
/// failure where the answers are sets of actions; drawn with the draft's
/// rules, else with the base's (the second part says so).
fn case_figure(case: &Case, c: &Change, sides: &Sides) -> (Figure, Option<String>) {
    let mut figure = Figure::default();
    let (variant, place, plain) = match position_of(case) {
        Ok(p) => p,
        Err(why) => {
            figure.notes.push(why);
            return (figure, None);
        }
    };
    let (actions, caption) = match failure_marks(case, &c.old, &c.new) {
        Some(m) if c.outcome == "fail" => (m.actions, m.caption),
        _ => (Vec::new(), plain),
    };
    let marks = Marks {
        actions,
        caption: Some(caption),
        ..Marks::default()
    };
    let at = At {
        position: place.position.as_deref(),
        moves: &place.moves,
    };
    let drawn = |list: &[&dyn Variant], whose: &str, marks: &Marks| match Sides::find(list, variant)
    {
        Some(v) => panel(v, &at, marks),
        None => Err(format!("{whose} has no variant '{variant}'")),
    };
    let draft_err = match drawn(&sides.draft, "the draft", &marks) {
        Ok(p) => {
            figure.panels.push(p);
            return (figure, None);
        }
        Err(why) => why,
    };
    let base_marks = Marks {
        caption: marks
            .caption
            .as_ref()
            .map(|c| format!("by the base's rules: {c}")),
        ..marks.clone()
    };
    match drawn(&sides.base, "the base", &base_marks) {
        Ok(p) => {
            figure.panels.push(p);
            let why = format!(
                "The draft cannot draw this position ({draft_err}); it is drawn with the rules of \
                 the base ({}).",
                sides.base_name
            );
            (figure, Some(why))
        }
        Err(base_err) => {
            figure.notes.push(format!("the draft: {draft_err}"));
            figure.notes.push(format!("the base: {base_err}"));
            (figure, None)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Player;

    fn change(id: &str, clauses: &[&str]) -> Change {
        Change {
            id: id.into(),
            file: String::new(),
            title: String::new(),
            subject: String::new(),
            clauses: clauses.iter().map(|c| c.to_string()).collect(),
            outcome: "fail".into(),
            old: "1".into(),
            new: "2".into(),
            detail: String::new(),
        }
    }

    #[test]
    fn cases_are_grouped_by_their_first_clause_in_order() {
        let changes = [
            change("a", &["SC-2", "SC-1"]),
            change("b", &["SC-1"]),
            change("c", &[]),
            change("d", &["SC-2"]),
        ];
        let groups: Vec<(&str, Vec<&str>)> = by_first_clause(&changes)
            .into_iter()
            .map(|(k, cs)| (k, cs.iter().map(|c| c.id.as_str()).collect()))
            .collect();
        assert_eq!(
            groups,
            vec![
                ("SC-2", vec!["a", "d"]),
                ("SC-1", vec!["b"]),
                ("no clause", vec!["c"]),
            ]
        );
    }

    fn audit(checks: &[&[&str]], attacked: Option<Vec<Attacked>>) -> AuditReport {
        AuditReport {
            variant: "v".into(),
            rules: "0.1".into(),
            position: String::new(),
            to_move: Player::First,
            plies: 2,
            checks: checks
                .iter()
                .map(|m| CheckLine {
                    moves: m.iter().map(|s| s.to_string()).collect(),
                    mate: false,
                })
                .collect(),
            mates: Vec::new(),
            shields: None,
            attacked,
        }
    }

    #[test]
    fn only_lines_the_base_lacks_are_new() {
        let placed = |cell: &str| Placed {
            cell: cell.into(),
            piece: "P".into(),
            owner: Player::First,
        };
        let hit = Attacked {
            target: placed("e7"),
            by: vec![placed("h10")],
        };
        let base = audit(&[&["a1-a2", "b1-b2"]], Some(Vec::new()));
        let draft = audit(&[&["a1-a2", "b1-b2"], &["d1-e2"]], Some(vec![hit.clone()]));
        let new = lines_beyond(&draft, Some(&base));
        assert_eq!(new.checks.len(), 1);
        assert_eq!(new.checks[0].moves, ["d1-e2"]);
        assert_eq!(new.attacked, [&hit]);
        assert_eq!(new.len(), 2);
        // Without a base every line is new; against itself none is.
        assert_eq!(lines_beyond(&draft, None).len(), 3);
        assert_eq!(lines_beyond(&draft, Some(&draft)).len(), 0);
        // The pictures: the attacked piece framed, then the check with
        // its first move played and its last one marked.
        let pictures = audit_line_pictures(&new);
        assert_eq!(pictures.len(), 2);
        assert_eq!(
            pictures[0].marks.framed,
            [
                ("e7".to_string(), "attacked (P)".to_string()),
                ("h10".to_string(), "attacker (P)".to_string())
            ]
        );
        assert!(pictures[1].played.is_empty());
        assert_eq!(
            pictures[1].marks.actions,
            [("d1-e2".to_string(), MarkKind::Legal)]
        );
    }
}
