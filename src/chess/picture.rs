//! How surface chess is pictured (see [`crate::rules::drawing`]): pawns carry a
//! facing arrow on boards whose seams can reverse it, and each side's
//! promotion cells are those where its pawns promote.

use crate::movement::Facing;
use crate::rules::drawing::{self, ActionMark, Diagram, Draw, PieceMark, Pieces, Side, facing_if};
use crate::rules::{Player, Rules};
use crate::topology::file::AnyBoard;

use super::ChessRules;
use super::movegen::Action;
use super::pieces::{Kind, home_facing, player_name};
use super::position::Position;

impl ChessRules {
    fn piece_marks(&self, pos: &Position) -> Vec<PieceMark> {
        let b = self.geo.board();
        let reverses = drawing::reverses_facing(b);
        b.cells()
            .filter_map(|c| {
                pos.piece(c).map(|p| PieceMark {
                    cell: b.cell_name(c).to_string(),
                    owner: p.owner,
                    label: self.letter(p.kind).to_string(),
                    promoted: false,
                    facing: facing_if(reverses && self.is_pawn(p.kind), p.facing),
                    other_face: None,
                    royal: self.is_royal(p.kind),
                    arrow: false,
                })
            })
            .collect()
    }
}

impl Draw<Position, Action> for ChessRules {
    fn text_cells(&self) -> Vec<String> {
        crate::rules::drawing::chart_text_cells(self.geo.board())
    }

    /// Every kind for both players in the file's order, the pawn last;
    /// pawns in each facing the picture can show (both where a seam can
    /// reverse one, the owner's elsewhere), each with the double-step flag
    /// left to the text's default for its cell or stated (`+` set, `-`
    /// clear, SC-9.1).
    fn palette(&self) -> Vec<crate::rules::drawing::PaletteEntry> {
        let reverses = drawing::reverses_facing(self.geo.board());
        let mut out = Vec::new();
        for owner in [Player::First, Player::Second] {
            let letter = |k: Kind| self.piece_letter(super::pieces::Piece::new(owner, k));
            for kind in self.kinds().kinds().filter(|&k| !self.is_pawn(k)) {
                out.push(crate::rules::drawing::PaletteEntry {
                    token: letter(kind).to_string(),
                    owner,
                    label: self.letter(kind).to_string(),
                    promoted: false,
                    facing: None,
                    other_face: None,
                    double_step: None,
                });
            }
            let Some(pawn) = self.data.pieces.pawn else {
                continue;
            };
            let home = home_facing(owner);
            let facings = if reverses {
                vec![home, home.reversed()]
            } else {
                vec![home]
            };
            for facing in facings {
                for flag in [None, Some(true), Some(false)] {
                    let mut token = letter(pawn).to_string();
                    if facing != home {
                        token.push(if facing == Facing::Up { '^' } else { 'v' });
                    }
                    match flag {
                        Some(true) => token.push('+'),
                        Some(false) => token.push('-'),
                        None => {}
                    }
                    out.push(crate::rules::drawing::PaletteEntry {
                        token,
                        owner,
                        label: self.letter(pawn).to_string(),
                        promoted: false,
                        facing: facing_if(reverses, facing),
                        other_face: None,
                        double_step: flag,
                    });
                }
            }
        }
        out
    }

    fn pieces(&self, pos: &Position) -> Pieces {
        Pieces {
            pieces: self.piece_marks(pos),
            drop_facing: [None, None],
            to_move: pos.to_move(),
        }
    }

    fn diagram(&self, pos: &Position) -> Diagram {
        let b = self.geo.board();
        let reverses = drawing::reverses_facing(b);
        let pieces = self.piece_marks(pos);
        let side = |p: Player| {
            // Where seams can turn a pawn round, it may promote on either
            // facing's last rank; otherwise only its home facing counts.
            let both = [Facing::Up, Facing::Down];
            let home = [home_facing(p)];
            let facings: &[Facing] = if reverses { &both } else { &home };
            Side {
                name: player_name(p).to_string(),
                hand: vec![],
                zone: b
                    .cells()
                    .filter(|&c| facings.iter().any(|&f| self.promotes(p, f, c)))
                    .map(|c| b.cell_name(c).to_string())
                    .collect(),
                drop_facing: None,
            }
        };
        Diagram {
            variant: self.variant().to_string(),
            board: AnyBoard::Charts(b.clone()),
            pieces,
            sides: [side(Player::First), side(Player::Second)],
            to_move: pos.to_move(),
            in_check: self.in_check(pos),
            // A promoted pawn becomes another kind, so there is no
            // promoted label to name.
            legend: self
                .kinds()
                .kinds()
                .map(|k| (self.letter(k).to_string(), self.kind_name(k).to_string()))
                .collect(),
            shape: drawing::PieceShape::Figurine,
        }
    }

    fn action_mark(&self, pos: &Position, a: &Action) -> ActionMark {
        let b = self.geo.board();
        let pawn = pos.piece(a.from).is_some_and(|p| self.is_pawn(p.kind));
        ActionMark {
            from: Some(b.cell_name(a.from).to_string()),
            to: b.cell_name(a.to).to_string(),
            facing: facing_if(
                pawn && a.promotion.is_none() && drawing::reverses_facing(b),
                a.facing,
            ),
            drop: None,
            promote: a.promotion.is_some(),
        }
    }

    fn action_routes(&self, pos: &Position, a: &Action) -> Vec<drawing::Route> {
        self.routes(pos, a)
    }
}
