//! Seeded starts: made-up positions one or two actions away from a thin
//! spot that random play alone rarely reaches.
//!
//! A seeker makes candidate starts with the text edits of [`super::edit`]
//! and looks one ply ahead with the reference for the situation it wants;
//! the game then starts there and plays the actions that lead into it
//! first, so that the engine is asked about the way in and the situation
//! itself. Everything is judged by the reference, and no board or family
//! is named: a seeker finds what the rules of the variant allow.

use super::edit;
use super::rng::Rng;
use crate::variant::Variant;
use crate::walk::Walk;

/// How many candidate starts a seeker tries before the game falls back to
/// the initial position.
const CANDIDATES: usize = 150;
/// How many positions a seeker may look at ahead, over all its candidates
/// (a look costs about two move generations).
const LOOKS: usize = 600;

/// What a seeded game starts toward.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Aim {
    /// An action after which the other side has no legal action and is
    /// not in check (no-legal-action in shogi and Kyoto, stalemate in
    /// chess): its last piece captured, or its king boxed in.
    NoLegalAction,
    /// A pawn's double step, then an en-passant capture by a pawn facing
    /// against its owner.
    EnPassantByReversed,
    /// A double step of a pawn facing against its owner, then an
    /// en-passant capture of it.
    EnPassantAgainstReversed,
}

/// A start and the actions to play from it first.
pub struct Seeded {
    pub start: String,
    pub plan: Vec<String>,
}

/// Looks for a seeded start; `None` when no candidate leads there.
pub fn seek(variant: &dyn Variant, aim: Aim, rng: &mut Rng) -> Option<Seeded> {
    let start = variant.start_position();
    let mut looks = LOOKS;
    (0..CANDIDATES).find_map(|_| {
        if looks == 0 {
            return None;
        }
        let text = match aim {
            Aim::NoLegalAction => edit::sparse(&start, rng)?,
            Aim::EnPassantByReversed | Aim::EnPassantAgainstReversed => {
                edit::with_turned_pawns(&start, rng)?
            }
        };
        let walk = variant.walk(Some(&text)).ok()?;
        let plan = match aim {
            Aim::NoLegalAction => stalemating_capture(&*walk, &mut looks),
            Aim::EnPassantByReversed => reversed_en_passant(&*walk, |e| e.by_reversed, &mut looks),
            Aim::EnPassantAgainstReversed => {
                reversed_en_passant(&*walk, |e| e.against_reversed, &mut looks)
            }
        }?;
        Some(Seeded {
            start: walk.position().to_string(),
            plan,
        })
    })
}

/// An action that leaves the other side without a legal action and not in
/// check.
fn stalemating_capture(walk: &dyn Walk, looks: &mut usize) -> Option<Vec<String>> {
    (0..walk.actions().len())
        .find(|&i| {
            if *looks == 0 {
                return false;
            }
            *looks -= 1;
            let mut next = walk.peek();
            next.play(i);
            next.actions().is_empty() && !next.in_check()
        })
        .map(|i| vec![walk.actions()[i].clone()])
}

/// A pawn step after which an en-passant capture that `wanted` accepts is
/// legal, and that capture.
fn reversed_en_passant(
    walk: &dyn Walk,
    wanted: fn(&crate::walk::EnPassant) -> bool,
    looks: &mut usize,
) -> Option<Vec<String>> {
    (0..walk.actions().len())
        .filter(|&i| {
            let b = walk.board(i);
            !b.capture && b.mover.as_deref() == Some("P")
        })
        .find_map(|i| {
            if *looks == 0 {
                return None;
            }
            *looks -= 1;
            let mut next = walk.peek();
            next.play(i);
            (0..next.actions().len()).find_map(|j| {
                let e = next.en_passant(j)?;
                wanted(&e).then(|| vec![walk.actions()[i].clone(), next.actions()[j].clone()])
            })
        })
}
