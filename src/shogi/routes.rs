//! The routes of a shogi move, for pictures that draw the moves that
//! cross a seam ([`crate::rules::drawing::Draw::action_routes`]): the
//! piece's own steps, rays and knight jumps ([`ShogiRules::piece_targets`]
//! walks the same) traced again as hops, keeping every clear route that
//! ends on the destination with the move's facing. No rule reads them.

use crate::geometry::KnightWord;
use crate::movement::{Hop, hops_transport as total, knight_hops, ray_hops, step_hops};
use crate::rules::drawing::{Route, route_of};
use crate::topology::{CellId, Dir};

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
        let geo = &self.geo;
        let m = piece.movement();
        let occupied = |c: CellId| pos.piece_at(c).is_some();
        let mut found: Vec<Vec<Hop>> = Vec::new();
        for rel in m.steps.iter() {
            found.extend(step_hops(geo, from, piece.facing.absolute(rel), to));
        }
        for rel in m.rays.iter() {
            found.extend(ray_hops(
                geo,
                from,
                piece.facing.absolute(rel),
                &occupied,
                to,
            ));
        }
        if m.knight {
            let long = piece.facing.absolute(Dir::N);
            for short in [Dir::E, Dir::W] {
                found.extend(knight_hops(geo, from, KnightWord::new(long, short), to));
            }
        }
        // Kings, rooks and bishops keep their owner's facing whatever the
        // route; every other piece arrives facing as the move says.
        if piece.has_facing() {
            found.retain(|r| piece.facing.transported(total(r)) == facing);
        }
        found
            .iter()
            .map(|hops| route_of(geo.board(), hops))
            .collect()
    }
}
