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

use crate::quote;
pub use crate::spec::Notation;
use perft_table::PerftTable;

pub mod audit_facts;
pub mod design_facts;
pub mod drawing;
mod game;
pub mod notation;
pub mod perft_table;
pub mod roster;

pub use game::{Game, History};

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
    /// A player's name as the family's rules give it (`White`, `A`, `first
    /// player`). Every text a person reads names players this way: the
    /// CLI, pictures, record verdicts, reports and the web app. The
    /// protocol and records write `first` and `second`.
    fn player_name(&self, p: Player) -> &'static str;

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
    /// The family's written grammar (`spec/<family>/notation.abnf`);
    /// `None` for rules outside the shipped families (a test's toy game),
    /// whose reader is then the whole definition of their texts.
    fn notation(&self) -> Option<Notation>;
    /// Parses notation and returns the legal action it denotes, or why not.
    /// A text the family's grammar does not derive is `syntax` (NT-2);
    /// any other is refused by [`Rules::read_derived_action`].
    fn parse_action(&self, pos: &Self::Position, text: &str) -> Result<Self::Action, ActionError> {
        notation::read_action(self, pos, text)
    }
    /// Reads an action text the grammar's `action` rule derives, checking
    /// it in the refusal order of PROTOCOL.md from order 3 on. Called only
    /// through [`Rules::parse_action`] (and, for its teaching message, on
    /// texts the grammar refuses: a `syntax` answer there explains the
    /// mistake better than the grammar can).
    fn read_derived_action(
        &self,
        pos: &Self::Position,
        text: &str,
    ) -> Result<Self::Action, ActionError>;
    /// The compact one-line position text.
    fn format_position(&self, pos: &Self::Position) -> String;
    /// Reads a position text: one the grammar's `position` rule does not
    /// derive is refused with the field `syntax` (NT-2); any other is read
    /// by [`Rules::read_derived_position`].
    fn parse_position(&self, text: &str) -> Result<Self::Position, PositionError> {
        notation::read_position(self, text)
    }
    /// Reads a position text the grammar derives: the content checks.
    fn read_derived_position(&self, text: &str) -> Result<Self::Position, PositionError>;

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
    /// [`drawing`]); `None` when it cannot be pictured.
    fn drawing(&self) -> Option<&dyn drawing::Draw<Self::Position, Self::Action>> {
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
    fn audit_facts(&self) -> Option<&dyn audit_facts::Audit<Self::Position>> {
        None
    }

    /// The designer facts of this variant's data (initial bishops, pawn
    /// paths to promotion, drops onto cells with no move; see
    /// [`crate::design`]); `None` when the family gathers none.
    fn design_facts(&self) -> Option<design_facts::Facts> {
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

    /// [`Rules::perft`] with a transposition table: a position met again
    /// with the same depth left is counted once (see [`perft_table`]).
    /// Above the last two plies the tree is walked by the game's legal list
    /// and [`Rules::apply`]; the last two are [`Rules::perft`]'s.
    fn perft_hashed(&self, pos: &Self::Position, depth: u32, table: &PerftTable) -> u64 {
        if depth < 2 {
            return self.perft(pos, depth);
        }
        let key = PerftTable::key(&self.format_position(pos), depth);
        if let Some(n) = table.get(key) {
            return n;
        }
        let n = if depth == 2 {
            self.perft(pos, 2)
        } else {
            self.legal_actions(pos)
                .iter()
                .map(|a| self.perft_hashed(&self.apply(pos, a), depth - 1, table))
                .sum()
        };
        table.put(key, n);
        n
    }

    /// The legal actions found by a second path, written apart from the
    /// one [`Rules::perft`] counts with, so that two counts agreeing is
    /// evidence rather than one count twice; `None` when the family has
    /// only one path. Chess, surface shogi and the tetrahedral variants
    /// make every candidate and test the king (their perft tests only the
    /// candidates that could expose it). Kyoto has one path: its second
    /// count is Fairy-Stockfish's (conformance/PERFT.md).
    fn independent_legal_actions(&self, _pos: &Self::Position) -> Option<Vec<Self::Action>> {
        None
    }

    /// Perft through [`Rules::independent_legal_actions`] and
    /// [`Rules::apply`] (a copy per node, never make/unmake); `None` when
    /// the family has no second path.
    fn independent_perft(&self, pos: &Self::Position, depth: u32) -> Option<u64> {
        let actions = self.independent_legal_actions(pos)?;
        Some(match depth {
            0 => 1,
            1 => actions.len() as u64,
            _ => actions
                .iter()
                .map(|a| {
                    self.independent_perft(&self.apply(pos, a), depth - 1)
                        .unwrap_or(0)
                })
                .sum(),
        })
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

/// The longest position text read: a position text is a few hundred
/// bytes; the bound keeps a wrong file or a runaway generator from being
/// parsed (or echoed) at length.
pub const MAX_POSITION_TEXT_BYTES: usize = 64 << 10;

/// Parses a position text within [`MAX_POSITION_TEXT_BYTES`], with an
/// error that quotes at most a little of the text. Every position text from
/// outside (the CLI, the corpus, the protocol, game records) is read
/// here: a family parser may quote a whole token, megabytes long.
pub fn parse_start<R: Rules>(rules: &R, text: &str) -> Result<R::Position, PositionError> {
    if text.len() > MAX_POSITION_TEXT_BYTES {
        return Err(PositionError {
            field: "text".into(),
            message: format!(
                "{} bytes; a position text has at most {MAX_POSITION_TEXT_BYTES}",
                text.len()
            ),
        });
    }
    rules.parse_position(text).map_err(|e| PositionError {
        field: quote::excerpt(&e.field).into_owned(),
        message: quote::bounded(&e.message).into_owned(),
    })
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
