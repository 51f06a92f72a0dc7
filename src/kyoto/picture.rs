//! How Kyoto shogi is pictured (see [`crate::rules::drawing`]): each token shows
//! its current face, with the face it turns to after moving hinted.

use crate::rules::drawing::{ActionMark, Diagram, Draw, HandMark, PieceMark, Pieces, Side};
use crate::rules::{Player, Rules};
use crate::topology::CellId;
use crate::topology::file::AnyBoard;

use super::pieces::{Face, Token};
use super::position::Position;
use super::{Action, KyotoRules};

impl KyotoRules {
    fn piece_marks(&self, pos: &Position) -> Vec<PieceMark> {
        let b = self.geo.board();
        pos.board
            .iter()
            .enumerate()
            .filter_map(|(i, slot)| {
                slot.map(|p| PieceMark {
                    cell: b.cell_name(CellId(i as u16)).to_string(),
                    owner: p.owner,
                    label: p.face.letter().to_string(),
                    promoted: false,
                    facing: None,
                    other_face: (p.face != Face::King)
                        .then(|| self.flipped(p.face).letter().to_string()),
                    royal: p.face == Face::King,
                    arrow: false,
                })
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
        let mut out = Vec::new();
        for owner in [Player::First, Player::Second] {
            for face in Face::ALL {
                let piece = super::pieces::Piece { owner, face };
                out.push(crate::rules::drawing::PaletteEntry {
                    token: piece.text(),
                    owner,
                    label: face.letter().to_string(),
                    promoted: false,
                    facing: None,
                    other_face: (face != Face::King)
                        .then(|| self.flipped(face).letter().to_string()),
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
            entries: Token::ALL
                .iter()
                .map(|t| {
                    let [a, b] = t.faces();
                    crate::rules::drawing::HandEntry {
                        letter: t.hand_letter(),
                        label: format!("{}/{}", a.letter(), b.letter()),
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
            hand: Token::ALL
                .iter()
                .map(|t| {
                    let [a, b] = t.faces();
                    HandMark {
                        label: format!("{}/{}", a.letter(), b.letter()),
                        count: pos.hands[p.index()][t.index()] as u32,
                        drops: vec![a.letter().to_string(), b.letter().to_string()],
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
            legend: Face::ALL
                .iter()
                .map(|f| {
                    let name = match f {
                        // KY-1.3: the one face not named for the way it moves.
                        Face::Tokin => "tokin (moves as a gold)".to_string(),
                        _ => f.name().to_string(),
                    };
                    (f.letter().to_string(), name)
                })
                .collect(),
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
                drop: Some(face.letter().to_string()),
                promote: false,
            },
        }
    }
}
