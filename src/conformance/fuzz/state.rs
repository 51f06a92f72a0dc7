//! One variant's state across its games: what it asks, the facts of the
//! games it has played, and the pool of bases for made-up positions.
//!
//! Apart because it outlives each game: the run keeps one per variant
//! and summarizes it. A game reads only what is the same whatever games
//! came before it (the questions, the pool), so that a game plays alike
//! in a run and in any shard of it; what it adds is its own
//! [`GameFacts`].

use std::cell::OnceCell;

use super::rng::Rng;
use super::tally::{GameFacts, Totals};
use super::{Question, VariantRun, play};
use crate::variant::Variant;

/// One variant's state across its games.
pub(super) struct State<'v> {
    pub(super) variant: &'v dyn Variant,
    pub(super) questions: Vec<Question>,
    pub(super) en_passant: bool,
    pub(super) castling: bool,
    /// The games played, summed.
    pub(super) totals: Totals,
    /// The games played, in order, when the run keeps them (a shard).
    played: Option<Vec<GameFacts>>,
    /// Positions from reference-only games, bases for made-up positions:
    /// played when the first made-up start is, since only `edited` runs
    /// make any (the games cost as much as the first few of a run).
    pub(super) pool: OnceCell<Vec<String>>,
    pub(super) seed: u64,
    /// A finding was made here (with `keep_going`, its games stop).
    pub(super) done: bool,
}

/// How many positions the pool of bases for made-up positions holds.
const POOL: usize = 24;

impl<'v> State<'v> {
    /// The state before the first game; `keep` keeps each game's facts.
    pub(super) fn new(
        variant: &'v dyn Variant,
        questions: &[Question],
        seed: u64,
        keep: bool,
    ) -> State<'v> {
        State {
            variant,
            questions: questions.to_vec(),
            en_passant: variant.capabilities().contains(&"en-passant"),
            castling: variant.capabilities().contains(&"castling"),
            totals: Totals::default(),
            played: keep.then(Vec::new),
            pool: OnceCell::new(),
            seed,
            done: false,
        }
    }

    /// Adds a game that has ended.
    pub(super) fn record(&mut self, game: GameFacts) {
        self.totals.add(&game);
        if let Some(played) = &mut self.played {
            played.push(game);
        }
    }

    pub(super) fn summary(&self) -> VariantRun {
        self.totals
            .summary(self.variant.name(), self.played.clone())
    }
}

/// Positions from a few games the reference plays alone, at random plies:
/// bases with realistic hands and rights for made-up positions, the same
/// whatever engine is asked.
pub(super) fn pool(variant: &dyn Variant, seed: u64) -> Vec<String> {
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
