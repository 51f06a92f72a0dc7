//! Endings of the current position, after a move and at the start of a
//! game (SC-I10), in the order of SC-7.5: checkmate, stalemate,
//! bare kings, the repetition threshold, the halfmove threshold. The first
//! that applies decides, so checkmate takes precedence over a simultaneous
//! automatic draw. Thresholds come from the variant data.

use super::ChessRules;
use super::position::Position;
use crate::rules::{EndReason, GameResult, History, Rules};

impl ChessRules {
    pub fn ending(&self, game: &History<Position>, legal_is_empty: bool) -> Option<GameResult> {
        let pos = game.current();
        if legal_is_empty {
            return Some(if self.in_check(pos) {
                GameResult {
                    winner: Some(pos.to_move.other()),
                    reason: EndReason::Checkmate,
                }
            } else {
                GameResult {
                    winner: None,
                    reason: EndReason::Stalemate,
                }
            });
        }
        let draw = |reason| {
            Some(GameResult {
                winner: None,
                reason,
            })
        };
        if pos.piece_count() == 2 {
            return draw(EndReason::BareKings);
        }
        if game.occurrences_of_current() >= self.data.repetition {
            return draw(EndReason::Repetition);
        }
        if pos.halfmove >= self.data.move_rule_halfmoves {
            return draw(EndReason::MoveRule);
        }
        None
    }
}
