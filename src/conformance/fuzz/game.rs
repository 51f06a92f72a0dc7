//! One game: how it starts, the play loop in which the reference plays
//! ahead and posts each position's questions with its own answers kept
//! beside them (`Pending`), and the status question's choice of history.
//!
//! Apart from the judging of replies (`judge.rs`), which only consumes
//! what this loop posts.

use std::collections::VecDeque;
use std::sync::atomic::Ordering;
use std::time::Instant;

use super::rng::Rng;
use super::state::{State, pool};
use super::tally::{GameEnd, GameFacts, Tally};
use super::{Form, Options, Question, Raw, StartKind, Stop, ask, edit, play, seed};
use crate::conformance::case::Place;
use crate::conformance::engine::{Engine, Posted};
use crate::variant::Variant;
use crate::walk::{EnPassant, Walk};

/// A divide is asked at one position in this many (it costs about one
/// move generation per legal action, on both sides).
const DIVIDE_ONE_IN: u32 = 64;
/// The status is asked with every action since the game's start at one
/// position in this many, and at one game's end in `END_HISTORY_ONE_IN`:
/// replaying a whole game costs the engine a move generation per action.
/// A repeated position is asked from its first occurrence on, which the
/// repetition rules need and no more.
const HISTORY_ONE_IN: u32 = 64;
const END_HISTORY_ONE_IN: u32 = 4;

pub(super) enum Ended {
    Played,
    Found(Box<Raw>),
    Stopped(Stop),
}

/// One game being played and asked about.
pub(super) struct Game<'a, 'v> {
    pub(super) engine: &'a mut dyn Engine,
    pub(super) state: &'a mut State<'v>,
    pub(super) opts: &'a Options<'a>,
    pub(super) game: u32,
    /// What this game adds and remembers; nothing of it outlives the game
    /// but its facts.
    pub(super) tally: Tally,
}

/// What a question's judgment means for the game.
pub(super) enum Next {
    Go,
    End(Ended),
}

/// How a game begins: its kind, its start (`None`: the initial
/// position) as a walk, and the actions it plays first.
struct Start<'v> {
    kind: StartKind,
    text: Option<String>,
    walk: Box<dyn Walk + 'v>,
    plan: Vec<String>,
}

/// A game so far: its start, every position's text and every action.
pub(super) struct Path {
    /// The start as given (`None`: the initial position).
    pub(super) start: Option<String>,
    /// The text of every position, the start's first.
    texts: Vec<String>,
    pub(super) moves: Vec<String>,
}

impl Path {
    /// The place of the current position as a text; at the start, the
    /// start as given, so the initial position is asked as the engine's own.
    fn here(&self) -> Place {
        Place {
            position: if self.moves.is_empty() {
                self.start.clone()
            } else {
                self.texts.last().cloned()
            },
            moves: Vec::new(),
        }
    }

    /// The current position as the position `from` plies in and the actions
    /// since.
    fn since(&self, from: usize) -> Place {
        Place {
            position: if from == 0 {
                self.start.clone()
            } else {
                Some(self.texts[from].clone())
            },
            moves: self.moves[from..].to_vec(),
        }
    }
}

impl<'a, 'v> Game<'a, 'v> {
    pub(super) fn new(
        engine: &'a mut dyn Engine,
        state: &'a mut State<'v>,
        opts: &'a Options<'a>,
        game: u32,
    ) -> Game<'a, 'v> {
        Game {
            engine,
            state,
            opts,
            game,
            tally: Tally::new(game),
        }
    }

    /// The game's facts, once it has ended so.
    pub(super) fn finish(self, ended: &Ended) -> GameFacts {
        self.tally.finish(match ended {
            Ended::Played => GameEnd::Played,
            Ended::Found(_) => GameEnd::Found,
            Ended::Stopped(_) => GameEnd::Stopped,
        })
    }

    /// Whether the engine is asked `q`: declared, and not answered
    /// `unsupported` earlier in this game.
    pub(super) fn asks(&self, q: Question) -> bool {
        self.state.questions.contains(&q) && !self.tally.facts.unsupported.contains(&q)
    }

    /// Plays one game. The reference plays ahead of the engine's replies:
    /// each position's questions are posted with the reference's answers
    /// kept beside them, and judged in the order posted once [`LAG`]
    /// questions wait. An engine that declares `pipelining` thus works
    /// while the reference plays on, and is woken once per batch rather
    /// than once per question; any other is asked as each is judged.
    pub(super) fn play(&mut self) -> Ended {
        let variant = self.state.variant;
        let name = variant.name().to_string();
        let mut rng = Rng::for_game(self.opts.seed, &name, self.game, "game");
        // Which questions to ask with history or divide is drawn apart, so
        // that the games are the same whatever an engine declares.
        let mut asking = Rng::for_game(self.opts.seed, &name, self.game, "questions");
        let Start {
            kind,
            text: start,
            mut walk,
            plan,
        } = self.start(&mut rng);
        self.tally.facts.start = kind;
        let mut policy = play::Policy::new(kind == StartKind::Hunting, &mut rng).planned(plan);
        let mut path = Path {
            start,
            texts: vec![walk.position().to_string()],
            moves: Vec::new(),
        };
        let mut pending = VecDeque::new();
        loop {
            if let Some(stop) = self.stop_requested() {
                return Ended::Stopped(stop);
            }
            let over = walk.result().is_some()
                || walk.actions().is_empty()
                || path.moves.len() >= self.opts.plies as usize;
            let here = path.here();
            let plies = path.moves.len();
            let before = pending.len();
            let mut post = |game: &mut Self, q: Question, place: Place, form, asked| {
                if let Some(posted) = game.post(q, place) {
                    pending.push_back(Pending {
                        q,
                        posted,
                        expected: ask::reference_answer(q, &*walk, form == Form::Text),
                        form,
                        asked,
                        text: (q == Question::Key).then(|| walk.position().to_string()),
                        closes: false,
                    });
                }
            };
            post(
                self,
                Question::LegalActions,
                here.clone(),
                Form::Text,
                Asked::Plies(plies),
            );
            let (place, form, asked) = status_question(&*walk, &path, &mut asking);
            post(self, Question::Status, place, form, asked);
            post(
                self,
                Question::Key,
                here.clone(),
                Form::Text,
                Asked::Plies(plies),
            );
            if self.asks(Question::Perft) && asking.one_in(DIVIDE_ONE_IN) {
                post(self, Question::Perft, here, Form::Text, Asked::Plies(plies));
            }
            // The position counts as compared once its last question is
            // judged the same.
            let asked_any = pending.len() > before;
            match pending.back_mut() {
                Some(last) if asked_any => last.closes = true,
                _ => self.tally.facts.positions += 1,
            }

            let mut en_passant = Vec::new();
            if self.state.en_passant && policy.en_passant_possible() {
                en_passant = en_passant_captures(&*walk);
            }
            self.tally
                .thin
                .observe(&*walk, &en_passant, self.state.castling);
            if over {
                return self
                    .judge_all(&mut pending, &path, 0)
                    .unwrap_or(Ended::Played);
            }
            let i = policy.choose(&*walk, &mut rng, &en_passant);
            path.moves.push(walk.actions()[i].clone());
            walk.play(i);
            path.texts.push(walk.position().to_string());
            let place = path.since(path.moves.len() - 1);
            if let Some(posted) = self.post(Question::Apply, place) {
                pending.push_back(Pending {
                    q: Question::Apply,
                    posted,
                    expected: ask::reference_answer(Question::Apply, &*walk, true),
                    form: Form::Text,
                    asked: Asked::Plies(path.moves.len()),
                    text: None,
                    closes: false,
                });
            }
            if let Some(ended) = self.judge_all(&mut pending, &path, LAG) {
                return ended;
            }
        }
    }

    /// Posts `q` if the engine is asked it.
    fn post(&mut self, q: Question, place: Place) -> Option<Posted> {
        self.asks(q).then(|| {
            self.engine
                .post(ask::command(q, self.state.variant.name(), place))
        })
    }

    /// The reply to a posted question, counted as asked.
    pub(super) fn collect(
        &mut self,
        q: Question,
        posted: Posted,
    ) -> Result<serde_json::Value, crate::conformance::engine::AskError> {
        *self.tally.facts.asked.entry(q).or_default() += 1;
        self.engine.collect(posted)
    }

    /// The game's start: mostly the initial position; some thinned, some
    /// hunting perpetual checks, some seeded toward a thin spot (with the
    /// actions that lead into it), and with `edited` some made up.
    fn start(&mut self, rng: &mut Rng) -> Start<'v> {
        let roll = rng.below(100);
        let variant: &'v dyn Variant = self.state.variant;
        let seeded = |rng: &mut Rng| {
            let aim = match (self.state.en_passant, rng.below(100)) {
                (true, 0..35) => seed::Aim::EnPassantByReversed,
                (true, 35..70) => seed::Aim::EnPassantAgainstReversed,
                _ => seed::Aim::NoLegalAction,
            };
            (StartKind::Seeded, aim)
        };
        let (kind, aim) = match (self.opts.edited, roll) {
            (false, 0..35) | (true, 0..25) => (StartKind::Initial, None),
            (false, 35..50) | (true, 25..35) => (StartKind::Thinned, None),
            (false, 50..80) | (true, 35..55) => (StartKind::Hunting, None),
            (false, _) | (true, 55..70) => {
                let (k, a) = seeded(rng);
                (k, Some(a))
            }
            (true, _) => (StartKind::Edited, None),
        };
        let accepted = |text: String| variant.walk(Some(&text)).ok().map(|w| (text, w, vec![]));
        let made = match kind {
            StartKind::Edited => (0..edit::ATTEMPTS).find_map(|_| {
                let pool = self
                    .state
                    .pool
                    .get_or_init(|| pool(variant, self.state.seed));
                let base = &pool[rng.below(pool.len())];
                edit::made_up(base, rng).and_then(accepted)
            }),
            StartKind::Thinned => (0..edit::ATTEMPTS)
                .find_map(|_| edit::thinned(&variant.start_position(), rng).and_then(accepted)),
            StartKind::Hunting if rng.percent(50) => (0..edit::ATTEMPTS)
                .find_map(|_| edit::thinned(&variant.start_position(), rng).and_then(accepted)),
            StartKind::Seeded => aim
                .and_then(|aim| seed::seek(variant, aim, rng))
                .and_then(|s| {
                    let (text, walk, _) = accepted(s.start)?;
                    Some((text, walk, s.plan))
                }),
            _ => None,
        };
        match made {
            Some((text, walk, plan)) => Start {
                kind,
                text: Some(text),
                walk,
                plan,
            },
            // The initial position, asked for or because no made-up
            // position was found.
            None => Start {
                kind: if kind == StartKind::Hunting {
                    kind
                } else {
                    StartKind::Initial
                },
                text: None,
                walk: variant
                    .walk(None)
                    .expect("the initial position needs no reading"),
                plan: vec![],
            },
        }
    }

    pub(super) fn stop_requested(&self) -> Option<Stop> {
        if self.opts.stop.is_some_and(|s| s.load(Ordering::Relaxed)) {
            return Some(Stop::Interrupted);
        }
        if self.opts.deadline.is_some_and(|d| Instant::now() >= d) {
            return Some(Stop::MaxTime);
        }
        self.engine.dead().map(|reason| Stop::EngineDead { reason })
    }
}

/// How many questions may wait to be judged while the reference plays on.
/// Enough for an engine that declares `pipelining` to answer a dozen
/// positions per wake-up; few enough that a finding is judged soon after
/// it is asked.
const LAG: usize = 48;

/// A question posted and not yet judged, with what judging it needs.
pub(super) struct Pending {
    pub(super) q: Question,
    pub(super) posted: Posted,
    /// The reference's answer, made when the question was posted.
    pub(super) expected: ask::Expected,
    pub(super) form: Form,
    pub(super) asked: Asked,
    /// For `key`: the position's text, to show which positions a key
    /// confuses.
    pub(super) text: Option<String>,
    /// The last question about its position: judging it the same counts
    /// the position as compared.
    pub(super) closes: bool,
}

/// What a question was asked after: the game's first so many actions, or
/// a start and actions of its own (a status asked with history).
pub(super) enum Asked {
    Plies(usize),
    From(Option<String>, Vec<String>),
}

/// The status question: mostly about the position text; now and then, and
/// whenever the position has occurred before, as the actions since the
/// start or since its first occurrence, so that results that depend on
/// history are asked where the engine can know them.
fn status_question(walk: &dyn Walk, path: &Path, asking: &mut Rng) -> (Place, Form, Asked) {
    let from = if path.moves.is_empty() {
        None
    } else if asking.one_in(HISTORY_ONE_IN)
        || (walk.result().is_some() && asking.one_in(END_HISTORY_ONE_IN))
    {
        Some(0)
    } else if walk.occurrences() > 1 {
        Some(walk.first_occurrence())
    } else {
        None
    };
    match from {
        Some(from) => {
            let place = path.since(from);
            let asked = Asked::From(place.position.clone(), place.moves.clone());
            (place, Form::Moves, asked)
        }
        None => (path.here(), Form::Text, Asked::Plies(path.moves.len())),
    }
}

/// The en-passant captures among the walk's legal actions.
fn en_passant_captures(walk: &dyn Walk) -> Vec<(usize, EnPassant)> {
    (0..walk.actions().len())
        .filter_map(|i| walk.en_passant(i).map(|e| (i, e)))
        .collect()
}
