//! One variant's state across its games: what it asks, its tallies, its
//! key groups and thin-spot counts, and the pool of bases for made-up
//! positions.
//!
//! Apart because it outlives each game: the run keeps one per variant
//! and summarizes it, while each game reads and adds to it.

use std::cell::OnceCell;
use std::collections::BTreeMap;

use super::ask::KeyGroups;
use super::rng::Rng;
use super::{Documented, Question, Spot, StartKind, ThinCount, VariantRun, play, thin};
use crate::variant::Variant;

/// One variant's state across its games.
pub(super) struct State<'v> {
    pub(super) variant: &'v dyn Variant,
    questions: Vec<Question>,
    pub(super) en_passant: bool,
    pub(super) castling: bool,
    pub(super) games: u32,
    pub(super) positions: u64,
    pub(super) asked: BTreeMap<Question, u64>,
    pub(super) starts: BTreeMap<StartKind, u32>,
    pub(super) documented: Vec<Documented>,
    pub(super) unsupported: Vec<Question>,
    pub(super) keys: KeyGroups,
    pub(super) thin: thin::Counter,
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
    pub(super) fn new(variant: &'v dyn Variant, questions: &[Question], seed: u64) -> State<'v> {
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

    pub(super) fn asks(&self, q: Question) -> bool {
        self.questions.contains(&q) && !self.unsupported.contains(&q)
    }

    pub(super) fn summary(&self) -> VariantRun {
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
