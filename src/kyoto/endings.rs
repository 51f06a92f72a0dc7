//! Game endings: no legal action loses (`KY-7.1`); a repetition at the
//! data file's occurrence is a draw (`KY-6.3`) or, with the alternative
//! rule, a loss for the repeater unless exactly one player checked
//! throughout (`KY-6.4`, `KY-I2`). Apart from the `Rules` impl, which
//! calls `KyotoRules::judge`, as the other families keep theirs.

use crate::rules::{EndReason, GameResult, History, Player};

use super::position::Position;
use super::{KyotoRules, RepetitionRule};

impl KyotoRules {
    /// Adjudicates the current position of a game (`Rules::adjudicate`).
    pub(super) fn judge(
        &self,
        game: &History<Position>,
        legal_is_empty: bool,
    ) -> Option<GameResult> {
        let pos = game.current();
        let mover = pos.to_move;
        if legal_is_empty {
            // KY-7.1: a player who cannot act loses, checked or not.
            let reason = if self.checked(pos, mover) {
                EndReason::Checkmate
            } else {
                EndReason::NoLegalAction
            };
            return Some(GameResult {
                winner: Some(mover.other()),
                reason,
            });
        }
        if game.occurrences_of_current() < self.repetition_at {
            return None;
        }
        Some(match self.repetition {
            RepetitionRule::Draw => GameResult {
                winner: None,
                reason: EndReason::Repetition,
            },
            RepetitionRule::Loss => {
                // Reached only at an occurrence >= repetition_at >= 2
                // (from_toml refuses less), so at least one action has been
                // played: a start, judged with no movers, never gets here.
                let first = game.current_occurrences()[0];
                let repeater = *game
                    .movers
                    .last()
                    .expect("a second occurrence follows an action");
                let checkers: Vec<Player> = [Player::First, Player::Second]
                    .into_iter()
                    .filter(|&p| Self::checked_throughout(game, first, p))
                    .collect();
                match checkers.as_slice() {
                    [checker] => GameResult {
                        winner: Some(checker.other()),
                        reason: EndReason::PerpetualCheck,
                    },
                    _ => GameResult {
                        winner: Some(repeater.other()),
                        reason: EndReason::Repetition,
                    },
                }
            }
        })
    }

    /// Did `who` give check on every one of their moves in the history
    /// from position index `since` on?
    fn checked_throughout(game: &History<Position>, since: usize, who: Player) -> bool {
        let mut any = false;
        for i in since..game.movers.len() {
            if game.movers[i] == who {
                any = true;
                if !game.gave_check[i] {
                    return false;
                }
            }
        }
        any
    }
}
