//! The practice opponent (`seams::opponent`): games of every variant
//! against itself with every action checked by the reference, mates in one
//! on hand-made positions of every family (on surfaces, through a seam),
//! hanging pieces saved, determinism, the stop flag and budgets, and
//! refused settings. Strength is measured, not tested: see
//! `examples/opponent_strength.rs`.

#[path = "../common/opponent_probe.rs"]
mod probe;

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use seams::opponent::{Budget, MATE, MAX_LEVEL, OpponentError, Settings, choose};
use seams::registry;
use seams::registry::find;
use seams::rules::{EndReason, Player, Rules};
use seams::variant::{At, VariantError};

fn nodes(level: u8, n: u64, seed: u64) -> Settings {
    Settings::new(level, Budget::Nodes(n), seed).expect("a level up to MAX_LEVEL")
}

// ---------------------------------------------------------------------------
// Games against itself: every action legal, every game ending.

/// Plays every variant of a family, the strongest level against level 2,
/// from the initial position for up to 200 plies, with a small node budget.
/// `play_game` checks every action against the reference's legal actions;
/// here the game must have stopped at a result or at the ply limit, and an
/// ending by lack of legal action must really leave none.
fn check_self_play<R: Rules>(variants: &[R]) {
    for (i, rules) in variants.iter().enumerate() {
        let seed = i as u64;
        let played = probe::play_game(
            rules,
            &[nodes(MAX_LEVEL, 150, seed), nodes(2, 150, seed)],
            200,
        );
        match played.result {
            None => assert_eq!(played.plies, 200, "{}", rules.variant()),
            Some(r) => {
                assert!(played.plies <= 200, "{}", rules.variant());
                if matches!(
                    r.reason,
                    EndReason::Checkmate | EndReason::NoLegalAction | EndReason::Stalemate
                ) {
                    assert!(
                        rules.legal_actions(&played.last).is_empty(),
                        "{}: {r:?} with legal actions left",
                        rules.variant()
                    );
                }
            }
        }
    }
}

#[test]
fn surface_shogi_plays_itself() {
    check_self_play(&seams::shogi::builtin_variants());
}

#[test]
fn surface_chess_plays_itself() {
    check_self_play(&seams::chess::builtin_variants());
}

#[test]
fn tetrahedral_variants_play_themselves() {
    check_self_play(&seams::tetra::builtin_variants());
}

#[test]
fn kyoto_plays_itself() {
    check_self_play(&seams::kyoto::builtin_variants());
}

/// The self-play tests above cover the shipped variants, all of them.
#[test]
fn every_registered_variant_is_played() {
    fn names<R: Rules>(variants: Vec<R>) -> Vec<String> {
        variants.iter().map(|v| v.variant().to_string()).collect()
    }
    let mut played = names(seams::shogi::builtin_variants());
    played.extend(names(seams::chess::builtin_variants()));
    played.extend(names(seams::tetra::builtin_variants()));
    played.extend(names(seams::kyoto::builtin_variants()));
    let mut registered: Vec<String> = registry::variants()
        .iter()
        .map(|v| v.name().to_string())
        .collect();
    played.sort();
    registered.sort();
    assert_eq!(played, registered);
    assert_eq!(played.len(), 12);
}

/// Through the text interface, from every variant's start: the choice is
/// a canonical action text the reference accepts.
#[test]
fn text_choices_are_legal_in_every_variant() {
    let stop = AtomicBool::new(false);
    for v in registry::variants() {
        let at = At::default();
        let choice = v
            .opponent_choice(&at, &nodes(MAX_LEVEL, 200, 5), &stop)
            .expect("the start is reached")
            .expect("the start has an action");
        let checked = v
            .check_action(&at, &choice.action)
            .expect("the start is reached");
        assert_eq!(checked, Ok(choice.action.clone()), "{}", v.name());
        assert!(v.legal_actions(&at).unwrap().contains(&choice.action));
    }
}

// ---------------------------------------------------------------------------
// Mates in one, hand-made: every level from 1 up must find one.

/// In `position` of `variant` the player to move has a mate in one
/// (verified with `seams play`). Every level from 1 to MAX_LEVEL must
/// choose an action that ends the game in the mover's favour at once, and
/// a searching level must score it as a mate one ply away.
fn check_mate_in_one(variant: &str, position: &str) {
    let v = find(variant).expect("a shipped variant");
    let stop = AtomicBool::new(false);
    let at = At {
        position: Some(position),
        moves: &[],
    };
    let mover = v.play(&at).expect("a valid position").to_move;
    for level in 1..=MAX_LEVEL {
        let choice = v
            .opponent_choice(&at, &nodes(level, 20_000, 11), &stop)
            .expect("a valid position")
            .expect("the mover has actions");
        let moves = [choice.action.clone()];
        let after = v
            .play(&At {
                position: Some(position),
                moves: &moves,
            })
            .expect("the choice is legal");
        let result = after.result.unwrap_or_else(|| {
            panic!(
                "{variant} level {level}: {} does not end the game",
                choice.action
            )
        });
        assert_eq!(
            result.winner,
            Some(mover),
            "{variant} level {level}: {result:?}"
        );
        if level >= 2 {
            assert_eq!(choice.score, MATE - 1, "{variant} level {level}");
        }
    }
}

#[test]
fn chess_flat_back_rank_mate() {
    // Black's king on g8 is walled in by its own pawns on f7, g7 and h7;
    // Ra1-a8 checks along rank 8, nothing can capture or interpose, and
    // f8 and h8 are on the rook's rank.
    check_mate_in_one("chess-flat", "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1");
}

#[test]
fn chess_mobius_mate_through_the_seam() {
    // On the Möbius strip rank 1 runs on, across the seam, into rank 9
    // (a1 west of j9, j1 east of a9): the rook on d1 sees Black's king on
    // c9 both ways, screened by White's own knight (a1) and king (e1).
    // Moving either (the knight from a1, say a1-b3) opens a line that
    // checks along rank 9; b9 and d9 lie on that line, Black's pawns fill
    // b8, c8 and d8, and nothing can reach the line to block it.
    check_mate_in_one(
        "chess-mobius",
        "2k7/1ppp6/10/10/10/10/10/10/N2RK5 w - - 0 1",
    );
}

#[test]
fn chess_klein_queen_mate() {
    // Black's king on e10 has its own pawns on d9, e9 and f9; the queen
    // lands on rank 10 or on e11 (b11-e11), checking, with White's king
    // on e12 guarding d11, e11 and f11. On the Klein bottle there is no
    // edge to hide behind, but the seams are far from these cells.
    check_mate_in_one(
        "chess-klein",
        "9/9/9/9/9/9/4K4/1Q7/4k4/3ppp3/9/9/9/9/9/9/9/9 w - - 0 1",
    );
}

#[test]
fn shogi_flat_gold_drop_mate() {
    // B's king on e9 at the edge; G*e8 checks, the gold covers d9, f9,
    // d8 and f8, and A's pawn on e7 guards the gold against the king.
    check_mate_in_one("shogi-flat", "4k4/9/4P4/9/9/9/9/9/4K4 A G 1");
}

#[test]
fn shogi_mobius_rook_drop_mate_through_the_seam() {
    // B's king on a11 has its own gold on b11 and pawns on a10 and b10.
    // Across the seam its other neighbours are i1 and i2 (rank r meets
    // rank 12 - r). A rook dropped on rank 1 (R*h1, say) checks it through
    // the seam from i1's side and guards i1; A's gold on i3 guards i2. The
    // rook cannot be reached, so every such drop mates.
    check_mate_in_one("shogi-mobius", "kg7/pp7/9/9/9/9/4K4/9/8G/9/9 A R 1");
}

#[test]
fn kyoto_gold_drop_mate() {
    // The second player's king in the corner a5; G*a4 (the gold/knight
    // token dropped gold up) checks it, covers b4 and b5, and the first
    // player's pawn on a3 guards a4. (G*c4 also wins: it leaves the king
    // no legal action without check, which loses in Kyoto.)
    check_mate_in_one("kyoto", "k4/5/P4/5/4K[N] w - - 0 1");
}

#[test]
fn tetra_shogi_gold_drop_mate() {
    // Black's king on a9.1, an end of the top rank, has three neighbours:
    // a8.1, a9.2 and b8.1. A gold dropped on any of them checks and guards
    // the other two; only G*a8.1 is guarded, by White's point on a7.1,
    // which steps forward onto a8.1. It is the only mate.
    check_mate_in_one("tetra-shogi", "K8/16/21/24/25/24/P20/16/k8 w G");
}

/// A mate in two is found by a deep enough level and scored as three
/// plies away, below a mate in one.
#[test]
fn mate_in_two_scores_three_plies() {
    // 1. Rd8+ Rxd8 2. Rxd8#: Black's rook on c8 is the only guard of the
    // back rank, and the doubled rooks outnumber it.
    let v = seams::chess::builtin_variant("chess-flat").unwrap();
    let pos = v
        .parse_position("2r4k/6pp/8/8/8/8/3R4/3R2K1 w - - 0 1")
        .unwrap();
    assert!(probe::mates_in_one(&v, &pos).is_empty());
    let stop = AtomicBool::new(false);
    for level in 3..=MAX_LEVEL {
        let choice = choose(&v, &pos, &nodes(level, 50_000, 0), &stop).unwrap();
        let text = v.format_action(&pos, &choice.action);
        assert_eq!(text, "d2-d8");
        assert_eq!(choice.score, MATE - 3, "level {level}");
    }
}

// ---------------------------------------------------------------------------
// The game so far: returning to an earlier position.

/// White, a piece up, can check with the bishop from e6 to f7 and back
/// while Black's king steps between e8 and d7 (a loop a game against
/// level 0 once drew by fivefold repetition). Seeing the position alone,
/// the opponent checks again; knowing the game, in which that check has
/// already led to the same position, it plays something else.
#[test]
fn a_side_ahead_does_not_return_to_an_earlier_position() {
    let v = find("chess-flat").unwrap();
    let stop = AtomicBool::new(false);
    let settings = nodes(MAX_LEVEL, 2000, 0);
    let start = "rn1qkbnr/2p1p1pp/p2pB3/1p1Q4/8/4P2N/PPPP1PPP/RNB1K2R w KQ - 18 15";
    let alone = At {
        position: Some(start),
        moves: &[],
    };
    let first = v
        .opponent_choice(&alone, &settings, &stop)
        .unwrap()
        .unwrap();
    assert_eq!(
        first.action, "e6-f7",
        "the premise: the check is the choice"
    );
    let circle: Vec<String> = ["e6-f7", "e8-d7", "f7-e6", "d7-e8"]
        .iter()
        .map(|m| m.to_string())
        .collect();
    let again = At {
        position: Some(start),
        moves: &circle,
    };
    let choice = v
        .opponent_choice(&again, &settings, &stop)
        .unwrap()
        .unwrap();
    assert_ne!(choice.action, "e6-f7");
    assert!(choice.score > 0, "{choice:?}");
}

// ---------------------------------------------------------------------------
// Hanging pieces: a searching level keeps its pieces.

/// In `position`, a piece of the player to move is attacked and
/// undefended (the opponent, were it to move, would have a capture winning
/// material), some actions save it and others do not. Every searching
/// level must choose one after which the opponent has no capture that
/// wins material.
fn check_saves_hanging_piece<R: Rules>(rules: &R, position: &str) {
    let pos = rules.parse_position(position).expect("a valid position");
    assert!(probe::hangs(rules, &pos), "{position}: nothing hangs");
    let safe = probe::safe_actions(rules, &pos);
    assert!(!safe.is_empty(), "{position}: no safe action");
    assert!(
        safe.len() < rules.legal_actions(&pos).len(),
        "{position}: every action is safe"
    );
    let stop = AtomicBool::new(false);
    for level in 2..=MAX_LEVEL {
        let choice = choose(rules, &pos, &nodes(level, 3000, 2), &stop).unwrap();
        let after = rules.apply(&pos, &choice.action);
        if let Some(capture) = probe::winning_capture(rules, &after) {
            panic!(
                "{} level {level}: after {} the opponent wins material by {}",
                rules.variant(),
                rules.format_action(&pos, &choice.action),
                rules.format_action(&after, &capture)
            );
        }
    }
}

#[test]
fn chess_keeps_a_knight_the_rook_attacks() {
    // Black's rook on d8 attacks White's undefended knight on d4; any
    // knight move off the d-file and away from rank 8 saves it.
    let v = seams::chess::builtin_variant("chess-flat").unwrap();
    check_saves_hanging_piece(&v, "k2r4/8/8/8/3N4/7K/8/8 w - - 0 1");
}

/// Positions from seeded random games where a search of two plies and
/// quiescence, left to itself, gives up a piece for what it sees past its
/// horizon although an action that loses nothing exists: the guard after
/// the search must keep the piece.
#[test]
fn the_guard_keeps_pieces_the_search_alone_gives_up() {
    let shogi = seams::shogi::builtin_variant("shogi-klein").unwrap();
    check_saves_hanging_piece(
        &shogi,
        "9/9/3gk4/l5sn1/p1s3r1l/1ppgpp1pp/3p2p2/9/3b5/9/8n^/1P7/P1PPPPPP1/1B1S1S2P/LN1RG2NL/3K2G2/9/9 A - 31",
    );
    let chess = seams::chess::builtin_variant("chess-genus2").unwrap();
    check_saves_hanging_piece(
        &chess,
        "9/9/7k1/7p1/7P1/1P3p1P1/5P3/4r4/3K5|5n3/7p1/1p-1p5/1p1p5/1P7/8Q/9/9/9 b - - 4 90",
    );
    // Every Kyoto action turns the token to its other face, and here each
    // one lowers the mover's material: safe is measured from just after
    // the action, or no action would count as safe.
    let kyoto = seams::kyoto::builtin_variants()
        .into_iter()
        .find(|v| v.variant() == "kyoto")
        .unwrap();
    check_saves_hanging_piece(&kyoto, "2sNP/1k2s/ln3/4K/p4[L] w - - 1 43");
    // Here the exchange that wins the piece is longer than four captures.
    check_saves_hanging_piece(
        &chess,
        "9/9/2b6/7p1/7P1/1P3p1P1/5P3/3K5/9|5n2n/7p1/1p-1p5/1p1p5/1P4k2/7r1/8Q/9/9 b - - 7 79",
    );
}

#[test]
fn shogi_keeps_a_silver_the_rook_attacks() {
    // B's rook on e8 attacks A's undefended silver on e5; stepping to d4,
    // d6, f4 or f6 leaves the e-file (e6 stays on it).
    let v = seams::shogi::builtin_variant("shogi-flat").unwrap();
    check_saves_hanging_piece(&v, "4k4/4r4/9/9/4S4/9/9/9/K8 A - 1");
}

#[test]
fn kyoto_keeps_a_silver_the_rook_attacks() {
    // The second player's rook face on c5 attacks the first player's
    // silver on c3; b2, b4 and d2 are safe (d4 is next to the king on e5,
    // c4 stays on the file), and the silver turns into a bishop on moving.
    let v = seams::kyoto::builtin_variants()
        .into_iter()
        .find(|v| v.variant() == "kyoto")
        .unwrap();
    check_saves_hanging_piece(&v, "2+p1k/5/2S2/5/K4[] w - - 0 1");
}

#[test]
fn tetra_keeps_a_silver_the_rook_attacks() {
    // Black's rook on c5.3 slides through d5.3 onto White's silver on
    // e5.3; each of the silver's five moves leaves the rook's lines.
    let v = seams::tetra::builtin_variants()
        .into_iter()
        .find(|v| v.variant() == "tetra-shogi")
        .unwrap();
    check_saves_hanging_piece(&v, "K8/16/21/24/12r9S2/24/21/16/k8 w -");
}

// ---------------------------------------------------------------------------
// Determinism, seeds, budgets and the stop flag.

/// Positions to ask in: each variant's start and the position after 20
/// random plies.
fn sample_positions<R: Rules>(rules: &R) -> Vec<R::Position> {
    let stop = AtomicBool::new(false);
    let mut pos = rules.start();
    let mut out = vec![pos.clone()];
    for _ in 0..20 {
        let Some(c) = choose(rules, &pos, &nodes(0, 1, 9), &stop) else {
            break;
        };
        pos = rules.apply(&pos, &c.action);
    }
    out.push(pos);
    out
}

/// The same position and settings with a node budget give the same choice,
/// to the node.
fn check_deterministic<R: Rules>(variants: &[R]) {
    let stop = AtomicBool::new(false);
    for rules in variants {
        for pos in sample_positions(rules) {
            for level in 0..=MAX_LEVEL {
                let s = nodes(level, 400, 17);
                let a = choose(rules, &pos, &s, &stop);
                let b = choose(rules, &pos, &s, &stop);
                assert_eq!(a, b, "{} level {level}", rules.variant());
            }
        }
    }
}

#[test]
fn a_node_budget_is_deterministic() {
    check_deterministic(&seams::shogi::builtin_variants());
    check_deterministic(&seams::chess::builtin_variants());
    check_deterministic(&seams::tetra::builtin_variants());
    check_deterministic(&seams::kyoto::builtin_variants());
}

#[test]
fn level_zero_is_seeded_and_uniform() {
    let v = seams::chess::builtin_variant("chess-flat").unwrap();
    let stop = AtomicBool::new(false);
    let start = v.start();
    // Over many seeds, each of the 20 first moves comes up about equally.
    let mut counts = std::collections::BTreeMap::new();
    for seed in 0..2000 {
        let c = choose(&v, &start, &nodes(0, 1, seed), &stop).unwrap();
        *counts.entry(c.action).or_insert(0) += 1;
    }
    assert_eq!(counts.len(), 20);
    assert!(
        counts.values().all(|&n| (50..=150).contains(&n)),
        "{counts:?}"
    );
    // Two seeds choose differently somewhere along a game; one seed
    // always chooses alike.
    let mut pos = start;
    let mut differs = false;
    for _ in 0..20 {
        let one = choose(&v, &pos, &nodes(0, 1, 1), &stop).unwrap();
        let two = choose(&v, &pos, &nodes(0, 1, 2), &stop).unwrap();
        assert_eq!(one, choose(&v, &pos, &nodes(0, 1, 1), &stop).unwrap());
        differs |= one.action != two.action;
        pos = v.apply(&pos, &one.action);
    }
    assert!(differs);
}

#[test]
fn a_stop_set_before_the_search_returns_at_once_with_a_legal_action() {
    let stop = AtomicBool::new(true);
    for v in seams::tetra::builtin_variants() {
        let pos = v.start();
        let t = Instant::now();
        let settings = Settings::new(MAX_LEVEL, Budget::Time(Duration::from_secs(60)), 0).unwrap();
        let choice = choose(&v, &pos, &settings, &stop).unwrap();
        assert!(t.elapsed() < Duration::from_secs(5), "{:?}", t.elapsed());
        assert!(Rules::legal_actions(&v, &pos).contains(&choice.action));
        assert_eq!(choice.depth, 0);
    }
}

#[test]
fn a_stop_from_another_thread_ends_the_search() {
    let v = seams::shogi::builtin_variant("shogi-genus2").unwrap();
    let pos = v.start();
    let stop = AtomicBool::new(false);
    let settings = Settings::new(MAX_LEVEL, Budget::Time(Duration::from_secs(600)), 0).unwrap();
    let t = Instant::now();
    let choice = std::thread::scope(|s| {
        s.spawn(|| {
            std::thread::sleep(Duration::from_millis(300));
            stop.store(true, Ordering::Relaxed);
        });
        choose(&v, &pos, &settings, &stop).unwrap()
    });
    assert!(t.elapsed() < Duration::from_secs(30), "{:?}", t.elapsed());
    assert!(Rules::legal_actions(&v, &pos).contains(&choice.action));
}

#[test]
fn a_time_budget_ends_the_search_with_a_finished_iteration() {
    let v = seams::chess::builtin_variant("chess-mobius").unwrap();
    let pos = v.start();
    let stop = AtomicBool::new(false);
    let settings = Settings::new(MAX_LEVEL, Budget::Time(Duration::from_millis(300)), 0).unwrap();
    let t = Instant::now();
    let choice = choose(&v, &pos, &settings, &stop).unwrap();
    assert!(t.elapsed() < Duration::from_secs(10), "{:?}", t.elapsed());
    assert!(choice.depth >= 1, "{choice:?}");
    assert!(Rules::legal_actions(&v, &pos).contains(&choice.action));
}

// ---------------------------------------------------------------------------
// Settings and positions that cannot be used.

#[test]
fn a_level_above_the_strongest_is_refused() {
    let err = Settings::new(MAX_LEVEL + 1, Budget::Nodes(10), 0).unwrap_err();
    assert_eq!(
        err,
        OpponentError::Level {
            level: MAX_LEVEL + 1
        }
    );
    assert!(
        err.to_string().contains(&(MAX_LEVEL + 1).to_string()),
        "{err}"
    );
    assert!(Settings::new(MAX_LEVEL, Budget::Nodes(10), 0).is_ok());
    assert_eq!(Settings::default().level, MAX_LEVEL);
}

#[test]
fn no_legal_action_means_no_choice() {
    let v = find("chess-flat").unwrap();
    let stop = AtomicBool::new(false);
    // Black is checkmated on the back rank.
    let at = At {
        position: Some("R5k1/5ppp/8/8/8/8/8/6K1 b - - 1 1"),
        moves: &[],
    };
    assert_eq!(
        v.opponent_choice(&at, &Settings::default(), &stop),
        Ok(None)
    );
    let bad = At {
        position: Some("R5k1/5ppp/8 b - - 1 1"),
        moves: &[],
    };
    assert!(matches!(
        v.opponent_choice(&bad, &Settings::default(), &stop),
        Err(VariantError::Position(_))
    ));
    // The same through the generic interface, for each side.
    let rules = seams::chess::builtin_variant("chess-flat").unwrap();
    let pos = rules.parse_position(at.position.unwrap()).unwrap();
    assert_eq!(rules.to_move(&pos), Player::Second);
    assert!(choose(&rules, &pos, &nodes(0, 1, 0), &stop).is_none());
}
