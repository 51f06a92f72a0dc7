//! Game endings (`SS-8`): no legal action loses; the fourth occurrence of a
//! position ends the game at once, lost by a player who checked on every one
//! of their moves since the first occurrence when exactly one did so, drawn
//! otherwise. Resignation and agreed draws are recorded by
//! [`crate::rules::Game`].

use crate::rules::{EndReason, GameResult, History};

use super::ShogiRules;
use super::position::Position;

/// The occurrence that ends the game (`SS-8.2`).
pub const DECISIVE_OCCURRENCE: u32 = 4;

impl ShogiRules {
    /// Adjudicates the current position of a game.
    pub fn judge(&self, game: &History<Position>, legal_is_empty: bool) -> Option<GameResult> {
        let pos = game.current();
        if legal_is_empty {
            let reason = if self.checked(pos) {
                EndReason::Checkmate
            } else {
                EndReason::NoLegalAction
            };
            return Some(GameResult {
                winner: Some(pos.to_move.other()),
                reason,
            });
        }
        if game.occurrences_of_current() < DECISIVE_OCCURRENCE {
            return None;
        }
        let first = *game.current_occurrences().first()?;
        let last = game.plies();
        // Moves j in first..last lead from positions[j] to positions[j + 1].
        let checked_every = |p| {
            (first..last)
                .filter(|&j| game.movers[j] == p)
                .all(|j| game.gave_check[j])
        };
        let a = checked_every(crate::rules::Player::First);
        let b = checked_every(crate::rules::Player::Second);
        Some(match (a, b) {
            (true, false) => GameResult {
                winner: Some(crate::rules::Player::Second),
                reason: EndReason::PerpetualCheck,
            },
            (false, true) => GameResult {
                winner: Some(crate::rules::Player::First),
                reason: EndReason::PerpetualCheck,
            },
            _ => GameResult {
                winner: None,
                reason: EndReason::Repetition,
            },
        })
    }
}
