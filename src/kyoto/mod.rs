//! Kyoto shogi (`spec/kyoto/rules.md`): shogi on a flat 5×5 board where
//! every non-king token turns over after each move.
//!
//! The family is small on purpose: the board, its step tables and the face
//! movements come from the shared layers, so this module holds only what is
//! particular to Kyoto — flipping, drops of either face, the endings and
//! the exchange FEN. [`KyotoRules`] implements [`Rules`]; its variants are
//! `kyoto` (the original repetition rule) and `kyoto-repetition-loss` (the
//! alternative the source mentions), both built from `spec/kyoto/*.toml`.

pub mod audit;
pub mod picture;
pub mod pieces;
pub mod position;

use std::collections::BTreeMap;

use serde::Deserialize;

use crate::geometry::{Geometry, KnightWord};
use crate::movement::{Facing, for_each_on_ray};
use crate::rules::{
    ActionError, EndReason, GameResult, History, IllegalReason, Key, Player, PositionError, Rules,
};
use crate::spec::Library;
use crate::topology::{CellId, Dir};

use pieces::{Face, Piece, Token};
use position::{Position, SIZE};

/// What ends a game on repetition (`KY-6`).
#[derive(Copy, Clone, Eq, PartialEq, Debug, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum RepetitionRule {
    /// The original rule: a draw.
    Draw,
    /// The alternative: the player completing the repetition loses, except
    /// that a player who checked on every move since the first occurrence
    /// loses instead.
    Loss,
}

#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
struct RepetitionFile {
    occurrence: u32,
    rule: RepetitionRule,
}

/// The serde form of `spec/kyoto/*.toml`.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
struct VariantFile {
    variant: String,
    board: String,
    rules_version: String,
    setup: Vec<Face>,
    flips: BTreeMap<Face, Face>,
    repetition: RepetitionFile,
    /// Face values, read only by the practice opponent (see
    /// [`crate::values`]); absent, every face but the king's is worth 100.
    #[serde(default)]
    values: Option<toml::Value>,
}

/// A variant file that does not describe a Kyoto variant.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
// The message may quote the file's text: shown bounded (see crate::quote).
#[error("{file}: {}: {}", crate::quote::excerpt(.entry), crate::quote::bounded(.message))]
pub struct DataError {
    pub file: String,
    pub entry: String,
    pub message: String,
}

/// A board move or a drop. The flip after a move is not a choice, so it is
/// not part of the action.
#[derive(Copy, Clone, Eq, PartialEq, Hash, Ord, PartialOrd, Debug)]
pub enum Action {
    Move { from: CellId, to: CellId },
    Drop { face: Face, to: CellId },
}

/// One Kyoto variant bound to its data.
pub struct KyotoRules {
    name: String,
    rules_version: String,
    geo: Geometry,
    setup: [Face; SIZE],
    flips: BTreeMap<Face, Face>,
    repetition_at: u32,
    repetition: RepetitionRule,
    /// `values[face as usize]`: what a face on the board is worth to the
    /// practice opponent.
    values: [i32; 9],
    /// `hand_values[token index]`: a token in hand may be dropped either
    /// face up, so it is worth its better face.
    hand_values: [i32; 4],
    /// Only for the mutant engine: drops turn the token over (wrong).
    mutant_flip_on_drop: bool,
}

impl KyotoRules {
    /// Builds a variant from its data file and the boards of `lib`.
    pub fn from_toml(file: &str, text: &str, lib: &Library) -> Result<KyotoRules, DataError> {
        let fail = |entry: &str, message: String| DataError {
            file: file.to_string(),
            entry: entry.to_string(),
            message,
        };
        let data: VariantFile =
            toml::from_str(text).map_err(|e| fail("document", e.message().to_string()))?;
        let geo = lib
            .geometry(&data.board)
            .map_err(|e| fail("board", e.to_string()))?
            .clone();
        let b = geo.board();
        if b.chart_count() != 1 || b.width() as usize != SIZE || b.height() as usize != SIZE {
            return Err(fail(
                "board",
                format!("'{}' is not a single {SIZE}×{SIZE} chart", data.board),
            ));
        }
        let setup: [Face; SIZE] = data.setup.clone().try_into().map_err(|_| {
            fail(
                "setup",
                format!("{} faces; the first rank has {SIZE}", data.setup.len()),
            )
        })?;
        if setup.iter().filter(|f| **f == Face::King).count() != 1 {
            return Err(fail(
                "setup",
                "the first rank needs exactly one king".into(),
            ));
        }
        for face in Face::ALL {
            let Some(token) = face.token() else {
                if data.flips.contains_key(&face) {
                    return Err(fail("flips.king", "the king never flips".into()));
                }
                continue;
            };
            let to = data.flips.get(&face).ok_or_else(|| {
                fail(
                    &format!("flips.{}", face.name()),
                    "every face but the king's needs a flip".into(),
                )
            })?;
            if to.token() != Some(token) || *to == face {
                return Err(fail(
                    &format!("flips.{}", face.name()),
                    format!("a {} turns into the other face of its token", face.name()),
                ));
            }
        }
        if data.repetition.occurrence < 2 {
            return Err(fail(
                "repetition.occurrence",
                "a repetition needs at least the second occurrence".into(),
            ));
        }
        let values = read_values(data.values.as_ref()).map_err(|e| fail(&e.field, e.message))?;
        let hand_values = Token::ALL.map(|t| {
            let [a, b] = t.faces();
            values[a as usize].max(values[b as usize])
        });
        Ok(KyotoRules {
            name: data.variant,
            rules_version: data.rules_version,
            geo,
            setup,
            flips: data.flips,
            repetition_at: data.repetition.occurrence,
            repetition: data.repetition.rule,
            values,
            hand_values,
            mutant_flip_on_drop: false,
        })
    }

    /// A deliberately wrong copy for `seams engine --mutant
    /// kyoto-flip-on-drop`: a dropped token shows its other face.
    pub fn mutant_flip_on_drop(mut self) -> Self {
        self.mutant_flip_on_drop = true;
        self
    }

    fn facing(p: Player) -> Facing {
        match p {
            Player::First => Facing::Up,
            Player::Second => Facing::Down,
        }
    }

    /// The face a piece shows after it moves.
    pub fn flipped(&self, face: Face) -> Face {
        self.flips.get(&face).copied().unwrap_or(face)
    }

    /// Every cell `piece` on `from` could move to by its face's pattern,
    /// occupied or not (the first occupied cell of a ray included).
    fn targets(&self, board: &[Option<Piece>], from: CellId, piece: Piece, out: &mut Vec<CellId>) {
        let geo = &self.geo;
        let facing = Self::facing(piece.owner);
        let m = piece.face.movement(piece.owner);
        for rel in m.steps.iter() {
            if let Some(s) = geo.step(from, facing.absolute(rel)) {
                out.push(s.to);
            }
        }
        let occupied = |c: CellId| board[c.index()].is_some();
        for rel in m.rays.iter() {
            for_each_on_ray(geo, from, facing.absolute(rel), &occupied, |l| {
                out.push(l.cell)
            });
        }
        if m.knight {
            for short in [Dir::E, Dir::W] {
                let word = KnightWord::new(facing.absolute(Dir::N), short);
                if let Some(s) = geo.knight(from, word) {
                    out.push(s.to);
                }
            }
        }
    }

    /// Whether `by` attacks `target`: some piece of `by` has it among its
    /// targets. Pins are not consulted.
    pub fn attacked(&self, board: &[Option<Piece>], target: CellId, by: Player) -> bool {
        self.each_attacker(board, target, by, |_| true)
    }

    /// The cells of every piece of `by` that attacks `target`, in board
    /// order.
    pub fn attackers(&self, board: &[Option<Piece>], target: CellId, by: Player) -> Vec<CellId> {
        let mut out = vec![];
        self.each_attacker(board, target, by, |c| {
            out.push(c);
            false
        });
        out
    }

    /// Calls `found` with each attacker of `target` until it returns
    /// `true`; returns whether it did.
    fn each_attacker(
        &self,
        board: &[Option<Piece>],
        target: CellId,
        by: Player,
        mut found: impl FnMut(CellId) -> bool,
    ) -> bool {
        let mut cells = Vec::new();
        board.iter().enumerate().any(|(i, slot)| match slot {
            Some(p) if p.owner == by => {
                let from = CellId(i as u16);
                cells.clear();
                self.targets(board, from, *p, &mut cells);
                cells.contains(&target) && found(from)
            }
            _ => false,
        })
    }

    fn checked(&self, pos: &Position, p: Player) -> bool {
        pos.king(p)
            .is_some_and(|k| self.attacked(&pos.board, CellId(k as u16), p.other()))
    }

    /// Moves and drops before the king-safety filter.
    fn pseudo(&self, pos: &Position) -> Vec<Action> {
        let me = pos.to_move;
        let mut out = Vec::new();
        let mut cells = Vec::new();
        for (i, slot) in pos.board.iter().enumerate() {
            let Some(p) = *slot else { continue };
            if p.owner != me {
                continue;
            }
            cells.clear();
            let from = CellId(i as u16);
            self.targets(&pos.board, from, p, &mut cells);
            for &to in &cells {
                match pos.board[to.index()] {
                    Some(q) if q.owner == me || q.face == Face::King => {}
                    _ => out.push(Action::Move { from, to }),
                }
            }
        }
        // Drops: any token in hand, either face up, on any empty cell
        // (no file, dead-cell or drop-mate restriction: KY-5).
        for token in Token::ALL {
            if pos.hands[me.index()][token.index()] == 0 {
                continue;
            }
            for (i, slot) in pos.board.iter().enumerate() {
                if slot.is_none() {
                    for face in token.faces() {
                        out.push(Action::Drop {
                            face,
                            to: CellId(i as u16),
                        });
                    }
                }
            }
        }
        out.sort();
        out.dedup();
        out
    }

    fn play(&self, pos: &Position, action: &Action) -> Position {
        let mut next = pos.clone();
        let me = pos.to_move;
        match *action {
            Action::Move { from, to } => {
                let piece = next.board[from.index()]
                    .take()
                    .expect("a legal move starts on the mover's piece");
                if let Some(captured) = next.board[to.index()]
                    && let Some(token) = captured.face.token()
                {
                    next.hands[me.index()][token.index()] += 1;
                }
                next.board[to.index()] = Some(Piece {
                    owner: me,
                    face: self.flipped(piece.face),
                });
                next.halfmoves = if pos.board[to.index()].is_some() {
                    0
                } else {
                    pos.halfmoves + 1
                };
            }
            Action::Drop { face, to } => {
                let token = face.token().expect("kings are never in hand");
                next.hands[me.index()][token.index()] -= 1;
                let face = if self.mutant_flip_on_drop {
                    self.flipped(face)
                } else {
                    face
                };
                next.board[to.index()] = Some(Piece { owner: me, face });
                // KY-8.1: like a capture, a drop restarts the count.
                next.halfmoves = 0;
            }
        }
        if me == Player::Second {
            next.move_number += 1;
        }
        next.to_move = me.other();
        next
    }

    fn cell_name(&self, c: CellId) -> &str {
        self.geo.board().cell_name(c)
    }

    /// The designer facts of the setup: its bishop faces, and every drop
    /// (any face, any empty cell: KY-5.1, KY-5.2) onto a cell where that
    /// face has no move on the empty board. Such a token never moves, so it
    /// never turns over. Tokens turn over instead of promoting (KY-3.1), so
    /// pawns have no promotion target.
    fn design(&self) -> crate::rules::design_facts::Facts {
        use crate::rules::design_facts::{DropFacts, Facts, ImmobileDrop, PawnFacts};
        let start = self.start();
        let bishops = start
            .board
            .iter()
            .enumerate()
            .filter_map(|(i, p)| match p {
                Some(p) if p.face == Face::Bishop => Some((p.owner, CellId(i as u16))),
                _ => None,
            })
            .collect();
        let mut immobile = Vec::new();
        let mut board = [None; SIZE * SIZE];
        let mut cells = Vec::new();
        for owner in [Player::First, Player::Second] {
            for token in Token::ALL {
                for face in token.faces() {
                    for c in self.geo.board().cells() {
                        let piece = Piece { owner, face };
                        board[c.index()] = Some(piece);
                        cells.clear();
                        self.targets(&board, c, piece, &mut cells);
                        board[c.index()] = None;
                        if cells.iter().all(|&to| to == c) {
                            let letter = face.letter();
                            immobile.push(ImmobileDrop {
                                owner,
                                piece: match owner {
                                    Player::First => letter.to_string(),
                                    Player::Second => letter.to_ascii_lowercase().to_string(),
                                },
                                cell: self.cell_name(c).to_string(),
                            });
                        }
                    }
                }
            }
        }
        Facts {
            board: Some(self.geo.board().name().to_string()),
            bishops,
            pawns: PawnFacts::NotApplicable {
                reason: "tokens turn over after every move instead of promoting (KY-3.1)".into(),
            },
            drops: DropFacts::Checked {
                rule: "KY-5.2".into(),
                immobile,
            },
        }
    }

    /// The half-turn that exchanges the players: cell (x, y) ↦ (4−x, 4−y).
    fn phi_cell(c: CellId) -> CellId {
        CellId((SIZE * SIZE - 1) as u16 - c.0)
    }

    /// The left–right mirror (x, y) ↦ (4−x, y), which keeps owners.
    pub fn mirror_cell(c: CellId) -> CellId {
        let (x, y) = (c.index() % SIZE, c.index() / SIZE);
        CellId((y * SIZE + (SIZE - 1 - x)) as u16)
    }

    /// The position mirrored left to right (owners and side kept).
    pub fn mirror(&self, pos: &Position) -> Position {
        let mut out = pos.clone();
        for i in 0..SIZE * SIZE {
            out.board[Self::mirror_cell(CellId(i as u16)).index()] = pos.board[i];
        }
        out
    }

    /// An action mirrored left to right.
    pub fn mirror_action(&self, a: &Action) -> Action {
        match *a {
            Action::Move { from, to } => Action::Move {
                from: Self::mirror_cell(from),
                to: Self::mirror_cell(to),
            },
            Action::Drop { face, to } => Action::Drop {
                face,
                to: Self::mirror_cell(to),
            },
        }
    }

    /// Did `who` give check on every one of their moves in the history
    /// from position index `since` on?
    fn checked_throughout(game: &History<Position>, since: usize, who: Player) -> bool {
        let mut any = false;
        for i in since..game.movers.len() {
            if game.movers[i] == who {
                any = true;
                if !game.gave_check[i] {
                    return false;
                }
            }
        }
        any
    }
}

/// The `[values]` table, keyed by the face names `flips` uses:
/// `values[face as usize]`.
fn read_values(table: Option<&toml::Value>) -> Result<[i32; 9], crate::values::ValueError> {
    let faces = Face::ALL.map(Face::name);
    let names = crate::values::Names {
        kinds: &faces,
        royal: Face::King.name(),
        promoted: &[],
    };
    let read = crate::values::read(table, &names)?;
    Ok(Face::ALL.map(|f| read.of(f.name(), false)))
}

impl Rules for KyotoRules {
    type Position = Position;
    type Action = Action;

    fn drawing(&self) -> Option<&dyn crate::rules::drawing::Draw<Position, Action>> {
        Some(self)
    }
    fn variant(&self) -> &str {
        &self.name
    }
    fn rules_version(&self) -> &str {
        &self.rules_version
    }

    fn design_facts(&self) -> Option<crate::rules::design_facts::Facts> {
        Some(self.design())
    }
    fn start(&self) -> Position {
        let mut pos = Position {
            board: [None; SIZE * SIZE],
            hands: [[0; 4]; 2],
            to_move: Player::First,
            halfmoves: 0,
            move_number: 1,
        };
        for (x, &face) in self.setup.iter().enumerate() {
            // The first player's left is file a; the second player's left,
            // seen from the other side, is file e.
            pos.board[x] = Some(Piece {
                owner: Player::First,
                face,
            });
            pos.board[SIZE * SIZE - 1 - x] = Some(Piece {
                owner: Player::Second,
                face,
            });
        }
        pos
    }

    fn to_move(&self, pos: &Position) -> Player {
        pos.to_move
    }

    fn legal_actions(&self, pos: &Position) -> Vec<Action> {
        let me = pos.to_move;
        self.pseudo(pos)
            .into_iter()
            .filter(|a| !self.checked(&self.play(pos, a), me))
            .collect()
    }

    fn apply(&self, pos: &Position, action: &Action) -> Position {
        self.play(pos, action)
    }

    fn in_check(&self, pos: &Position) -> bool {
        self.checked(pos, pos.to_move)
    }

    fn material(&self, pos: &Position) -> [i32; 2] {
        let mut sum = [0; 2];
        for p in pos.board.iter().flatten() {
            sum[p.owner.index()] += self.values[p.face as usize];
        }
        for (total, hand) in sum.iter_mut().zip(&pos.hands) {
            for (&n, &v) in hand.iter().zip(&self.hand_values) {
                *total += i32::from(n) * v;
            }
        }
        sum
    }

    fn key(&self, pos: &Position) -> Key {
        // The text without its counters: placement, hands, side.
        let text = pos.text();
        let mut fields: Vec<&str> = text.split(' ').collect();
        fields.truncate(2);
        fields.join(" ")
    }

    fn adjudicate(&self, game: &History<Position>, legal_is_empty: bool) -> Option<GameResult> {
        let pos = game.current();
        let mover = pos.to_move;
        if legal_is_empty {
            // KY-7.1: a player who cannot act loses, checked or not.
            let reason = if self.checked(pos, mover) {
                EndReason::Checkmate
            } else {
                EndReason::NoLegalAction
            };
            return Some(GameResult {
                winner: Some(mover.other()),
                reason,
            });
        }
        if game.occurrences_of_current() < self.repetition_at {
            return None;
        }
        Some(match self.repetition {
            RepetitionRule::Draw => GameResult {
                winner: None,
                reason: EndReason::Repetition,
            },
            RepetitionRule::Loss => {
                // Reached only at an occurrence >= repetition_at >= 2
                // (from_toml refuses less), so at least one action has been
                // played: a start, judged with no movers, never gets here.
                let first = game.current_occurrences()[0];
                let repeater = *game
                    .movers
                    .last()
                    .expect("a second occurrence follows an action");
                let checkers: Vec<Player> = [Player::First, Player::Second]
                    .into_iter()
                    .filter(|&p| Self::checked_throughout(game, first, p))
                    .collect();
                match checkers.as_slice() {
                    [checker] => GameResult {
                        winner: Some(checker.other()),
                        reason: EndReason::PerpetualCheck,
                    },
                    _ => GameResult {
                        winner: Some(repeater.other()),
                        reason: EndReason::Repetition,
                    },
                }
            }
        })
    }

    fn format_action(&self, _pos: &Position, action: &Action) -> String {
        match *action {
            Action::Move { from, to } => {
                format!("{}-{}", self.cell_name(from), self.cell_name(to))
            }
            Action::Drop { face, to } => format!("{}*{}", face.letter(), self.cell_name(to)),
        }
    }

    fn parse_action(&self, pos: &Position, text: &str) -> Result<Action, ActionError> {
        let fail = |code, message: String| ActionError { code, message };
        let board = self.geo.board();
        let cell = |t: &str| {
            board
                .parse_cell(t)
                .map_err(|e| fail(IllegalReason::NoSuchCell, e.to_string()))
        };
        // A token turns over by itself on every move (KY-8.2): no action
        // has a promotion choice, so a mark is refused from the text alone.
        if text.contains(['+', '=']) {
            return Err(fail(
                IllegalReason::Promotion,
                format!("'{text}': Kyoto actions take no '+' or '=': a token turns over by itself"),
            ));
        }
        let action = if let Some((letter, to)) = text.split_once('*') {
            let mut chars = letter.chars();
            let face = match (chars.next(), chars.next()) {
                (Some(c), None) => Face::from_letter(c),
                _ => None,
            }
            .filter(|f| *f != Face::King)
            .ok_or_else(|| {
                fail(
                    IllegalReason::Syntax,
                    format!("'{letter}' is not a face letter (T L S B G N P R)"),
                )
            })?;
            let to = cell(to)?;
            let token = face.token().expect("the king was filtered out");
            if pos.hands[pos.to_move.index()][token.index()] == 0 {
                return Err(fail(
                    IllegalReason::NoPiece,
                    format!("no {} token in hand", face.name()),
                ));
            }
            if pos.board[to.index()].is_some() {
                return Err(fail(
                    IllegalReason::DropRestriction,
                    format!("{} is occupied", self.cell_name(to)),
                ));
            }
            Action::Drop { face, to }
        } else if let Some((a, b)) = text.split_once('-') {
            let (from, to) = (cell(a)?, cell(b)?);
            match pos.board[from.index()] {
                Some(p) if p.owner == pos.to_move => {}
                _ => {
                    return Err(fail(
                        IllegalReason::NoPiece,
                        format!("no piece of the mover on {}", self.cell_name(from)),
                    ));
                }
            }
            let action = Action::Move { from, to };
            if !self.pseudo(pos).contains(&action) {
                return Err(fail(
                    IllegalReason::Unreachable,
                    format!("the piece on {a} cannot move to {b}"),
                ));
            }
            action
        } else {
            return Err(fail(
                IllegalReason::Syntax,
                format!("'{text}' is neither a move (a1-a2) nor a drop (T*c3)"),
            ));
        };
        if self.checked(&self.play(pos, &action), pos.to_move) {
            return Err(fail(
                IllegalReason::KingInCheck,
                format!("'{text}' leaves the mover's king attacked"),
            ));
        }
        Ok(action)
    }

    fn format_position(&self, pos: &Position) -> String {
        pos.text()
    }

    fn parse_position(&self, text: &str) -> Result<Position, PositionError> {
        let pos = Position::parse(text)?;
        // KY-I6: the game has a fixed set of tokens; a position holds at
        // most as many of each as the initial position does.
        let have = pos.tokens_by_kind();
        let set = self.start().tokens_by_kind();
        for t in Token::ALL {
            if have[t.index()] > set[t.index()] {
                return Err(PositionError {
                    field: "hand".into(),
                    message: format!(
                        "{} {} tokens on the board and in hand; the game has {} (KY-I6)",
                        have[t.index()],
                        t.hand_letter(),
                        set[t.index()]
                    ),
                });
            }
        }
        Ok(pos)
    }

    fn audit_facts(&self) -> Option<&dyn crate::rules::audit_facts::Audit<Position>> {
        Some(self)
    }
    fn capabilities(&self) -> &'static [&'static str] {
        &["drops"]
    }

    /// Analysis mode (`KY-A1`, `KY-A2`): the mover's actions in the
    /// position with it to move; without king safety, every move and drop
    /// before the king test (tokens still turn over, kings are still never
    /// captured).
    fn analysis_actions(
        &self,
        pos: &Position,
        mover: Player,
        king_safety: bool,
    ) -> Option<(Position, Vec<Action>)> {
        let mut seen = pos.clone();
        seen.to_move = mover;
        let actions = if king_safety {
            self.legal_actions(&seen)
        } else {
            self.pseudo(&seen)
        };
        Some((seen, actions))
    }

    fn other_to_move(&self, pos: &Position) -> Option<Position> {
        let mut p = pos.clone();
        p.to_move = p.to_move.other();
        Some(p)
    }

    fn exchange(&self, pos: &Position) -> Position {
        let mut out = pos.clone();
        for i in 0..SIZE * SIZE {
            out.board[Self::phi_cell(CellId(i as u16)).index()] = pos.board[i].map(|p| Piece {
                owner: p.owner.other(),
                face: p.face,
            });
        }
        out.hands = [pos.hands[1], pos.hands[0]];
        out.to_move = pos.to_move.other();
        out
    }

    fn exchange_action(&self, _pos: &Position, action: &Action) -> Action {
        match *action {
            Action::Move { from, to } => Action::Move {
                from: Self::phi_cell(from),
                to: Self::phi_cell(to),
            },
            Action::Drop { face, to } => Action::Drop {
                face,
                to: Self::phi_cell(to),
            },
        }
    }
}

/// Every Kyoto variant file in the embedded spec, as (path, text).
pub fn builtin_files() -> Vec<(String, String)> {
    crate::spec::embedded_files("kyoto")
}

/// The shipped Kyoto variants, built from the embedded spec.
pub fn builtin_variants() -> Vec<KyotoRules> {
    variants_on(Library::builtin()).expect("the embedded Kyoto data is validated by the test suite")
}

/// The Kyoto variants built on the boards of `lib`.
pub fn variants_on(lib: &Library) -> Result<Vec<KyotoRules>, DataError> {
    variants_from_files(&builtin_files(), lib)
}

/// Variants built from data files given as (label, text) pairs (an edited
/// copy of `spec/kyoto/`; the caller reads the files).
pub fn variants_from_files(
    files: &[(String, String)],
    lib: &Library,
) -> Result<Vec<KyotoRules>, DataError> {
    files
        .iter()
        .map(|(file, text)| KyotoRules::from_toml(file, text, lib))
        .collect()
}
