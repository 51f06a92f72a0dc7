//! The family half of the opening audit for surface chess: shield lines
//! and attacked pieces (see [`crate::audit`]).

use super::ChessRules;
use super::position::Position;
use crate::rules::audit_facts::{
    Attacked, Audit, Line, Placed, Shield, attacked_pieces, shields_around,
};
use crate::topology::{CellId, Dir};

impl ChessRules {
    fn placed(&self, pos: &Position, c: CellId) -> Option<Placed> {
        pos.board[c.index()].map(|p| Placed {
            cell: self.geo.board().cell_name(c).to_string(),
            piece: self.piece_letter(p).to_string(),
            owner: p.owner,
        })
    }
}

impl Audit<Position> for ChessRules {
    fn shields(&self, pos: &Position) -> Vec<Shield> {
        let occupied = |c: CellId| pos.board[c.index()].is_some();
        let owner = |c: CellId| pos.board[c.index()].map(|p| p.owner);
        // The slider moves back along the reversed arrival direction.
        let slides = |line: &Line, _: Dir| {
            pos.board[line.far.index()].is_some_and(|p| {
                self.form(p).capture_rays() & (1 << line.arrival.opposite().index()) != 0
            })
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
