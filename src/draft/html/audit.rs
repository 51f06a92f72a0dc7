//! The page's pictures of the opening-audit lines a draft adds: each
//! check or mate with its last move marked, each shield line or attacked
//! piece with its pieces framed.

use super::*;

/// At most this many new audit lines of one variant are drawn; the rest
/// are listed in words. A draft that opens a line can give thousands of
/// new checks at four plies, and a page of thousands of boards helps no
/// one.
const AUDIT_LINES_DRAWN: usize = 40;

/// The audit lines of one variant the draft has and the base has not.
pub(super) struct NewLines<'r> {
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
pub(super) fn new_audit_lines<'r>(
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

pub(super) fn audit_pictures(
    s: &mut String,
    report: &CheckReport,
    new_lines: &[NewLines],
    sides: &Sides,
) {
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Player;

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
