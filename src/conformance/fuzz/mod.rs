//! Differential testing (`seams fuzz`): seeded random games in which an
//! engine is asked, at every position, what the reference knows.
//!
//! The reference plays `games` random games of up to `plies` plies per
//! variant, choosing actions with a bias toward what breaks engines
//! ([`play`]). At every position the engine is asked the questions its
//! `hello` declares ([`ask`]): the legal action set, the status (side to
//! move, check, result, position), the position after the chosen action,
//! the repetition key (judged only by how keys group positions, so an
//! engine may write keys its own way), and now and then perft divide at
//! depth 2. Positions are sent as text, so a question costs the engine one
//! position to read, not a game to replay; the status is asked with the
//! game's actions when history matters (a repeated position, the game's
//! end, and one position in sixteen at random).
//!
//! Games are interleaved across variants (game 1 of every variant, then
//! game 2, …), so a mistake in any variant shows early. Besides games from
//! the initial position, some start from it with pieces taken off, some
//! hunt for perpetual checks, and with `edited` some start from made-up
//! positions ([`edit`]). Each game has its own random stream, derived from
//! the seed, the variant and the game's number, so a run is reproduced by
//! its seed, and one game by `--variant` and `--games`.
//!
//! On a disagreement the game stops; the action sequence is shrunk by
//! delta debugging to a short one that still disagrees ([`shrink`]), and
//! the finding carries a ready-made corpus case. A disagreement that an
//! expectations file documents ([`KnownDifference`]) ends its game and is
//! counted instead. Thin spots ([`thin`]) are counted along the way.
//!
//! Rule code does no I/O: the engine is any [`Engine`], progress goes to a
//! callback, and the command line (`src/cli/fuzz.rs`) writes the files.

pub mod ask;
mod edit;
mod play;
pub mod report;
pub mod rng;
mod seed;
mod shrink;
pub mod thin;

use std::cell::OnceCell;
use std::collections::{BTreeMap, VecDeque};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use serde::Serialize;

pub use ask::{Difference, Form, Question};
pub use thin::Spot;

use super::case::{Case, Place};
use super::engine::{Engine, Posted};
use super::expectations::KnownDifference;
use super::protocol::Hello;
use super::runner::OutcomeKind;
use crate::variant::Variant;
use crate::walk::{EnPassant, Walk};
use ask::{Judged, KeyGroups};
use rng::Rng;

/// The most games per variant a run may ask for.
pub const MAX_GAMES: u32 = 1_000_000;
/// The most plies a game may last.
pub const MAX_PLIES: u32 = 10_000;
/// The default number of games per variant.
pub const DEFAULT_GAMES: u32 = 200;
/// The default longest game.
pub const DEFAULT_PLIES: u32 = 120;
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

/// What a run does.
pub struct Options<'a> {
    pub games: u32,
    pub plies: u32,
    pub seed: u64,
    /// Also start games from made-up positions.
    pub edited: bool,
    /// After a finding, go on with the other variants.
    pub keep_going: bool,
    /// No game goes on past this instant (`--max-time`).
    pub deadline: Option<Instant>,
    /// Set from outside (Ctrl-C) to stop at the next position.
    pub stop: Option<&'a AtomicBool>,
    /// Documented differences (`--expect`).
    pub differences: &'a [KnownDifference],
    /// How the engine is named in the provenance of written cases.
    pub engine_label: String,
}

/// Why a run cannot start.
#[derive(Debug, thiserror::Error)]
pub enum FuzzError {
    #[error("--games must be between 1 and {MAX_GAMES}, not {0}")]
    Games(u32),
    #[error("--plies must be between 1 and {MAX_PLIES}, not {0}")]
    Plies(u32),
    #[error(
        "the engine '{0}' declares none of the questions seams fuzz asks: its hello lists \
         none of the commands legal_actions, apply, status, key, perft with its capability"
    )]
    NoQuestion(String),
    #[error("{0}")]
    Variant(#[from] crate::variant::VariantError),
    #[error("the engine does not play the variant '{variant}' ({reason})")]
    NotPlayed { variant: String, reason: String },
    #[error("the engine plays no variant the reference knows under the same rules version{0}")]
    NothingToPlay(String),
}

/// What a run will play: the variants and the questions.
pub struct Plan<'v> {
    pub variants: Vec<&'v dyn Variant>,
    pub questions: Vec<Question>,
    /// Variants left out, and why.
    pub skipped: Vec<Skipped>,
}

#[derive(Clone, Debug, Serialize)]
pub struct Skipped {
    pub variant: String,
    pub reason: String,
}

/// Checks the options and picks the variants: `wanted` (every name must be
/// one the reference knows and the engine plays under the same rules
/// version), or every variant the engine plays that way.
pub fn plan<'v>(
    hello: &Hello,
    reference: &[&'v dyn Variant],
    wanted: &[String],
    opts: &Options,
) -> Result<Plan<'v>, FuzzError> {
    check_counts(opts.games, opts.plies)?;
    let questions = ask::declared(hello);
    if questions.is_empty() {
        return Err(FuzzError::NoQuestion(hello.name.clone()));
    }
    let why_not = |v: &dyn Variant| match hello.variants.iter().find(|x| x.name == v.name()) {
        None => Some("it is not in the engine's hello".to_string()),
        Some(x) if x.rules != v.rules_version() => Some(format!(
            "the engine implements rules {}, the reference {}",
            x.rules,
            v.rules_version()
        )),
        Some(_) => None,
    };
    let mut variants = Vec::new();
    let mut skipped = Vec::new();
    if wanted.is_empty() {
        for &v in reference {
            match why_not(v) {
                None => variants.push(v),
                Some(reason) if hello.variants.iter().any(|x| x.name == v.name()) => {
                    skipped.push(Skipped {
                        variant: v.name().to_string(),
                        reason,
                    })
                }
                Some(_) => {}
            }
        }
        if variants.is_empty() {
            let list: Vec<String> = skipped
                .iter()
                .map(|s| format!("{}: {}", s.variant, s.reason))
                .collect();
            return Err(FuzzError::NothingToPlay(if list.is_empty() {
                String::new()
            } else {
                format!(" ({})", list.join("; "))
            }));
        }
    } else {
        for name in wanted {
            let v = crate::variant::find_in(reference, name)?;
            if let Some(reason) = why_not(v) {
                return Err(FuzzError::NotPlayed {
                    variant: name.clone(),
                    reason,
                });
            }
            if !variants.iter().any(|x: &&dyn Variant| x.name() == v.name()) {
                variants.push(v);
            }
        }
    }
    Ok(Plan {
        variants,
        questions,
        skipped,
    })
}

/// Checks the number of games and plies against their bounds.
pub fn check_counts(games: u32, plies: u32) -> Result<(), FuzzError> {
    if !(1..=MAX_GAMES).contains(&games) {
        return Err(FuzzError::Games(games));
    }
    if !(1..=MAX_PLIES).contains(&plies) {
        return Err(FuzzError::Plies(plies));
    }
    Ok(())
}

/// How a game began.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum StartKind {
    /// The variant's initial position.
    Initial,
    /// The initial position with some pieces taken off.
    Thinned,
    /// Hunting perpetual checks (from an initial or thinned start).
    Hunting,
    /// Made up one or two actions away from a thin spot (no legal action
    /// without check; en passant by or against a reversed pawn).
    Seeded,
    /// A made-up position (`edited`).
    Edited,
}

/// Why a run ended.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", rename_all = "kebab-case")]
pub enum Stop {
    /// Every game was played.
    Completed,
    /// A disagreement was found (without `keep_going`).
    Found,
    /// The time limit was reached.
    MaxTime,
    /// Stopped from outside (Ctrl-C).
    Interrupted,
    /// The engine crashed or timed out too often in a row.
    EngineDead { reason: String },
}

/// A documented difference met, and how often.
#[derive(Clone, Debug, Serialize)]
pub struct Documented {
    pub question: Question,
    pub note: String,
    pub count: u64,
    /// Where it was first met.
    pub example: String,
}

/// One thin spot's count in one variant.
#[derive(Clone, Debug, Serialize)]
pub struct ThinCount {
    pub spot: Spot,
    pub count: usize,
    /// The count a default run should reach here, if the spot applies.
    pub target: Option<usize>,
}

/// What happened in one variant.
#[derive(Clone, Debug, Serialize)]
pub struct VariantRun {
    pub variant: String,
    pub games: u32,
    pub positions: u64,
    /// Questions asked, by kind.
    pub asked: BTreeMap<Question, u64>,
    pub starts: BTreeMap<StartKind, u32>,
    pub documented: Vec<Documented>,
    /// Questions the engine answered `unsupported` here (not asked again).
    pub unsupported: Vec<Question>,
    pub thin: Vec<ThinCount>,
}

/// A disagreement, shrunk, with the corpus case that asks it.
#[derive(Clone, Debug, Serialize)]
pub struct Finding {
    pub variant: String,
    /// The game (from 0) and the position in it (its number of actions).
    pub game: u32,
    pub ply: usize,
    pub question: Question,
    /// How the question is put in the case: a position text or the moves.
    pub form: Form,
    /// The game's start: `None` for the initial position.
    pub start: Option<String>,
    /// Actions played before the question when it was found.
    pub found_after: usize,
    /// The shrunk action sequence from the start.
    pub actions: Vec<String>,
    /// Pieces taken off an edited start while shrinking.
    pub pieces_removed: usize,
    /// The position asked about, after the shrunk sequence.
    pub position: String,
    /// Questions asked while shrinking.
    pub shrink_tests: usize,
    pub difference: Difference,
    /// The ready-made corpus case (provenance `reference`, NOT REVIEWED).
    pub case: Case,
    /// Whether the engine fails the case as written (a difference in
    /// `apply`, which no check kind asks, may not show in `status`);
    /// `None` when the run's time was up before it could be asked. A run
    /// stopped while shrinking reports the shortest sequence that still
    /// disagreed.
    pub case_reproduces: Option<bool>,
}

/// The whole run.
#[derive(Clone, Debug, Serialize)]
pub struct Run {
    pub seed: u64,
    pub games: u32,
    pub plies: u32,
    pub edited: bool,
    pub questions: Vec<Question>,
    pub variants: Vec<VariantRun>,
    pub skipped: Vec<Skipped>,
    pub findings: Vec<Finding>,
    pub stopped: Stop,
    pub elapsed_seconds: f64,
    pub positions: u64,
    pub positions_per_second: f64,
}

/// Progress, reported after every game.
pub struct Progress {
    pub games_done: u64,
    pub games_total: u64,
    pub positions: u64,
    pub elapsed: Duration,
}

/// Plays the run against `engine` (see the module documentation).
pub fn run(
    engine: &mut dyn Engine,
    plan: &Plan,
    opts: &Options,
    progress: &mut dyn FnMut(&Progress),
) -> Run {
    let began = Instant::now();
    engine.set_deadline(opts.deadline);
    let mut states: Vec<State> = plan
        .variants
        .iter()
        .map(|&v| State::new(v, &plan.questions, opts.seed))
        .collect();
    let mut findings = Vec::new();
    let mut stopped = Stop::Completed;
    let games_total = u64::from(opts.games) * states.len() as u64;
    let mut games_done = 0;
    'run: for game in 0..opts.games {
        for k in 0..states.len() {
            if states[k].done {
                continue;
            }
            let variant = states[k].variant;
            let ended = Game {
                engine: &mut *engine,
                state: &mut states[k],
                opts,
                game,
            }
            .play();
            match ended {
                Ended::Played => {}
                Ended::Found(raw) => {
                    findings.push(shrink::finish(engine, variant, *raw, opts));
                    if !opts.keep_going {
                        stopped = Stop::Found;
                        break 'run;
                    }
                }
                Ended::Stopped(why) => {
                    stopped = why;
                    break 'run;
                }
            }
            games_done += 1;
            progress(&Progress {
                games_done,
                games_total,
                positions: states.iter().map(|s| s.positions).sum(),
                elapsed: began.elapsed(),
            });
        }
        if states.iter().all(|s| s.done) {
            break;
        }
    }
    let positions: u64 = states.iter().map(|s| s.positions).sum();
    let elapsed = began.elapsed().as_secs_f64();
    Run {
        seed: opts.seed,
        games: opts.games,
        plies: opts.plies,
        edited: opts.edited,
        questions: plan.questions.clone(),
        variants: states.iter().map(State::summary).collect(),
        skipped: plan.skipped.clone(),
        findings,
        stopped,
        elapsed_seconds: elapsed,
        positions,
        positions_per_second: if elapsed > 0.0 {
            positions as f64 / elapsed
        } else {
            0.0
        },
    }
}

/// One variant's state across its games.
struct State<'v> {
    variant: &'v dyn Variant,
    questions: Vec<Question>,
    en_passant: bool,
    castling: bool,
    games: u32,
    positions: u64,
    asked: BTreeMap<Question, u64>,
    starts: BTreeMap<StartKind, u32>,
    documented: Vec<Documented>,
    unsupported: Vec<Question>,
    keys: KeyGroups,
    thin: thin::Counter,
    /// Positions from reference-only games, bases for made-up positions:
    /// played when the first made-up start is, since only `edited` runs
    /// make any (the games cost as much as the first few of a run).
    pool: OnceCell<Vec<String>>,
    seed: u64,
    /// A finding was made here (with `keep_going`, its games stop).
    done: bool,
}

/// How many positions the pool of bases for made-up positions holds.
const POOL: usize = 24;

impl<'v> State<'v> {
    fn new(variant: &'v dyn Variant, questions: &[Question], seed: u64) -> State<'v> {
        State {
            variant,
            questions: questions.to_vec(),
            en_passant: variant.capabilities().contains(&"en-passant"),
            castling: variant.capabilities().contains(&"castling"),
            games: 0,
            positions: 0,
            asked: BTreeMap::new(),
            starts: BTreeMap::new(),
            documented: Vec::new(),
            unsupported: Vec::new(),
            keys: KeyGroups::default(),
            thin: thin::Counter::default(),
            pool: OnceCell::new(),
            seed,
            done: false,
        }
    }

    fn asks(&self, q: Question) -> bool {
        self.questions.contains(&q) && !self.unsupported.contains(&q)
    }

    fn summary(&self) -> VariantRun {
        let name = self.variant.name();
        VariantRun {
            variant: name.to_string(),
            games: self.games,
            positions: self.positions,
            asked: self.asked.clone(),
            starts: self.starts.clone(),
            documented: self.documented.clone(),
            unsupported: self.unsupported.clone(),
            thin: Spot::ALL
                .iter()
                .map(|&spot| ThinCount {
                    spot,
                    count: self.thin.count(spot),
                    target: spot.target_in(name).then_some(thin::TARGET),
                })
                .collect(),
        }
    }
}

/// Positions from a few games the reference plays alone, at random plies:
/// bases with realistic hands and rights for made-up positions, the same
/// whatever engine is asked.
fn pool(variant: &dyn Variant, seed: u64) -> Vec<String> {
    let mut out = vec![variant.start_position()];
    for g in 0..4 {
        let mut rng = Rng::for_game(seed, variant.name(), g, "pool");
        let Ok(mut walk) = variant.walk(None) else {
            break;
        };
        let mut policy = play::Policy::new(false, &mut rng);
        for _ in 0..rng.between(10, 80) {
            if walk.actions().is_empty() || walk.result().is_some() {
                break;
            }
            let i = policy.choose(&*walk, &mut rng, &[]);
            walk.play(i);
            if out.len() < POOL && rng.one_in(8) {
                out.push(walk.position().to_string());
            }
        }
    }
    out
}

/// A disagreement as found, before shrinking.
pub(crate) struct Raw {
    variant: String,
    game: u32,
    question: Question,
    form: Form,
    start: Option<String>,
    /// Actions from the start to the position asked about (for `apply`,
    /// the applied action last).
    moves: Vec<String>,
    difference: Difference,
    /// For a key conflict: the two positions.
    key_pair: Option<KeyPair>,
}

/// Two positions whose keys group differently: `a` met first, `b` now.
pub(crate) struct KeyPair {
    a: String,
    b: String,
    /// Whether the reference counts the two as the same position.
    same: bool,
}

enum Ended {
    Played,
    Found(Box<Raw>),
    Stopped(Stop),
}

/// One game being played and asked about.
struct Game<'a, 'v> {
    engine: &'a mut dyn Engine,
    state: &'a mut State<'v>,
    opts: &'a Options<'a>,
    game: u32,
}

/// What a question's judgment means for the game.
enum Next {
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
struct Path {
    /// The start as given (`None`: the initial position).
    start: Option<String>,
    /// The text of every position, the start's first.
    texts: Vec<String>,
    moves: Vec<String>,
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

impl<'v> Game<'_, 'v> {
    /// Plays one game. The reference plays ahead of the engine's replies:
    /// each position's questions are posted with the reference's answers
    /// kept beside them, and judged in the order posted once [`LAG`]
    /// questions wait. An engine that declares `pipelining` thus works
    /// while the reference plays on, and is woken once per batch rather
    /// than once per question; any other is asked as each is judged.
    fn play(&mut self) -> Ended {
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
        *self.state.starts.entry(kind).or_default() += 1;
        self.state.games += 1;
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
            if self.state.asks(Question::Perft) && asking.one_in(DIVIDE_ONE_IN) {
                post(self, Question::Perft, here, Form::Text, Asked::Plies(plies));
            }
            // The position counts as compared once its last question is
            // judged the same.
            let asked_any = pending.len() > before;
            match pending.back_mut() {
                Some(last) if asked_any => last.closes = true,
                _ => self.state.positions += 1,
            }

            let mut en_passant = Vec::new();
            if self.state.en_passant && policy.en_passant_possible() {
                en_passant = en_passant_captures(&*walk);
            }
            self.state
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

    /// Judges the oldest pending questions until at most `keep` wait;
    /// how the game ended, if a judgment ended it.
    fn judge_all(
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
        if !self.state.asks(p.q) {
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
            self.state.positions += 1;
        }
        next
    }

    /// Posts `q` if the engine is asked it.
    fn post(&mut self, q: Question, place: Place) -> Option<Posted> {
        self.state.asks(q).then(|| {
            self.engine
                .post(ask::command(q, self.state.variant.name(), place))
        })
    }

    /// The reply to a posted question, counted as asked.
    fn collect(
        &mut self,
        q: Question,
        posted: Posted,
    ) -> Result<serde_json::Value, crate::conformance::engine::AskError> {
        *self.state.asked.entry(q).or_default() += 1;
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

    fn stop_requested(&self) -> Option<Stop> {
        if self.opts.stop.is_some_and(|s| s.load(Ordering::Relaxed)) {
            return Some(Stop::Interrupted);
        }
        if self.opts.deadline.is_some_and(|d| Instant::now() >= d) {
            return Some(Stop::MaxTime);
        }
        self.engine.dead().map(|reason| Stop::EngineDead { reason })
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
        let Some(conflict) = self.state.keys.check(reference, &key, text) else {
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
                self.state.unsupported.push(q);
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
        if let Some(d) = self
            .state
            .documented
            .iter_mut()
            .find(|d| d.question == q && d.note == known.note)
        {
            d.count += 1;
            return;
        }
        self.state.documented.push(Documented {
            question: q,
            note: known.note.clone(),
            count: 1,
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

/// How many questions may wait to be judged while the reference plays on.
/// Enough for an engine that declares `pipelining` to answer a dozen
/// positions per wake-up; few enough that a finding is judged soon after
/// it is asked.
const LAG: usize = 48;

/// A question posted and not yet judged, with what judging it needs.
struct Pending {
    q: Question,
    posted: Posted,
    /// The reference's answer, made when the question was posted.
    expected: ask::Expected,
    form: Form,
    asked: Asked,
    /// For `key`: the position's text, to show which positions a key
    /// confuses.
    text: Option<String>,
    /// The last question about its position: judging it the same counts
    /// the position as compared.
    closes: bool,
}

/// What a question was asked after: the game's first so many actions, or
/// a start and actions of its own (a status asked with history).
enum Asked {
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
