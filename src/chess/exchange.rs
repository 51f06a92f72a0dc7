//! The player exchange Φ (SC-8): the board map, owners swapped, pawn
//! facings reversed, side to move swapped, the en-passant trace and the
//! castling rights carried along. Counters are unchanged. Φ is an
//! involution and commutes with every rule; the property tests check that.

use super::ChessRules;
use super::data::ExchangeMap;
use super::movegen::Action;
use super::pieces::{Piece, Side};
use super::position::{CastlingRights, Position, Trace};
use crate::rules::Player;
use crate::topology::{Board, CellId, Square};

/// Φ on one cell.
pub fn map_cell(board: &Board, map: ExchangeMap, c: CellId) -> CellId {
    let sq = board.square(c);
    let (w, h) = (board.width(), board.height());
    let image = match map {
        ExchangeMap::MirrorRanks => Square {
            chart: sq.chart,
            x: sq.x,
            y: h - 1 - sq.y,
        },
        ExchangeMap::SwapChartsHalfTurn => Square {
            chart: 1 - sq.chart,
            x: w - 1 - sq.x,
            y: h - 1 - sq.y,
        },
    };
    board.cell(image)
}

impl ChessRules {
    /// The other owner's piece; a pawn's facing reversed, its flag kept.
    pub fn exchange_piece(&self, p: Piece) -> Piece {
        self.piece(p.owner.other(), p.kind, p.facing.reversed(), p.double_step)
    }

    pub fn exchange_position(&self, pos: &Position) -> Position {
        let mut board = vec![None; pos.board.len()];
        for (i, p) in pos.board.iter().enumerate() {
            if let Some(p) = p {
                board[self.phi(CellId(i as u16)).index()] = Some(self.exchange_piece(*p));
            }
        }
        let mut castling = CastlingRights::NONE;
        for p in [Player::First, Player::Second] {
            for s in Side::BOTH {
                castling.set(p.other(), s, pos.castling.get(p, s));
            }
        }
        Position {
            board,
            to_move: pos.to_move.other(),
            castling,
            en_passant: pos.en_passant.map(|t| Trace {
                owner: t.owner.other(),
                source: self.phi(t.source),
                middle: self.phi(t.middle),
                destination: self.phi(t.destination),
                facing: t.facing.reversed(),
            }),
            halfmove: pos.halfmove,
            ply: pos.ply,
            kings: [self.phi(pos.kings[1]), self.phi(pos.kings[0])],
        }
    }

    /// Φ on an action played in `pos`: cells mapped, a pawn's final
    /// facing reversed (other outcomes keep the normalised `Up`).
    pub fn exchange_move(&self, pos: &Position, a: &Action) -> Action {
        let pawn_after =
            a.promotion.is_none() && pos.piece(a.from).is_some_and(|p| self.is_pawn(p.kind));
        Action {
            from: self.phi(a.from),
            to: self.phi(a.to),
            special: a.special,
            promotion: a.promotion,
            facing: if pawn_after {
                a.facing.reversed()
            } else {
                a.facing
            },
        }
    }
}
