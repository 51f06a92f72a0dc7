//! Display arrows of surface shogi's kings, rooks and bishops (`SS-A2` in
//! `spec/shogi/rules.md`): turned by a route that reverses vertical
//! directions, kept otherwise, the owner's drop facing when placed, gone
//! on capture, never part of the rule state. The web app's use of them is
//! tested in `tests/it/serve.rs`.

use seams::geometry::Geometry;
use seams::movement::{Facing, Pattern};
use seams::registry::find;
use seams::rules::Rules;
use seams::shogi::{Action, Kind, Position, ShogiRules, builtin_variant};
use seams::variant::VariantError;

fn texts(actions: &[&str]) -> Vec<String> {
    actions.iter().map(|s| s.to_string()).collect()
}

/// The arrows of a game given as text, sorted by cell.
fn arrows(variant: &str, start: Option<&str>, actions: &[&str]) -> Vec<(String, Facing)> {
    let v = find(variant).expect("a shipped variant");
    let mut got = v
        .display_arrows(start, &texts(actions))
        .unwrap_or_else(|e| panic!("{variant}: {e}"));
    got.sort();
    got
}

fn arrow_at(got: &[(String, Facing)], cell: &str) -> Option<Facing> {
    got.iter().find(|(c, _)| c == cell).map(|&(_, f)| f)
}

/// A rook of A on i5 and the two kings on the Möbius strip.
const MOBIUS_ROOK: &str = "4k4/9/9/9/9/9/8R/9/9/9/4K4 A - 1";

#[test]
fn a_rook_crossing_the_mobius_seam_turns_its_arrow() {
    // East from i5 crosses to a7 (rank 12 − 5); west reaches a5, crosses
    // to i7 and runs to a7: both routes cross once.
    let got = arrows("shogi-mobius", Some(MOBIUS_ROOK), &["i5-a7"]);
    assert_eq!(arrow_at(&got, "a7"), Some(Facing::Down), "{got:?}");
    assert_eq!(arrow_at(&got, "i5"), None, "{got:?}");
    // The kings stayed at home, pointing their owners' way.
    assert_eq!(arrow_at(&got, "e1"), Some(Facing::Up));
    assert_eq!(arrow_at(&got, "e11"), Some(Facing::Down));
    // The rule state does not see it: the rook is written without a mark.
    let v = find("shogi-mobius").unwrap();
    let played = v
        .play(&seams::variant::At {
            position: Some(MOBIUS_ROOK),
            moves: &texts(&["i5-a7"]),
        })
        .unwrap();
    assert_eq!(played.position, "4k4/9/9/9/R8/9/9/9/9/9/4K4 B - 2");
}

#[test]
fn a_move_crossing_no_seam_keeps_the_arrow() {
    let got = arrows("shogi-mobius", Some(MOBIUS_ROOK), &["i5-i4"]);
    assert_eq!(arrow_at(&got, "i4"), Some(Facing::Up), "{got:?}");
    // A turned arrow stays turned over a move within the chart.
    let got = arrows(
        "shogi-mobius",
        Some(MOBIUS_ROOK),
        &["i5-a7", "e11-d11", "a7-a8"],
    );
    assert_eq!(arrow_at(&got, "a8"), Some(Facing::Down), "{got:?}");
    assert_eq!(arrow_at(&got, "d11"), Some(Facing::Down), "{got:?}");
}

#[test]
fn a_king_crossing_twice_returns_to_its_arrow() {
    let start = "4k4/9/9/9/9/9/8K/9/9/9/9 A - 1";
    let got = arrows("shogi-mobius", Some(start), &["i5-a7"]);
    assert_eq!(arrow_at(&got, "a7"), Some(Facing::Down), "{got:?}");
    let got = arrows("shogi-mobius", Some(start), &["i5-a7", "e11-e10", "a7-i5"]);
    assert_eq!(arrow_at(&got, "i5"), Some(Facing::Up), "{got:?}");
}

/// The transports with which `pattern` reaches `to` from `from` on an
/// otherwise empty board.
fn reaches(geo: &Geometry, pattern: Pattern, from: &str, to: &str) -> Vec<bool> {
    let b = geo.board();
    let (from, to) = (b.parse_cell(from).unwrap(), b.parse_cell(to).unwrap());
    pattern
        .reach(geo, from, &|c| c == from)
        .into_iter()
        .filter(|l| l.cell == to)
        .map(|l| l.transport.flip_y)
        .collect()
}

#[test]
fn where_one_route_keeps_the_arrow_and_another_turns_it_the_arrow_is_kept() {
    let klein = builtin_variant("shogi-klein").unwrap();
    // A Klein rook on e9 reaches e10 straight up and round the rank loop
    // through the seam; a10 only through the seam.
    let geo = klein.geometry();
    assert_eq!(
        reaches(geo, Pattern::Orthogonal, "e9", "e10"),
        [false, true]
    );
    assert_eq!(reaches(geo, Pattern::Orthogonal, "e9", "a10"), [true]);
    let start = "9/9/9/9/9/9/9/9/9/4R4/9/9/9/9/9/9/9/9 A - 1";
    let got = arrows("shogi-klein", Some(start), &["e9-e10"]);
    assert_eq!(got, [("e10".to_string(), Facing::Up)]);
    let got = arrows("shogi-klein", Some(start), &["e9-a10"]);
    assert_eq!(got, [("a10".to_string(), Facing::Down)]);
    // The Möbius middle rank is glued to itself: i6 reaches a6 both west
    // (no crossing) and east (one crossing), so the arrow is kept.
    let mobius = builtin_variant("shogi-mobius").unwrap();
    let mut both = reaches(mobius.geometry(), Pattern::Orthogonal, "i6", "a6");
    both.sort();
    assert_eq!(both, [false, true]);
    let got = arrows(
        "shogi-mobius",
        Some("4k4/9/9/9/9/8R/9/9/9/9/4K4 A - 1"),
        &["i6-a6"],
    );
    assert_eq!(arrow_at(&got, "a6"), Some(Facing::Up), "{got:?}");
}

#[test]
fn a_bishop_and_a_promoted_rook_turn_like_a_rook() {
    // A bishop of A on i5 goes northeast over the seam to a6: north of i5
    // is i6, whose neighbour east across the seam is a6 (rank 12 − 6).
    let got = arrows(
        "shogi-mobius",
        Some("4k4/9/9/9/9/9/8B/9/9/9/4K4 A - 1"),
        &["i5-a6"],
    );
    assert_eq!(arrow_at(&got, "a6"), Some(Facing::Down), "{got:?}");
    // A promoted rook's one-cell diagonal over the seam turns it too.
    let got = arrows(
        "shogi-mobius",
        Some("4k4/9/9/9/9/9/8+R/9/9/9/4K4 A - 1"),
        &["i5-a6"],
    );
    assert_eq!(arrow_at(&got, "a6"), Some(Facing::Down), "{got:?}");
}

#[test]
fn captures_remove_arrows_and_drops_take_the_owners_facing() {
    // A's rook takes B's bishop on a7 across the seam, then drops it.
    let start = "4k4/9/9/9/b8/9/8R/9/9/9/4K4 A - 1";
    let got = arrows("shogi-mobius", Some(start), &["i5-a7"]);
    assert_eq!(
        got,
        [
            ("a7".to_string(), Facing::Down),
            ("e1".to_string(), Facing::Up),
            ("e11".to_string(), Facing::Down),
        ]
    );
    let got = arrows("shogi-mobius", Some(start), &["i5-a7", "e11-d11", "B*e5"]);
    assert_eq!(arrow_at(&got, "e5"), Some(Facing::Up), "{got:?}");
    // B's rook from hand points B's way.
    let got = arrows(
        "shogi-mobius",
        Some("4k4/9/9/9/9/9/9/9/9/9/4K4 B r 1"),
        &["R*e5"],
    );
    assert_eq!(arrow_at(&got, "e5"), Some(Facing::Down), "{got:?}");
    // A rook taken after turning leaves no arrow behind: B's gold takes
    // A's turned rook.
    let start = "4k4/9/9/9/1g7/9/8R/9/9/9/4K4 A - 1";
    let got = arrows("shogi-mobius", Some(start), &["i5-a7", "b7-a7"]);
    assert_eq!(arrow_at(&got, "a7"), None, "{got:?}");
    assert_eq!(got.len(), 2, "only the kings: {got:?}");
}

#[test]
fn the_initial_position_and_decisions() {
    let got = arrows("shogi-klein", None, &[]);
    let v = builtin_variant("shogi-klein").unwrap();
    // Every king, rook and bishop, each pointing its owner's way.
    assert_eq!(got.len(), 6, "{got:?}");
    let b = v.geometry().board();
    for (cell, f) in &got {
        let p = v.start().piece_at(b.parse_cell(cell).unwrap()).unwrap();
        assert!(has_arrow(&v, p.kind));
        assert_eq!(*f, v.drop_facing(p.owner));
    }
    // A decision moves nothing.
    assert_eq!(arrows("shogi-klein", None, &["resign"]), got);
}

#[test]
fn errors_name_the_ply_and_the_text() {
    let v = find("shogi-mobius").unwrap();
    match v.display_arrows(None, &texts(&["a3-a4", "z9-z10"])) {
        Err(VariantError::Move { ply, text, .. }) => {
            assert_eq!((ply, text.as_str()), (2, "z9-z10"));
        }
        other => panic!("{other:?}"),
    }
    assert!(matches!(
        v.display_arrows(Some("not a position"), &[]),
        Err(VariantError::Position(_))
    ));
}

#[test]
fn boards_without_reversing_seams_show_no_arrows() {
    for name in ["shogi-flat", "shogi-genus2"] {
        assert_eq!(arrows(name, None, &[]), [], "{name}");
    }
    // Families without such pieces have none either.
    for name in ["chess-mobius", "kyoto", "tetra-hexgi"] {
        if let Ok(v) = find(name) {
            assert_eq!(v.display_arrows(None, &[]).unwrap(), [], "{name}");
        }
    }
}

// ---------------------------------------------------------------------------
// Properties over random games.

/// The kings, rooks and bishops, by the names of the shipped files.
fn has_arrow(r: &ShogiRules, kind: Kind) -> bool {
    ["king", "rook", "bishop"].contains(&r.kind_name(kind))
}

/// A random game of up to `plies` actions, kings, rooks and bishops
/// preferred so that they meet the seams often; every position with it.
fn random_game(r: &ShogiRules, seed: u64, plies: usize) -> (Vec<Position>, Vec<Action>) {
    // The generator `seams fuzz` plays with, so a seed fixes the game.
    let mut rng = seams::conformance::fuzz::rng::Rng::new(seed);
    let mut positions = vec![r.start()];
    let mut actions = Vec::new();
    for _ in 0..plies {
        let p = positions.last().unwrap();
        let legal = r.legal(p);
        if legal.is_empty() {
            break;
        }
        let sliders: Vec<&Action> = legal
            .iter()
            .filter(|a| match **a {
                Action::Move { from, .. } => p.piece_at(from).is_some_and(|q| has_arrow(r, q.kind)),
                Action::Drop { .. } => false,
            })
            .collect();
        let a = if !sliders.is_empty() && rng.below(3) > 0 {
            *sliders[rng.below(sliders.len())]
        } else {
            legal[rng.below(legal.len())]
        };
        positions.push(r.apply(p, &a));
        actions.push(a);
    }
    (positions, actions)
}

mod properties {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        #![proptest_config(ProptestConfig { cases: 24, failure_persistence: None, ..ProptestConfig::default() })]

        /// Along random games on every board: exactly the kings, rooks
        /// and bishops carry arrows; on boards without reversing seams
        /// they point their owner's way; and the arrows are not part of
        /// the rule state — the position keeps those pieces at their
        /// owner's facing, so its text, key and legal actions are those
        /// of the same position read from text, whatever the arrows say.
        #[test]
        fn arrows_follow_the_pieces_and_stay_out_of_the_rules(v in 0usize..4, seed in any::<u64>()) {
            let variants = seams::shogi::builtin_variants();
            let r = &variants[v];
            let (positions, actions) = random_game(r, seed, 80);
            let fixed = !seams::rules::drawing::reverses_facing(r.geometry().board());
            for (n, p) in positions.iter().enumerate() {
                let got = r.game_arrows(&r.start(), &actions[..n]);
                let cells: Vec<_> = got.iter().map(|&(c, _)| c).collect();
                for c in r.geometry().board().cells() {
                    let piece = p.piece_at(c);
                    prop_assert_eq!(
                        cells.contains(&c),
                        piece.is_some_and(|q| has_arrow(r, q.kind)),
                        "{} ply {}", r.variant(), n
                    );
                }
                for &(c, f) in &got {
                    let q = p.piece_at(c).unwrap();
                    prop_assert_eq!(q.facing, r.drop_facing(q.owner));
                    if fixed {
                        prop_assert_eq!(f, r.drop_facing(q.owner));
                    }
                }
                let text = r.format_position(p);
                let read = r.parse_position(&text).unwrap();
                prop_assert_eq!(&read, p);
                prop_assert_eq!(r.key(&read), r.key(p));
                prop_assert_eq!(r.legal(&read), r.legal(p));
            }
        }

        /// The arrows commute with the player exchange Φ: the game played
        /// from Φ(start) with Φ of each action has, on Φ of each cell, the
        /// reversed arrow.
        #[test]
        fn arrows_commute_with_the_player_exchange(v in 0usize..4, seed in any::<u64>()) {
            let variants = seams::shogi::builtin_variants();
            let r = &variants[v];
            let (positions, actions) = random_game(r, seed, 60);
            let start = r.exchange(&r.start());
            let phi_actions: Vec<Action> = positions
                .iter()
                .zip(&actions)
                .map(|(p, a)| r.exchange_action(p, a))
                .collect();
            let mut expected: Vec<_> = r
                .game_arrows(&r.start(), &actions)
                .into_iter()
                .map(|(c, f)| (r.phi_cell(c), f.reversed()))
                .collect();
            expected.sort();
            prop_assert_eq!(r.game_arrows(&start, &phi_actions), expected);
        }
    }
}

/// Random games do turn arrows on the reversing boards, so the properties
/// above are not checked on untouched arrows alone; on the others they
/// never turn.
#[test]
fn random_games_turn_arrows_exactly_on_reversing_boards() {
    for r in seams::shogi::builtin_variants() {
        let turned: usize = (0..16)
            .map(|seed| {
                let (positions, actions) = random_game(&r, seed, 80);
                let last = positions.last().unwrap();
                r.game_arrows(&r.start(), &actions)
                    .into_iter()
                    .filter(|&(c, f)| {
                        last.piece_at(c)
                            .is_some_and(|q| f != r.drop_facing(q.owner))
                    })
                    .count()
            })
            .sum();
        let reversing = seams::rules::drawing::reverses_facing(r.geometry().board());
        assert_eq!(turned > 0, reversing, "{}: {turned} turned", r.variant());
    }
}

/// The same position reached with a turned arrow is one rule state: its
/// occurrences are counted together.
#[test]
fn a_position_repeated_with_a_turned_arrow_counts_as_a_repetition() {
    // The rook turns over the seam (i5-a7), then comes home without
    // crossing (a7-a5 down the file, a5-i5 along the rank); B's king walks
    // a triangle.
    let moves = texts(&["i5-a7", "e11-d11", "a7-a5", "d11-d10", "a5-i5", "d10-e11"]);
    let v = find("shogi-mobius").unwrap();
    let played = v
        .play(&seams::variant::At {
            position: Some(MOBIUS_ROOK),
            moves: &moves,
        })
        .unwrap();
    assert_eq!(played.position, "4k4/9/9/9/9/9/8R/9/9/9/4K4 A - 7");
    assert_eq!(played.occurrences, 2);
    let refs: Vec<&str> = moves.iter().map(String::as_str).collect();
    let before = arrows("shogi-mobius", Some(MOBIUS_ROOK), &[]);
    let after = arrows("shogi-mobius", Some(MOBIUS_ROOK), &refs);
    assert_eq!(arrow_at(&before, "i5"), Some(Facing::Up));
    assert_eq!(arrow_at(&after, "i5"), Some(Facing::Down));
}
