//! The family half of the opening audit for surface chess: shield lines
//! and attacked pieces (see [`crate::audit`]).

use super::ChessRules;
use super::pieces::Kind;
use super::position::Position;
use crate::rules::audit_facts::{
    Attacked, Audit, Line, Placed, Shield, attacked_pieces, shields_around,
};
use crate::topology::{CellId, Dir};

impl ChessRules {
    fn placed(&self, pos: &Position, c: CellId) -> Option<Placed> {
        pos.board[c.index()].map(|p| Placed {
            cell: self.geo.board().cell_name(c).to_string(),
            piece: p.letter().to_string(),
            owner: p.owner,
        })
    }
}

impl Audit<Position> for ChessRules {
    fn shields(&self, pos: &Position) -> Vec<Shield> {
        let occupied = |c: CellId| pos.board[c.index()].is_some();
        let owner = |c: CellId| pos.board[c.index()].map(|p| p.owner);
        // A chess slider moves along the line whatever the local frame:
        // queens always, rooks on cardinal lines, bishops on diagonals.
        let slides = |line: &Line, d: Dir| match pos.board[line.far.index()].map(|p| p.kind) {
            Some(Kind::Queen) => true,
            Some(Kind::Rook) => d.is_cardinal(),
            Some(Kind::Bishop) => !d.is_cardinal(),
            _ => false,
        };
        let kings = [Some(pos.kings[0]), Some(pos.kings[1])];
        shields_around(&self.geo, &occupied, kings, &owner, &slides, &|c| {
            self.placed(pos, c)
        })
    }

    fn attacked_pieces(&self, pos: &Position) -> Vec<Attacked> {
        let pieces = pos
            .board
            .iter()
            .enumerate()
            .filter_map(|(i, slot)| slot.map(|p| (CellId(i as u16), p.owner)));
        attacked_pieces(pieces, &|c, by| self.attackers(&pos.board, c, by), &|c| {
            self.placed(pos, c)
        })
    }
}
