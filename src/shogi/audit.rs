//! The family half of the opening audit for surface shogi: shield lines
//! and attacked pieces (see [`crate::audit`]). A slider is any piece whose
//! movement has a ray along the line toward the king (rook, bishop, lance
//! and their promotions).

use super::ShogiRules;
use super::position::Position;
use crate::rules::audit_facts::{
    Attacked, Audit, Line, Placed, Shield, attacked_pieces, shields_around,
};
use crate::topology::{CellId, Dir};

impl ShogiRules {
    fn placed(&self, pos: &Position, c: CellId) -> Option<Placed> {
        pos.board[c.index()].map(|p| Placed {
            cell: self.geo.board().cell_name(c).to_string(),
            piece: self.piece_text(p),
            owner: p.owner,
        })
    }
}

impl Audit<Position> for ShogiRules {
    fn shields(&self, pos: &Position) -> Vec<Shield> {
        let occupied = |c: CellId| pos.board[c.index()].is_some();
        let owner = |c: CellId| pos.board[c.index()].map(|p| p.owner);
        // The slider moves back along the reversed arrival direction.
        let slides = |line: &Line, _: Dir| {
            pos.board[line.far.index()].is_some_and(|slider| {
                let toward_king = line.arrival.opposite();
                self.form(slider).capture_rays() & (1 << toward_king.index()) != 0
            })
        };
        shields_around(&self.geo, &occupied, pos.kings, &owner, &slides, &|c| {
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
