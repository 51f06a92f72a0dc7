//! The family half of the opening audit for Kyoto shogi: shield lines and
//! attacked pieces (see [`crate::audit`]). A slider is a piece whose
//! current face has a ray along the line toward the king (lance, bishop,
//! rook); the face it would flip to does not count, because the audit asks
//! about the position as it stands.

use super::KyotoRules;
use super::position::Position;
use crate::rules::Player;
use crate::rules::audit_facts::{
    Attacked, Audit, Line, Placed, Shield, attacked_pieces, shields_around,
};
use crate::topology::{CellId, Dir};

impl KyotoRules {
    fn placed(&self, pos: &Position, c: CellId) -> Option<Placed> {
        pos.board[c.index()].map(|p| Placed {
            cell: self.cell_name(c).to_string(),
            piece: self.faces.text(p),
            owner: p.owner,
        })
    }
}

impl Audit<Position> for KyotoRules {
    fn shields(&self, pos: &Position) -> Vec<Shield> {
        let occupied = |c: CellId| pos.board[c.index()].is_some();
        let owner = |c: CellId| pos.board[c.index()].map(|p| p.owner);
        let slides = |line: &Line, _: Dir| {
            pos.board[line.far.index()].is_some_and(|slider| {
                let toward_king = line.arrival.opposite();
                self.form(slider).capture_rays() & (1 << toward_king.index()) != 0
            })
        };
        let kings =
            [Player::First, Player::Second].map(|p| self.king(pos, p).map(|k| CellId(k as u16)));
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
