//! Kyoto shogi (`spec/kyoto/rules.md`): shogi on a flat 5×5 board where
//! every non-king token turns over after each move.
//!
//! The family is small on purpose: the board, its step tables and the face
//! movements come from the shared layers, so this module holds only what is
//! particular to Kyoto — flipping, drops of either face, the endings and
//! the exchange FEN. [`KyotoRules`] implements [`Rules`]; its variants are
//! `kyoto` (the original repetition rule) and `kyoto-repetition-loss` (the
//! alternative the source mentions), both built from `spec/kyoto/*.toml`.
//!
//! The modules: [`pieces`] (faces and two-faced tokens, as data), [`data`]
//! (the TOML files), [`position`] (the exchange FEN), [`movegen`] (moves,
//! drops, playing them), [`attacks`] (check), [`endings`] (adjudication),
//! [`exchange`] (Φ and the left–right mirror), [`picture`] and [`audit`].
//! This file keeps [`KyotoRules`], its design facts, the [`Rules`] impl and
//! the builders of the shipped variants.

pub mod attacks;
pub mod audit;
pub mod data;
pub mod endings;
pub mod exchange;
pub mod movegen;
pub mod picture;
pub mod pieces;
pub mod position;

use crate::geometry::Geometry;
use crate::movement::Facing;
use crate::rules::{
    ActionError, GameResult, History, IllegalReason, Key, Player, PositionError, Rules,
};
use crate::spec::Library;
use crate::topology::CellId;

pub use data::{DataError, RepetitionRule};
pub use movegen::Action;
use pieces::{Face, Faces, Piece};
use position::{Position, SIZE};

/// One Kyoto variant bound to its data.
pub struct KyotoRules {
    name: String,
    rules_version: String,
    geo: Geometry,
    setup: [Face; SIZE],
    /// The faces and tokens (`[pieces]`, `[flips]`: KY-1.4).
    faces: Faces,
    /// `forms[face][facing]`: each face's compiled movement (`[pieces]`).
    forms: Vec<[crate::movement::square::Form; 2]>,
    /// `keeps_colour[face]`: every move of the face keeps the colour of
    /// its cell (GEO-I2), as the bishop's does.
    keeps_colour: Vec<bool>,
    /// `moves[face]`: the movement texts as written, for the legend.
    moves: Vec<String>,
    repetition_at: u32,
    repetition: RepetitionRule,
    /// `values[face]`: what a face on the board is worth to the practice
    /// opponent.
    values: Vec<i32>,
    /// `hand_values[token]`: a token in hand may be dropped either face
    /// up, so it is worth its better face.
    hand_values: Vec<i32>,
    /// Only for the mutant engine: drops turn the token over (wrong).
    mutant_flip_on_drop: bool,
}

impl KyotoRules {
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

    /// How `p` moves: its face's form in its owner's facing.
    #[inline]
    fn form(&self, p: Piece) -> &crate::movement::square::Form {
        &self.forms[p.face.index()][p.owner.index()]
    }

    /// The variant's faces and tokens, as its file lists them.
    pub fn faces(&self) -> &Faces {
        &self.faces
    }

    /// The face a piece shows after it moves.
    #[inline]
    pub fn flipped(&self, face: Face) -> Face {
        self.faces.flipped(face)
    }

    /// The cell of `p`'s king (its royal face), if it has one.
    pub fn king(&self, pos: &Position, p: Player) -> Option<usize> {
        let royal = self.faces.royal();
        pos.board
            .iter()
            .position(|c| matches!(c, Some(q) if q.owner == p && q.face == royal))
    }

    fn cell_name(&self, c: CellId) -> &str {
        self.geo.board().cell_name(c)
    }

    /// The designer facts of the setup: its faces bound to the colour of
    /// their cell, as the bishop is (GEO-I2), and every drop
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
                Some(p) if self.keeps_colour[p.face.index()] => Some((p.owner, CellId(i as u16))),
                _ => None,
            })
            .collect();
        let mut immobile = Vec::new();
        let mut board = [None; SIZE * SIZE];
        let mut cells = Vec::new();
        for owner in [Player::First, Player::Second] {
            for token in self.faces.tokens() {
                for face in self.faces.faces_of(token) {
                    for c in self.geo.board().cells() {
                        let piece = Piece { owner, face };
                        board[c.index()] = Some(piece);
                        cells.clear();
                        self.targets(&board, c, piece, &mut cells);
                        board[c.index()] = None;
                        if cells.iter().all(|&to| to == c) {
                            let letter = self.faces.letter(face);
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
            // The data states one side only and derives the other by Φ,
            // so no edit can make the two disagree.
            mirrored: Vec::new(),
            phi: Vec::new(),
            pieces: self.piece_facts(),
        }
    }

    /// Each face's movement and its reach on the empty board (the first
    /// player's, facing up). A face turns over instead of promoting, so
    /// its other face is listed as a face of its own.
    fn piece_facts(&self) -> Vec<crate::rules::design_facts::PieceFacts> {
        use crate::rules::design_facts::{PieceFacts, Reach};
        let b = self.geo.board();
        let roster = self.faces.roster();
        let mut board = [None; SIZE * SIZE];
        self.faces
            .faces()
            .map(|face| {
                let piece = Piece {
                    owner: Player::First,
                    face,
                };
                let reach = Reach::of(b.cells(), b.cell_count(), |from, out| {
                    board[from.index()] = Some(piece);
                    self.targets(&board, from, piece, out);
                    board[from.index()] = None;
                });
                PieceFacts::new(
                    roster.name(face),
                    roster.letter(face),
                    &self.moves[face.index()],
                    &reach,
                    None,
                )
            })
            .collect()
    }
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
            hands: position::NO_HANDS,
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
            sum[p.owner.index()] += self.values[p.face.index()];
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
        let text = self.position_text(pos);
        let mut fields: Vec<&str> = text.split(' ').collect();
        fields.truncate(2);
        fields.join(" ")
    }

    fn adjudicate(&self, game: &History<Position>, legal_is_empty: bool) -> Option<GameResult> {
        self.judge(game, legal_is_empty)
    }

    fn format_action(&self, _pos: &Position, action: &Action) -> String {
        match *action {
            Action::Move { from, to } => {
                format!("{}-{}", self.cell_name(from), self.cell_name(to))
            }
            Action::Drop { face, to } => {
                format!("{}*{}", self.faces.letter(face), self.cell_name(to))
            }
        }
    }

    fn notation(&self) -> Option<crate::rules::Notation> {
        Some(crate::rules::Notation::Kyoto)
    }
    fn read_derived_action(&self, pos: &Position, text: &str) -> Result<Action, ActionError> {
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
            let (Some(c), None) = (chars.next(), chars.next()) else {
                return Err(fail(
                    IllegalReason::Syntax,
                    format!("'{text}': a drop is a face letter, '*' and a cell, as in T*c3"),
                ));
            };
            let to = cell(to)?;
            // A letter of no face, or the king's, names no token in hand
            // (NT-I9): the grammar reads any upper-case letter, the
            // variant's faces say which are letters of its tokens.
            let Some((face, token)) = self
                .faces
                .by_letter(c)
                .and_then(|f| Some((f, self.faces.token(f)?)))
            else {
                return Err(fail(
                    IllegalReason::NoPiece,
                    format!(
                        "'{c}' is the letter of no token face of {} ({})",
                        self.name,
                        self.faces.drop_list()
                    ),
                ));
            };
            if pos.hands[pos.to_move.index()][token.index()] == 0 {
                return Err(fail(
                    IllegalReason::NoPiece,
                    format!("no {} token in hand", self.faces.name(face)),
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
        self.position_text(pos)
    }

    fn read_derived_position(&self, text: &str) -> Result<Position, PositionError> {
        let pos = self.read_text(text)?;
        // KY-I6: the game has a fixed set of tokens; a position holds at
        // most as many of each as the initial position does.
        let have = self.tokens_by_kind(&pos);
        let set = self.tokens_by_kind(&self.start());
        for t in self.faces.tokens() {
            if have[t.index()] > set[t.index()] {
                return Err(PositionError {
                    field: "hand".into(),
                    message: format!(
                        "{} {} tokens on the board and in hand; the game has {} (KY-I6)",
                        have[t.index()],
                        self.faces.base_letter(t),
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
    fn player_name(&self, p: Player) -> &'static str {
        // KY-1.1 names no one: the first player and the second.
        match p {
            Player::First => "first player",
            Player::Second => "second player",
        }
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
        self.phi_position(pos)
    }

    fn exchange_action(&self, _pos: &Position, action: &Action) -> Action {
        self.phi_action(action)
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
