//! The targets of what a variant reads: position texts, action texts,
//! the position editor's edits and game records, with the fixed positions
//! the `action` target plays against.
//!
//! Apart from the file targets because these go through a variant's own
//! parsers and printers, and share the round trip of a position and of an
//! action played on it.

use std::collections::BTreeSet;
use std::sync::OnceLock;

use super::{at, bounded, fingerprint, hash, replay};
use crate::conformance::{Check, Corpus};
use crate::record::{Record, RecordStart, RecordVerdict};
use crate::variant::{At, Variant, VariantError};

/// A position editor's request: `<variant>\n<edit>\n<position text>`,
/// the edit being `place <cell> <token or ->`, `side first|second` or
/// `hand first|second <label> <count>`. A first line that names no variant
/// picks one by its hash.
///
/// Asserts: nothing panics; an error is bounded; an edited text is either
/// a position (whose canonical text validates as itself) or refused with a
/// position error naming its field; an edit keeps the board's cells.
pub fn edit(data: &[u8]) -> u64 {
    let input = String::from_utf8_lossy(data);
    let (v, rest) = pick_variant(&input);
    let (op, text) = rest.split_once('\n').unwrap_or((rest, ""));
    let words: Vec<&str> = op.split_whitespace().collect();
    let player = |w: Option<&&str>| match w {
        Some(&"second") => crate::rules::Player::Second,
        _ => crate::rules::Player::First,
    };
    let (kind, result) = match words.first().copied() {
        Some("side") => ("side", v.edit_side(text, player(words.get(1)))),
        Some("hand") => (
            "hand",
            v.edit_hand(
                text,
                player(words.get(1)),
                words.get(2).copied().unwrap_or(""),
                words.get(3).and_then(|n| n.parse().ok()).unwrap_or(1),
            ),
        ),
        _ => {
            let cell = words.get(1).copied().unwrap_or("");
            let token = words.get(2).copied().filter(|t| *t != "-");
            let placed = v.edit_place(text, cell, token);
            if let Ok(edited) = &placed {
                // Still this board's cells (which token a stray mark joins
                // may change: `P+` then `N` reads back as `P`, `+N` where
                // pieces may be promoted).
                let cells = v.edit_cells().len();
                let plus = v.edit_palette().iter().any(|e| e.token.starts_with('+'));
                let layout = crate::placement::Layout::read(edited, plus, cells)
                    .unwrap_or_else(|e| panic!("{}: an edited text is unreadable: {e}", v.name()));
                assert_eq!(
                    layout.cell_count(),
                    cells,
                    "{}: cells after an edit",
                    v.name()
                );
            }
            ("place", placed)
        }
    };
    let edited = match result {
        Ok(t) => t,
        Err(e) => {
            let message = e.to_string();
            bounded(&format!("{}: edit", v.name()), &message);
            return fingerprint(&[v.name(), kind, "refused", &message]);
        }
    };
    match v.validate(&edited) {
        Ok(canonical) => {
            assert_eq!(
                v.validate(&canonical).as_ref(),
                Ok(&canonical),
                "{}: a canonical text validates as itself",
                v.name()
            );
            fingerprint(&[v.name(), kind, "position"])
        }
        Err(e) => position_error(v, &e),
    }
}

/// A position text for one variant: `<variant>\n<position text>`. A first
/// line that names no variant picks one by its hash (so every input is
/// parsed by some family); without a newline the whole input is the text.
///
/// Asserts: an error is a [`crate::rules::PositionError`] naming its field;
/// a parsed position prints as a text that parses to the same position
/// (same text, key, side, check and result); the legal actions of it, and
/// a few of them played, round-trip the same way.
pub fn position(data: &[u8]) -> u64 {
    let input = String::from_utf8_lossy(data);
    let (v, text) = pick_variant(&input);
    let played = match v.play(&at(Some(text))) {
        Ok(p) => p,
        Err(e) => return position_error(v, &e),
    };
    let again = replay(v, &played.position, "its printed position");
    assert_eq!(
        again,
        played,
        "{}: the printed position reads back differently",
        v.name()
    );
    let here = at(Some(&played.position));
    let actions = v
        .legal_actions(&here)
        .unwrap_or_else(|e| panic!("{}: legal actions of a parsed position: {e}", v.name()));
    for a in spread(&actions, 4) {
        action_round_trip(v, &played.position, a, &actions);
    }
    fingerprint(&[v.name(), "ok", &actions.len().min(1).to_string()])
}

/// An action text against a known position: `<variant> <k>\n<action>`, the
/// position being the variant's `k`-th of its start, corpus positions and
/// positions along a fixed game (see [`spots`]). A first line that names no
/// variant picks one by its hash.
///
/// Asserts: an error is a typed [`crate::rules::ActionError`] with a
/// bounded message; an accepted action is one of the legal actions, its
/// canonical text is accepted as itself, and playing it reaches a position
/// whose text reads back the same; every legal action's text is accepted.
pub fn action(data: &[u8]) -> u64 {
    let input = String::from_utf8_lossy(data);
    let (head, text) = input.split_once('\n').unwrap_or(("", &input));
    let mut words = head.split_whitespace();
    let name = words.next().unwrap_or("");
    let index: usize = words.next().and_then(|k| k.parse().ok()).unwrap_or(0);
    let variants = crate::registry::variants();
    let vi = variants
        .iter()
        .position(|v| v.name() == name)
        .unwrap_or_else(|| hash(head.as_bytes()) as usize % variants.len());
    let v = variants[vi].as_ref();
    let table = &spots()[vi];
    let spot = &table[index % table.len()];
    let checked = v
        .check_action(&at(Some(&spot.position)), text)
        .unwrap_or_else(|e| panic!("{}: a known position is refused: {e}", v.name()));
    match checked {
        Ok(canonical) => {
            action_round_trip(v, &spot.position, &canonical, &spot.legal);
            fingerprint(&[v.name(), "legal"])
        }
        Err(e) => {
            bounded(&format!("{}: action", v.name()), &e.to_string());
            assert!(
                !spot.legal.iter().any(|a| a == text),
                "{}: the legal action '{text}' is refused: {e}",
                v.name()
            );
            fingerprint(&[v.name(), &e.code.to_string(), &e.message])
        }
    }
}

/// A game record as JSON (what `seams record` reads), replayed by its
/// variant when it names a shipped one.
///
/// Asserts: the record survives a serde round trip; a rejection names its
/// ply (0 for the header, one past the last action for the final data)
/// with a bounded message; an accepted record replays to the same result
/// through [`Variant::play`].
pub fn record(data: &[u8]) -> u64 {
    let text = String::from_utf8_lossy(data);
    let Ok(record) = serde_json::from_str::<Record>(&text) else {
        return fingerprint(&["unreadable"]);
    };
    let printed = serde_json::to_string(&record).expect("a record serializes");
    let back: Record = serde_json::from_str(&printed)
        .unwrap_or_else(|e| panic!("the printed record does not read back ({e}): {printed}"));
    assert_eq!(back, record, "the record changes in a serde round trip");
    let Some(v) = crate::registry::variants()
        .iter()
        .find(|v| v.name() == record.variant)
    else {
        return fingerprint(&["unknown variant"]);
    };
    match v.verify_record(&record) {
        RecordVerdict::Accepted { result, plies } => {
            assert!(plies <= record.actions.len(), "more plies than actions");
            let start = match &record.start {
                RecordStart::Initial => None,
                RecordStart::Edited { position } => Some(position.as_str()),
            };
            let replayed = v
                .play(&At {
                    position: start,
                    moves: &record.actions,
                })
                .unwrap_or_else(|e| panic!("an accepted record does not replay: {e}"));
            assert_eq!(replayed.result, result, "the replayed result differs");
            fingerprint(&[v.name(), "accepted"])
        }
        RecordVerdict::Rejected {
            ply,
            reason,
            illegal,
            message,
        } => {
            assert!(
                ply <= record.actions.len() + 1,
                "rejected at ply {ply} of {} actions",
                record.actions.len()
            );
            bounded("record verdict", &message);
            // The message names cells and plies of this game; the reason
            // and the illegal-action code say which path it took.
            fingerprint(&[v.name(), &format!("{reason:?} {illegal:?}")])
        }
    }
}

/// A position of the `action` target with its legal actions.
pub struct Spot {
    pub position: String,
    pub legal: Vec<String>,
}

/// Per registry variant (same order): the start, every corpus position of
/// that variant, and the positions along a fixed game of 12 plies, each
/// as canonical text with its legal actions. Built once.
pub fn spots() -> &'static [Vec<Spot>] {
    static SPOTS: OnceLock<Vec<Vec<Spot>>> = OnceLock::new();
    SPOTS.get_or_init(|| {
        let corpus = Corpus::builtin().expect("the built-in corpus loads");
        crate::registry::variants()
            .iter()
            .map(|v| {
                let v = v.as_ref();
                let mut texts = vec![v.start_position()];
                for (_, case) in &corpus.cases {
                    texts.extend(case_positions(&case.check, v.name()));
                }
                let mut moves = Vec::new();
                for ply in 0..12 {
                    let Ok(legal) = v.legal_actions(&At {
                        position: None,
                        moves: &moves,
                    }) else {
                        break;
                    };
                    if legal.is_empty() {
                        break;
                    }
                    moves.push(legal[(ply * 7 + 3) % legal.len()].clone());
                    if let Ok((text, _)) = v.reached(&At {
                        position: None,
                        moves: &moves,
                    }) {
                        texts.push(text);
                    }
                }
                let mut seen = BTreeSet::new();
                texts
                    .into_iter()
                    .filter_map(|t| v.reached(&at(Some(&t))).ok().map(|(t, _)| t))
                    .filter(|t| seen.insert(t.clone()))
                    .map(|position| Spot {
                        legal: v.legal_actions(&at(Some(&position))).unwrap_or_default(),
                        position,
                    })
                    .collect()
            })
            .collect()
    })
}

/// The position texts a corpus check names for `variant`.
pub fn case_positions(check: &Check, variant: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut take = |v: &str, p: &Option<String>| {
        if v == variant
            && let Some(p) = p
        {
            out.push(p.clone());
        }
    };
    match check {
        Check::LegalActions { variant: v, at, .. }
        | Check::Action { variant: v, at, .. }
        | Check::Perft { variant: v, at, .. } => take(v, &at.position),
        Check::Play {
            variant: v,
            at,
            expect,
        } => {
            take(v, &at.position);
            take(v, &expect.position);
        }
        Check::Keys {
            variant: v, a, b, ..
        } => {
            take(v, &a.position);
            take(v, &b.position);
        }
        Check::Record { record, .. } => {
            if let RecordStart::Edited { position } = &record.start {
                take(&record.variant, &Some(position.clone()));
            }
            take(&record.variant, &record.final_position);
        }
        _ => {}
    }
    out
}

/// Up to `n` items spread evenly over `items`.
fn spread<T>(items: &[T], n: usize) -> impl Iterator<Item = &T> {
    let step = items.len().div_ceil(n).max(1);
    items.iter().step_by(step)
}

/// The variant named by the first line, or one picked by its hash, and the
/// text after it.
fn pick_variant(input: &str) -> (&'static dyn Variant, &str) {
    let variants = crate::registry::variants();
    let (head, text) = input.split_once('\n').unwrap_or(("", input));
    let v = variants
        .iter()
        .find(|v| v.name() == head)
        .unwrap_or_else(|| &variants[hash(head.as_bytes()) as usize % variants.len()]);
    (v.as_ref(), text)
}

/// A parsed action at `position`: it is legal, its canonical text is
/// itself, and the position it reaches prints as a text that reads back.
fn action_round_trip(v: &dyn Variant, position: &str, canonical: &str, legal: &[String]) {
    let name = v.name();
    assert!(
        legal.iter().any(|a| a == canonical),
        "{name}: '{canonical}' is accepted at '{position}' but is not a legal action"
    );
    let here = at(Some(position));
    match v.check_action(&here, canonical) {
        Ok(Ok(again)) => assert_eq!(again, canonical, "{name}: canonical text changes"),
        other => panic!("{name}: canonical '{canonical}' at '{position}' gives {other:?}"),
    }
    let moves = [canonical.to_string()];
    let (after, key) = v
        .reached(&At {
            position: Some(position),
            moves: &moves,
        })
        .unwrap_or_else(|e| panic!("{name}: playing '{canonical}' at '{position}': {e}"));
    let (again, key_again) = v
        .reached(&at(Some(&after)))
        .unwrap_or_else(|e| panic!("{name}: '{after}' after '{canonical}' does not parse: {e}"));
    assert_eq!(
        again, after,
        "{name}: the position after '{canonical}' reads back differently"
    );
    assert_eq!(
        key_again, key,
        "{name}: the key after '{canonical}' changes when read back"
    );
}

fn position_error(v: &dyn Variant, e: &VariantError) -> u64 {
    let message = e.to_string();
    bounded(&format!("{}: position", v.name()), &message);
    match e {
        VariantError::Position(p) => {
            assert!(!p.field.trim().is_empty(), "no field named: {message}");
            fingerprint(&[v.name(), &p.field, &p.message])
        }
        other => panic!(
            "{}: a position text gives a non-position error: {other}",
            v.name()
        ),
    }
}
