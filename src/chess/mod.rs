//! Surface chess: FIDE chess pieces on the Möbius strip, the Klein bottle
//! and the genus-two surface (rules 0.1), plus the flat 8×8 control that
//! reproduces published perft from the same engine.
//!
//! The normative text is `spec/chess/rules.md`; clause numbers `SC-…` in
//! comments point into it. Each variant is a data file in `spec/chess/`
//! (board, setup, promotion, castling, thresholds), embedded at build time;
//! [`builtin_variants`] builds all four. The modules split the family by
//! concept:
//!
//! - [`pieces`]: kinds, pieces with pawn fields, castling sides;
//! - [`data`]: the variant files and their validation;
//! - [`position`]: [`Setup`] (editable) and [`Position`] (validated);
//! - [`movegen`]: actions, generation, making moves;
//! - [`attacks`]: attacked cells and check;
//! - [`key`]: the repetition key;
//! - [`endings`]: adjudication in the rules' order;
//! - [`exchange`]: the player exchange Φ;
//! - [`text`]: the one-line position text and action notation.
//!
//! Rule code does no I/O.

pub mod attacks;
pub mod audit;
pub mod data;
pub mod endings;
pub mod exchange;
pub mod key;
pub mod movegen;
pub mod picture;
pub mod pieces;
pub mod position;
pub mod routes;
pub mod text;

pub use data::{DataError, VariantData, VariantFile};
pub use movegen::{Action, Special};
pub use pieces::{Kind, Piece, Side};
pub use position::{CastlingRights, Position, Setup, SetupError, Trace};

use crate::checks::Checks;
use crate::geometry::Geometry;
use crate::movement::Facing;
use crate::movement::lang::Mode;
use crate::rules::{ActionError, GameResult, History, Key, Player, PositionError, Rules};
use crate::spec::Library;
use crate::topology::{CellId, Gluing};
use data::{CastleSpec, Promotion};

/// One surface-chess variant: its data, its board, and tables derived once.
#[derive(Clone, Debug)]
pub struct ChessRules {
    pub(crate) data: VariantData,
    pub(crate) geo: Geometry,
    /// `castles[player][side]`; Black's are the exchange images of White's.
    castles: Option<[[CastleSpec; 2]; 2]>,
    /// Bit `2·owner + (facing is down)` set where such a pawn promotes.
    promo_mask: Vec<u8>,
    /// Φ on cells.
    pub(crate) exchange_cell: Vec<CellId>,
    /// Whether two routes can reach one outcome (any glued side or chart).
    pub(crate) may_repeat: bool,
    start: Position,
    /// Only for the mutant engine: the en-passant middle cell is guessed
    /// as the chart neighbour behind the destination (wrong).
    pub(crate) mutant_ep_by_neighbour: bool,
    /// `leaps[kind][facing]`: each form's single steps and knight leaps
    /// from every cell, found once for the board.
    leaps: Vec<[crate::movement::square::Leaps; 2]>,
}

/// A variant that cannot be built from its data.
#[derive(Debug, thiserror::Error)]
pub enum VariantError {
    #[error(transparent)]
    Data(#[from] DataError),
    #[error(transparent)]
    Spec(#[from] crate::spec::SpecError),
    #[error("{file}: the start position is not valid: {error}")]
    Start { file: String, error: SetupError },
}

impl ChessRules {
    /// Builds a variant from its data file and the board library: the
    /// first error of [`ChessRules::load`].
    pub fn from_file(
        file: &str,
        text: &str,
        library: &Library,
    ) -> Result<ChessRules, VariantError> {
        crate::checks::first(ChessRules::load(file, text, library))
    }

    /// Builds a variant from its data file and the board library, or names
    /// every independent mistake of the file in the order the sections are
    /// checked: the board, then the sections of
    /// [`VariantData::resolve_all`], and last the start position.
    ///
    /// A file that is not valid TOML of the schema stops at once; without
    /// its board, only the sections that do not read it are checked. The
    /// start position is judged by the variant the sections build, so only
    /// once all of them passed.
    pub fn load(
        file: &str,
        text: &str,
        library: &Library,
    ) -> Result<ChessRules, Vec<VariantError>> {
        let vf = VariantFile::parse(file, text).map_err(|e| vec![e.into()])?;
        let mut checks = Checks::new();
        // Named by file and field like every other data error: a typo in
        // `board` is a mistake in this file, not in the library.
        let geo = checks.take(library.geometry(&vf.board).map_err(|e| DataError {
            file: file.to_string(),
            field: "board".into(),
            message: e.to_string(),
        }));
        let data = VariantData::check(file, &vf, geo, &mut checks);
        let (Some(geo), Some(data)) = (geo, data) else {
            let errors = checks.into_errors();
            return Err(errors.into_iter().map(VariantError::from).collect());
        };
        ChessRules::new(file, data, geo.clone()).map_err(|e| vec![e])
    }

    fn new(file: &str, data: VariantData, geo: Geometry) -> Result<ChessRules, VariantError> {
        let board = geo.board();
        let exchange_cell = board
            .cells()
            .map(|c| exchange::map_cell(board, data.exchange, c))
            .collect();
        let (ew, ns) = board.side_gluing();
        let may_repeat =
            board.chart_count() > 1 || ew != Gluing::Boundary || ns != Gluing::Boundary;
        let mut promo_mask = vec![0u8; board.cell_count()];
        for c in board.cells() {
            let sq = board.square(c);
            for owner in [Player::First, Player::Second] {
                for facing in [Facing::Up, Facing::Down] {
                    let hit = match &data.promotion {
                        Promotion::FacingLastRank => match facing {
                            Facing::Up => sq.y + 1 == board.height(),
                            Facing::Down => sq.y == 0,
                        },
                        Promotion::OwnerRanks(r) => r[owner.index()] == (sq.chart, sq.y),
                    };
                    if hit {
                        promo_mask[c.index()] |= promo_bit(owner, facing);
                    }
                }
            }
        }
        let mut rules = ChessRules {
            castles: None,
            promo_mask,
            exchange_cell,
            may_repeat,
            start: Position {
                board: vec![],
                to_move: Player::First,
                castling: CastlingRights::NONE,
                en_passant: None,
                halfmove: 0,
                ply: 0,
                kings: [CellId(0); 2],
            },
            leaps: data
                .pieces
                .forms
                .iter()
                .map(|f| {
                    f.clone()
                        .map(|form| crate::movement::square::Leaps::of(&geo, &form))
                })
                .collect(),
            data,
            geo,
            mutant_ep_by_neighbour: false,
        };
        rules.castles = rules.data.castling.as_ref().map(|w| {
            let black = |s: &CastleSpec| CastleSpec {
                king: rules.phi(s.king),
                king_to: rules.phi(s.king_to),
                transit: rules.phi(s.transit),
                rook: rules.phi(s.rook),
                rook_to: rules.phi(s.rook_to),
                between: s.between.iter().map(|&c| rules.phi(c)).collect(),
                ..*s
            };
            [w.clone(), [black(&w[0]), black(&w[1])]]
        });
        let mut cells = vec![None; rules.geo.board().cell_count()];
        for &(c, p) in &rules.data.white_setup {
            cells[c.index()] = Some(p);
            cells[rules.phi(c).index()] = Some(rules.exchange_piece(p));
        }
        let mut castling = CastlingRights::NONE;
        if rules.castles.is_some() {
            castling = CastlingRights([[true; 2]; 2]);
        }
        let setup = Setup {
            cells,
            to_move: Player::First,
            castling,
            en_passant: None,
            halfmove: 0,
            ply: 0,
        };
        rules.start = rules.validate(setup).map_err(|error| VariantError::Start {
            file: file.to_string(),
            error,
        })?;
        Ok(rules)
    }

    pub fn data(&self) -> &VariantData {
        &self.data
    }
    pub fn geometry(&self) -> &Geometry {
        &self.geo
    }
    pub(crate) fn phi(&self, c: CellId) -> CellId {
        self.exchange_cell[c.index()]
    }

    /// The castling data of one player and side, if the variant castles.
    pub fn castle(&self, p: Player, s: Side) -> Option<&CastleSpec> {
        self.castles.as_ref().map(|c| &c[p.index()][s.index()])
    }

    /// How `p` moves where it stands: its kind's compiled movement in its
    /// facing (`[pieces]`, MV).
    #[inline]
    pub(crate) fn form(&self, p: Piece) -> &crate::movement::square::Form {
        let f = match p.facing {
            Facing::Up => 0,
            Facing::Down => 1,
        };
        &self.data.pieces.forms[p.kind.index()][f]
    }

    /// The single steps and knight leaps of `p`'s form from every cell.
    #[inline]
    pub(crate) fn leaps(&self, p: Piece) -> &crate::movement::square::Leaps {
        let f = match p.facing {
            Facing::Up => 0,
            Facing::Down => 1,
        };
        &self.leaps[p.kind.index()][f]
    }

    /// The movement text of `kind` as the variant writes it (MV).
    pub fn moves_text(&self, kind: Kind) -> &str {
        &self.data.pieces.texts[kind.index()]
    }

    /// The variant's kinds: names and letters, in the file's order.
    pub fn kinds(&self) -> &crate::rules::roster::Roster {
        &self.data.pieces.roster
    }

    /// The upper-case letter of `kind`.
    pub fn letter(&self, kind: Kind) -> char {
        self.data.pieces.roster.letter(kind)
    }

    /// The name of `kind` in the data file (`knight`).
    pub fn kind_name(&self, kind: Kind) -> &str {
        self.data.pieces.roster.name(kind)
    }

    /// Whether `kind` is the king (SC-7).
    #[inline]
    pub fn is_royal(&self, kind: Kind) -> bool {
        kind == self.data.pieces.royal
    }

    /// The royal kind.
    #[inline]
    pub fn royal(&self) -> Kind {
        self.data.pieces.royal
    }

    /// Whether `kind` is the pawn (SC-4).
    #[inline]
    pub fn is_pawn(&self, kind: Kind) -> bool {
        self.data.pieces.pawn == Some(kind)
    }

    /// A piece of any kind: a pawn keeps its facing and double-step flag,
    /// any other kind faces up without a flag, so that equal pieces
    /// compare equal (SC-3.1).
    pub fn piece(&self, owner: Player, kind: Kind, facing: Facing, double_step: bool) -> Piece {
        if self.is_pawn(kind) {
            Piece {
                owner,
                kind,
                facing,
                double_step,
            }
        } else {
            Piece::new(owner, kind)
        }
    }

    /// The position-text letter of `p`: upper case for White, lower case
    /// for Black.
    pub fn piece_letter(&self, p: Piece) -> char {
        let c = self.letter(p.kind);
        match p.owner {
            Player::First => c,
            Player::Second => c.to_ascii_lowercase(),
        }
    }

    /// The single steps a pawn of `facing` advances by without capturing:
    /// its move-only and move-or-capture steps (SC-4.1); none without a
    /// pawn.
    #[inline]
    pub(crate) fn advance_steps(&self, facing: Facing) -> u8 {
        let Some(pawn) = self.data.pieces.pawn else {
            return 0;
        };
        let f = self.form(self.piece(Player::First, pawn, facing, false));
        f.steps[Mode::Any.index()] | f.steps[Mode::Move.index()]
    }

    /// Whether a pawn of `owner` arriving on `c` with `facing` must promote.
    #[inline]
    pub fn promotes(&self, owner: Player, facing: Facing, c: CellId) -> bool {
        self.promo_mask[c.index()] & promo_bit(owner, facing) != 0
    }
}

impl ChessRules {
    /// The designer facts of the setup: its bishops, and each pawn's fewest
    /// single forward steps (SC-4.1, facing transported by every seam) to a
    /// cell where it promotes (SC-4.5). A double step only joins two single
    /// steps, and captures need an enemy piece, so neither adds a cell the
    /// empty board does not already offer. Chess has no drops.
    fn design(&self) -> crate::rules::design_facts::Facts {
        let b = self.geo.board();
        let mut bishops = Vec::new();
        let mut pawns = Vec::new();
        for c in b.cells() {
            let Some(p) = self.start.piece(c) else {
                continue;
            };
            if self.data.pieces.keeps_colour[p.kind.index()] {
                bishops.push((p.owner, c));
            }
            if self.is_pawn(p.kind) {
                let moves = crate::rules::design_facts::fewest_moves(
                    (c, p.facing),
                    |(here, facing), out| {
                        let quiet = self.advance_steps(facing);
                        for d in crate::topology::Dir::ALL {
                            if quiet & (1 << d.index()) != 0
                                && let Some(s) = self.geo.step(here, d)
                                && s.to != here
                            {
                                out.push((s.to, facing.transported(s.transport)));
                            }
                        }
                    },
                    |(here, facing)| self.promotes(p.owner, facing, here),
                );
                pawns.push(crate::rules::design_facts::PawnPath {
                    owner: p.owner,
                    cell: b.cell_name(c).to_string(),
                    moves,
                });
            }
        }
        crate::rules::design_facts::Facts {
            board: Some(b.name().to_string()),
            bishops,
            pawns: crate::rules::design_facts::PawnFacts::Paths { pawns },
            drops: crate::rules::design_facts::DropFacts::NoDrops,
            mirrored: self.player_cells(),
            phi: b.cells().map(|c| self.phi(c)).collect(),
            pieces: self.piece_facts(),
        }
    }

    /// Each kind's movement and its reach on the empty board (White's,
    /// facing up): every landing of its movement, captures included, so a
    /// pawn's diagonals count; its double step is a rule, not movement.
    fn piece_facts(&self) -> Vec<crate::rules::design_facts::PieceFacts> {
        use crate::rules::design_facts::{PieceFacts, Reach};
        let b = self.geo.board();
        let empty = |_: CellId| false;
        self.kinds()
            .kinds()
            .map(|kind| {
                let form = self.form(self.piece(Player::First, kind, Facing::Up, false));
                let reach = Reach::of(b.cells(), b.cell_count(), |from, out| {
                    crate::movement::square::targets(&self.geo, from, form, &empty, &mut |l, _| {
                        out.push(l.cell)
                    })
                });
                PieceFacts::new(
                    self.kind_name(kind),
                    self.letter(kind),
                    self.moves_text(kind),
                    &reach,
                    None,
                )
            })
            .collect()
    }

    /// Where each player's pawns promote (SC-4.5), for each facing a pawn
    /// can arrive with: the first player's facing up is Φ of the second
    /// player's facing down. A promotion given by owner and rank can make
    /// the two disagree.
    fn player_cells(&self) -> Vec<crate::rules::design_facts::PlayerCells> {
        let b = self.geo.board();
        [Facing::Up, Facing::Down]
            .into_iter()
            .map(|f| {
                let cells = [(Player::First, f), (Player::Second, f.reversed())]
                    .map(|(p, f)| b.cells().filter(|&c| self.promotes(p, f, c)).collect());
                crate::rules::design_facts::PlayerCells {
                    rule: format!(
                        "promotion zone (White's pawns facing {}, Black's facing {})",
                        f.name(),
                        f.reversed().name()
                    ),
                    cells,
                }
            })
            .collect()
    }
}

fn promo_bit(owner: Player, facing: Facing) -> u8 {
    1 << (owner.index() * 2 + usize::from(facing == Facing::Down))
}

impl ChessRules {
    /// A deliberately wrong copy for `seams engine --mutant
    /// en-passant-by-neighbour`: the capture cell is guessed as the chart
    /// neighbour behind the pawn's destination, as on a flat board, instead
    /// of the middle cell recorded from the actual route.
    pub fn mutant_en_passant_by_neighbour(mut self) -> Self {
        self.mutant_ep_by_neighbour = true;
        self
    }
}

/// The variant files compiled into this build, as (path, text).
pub fn builtin_files() -> Vec<(String, String)> {
    crate::spec::embedded_files("chess")
}

/// All built-in variants, from the embedded data and the built-in boards.
/// Panics only if the embedded data is invalid, which the test suite rules out.
pub fn builtin_variants() -> Vec<ChessRules> {
    try_builtin_variants().expect("the embedded chess data is validated by the test suite")
}

/// All built-in variants, reporting the first invalid file.
pub fn try_builtin_variants() -> Result<Vec<ChessRules>, VariantError> {
    builtin_files()
        .iter()
        .map(|(f, t)| ChessRules::from_file(f, t, Library::builtin()))
        .collect()
}

/// One built-in variant by name (`chess-mobius`, …).
pub fn builtin_variant(name: &str) -> Option<ChessRules> {
    builtin_variants().into_iter().find(|v| v.variant() == name)
}

impl Rules for ChessRules {
    type Position = Position;
    type Action = Action;

    fn drawing(&self) -> Option<&dyn crate::rules::drawing::Draw<Position, Action>> {
        Some(self)
    }
    fn variant(&self) -> &str {
        &self.data.variant
    }
    fn rules_version(&self) -> &str {
        &self.data.rules_version
    }
    fn start(&self) -> Position {
        self.start.clone()
    }
    fn to_move(&self, pos: &Position) -> Player {
        pos.to_move
    }
    fn legal_actions(&self, pos: &Position) -> Vec<Action> {
        self.legal(pos)
    }
    fn apply(&self, pos: &Position, action: &Action) -> Position {
        self.make(pos, action)
    }
    fn in_check(&self, pos: &Position) -> bool {
        self.attacked(
            &pos.board,
            pos.kings[pos.to_move.index()],
            pos.to_move.other(),
        )
    }
    fn key(&self, pos: &Position) -> Key {
        self.repetition_key(pos)
    }
    fn material(&self, pos: &Position) -> [i32; 2] {
        let mut sum = [0; 2];
        for p in pos.board.iter().flatten() {
            sum[p.owner.index()] += self.data.values[p.kind.index()];
        }
        sum
    }
    fn adjudicate(&self, game: &History<Position>, legal_is_empty: bool) -> Option<GameResult> {
        self.ending(game, legal_is_empty)
    }
    fn format_action(&self, pos: &Position, action: &Action) -> String {
        self.action_text(pos, action)
    }
    fn format_legal(&self, pos: &Position, legal: &[Action]) -> Vec<String> {
        legal
            .iter()
            .map(|a| self.action_text_in(pos, legal, a))
            .collect()
    }
    fn notation(&self) -> Option<crate::rules::Notation> {
        Some(crate::rules::Notation::Chess)
    }
    fn read_derived_action(&self, pos: &Position, text: &str) -> Result<Action, ActionError> {
        self.read_action(pos, text)
    }
    fn format_position(&self, pos: &Position) -> String {
        self.position_text(pos)
    }
    fn read_derived_position(&self, text: &str) -> Result<Position, PositionError> {
        self.read_position(text)
    }
    fn rights(&self, pos: &Position) -> crate::rules::Rights {
        self.position_rights(pos)
    }
    fn exchange(&self, pos: &Position) -> Position {
        self.exchange_position(pos)
    }
    fn other_to_move(&self, pos: &Position) -> Option<Position> {
        let mut p = pos.clone();
        p.to_move = p.to_move.other();
        Some(p)
    }
    fn exchange_action(&self, pos: &Position, action: &Action) -> Action {
        self.exchange_move(pos, action)
    }
    fn perft(&self, pos: &Position, depth: u32) -> u64 {
        self.perft_count(pos, depth)
    }
    fn independent_legal_actions(&self, pos: &Position) -> Option<Vec<Action>> {
        Some(self.legal_by_definition(pos))
    }
    fn analysis_actions(
        &self,
        pos: &Position,
        mover: Player,
        king_safety: bool,
    ) -> Option<(Position, Vec<Action>)> {
        Some(self.analysis(pos, mover, king_safety))
    }
    fn audit_facts(&self) -> Option<&dyn crate::rules::audit_facts::Audit<Position>> {
        Some(self)
    }
    fn design_facts(&self) -> Option<crate::rules::design_facts::Facts> {
        Some(self.design())
    }
    fn player_name(&self, p: Player) -> &'static str {
        // SC-1.2.
        pieces::player_name(p)
    }

    fn capabilities(&self) -> &'static [&'static str] {
        if self.castles.is_some() {
            &["castling", "en-passant", "promotion"]
        } else {
            &["en-passant", "promotion"]
        }
    }
}
