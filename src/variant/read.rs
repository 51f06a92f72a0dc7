//! A position read from its text once and asked several questions, each
//! with moves played from it first.

use std::borrow::Cow;
use std::cell::OnceCell;

use super::{
    At, PerftTable, Played, VariantError, bounded, check_move_count, check_moves, check_perft_depth,
};
use crate::rules::{ActionError, parse_start};
use crate::rules::{Game, Rules};

/// A position read from its text once, asked the [`Variant`] questions of
/// the same names with `moves` played from it first. An engine asked
/// several questions about one position in a row keeps it rather than
/// reading the text for each (see
/// [`Reference`](crate::conformance::reference::Reference)): `seams fuzz`
/// asks four about every position of its games.
pub trait ReadPosition: Send {
    fn legal_actions(&self, moves: &[String]) -> Result<Vec<String>, VariantError>;
    fn check_action(
        &self,
        moves: &[String],
        action: &str,
    ) -> Result<Result<String, ActionError>, VariantError>;
    fn perft(&self, moves: &[String], depth: u32) -> Result<u64, VariantError>;
    /// [`ReadPosition::perft`] with a transposition table
    /// ([`Rules::perft_hashed`]).
    fn perft_hashed(
        &self,
        moves: &[String],
        depth: u32,
        table: &PerftTable,
    ) -> Result<u64, VariantError>;
    fn divide(&self, moves: &[String], depth: u32) -> Result<Vec<(String, u64)>, VariantError>;
    /// [`ReadPosition::legal_actions`] by the family's second path
    /// ([`Rules::independent_legal_actions`]); `None` without one.
    fn independent_legal_actions(
        &self,
        moves: &[String],
    ) -> Result<Option<Vec<String>>, VariantError>;
    /// [`ReadPosition::perft`] by the family's second path
    /// ([`Rules::independent_perft`]); `None` without one.
    fn independent_perft(&self, moves: &[String], depth: u32) -> Result<Option<u64>, VariantError>;
    fn play(&self, moves: &[String]) -> Result<Played, VariantError>;
    fn reached(&self, moves: &[String]) -> Result<(String, String), VariantError>;
}

/// The [`ReadPosition`] of every family.
pub(super) struct Read<'r, R: Rules> {
    rules: &'r R,
    start: R::Position,
    /// The start's legal actions, listed on first use: its legal actions,
    /// its status (whose endings need them) and a divide share them.
    legal: OnceCell<Vec<R::Action>>,
}

/// Reads `text` (default: the initial position).
pub(super) fn read<'r, R: Rules>(
    rules: &'r R,
    text: Option<&str>,
) -> Result<Read<'r, R>, VariantError> {
    let start = match text {
        None => rules.start(),
        Some(text) => parse_start(rules, text)?,
    };
    Ok(Read {
        rules,
        start,
        legal: OnceCell::new(),
    })
}

impl<R: Rules> Read<'_, R> {
    fn start_legal(&self) -> &[R::Action] {
        self.legal
            .get_or_init(|| Rules::legal_actions(self.rules, &self.start))
    }

    /// The legal actions in `pos`, the position after `moves`.
    fn legal(&self, moves: &[String], pos: &R::Position) -> Cow<'_, [R::Action]> {
        if moves.is_empty() {
            Cow::Borrowed(self.start_legal())
        } else {
            Cow::Owned(Rules::legal_actions(self.rules, pos))
        }
    }

    /// The position after `moves`, played without game-end rules: the
    /// start itself, not a copy, when there are none.
    fn reach(&self, moves: &[String]) -> Result<Cow<'_, R::Position>, VariantError> {
        check_move_count(moves)?;
        if moves.is_empty() {
            return Ok(Cow::Borrowed(&self.start));
        }
        let mut pos = self.start.clone();
        for (i, text) in moves.iter().enumerate() {
            let a = self
                .rules
                .parse_action(&pos, text)
                .map_err(|error| VariantError::Move {
                    ply: i + 1,
                    text: text.clone(),
                    error: bounded(error),
                })?;
            pos = self.rules.apply(&pos, &a);
        }
        Ok(Cow::Owned(pos))
    }
}

impl<R: Rules> ReadPosition for Read<'_, R> {
    fn legal_actions(&self, moves: &[String]) -> Result<Vec<String>, VariantError> {
        let pos = self.reach(moves)?;
        let mut out = self.rules.format_legal(&pos, &self.legal(moves, &pos));
        out.sort();
        Ok(out)
    }

    fn check_action(
        &self,
        moves: &[String],
        action: &str,
    ) -> Result<Result<String, ActionError>, VariantError> {
        let pos = self.reach(moves)?;
        Ok(self
            .rules
            .parse_action(&pos, action)
            .map(|a| self.rules.format_action(&pos, &a))
            .map_err(bounded))
    }

    fn perft(&self, moves: &[String], depth: u32) -> Result<u64, VariantError> {
        check_perft_depth(depth)?;
        let pos = self.reach(moves)?;
        Ok(Rules::perft(self.rules, &pos, depth))
    }

    fn perft_hashed(
        &self,
        moves: &[String],
        depth: u32,
        table: &PerftTable,
    ) -> Result<u64, VariantError> {
        check_perft_depth(depth)?;
        let pos = self.reach(moves)?;
        Ok(self.rules.perft_hashed(&pos, depth, table))
    }

    fn divide(&self, moves: &[String], depth: u32) -> Result<Vec<(String, u64)>, VariantError> {
        check_perft_depth(depth)?;
        let pos = self.reach(moves)?;
        let r = self.rules;
        let mut out: Vec<(String, u64)> = self
            .legal(moves, &pos)
            .iter()
            .map(|a| {
                let below = Rules::perft(r, &r.apply(&pos, a), depth.saturating_sub(1));
                (r.format_action(&pos, a), below)
            })
            .collect();
        out.sort();
        Ok(out)
    }

    fn independent_legal_actions(
        &self,
        moves: &[String],
    ) -> Result<Option<Vec<String>>, VariantError> {
        let pos = self.reach(moves)?;
        Ok(self.rules.independent_legal_actions(&pos).map(|actions| {
            let mut out = self.rules.format_legal(&pos, &actions);
            out.sort();
            out
        }))
    }

    fn independent_perft(&self, moves: &[String], depth: u32) -> Result<Option<u64>, VariantError> {
        check_perft_depth(depth)?;
        let pos = self.reach(moves)?;
        Ok(self.rules.independent_perft(&pos, depth))
    }

    fn play(&self, moves: &[String]) -> Result<Played, VariantError> {
        check_move_count(moves)?;
        let r = self.rules;
        let mut game = Game::listed(r, self.start.clone(), !self.start_legal().is_empty());
        for (i, text) in moves.iter().enumerate() {
            game.play_text(text).map_err(|error| VariantError::Move {
                ply: i + 1,
                text: text.clone(),
                error: bounded(error),
            })?;
        }
        let pos = game.position();
        Ok(Played {
            position: r.format_position(pos),
            to_move: r.to_move(pos),
            in_check: r.in_check(pos),
            result: game.result(),
            key: r.key(pos),
            occurrences: game.history().occurrences_of_current(),
        })
    }

    fn reached(&self, moves: &[String]) -> Result<(String, String), VariantError> {
        let pos = self.reach(moves)?;
        Ok((self.rules.format_position(&pos), self.rules.key(&pos)))
    }
}

/// Plays `at` without game-end rules: parse each move in turn.
pub(super) fn reach<R: Rules>(rules: &R, at: &At) -> Result<R::Position, VariantError> {
    check_moves(at)?;
    Ok(read(rules, at.position)?.reach(at.moves)?.into_owned())
}
