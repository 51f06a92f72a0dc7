//! Surface shogi: the rule family of `spec/shogi/rules.md` (rules v0.2).
//!
//! One engine runs four variants, each bound to a board from `spec/boards`
//! and a data file from `spec/shogi`: `shogi-mobius`, `shogi-klein`,
//! `shogi-genus2`, and the control `shogi-flat` (standard shogi on the flat
//! 9×9 board). [`builtin_variants`] builds them from the embedded data.
//!
//! The modules follow the rules text: [`pieces`] (kinds and movement),
//! [`data`] (the TOML files), [`position`] (setups and positions),
//! [`movegen`] (moves, drops, promotion, nifu, pawn-drop mate), [`attacks`]
//! (check), [`endings`] (adjudication), [`key`] (repetition key),
//! [`exchange`] (the player exchange Φ), [`notation`] (action text) and
//! [`text`] (position text). Rule code does no I/O.

pub mod arrows;
pub mod attacks;
pub mod audit;
pub mod data;
pub mod endings;
pub mod exchange;
pub mod key;
pub mod movegen;
pub mod notation;
pub mod picture;
pub mod pieces;
pub mod position;
pub mod routes;
pub mod text;

use crate::checks::Checks;
use crate::geometry::Geometry;
use crate::movement::Facing;
use crate::movement::square::Form;
use crate::rules::{ActionError, GameResult, History, Key, Player, PositionError, Rules};
use crate::spec::Library;
use crate::topology::{CellId, Dir};

pub use data::DataError;
pub use movegen::Action;
pub use pieces::{Kind, Piece};
pub use position::{Hands, Position, Setup};

/// One variant of the family: a board with its precomputed tables and the
/// variant's data.
#[derive(Clone, Debug)]
pub struct ShogiRules {
    name: String,
    version: String,
    geo: Geometry,
    /// The facing a dropped piece takes, per player (`SS-6.1`).
    drop_facing: [Facing; 2],
    /// `band[player][cell]`: the cell is in that player's promotion band.
    band: [Vec<bool>; 2],
    /// `dead[kind][facing]`: bit `r` set when rank `r` (1-based) is dead.
    dead: Vec<[u128; 2]>,
    /// Every kind's movement, compiled for the board (`[pieces]`, MV).
    pieces: data::PieceTable,
    /// The nifu file of each cell: the index of its north orbit.
    file_of: Vec<u16>,
    /// Φ on cells: files and ranks reversed, sheets exchanged.
    phi: Vec<CellId>,
    /// No seam reverses facing, so every piece faces its owner's way.
    fixed_facing: bool,
    /// Whether the position text also accepts USI side letters `b`/`w`.
    usi_sfen: bool,
    /// `piece_set[kind]`: how many pieces of each droppable kind the game
    /// has (SS-I9), counted from the initial position. `None` while the
    /// initial position itself is being validated.
    piece_set: Option<Vec<u32>>,
    /// `values[promoted][kind]`: what a piece is worth to the practice
    /// opponent (`[values]` of the data file); a piece in hand is worth
    /// its unpromoted kind.
    values: [Vec<i32>; 2],
    start: Position,
}

fn facing_index(f: Facing) -> usize {
    match f {
        Facing::Up => 0,
        Facing::Down => 1,
    }
}

impl ShogiRules {
    /// Builds a variant from its data file and the board library: the
    /// first error of [`ShogiRules::load`].
    pub fn new(file: &str, text: &str, lib: &Library) -> Result<ShogiRules, DataError> {
        crate::checks::first(ShogiRules::load(file, text, lib))
    }

    /// Builds a variant from its data file and the board library, or names
    /// every independent mistake of the file, each with its field, in the
    /// order the sections are checked: the board, the drop facings, each
    /// promotion range, each kind's dead ranks, each `[values]` entry, each
    /// setup row, and last the initial position.
    ///
    /// A file that is not valid TOML of the schema stops at once. Without
    /// its board, the sections that read the board (bands, dead ranks,
    /// rows) are not checked; the initial position is judged by the
    /// variant the sections build, so only once all of them passed.
    pub fn load(file: &str, text: &str, lib: &Library) -> Result<ShogiRules, Vec<DataError>> {
        let vf = data::parse(file, text).map_err(|e| vec![e])?;
        let e = |field: &str, message: String| DataError {
            file: file.to_string(),
            field: field.to_string(),
            message,
        };
        let mut checks = Checks::new();
        let geo = checks.take(
            lib.geometry(&vf.board)
                .map_err(|x| e("board", x.to_string())),
        );
        let board = geo.map(Geometry::board);
        let drop_facing = checks.take(data::drop_facings(file, &vf.drop_facing));
        let band =
            board.and_then(|b| checks.take_all(data::promotion_bands(file, &vf.promotion, b)));
        let pieces = checks.take_all(data::piece_table(file, &vf.pieces, &vf.board));
        let dead = board
            .zip(pieces.as_ref())
            .and_then(|(b, p)| checks.take_all(data::dead_ranks(file, &vf.dead_ranks, b, p)));
        let values = pieces.as_ref().and_then(|p| {
            let values = read_values(vf.values.as_ref(), p)
                .map_err(|errors| errors.into_iter().map(|x| e(&x.field, x.message)).collect());
            checks.take_all(values)
        });
        let written_facing = [vf.drop_facing.first, vf.drop_facing.second];
        let cells = board.zip(pieces.as_ref()).and_then(|(b, p)| {
            checks.take_all(data::setup_cells(
                file,
                &vf.setup,
                b,
                &p.roster,
                written_facing,
            ))
        });
        let (
            Some(geo),
            Some(drop_facing),
            Some(band),
            Some(pieces),
            Some(dead),
            Some(values),
            Some(cells),
        ) = (geo, drop_facing, band, pieces, dead, values, cells)
        else {
            return Err(checks.into_errors());
        };
        let geo = geo.clone();
        let board_copy = geo.board().clone();
        let board = &board_copy;
        let n = board.cell_count();
        // Files for nifu: north orbits.
        let mut file_of = vec![u16::MAX; n];
        for (i, (cells, _)) in geo.file_orbits().iter().enumerate() {
            for c in cells {
                file_of[c.index()] = i as u16;
            }
        }
        // Φ on cells.
        let (w, h, charts) = (board.width(), board.height(), board.chart_count() as u8);
        let phi = board
            .cells()
            .map(|c| {
                let sq = board.square(c);
                board.cell(crate::topology::Square {
                    chart: charts - 1 - sq.chart,
                    x: w - 1 - sq.x,
                    y: h - 1 - sq.y,
                })
            })
            .collect();
        let fixed_facing = board.cells().all(|c| {
            Dir::CARDINALS
                .iter()
                .all(|&d| board.step(c, d).is_none_or(|s| !s.transport.flip_y))
        });
        let mut rules = ShogiRules {
            name: vf.variant.clone(),
            version: vf.rules_version.clone(),
            usi_sfen: vf.usi_sfen,
            geo,
            drop_facing,
            band,
            dead,
            pieces,
            file_of,
            phi,
            fixed_facing,
            piece_set: None,
            values,
            start: Position {
                board: vec![],
                hands: position::NO_HANDS,
                to_move: Player::First,
                move_number: 1,
                kings: [None, None],
            },
        };
        let start = rules
            .validate(Setup {
                board: cells,
                hands: position::NO_HANDS,
                to_move: Player::First,
                move_number: 1,
            })
            .map_err(|x| vec![e("setup", x.to_string())])?;
        rules.piece_set = Some(rules.piece_counts(&start));
        rules.start = start;
        Ok(rules)
    }

    pub fn geometry(&self) -> &Geometry {
        &self.geo
    }

    /// The facing a dropped piece of `p` takes.
    pub fn drop_facing(&self, p: Player) -> Facing {
        self.drop_facing[p.index()]
    }

    /// Whether `c` is in `p`'s promotion band.
    pub fn in_band(&self, p: Player, c: CellId) -> bool {
        self.band[p.index()][c.index()]
    }

    /// Whether an unpromoted `kind` facing `f` is dead on `c`'s rank.
    #[inline]
    pub fn is_dead(&self, kind: Kind, f: Facing, c: CellId) -> bool {
        let rank = self.geo.board().square(c).y as u32 + 1;
        self.dead[kind.index()][facing_index(f)] >> rank & 1 == 1
    }

    /// How `p` moves where it stands: its kind's compiled movement,
    /// promoted or not, in its facing.
    #[inline]
    pub fn form(&self, p: Piece) -> &Form {
        &self.pieces.forms[p.kind.index()][usize::from(p.promoted)][facing_index(p.facing)]
    }

    /// The variant's kinds: names and letters, in the file's order.
    pub fn kinds(&self) -> &crate::rules::roster::Roster {
        &self.pieces.roster
    }

    /// The kinds a hand holds, in the order hands are written (every kind
    /// but the royal one, in the file's order).
    pub fn hand_kinds(&self) -> &[Kind] {
        &self.pieces.hand
    }

    /// The upper-case letter of `kind`.
    pub fn letter(&self, kind: Kind) -> char {
        self.pieces.roster.letter(kind)
    }

    /// The name of `kind` in the data file (`silver`).
    pub fn kind_name(&self, kind: Kind) -> &str {
        self.pieces.roster.name(kind)
    }

    /// Whether `kind` is the king (SS-7).
    #[inline]
    pub fn is_royal(&self, kind: Kind) -> bool {
        self.pieces.is_royal(kind)
    }

    /// Whether nifu applies to drops of `kind` (SS-6.2).
    #[inline]
    pub fn has_nifu(&self, kind: Kind) -> bool {
        self.pieces.nifu[kind.index()]
    }

    /// Whether a drop of `kind` may give mate (SS-6.3 forbids it the pawn).
    #[inline]
    pub fn drop_may_mate(&self, kind: Kind) -> bool {
        self.pieces.drop_mate[kind.index()]
    }

    /// Whether `kind` has a promoted movement (`[pieces]`, SS-5).
    pub fn can_promote(&self, kind: Kind) -> bool {
        self.pieces.can_promote[kind.index()]
    }

    /// The movement text of `kind` as the variant writes it (MV).
    pub fn moves_text(&self, kind: Kind) -> &str {
        &self.pieces.texts[kind.index()].0
    }

    /// The promoted movement text of `kind`, when it promotes.
    pub fn promoted_text(&self, kind: Kind) -> Option<&str> {
        self.pieces.texts[kind.index()].1.as_deref()
    }

    /// Whether a piece of `kind` moves by its facing, so that the facing is
    /// part of its state (SS-I1): derived from its movement.
    #[inline]
    pub fn has_facing(&self, kind: Kind) -> bool {
        self.pieces.has_facing[kind.index()]
    }

    /// The nifu file of a cell (index of its north orbit).
    pub fn file_of(&self, c: CellId) -> u16 {
        self.file_of[c.index()]
    }

    /// A deliberately wrong copy for `seams engine --mutant
    /// nifu-one-sheet`: nifu counts only the pawns on the same sheet and
    /// file letter, forgetting that a file cycle runs across both sheets.
    pub fn mutant_nifu_per_sheet(mut self) -> Self {
        let b = self.geo.board();
        self.file_of = b
            .cells()
            .map(|c| {
                let sq = b.square(c);
                sq.chart as u16 * b.width() as u16 + sq.x as u16
            })
            .collect();
        self
    }

    /// Φ on one cell.
    pub fn phi_cell(&self, c: CellId) -> CellId {
        self.phi[c.index()]
    }
}

/// The `[values]` table, keyed by the kind names of `[pieces]`:
/// `values[promoted][kind]`.
fn read_values(
    table: Option<&toml::Value>,
    pieces: &data::PieceTable,
) -> Result<[Vec<i32>; 2], Vec<crate::values::ValueError>> {
    let roster = &pieces.roster;
    let kinds: Vec<&str> = roster.names().collect();
    let promoting: Vec<&str> = roster
        .kinds()
        .filter(|k| pieces.can_promote[k.index()])
        .map(|k| roster.name(k))
        .collect();
    let names = crate::values::Names {
        kinds: &kinds,
        royal: roster.name(pieces.royal),
        promoted: &promoting,
    };
    let read = crate::values::read_all(table, &names)?;
    Ok([false, true].map(|promoted| {
        roster
            .kinds()
            .map(|k| read.of(roster.name(k), promoted && pieces.can_promote[k.index()]))
            .collect()
    }))
}

impl ShogiRules {
    /// Whether `piece` on `from` has any move on the otherwise empty board.
    fn can_move_alone(&self, from: CellId, piece: Piece) -> bool {
        let mut board = vec![None; self.geo.board().cell_count()];
        board[from.index()] = Some(piece);
        let mut any = false;
        self.piece_targets(&board, from, piece, &mut |_, _| any = true);
        any
    }

    /// The designer facts of the setup: its bishops; each pawn's fewest
    /// forward steps (facing transported, SS-4.6) to a cell of its owner's
    /// band, where it may promote (SS-5.2); and every drop the dead ranks
    /// allow (SS-6.4, read with the drop facing of SS-6.1) onto a cell the
    /// dropped piece could never leave. Nifu and pawn-drop mate depend on
    /// the position, so they are not consulted.
    fn design(&self) -> crate::rules::design_facts::Facts {
        use crate::rules::design_facts::{
            DropFacts, Facts, ImmobileDrop, PawnFacts, PawnPath, fewest_moves,
        };
        let b = self.geo.board();
        let mut bishops = Vec::new();
        let mut pawns = Vec::new();
        for c in b.cells() {
            let Some(p) = self.start.piece_at(c) else {
                continue;
            };
            if p.promoted {
                continue;
            }
            if self.pieces.keeps_colour[p.kind.index()] {
                bishops.push((p.owner, c));
            }
            if self.has_nifu(p.kind) {
                let mut board = vec![None; b.cell_count()];
                let moves = fewest_moves(
                    (c, p.facing),
                    |(here, facing), out| {
                        let piece = Piece { facing, ..p };
                        board[here.index()] = Some(piece);
                        self.piece_targets(&board, here, piece, &mut |to, t| {
                            out.push((to, facing.transported(t)))
                        });
                        board[here.index()] = None;
                    },
                    |(here, _)| self.in_band(p.owner, here),
                );
                pawns.push(PawnPath {
                    owner: p.owner,
                    cell: b.cell_name(c).to_string(),
                    moves,
                });
            }
        }
        let mut immobile = Vec::new();
        for owner in [Player::First, Player::Second] {
            let facing = self.drop_facing(owner);
            for &kind in self.hand_kinds() {
                for c in b.cells() {
                    let piece = Piece {
                        owner,
                        kind,
                        promoted: false,
                        facing,
                    };
                    if !self.is_dead(kind, facing, c) && !self.can_move_alone(c, piece) {
                        immobile.push(ImmobileDrop {
                            owner,
                            piece: self.piece_text(piece),
                            cell: b.cell_name(c).to_string(),
                        });
                    }
                }
            }
        }
        Facts {
            board: Some(b.name().to_string()),
            bishops,
            pawns: PawnFacts::Paths { pawns },
            drops: DropFacts::Checked {
                rule: "SS-6.4".into(),
                immobile,
            },
            mirrored: self.player_cells(),
            phi: b.cells().map(|c| self.phi_cell(c)).collect(),
            pieces: self.piece_facts(),
        }
    }

    /// Each kind's movement and its reach on the empty board, facing A's
    /// drop facing, unpromoted and (where it promotes) promoted.
    fn piece_facts(&self) -> Vec<crate::rules::design_facts::PieceFacts> {
        use crate::rules::design_facts::{PieceFacts, Reach};
        let b = self.geo.board();
        let n = b.cell_count();
        let mut board = vec![None; n];
        let mut reach = |piece: Piece| {
            Reach::of(b.cells(), n, |from, out| {
                board[from.index()] = Some(piece);
                self.piece_targets(&board, from, piece, &mut |to, _| out.push(to));
                board[from.index()] = None;
            })
        };
        self.kinds()
            .kinds()
            .map(|kind| {
                let piece = |promoted| Piece {
                    owner: Player::First,
                    kind,
                    promoted,
                    facing: self.drop_facing(Player::First),
                };
                let own = reach(piece(false));
                let promoted = self.promoted_text(kind).map(|m| (m, reach(piece(true))));
                PieceFacts::new(
                    self.kind_name(kind),
                    self.letter(kind),
                    self.moves_text(kind),
                    &own,
                    promoted.as_ref().map(|(m, r)| (*m, r)),
                )
            })
            .collect()
    }

    /// Each player's promotion band (SS-5.1) and, per piece in hand, the
    /// cells a drop is allowed on by the dead ranks (SS-6.4) read with the
    /// player's drop facing. The data states both players' bands and both
    /// facings' dead ranks, so an edit can make them disagree under Φ.
    fn player_cells(&self) -> Vec<crate::rules::design_facts::PlayerCells> {
        use crate::rules::design_facts::PlayerCells;
        let b = self.geo.board();
        let both = |of: &dyn Fn(Player, CellId) -> bool| {
            [Player::First, Player::Second].map(|p| b.cells().filter(|&c| of(p, c)).collect())
        };
        let mut out = vec![PlayerCells {
            rule: "promotion zone".into(),
            cells: both(&|p, c| self.in_band(p, c)),
        }];
        for &kind in self.hand_kinds() {
            out.push(PlayerCells {
                rule: format!("drops of {}", self.letter(kind)),
                cells: both(&|p, c| !self.is_dead(kind, self.drop_facing(p), c)),
            });
        }
        out
    }
}

/// The variant data files compiled into this build, as (path, text).
pub fn builtin_files() -> Vec<(String, String)> {
    crate::spec::embedded_files("shogi")
}

/// Builds variants from data files given as (label, text) pairs against a
/// board library (the designer workflow: an edited copy of `spec/`; the
/// caller reads the files). Sorted by name.
pub fn variants_from_files(
    files: &[(String, String)],
    lib: &Library,
) -> Result<Vec<ShogiRules>, DataError> {
    let mut v = files
        .iter()
        .map(|(p, t)| ShogiRules::new(p, t, lib))
        .collect::<Result<Vec<_>, _>>()?;
    v.sort_by(|a, b| a.name.cmp(&b.name));
    Ok(v)
}

/// All variants of the family built from the embedded data and boards,
/// sorted by name: `shogi-flat`, `shogi-genus2`, `shogi-klein`,
/// `shogi-mobius`.
pub fn builtin_variants() -> Vec<ShogiRules> {
    variants_from_files(&builtin_files(), Library::builtin())
        .expect("the embedded shogi data is validated by the test suite")
}

/// One built-in variant by name.
pub fn builtin_variant(name: &str) -> Option<ShogiRules> {
    builtin_variants().into_iter().find(|r| r.name == name)
}

impl Rules for ShogiRules {
    type Position = Position;
    type Action = Action;

    fn drawing(&self) -> Option<&dyn crate::rules::drawing::Draw<Position, Action>> {
        Some(self)
    }
    fn variant(&self) -> &str {
        &self.name
    }
    fn rules_version(&self) -> &str {
        &self.version
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
        self.play(pos, action)
    }
    fn in_check(&self, pos: &Position) -> bool {
        self.checked(pos)
    }
    fn audit_facts(&self) -> Option<&dyn crate::rules::audit_facts::Audit<Position>> {
        Some(self)
    }
    fn design_facts(&self) -> Option<crate::rules::design_facts::Facts> {
        Some(self.design())
    }
    fn display_arrows(&self, start: &Position, actions: &[Action]) -> Vec<(String, Facing)> {
        // Where no seam reverses vertical directions every arrow is its
        // owner's drop facing, and the pictures draw none (as for facing).
        if self.fixed_facing {
            return Vec::new();
        }
        let b = self.geo.board();
        self.game_arrows(start, actions)
            .into_iter()
            .map(|(c, f)| (b.cell_name(c).to_string(), f))
            .collect()
    }
    fn key(&self, pos: &Position) -> Key {
        self.repetition_key(pos)
    }
    fn material(&self, pos: &Position) -> [i32; 2] {
        let mut sum = [0; 2];
        for p in pos.board.iter().flatten() {
            sum[p.owner.index()] += self.values[usize::from(p.promoted)][p.kind.index()];
        }
        for (total, hand) in sum.iter_mut().zip(&pos.hands) {
            for (&n, &v) in hand.iter().zip(&self.values[0]) {
                *total += i32::from(n) * v;
            }
        }
        sum
    }
    fn adjudicate(&self, game: &History<Position>, legal_is_empty: bool) -> Option<GameResult> {
        self.judge(game, legal_is_empty)
    }
    fn format_action(&self, pos: &Position, action: &Action) -> String {
        self.action_text(pos, action)
    }
    fn format_legal(&self, _pos: &Position, legal: &[Action]) -> Vec<String> {
        legal
            .iter()
            .map(|a| self.action_text_in(legal, a))
            .collect()
    }
    fn notation(&self) -> Option<crate::rules::Notation> {
        Some(crate::rules::Notation::Shogi)
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
    fn exchange(&self, pos: &Position) -> Position {
        self.phi_position(pos)
    }
    fn other_to_move(&self, pos: &Position) -> Option<Position> {
        let mut p = pos.clone();
        p.to_move = p.to_move.other();
        Some(p)
    }
    fn exchange_action(&self, _pos: &Position, action: &Action) -> Action {
        self.phi_action(action)
    }
    fn perft(&self, pos: &Position, depth: u32) -> u64 {
        self.count_leaves(pos, depth)
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
        let mut as_mover = pos.clone();
        as_mover.to_move = mover;
        Some((as_mover, self.analysis(pos, mover, king_safety)))
    }

    fn player_name(&self, p: Player) -> &'static str {
        pieces::player_name(p)
    }

    fn capabilities(&self) -> &'static [&'static str] {
        &["drops", "promotion"]
    }
}
