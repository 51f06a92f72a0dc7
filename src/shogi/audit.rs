//! The family half of the opening audit for surface shogi: shield lines
//! and attacked pieces (see [`crate::audit`]). A slider is any piece whose
//! movement has a ray along the line toward the king (rook, bishop, lance
//! and their promotions).

use super::ShogiRules;
use super::position::Position;
use crate::audit::{Attacked, Audit, Placed, Shield, ShieldKind, trace_line};
use crate::rules::Player;
use crate::topology::{CellId, Dir};

impl ShogiRules {
    fn placed(&self, pos: &Position, c: CellId) -> Option<Placed> {
        pos.board[c.index()].map(|p| Placed {
            cell: self.geo.board().cell_name(c),
            piece: self.piece_text(p),
            owner: p.owner,
        })
    }
}

impl Audit<Position> for ShogiRules {
    fn shields(&self, pos: &Position) -> Vec<Shield> {
        let occupied = |c: CellId| pos.board[c.index()].is_some();
        let mut out = vec![];
        for owner in [Player::First, Player::Second] {
            let Some(king) = pos.kings[owner.index()] else {
                continue;
            };
            for d in Dir::ALL {
                let Some(line) = trace_line(&self.geo, &occupied, king, d) else {
                    continue;
                };
                let (Some(shield), Some(slider)) =
                    (pos.board[line.shield.index()], pos.board[line.far.index()])
                else {
                    continue;
                };
                // The slider moves back along the reversed arrival direction.
                let toward_king = slider.facing.absolute(line.arrival.opposite());
                if slider.owner == owner || !slider.movement().rays.contains(toward_king) {
                    continue;
                }
                let (Some(k), Some(s), Some(f)) = (
                    self.placed(pos, king),
                    self.placed(pos, line.shield),
                    self.placed(pos, line.far),
                ) else {
                    continue;
                };
                out.push(Shield {
                    kind: if shield.owner == owner {
                        ShieldKind::Pin
                    } else {
                        ShieldKind::Discovery
                    },
                    king: k,
                    shield: s,
                    slider: f,
                    direction: d.name().to_string(),
                    route: line
                        .route
                        .iter()
                        .map(|&c| self.geo.board().cell_name(c))
                        .collect(),
                });
            }
        }
        out
    }

    fn attacked_pieces(&self, pos: &Position) -> Vec<Attacked> {
        let mut out = vec![];
        for (i, slot) in pos.board.iter().enumerate() {
            let Some(p) = slot else { continue };
            let c = CellId(i as u16);
            let by: Vec<Placed> = self
                .attackers(&pos.board, c, p.owner.other())
                .into_iter()
                .filter_map(|a| self.placed(pos, a))
                .collect();
            if let (false, Some(target)) = (by.is_empty(), self.placed(pos, c)) {
                out.push(Attacked { target, by });
            }
        }
        out
    }
}
