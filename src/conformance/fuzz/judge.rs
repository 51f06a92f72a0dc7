//! Judging a game's pending questions: the engine's reply collected and
//! compared with the reference's answer kept beside it, keys judged by how
//! they group positions, a documented difference counted, and a
//! disagreement stopped on as a raw finding for the shrinker.
//!
//! Apart from the play loop (`game.rs`) because it decides what a reply
//! means, not which questions are asked.

use std::collections::VecDeque;

use super::ask::{self, Judged};
use super::game::{Asked, Ended, Game, Next, Path, Pending};
use super::tally::DocumentedIn;
use super::{Difference, Form, KeyPair, Question, Raw};
use crate::conformance::expectations::KnownDifference;
use crate::conformance::runner::OutcomeKind;

impl<'v> Game<'_, 'v> {
    /// Judges the oldest pending questions until at most `keep` wait;
    /// how the game ended, if a judgment ended it.
    pub(super) fn judge_all(
        &mut self,
        pending: &mut VecDeque<Pending>,
        path: &Path,
        keep: usize,
    ) -> Option<Ended> {
        while pending.len() > keep {
            let p = pending.pop_front()?;
            if let Next::End(e) = self.judge(p, path) {
                return Some(e);
            }
        }
        None
    }

    /// Collects the reply to a pending question and judges it. A question
    /// the engine has since answered `unsupported` is dropped unjudged, as
    /// if it had not been asked (its reply, if sent, is never read).
    fn judge(&mut self, p: Pending, path: &Path) -> Next {
        if !self.asks(p.q) {
            return Next::Go;
        }
        let reply = self.collect(p.q, p.posted);
        let found: Found = match &p.asked {
            Asked::Plies(n) => (&path.start, &path.moves[..*n]),
            Asked::From(start, moves) => (start, moves),
        };
        let next = match (p.expected, p.text) {
            (ask::Expected::Key(reference), Some(text)) => {
                self.judge_key(&reference, &text, reply, &found)
            }
            (expected, _) => {
                let judged = ask::judge(self.state.variant, &expected, reply);
                self.after(judged, p.q, p.form, &found)
            }
        };
        if p.closes && matches!(next, Next::Go) {
            self.tally.facts.positions += 1;
        }
        next
    }

    /// The status, with history where it matters: a repeated position
    /// from its first occurrence on, now and then the whole game.
    /// Judges a key by how it groups this position (`reference` its key,
    /// `text` its text) with earlier ones.
    fn judge_key(
        &mut self,
        reference: &str,
        text: &str,
        reply: Result<serde_json::Value, crate::conformance::engine::AskError>,
        whole: &Found,
    ) -> Next {
        let expected = ask::Expected::Key(reference.to_string());
        let key = match ask::read_key(reply, &expected) {
            Ok(k) => k,
            Err(judged) => return self.after(judged, Question::Key, Form::Text, whole),
        };
        let Some(conflict) = self.tally.keys.check(reference, &key, text) else {
            return Next::Go;
        };
        let detail = if conflict.same {
            format!(
                "the engine gives different keys to two positions the reference counts as the \
                 same: {} and {text}",
                conflict.other
            )
        } else {
            format!(
                "the engine gives one key to two positions the reference tells apart: {} and \
                 {text}",
                conflict.other
            )
        };
        let difference = Difference {
            kind: OutcomeKind::Fail,
            detail,
            missing: vec![],
            extra: vec![],
            reference: serde_json::json!({ "key": reference }),
            engine: serde_json::json!({ "key": key }),
        };
        let pair = KeyPair {
            a: conflict.other,
            b: text.to_string(),
            same: conflict.same,
        };
        self.found(Question::Key, Form::Text, whole, difference, Some(pair))
    }

    /// Acts on a judgment: go on, note an unsupported question, count a
    /// documented difference (and end the game, whose course the engine no
    /// longer follows), or stop with a finding about `found` (the start and
    /// the actions that lead to the question).
    fn after(&mut self, judged: Judged, q: Question, form: Form, found: &Found) -> Next {
        match judged {
            Judged::Same => Next::Go,
            Judged::Unsupported => {
                self.tally.facts.unsupported.push(q);
                Next::Go
            }
            Judged::Differs(d) => {
                // Past the deadline a timeout is the run's limit, not the
                // engine's fault.
                if d.kind == OutcomeKind::Timeout
                    && let Some(stop) = self.stop_requested()
                {
                    return Next::End(Ended::Stopped(stop));
                }
                if let Some(known) = self.opts.differences.iter().find(|k| {
                    k.covers(
                        q.command(),
                        self.state.variant.name(),
                        &d.reference,
                        &d.engine,
                    )
                }) {
                    self.document(q, known, found);
                    return Next::End(Ended::Played);
                }
                self.found(q, form, found, *d, None)
            }
        }
    }

    fn document(&mut self, q: Question, known: &KnownDifference, (start, moves): &Found) {
        self.tally.facts.documented = Some(DocumentedIn {
            question: q,
            note: known.note.clone(),
            example: format!(
                "game {} after [{}]{}",
                self.game,
                moves.join(" "),
                start
                    .as_deref()
                    .map(|s| format!(" from {s}"))
                    .unwrap_or_default()
            ),
        });
    }

    fn found(
        &mut self,
        q: Question,
        form: Form,
        (start, moves): &Found,
        difference: Difference,
        key_pair: Option<KeyPair>,
    ) -> Next {
        self.state.done = true;
        Next::End(Ended::Found(Box::new(Raw {
            variant: self.state.variant.name().to_string(),
            game: self.game,
            question: q,
            form,
            start: (*start).clone(),
            moves: moves.to_vec(),
            difference,
            key_pair,
        })))
    }
}

/// Where a finding is: the start and the actions played from it.
type Found<'p> = (&'p Option<String>, &'p [String]);
