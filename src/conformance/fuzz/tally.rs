//! What one game adds to its variant's tallies ([`GameFacts`]), and a
//! variant's summary rebuilt from its games' facts ([`summarize`]).
//!
//! Apart because a run and a merge of shards (`merge.rs`) build a
//! variant's summary this one way: a run from the games it played, a merge
//! from the games one run would have played, taken from the shards. Every
//! figure of a summary is therefore a sum, a union or a first occurrence
//! over games, which is what lets shards merge exactly.

use std::collections::{BTreeMap, HashSet};

use serde::{Deserialize, Serialize};

use super::ask::KeyGroups;
use super::thin::{self, Spot};
use super::{Documented, Question, StartKind, ThinCount, VariantRun};

/// How a game ended.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum GameEnd {
    /// Played to its end: a result, its last ply, or a documented
    /// difference.
    Played,
    /// A disagreement ended it: the run's finding in this game.
    Found,
    /// The run stopped during it (`--max-time`, Ctrl-C, a dead engine).
    Stopped,
}

/// A documented difference met in one game (it ends the game, so a game
/// meets at most one).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct DocumentedIn {
    pub question: Question,
    pub note: String,
    /// Where: the game, the actions before the question and the start.
    pub example: String,
}

/// What one game added to its variant's tallies.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct GameFacts {
    /// The game's number in its variant, from 0.
    pub game: u32,
    pub start: StartKind,
    pub ended: GameEnd,
    /// Positions compared: every question about them judged the same.
    pub positions: u64,
    /// Questions asked, by kind.
    pub asked: BTreeMap<Question, u64>,
    /// Questions the engine answered `unsupported` in this game, in the
    /// order met (not asked again in this game).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub unsupported: Vec<Question>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub documented: Option<DocumentedIn>,
    /// Each thin spot met, with the FNV-1a digests of the reference's keys
    /// of the positions where it showed.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub thin: BTreeMap<Spot, Vec<String>>,
}

/// The game being played: its facts so far, and what it remembers only
/// until it ends (keys, thin spots), so that no game depends on another.
pub(super) struct Tally {
    pub(super) facts: GameFacts,
    pub(super) keys: KeyGroups,
    pub(super) thin: thin::Counter,
}

impl Tally {
    pub(super) fn new(game: u32) -> Tally {
        Tally {
            facts: GameFacts {
                game,
                start: StartKind::Initial,
                ended: GameEnd::Played,
                positions: 0,
                asked: BTreeMap::new(),
                unsupported: Vec::new(),
                documented: None,
                thin: BTreeMap::new(),
            },
            keys: KeyGroups::default(),
            thin: thin::Counter::default(),
        }
    }

    /// The game's facts once it has ended so.
    pub(super) fn finish(self, ended: GameEnd) -> GameFacts {
        GameFacts {
            ended,
            thin: self.thin.digests(),
            ..self.facts
        }
    }
}

/// A variant's tallies summed over its games, one game at a time: the one
/// way both a run and a merge add games up.
#[derive(Default)]
pub(super) struct Totals {
    games: u32,
    pub(super) positions: u64,
    asked: BTreeMap<Question, u64>,
    starts: BTreeMap<StartKind, u32>,
    documented: Vec<Documented>,
    unsupported: Vec<Question>,
    thin: BTreeMap<Spot, HashSet<String>>,
}

impl Totals {
    /// Adds the next game played.
    pub(super) fn add(&mut self, g: &GameFacts) {
        self.games += 1;
        self.positions += g.positions;
        for (&q, &n) in &g.asked {
            *self.asked.entry(q).or_default() += n;
        }
        *self.starts.entry(g.start).or_default() += 1;
        for &q in &g.unsupported {
            if !self.unsupported.contains(&q) {
                self.unsupported.push(q);
            }
        }
        if let Some(d) = &g.documented {
            self.document(d);
        }
        for (&spot, digests) in &g.thin {
            self.thin
                .entry(spot)
                .or_default()
                .extend(digests.iter().cloned());
        }
    }

    /// Counts a documented difference; the first game's is its example.
    fn document(&mut self, d: &DocumentedIn) {
        match self
            .documented
            .iter_mut()
            .find(|o| o.question == d.question && o.note == d.note)
        {
            Some(o) => o.count += 1,
            None => self.documented.push(Documented {
                question: d.question,
                note: d.note.clone(),
                count: 1,
                example: d.example.clone(),
            }),
        }
    }

    /// The variant's summary, with its games' facts when they are kept.
    pub(super) fn summary(&self, variant: &str, per_game: Option<Vec<GameFacts>>) -> VariantRun {
        VariantRun {
            variant: variant.to_string(),
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
                    count: self.thin.get(&spot).map_or(0, HashSet::len),
                    target: spot.target_in(variant).then_some(thin::TARGET),
                })
                .collect(),
            per_game,
        }
    }
}
