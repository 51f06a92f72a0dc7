//! How Kyoto shogi is pictured (see [`crate::rules::drawing`]): each token shows
//! its current face, with the face it turns to after moving hinted. Faces
//! are drawn by their letters and listed in the file's order (KY-1.4).

use crate::rules::drawing::{ActionMark, Diagram, Draw, HandMark, PieceMark, Pieces, Side};
use crate::rules::{Player, Rules};
use crate::topology::CellId;
use crate::topology::file::AnyBoard;

use super::position::Position;
use super::{Action, KyotoRules};

impl KyotoRules {
    fn piece_marks(&self, pos: &Position) -> Vec<PieceMark> {
        let b = self.geo.board();
        let faces = &self.faces;
        pos.board
            .iter()
            .enumerate()
            .filter_map(|(i, slot)| {
                slot.map(|p| PieceMark {
                    cell: b.cell_name(CellId(i as u16)).to_string(),
                    owner: p.owner,
                    label: faces.letter(p.face).to_string(),
                    promoted: false,
                    facing: None,
                    other_face: (!faces.is_royal(p.face))
                        .then(|| faces.letter(faces.flipped(p.face)).to_string()),
                    royal: faces.is_royal(p.face),
                    arrow: false,
                })
            })
            .collect()
    }
}

impl KyotoRules {
    /// Each face's letter and name, in the file's order. A face that moves
    /// exactly as a later face says so by name (KY-1.3: "the tokin moves
    /// as a gold"): its name alone would not tell how it moves, and the
    /// later face, listed after it, is the one the reader looks up.
    fn legend(&self) -> Vec<(String, String)> {
        let faces = &self.faces;
        faces
            .faces()
            .map(|f| {
                let like = faces
                    .faces()
                    .skip(f.index() + 1)
                    .find(|o| self.moves[o.index()] == self.moves[f.index()]);
                let name = match like {
                    Some(o) => format!("{} (moves as a {})", faces.name(f), faces.name(o)),
                    None => faces.name(f).to_string(),
                };
                (faces.letter(f).to_string(), name)
            })
            .collect()
    }
}

impl Draw<Position, Action> for KyotoRules {
    /// Ranks 5 down to 1, each from file a (KY-8.1).
    fn text_cells(&self) -> Vec<String> {
        let b = self.geo.board();
        (0..super::position::SIZE)
            .rev()
            .flat_map(|y| {
                (0..super::position::SIZE)
                    .map(move |x| CellId((y * super::position::SIZE + x) as u16))
            })
            .map(|c| b.cell_name(c).to_string())
            .collect()
    }

    /// Every face for both players, the king included (KY-8.1).
    fn palette(&self) -> Vec<crate::rules::drawing::PaletteEntry> {
        let faces = &self.faces;
        let mut out = Vec::new();
        for owner in [Player::First, Player::Second] {
            for face in faces.faces() {
                let piece = super::pieces::Piece { owner, face };
                out.push(crate::rules::drawing::PaletteEntry {
                    token: faces.text(piece),
                    owner,
                    label: faces.letter(face).to_string(),
                    promoted: false,
                    facing: None,
                    other_face: (!faces.is_royal(face))
                        .then(|| faces.letter(faces.flipped(face)).to_string()),
                    double_step: None,
                });
            }
        }
        out
    }

    /// Tokens by base letter, repeated, in brackets after the placement.
    fn hand_shape(&self) -> Option<crate::rules::drawing::HandShape> {
        Some(crate::rules::drawing::HandShape {
            place: crate::rules::drawing::HandPlace::Bracket,
            entries: self
                .faces
                .tokens()
                .map(|t| {
                    let [a, b] = self.faces.faces_of(t);
                    crate::rules::drawing::HandEntry {
                        letter: self.faces.base_letter(t),
                        label: format!("{}/{}", self.faces.letter(a), self.faces.letter(b)),
                    }
                })
                .collect(),
            counted: false,
            empty: String::new(),
        })
    }

    fn pieces(&self, pos: &Position) -> Pieces {
        Pieces {
            pieces: self.piece_marks(pos),
            drop_facing: [
                Some(Self::facing(Player::First)),
                Some(Self::facing(Player::Second)),
            ],
            to_move: pos.to_move,
        }
    }

    fn diagram(&self, pos: &Position) -> Diagram {
        let b = self.geo.board();
        let pieces = self.piece_marks(pos);
        let side = |p: Player| Side {
            name: Rules::player_name(self, p).to_string(),
            // A token in hand may be dropped either face up.
            hand: self
                .faces
                .tokens()
                .map(|t| {
                    let [a, b] = self.faces.faces_of(t).map(|f| self.faces.letter(f));
                    HandMark {
                        label: format!("{a}/{b}"),
                        count: pos.hands[p.index()][t.index()] as u32,
                        drops: vec![a.to_string(), b.to_string()],
                    }
                })
                .collect(),
            zone: vec![],
            drop_facing: Some(Self::facing(p)),
        };
        Diagram {
            variant: self.variant().to_string(),
            board: AnyBoard::Charts(b.clone()),
            pieces,
            sides: [side(Player::First), side(Player::Second)],
            to_move: pos.to_move,
            in_check: self.in_check(pos),
            legend: self.legend(),
            shape: crate::rules::drawing::PieceShape::Pentagon,
        }
    }

    fn action_mark(&self, _pos: &Position, action: &Action) -> ActionMark {
        let b = self.geo.board();
        match *action {
            Action::Move { from, to } => ActionMark {
                from: Some(b.cell_name(from).to_string()),
                to: b.cell_name(to).to_string(),
                facing: None,
                drop: None,
                promote: false,
            },
            Action::Drop { face, to } => ActionMark {
                from: None,
                to: b.cell_name(to).to_string(),
                facing: None,
                drop: Some(self.faces.letter(face).to_string()),
                promote: false,
            },
        }
    }
}
