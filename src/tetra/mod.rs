//! Tetrahedral Shogi and Tetrahedral Hexgi: shogi-style play with drops on
//! the side-9 tetrahedral board (`spec/tetra/rules.md`).
//!
//! - [`pieces`] — pieces; a kind is a place in the variant's army.
//! - [`data`] — the variant files `spec/tetra/*.toml` (the army's kinds
//!   with their letters, movement and roles, arrays, zone, repetition
//!   count), embedded here and validated.
//! - [`position`] — [`Setup`] → [`Position`] validation and the position text.
//! - [`movegen`] — precomputed tables, generation, attack detection, perft.
//! - [`notation`] — action text.
//!
//! [`TetraRules`] implements [`Rules`], so the variants get the text
//! interface of [`crate::variant::Variant`] for free.

pub mod audit;
pub mod data;
pub mod movegen;
pub mod notation;
pub mod picture;
pub mod pieces;
pub mod position;

use crate::checks::Checks;
use crate::rules::roster::MAX_KINDS;
use crate::rules::{
    ActionError, EndReason, GameResult, History, Key, Player, PositionError, Rules,
};
use crate::spec::Library;
use crate::topology::tetra::TetraBoard;

pub use data::{DataError, VariantData, VariantFile};
pub use movegen::{Change, TetraAction};
pub use pieces::{Kind, Piece};
pub use position::{Position, Setup, SetupError};

/// One tetrahedral variant: its data, board, tables and initial position.
#[derive(Clone, Debug)]
pub struct TetraRules {
    data: VariantData,
    board: TetraBoard,
    t: movegen::Tables,
    /// `piece_set[hand class]`: how many pieces of each class the game has
    /// (TS-I10), counted from the initial array. `None` while the array
    /// itself is being validated.
    piece_set: Option<[u32; MAX_KINDS]>,
    start: Position,
}

impl TetraRules {
    /// Builds a variant from the text of a variant file, on a board of
    /// `lib`: the first error of [`TetraRules::load`].
    pub fn from_toml(file: &str, text: &str, lib: &Library) -> Result<TetraRules, DataError> {
        crate::checks::first(TetraRules::load(file, text, lib))
    }

    /// Builds a variant from the text of a variant file, on a board of
    /// `lib`, or names every independent mistake of the file in the order
    /// the sections are checked: those of [`VariantData::check`], the
    /// board, each starting cell, and last the array as a position.
    ///
    /// A file that is not valid TOML of the schema stops at once; without
    /// its board the starting cells are not checked. The array is judged by
    /// the variant the sections build, so only once all of them passed.
    pub fn load(file: &str, text: &str, lib: &Library) -> Result<TetraRules, Vec<DataError>> {
        let f = VariantFile::parse(file, text).map_err(|e| vec![e])?;
        let mut checks = Checks::new();
        let data = checks.take_all(VariantData::check(file, &f));
        let board = checks.take(lib.solid(&f.board).ok_or_else(|| DataError::UnknownBoard {
            file: file.to_string(),
            board: f.board.clone(),
        }));
        if let Some(board) = board {
            let cells = f
                .pieces
                .iter()
                .flat_map(|(k, e)| e.cells.iter().map(move |name| (k, name)));
            checks.each(cells, |(k, name)| start_cell(board, file, k, name));
        }
        let (Some(data), Some(board), true) = (data, board, checks.passed()) else {
            return Err(checks.into_errors());
        };
        let board = board.clone();
        let t = movegen::Tables::new(&board, &data);
        let mut rules = TetraRules {
            start: Position {
                board: vec![],
                hands: [[0; MAX_KINDS]; 2],
                to_move: Player::First,
                royals: [crate::topology::CellId(0); 2],
            },
            data,
            board,
            t,
            piece_set: None,
        };
        rules.start = rules.initial().map_err(|e| vec![e])?;
        rules.piece_set = Some(rules.piece_counts(&rules.start));
        Ok(rules)
    }

    /// The array of TS-3: White's cells from the data, Black's their Φ images.
    fn initial(&self) -> Result<Position, DataError> {
        let d = &self.data;
        let mut setup = Setup {
            to_move: Some(Player::First),
            ..Setup::default()
        };
        for &k in &d.kinds {
            for name in &d.cells[k.index()] {
                let c = start_cell(&self.board, &d.file, d.roster.name(k), name)?;
                let piece = |owner| Piece {
                    owner,
                    kind: k,
                    promoted: false,
                };
                setup.board.push((name.clone(), piece(Player::First)));
                let image = self.board.cell_name(self.t.phi[c.index()]);
                setup.board.push((image.to_string(), piece(Player::Second)));
            }
        }
        self.position(&setup).map_err(|e| DataError::Field {
            file: d.file.clone(),
            field: "pieces".into(),
            message: format!("the array is not a position: {e}"),
        })
    }

    pub fn data(&self) -> &VariantData {
        &self.data
    }
    pub fn board(&self) -> &TetraBoard {
        &self.board
    }
    pub fn tables(&self) -> &movegen::Tables {
        &self.t
    }
}

/// One of White's starting cells of the kind named `kind`, on the board.
fn start_cell(
    board: &TetraBoard,
    file: &str,
    kind: &str,
    name: &str,
) -> Result<crate::topology::CellId, DataError> {
    board.parse_cell(name).map_err(|e| DataError::Cell {
        file: file.to_string(),
        kind: kind.into(),
        cell: name.to_string(),
        message: e.reason,
    })
}

impl TetraRules {
    /// Every cell `piece` on `from` could move to on the otherwise empty
    /// board.
    fn destinations_alone(
        &self,
        from: crate::topology::CellId,
        piece: Piece,
    ) -> Vec<crate::topology::CellId> {
        let mut pos = self.start.clone();
        pos.board.iter_mut().for_each(|c| *c = None);
        pos.board[from.index()] = Some(piece);
        let mut out = Vec::new();
        self.t.destinations(&pos, from, &mut out);
        out
    }

    /// The designer facts of the setup: each pawn's fewest moves on the
    /// empty board to its owner's promotion zone (TS-4.2), and every drop
    /// TS-5.2 allows onto a cell where the piece has no move. The pawns
    /// are derived from the data, as no kind is named in code: the kinds
    /// that promote and only step forward ([`VariantData::is_pawn`]; the
    /// point of the shipped files). The board has no square cells, so
    /// bishops are bound by the parity classes of GEO-8.5 rather than by a
    /// colouring.
    fn design(&self) -> crate::rules::design_facts::Facts {
        use crate::rules::design_facts::{
            DropFacts, Facts, ImmobileDrop, PawnFacts, PawnPath, fewest_moves,
        };
        let letter = |owner: Player, k: Kind| {
            let c = self.data.letter_of(k);
            match owner {
                Player::First => c.to_string(),
                Player::Second => c.to_ascii_lowercase().to_string(),
            }
        };
        let mut pawns = Vec::new();
        for (c, p) in self.start.pieces() {
            if p.promoted || !self.data.is_pawn(p.kind) {
                continue;
            }
            let moves = fewest_moves(
                c,
                |here, out| out.extend(self.destinations_alone(here, p)),
                |here| self.t.zone[p.owner.index()][here.index()],
            );
            pawns.push(PawnPath {
                owner: p.owner,
                cell: self.board.cell_name(c).to_string(),
                moves,
            });
        }
        let mut immobile = Vec::new();
        for owner in [Player::First, Player::Second] {
            for &k in &self.data.kinds {
                if k == self.data.royal || self.data.hand_class(k) != k {
                    continue;
                }
                let forms = [Some(k), self.data.switches_with[k.index()]];
                for form in forms.into_iter().flatten() {
                    let piece = Piece {
                        owner,
                        kind: form,
                        promoted: false,
                    };
                    for c in self.board.cells() {
                        if !self.t.is_immobile(owner, form, c)
                            && self.destinations_alone(c, piece).is_empty()
                        {
                            immobile.push(ImmobileDrop {
                                owner,
                                piece: letter(owner, form),
                                cell: self.board.cell_name(c).to_string(),
                            });
                        }
                    }
                }
            }
        }
        Facts {
            board: None,
            bishops: Vec::new(),
            pawns: PawnFacts::Paths { pawns },
            drops: DropFacts::Checked {
                rule: "TS-5.2".into(),
                immobile,
            },
            // The data states one side only and derives the other by Φ,
            // so no edit can make the two disagree.
            mirrored: Vec::new(),
            phi: Vec::new(),
            pieces: self.piece_facts(),
        }
    }

    /// Each kind's movement and its reach on the empty board (White's),
    /// and, for a kind that promotes into a movement of its own, the
    /// promoted one's (a kind that promotes into another kind of the army
    /// moves as that kind, which is listed itself).
    fn piece_facts(&self) -> Vec<crate::rules::design_facts::PieceFacts> {
        use crate::rules::design_facts::{PieceFacts, Reach};
        let d = &self.data;
        let n = self.board.cell_count();
        let reach = |piece: Piece| {
            Reach::of(self.board.cells(), n, |from, out| {
                out.extend(self.destinations_alone(from, piece))
            })
        };
        d.kinds
            .iter()
            .map(|&kind| {
                let piece = |promoted| Piece {
                    owner: Player::First,
                    kind,
                    promoted,
                };
                let (moves, promoted) = &d.texts[kind.index()];
                let promoted = promoted.as_deref().map(|m| (m, reach(piece(true))));
                PieceFacts::new(
                    d.roster.name(kind),
                    d.letter_of(kind),
                    moves,
                    &reach(piece(false)),
                    promoted.as_ref().map(|(m, r)| (*m, r)),
                )
            })
            .collect()
    }
}

/// The variants of `spec/tetra/`, built on the embedded board library.
pub fn builtin_variants() -> Vec<TetraRules> {
    try_builtin_variants().expect("the embedded tetra variant files are validated by tests")
}

/// As [`builtin_variants`], reporting a bad embedded file instead.
pub fn try_builtin_variants() -> Result<Vec<TetraRules>, DataError> {
    variants_on(Library::builtin())
}

/// Every tetrahedral variant file in the embedded spec, as (path, text).
pub fn builtin_files() -> Vec<(String, String)> {
    crate::spec::embedded_files("tetra")
}

/// Variants built from data files given as (label, text) pairs (an edited
/// copy of `spec/tetra/`; the caller reads the files).
pub fn variants_from_files(
    files: &[(String, String)],
    lib: &Library,
) -> Result<Vec<TetraRules>, DataError> {
    files
        .iter()
        .map(|(file, text)| TetraRules::from_toml(file, text, lib))
        .collect()
}

/// The variants of `spec/tetra/` built on the boards of `lib` (an edited
/// spec, or a mutated one for the mutant engines).
pub fn variants_on(lib: &Library) -> Result<Vec<TetraRules>, DataError> {
    variants_from_files(&builtin_files(), lib)
}

/// The players of spec/tetra/rules.md: White moves first. Every message
/// names them so, as the picture does.
pub(crate) fn player_name(p: Player) -> &'static str {
    match p {
        Player::First => "White",
        Player::Second => "Black",
    }
}

impl Rules for TetraRules {
    type Position = Position;
    type Action = TetraAction;

    fn drawing(&self) -> Option<&dyn crate::rules::drawing::Draw<Position, TetraAction>> {
        Some(self)
    }
    fn variant(&self) -> &str {
        &self.data.name
    }
    fn rules_version(&self) -> &str {
        &self.data.rules
    }
    fn start(&self) -> Position {
        self.start.clone()
    }
    fn to_move(&self, pos: &Position) -> Player {
        pos.to_move
    }
    fn player_name(&self, p: Player) -> &'static str {
        player_name(p)
    }
    fn legal_actions(&self, pos: &Position) -> Vec<TetraAction> {
        movegen::legal(&self.t, &self.data, pos)
    }
    fn apply(&self, pos: &Position, action: &TetraAction) -> Position {
        let mut next = pos.clone();
        movegen::make(&self.data, &mut next, *action);
        next
    }
    fn in_check(&self, pos: &Position) -> bool {
        self.t
            .attacked(pos, pos.royals[pos.to_move.index()], pos.to_move.other())
    }
    fn material(&self, pos: &Position) -> [i32; 2] {
        let values = &self.data.values;
        let mut sum = [0; 2];
        for p in pos.board.iter().flatten() {
            sum[p.owner.index()] += values[usize::from(p.promoted)][p.kind.index()];
        }
        // Hands are indexed by hand class, whose kind's value counts.
        for (total, hand) in sum.iter_mut().zip(&pos.hands) {
            for (&n, &v) in hand.iter().zip(&values[0]) {
                *total += i32::from(n) * v;
            }
        }
        sum
    }
    /// The position text: placement, side to move and hands are exactly
    /// what TS-6.3 compares; there are no counters.
    fn key(&self, pos: &Position) -> Key {
        self.position_text(pos)
    }
    fn adjudicate(&self, game: &History<Position>, legal_is_empty: bool) -> Option<GameResult> {
        let pos = game.current();
        if legal_is_empty {
            return Some(if self.in_check(pos) {
                GameResult {
                    winner: Some(pos.to_move.other()),
                    reason: EndReason::Checkmate,
                }
            } else {
                GameResult {
                    winner: None,
                    reason: EndReason::Stalemate,
                }
            });
        }
        if game.occurrences_of_current() >= self.data.repetition_draw {
            return Some(GameResult {
                winner: None,
                reason: EndReason::Repetition,
            });
        }
        None
    }
    fn format_action(&self, pos: &Position, action: &TetraAction) -> String {
        self.action_text(pos, action)
    }
    fn notation(&self) -> Option<crate::rules::Notation> {
        Some(crate::rules::Notation::Tetra)
    }
    fn read_derived_action(&self, pos: &Position, text: &str) -> Result<TetraAction, ActionError> {
        self.read_action(pos, text)
    }
    fn format_position(&self, pos: &Position) -> String {
        self.position_text(pos)
    }
    fn read_derived_position(&self, text: &str) -> Result<Position, PositionError> {
        let setup = self.parse_setup(text)?;
        Ok(self.position(&setup)?)
    }
    fn design_facts(&self) -> Option<crate::rules::design_facts::Facts> {
        Some(self.design())
    }
    /// Analysis mode (`TS-A1`, `TS-A2`): the mover's actions in the
    /// position with it to move, never capturing a royal piece.
    fn analysis_actions(
        &self,
        pos: &Position,
        mover: Player,
        king_safety: bool,
    ) -> Option<(Position, Vec<TetraAction>)> {
        let mut seen = pos.clone();
        seen.to_move = mover;
        let actions = movegen::analysis(&self.t, &self.data, &seen, king_safety);
        Some((seen, actions))
    }

    fn other_to_move(&self, pos: &Position) -> Option<Position> {
        let mut p = pos.clone();
        p.to_move = p.to_move.other();
        Some(p)
    }
    fn exchange(&self, pos: &Position) -> Position {
        let mut board = vec![None; pos.board.len()];
        for (c, p) in pos.pieces() {
            board[self.t.phi[c.index()].index()] = Some(Piece {
                owner: p.owner.other(),
                ..p
            });
        }
        Position {
            board,
            hands: [pos.hands[1], pos.hands[0]],
            to_move: pos.to_move.other(),
            royals: [
                self.t.phi[pos.royals[1].index()],
                self.t.phi[pos.royals[0].index()],
            ],
        }
    }
    fn exchange_action(&self, _pos: &Position, action: &TetraAction) -> TetraAction {
        let phi = |c: crate::topology::CellId| self.t.phi[c.index()];
        match *action {
            TetraAction::Move { from, to, change } => TetraAction::Move {
                from: phi(from),
                to: phi(to),
                change,
            },
            TetraAction::Drop { kind, to } => TetraAction::Drop { kind, to: phi(to) },
        }
    }
    fn audit_facts(&self) -> Option<&dyn crate::rules::audit_facts::Audit<Position>> {
        Some(self)
    }
    fn perft(&self, pos: &Position, depth: u32) -> u64 {
        let mut scratch = pos.clone();
        movegen::perft(&self.t, &self.data, &mut scratch, depth)
    }
    /// Every candidate made and tested: the game's list and perft above
    /// trust shields instead, so the two paths check each other.
    fn independent_legal_actions(&self, pos: &Position) -> Option<Vec<TetraAction>> {
        Some(movegen::legal_by_definition(&self.t, &self.data, pos))
    }
}
