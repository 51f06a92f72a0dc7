//! How the tetrahedral variants are pictured (see [`crate::rules::drawing`]):
//! pieces by their variant letters on the rank slices, hands in the
//! position text's order, and each side's promotion zone.

use crate::rules::drawing::{ActionMark, Diagram, Draw, HandMark, PieceMark, Pieces, Side};
use crate::rules::{Player, Rules};
use crate::topology::file::AnyBoard;

use super::TetraRules;
use super::movegen::{Change, TetraAction};
use super::position::Position;

impl TetraRules {
    fn piece_marks(&self, pos: &Position) -> Vec<PieceMark> {
        pos.pieces()
            .map(|(c, p)| PieceMark {
                cell: self.board.cell_name(c).to_string(),
                owner: p.owner,
                label: self.data.letter_of(p.kind).to_string(),
                promoted: p.promoted,
                facing: None,
                other_face: None,
                royal: p.kind == self.data.royal,
                arrow: false,
            })
            .collect()
    }
}

impl TetraRules {
    /// Every label the variant draws, from its data file: each kind's
    /// letter and name, and each promotable kind's `+` label with what it
    /// becomes (a new piece by name, or a kind of the army it moves as).
    fn names(&self) -> Vec<(String, String)> {
        let kinds = &self.data.kinds;
        let mut out: Vec<(String, String)> = kinds
            .iter()
            .map(|&k| (self.data.letter_of(k).to_string(), self.data.kind_name(k)))
            .collect();
        for &k in kinds {
            let Some(m) = &self.data.promotes_to[k.index()] else {
                continue;
            };
            let own = self.data.kind_name(k);
            let name = if self.data.roster.by_name(m).is_some() {
                format!("promoted {own}: moves as a {m}")
            } else {
                format!("{m} (promoted {own})")
            };
            out.push((format!("+{}", self.data.letter_of(k)), name));
        }
        out
    }
}

impl Draw<Position, TetraAction> for TetraRules {
    /// Ranks 1 to 9, each file by file and level by level (TS-7.3).
    fn text_cells(&self) -> Vec<String> {
        self.t
            .rank_cells
            .iter()
            .flatten()
            .map(|&c| self.board.cell_name(c).to_string())
            .collect()
    }

    /// Every kind of the army for both players, promoted where it may be
    /// (TS-4.3); the tetrahedron has no facing.
    fn palette(&self) -> Vec<crate::rules::drawing::PaletteEntry> {
        let mut out = Vec::new();
        for owner in [Player::First, Player::Second] {
            for &kind in &self.data.kinds {
                let promotions: &[bool] = if self.data.promotes_to[kind.index()].is_some() {
                    &[false, true]
                } else {
                    &[false]
                };
                for &promoted in promotions {
                    let mut token = String::new();
                    self.push_piece_text(
                        &mut token,
                        super::pieces::Piece {
                            owner,
                            kind,
                            promoted,
                        },
                    );
                    out.push(crate::rules::drawing::PaletteEntry {
                        token,
                        owner,
                        label: self.data.letter_of(kind).to_string(),
                        promoted,
                        facing: None,
                        other_face: None,
                        double_step: None,
                    });
                }
            }
        }
        out
    }

    /// Counted letters in the army's order, the field after the side
    /// (TS-7.3); a switching pair under its first kind (TH-5.1).
    fn hand_shape(&self) -> Option<crate::rules::drawing::HandShape> {
        Some(crate::rules::drawing::HandShape {
            place: crate::rules::drawing::HandPlace::Field(1),
            entries: self
                .data
                .kinds
                .iter()
                .filter(|&&k| k != self.data.royal && self.data.hand_class(k) == k)
                .map(|&k| crate::rules::drawing::HandEntry {
                    letter: self.data.letter_of(k),
                    label: self.data.letter_of(k).to_string(),
                })
                .collect(),
            counted: true,
            empty: "-".into(),
        })
    }

    fn pieces(&self, pos: &Position) -> Pieces {
        Pieces {
            pieces: self.piece_marks(pos),
            drop_facing: [None, None],
            to_move: pos.to_move(),
        }
    }

    fn diagram(&self, pos: &Position) -> Diagram {
        let b = &self.board;
        let pieces = self.piece_marks(pos);
        let side = |p: Player| Side {
            name: Rules::player_name(self, p).to_string(),
            hand: self
                .data
                .kinds
                .iter()
                .map(|&k| HandMark {
                    label: self.data.letter_of(k).to_string(),
                    count: pos.in_hand(p, k) as u32,
                    drops: vec![self.data.letter_of(k).to_string()],
                })
                .collect(),
            zone: b
                .cells()
                .filter(|c| self.t.zone[p.index()][c.index()])
                .map(|c| b.cell_name(c).to_string())
                .collect(),
            drop_facing: None,
        };
        Diagram {
            variant: self.variant().to_string(),
            board: AnyBoard::Tetrahedron(b.clone()),
            pieces,
            sides: [side(Player::First), side(Player::Second)],
            to_move: pos.to_move(),
            in_check: self.in_check(pos),
            legend: self.names(),
            shape: crate::rules::drawing::PieceShape::Pentagon,
        }
    }

    fn action_mark(&self, _pos: &Position, action: &TetraAction) -> ActionMark {
        let b = &self.board;
        match *action {
            TetraAction::Move { from, to, change } => ActionMark {
                from: Some(b.cell_name(from).to_string()),
                to: b.cell_name(to).to_string(),
                facing: None,
                drop: None,
                promote: change != Change::None,
            },
            TetraAction::Drop { kind, to } => ActionMark {
                from: None,
                to: b.cell_name(to).to_string(),
                facing: None,
                drop: Some(self.data.letter_of(kind).to_string()),
                promote: false,
            },
        }
    }
}
