//! Shrinking a disagreement to a short action sequence, and writing it as
//! a corpus case.
//!
//! A candidate is a sequence of actions from the game's start (and, for a
//! made-up start, the start with some pieces taken off). It still
//! disagrees when the reference can play it and the engine, asked the same
//! question in the same form at its end, again answers otherwise with the
//! same kind of outcome (a different answer, an error, a crash). Delta
//! debugging removes chunks of actions two plies at a time first, so that
//! the side to move stays the same, then single plies and pairs anywhere,
//! until no removal keeps the disagreement.

use serde_json::Value;

use super::ask::{self, Difference, Form, Judged, Question};
use super::play::Policy;
use super::rng::Rng;
use super::{Finding, Options, Raw};
use crate::conformance::case::{Case, Check, KeyRelation, Place, PlayExpect, Provenance};
use crate::conformance::engine::Engine;
use crate::conformance::runner::{self, OutcomeKind};
use crate::placement::Layout;
use crate::variant::{At, Variant};

/// The most questions one finding's shrinking may ask; each replays the
/// candidate in the reference and asks the engine once.
pub const MAX_SHRINK_TESTS: usize = 3000;
/// How many short random games look for a shorter way to a difference.
const SHORT_GAMES: usize = 200;

/// Shrinks a raw finding and writes its case.
pub(super) fn finish(
    engine: &mut dyn Engine,
    variant: &dyn Variant,
    raw: Raw,
    opts: &Options,
) -> Finding {
    let mut s = Shrinker {
        engine,
        variant,
        question: raw.question,
        want: raw.difference.kind,
        tests: 0,
        rng: Rng::for_game(opts.seed, variant.name(), raw.game, "shrink"),
        deadline: opts.deadline,
        stop: opts.stop,
        last: None,
    };
    let shrunk = match &raw.key_pair {
        // Two position texts: the case as they stand.
        Some(pair) => Shrunk {
            start: raw.start.clone(),
            actions: raw.moves.clone(),
            form: Form::Text,
            pieces_removed: 0,
            place: Place {
                position: Some(pair.b.clone()),
                moves: vec![],
            },
            position: pair.b.clone(),
            difference: raw.difference.clone(),
        },
        None => s.shrink(&raw),
    };
    let case = case_for(variant, &raw, &shrunk, opts);
    let case_reproduces = (!s.out_of_time()).then(|| {
        runner::check_case(s.engine, &case, &[variant])
            .kind()
            .is_failure()
    });
    Finding {
        variant: raw.variant.clone(),
        game: raw.game,
        ply: raw.moves.len(),
        question: raw.question,
        form: shrunk.form,
        start: shrunk.start,
        found_after: raw.moves.len(),
        actions: shrunk.actions,
        pieces_removed: shrunk.pieces_removed,
        position: shrunk.position,
        shrink_tests: s.tests,
        difference: shrunk.difference,
        case,
        case_reproduces,
        reproduce: None,
        written: None,
    }
}

/// A finding after shrinking.
struct Shrunk {
    start: Option<String>,
    actions: Vec<String>,
    form: Form,
    pieces_removed: usize,
    /// Where the question is asked, in the form chosen.
    place: Place,
    /// The text of the position asked about.
    position: String,
    difference: Difference,
}

struct Shrinker<'a> {
    engine: &'a mut dyn Engine,
    variant: &'a dyn Variant,
    question: Question,
    want: OutcomeKind,
    tests: usize,
    /// For the short games that look for a shorter way in.
    rng: Rng,
    /// The run's time limit and stop flag: shrinking ends with them.
    deadline: Option<std::time::Instant>,
    stop: Option<&'a std::sync::atomic::AtomicBool>,
    /// The last candidate that still disagreed, with its start: what is
    /// reported when time runs out before the end.
    last: Option<(Option<String>, Probe)>,
}

/// What a test of one candidate found.
#[derive(Clone)]
struct Probe {
    difference: Difference,
    place: Place,
    position: String,
    /// The candidate's actions that could be played, in order.
    played: Vec<String>,
}

impl Shrinker<'_> {
    fn shrink(&mut self, raw: &Raw) -> Shrunk {
        let mut start = raw.start.clone();
        let mut moves = raw.moves.clone();
        // A case reads best with its moves; keep the text form only when
        // the engine disagrees about the text and not about the moves.
        let mut form = raw.form;
        if form == Form::Text && self.probe(Form::Moves, &start, &moves).is_some() {
            form = Form::Moves;
        }
        let mut pieces_removed = 0;
        // Each test of a timeout could wait the whole reply time.
        if self.want != OutcomeKind::Timeout {
            moves = self.shrink_moves(form, &start, moves);
            if let Some(text) = &start
                && let Some((fewer, removed)) = self.shrink_pieces(form, text, &moves)
            {
                pieces_removed = removed;
                start = Some(fewer);
                moves = self.shrink_moves(form, &start, moves);
            }
            let focus = focus(&raw.difference);
            let shorter = self.shorter_game(form, &start, moves.len(), &focus);
            if let Some(shorter) = shorter {
                moves = self.shrink_moves(form, &start, shorter);
            }
        }
        let last = self
            .last
            .take()
            .filter(|(s, p)| s == &start && p.played == moves)
            .map(|(_, p)| p);
        match self.probe(form, &start, &moves).or(last) {
            Some(p) => Shrunk {
                start,
                actions: moves,
                form,
                pieces_removed,
                place: p.place,
                position: p.position,
                difference: p.difference,
            },
            // An engine that stops disagreeing (it answers differently
            // each time, or the test budget ran out): the game as found.
            None => {
                let (place, position) = place_of(
                    self.variant,
                    raw.form,
                    self.question,
                    &raw.start,
                    &raw.moves,
                );
                Shrunk {
                    start: raw.start.clone(),
                    actions: raw.moves.clone(),
                    form: raw.form,
                    pieces_removed: 0,
                    place,
                    position,
                    difference: raw.difference.clone(),
                }
            }
        }
    }

    /// Asks the question at the end of a candidate; `Some` when the engine
    /// still disagrees with the same kind of outcome.
    /// Whether the run's time is up or it was asked to stop.
    fn out_of_time(&self) -> bool {
        self.deadline
            .is_some_and(|d| std::time::Instant::now() >= d)
            || self
                .stop
                .is_some_and(|s| s.load(std::sync::atomic::Ordering::Relaxed))
    }

    fn probe(&mut self, form: Form, start: &Option<String>, moves: &[String]) -> Option<Probe> {
        if self.tests >= MAX_SHRINK_TESTS || self.out_of_time() {
            return None;
        }
        if self.question == Question::Apply && moves.is_empty() {
            return None;
        }
        // Lenient replay: an action the removals made illegal is skipped,
        // so that taking out one move does not throw away the rest.
        let mut walk = self.variant.walk(start.as_deref()).ok()?;
        let mut before = walk.position().to_string();
        let mut played = Vec::with_capacity(moves.len());
        for m in moves {
            let here = walk.position().to_string();
            if walk.play_text(m).is_ok() {
                before = here;
                played.push(m.clone());
            }
        }
        let moves = &played[..];
        if self.question == Question::Apply && moves.is_empty() {
            return None;
        }
        self.tests += 1;
        let place = match (form, self.question) {
            (Form::Moves, _) => Place {
                position: start.clone(),
                moves: moves.to_vec(),
            },
            (Form::Text, Question::Apply) => Place {
                position: if moves.len() == 1 {
                    start.clone()
                } else {
                    Some(before)
                },
                moves: moves[moves.len() - 1..].to_vec(),
            },
            (Form::Text, _) => Place {
                position: if moves.is_empty() {
                    start.clone()
                } else {
                    Some(walk.position().to_string())
                },
                moves: vec![],
            },
        };
        let reference = ask::reference_answer(self.question, &*walk, form == Form::Text);
        match ask::ask(
            self.engine,
            self.variant,
            self.question,
            place.clone(),
            &reference,
        ) {
            Judged::Differs(d) if d.kind == self.want => {
                let probe = Probe {
                    difference: *d,
                    place,
                    position: walk.position().to_string(),
                    played,
                };
                self.last = Some((start.clone(), probe.clone()));
                Some(probe)
            }
            _ => None,
        }
    }

    /// A game shorter than `than` actions from `start` that shows the
    /// difference, found by playing short random games with the fuzzing
    /// bias: removing actions cannot shorten a game whose later actions
    /// need its earlier ones, but another short game often gets there.
    /// Each game is cut at the best length found so far.
    fn shorter_game(
        &mut self,
        form: Form,
        start: &Option<String>,
        than: usize,
        focus: &[String],
    ) -> Option<Vec<String>> {
        let mut best: Option<Vec<String>> = None;
        for _ in 0..SHORT_GAMES {
            let limit = best.as_ref().map_or(than, Vec::len).saturating_sub(1);
            if limit == 0 || self.tests >= MAX_SHRINK_TESTS {
                break;
            }
            let mut walk = self.variant.walk(start.as_deref()).ok()?;
            let mut policy = Policy::new(false, &mut self.rng).focused(focus.to_vec());
            let mut moves = Vec::new();
            while moves.len() < limit && !walk.actions().is_empty() {
                let i = policy.choose(&*walk, &mut self.rng, &[]);
                moves.push(walk.actions()[i].clone());
                walk.play(i);
                if self.probe(form, start, &moves).is_some() {
                    best = Some(moves);
                    break;
                }
            }
        }
        best
    }

    fn shrink_moves(
        &mut self,
        form: Form,
        start: &Option<String>,
        moves: Vec<String>,
    ) -> Vec<String> {
        let mut test = |candidate: &[String]| self.probe(form, start, candidate).map(|p| p.played);
        let moves = ddmin(moves, 2, &mut test);
        one_minimal(moves, &mut test)
    }

    /// Takes pieces off a made-up start while the disagreement stays; the
    /// start as the reference writes it, and how many pieces went.
    fn shrink_pieces(
        &mut self,
        form: Form,
        start: &str,
        moves: &[String],
    ) -> Option<(String, usize)> {
        let layout = Layout::parse(start)?;
        let occupied = layout.occupied();
        let variant = self.variant;
        let text_without = |kept: &[usize]| {
            let gone: Vec<usize> = occupied
                .iter()
                .copied()
                .filter(|c| !kept.contains(c))
                .collect();
            layout.without(&gone).write()
        };
        let mut test = |kept: &[usize]| {
            let text = text_without(kept);
            self.probe(form, &Some(text), moves)
                .filter(|p| p.played.len() == moves.len())
                .map(|_| kept.to_vec())
        };
        let kept = ddmin(occupied.clone(), 1, &mut test);
        if kept.len() == occupied.len() {
            return None;
        }
        let text = text_without(&kept);
        let normal = ask::normal_position(variant, &text)?;
        Some((normal, occupied.len() - kept.len()))
    }
}

/// The cells the actions of a difference name (the missing and the extra
/// ones): short games aimed at them find a way in sooner.
fn focus(d: &Difference) -> Vec<String> {
    d.missing
        .iter()
        .chain(&d.extra)
        .flat_map(|a| {
            let (from, to) = crate::walk::cells(a);
            from.into_iter().chain([to])
        })
        .filter(|c| !c.is_empty())
        .map(String::from)
        .collect()
}

/// The place and position text of a question about the end of `moves`.
fn place_of(
    variant: &dyn Variant,
    form: Form,
    question: Question,
    start: &Option<String>,
    moves: &[String],
) -> (Place, String) {
    let position = |m: &[String]| {
        variant
            .reached(&At {
                position: start.as_deref(),
                moves: m,
            })
            .map(|(p, _)| p)
            .unwrap_or_default()
    };
    let end = position(moves);
    let place = match (form, question) {
        (Form::Moves, _) => Place {
            position: start.clone(),
            moves: moves.to_vec(),
        },
        (Form::Text, Question::Apply) if !moves.is_empty() => Place {
            position: if moves.len() == 1 {
                start.clone()
            } else {
                Some(position(&moves[..moves.len() - 1]))
            },
            moves: moves[moves.len() - 1..].to_vec(),
        },
        (Form::Text, _) => Place {
            position: if moves.is_empty() {
                start.clone()
            } else {
                Some(end.clone())
            },
            moves: vec![],
        },
    };
    (place, end)
}

/// What a shrinking test says of a candidate: `None` when it no longer
/// shows the difference, else what is left of it (a lenient replay may
/// drop more than was removed).
pub type Shrinks<'t, T> = &'t mut dyn FnMut(&[T]) -> Option<Vec<T>>;

/// Delta debugging (Zeller's ddmin, complements only): removes chunks of
/// `items`, taken `unit` at a time, while `test` still holds for what
/// is left. Removing whole units of two plies keeps the side to move of
/// every later action.
pub fn ddmin<T: Clone>(items: Vec<T>, unit: usize, test: Shrinks<T>) -> Vec<T> {
    let mut current = items;
    let mut parts = 2;
    loop {
        let units = current.len().div_ceil(unit);
        if units < 2 {
            return current;
        }
        let parts_now = parts.min(units);
        let per = units.div_ceil(parts_now) * unit;
        let mut removed = false;
        let mut at = 0;
        while at < current.len() {
            let end = (at + per).min(current.len());
            let candidate: Vec<T> = current[..at]
                .iter()
                .chain(&current[end..])
                .cloned()
                .collect();
            if let Some(left) = test(&candidate) {
                current = left;
                removed = true;
                break;
            }
            at = end;
        }
        if removed {
            parts = (parts_now - 1).max(2);
        } else if parts_now < units {
            parts = (parts_now * 2).min(units);
        } else {
            return current;
        }
    }
}

/// Sequences up to this long also try removing any two items at once
/// (a move of each side, far apart): about n²/2 more questions.
const PAIRS_UP_TO: usize = 24;

/// Removes single items, adjacent pairs and (in short sequences) any two
/// items while `test` holds, until no such removal does.
pub fn one_minimal<T: Clone>(items: Vec<T>, test: Shrinks<T>) -> Vec<T> {
    let mut current = items;
    loop {
        let n = current.len();
        let mut removals: Vec<(usize, usize)> = (0..n).map(|i| (i, i)).collect();
        removals.extend((0..n.saturating_sub(1)).map(|i| (i, i + 1)));
        if n <= PAIRS_UP_TO {
            removals.extend((0..n).flat_map(|i| (i + 2..n).map(move |j| (i, j))));
        }
        let found = removals.into_iter().find_map(|(i, j)| {
            let candidate: Vec<T> = current
                .iter()
                .enumerate()
                .filter(|&(k, _)| k != i && k != j)
                .map(|(_, x)| x.clone())
                .collect();
            test(&candidate)
        });
        match found {
            Some(c) => current = c,
            None => return current,
        }
    }
}

/// The finding as a corpus case: the reference's answer, provenance
/// `reference` marked NOT REVIEWED (which the shipped corpus refuses),
/// naming the seed, the game and the engine.
fn case_for(variant: &dyn Variant, raw: &Raw, shrunk: &Shrunk, opts: &Options) -> Case {
    let place = &shrunk.place;
    let difference = &shrunk.difference;
    let name = variant.name().to_string();
    let check = match (&raw.key_pair, raw.question) {
        (Some(pair), _) => Check::Keys {
            variant: name.clone(),
            a: Place {
                position: Some(pair.a.clone()),
                moves: vec![],
            },
            b: Place {
                position: Some(pair.b.clone()),
                moves: vec![],
            },
            expect: if pair.same {
                KeyRelation::Equal
            } else {
                KeyRelation::Different
            },
        },
        (None, Question::Key) => Check::Keys {
            variant: name.clone(),
            a: place.clone(),
            b: place.clone(),
            expect: KeyRelation::Equal,
        },
        (None, Question::LegalActions) => Check::LegalActions {
            variant: name.clone(),
            at: place.clone(),
            expect: strings(&difference.reference["actions"]),
        },
        (None, Question::Perft) => Check::Perft {
            variant: name.clone(),
            at: place.clone(),
            depth: ask::DIVIDE_DEPTH,
            expect: difference.reference["nodes"].as_u64().unwrap_or(0),
            divide: serde_json::from_value(difference.reference["divide"].clone()).ok(),
        },
        (None, Question::Apply | Question::Status) => {
            let played = variant.play(&At {
                position: place.position.as_deref(),
                moves: &place.moves,
            });
            let expect = match played {
                Ok(p) => PlayExpect {
                    position: Some(p.position),
                    in_check: Some(p.in_check),
                    result: p.result,
                },
                Err(_) => PlayExpect {
                    position: None,
                    in_check: None,
                    result: None,
                },
            };
            Check::Play {
                variant: name.clone(),
                at: place.clone(),
                expect,
            }
        }
    };
    let at = if place.moves.is_empty() {
        "this position".to_string()
    } else {
        place.moves.join(", ")
    };
    let mut case = Case {
        id: format!(
            "fuzz/{name}/seed-{}-game-{}-ply-{}",
            opts.seed,
            raw.game,
            raw.moves.len()
        ),
        title: format!(
            "The {} of {name} after {at} (found by seams fuzz)",
            match raw.question {
                Question::LegalActions => "legal actions",
                Question::Apply => "position after the last action",
                Question::Status => "status",
                Question::Key => "repetition keys",
                Question::Perft => "perft divide",
            }
        ),
        clauses: vec!["REVIEW: cite the clauses this position pins".into()],
        rules: None,
        capabilities: vec![check.capability().to_string()],
        provenance: Provenance::Reference {
            reviewed: format!(
                "{}: written by seams fuzz (seed {}, game {} of {name}) from the reference \
                 engine's answer, which the engine {} contradicted; check it by hand, cite the \
                 clauses, then say who reviewed it",
                crate::conformance::case::UNREVIEWED,
                opts.seed,
                raw.game,
                opts.engine_label
            ),
        },
        check,
    };
    case.id = crate::conformance::id::expected_id(&case);
    case
}

fn strings(v: &Value) -> Vec<String> {
    v.as_array()
        .map(|a| {
            a.iter()
                .filter_map(|x| x.as_str().map(String::from))
                .collect()
        })
        .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ddmin_finds_the_needed_items() {
        // Needs 3 and 17, and an even length (as a side to move would).
        let items: Vec<u32> = (0..40).collect();
        let mut tests = 0;
        let mut test = |c: &[u32]| {
            tests += 1;
            (c.contains(&3) && c.contains(&17) && c.len().is_multiple_of(2)).then(|| c.to_vec())
        };
        let out = one_minimal(ddmin(items, 2, &mut test), &mut test);
        assert!(out.contains(&3) && out.contains(&17));
        assert_eq!(out.len(), 2, "{out:?}");
        assert!(tests < 200, "{tests}");
    }

    #[test]
    fn ddmin_keeps_everything_when_nothing_can_go() {
        let items = vec![1, 2, 3];
        let mut test = |c: &[i32]| (c.len() == 3).then(|| c.to_vec());
        assert_eq!(ddmin(items.clone(), 1, &mut test), items);
        assert_eq!(one_minimal(items.clone(), &mut test), items);
    }
}
