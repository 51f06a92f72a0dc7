//! Analysis mode in every family: either army may be moved, and king-safety
//! filtering may be switched off while every other rule stays (the
//! informative "Analysis and editing" sections of `spec/*/rules.md`;
//! shogi's is "Analysis, editing and display").
//!
//! Positions come from seeded random play. At each one, for every variant:
//! the side to move's analysis actions with king safety are its legal
//! actions; switching king safety off only adds actions; the other army's
//! actions with king safety are the legal actions of the same position with
//! that army to move, whenever that position is one (the side to move is not
//! in check, see the `-A` notes of each family); no analysis action captures
//! a king; and every analysis action applies, the position after one
//! answering analysis questions in turn.

use std::collections::BTreeSet;

use proptest::prelude::*;
use seams::chess::ChessRules;
use seams::rules::{Player, Rules};
use seams::variant::At;

fn as_set<A: Ord + Clone>(v: &[A]) -> BTreeSet<A> {
    v.iter().cloned().collect()
}

/// Plays `seed` as random legal actions from the start.
fn reach<R: Rules>(rules: &R, seed: &[u16]) -> R::Position {
    let mut pos = rules.start();
    for &s in seed {
        let legal = rules.legal_actions(&pos);
        if legal.is_empty() {
            break;
        }
        pos = rules.apply(&pos, &legal[s as usize % legal.len()]);
    }
    pos
}

/// Whether `action`, played by the side to move of `seen`, lands on a
/// royal piece of the other side.
fn captures_royal<R: Rules>(rules: &R, seen: &R::Position, action: &R::Action) -> bool {
    let draw = rules.drawing().expect("every family is pictured");
    let mark = draw.action_mark(seen, action);
    draw.pieces(seen)
        .pieces
        .iter()
        .any(|p| p.cell == mark.to && p.owner != rules.to_move(seen) && p.royal)
}

/// Every property of the module at one position; `pick` chooses the
/// king-safety-off action played to reach a position outside scored play.
fn check_position<R: Rules>(rules: &R, pos: &R::Position, pick: u16) -> Result<(), TestCaseError> {
    let name = rules.variant().to_string();
    let me = rules.to_move(pos);
    let legal = rules.legal_actions(pos);
    let (seen, same) = rules
        .analysis_actions(pos, me, true)
        .expect("every family has analysis");
    prop_assert_eq!(rules.to_move(&seen), me);
    prop_assert_eq!(
        as_set(&same),
        as_set(&legal),
        "{}: analysis of the side to move is play",
        &name
    );
    for army in [Player::First, Player::Second] {
        let (seen, safe) = rules.analysis_actions(pos, army, true).expect("analysis");
        let (_, free) = rules.analysis_actions(pos, army, false).expect("analysis");
        prop_assert_eq!(rules.to_move(&seen), army);
        let free_set = as_set(&free);
        prop_assert!(
            safe.iter().all(|a| free_set.contains(a)),
            "{}: king safety off must only add actions",
            &name
        );
        if army != me && !rules.in_check(pos) {
            let passed = rules.other_to_move(pos).expect("every family passes");
            prop_assert_eq!(
                as_set(&safe),
                as_set(&rules.legal_actions(&passed)),
                "{}: the other army's actions are its legal ones were it to move",
                &name
            );
        }
        for a in &free {
            prop_assert!(
                !captures_royal(rules, &seen, a),
                "{}: {} captures a king",
                &name,
                rules.format_action(&seen, a)
            );
            let after = rules.apply(&seen, a);
            prop_assert_eq!(rules.to_move(&after), army.other());
        }
        // A position outside scored play (a king left attacked, the same
        // army twice): analysis still answers, and still captures no king.
        if !free.is_empty() {
            let after = rules.apply(&seen, &free[pick as usize % free.len()]);
            for next in [Player::First, Player::Second] {
                let (seen2, acts) = rules
                    .analysis_actions(&after, next, false)
                    .expect("analysis");
                for a in &acts {
                    prop_assert!(
                        !captures_royal(rules, &seen2, a),
                        "{}: king captured",
                        &name
                    );
                }
            }
        }
    }
    // The text interface answers the same for the side to move.
    let text = rules.format_position(pos);
    let at = At {
        position: Some(&text),
        moves: &[],
    };
    let listed = seams::variant::Variant::analysis_actions(rules, &at, me, true)
        .expect("the position text is read")
        .expect("analysis");
    prop_assert_eq!(
        listed,
        seams::variant::Variant::legal_actions(rules, &at).expect("legal")
    );
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]

    #[test]
    fn shogi_analysis(
        variant in 0usize..4,
        seed in prop::collection::vec(any::<u16>(), 0..40),
        pick in any::<u16>(),
    ) {
        let rules = &seams::shogi::builtin_variants()[variant];
        check_position(rules, &reach(rules, &seed), pick)?;
    }

    #[test]
    fn chess_analysis(
        variant in 0usize..4,
        seed in prop::collection::vec(any::<u16>(), 0..60),
        pick in any::<u16>(),
    ) {
        let rules = &seams::chess::builtin_variants()[variant];
        check_position(rules, &reach(rules, &seed), pick)?;
    }

    #[test]
    fn kyoto_analysis(
        variant in 0usize..2,
        seed in prop::collection::vec(any::<u16>(), 0..40),
        pick in any::<u16>(),
    ) {
        let rules = &seams::kyoto::builtin_variants()[variant];
        check_position(rules, &reach(rules, &seed), pick)?;
    }
}

proptest! {
    // The tetrahedral armies have some 200 actions a position: fewer cases.
    #![proptest_config(ProptestConfig::with_cases(24))]

    #[test]
    fn tetra_analysis(
        variant in 0usize..2,
        seed in prop::collection::vec(any::<u16>(), 0..40),
        pick in any::<u16>(),
    ) {
        let rules = &seams::tetra::builtin_variants()[variant];
        check_position(rules, &reach(rules, &seed), pick)?;
    }
}

fn flat_chess() -> ChessRules {
    seams::chess::builtin_variant("chess-flat").expect("chess-flat")
}

fn analysis_texts(
    v: &dyn seams::variant::Variant,
    position: &str,
    mover: Player,
    safety: bool,
) -> Vec<String> {
    v.analysis_actions(
        &At {
            position: Some(position),
            moves: &[],
        },
        mover,
        safety,
    )
    .expect("position")
    .expect("analysis")
}

#[test]
fn chess_castling_without_king_safety_drops_only_the_attack_tests() {
    // SC-A1. White king e1 and rook h1 with the east right; a black rook
    // on e8 checks the king, so scored play refuses O-O (SC-5.4 (a)).
    let rules = flat_chess();
    let out_of_check = "k3r3/8/8/8/8/8/8/4K2R w K - 0 1";
    let safe = analysis_texts(&rules, out_of_check, Player::First, true);
    assert!(!safe.contains(&"O-O".to_string()), "{safe:?}");
    let free = analysis_texts(&rules, out_of_check, Player::First, false);
    assert!(free.contains(&"O-O".to_string()), "{free:?}");
    // Through an attacked transit cell (f1, SC-5.4 (b)).
    let through = "k4r2/8/8/8/8/8/8/4K2R w K - 0 1";
    assert!(!analysis_texts(&rules, through, Player::First, true).contains(&"O-O".into()));
    assert!(analysis_texts(&rules, through, Player::First, false).contains(&"O-O".into()));
    // The conditions that stay: a piece between king and rook, or no right.
    let blocked = "k3r3/8/8/8/8/8/8/4KB1R w K - 0 1";
    assert!(!analysis_texts(&rules, blocked, Player::First, false).contains(&"O-O".into()));
    let no_right = "k3r3/8/8/8/8/8/8/4K2R w - - 0 1";
    assert!(!analysis_texts(&rules, no_right, Player::First, false).contains(&"O-O".into()));
}

#[test]
fn chess_en_passant_belongs_to_the_side_to_move_only() {
    // SC-A2. After White's e2-e4, Black's d4 pawn may take en passant; in
    // analysis of White's army (not to move) the trace is White's own and
    // gives nothing, and Black's analysis keeps the capture.
    let rules = flat_chess();
    let pos = "4k3/8/8/8/3pP3/8/8/4K3 b - e3 0 1";
    let black = analysis_texts(&rules, pos, Player::Second, true);
    assert!(black.contains(&"d4-e3".to_string()), "{black:?}");
    let white = analysis_texts(&rules, pos, Player::First, false);
    assert!(white.iter().all(|a| !a.starts_with("d4")), "{white:?}");
    assert!(white.contains(&"e4-e5".to_string()), "{white:?}");
}

#[test]
fn a_checked_king_is_never_captured_by_the_other_army() {
    // The side to move is in check; the checking army, moved in analysis,
    // has no action onto the king's cell (SC-A3, KY-A2, and shogi's SS-I7).
    let cases = [
        ("chess-flat", "4k3/8/8/8/8/8/8/r3K3 w - - 0 1"),
        ("shogi-flat", "4k4/9/9/9/9/9/9/9/r3K4 A - 1"),
        ("kyoto", "k4/5/5/5/+p3K[] w - - 0 1"),
    ];
    for (variant, position) in cases {
        let v = seams::registry::find(variant).expect("variant");
        for safety in [true, false] {
            let listed = analysis_texts(v, position, Player::Second, safety);
            // The rook itself moves: the texts are the positions meant.
            assert!(
                listed.contains(&"a1-d1".to_string())
                    || listed.iter().any(|a| a.starts_with("a1-d1")),
                "{variant}: {listed:?}"
            );
            // Its capture of the king on e1 would be written a1-e1 (with
            // a promotion mark in shogi).
            assert!(
                listed.iter().all(|a| !a.starts_with("a1-e1")),
                "{variant}: {listed:?}"
            );
        }
    }
}

#[test]
fn tetra_analysis_never_captures_the_royal_piece() {
    // TS-A1. Tetrahedral generation lets any piece move onto an enemy
    // cell, the royal one included, since in play the side to move never
    // attacks it. Random play finds a position where the side to move is
    // in check: there the other army's pseudo-legal actions take the royal
    // piece, and analysis must leave them out.
    for rules in seams::tetra::builtin_variants() {
        let mut state: u64 = 0x5eed;
        let mut next = || {
            state = state
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (state >> 33) as usize
        };
        let mut found = false;
        'games: for _ in 0..200 {
            let mut pos = rules.start();
            for _ in 0..120 {
                if rules.in_check(&pos) {
                    let passed = rules.other_to_move(&pos).expect("passes");
                    let takes = rules
                        .legal_actions(&passed)
                        .iter()
                        .any(|a| captures_royal(&rules, &passed, a));
                    if takes {
                        let other = rules.to_move(&pos).other();
                        for safety in [true, false] {
                            let (seen, acts) = rules
                                .analysis_actions(&pos, other, safety)
                                .expect("analysis");
                            assert!(!acts.is_empty());
                            assert!(acts.iter().all(|a| !captures_royal(&rules, &seen, a)));
                        }
                        found = true;
                        break 'games;
                    }
                }
                let legal = rules.legal_actions(&pos);
                if legal.is_empty() {
                    break;
                }
                pos = rules.apply(&pos, &legal[next() % legal.len()]);
            }
        }
        assert!(found, "{}: no checked position found", rules.variant());
    }
}
