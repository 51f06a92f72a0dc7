//! The routes of a shogi move, for pictures that draw the moves that
//! cross a seam ([`crate::rules::drawing::Draw::action_routes`]): the
//! piece's own steps, rays and knight jumps ([`ShogiRules::piece_targets`]
//! walks the same) traced again as hops, keeping every clear route that
//! ends on the destination with the move's facing. No rule reads them.

use crate::movement::{hops_transport as total, square};
use crate::rules::drawing::{Route, route_of};
use crate::topology::CellId;

use super::ShogiRules;
use super::movegen::Action;
use super::position::Position;

impl ShogiRules {
    /// Every route of a board move's piece to its destination; none for
    /// a drop.
    pub fn routes(&self, pos: &Position, action: &Action) -> Vec<Route> {
        let Action::Move {
            from, to, facing, ..
        } = *action
        else {
            return Vec::new();
        };
        let Some(piece) = pos.piece_at(from) else {
            return Vec::new();
        };
        let occupied = |c: CellId| pos.piece_at(c).is_some();
        let mut found = square::routes(&self.geo, from, self.form(piece), &occupied, to);
        // Kings, rooks and bishops keep their owner's facing whatever the
        // route; every other piece arrives facing as the move says.
        if self.has_facing(piece.kind) {
            found.retain(|r| piece.facing.transported(total(r)) == facing);
        }
        found
            .iter()
            .map(|hops| route_of(self.geo.board(), hops))
            .collect()
    }
}
