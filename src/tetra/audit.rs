//! The family half of the opening audit for the tetrahedral variants:
//! shield lines and attacked pieces (see [`crate::audit`]).
//!
//! The solid has no seams, so a line is traced straight: from each royal
//! piece along each of the eighteen directions to the first piece (the
//! candidate shield), then on to the next piece. The line counts when that
//! far piece is an enemy whose pattern slides back along it toward the
//! royal piece.

use super::TetraRules;
use super::position::Position;
use crate::rules::Player;
use crate::rules::audit_facts::{Attacked, Audit, Placed, Shield, ShieldKind, attacked_pieces};
use crate::topology::CellId;
use crate::topology::tetra::TDir;

impl TetraRules {
    fn placed(&self, pos: &Position, c: CellId) -> Option<Placed> {
        pos.piece_at(c).map(|p| Placed {
            cell: self.board.cell_name(c).to_string(),
            piece: self.piece_text(p),
            owner: p.owner,
        })
    }

    /// The cells from `from` (excluded) along `d` up to and including the
    /// first occupied one; `None` when the edge comes first.
    fn ray_to_piece(
        &self,
        pos: &Position,
        from: CellId,
        d: TDir,
        route: &mut Vec<CellId>,
    ) -> Option<CellId> {
        let mut cur = from;
        loop {
            cur = self.board.step(cur, d)?;
            route.push(cur);
            if pos.piece_at(cur).is_some() {
                return Some(cur);
            }
        }
    }
}

impl Audit<Position> for TetraRules {
    fn shields(&self, pos: &Position) -> Vec<Shield> {
        let mut out = Vec::new();
        for owner in [Player::First, Player::Second] {
            let royal = pos.royal(owner);
            for d in TDir::all() {
                let mut route = Vec::new();
                let Some(shield) = self.ray_to_piece(pos, royal, d, &mut route) else {
                    continue;
                };
                let Some(far) = self.ray_to_piece(pos, shield, d, &mut route) else {
                    continue;
                };
                let (Some(s), Some(f)) = (pos.piece_at(shield), pos.piece_at(far)) else {
                    continue;
                };
                // The far piece must be an enemy that slides back along the
                // line, toward the royal piece.
                let back = 1u32 << d.opposite().0;
                if f.owner == owner || self.t.mask(&f).slide & back == 0 {
                    continue;
                }
                let (Some(king), Some(shield_at), Some(slider)) = (
                    self.placed(pos, royal),
                    self.placed(pos, shield),
                    self.placed(pos, far),
                ) else {
                    continue;
                };
                out.push(Shield {
                    kind: if s.owner == owner {
                        ShieldKind::Pin
                    } else {
                        ShieldKind::Discovery
                    },
                    king,
                    shield: shield_at,
                    slider,
                    direction: d.name().to_string(),
                    route: route
                        .iter()
                        .map(|&c| self.board.cell_name(c).to_string())
                        .collect(),
                });
            }
        }
        out
    }

    fn attacked_pieces(&self, pos: &Position) -> Vec<Attacked> {
        let pieces = pos.pieces().map(|(c, p)| (c, p.owner));
        attacked_pieces(pieces, &|c, by| self.t.attackers(pos, c, by), &|c| {
            self.placed(pos, c)
        })
    }
}
