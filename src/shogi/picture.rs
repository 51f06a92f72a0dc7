//! How surface shogi is pictured (see [`crate::rules::drawing`]): pieces with
//! their facing where a reversing seam makes it vary, hands, bands and the
//! facing dropped pieces take.

use crate::rules::drawing::{
    ActionMark, Diagram, Draw, HandMark, PieceMark, Pieces, Side, facing_if,
};
use crate::rules::{Player, Rules};
use crate::topology::file::AnyBoard;

use super::ShogiRules;
use super::movegen::Action;
use super::position::Position;

impl ShogiRules {
    fn piece_marks(&self, pos: &Position) -> Vec<PieceMark> {
        let b = self.geo.board();
        // On a board without reversing seams every piece faces its owner's
        // way, so an arrow would say nothing.
        let facings = !self.fixed_facing;
        b.cells()
            .filter_map(|c| {
                pos.piece_at(c).map(|p| PieceMark {
                    cell: b.cell_name(c).to_string(),
                    owner: p.owner,
                    label: self.letter(p.kind).to_string(),
                    promoted: p.promoted,
                    facing: facing_if(facings && self.has_facing(p.kind), p.facing),
                    other_face: None,
                    royal: self.is_royal(p.kind),
                    arrow: false,
                })
            })
            .collect()
    }
}

impl ShogiRules {
    /// Every label a shogi picture draws, with the piece's name and, for a
    /// promoted piece, how it moves in the movement language (SS-4.1,
    /// SS-4.5, MV).
    fn names(&self) -> Vec<(String, String)> {
        let kinds = self.kinds();
        let mut out: Vec<(String, String)> = kinds
            .kinds()
            .map(|k| (kinds.letter(k).to_string(), kinds.name(k).to_string()))
            .collect();
        for k in kinds.kinds() {
            if let Some(moves) = self.promoted_text(k) {
                // A promotion that moves as another kind says so by name.
                let like = kinds
                    .kinds()
                    .find(|&o| o != k && self.moves_text(o) == moves);
                let how = match like {
                    Some(o) => format!("moves as a {} ({moves})", kinds.name(o)),
                    None => format!("moves {moves}"),
                };
                out.push((
                    format!("+{}", kinds.letter(k)),
                    format!("promoted {}: {how}", kinds.name(k)),
                ));
            }
        }
        out
    }
}

impl Draw<Position, Action> for ShogiRules {
    fn text_cells(&self) -> Vec<String> {
        crate::rules::drawing::chart_text_cells(self.geo.board())
    }

    /// Every kind for both players, promoted where it may be (SS-5), and a
    /// piece that moves by its facing in both facings where a seam can
    /// reverse it (SS-I1, SS-I7), marked `^`/`v` against the drop facing.
    fn palette(&self) -> Vec<crate::rules::drawing::PaletteEntry> {
        use crate::movement::Facing;
        let mut out = Vec::new();
        for owner in [Player::First, Player::Second] {
            let home = self.drop_facing(owner);
            for kind in self.kinds().kinds() {
                let promotions: &[bool] = if self.can_promote(kind) {
                    &[false, true]
                } else {
                    &[false]
                };
                let facings = if !self.fixed_facing && self.has_facing(kind) {
                    vec![home, home.reversed()]
                } else {
                    vec![home]
                };
                for &promoted in promotions {
                    for &facing in &facings {
                        let piece = self.piece(owner, kind, promoted, facing);
                        let mut token = String::new();
                        self.push_piece_letter(&mut token, piece);
                        if facing != home {
                            token.push(if facing == Facing::Up { '^' } else { 'v' });
                        }
                        out.push(crate::rules::drawing::PaletteEntry {
                            token,
                            owner,
                            label: self.letter(kind).to_string(),
                            promoted,
                            facing: facing_if(!self.fixed_facing && self.has_facing(kind), facing),
                            other_face: None,
                            double_step: None,
                        });
                    }
                }
            }
        }
        out
    }

    fn hand_shape(&self) -> Option<crate::rules::drawing::HandShape> {
        Some(crate::rules::drawing::HandShape {
            place: crate::rules::drawing::HandPlace::Field(1),
            entries: self
                .hand_kinds()
                .iter()
                .map(|&k| crate::rules::drawing::HandEntry {
                    letter: self.letter(k),
                    label: self.letter(k).to_string(),
                })
                .collect(),
            counted: true,
            empty: "-".into(),
        })
    }

    fn pieces(&self, pos: &Position) -> Pieces {
        Pieces {
            pieces: self.piece_marks(pos),
            drop_facing: [
                Some(self.drop_facing(Player::First)),
                Some(self.drop_facing(Player::Second)),
            ],
            to_move: pos.to_move(),
        }
    }

    fn diagram(&self, pos: &Position) -> Diagram {
        let b = self.geo.board();
        let pieces = self.piece_marks(pos);
        let side = |p: Player| Side {
            name: Rules::player_name(self, p).to_string(),
            hand: self
                .hand_kinds()
                .iter()
                .map(|&k| HandMark {
                    label: self.letter(k).to_string(),
                    count: pos.hand(p, k) as u32,
                    drops: vec![self.letter(k).to_string()],
                })
                .collect(),
            zone: b
                .cells()
                .filter(|&c| self.in_band(p, c))
                .map(|c| b.cell_name(c).to_string())
                .collect(),
            drop_facing: Some(self.drop_facing(p)),
        };
        Diagram {
            variant: self.variant().to_string(),
            board: AnyBoard::Charts(b.clone()),
            pieces,
            sides: [side(Player::First), side(Player::Second)],
            to_move: pos.to_move(),
            in_check: self.in_check(pos),
            legend: self.names(),
            shape: crate::rules::drawing::PieceShape::Pentagon,
        }
    }

    fn action_mark(&self, pos: &Position, action: &Action) -> ActionMark {
        let b = self.geo.board();
        match *action {
            Action::Move {
                from,
                to,
                promote,
                facing,
            } => {
                let matters = !self.fixed_facing
                    && pos.piece_at(from).is_some_and(|p| self.has_facing(p.kind));
                ActionMark {
                    from: Some(b.cell_name(from).to_string()),
                    to: b.cell_name(to).to_string(),
                    facing: facing_if(matters, facing),
                    drop: None,
                    promote,
                }
            }
            Action::Drop { kind, to } => ActionMark {
                from: None,
                to: b.cell_name(to).to_string(),
                facing: None,
                drop: Some(self.letter(kind).to_string()),
                promote: false,
            },
        }
    }

    fn action_routes(&self, pos: &Position, action: &Action) -> Vec<crate::rules::drawing::Route> {
        self.routes(pos, action)
    }
}
