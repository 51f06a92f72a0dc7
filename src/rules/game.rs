//! A game's history and the game itself: what every family's endings
//! read (occurrence counts, movers, checks) and the one way a game is
//! played, with recorded resignations and agreed draws.

use super::{ActionError, EndReason, GameResult, IllegalReason, Key, Player, Rules};

/// The facts of a game so far that the endings read: the current
/// position, the repetition key of every position (oldest first, the start
/// at 0), and who moved and whether each action gave check.
///
/// Earlier positions are not kept, and each distinct key is stored once,
/// interned, so a long game costs a few bytes a ply plus its distinct keys:
/// a record of a million plies is verified in bounded memory. Keys are
/// compared exactly (never by a hash alone), so repetition is never
/// misjudged.
#[derive(Clone, Debug)]
pub struct History<P> {
    current: P,
    /// The interned id of every position's key, oldest first.
    ids: Vec<u32>,
    /// Each distinct key once.
    keys: KeyStore,
    /// `counts[id]`: how often that key has occurred.
    counts: Vec<u32>,
    /// `gave_check[i]`: the action leading to position `i + 1` left the
    /// opponent in check.
    pub gave_check: Vec<bool>,
    /// Who moved into position `i + 1`.
    pub movers: Vec<Player>,
}

/// Distinct keys, each stored once, end to end in one buffer, and found
/// by an exact comparison through a table of ids: about the key's own
/// length plus 13 bytes a key, where a map of strings would take three or
/// four times that.
#[derive(Clone, Default)]
struct KeyStore {
    bytes: Vec<u8>,
    /// `ends[id]`: where key `id` ends in `bytes` (it starts where the
    /// one before ends).
    ends: Vec<u32>,
    table: hashbrown::HashTable<u32>,
    hasher: std::hash::RandomState,
}

impl std::fmt::Debug for KeyStore {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "KeyStore({} keys)", self.ends.len())
    }
}

impl KeyStore {
    fn key(&self, id: u32) -> &[u8] {
        let end = self.ends[id as usize] as usize;
        let start = match id {
            0 => 0,
            _ => self.ends[id as usize - 1] as usize,
        };
        &self.bytes[start..end]
    }

    fn find(&self, key: &str) -> Option<u32> {
        let hash = std::hash::BuildHasher::hash_one(&self.hasher, key.as_bytes());
        self.table
            .find(hash, |&id| self.key(id) == key.as_bytes())
            .copied()
    }

    /// The id of `key`, added if new.
    fn intern(&mut self, key: &str) -> u32 {
        if let Some(id) = self.find(key) {
            return id;
        }
        let id = self.ends.len() as u32;
        self.bytes.extend_from_slice(key.as_bytes());
        self.ends.push(self.bytes.len() as u32);
        let hash = std::hash::BuildHasher::hash_one(&self.hasher, key.as_bytes());
        let Self {
            bytes,
            ends,
            table,
            hasher,
        } = self;
        let rehash = |&id: &u32| {
            let end = ends[id as usize] as usize;
            let start = if id == 0 {
                0
            } else {
                ends[id as usize - 1] as usize
            };
            std::hash::BuildHasher::hash_one(&*hasher, &bytes[start..end])
        };
        table.insert_unique(hash, id, rehash);
        id
    }
}

impl<P> History<P> {
    /// A history of one position and no action: what a search judging a
    /// position on its own passes to [`Rules::adjudicate`] (the practice
    /// opponent does, where a position has no legal action). `key` is the
    /// position's [`Rules::key`]; it has occurred once.
    pub fn single(position: P, key: Key) -> History<P> {
        History::new(position, key)
    }

    fn new(start: P, key: Key) -> History<P> {
        let mut h = History {
            current: start,
            ids: Vec::new(),
            keys: KeyStore::default(),
            counts: Vec::new(),
            gave_check: Vec::new(),
            movers: Vec::new(),
        };
        h.record_key(key);
        h
    }

    /// Appends the position an action of `mover` led to, as [`Game::play`]
    /// does: for a caller that follows a game without a [`Game`] (the
    /// practice opponent judging a candidate action against the game so
    /// far). `key` is the new position's [`Rules::key`] and `gave_check`
    /// whether its player to move is in check.
    pub fn record(&mut self, next: P, key: Key, gave_check: bool, mover: Player) {
        self.push(next, key, gave_check, mover);
    }

    fn record_key(&mut self, key: Key) {
        let id = self.keys.intern(&key);
        if id as usize == self.counts.len() {
            self.counts.push(0);
        }
        self.counts[id as usize] += 1;
        self.ids.push(id);
    }

    fn push(&mut self, next: P, key: Key, gave_check: bool, mover: Player) {
        self.current = next;
        self.record_key(key);
        self.gave_check.push(gave_check);
        self.movers.push(mover);
    }

    pub fn current(&self) -> &P {
        &self.current
    }
    /// How many actions led to the current position.
    pub fn plies(&self) -> usize {
        self.ids.len() - 1
    }
    /// How often the current position's key has occurred, this one included.
    pub fn occurrences_of_current(&self) -> u32 {
        self.ids.last().map_or(0, |&id| self.counts[id as usize])
    }
    /// How often a position with this key has occurred in the game.
    pub fn occurrences_of(&self, key: &str) -> u32 {
        self.keys.find(key).map_or(0, |id| self.counts[id as usize])
    }
    /// How many distinct positions have occurred more than once.
    pub fn repeated_positions(&self) -> usize {
        self.counts.iter().filter(|&&n| n > 1).count()
    }
    /// The positions (0 = the start) where the current position's key
    /// occurred, oldest first.
    pub fn current_occurrences(&self) -> Vec<usize> {
        let Some(&id) = self.ids.last() else {
            return vec![];
        };
        self.ids
            .iter()
            .enumerate()
            .filter(|(_, x)| **x == id)
            .map(|(i, _)| i)
            .collect()
    }
}

/// A game in progress or finished: history, occurrence counts, result.
pub struct Game<'r, R: Rules> {
    rules: &'r R,
    history: History<R::Position>,
    /// Board actions played (decisions not counted).
    plies: usize,
    result: Option<GameResult>,
}

impl<'r, R: Rules> Game<'r, R> {
    /// A game from a position, initial or edited; that position counts as
    /// the first occurrence and may already end the game.
    pub fn new(rules: &'r R, start: R::Position) -> Self {
        Game::new_listing(rules, start).0
    }

    /// [`Game::new`], with the start's legal actions, which its endings
    /// need anyway (see [`Game::play_listing`]).
    pub fn new_listing(rules: &'r R, start: R::Position) -> (Self, Vec<R::Action>) {
        let legal = rules.legal_actions(&start);
        (Game::listed(rules, start, !legal.is_empty()), legal)
    }

    /// [`Game::new`] for a start whose legal actions a caller has listed:
    /// whether there is one is all its endings need.
    pub fn listed(rules: &'r R, start: R::Position, has_legal: bool) -> Self {
        let key = rules.key(&start);
        let history = History::new(start, key);
        // The start is judged by the same endings as a position reached by
        // an action (SC-I10, SS-I8, KY-I5, TS-I9), so a position's result
        // never depends on whether it was played to or set up: an edited
        // start with bare kings or a spent move counter is over, like one
        // without a legal action. With one occurrence and no move yet, the
        // repetition and perpetual-check rules cannot apply.
        let result = rules.adjudicate(&history, !has_legal);
        Game {
            rules,
            history,
            plies: 0,
            result,
        }
    }

    /// A game from this one's current position, without its history: what
    /// [`Game::new`] gives for that position, with the key this game
    /// already holds and whether the position has a legal action (known to
    /// a caller that listed them), so nothing is generated twice.
    pub fn fresh(&self, has_legal: bool) -> Self
    where
        R::Position: Clone,
    {
        let h = &self.history;
        let id = *h.ids.last().expect("a history holds its start");
        let key = String::from_utf8_lossy(h.keys.key(id)).into_owned();
        let history = History::new(h.current().clone(), key);
        let result = self.rules.adjudicate(&history, !has_legal);
        Game {
            rules: self.rules,
            history,
            plies: 0,
            result,
        }
    }

    pub fn rules(&self) -> &R {
        self.rules
    }
    pub fn position(&self) -> &R::Position {
        self.history.current()
    }
    pub fn history(&self) -> &History<R::Position> {
        &self.history
    }
    /// How many board actions have been played (decisions not counted).
    pub fn plies(&self) -> usize {
        self.plies
    }
    pub fn result(&self) -> Option<GameResult> {
        self.result
    }

    /// Parses and plays one action in notation (`resign` and `draw` are
    /// recorded decisions).
    pub fn play_text(&mut self, text: &str) -> Result<(), ActionError> {
        if self.result.is_some() {
            return Err(ActionError {
                code: IllegalReason::GameOver,
                message: "the game is already over".into(),
            });
        }
        let mover = self.rules.to_move(self.position());
        // Exactly as written: the grammar's `game-action` (NT-1.2, NT-I1).
        match text {
            "resign" => {
                self.result = Some(GameResult {
                    winner: Some(mover.other()),
                    reason: EndReason::Resignation,
                });
                Ok(())
            }
            "draw" => {
                self.result = Some(GameResult {
                    winner: None,
                    reason: EndReason::Agreement,
                });
                Ok(())
            }
            t => {
                let action = self.rules.parse_action(self.position(), t)?;
                self.play(action);
                Ok(())
            }
        }
    }

    /// Plays an action already known to be legal and adjudicates.
    pub fn play(&mut self, action: R::Action) {
        self.play_listing(action);
    }

    /// [`Game::play`], returning the legal actions of the new position,
    /// which the endings need anyway: a caller that wants them too (random
    /// play in `seams fuzz`) does not generate them twice.
    pub fn play_listing(&mut self, action: R::Action) -> Vec<R::Action> {
        let mover = self.rules.to_move(self.position());
        let next = self.rules.apply(self.position(), &action);
        let key = self.rules.key(&next);
        let check = self.rules.in_check(&next);
        self.history.push(next, key, check, mover);
        self.plies += 1;
        let legal = self.rules.legal_actions(self.position());
        self.result = self.rules.adjudicate(&self.history, legal.is_empty());
        legal
    }
}
