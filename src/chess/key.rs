//! The repetition key (SC-7.3): variant and rules version, the placement
//! with every pawn's facing and flag, the side to move, the castling rights,
//! and the en-passant trace only when the player to move has at least one
//! legal en-passant capture. Counters and history never enter the key.

use super::ChessRules;
use super::movegen::Special;
use super::position::Position;
use crate::rules::Key;

impl ChessRules {
    /// Whether the player to move has a legal en-passant capture.
    pub fn has_legal_en_passant(&self, pos: &Position) -> bool {
        pos.en_passant.is_some()
            && self
                .legal(pos)
                .iter()
                .any(|a| a.special == Special::EnPassant)
    }

    pub fn repetition_key(&self, pos: &Position) -> Key {
        let b = self.geo.board();
        let ep = match pos.en_passant {
            Some(t) if self.has_legal_en_passant(pos) => {
                format!("{}>{}", b.cell_name(t.middle), b.cell_name(t.destination))
            }
            _ => "-".to_string(),
        };
        format!(
            "{} {} {} {} {} {}",
            self.data.variant,
            self.data.rules_version,
            self.placement_text(pos),
            self.side_text(pos),
            self.castling_text(pos),
            ep
        )
    }
}
