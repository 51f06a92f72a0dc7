//! Canonical long notation of actions (`SS-9.2`).
//!
//! A board move is `<from>-<to>`, then `+` when it promotes or `=` when it
//! declines an available promotion (nothing when promotion is impossible),
//! then `^` or `v` for the arrival facing when another legal action differs
//! from this one only in that facing. A drop is `<letter>*<cell>`. Cells
//! are printed by the board: `e5`, `I:e5`.

use crate::rules::{ActionError, IllegalReason};

use super::ShogiRules;
use super::movegen::Action;
use super::position::Position;
use super::text::{facing_mark, parse_mark};

fn fail(code: IllegalReason, message: impl Into<String>) -> ActionError {
    ActionError {
        code,
        message: message.into(),
    }
}

impl ShogiRules {
    /// Notation of one action, given the legal actions of the position.
    pub fn action_text_in(&self, legal: &[Action], action: &Action) -> String {
        match *action {
            Action::Drop { kind, to } => {
                let mut s = String::with_capacity(8);
                s.push(self.letter(kind));
                s.push('*');
                s.push_str(self.cell_name(to));
                s
            }
            Action::Move {
                from,
                to,
                promote,
                facing,
            } => {
                // Pushed rather than formatted: every legal action of every
                // position is written.
                let mut s = String::with_capacity(12);
                s.push_str(self.cell_name(from));
                s.push('-');
                s.push_str(self.cell_name(to));
                let same_route = |a: &Action, p: Option<bool>| match *a {
                    Action::Move {
                        from: f,
                        to: t,
                        promote: pr,
                        ..
                    } => f == from && t == to && p.is_none_or(|p| p == pr),
                    Action::Drop { .. } => false,
                };
                if promote {
                    s.push('+');
                } else if legal.iter().any(|a| same_route(a, Some(true))) {
                    s.push('=');
                }
                let other_facing = legal.iter().any(|a| {
                    same_route(a, Some(promote))
                        && matches!(a, Action::Move { facing: f, .. } if *f != facing)
                });
                if other_facing {
                    s.push(facing_mark(facing));
                }
                s
            }
        }
    }

    /// Notation of one action in a position.
    pub fn action_text(&self, pos: &Position, action: &Action) -> String {
        match *action {
            Action::Move { from, .. } => self.action_text_in(&self.legal_from(pos, from), action),
            Action::Drop { .. } => self.action_text_in(&[], action),
        }
    }

    /// Notation of every legal action, sorted as text.
    pub fn legal_texts(&self, pos: &Position) -> Vec<String> {
        let legal = self.legal(pos);
        let mut v: Vec<String> = legal
            .iter()
            .map(|a| self.action_text_in(&legal, a))
            .collect();
        v.sort();
        v
    }

    /// Parses notation into the legal action it names, or says why not.
    pub fn read_action(&self, pos: &Position, text: &str) -> Result<Action, ActionError> {
        let b = self.geo.board();
        let cell = |t: &str| {
            b.parse_cell(t)
                .map_err(|e| fail(IllegalReason::NoSuchCell, e.to_string()))
        };
        let me = pos.to_move;
        if let Some((piece, target)) = text.split_once('*') {
            // A promotion mark on either side of a drop is refused from
            // the text alone, before the cell or the hand is looked at.
            if piece.starts_with('+') || target.contains(['+', '=']) {
                return Err(fail(
                    IllegalReason::Promotion,
                    "a piece is always dropped unpromoted: a drop takes no '+' or '='",
                ));
            }
            let mut chars = piece.chars();
            let (Some(letter), None) = (chars.next(), chars.next()) else {
                return Err(fail(
                    IllegalReason::Syntax,
                    format!("'{text}': a drop is a piece letter, '*', and a cell, as in P*e5"),
                ));
            };
            if target.ends_with(['^', 'v']) {
                return Err(fail(
                    IllegalReason::DropRestriction,
                    "a drop always takes its owner's drop facing; no facing can be chosen",
                ));
            }
            let to = cell(target)?;
            // A letter the variant has no kind for is one more piece that
            // is not in hand (NT-I9).
            let Some(kind) = self.kinds().by_letter(letter) else {
                return Err(fail(
                    IllegalReason::NoPiece,
                    format!(
                        "'{letter}' is the letter of no piece of {} ({})",
                        self.name,
                        self.kinds().letter_list()
                    ),
                ));
            };
            if pos.hand(me, kind) == 0 {
                return Err(fail(
                    IllegalReason::NoPiece,
                    format!("no {} in hand", self.kind_name(kind)),
                ));
            }
            if pos.piece_at(to).is_some() {
                return Err(fail(
                    IllegalReason::DropRestriction,
                    format!("{target} is occupied"),
                ));
            }
            if self.is_dead(kind, self.drop_facing(me), to) {
                return Err(fail(
                    IllegalReason::DropRestriction,
                    format!(
                        "a dropped {} could never move from {target}",
                        self.kind_name(kind)
                    ),
                ));
            }
            if self.has_nifu(kind) && self.nifu_files(pos, me, kind).contains(&self.file_of(to)) {
                return Err(fail(
                    IllegalReason::DropRestriction,
                    format!(
                        "nifu: the file of {target} already holds an unpromoted {} of the mover",
                        self.kind_name(kind)
                    ),
                ));
            }
            let a = Action::Drop { kind, to };
            return match self.legality_failure(pos, &a) {
                None => Ok(a),
                Some(true) => Err(fail(
                    IllegalReason::KingInCheck,
                    "the drop leaves the mover's king attacked",
                )),
                Some(false) => Err(fail(
                    IllegalReason::DropRestriction,
                    format!("a dropped {} may not give mate", self.kind_name(kind)),
                )),
            };
        }
        let Some((from_text, rest)) = text.split_once('-') else {
            return Err(fail(
                IllegalReason::Syntax,
                format!("'{text}' is neither a move (e3-e4) nor a drop (P*e5)"),
            ));
        };
        let mut rest = rest;
        let mut want_facing = None;
        if let Some(f) = rest.chars().last().and_then(parse_mark) {
            want_facing = Some(f);
            rest = &rest[..rest.len() - 1];
        }
        let mut want_promote = None;
        if let Some(r) = rest.strip_suffix('+') {
            want_promote = Some(true);
            rest = r;
        } else if let Some(r) = rest.strip_suffix('=') {
            want_promote = Some(false);
            rest = r;
        }
        let from = cell(from_text)?;
        let to = cell(rest)?;
        let piece = match pos.piece_at(from) {
            Some(p) if p.owner == me => p,
            _ => {
                return Err(fail(
                    IllegalReason::NoPiece,
                    format!("no piece of the player to move on {from_text}"),
                ));
            }
        };
        let candidates: Vec<Action> = self
            .pseudo_from(pos, from)
            .into_iter()
            .filter(|a| matches!(a, Action::Move { from: f, to: t, .. } if *f == from && *t == to))
            .collect();
        if candidates.is_empty() {
            return Err(fail(
                IllegalReason::Unreachable,
                format!("the piece on {from_text} cannot move to {rest}"),
            ));
        }
        let has = |p: bool| {
            candidates
                .iter()
                .any(|a| matches!(a, Action::Move { promote, .. } if *promote == p))
        };
        let promote = match want_promote {
            Some(true) if !has(true) => {
                return Err(fail(IllegalReason::Promotion, "this move cannot promote"));
            }
            Some(false) if !has(false) => {
                return Err(fail(IllegalReason::Promotion, "this move must promote"));
            }
            // `=` declines a promotion that was available (SS-9.2); where
            // there was none to decline, it is not this move's notation.
            Some(false) if !has(true) => {
                return Err(fail(
                    IllegalReason::Promotion,
                    "this move cannot promote, so there is nothing to decline: write it without '='",
                ));
            }
            Some(p) => p,
            None if has(true) && has(false) => {
                return Err(fail(
                    IllegalReason::Promotion,
                    "promotion is optional here: write + to promote or = to decline",
                ));
            }
            None => has(true),
        };
        // A king, rook or bishop carries no facing (SS-2), so no route of
        // one ends with a mark (NT-I4). A mark on a piece that carries
        // facing is checked even where it is not needed (NT-I2).
        if let Some(f) = want_facing
            && !self.has_facing(piece.kind)
        {
            return Err(fail(
                IllegalReason::Unreachable,
                format!(
                    "a {} carries no facing, so no route ends with '{}'",
                    self.kind_name(piece.kind),
                    facing_mark(f)
                ),
            ));
        }
        let mut matching: Vec<Action> = candidates
            .into_iter()
            .filter(|a| {
                matches!(a, Action::Move { promote: p, facing, .. }
                    if *p == promote && want_facing.is_none_or(|f| f == *facing))
            })
            .collect();
        if matching.is_empty() {
            return Err(fail(
                IllegalReason::Unreachable,
                "no route arrives with that facing",
            ));
        }
        // King safety before ambiguity: `ambiguous` means several *legal*
        // actions fit the text (PROTOCOL.md order 9).
        matching.retain(|a| self.legality_failure(pos, a).is_none());
        match matching.len() {
            0 => Err(fail(
                IllegalReason::KingInCheck,
                "the move leaves the mover's king attacked",
            )),
            1 => Ok(matching.remove(0)),
            _ => Err(fail(
                IllegalReason::Ambiguous,
                "routes arrive with different facings: add ^ (up) or v (down)",
            )),
        }
    }
}
