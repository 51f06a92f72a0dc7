//! Thin spots: situations random play rarely reaches, counted so that a
//! run says whether its games reached them, and how often.
//!
//! Each spot is counted once per distinct position (by the reference's
//! repetition key) in which it shows, at positions the engine was asked
//! about. A spot has a target only in the variants where the rules make it
//! matter; elsewhere its count is still shown.
//!
//! A game keeps the FNV-1a digests of its keys, not the keys: its record
//! lists them, and a variant's count is the size of their union over its
//! games, so that shards of a run merge into the count one run gives.

use std::collections::{BTreeMap, HashSet};

use serde::{Deserialize, Serialize};

use crate::chess::movegen::{
    CASTLING_ENDS_IN_CHECK, CASTLING_INTO_CHECK, CASTLING_OUT_OF_CHECK, CASTLING_THROUGH_CHECK,
};
use crate::rules::{EndReason, IllegalReason};
use crate::walk::{EnPassant, Walk};

/// How often each thin spot should be reached in a default run of an
/// applicable variant.
pub const TARGET: usize = 20;

/// Castling as every castling family writes it (SC-9.3).
const CASTLING_TEXTS: [&str; 4] = ["O-O-east", "O-O-west", "O-O", "O-O-O"];

#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Spot {
    /// No legal action while not in check, which loses (SS-8.1, KY-7.1).
    NoLegalActionNotInCheck,
    /// A repetition in which one player checked with every action.
    PerpetualCheck,
    /// En passant taken by a pawn facing against its owner.
    EnPassantByReversedPawn,
    /// En passant taken on a pawn facing against its owner.
    EnPassantAgainstReversedPawn,
    /// Two promotions that differ only in the piece's final facing.
    PromotionChoiceByFacingOnly,
    /// Castling refused because the king is attacked (SC-5.4 a).
    CastlingOutOfCheck,
    /// Castling refused because the transit cell is attacked (SC-5.4 b).
    CastlingThroughCheck,
    /// Castling refused because the king would land attacked (SC-5.4 b, c).
    CastlingIntoCheck,
}

impl Spot {
    pub const ALL: [Spot; 8] = [
        Spot::NoLegalActionNotInCheck,
        Spot::PerpetualCheck,
        Spot::EnPassantByReversedPawn,
        Spot::EnPassantAgainstReversedPawn,
        Spot::PromotionChoiceByFacingOnly,
        Spot::CastlingOutOfCheck,
        Spot::CastlingThroughCheck,
        Spot::CastlingIntoCheck,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Spot::NoLegalActionNotInCheck => "no legal action, not in check",
            Spot::PerpetualCheck => "perpetual check",
            Spot::EnPassantByReversedPawn => "en passant by a reversed pawn",
            Spot::EnPassantAgainstReversedPawn => "en passant against a reversed pawn",
            Spot::PromotionChoiceByFacingOnly => "promotions differing only in facing",
            Spot::CastlingOutOfCheck => "castling out of check (refused)",
            Spot::CastlingThroughCheck => "castling through check (refused)",
            Spot::CastlingIntoCheck => "castling into check (refused)",
        }
    }

    /// Whether the spot is a target in `variant`: the surface shogi and
    /// Kyoto rules end a game on it, the Klein bottle reverses pawns next
    /// to the en-passant rule, and Möbius castling has its own cells. The
    /// spec says no shipped board gives a choice by facing alone
    /// (SS-9.2, SC-I7), so that spot has no target: its count should be 0.
    pub fn target_in(self, variant: &str) -> bool {
        let shogi_like = variant.starts_with("shogi-") || variant.starts_with("kyoto");
        match self {
            Spot::NoLegalActionNotInCheck | Spot::PerpetualCheck => shogi_like,
            Spot::EnPassantByReversedPawn | Spot::EnPassantAgainstReversedPawn => {
                variant == "chess-klein"
            }
            Spot::PromotionChoiceByFacingOnly => false,
            Spot::CastlingOutOfCheck | Spot::CastlingThroughCheck | Spot::CastlingIntoCheck => {
                variant == "chess-mobius"
            }
        }
    }
}

/// The distinct positions where each spot showed, in one game.
#[derive(Default)]
pub struct Counter {
    seen: BTreeMap<Spot, HashSet<u64>>,
}

impl Counter {
    /// Records what the walk's current position shows; `en_passant` holds
    /// its en-passant captures, `castling` says whether the variant castles.
    pub fn observe(&mut self, walk: &dyn Walk, en_passant: &[(usize, EnPassant)], castling: bool) {
        for spot in spots(walk, en_passant, castling) {
            self.seen
                .entry(spot)
                .or_default()
                .insert(crate::shard::fnv1a(walk.key().as_bytes()));
        }
    }

    /// Each spot met, with the digests of its positions' keys as 16 hex
    /// digits, sorted (so that a game's record is the same every time).
    pub fn digests(&self) -> BTreeMap<Spot, Vec<String>> {
        self.seen
            .iter()
            .map(|(&spot, keys)| {
                let mut d: Vec<String> = keys.iter().map(|k| format!("{k:016x}")).collect();
                d.sort();
                (spot, d)
            })
            .collect()
    }
}

fn spots(walk: &dyn Walk, en_passant: &[(usize, EnPassant)], castling: bool) -> Vec<Spot> {
    let mut out = Vec::new();
    if let Some(r) = walk.result() {
        if r.reason == EndReason::NoLegalAction && !walk.in_check() {
            out.push(Spot::NoLegalActionNotInCheck);
        }
        if matches!(r.reason, EndReason::Repetition | EndReason::PerpetualCheck)
            && walk.perpetual_checker().is_some()
        {
            out.push(Spot::PerpetualCheck);
        }
    }
    if en_passant.iter().any(|(_, e)| e.by_reversed) {
        out.push(Spot::EnPassantByReversedPawn);
    }
    if en_passant.iter().any(|(_, e)| e.against_reversed) {
        out.push(Spot::EnPassantAgainstReversedPawn);
    }
    if facing_only_promotions(walk.actions()) {
        out.push(Spot::PromotionChoiceByFacingOnly);
    }
    if castling {
        out.extend(castling_refusals(walk));
    }
    out
}

/// Whether two promotions differ only in their facing mark.
fn facing_only_promotions(actions: &[String]) -> bool {
    let mut seen = HashSet::new();
    actions
        .iter()
        .filter(|a| a.contains(['^', 'v']) && (a.contains('+') || a.contains('=')))
        .any(|a| !seen.insert(a.replace(['^', 'v'], "")))
}

/// The castlings refused for an attack, by the reference's own reasons.
fn castling_refusals(walk: &dyn Walk) -> Vec<Spot> {
    let mut spots: Vec<Spot> = CASTLING_TEXTS
        .iter()
        .filter_map(|text| walk.refusal(text))
        .filter(|e| e.code == IllegalReason::Castling)
        .filter_map(|e| match e.message.as_str() {
            CASTLING_OUT_OF_CHECK => Some(Spot::CastlingOutOfCheck),
            CASTLING_THROUGH_CHECK => Some(Spot::CastlingThroughCheck),
            CASTLING_INTO_CHECK | CASTLING_ENDS_IN_CHECK => Some(Spot::CastlingIntoCheck),
            _ => None,
        })
        .collect();
    // Two spellings of one castling (`O-O` and `O-O-east` on the flat
    // board) give one refusal.
    spots.sort();
    spots.dedup();
    spots
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn facing_only_promotions_are_found_by_text() {
        let a = |v: &[&str]| v.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        assert!(facing_only_promotions(&a(&["a8-a9+^", "a8-a9+v"])));
        assert!(!facing_only_promotions(&a(&["a8-a9+", "a8-a9="])));
        assert!(!facing_only_promotions(&a(&["a8-a9^", "a8-a9v"])));
    }

    #[test]
    fn castling_refusals_are_named_by_their_reason() {
        let v = crate::registry::find("chess-flat").unwrap();
        // The black rook on f8 attacks White's transit cell f1.
        let walk = v.walk(Some("k4r2/8/8/8/8/8/8/4K2R w K - 0 1")).unwrap();
        assert_eq!(castling_refusals(&*walk), vec![Spot::CastlingThroughCheck]);
        let walk = v.walk(Some("k3r3/8/8/8/8/8/8/4K2R w K - 0 1")).unwrap();
        assert_eq!(castling_refusals(&*walk), vec![Spot::CastlingOutOfCheck]);
        let walk = v.walk(Some("k5r1/8/8/8/8/8/8/4K2R w K - 0 1")).unwrap();
        assert_eq!(castling_refusals(&*walk), vec![Spot::CastlingIntoCheck]);
    }
}
