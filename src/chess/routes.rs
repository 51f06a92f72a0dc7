//! The routes of a chess action, for pictures that draw the moves that
//! cross a seam ([`crate::rules::drawing::Draw::action_routes`]): the
//! moving piece's own movement traced again on the board's step tables,
//! keeping every clear route that ends on the destination with the
//! action's facing. No rule reads them.

use crate::movement::{hops_transport as total, ray_hops, square};
use crate::rules::drawing::{Route, route_of};
use crate::topology::{CellId, Dir};

use super::ChessRules;
use super::movegen::{Action, Special};
use super::position::Position;

impl ChessRules {
    /// Every route of `a`'s piece to its destination (none for castling,
    /// whose king and rook are not one route).
    pub fn routes(&self, pos: &Position, a: &Action) -> Vec<Route> {
        let Some(p) = pos.piece(a.from) else {
            return Vec::new();
        };
        if matches!(a.special, Special::Castle(_)) {
            return Vec::new();
        }
        let geo = &self.geo;
        let occupied = |c: CellId| pos.piece(c).is_some();
        let mut found = if a.special == Special::DoubleStep {
            // The two quiet steps of the double step, as one ray's route.
            let quiet = self.advance_steps(p.facing);
            Dir::ALL
                .into_iter()
                .filter(|d| quiet & (1 << d.index()) != 0)
                .filter_map(|d| ray_hops(geo, a.from, d, &occupied, a.to))
                .filter(|r| r.len() == 2)
                .collect()
        } else {
            square::routes(geo, a.from, self.form(p), &occupied, a.to)
        };
        if self.is_pawn(p.kind) && a.promotion.is_none() {
            // A promotion leaves no pawn to face anywhere; otherwise the
            // route must leave the pawn facing as the action says.
            found.retain(|r| p.facing.transported(total(r)) == a.facing);
        }
        found
            .iter()
            .map(|hops| route_of(geo.board(), hops))
            .collect()
    }
}
