//! The page's pictures of changed fingerprints (a variant's start before
//! and after, the first actions whose counts differ marked) and of changed
//! corpus cases (the corpus's answer and the draft's on the case's
//! position).

use super::*;

/// More first actions than this are left unmarked on a fingerprint's
/// pictures: on a crowded start the marks would hide the pieces.
const MARKED_ACTIONS: usize = 60;

pub(super) fn fingerprints(s: &mut String, report: &CheckReport, sides: &Sides) {
    let changed = &report.fingerprint_changes;
    let _ = writeln!(
        s,
        "<section id=\"fingerprints\">\n<h2>Fingerprints (perft of each start to depth {}, \
         against {}): {} changed, {} unchanged</h2>",
        crate::draft::FINGERPRINT_DEPTH,
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

pub(super) fn cases(s: &mut String, report: &CheckReport, corpus: &Corpus, sides: &Sides) {
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
}
