//! The routes of a chess action, for pictures that draw the moves that
//! cross a seam ([`crate::rules::drawing::Draw::action_routes`]): the
//! moving piece's own movement traced again on the board's step tables,
//! keeping every clear route that ends on the destination with the
//! action's facing. No rule reads them.

use crate::geometry::KnightWord;
use crate::movement::{Hop, hops_transport as total, knight_hops, ray_hops, step_hops};
use crate::rules::drawing::{Route, route_of};
use crate::topology::{CellId, Dir};

use super::ChessRules;
use super::movegen::{Action, Special};
use super::pieces::Kind;
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
        let rays = |dirs: &[Dir]| -> Vec<Vec<Hop>> {
            dirs.iter()
                .filter_map(|&d| ray_hops(geo, a.from, d, &occupied, a.to))
                .collect()
        };
        let found: Vec<Vec<Hop>> = match p.kind {
            Kind::Knight => KnightWord::ALL
                .iter()
                .filter_map(|&w| knight_hops(geo, a.from, w, a.to))
                .collect(),
            Kind::King => Dir::ALL
                .iter()
                .filter_map(|&d| step_hops(geo, a.from, d, a.to))
                .collect(),
            Kind::Bishop => rays(&Dir::DIAGONALS),
            Kind::Rook => rays(&Dir::CARDINALS),
            Kind::Queen => rays(&Dir::ALL),
            Kind::Pawn => {
                let forward = p.facing.absolute(Dir::N);
                let mut out: Vec<Vec<Hop>> = Vec::new();
                if a.special == Special::DoubleStep {
                    out.extend(ray_hops(geo, a.from, forward, &occupied, a.to));
                    out.retain(|r| r.len() == 2);
                } else {
                    out.extend(step_hops(geo, a.from, forward, a.to));
                    for rel in [Dir::NE, Dir::NW] {
                        out.extend(step_hops(geo, a.from, p.facing.absolute(rel), a.to));
                    }
                }
                // A promotion leaves no pawn to face anywhere; otherwise
                // the route must leave the pawn facing as the action says.
                if a.promotion.is_none() {
                    out.retain(|r| p.facing.transported(total(r)) == a.facing);
                }
                out
            }
        };
        found
            .iter()
            .map(|hops| route_of(geo.board(), hops))
            .collect()
    }
}
