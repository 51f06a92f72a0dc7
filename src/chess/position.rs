//! Positions: an editable [`Setup`] of public fields, validated into a
//! [`Position`] that the rules can rely on.
//!
//! A position holds exactly what SC-7.1 lists apart from history: every
//! occupied cell (owner, kind, pawn facing and unused-double-step flag), the
//! side to move, the four castling rights, the optional en-passant trace of
//! the last double step, the halfmove counter and the ply count. The kings'
//! cells are cached because every legality test needs them.

use super::ChessRules;
use super::pieces::{Piece, Side, player_name};
use crate::movement::Facing;
use crate::rules::{Player, PositionError};
use crate::topology::{CellId, Dir};

/// The record a double step leaves for exactly the opponent's next turn.
#[derive(Copy, Clone, Eq, PartialEq, Hash, Ord, PartialOrd, Debug)]
pub struct Trace {
    /// Who made the double step.
    pub owner: Player,
    pub source: CellId,
    /// The cell passed over, where an en-passant capturer lands.
    pub middle: CellId,
    /// Where the vulnerable pawn stands.
    pub destination: CellId,
    /// That pawn's facing after the double step.
    pub facing: Facing,
}

/// `rights[player][side]`: the persistent castling flags.
#[derive(Copy, Clone, Eq, PartialEq, Hash, Debug, Default)]
pub struct CastlingRights(pub [[bool; 2]; 2]);

impl CastlingRights {
    pub const NONE: CastlingRights = CastlingRights([[false; 2]; 2]);
    pub fn get(self, p: Player, s: Side) -> bool {
        self.0[p.index()][s.index()]
    }
    pub fn set(&mut self, p: Player, s: Side, v: bool) {
        self.0[p.index()][s.index()] = v;
    }
}

/// An unchecked position, every field public: build one, then call
/// [`ChessRules::validate`].
#[derive(Clone, Eq, PartialEq, Hash, Debug)]
pub struct Setup {
    /// Indexed by [`CellId::index`]; length is the board's cell count.
    pub cells: Vec<Option<Piece>>,
    pub to_move: Player,
    pub castling: CastlingRights,
    pub en_passant: Option<Trace>,
    /// Consecutive halfmoves without a pawn move or capture.
    pub halfmove: u32,
    /// Halfmoves played since the game's start.
    pub ply: u32,
}

/// A validated position (see [`ChessRules::validate`]).
#[derive(Clone, Eq, PartialEq, Hash, Debug)]
pub struct Position {
    pub(crate) board: Vec<Option<Piece>>,
    pub(crate) to_move: Player,
    pub(crate) castling: CastlingRights,
    pub(crate) en_passant: Option<Trace>,
    pub(crate) halfmove: u32,
    pub(crate) ply: u32,
    /// Derived: each player's king cell.
    pub(crate) kings: [CellId; 2],
}

impl Position {
    pub fn piece(&self, c: CellId) -> Option<Piece> {
        self.board.get(c.index()).copied().flatten()
    }
    pub fn cells(&self) -> &[Option<Piece>] {
        &self.board
    }
    pub fn to_move(&self) -> Player {
        self.to_move
    }
    pub fn castling(&self) -> CastlingRights {
        self.castling
    }
    pub fn en_passant(&self) -> Option<Trace> {
        self.en_passant
    }
    pub fn halfmove(&self) -> u32 {
        self.halfmove
    }
    pub fn ply(&self) -> u32 {
        self.ply
    }
    pub fn king(&self, p: Player) -> CellId {
        self.kings[p.index()]
    }
    /// Number of pieces on the board.
    pub fn piece_count(&self) -> usize {
        self.board.iter().flatten().count()
    }
    /// Back to an editable setup.
    pub fn to_setup(&self) -> Setup {
        Setup {
            cells: self.board.clone(),
            to_move: self.to_move,
            castling: self.castling,
            en_passant: self.en_passant,
            halfmove: self.halfmove,
            ply: self.ply,
        }
    }
}

/// Why a setup is not a position. Each variant names the place.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SetupError {
    #[error("the board has {expected} cells but the setup lists {found}")]
    CellCount { expected: usize, found: usize },
    #[error("{player} needs exactly one king, found {found}")]
    KingCount { player: &'static str, found: usize },
    #[error("the {kind} on {cell} carries pawn fields (facing down or a double-step flag)")]
    NonPawnFields { cell: String, kind: String },
    /// Only a setup built in code can hold a kind the variant lacks; a
    /// text names kinds by letter.
    #[error("the piece on {cell} is of a kind this variant does not have")]
    UnknownKind { cell: String },
    #[error("the pawn on {cell} stands on its own promotion target")]
    PawnOnTarget { cell: String },
    #[error("{player}, not to move, is in check")]
    OpponentInCheck { player: &'static str },
    #[error("castling right {player} {side}: {reason}")]
    Castling {
        player: &'static str,
        side: &'static str,
        reason: String,
    },
    #[error("en-passant trace: {reason}")]
    EnPassant { reason: String },
}

impl SetupError {
    /// The position-text field the error concerns.
    pub fn field(&self) -> &'static str {
        match self {
            SetupError::CellCount { .. }
            | SetupError::KingCount { .. }
            | SetupError::NonPawnFields { .. }
            | SetupError::UnknownKind { .. }
            | SetupError::PawnOnTarget { .. } => "placement",
            SetupError::OpponentInCheck { .. } => "side",
            SetupError::Castling { .. } => "castling",
            SetupError::EnPassant { .. } => "en-passant",
        }
    }
}

impl From<SetupError> for PositionError {
    fn from(e: SetupError) -> PositionError {
        PositionError {
            field: e.field().to_string(),
            message: e.to_string(),
        }
    }
}

impl ChessRules {
    /// Checks a setup: one king each, pawn fields only on pawns, no pawn on
    /// its own target, the side not to move not in check, castling rights
    /// backed by king and rook on their home cells, and an en-passant trace
    /// that is a real double step of the opponent of the side to move.
    pub fn validate(&self, s: Setup) -> Result<Position, SetupError> {
        let board = self.geo.board();
        let n = board.cell_count();
        if s.cells.len() != n {
            return Err(SetupError::CellCount {
                expected: n,
                found: s.cells.len(),
            });
        }
        let mut kings: [Vec<CellId>; 2] = [vec![], vec![]];
        for c in board.cells() {
            let Some(p) = s.cells[c.index()] else {
                continue;
            };
            if p.kind.index() >= self.kinds().len() {
                return Err(SetupError::UnknownKind {
                    cell: board.cell_name(c).to_string(),
                });
            }
            if self.is_royal(p.kind) {
                kings[p.owner.index()].push(c);
            }
            if self.is_pawn(p.kind) {
                if self.promotes(p.owner, p.facing, c) {
                    return Err(SetupError::PawnOnTarget {
                        cell: board.cell_name(c).to_string(),
                    });
                }
            } else if p.facing != Facing::Up || p.double_step {
                return Err(SetupError::NonPawnFields {
                    cell: board.cell_name(c).to_string(),
                    kind: self.kind_name(p.kind).to_string(),
                });
            }
        }
        for p in [Player::First, Player::Second] {
            if kings[p.index()].len() != 1 {
                return Err(SetupError::KingCount {
                    player: player_name(p),
                    found: kings[p.index()].len(),
                });
            }
        }
        let kings = [kings[0][0], kings[1][0]];
        let other = s.to_move.other();
        if self.attacked(&s.cells, kings[other.index()], s.to_move) {
            return Err(SetupError::OpponentInCheck {
                player: player_name(other),
            });
        }
        for p in [Player::First, Player::Second] {
            for side in Side::BOTH {
                if !s.castling.get(p, side) {
                    continue;
                }
                let err = |reason: &str| SetupError::Castling {
                    player: player_name(p),
                    side: side.name(),
                    reason: reason.to_string(),
                };
                let Some(spec) = self.castle(p, side) else {
                    return Err(err("this variant has no castling"));
                };
                if s.cells[spec.king.index()] != Some(Piece::new(p, spec.king_kind)) {
                    return Err(err(&format!(
                        "the king is not on {}",
                        board.cell_name(spec.king)
                    )));
                }
                if s.cells[spec.rook.index()] != Some(Piece::new(p, spec.rook_kind)) {
                    return Err(err(&format!(
                        "no {} on {}",
                        self.kind_name(spec.rook_kind),
                        board.cell_name(spec.rook)
                    )));
                }
            }
        }
        if let Some(t) = s.en_passant {
            self.check_trace(&s, t)
                .map_err(|reason| SetupError::EnPassant { reason })?;
        }
        Ok(Position {
            board: s.cells,
            to_move: s.to_move,
            castling: s.castling,
            en_passant: s.en_passant,
            halfmove: s.halfmove,
            ply: s.ply,
            kings,
        })
    }

    /// A trace must be a double step the opponent of the side to move
    /// could have just made: source and middle empty, the pawn on the
    /// destination with the recorded facing, and the route real.
    fn check_trace(&self, s: &Setup, t: Trace) -> Result<(), String> {
        let b = self.geo.board();
        for c in [t.source, t.middle, t.destination] {
            if c.index() >= b.cell_count() {
                return Err("a cell is off the board".into());
            }
        }
        if t.owner == s.to_move {
            return Err("the trace must belong to the player who just moved".into());
        }
        if s.cells[t.source.index()].is_some() || s.cells[t.middle.index()].is_some() {
            return Err(format!(
                "{} and {} must be empty",
                b.cell_name(t.source),
                b.cell_name(t.middle)
            ));
        }
        match s.cells[t.destination.index()] {
            Some(p)
                if self.is_pawn(p.kind)
                    && p.owner == t.owner
                    && p.facing == t.facing
                    && !p.double_step => {}
            _ => {
                return Err(format!(
                    "no moved {} pawn facing {} on {}",
                    player_name(t.owner),
                    t.facing,
                    b.cell_name(t.destination)
                ));
            }
        }
        let real = [Facing::Up, Facing::Down].into_iter().any(|f0| {
            let Some(s1) = self.geo.step(t.source, f0.absolute(Dir::N)) else {
                return false;
            };
            let d2 = s1.transport.apply(f0.absolute(Dir::N));
            let Some(s2) = self.geo.step(s1.to, d2) else {
                return false;
            };
            s1.to == t.middle
                && s2.to == t.destination
                && f0.transported(s1.transport.then(s2.transport)) == t.facing
        });
        if !real {
            return Err(format!(
                "{} → {} → {} is not a forward double step",
                b.cell_name(t.source),
                b.cell_name(t.middle),
                b.cell_name(t.destination)
            ));
        }
        if self.promotes(t.owner, t.facing, t.destination) {
            return Err("a double step that promotes leaves no trace".into());
        }
        Ok(())
    }
}
