//! What every rule family provides, and the machinery they share.
//!
//! A family (surface shogi, surface chess, …) implements [`Rules`] with its
//! own typed positions and actions. Everything that is the same across
//! families is written once here against that trait: perft, game histories
//! with occurrence counts, recorded resignations and agreed draws, and the
//! type-erased [`Variant`] view that the CLI, the corpus and the engine
//! protocol use (positions and actions as text).
//!
//! Rule code does no I/O: families receive data that `spec` has loaded.

use std::fmt;

use serde::{Deserialize, Serialize};

/// The two sides. Families name them (A/B in shogi, White/Black in chess);
/// the first player moves first from the initial position.
#[derive(
    Copy,
    Clone,
    Eq,
    PartialEq,
    Hash,
    Ord,
    PartialOrd,
    Debug,
    Serialize,
    Deserialize,
    schemars::JsonSchema,
)]
#[serde(rename_all = "lowercase")]
pub enum Player {
    First,
    Second,
}

impl Player {
    pub fn other(self) -> Player {
        match self {
            Player::First => Player::Second,
            Player::Second => Player::First,
        }
    }
    pub fn index(self) -> usize {
        self as usize
    }
}

/// Why a game ended. The list is closed and shared by all families so
/// that corpus cases and reports use one vocabulary.
#[derive(Copy, Clone, Eq, PartialEq, Hash, Debug, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum EndReason {
    /// No legal action while in check.
    Checkmate,
    /// No legal action while not in check, where that is a draw (chess).
    Stalemate,
    /// No legal action, which loses whether checked or not (surface shogi).
    NoLegalAction,
    /// Only the two kings remain.
    BareKings,
    /// A position occurred the decisive number of times.
    Repetition,
    /// Repetition where one player checked on every move and loses.
    PerpetualCheck,
    /// The move-count rule (e.g. 150 halfmoves without pawn move or capture).
    MoveRule,
    Resignation,
    Agreement,
}

/// A finished game: the winner (`None` for a draw) and the reason.
#[derive(Copy, Clone, Eq, PartialEq, Hash, Debug, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct GameResult {
    pub winner: Option<Player>,
    pub reason: EndReason,
}

/// Canonical repetition key: equal keys mean "the same position" for the
/// family's repetition rule. Families build it from exactly the fields their
/// rules say count, so it never contains counters or piece identities.
pub type Key = String;

/// Writes a count (a run of empty cells, pieces of a kind in hand) onto a
/// position text, nothing for zero. Position texts are written for every
/// position of a game (they are repetition keys in some families), so the
/// count goes straight onto the text rather than through a new string,
/// and digit by digit rather than through `write!`, whose formatting
/// machinery cost more than the rest of the text together.
pub fn push_count(out: &mut String, n: usize) {
    if n >= 10 {
        push_count(out, n / 10);
    }
    if n > 0 {
        out.push(char::from(b'0' + (n % 10) as u8));
    }
}

/// A rule family bound to one variant's data (board, setup, bands, …).
pub trait Rules: Send + Sync {
    // Send, so that an engine may keep positions read (see
    // `variant::ReadPosition`) and still be moved to another thread.
    type Position: Clone + Eq + std::hash::Hash + fmt::Debug + Send;
    type Action: Clone + Eq + Ord + std::hash::Hash + fmt::Debug + Send;

    /// Variant name, e.g. `shogi-klein`.
    fn variant(&self) -> &str;
    /// The rules version this data implements, e.g. `0.2`.
    fn rules_version(&self) -> &str;
    /// The initial position.
    fn start(&self) -> Self::Position;
    fn to_move(&self, pos: &Self::Position) -> Player;

    /// Every legal board move and drop (resignation and draw offers are
    /// handled by [`Game`]). Order is unspecified; callers sort if needed.
    fn legal_actions(&self, pos: &Self::Position) -> Vec<Self::Action>;
    /// Plays a legal action. Callers guarantee legality.
    fn apply(&self, pos: &Self::Position, action: &Self::Action) -> Self::Position;
    /// Whether the player to move is attacked.
    fn in_check(&self, pos: &Self::Position) -> bool;
    fn key(&self, pos: &Self::Position) -> Key;

    /// Each player's material, `[first, second]`: the values of the
    /// variant data's `[values]` table (see [`crate::values`]) summed over
    /// the player's pieces on the board and in hand. Only the practice
    /// opponent ([`crate::opponent`]) reads it, at every node of its
    /// search, so it is a plain sum with no allocation.
    fn material(&self, pos: &Self::Position) -> [i32; 2];

    /// The family's endings of the current (last) position, given the game
    /// so far. [`Game`] asks after every action and once for the start, when
    /// `movers` and `gave_check` are still empty and the start's key has
    /// occurred once; implementations must judge that history too.
    /// Resignation and agreement are handled by [`Game`]; `legal_is_empty`
    /// is precomputed because every family needs it.
    fn adjudicate(
        &self,
        game: &History<Self::Position>,
        legal_is_empty: bool,
    ) -> Option<GameResult>;

    /// Canonical long notation of an action in a position.
    fn format_action(&self, pos: &Self::Position, action: &Self::Action) -> String;
    /// The notation of every legal action of `pos`, given as `legal` (in
    /// that order). A family whose notation depends on the other legal
    /// actions (a facing mark only where two actions differ in facing
    /// alone) overrides this to look them up once instead of once per
    /// action.
    fn format_legal(&self, pos: &Self::Position, legal: &[Self::Action]) -> Vec<String> {
        legal.iter().map(|a| self.format_action(pos, a)).collect()
    }
    /// Parses notation and returns the legal action it denotes, or why not.
    fn parse_action(&self, pos: &Self::Position, text: &str) -> Result<Self::Action, ActionError>;
    /// The compact one-line position text.
    fn format_position(&self, pos: &Self::Position) -> String;
    fn parse_position(&self, text: &str) -> Result<Self::Position, PositionError>;

    /// The player exchange Φ on positions: the family's board map, owners
    /// swapped, facings reversed, side to move swapped. An involution.
    fn exchange(&self, pos: &Self::Position) -> Self::Position;
    /// Φ on an action played in `pos` (giving the action in `exchange(pos)`).
    fn exchange_action(&self, pos: &Self::Position, action: &Self::Action) -> Self::Action;
    /// The same position with the other player to move, for families that
    /// can say so (`seams spec check` compares it with Φ of the start).
    fn other_to_move(&self, _pos: &Self::Position) -> Option<Self::Position> {
        None
    }

    /// Rule features this family implements beyond the basic commands, as
    /// corpus cases name them in `capabilities` (e.g. `drops`, `castling`,
    /// `en-passant`, `promotion`). The reference engine declares them in its
    /// `hello`, so cases that need them are asked.
    fn capabilities(&self) -> &'static [&'static str] {
        &[]
    }

    /// Analysis mode, where the family has one: the actions `mover` (either
    /// army, whoever is to move) could take, with king-safety filtering on
    /// or off; every other movement, capture, promotion and drop
    /// restriction stays. These are experiments, not legal moves of a
    /// scored game. Returns the position as the mover sees it (for
    /// notation) with the actions; `None` when the family has no analysis
    /// mode.
    fn analysis_actions(
        &self,
        _pos: &Self::Position,
        _mover: Player,
        _king_safety: bool,
    ) -> Option<(Self::Position, Vec<Self::Action>)> {
        None
    }

    /// How the family pictures positions and actions (see
    /// [`crate::diagram`]); `None` when it cannot be pictured.
    fn drawing(&self) -> Option<&dyn crate::diagram::Draw<Self::Position, Self::Action>> {
        None
    }

    /// The display arrows after `actions` (legal, in order) are played
    /// from `start`: for pieces whose facing no rule reads but whose
    /// picture still records the transport of their routes (surface
    /// shogi's kings, rooks and bishops, `SS-A2`), each such piece's cell
    /// (canonical name) and arrow, on boards where an arrow can turn.
    /// Empty for a family without such pieces (the default). No rule,
    /// key or answer reads them.
    fn display_arrows(
        &self,
        _start: &Self::Position,
        _actions: &[Self::Action],
    ) -> Vec<(String, crate::movement::Facing)> {
        Vec::new()
    }

    /// The family-specific half of the opening audit (shields and attacked
    /// pieces, see [`crate::audit`]); `None` when the family has none.
    fn audit_facts(&self) -> Option<&dyn crate::audit::Audit<Self::Position>> {
        None
    }

    /// The designer facts of this variant's data (initial bishops, pawn
    /// paths to promotion, drops onto cells with no move; see
    /// [`crate::design`]); `None` when the family gathers none.
    fn design_facts(&self) -> Option<crate::design::Facts> {
        None
    }

    /// The special rights of a position; none by default (see [`Rights`]).
    fn rights(&self, _pos: &Self::Position) -> Rights {
        Rights::default()
    }

    /// Number of leaf nodes of the legal-action tree at `depth`. Game-end
    /// rules are ignored, as is conventional. Families may override this
    /// with a faster make/unmake version.
    fn perft(&self, pos: &Self::Position, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        let actions = self.legal_actions(pos);
        if depth == 1 {
            return actions.len() as u64;
        }
        actions
            .iter()
            .map(|a| self.perft(&self.apply(pos, a), depth - 1))
            .sum()
    }
}

/// The special rights of a position: what its placement does not show but
/// the rules still read. Surface chess has all four; the shogi families,
/// Kyoto and the tetrahedral variants have none, so every field is absent
/// there. Game records keep them apart from the position text so that a
/// reader sees them without parsing it.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "kebab-case", deny_unknown_fields)]
pub struct Rights {
    /// Castling rights in the position text's letters (`KQkq`), `-` for
    /// none.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub castling: Option<String>,
    /// The en-passant trace the last double step left, as the position
    /// text writes it; absent when there is none.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub en_passant: Option<String>,
    /// The cells of the pawns whose double step is still unused, sorted.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub double_step: Option<Vec<String>>,
    /// Halfmoves since the last capture or pawn move (the move rule's
    /// count).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub halfmove_clock: Option<u32>,
}

/// Why an action text was refused. The codes are a fixed list shared by
/// the corpus and the engine protocol.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{code}: {message}")]
pub struct ActionError {
    pub code: IllegalReason,
    pub message: String,
}

#[derive(Copy, Clone, Eq, PartialEq, Hash, Debug, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum IllegalReason {
    /// The text is not notation at all.
    Syntax,
    /// A coordinate is off the board.
    NoSuchCell,
    /// No piece of the mover on the origin, or nothing of that kind in hand.
    NoPiece,
    /// The piece cannot reach the destination that way.
    Unreachable,
    /// Several outcomes match and the text does not say which.
    Ambiguous,
    /// The action leaves the mover's own king attacked.
    KingInCheck,
    /// A required promotion choice is missing, or promotion is not allowed.
    Promotion,
    /// A drop restriction (nifu, dead rank, occupied cell, pawn-drop mate).
    DropRestriction,
    /// Castling forbidden by rights, blockers or attacked cells.
    Castling,
    /// The game is already over.
    GameOver,
}

/// The protocol's name of an ending (`checkmate`, `move-rule`, …).
impl fmt::Display for EndReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let v = serde_json::to_value(self).map_err(|_| fmt::Error)?;
        f.write_str(v.as_str().unwrap_or("unknown"))
    }
}

impl fmt::Display for IllegalReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let v = serde_json::to_value(self).map_err(|_| fmt::Error)?;
        f.write_str(v.as_str().unwrap_or("unknown"))
    }
}

/// A position text or JSON that does not describe a position.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("bad position ({field}): {message}")]
pub struct PositionError {
    /// Which part: `placement`, `hand`, `side`, `rank 3`, …
    pub field: String,
    pub message: String,
}

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
        match text.trim() {
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

#[cfg(test)]
mod tests {
    #[test]
    fn counts_are_written_in_decimal() {
        let mut out = String::new();
        for n in [0, 1, 9, 10, 12, 20, 100, 4096] {
            super::push_count(&mut out, n);
            out.push('/');
        }
        assert_eq!(out, "/1/9/10/12/20/100/4096/");
    }
}
