//! The repetition key (`SS-8.5`): variant, every occupied cell with kind,
//! owner, promotion and (for pieces whose movement depends on it) facing,
//! both hands and the side to move. Move numbers never count; kings, rooks
//! and bishops are stored without facing, so theirs never counts either.

use crate::rules::Key;

use super::ShogiRules;
use super::position::Position;

impl ShogiRules {
    /// The position text without its move number, prefixed by the variant.
    pub fn repetition_key(&self, pos: &Position) -> Key {
        format!("{} {}", self.name, self.text_fields(pos))
    }
}
