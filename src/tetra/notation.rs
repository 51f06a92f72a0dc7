//! Action notation (clause TS-7.1, TS-7.2).
//!
//! A board move is `from-to` (`c3.2-c4.2`), with
//! `+` for a promotion and `=L` for a switch into the kind lettered `L`. A
//! drop is the dropped form's letter, `*`, and the cell: `P*c5.3`.

use crate::rules::{ActionError, IllegalReason};
use crate::topology::CellId;

use super::TetraRules;
use super::movegen::{self, Change, TetraAction};
use super::position::Position;

fn fail(code: IllegalReason, message: impl Into<String>) -> ActionError {
    ActionError {
        code,
        message: message.into(),
    }
}

impl TetraRules {
    /// Canonical notation of an action.
    pub fn action_text(&self, pos: &Position, a: &TetraAction) -> String {
        // Pushed piece by piece rather than formatted: every legal action
        // of every position is written, and a position can have hundreds.
        let name = |c: CellId| self.board.cell_name(c);
        let mut s = String::with_capacity(12);
        match *a {
            TetraAction::Move { from, to, change } => {
                s.push_str(name(from));
                s.push('-');
                s.push_str(name(to));
                match change {
                    Change::None => {}
                    Change::Promote => s.push('+'),
                    Change::Switch => {
                        if let Some(k) = pos
                            .piece_at(from)
                            .and_then(|p| self.data.switches_with[p.kind.index()])
                        {
                            s.push('=');
                            s.push(self.data.letter_of(k));
                        }
                    }
                }
            }
            TetraAction::Drop { kind, to } => {
                s.push(self.data.letter_of(kind));
                s.push('*');
                s.push_str(name(to));
            }
        }
        s
    }

    fn cell(&self, text: &str) -> Result<CellId, ActionError> {
        self.board
            .parse_cell(text)
            .map_err(|e| fail(IllegalReason::NoSuchCell, format!("'{text}': {}", e.reason)))
    }

    /// Parses notation into the legal action it denotes, or says why not.
    pub fn read_action(&self, pos: &Position, text: &str) -> Result<TetraAction, ActionError> {
        let d = &self.data;
        let me = pos.to_move;
        let action = if let Some((letter, cell)) = text.split_once('*') {
            // A drop is never promoted or switched (the letter gives the
            // face): a mark on either side is refused from the text alone.
            if letter.starts_with('+') || cell.ends_with('+') || cell.contains('=') {
                return Err(fail(
                    IllegalReason::Promotion,
                    format!("'{text}': a drop takes no '+' or '=' (its letter names the face)"),
                ));
            }
            let mut ls = letter.chars();
            let (Some(l), None) = (ls.next(), ls.next()) else {
                return Err(fail(
                    IllegalReason::Syntax,
                    format!("'{text}': a drop is one piece letter, '*', a cell"),
                ));
            };
            // Upper case is the grammar's; which letters exist is the
            // variant's (NT-I9), so another letter is a piece not in hand,
            // judged after the cell.
            let to = self.cell(cell)?;
            let kind = d
                .kind_of_letter(l)
                .filter(|_| l.is_ascii_uppercase())
                .ok_or_else(|| {
                    fail(
                        IllegalReason::NoPiece,
                        format!("{} has no piece with the letter '{l}'", d.name),
                    )
                })?;
            if pos.in_hand(me, d.hand_class(kind)) == 0 {
                return Err(fail(
                    IllegalReason::NoPiece,
                    format!("no {} in hand", d.kind_name(kind)),
                ));
            }
            if pos.piece_at(to).is_some() {
                return Err(fail(
                    IllegalReason::DropRestriction,
                    format!("{cell} is occupied"),
                ));
            }
            if self.t.is_immobile(me, kind, to) {
                return Err(fail(
                    IllegalReason::DropRestriction,
                    format!("a {} dropped on {cell} could never move", d.kind_name(kind)),
                ));
            }
            TetraAction::Drop { kind, to }
        } else {
            let (body, change_text) = if let Some(b) = text.strip_suffix('+') {
                (b, Some("+"))
            } else if let Some((b, s)) = text.split_once('=') {
                (b, Some(s))
            } else {
                (text, None)
            };
            let Some((from_text, to_text)) = body.split_once('-') else {
                return Err(fail(
                    IllegalReason::Syntax,
                    format!("'{text}': a move is from-to as in c3.2-c4.2, a drop P*c5.3"),
                ));
            };
            let from = self.cell(from_text)?;
            let to = self.cell(to_text)?;
            let p = pos
                .piece_at(from)
                .filter(|p| p.owner == me)
                .ok_or_else(|| {
                    fail(
                        IllegalReason::NoPiece,
                        format!("no piece of the side to move on {from_text}"),
                    )
                })?;
            let mut dests = Vec::new();
            self.t.destinations(pos, from, &mut dests);
            if !dests.contains(&to) {
                return Err(fail(
                    IllegalReason::Unreachable,
                    format!("the piece on {from_text} cannot move to {to_text}"),
                ));
            }
            let change = match change_text {
                None => Change::None,
                Some("+") => Change::Promote,
                Some(l) => {
                    let mut ls = l.chars();
                    let want = match (ls.next(), ls.next()) {
                        (Some(c), None) => d.kind_of_letter(c).filter(|_| c.is_ascii_uppercase()),
                        _ => None,
                    };
                    let Some(want) = want else {
                        return Err(fail(
                            IllegalReason::Promotion,
                            format!(
                                "'={l}': {} has no piece with that letter to switch into",
                                d.name
                            ),
                        ));
                    };
                    if d.switches_with[p.kind.index()] != Some(want) {
                        return Err(fail(
                            IllegalReason::Promotion,
                            format!(
                                "a {} cannot turn into a {}",
                                d.kind_name(p.kind),
                                d.kind_name(want)
                            ),
                        ));
                    }
                    Change::Switch
                }
            };
            if !self.t.changes(d, p, from, to).as_slice().contains(&change) {
                let why = match change {
                    Change::None => "the piece must promote here (it could not move again)",
                    Change::Promote => {
                        "no promotion: the piece does not promote, is promoted, or the move misses the zone"
                    }
                    Change::Switch => "a switch needs a move that starts or ends in the zone",
                };
                return Err(fail(IllegalReason::Promotion, why));
            }
            TetraAction::Move { from, to, change }
        };
        let mut scratch = pos.clone();
        if !movegen::is_legal(&self.t, d, &mut scratch, action) {
            return Err(fail(
                IllegalReason::KingInCheck,
                format!("'{text}' leaves the {} attacked", d.kind_name(d.royal)),
            ));
        }
        Ok(action)
    }
}
