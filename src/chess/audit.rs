//! The family half of the opening audit for surface chess: shield lines
//! and attacked pieces (see [`crate::audit`]).

use super::ChessRules;
use super::pieces::Kind;
use super::position::Position;
use crate::audit::{Attacked, Audit, Placed, Shield, ShieldKind, trace_line};
use crate::rules::Player;
use crate::topology::{CellId, Dir};

impl ChessRules {
    fn placed(&self, pos: &Position, c: CellId) -> Option<Placed> {
        pos.board[c.index()].map(|p| Placed {
            cell: self.geo.board().cell_name(c),
            piece: p.letter().to_string(),
            owner: p.owner,
        })
    }
}

impl Audit<Position> for ChessRules {
    fn shields(&self, pos: &Position) -> Vec<Shield> {
        let occupied = |c: CellId| pos.board[c.index()].is_some();
        let mut out = vec![];
        for owner in [Player::First, Player::Second] {
            let king = pos.kings[owner.index()];
            for d in Dir::ALL {
                let Some(line) = trace_line(&self.geo, &occupied, king, d) else {
                    continue;
                };
                let (Some(shield), Some(slider)) =
                    (pos.board[line.shield.index()], pos.board[line.far.index()])
                else {
                    continue;
                };
                let slides = match slider.kind {
                    Kind::Queen => true,
                    Kind::Rook => d.is_cardinal(),
                    Kind::Bishop => !d.is_cardinal(),
                    _ => false,
                };
                if slider.owner == owner || !slides {
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
