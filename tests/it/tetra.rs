//! Tetrahedral Shogi and Hexgi: perft tables, the corpus cases of
//! `conformance/cases/tetra/` (provenance; they run in `tests/corpus.rs`), player
//! exchange symmetry, conservation and royal safety under random legal
//! play, position-text round trips, and typed errors for bad data.

use std::collections::{BTreeMap, BTreeSet};

use proptest::prelude::*;
use seams::rules::{Player, Rules};
use seams::spec::Library;
use seams::tetra::{DataError, Kind, Position, SetupError, TetraRules, builtin_variants};

fn variants() -> &'static [TetraRules] {
    static V: std::sync::OnceLock<Vec<TetraRules>> = std::sync::OnceLock::new();
    V.get_or_init(builtin_variants)
}

fn variant(name: &str) -> &'static TetraRules {
    variants()
        .iter()
        .find(|v| v.variant() == name)
        .unwrap_or_else(|| panic!("no variant {name}"))
}

#[test]
fn both_variants_load_with_their_rules_version() {
    let names: Vec<&str> = variants().iter().map(|v| v.variant()).collect();
    assert_eq!(names, ["tetra-hexgi", "tetra-shogi"]);
    for v in variants() {
        assert_eq!(Rules::rules_version(v), "1.0");
    }
}

#[test]
fn perft_tables() {
    // Depths 1 and 2 are derived by hand in the corpus; depth 3 is this
    // engine's figure, kept as a regression value (about 0.1 s in release).
    let table: [(&str, [u64; 3]); 2] = [
        ("tetra-shogi", [104, 10_816, 1_135_758]),
        ("tetra-hexgi", [94, 8_836, 840_608]),
    ];
    for (name, counts) in table {
        let v = variant(name);
        for (i, &want) in counts.iter().enumerate() {
            assert_eq!(
                v.perft(&v.start(), i as u32 + 1),
                want,
                "{name} depth {}",
                i + 1
            );
        }
    }
}

#[test]
fn make_unmake_perft_agrees_with_apply() {
    for v in variants() {
        let start = v.start();
        let by_apply: u64 = v
            .legal_actions(&start)
            .iter()
            .map(|a| v.legal_actions(&v.apply(&start, a)).len() as u64)
            .sum();
        assert_eq!(by_apply, v.perft(&start, 2), "{}", v.variant());
    }
}

/// Every tetrahedral case rests on the source or a hand derivation (the
/// cases themselves run in `tests/corpus.rs`).
#[test]
fn tetra_cases_are_seed_or_derived() {
    use seams::conformance::{Corpus, Provenance};
    let dir = std::path::Path::new(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/conformance/cases/tetra"
    ));
    let corpus = Corpus::from_dir(dir).expect("the tetra corpus loads");
    assert!(
        corpus.cases.len() >= 90,
        "only {} cases",
        corpus.cases.len()
    );
    for (_, case) in &corpus.cases {
        assert!(
            matches!(
                case.provenance,
                Provenance::Derived { .. } | Provenance::Seed { .. }
            ),
            "{}",
            case.id
        );
    }
}

#[test]
fn arrays_are_exchange_symmetric_and_round_trip() {
    for v in variants() {
        let s = v.start();
        let mut e = v.exchange(&s);
        // Φ swaps the side to move; the array with White to move is
        // Φ(start) with the turn handed back.
        assert_ne!(e, s);
        e = v.exchange(&e);
        assert_eq!(e, s);
        let flipped = v.exchange(&s);
        let text = v.format_position(&flipped);
        let white_again = text.replace(" b ", " w ");
        assert_eq!(white_again, v.format_position(&s), "{}", v.variant());
        assert_eq!(v.parse_position(&v.format_position(&s)).as_ref(), Ok(&s));
    }
}

/// Counts per hand class over board and both hands.
fn census(v: &TetraRules, pos: &Position) -> BTreeMap<Kind, u32> {
    let mut out = BTreeMap::new();
    for (_, p) in pos.pieces() {
        *out.entry(v.data().hand_class(p.kind)).or_insert(0) += 1;
    }
    for p in [Player::First, Player::Second] {
        for &k in &v.data().kinds {
            let n = pos.in_hand(p, k) as u32;
            if n > 0 {
                *out.entry(k).or_insert(0) += n;
            }
        }
    }
    out
}

fn random_game(v: &TetraRules, picks: &[u16]) -> Vec<Position> {
    let mut pos = v.start();
    let mut seen = vec![pos.clone()];
    for &i in picks {
        let legal = v.legal_actions(&pos);
        if legal.is_empty() {
            break;
        }
        pos = v.apply(&pos, &legal[i as usize % legal.len()]);
        seen.push(pos.clone());
    }
    seen
}

/// In check exactly when some enemy piece can reach the royal cell,
/// computed from each enemy piece's destinations (not by tracing).
fn brute_in_check(v: &TetraRules, pos: &Position) -> bool {
    let me = pos.to_move();
    let royal = pos.royal(me);
    let mut dests = Vec::new();
    pos.pieces().filter(|(_, p)| p.owner != me).any(|(c, _)| {
        dests.clear();
        v.tables().destinations(pos, c, &mut dests);
        dests.contains(&royal)
    })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, ..ProptestConfig::default() })]

    #[test]
    fn random_play_keeps_the_invariants(hexgi in any::<bool>(), picks in prop::collection::vec(any::<u16>(), 0..60)) {
        let v = variant(if hexgi { "tetra-hexgi" } else { "tetra-shogi" });
        let start_census = census(v, &v.start());
        prop_assert_eq!(start_census.values().sum::<u32>(), 76);
        for pos in random_game(v, &picks) {
            // Conservation: 2 × 38 pieces, kind by kind (hand classes).
            prop_assert_eq!(&census(v, &pos), &start_census);
            // Royal pieces: one each on the board, never in hand.
            for p in [Player::First, Player::Second] {
                let royals = pos.pieces().filter(|(_, q)| q.owner == p && q.kind == v.data().royal).count();
                prop_assert_eq!(royals, 1);
                prop_assert_eq!(pos.in_hand(p, v.data().royal), 0);
            }
            // Attack tracing agrees with brute force.
            prop_assert_eq!(v.in_check(&pos), brute_in_check(v, &pos));
            // Φ: an involution commuting with move generation.
            let e = v.exchange(&pos);
            prop_assert_eq!(&v.exchange(&e), &pos);
            prop_assert_eq!(v.in_check(&e), v.in_check(&pos));
            let legal = v.legal_actions(&pos);
            // Legality: exactly the pseudo-legal actions after which no
            // enemy piece reaches the mover's royal cell, found by brute
            // force (the generator plays out only some of them).
            let mut pseudo = Vec::new();
            seams::tetra::movegen::pseudo_legal(v.tables(), v.data(), &pos, &mut pseudo);
            let brute: Vec<_> = pseudo
                .into_iter()
                .filter(|a| {
                    let next = v.apply(&pos, a);
                    let passed = v.other_to_move(&next).expect("the tetrahedron can pass the move");
                    !brute_in_check(v, &passed)
                })
                .collect();
            prop_assert_eq!(&legal, &brute);
            // The second path lists the same actions, and perft's last
            // ply, which counts without listing, counts them.
            prop_assert_eq!(v.independent_legal_actions(&pos), Some(legal.clone()));
            prop_assert_eq!(v.perft(&pos, 1), legal.len() as u64);
            let mapped: BTreeSet<_> = legal.iter().map(|a| v.exchange_action(&pos, a)).collect();
            let direct: BTreeSet<_> = v.legal_actions(&e).into_iter().collect();
            prop_assert_eq!(&mapped, &direct);
            prop_assert_eq!(v.perft(&e, 1), v.perft(&pos, 1));
            // No legal action captures a royal piece.
            for a in &legal {
                if let seams::tetra::TetraAction::Move { to, .. } = a {
                    prop_assert!(pos.piece_at(*to).is_none_or(|p| p.kind != v.data().royal));
                }
                // Notation round trip.
                let text = v.format_action(&pos, a);
                prop_assert_eq!(v.parse_action(&pos, &text), Ok(*a));
            }
            // Position text round trip.
            let text = v.format_position(&pos);
            prop_assert_eq!(v.parse_position(&text), Ok(pos.clone()));
        }
    }

    #[test]
    fn bad_text_never_panics(s in ".{0,80}") {
        for v in variants() {
            let _ = v.parse_position(&s);
            let _ = v.parse_action(&v.start(), &s);
        }
    }

    #[test]
    fn mangled_position_texts_are_refused_or_valid(cut in 0usize..120, junk in "[0-9a-zA-Z+/ .*-]{0,4}") {
        let v = variant("tetra-shogi");
        let text = v.format_position(&v.start());
        let cut = cut.min(text.len());
        let mangled = format!("{}{}{}", &text[..cut], junk, &text[cut..]);
        if let Ok(pos) = v.parse_position(&mangled) {
            prop_assert_eq!(v.parse_position(&v.format_position(&pos)), Ok(pos.clone()));
        }
    }
}

#[test]
fn setup_errors_name_the_place() {
    let v = variant("tetra-shogi");
    let field =
        |t: &str| crate::common::position_fault(&v.parse_position(t).map(|_| ()).unwrap_err());
    assert_eq!(field("K8/16/21 w -"), "placement");
    assert_eq!(field("K8/16/21/24/25/24/21/16/4k4 w"), "syntax/text");
    assert_eq!(field("K7/16/21/24/25/24/21/16/4k4 w -"), "rank 1");
    assert_eq!(field("K8/16/21/24/25/24/21/16/4k4 x -"), "syntax/side");
    assert_eq!(field("K8/16/21/24/25/24/21/16/4k4 w Q"), "hand");
    assert_eq!(field("K8/16/21/24/25/24/21/16/4k4 w K"), "hand");
    assert_eq!(field("K8/16/21/24/25/24/21/16/4kP3 w -"), "placement a9.6");
    assert_eq!(
        field("K8/16/21/24/12+G12/24/21/16/4k4 w -"),
        "placement c5.3"
    );
    assert_eq!(field("KK7/16/21/24/25/24/21/16/4k4 w -"), "placement");
    assert_eq!(
        field("K99999999999999999999999/16/21/24/25/24/21/16/4k4 w -"),
        "rank 1"
    );
    assert_eq!(
        field("K8/16/21/24/25/24/21/16/4k4 w 99999999999999999999P"),
        "hand"
    );
    // Black in check with White to move.
    assert_eq!(field("K8/16/21/24/r24/24/21/16/8k b -"), "placement");

    let s = v.setup(&v.start());
    let mut bad = s.clone();
    bad.board.push(("e1.1".into(), bad.board[0].1));
    assert!(matches!(
        v.position(&bad),
        Err(SetupError::TwoPieces { .. })
    ));
    let mut bad = s.clone();
    bad.board[0].0 = "z9.9".into();
    assert!(matches!(v.position(&bad), Err(SetupError::BadCell { .. })));
    // A kind built by hand that the variant's army lacks is refused, on
    // the board and in hand, by its place in the list.
    let mut bad = s.clone();
    bad.board[0].1.kind = Kind::at(20);
    assert_eq!(
        v.position(&bad).map(|_| ()).unwrap_err().to_string(),
        format!("{}: tetra-shogi has no kind #20", bad.board[0].0)
    );
    let mut bad = s.clone();
    bad.hands[0].insert(Kind::at(20), 1);
    assert_eq!(
        v.position(&bad).map(|_| ()).unwrap_err().to_string(),
        "White's hand: kind #20 cannot be held in hand in this variant"
    );
    let mut bad = s;
    bad.to_move = None;
    assert_eq!(v.position(&bad), Err(SetupError::NoSideToMove));
}

#[test]
fn bad_variant_data_is_refused_with_the_entry() {
    let lib = Library::builtin();
    let good = include_str!("../../spec/tetra/tetra-shogi.toml");
    assert!(TetraRules::from_toml("x", good, lib).is_ok());
    let try_ = |from: &str, to: &str| {
        assert!(good.contains(from), "{from}");
        TetraRules::from_toml("x.toml", &good.replacen(from, to, 1), lib).unwrap_err()
    };
    assert!(matches!(
        try_("board = \"tetra9\"", "board = \"flat-9x9\""),
        DataError::UnknownBoard { .. }
    ));
    assert!(matches!(
        try_("letter = \"R\"", "letter = \"B\""),
        DataError::Field { .. }
    ));
    assert!(matches!(
        try_(
            "count = 2\ncells = [\"g2.1\"",
            "count = 3\ncells = [\"g2.1\""
        ),
        DataError::Piece { .. }
    ));
    assert!(matches!(
        try_("\"g2.1\", \"g2.2\"", "\"g2.1\", \"g2.3\""),
        DataError::Cell { .. }
    ));
    assert!(matches!(
        try_("[pieces.king]", "[pieces.King]"),
        DataError::Field { .. }
    ));
    assert!(matches!(
        try_("royal = true\n", ""),
        DataError::Field { .. }
    ));
    assert!(matches!(
        try_(
            "[pieces.king]\nletter = \"K\"",
            "[pieces.king]\nletter = \"K\"\nfoo = 1"
        ),
        DataError::Parse { .. }
    ));
    assert!(matches!(
        try_("zone_ranks = 3", "zone_ranks = 0"),
        DataError::Field { .. }
    ));
    // A point on rank 9 would be immobile: the array is not a position.
    assert!(matches!(
        try_("\"a3.1\", \"a3.2\"", "\"a3.1\", \"a9.2\""),
        DataError::Field { .. }
    ));
    assert!(matches!(
        try_("promotes_to = \"chatelaine\"", "promotes_to = \"king\""),
        DataError::Piece { .. }
    ));
}

/// One run names every independent mistake of a file, in the order of its
/// sections, each kind and each starting cell on its own; `from_toml`
/// keeps the first. Without its board the cells are not checked.
#[test]
fn load_names_every_broken_entry() {
    let lib = Library::builtin();
    let good = include_str!("../../spec/tetra/tetra-shogi.toml");
    let edit = |edits: &[(&str, &str)]| {
        let mut text = good.to_string();
        for (from, to) in edits {
            assert!(text.contains(from), "{from}");
            text = text.replacen(from, to, 1);
        }
        text
    };
    let text = edit(&[
        ("zone_ranks = 3", "zone_ranks = 0"),
        ("letter = \"B\"", "letter = \"R\""),
        (
            "count = 4\ncells = [\"a1.1\"",
            "count = 5\ncells = [\"a1.1\"",
        ),
        ("\"g2.1\", \"g2.2\"", "\"g2.1\", \"g2.3\""),
        ("\"a3.1\", \"a3.2\"", "\"z3.1\", \"a3.2\""),
    ]);
    let errors = TetraRules::load("x.toml", &text, lib).expect_err("rejected");
    let shown: Vec<String> = errors.iter().map(|e| e.to_string()).collect();
    assert_eq!(
        shown,
        [
            "x.toml: zone_ranks: a zone has at least one rank",
            "x.toml: pieces.bishop.letter: 'R' is already the letter of rook",
            "x.toml: pieces.wing: count is 5 but 4 starting cells are listed",
            "x.toml: pieces.rook.cells: 'g2.3': rank 2 has levels 1–2",
            "x.toml: pieces.point.cells: 'z3.1': rank 3 has files a–g",
        ],
        "{shown:#?}"
    );
    assert!(matches!(
        &errors[..],
        [
            DataError::Field { .. },
            DataError::Field { .. },
            DataError::Piece { .. },
            DataError::Cell { .. },
            DataError::Cell { .. },
        ]
    ));
    assert_eq!(
        TetraRules::from_toml("x.toml", &text, lib).err(),
        Some(errors[0].clone())
    );
    let unknown = edit(&[
        ("board = \"tetra9\"", "board = \"flat-9x9\""),
        ("zone_ranks = 3", "zone_ranks = 0"),
        ("\"g2.1\", \"g2.2\"", "\"g2.1\", \"g2.3\""),
    ]);
    let errors = TetraRules::load("x.toml", &unknown, lib).expect_err("rejected");
    assert!(
        matches!(
            &errors[..],
            [DataError::Field { .. }, DataError::UnknownBoard { .. }]
        ),
        "{errors:#?}"
    );
}

/// The `[values]` table the practice opponent reads: each kind of mistake
/// is refused with the field it is in.
#[test]
fn bad_values_are_refused_with_the_field() {
    let lib = Library::builtin();
    let good = include_str!("../../spec/tetra/tetra-shogi.toml");
    for (from, to, field, says) in [
        (
            "king = 0",
            "king = 0\ngeneral = 0",
            "values.general",
            "not a piece",
        ),
        (
            "saltire = 300",
            "saltire = -3",
            "values.saltire",
            "negative",
        ),
        (
            "saltire = 300",
            "saltire = 1e9",
            "values.saltire",
            "not an integer",
        ),
        (
            "saltire = 300",
            "saltire = 9999999",
            "values.saltire",
            "above",
        ),
        (
            "saltire = 300",
            "saltire = \"x\"",
            "values.saltire",
            "not an integer",
        ),
        ("saltire = 300\n", "", "values.saltire", "missing"),
        (
            "point = 600",
            "gold = 600",
            "values.promoted.gold",
            "not a piece",
        ),
        ("point = 600\n", "", "values.promoted.point", "missing"),
    ] {
        let at = if field.starts_with("values.promoted") {
            good.find("\n[values.promoted]").unwrap()
        } else {
            good.find("\n[values]").unwrap()
        };
        let (head, tail) = good.split_at(at);
        let edited = format!("{head}{}", tail.replacen(from, to, 1));
        assert_ne!(edited, good, "{from}");
        match TetraRules::from_toml("x.toml", &edited, lib) {
            Err(DataError::Field {
                file,
                field: f,
                message,
            }) => {
                assert_eq!((file.as_str(), f.as_str()), ("x.toml", field), "{message}");
                assert!(message.contains(says), "{message}");
            }
            other => panic!("{to}: {:?}", other.err()),
        }
    }
    // Without the table every piece but the royal one is worth 100.
    let bare = good.split("\n# What each piece").next().unwrap();
    let v = TetraRules::from_toml("x.toml", bare, lib).expect("valid");
    assert_eq!(v.material(&v.start()), [3700, 3700]);
    let stock = builtin_variants();
    for v in &stock {
        let m = v.material(&v.start());
        assert_eq!(m[0], m[1], "{}", v.variant());
        assert!(m[0] > 3700, "{}", v.variant());
    }
}

#[test]
fn data_changes_behaviour_without_code() {
    // A one-rank zone: a point may no longer promote on rank 7.
    let lib = Library::builtin();
    let text = include_str!("../../spec/tetra/tetra-shogi.toml")
        .replace("zone_ranks = 3", "zone_ranks = 1");
    let v = TetraRules::from_toml("edited.toml", &text, lib).expect("valid edit");
    let pos = v
        .parse_position("K8/16/21/24/25/14P9/21/16/4k4 w -")
        .expect("position");
    assert!(v.parse_action(&pos, "c6.3-c7.4+").is_err());
    assert!(v.parse_action(&pos, "c6.3-c7.4").is_ok());
}

#[test]
fn long_random_games_reach_drops_promotions_and_switches() {
    use seams::tetra::{Change, TetraAction};
    for v in variants() {
        let (mut drops, mut promotions, mut switches) = (0, 0, 0);
        let mut seed: u64 = 0x5eed;
        for _game in 0..6 {
            let mut pos = v.start();
            for _ply in 0..300 {
                let legal = v.legal_actions(&pos);
                if legal.is_empty() {
                    break;
                }
                for a in &legal {
                    match a {
                        TetraAction::Drop { .. } => drops += 1,
                        TetraAction::Move {
                            change: Change::Promote,
                            ..
                        } => promotions += 1,
                        TetraAction::Move {
                            change: Change::Switch,
                            ..
                        } => switches += 1,
                        TetraAction::Move { .. } => {}
                    }
                }
                seed = seed
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                pos = v.apply(&pos, &legal[(seed >> 33) as usize % legal.len()]);
                assert_eq!(census(v, &pos).values().sum::<u32>(), 76);
                assert_eq!(v.in_check(&pos), brute_in_check(v, &pos));
            }
        }
        assert!(
            drops > 0 && promotions > 0,
            "{}: {drops} drops, {promotions} promotions",
            v.variant()
        );
        if v.variant() == "tetra-hexgi" {
            assert!(switches > 0);
        }
    }
}

#[test]
fn bishops_stand_on_the_two_even_rank_bindings() {
    let v = variant("tetra-shogi");
    let board = v.board();
    let start = v.start();
    let bindings: BTreeSet<_> = start
        .pieces()
        .filter(|(_, p)| p.owner == Player::First && v.data().kind_name(p.kind) == "bishop")
        .map(|(c, _)| {
            assert_eq!(
                board.rank(c) % 2,
                1,
                "rank {} is even-numbered",
                board.rank(c) + 1
            );
            board.binding(c)
        })
        .collect();
    assert_eq!(bindings, BTreeSet::from([(0, 1, 1), (1, 0, 1)]));
}

#[test]
fn cells_where_a_piece_could_never_move_are_computed() {
    // TS-4.4, TS-5.2: for White, points and wings are stuck on rank 9,
    // saltires on ranks 8 and 9, silvers on the rank-9 corners (only the
    // backward diagonal B could leave rank 9, and it needs b, c ≥ 1), and
    // bishops on the four corners (no diagonal leaves a corner). Every other
    // kind can move from every cell.
    for v in variants() {
        let board = v.board();
        let rank = |r: u8| -> BTreeSet<String> {
            board
                .cells()
                .filter(|&c| board.rank(c) + 1 == r)
                .map(|c| board.cell_name(c).to_string())
                .collect()
        };
        let names = |l: &[&str]| -> BTreeSet<String> { l.iter().map(|s| s.to_string()).collect() };
        for &k in &v.data().kinds {
            let stuck: BTreeSet<String> = board
                .cells()
                .filter(|&c| v.tables().is_immobile(Player::First, k, c))
                .map(|c| board.cell_name(c).to_string())
                .collect();
            let name = v.data().kind_name(k);
            let want = match name.as_str() {
                "point" | "wing" => rank(9),
                "saltire" => rank(8).union(&rank(9)).cloned().collect(),
                "silver" => names(&["a9.1", "a9.9"]),
                "bishop" => names(&["a1.1", "i1.1", "a9.1", "a9.9"]),
                _ => BTreeSet::new(),
            };
            assert_eq!(stuck, want, "{} {name}", v.variant());
        }
    }
}

/// Tetrahedral Hexgi with one kind more, written by a designer as data
/// only: the herald `H`, which slides along the four in-rank orthogonals
/// (`sR`: R, L, U, D) and steps one forward diagonal (`fF`: F), starts on
/// c4.2 (Black's on its image b6.3) and promotes to the wazirranker as the
/// points do. Its table comes last, so it is the last kind: hands write it
/// after the chief.
fn hexgi_with_a_herald() -> String {
    let good = include_str!("../../spec/tetra/tetra-hexgi.toml");
    let herald = "[pieces.herald]\n\
                  letter = \"H\"\n\
                  moves = \"sRfF\"\n\
                  count = 1\n\
                  cells = [\"c4.2\"]\n\
                  promotes_to = \"wazirranker\"\n\
                  promoted = \"vW\"\n\n";
    let edits = [
        ("# What each piece", format!("{herald}# What each piece")),
        ("[values]\n", "[values]\nherald = 500\n".into()),
        (
            "[values.promoted]\n",
            "[values.promoted]\nherald = 600\n".into(),
        ),
    ];
    let mut text = good.to_string();
    for (from, to) in edits {
        assert_eq!(text.matches(from).count(), 1, "{from}");
        text = text.replacen(from, &to, 1);
    }
    text
}

/// A new kind of piece needs no code (TS-3.3): it moves, is counted by
/// perft, is written and read by its letter, goes to hand when captured,
/// is dropped back by its letter, and is drawn by its letter.
#[test]
fn a_designer_adds_a_kind_of_piece() {
    use seams::render::{Marks, render_svg};
    use seams::variant::{At, Variant};
    let lib = Library::builtin();
    let v = TetraRules::load("hexgi-herald.toml", &hexgi_with_a_herald(), lib)
        .unwrap_or_else(|e| panic!("{e:#?}"));
    let herald = v.data().kind_of_letter('H').expect("the herald is a kind");
    assert_eq!(v.data().kind_name(herald), "herald");
    assert_eq!(v.data().kinds.last(), Some(&herald));

    // Perft 1. Hexgi's start has 94 first moves (corpus case
    // tetra/hexgi/perft-1). White's herald on c4.2 = (x, y, z) (3, 4, 3),
    // that is a, b, c, d = 2, 1, 2, 3 (file a, level b + 1, rank b + c + 1,
    // a + b + c + d = 8), takes three of them away: the points on c3.1
    // (FRU), c3.2 (FRD) and d3.2 (FLD) can no longer step onto it; the
    // fourth cell below it, d3.1 (FLU), holds a saltire, which leaps.
    // Nothing else of White reaches rank 4 or Black's herald on rank 6
    // (the rooks and the steppers of ranks 1 and 2 are walled in by
    // rank 3; saltires land on rank 5). The herald itself has nine: rank 4
    // is empty, and R (a + 1, d − 1) slides to d4.2, e4.2, f4.2 (d = 3),
    // L (a − 1) to b4.2, a4.2 (a = 2), U (b + 1, c − 1) to c4.3, c4.4
    // (c = 2), D (b − 1, c + 1) to c4.1 (b = 1): 8 slides; F (0, 0, 2)
    // lands on (3, 4, 5) = b6.3, Black's herald (Φ(3, 4, 3) = (3, 4, 5)),
    // a capture on rank 6, outside White's zone (7–9), so no promotion:
    // 1 more. No move gives or leaves a check. 94 − 3 + 9 = 100.
    assert_eq!(Rules::perft(&v, &v.start(), 1), 100);
    let mut from_herald: Vec<String> = Rules::legal_actions(&v, &v.start())
        .iter()
        .map(|a| v.format_action(&v.start(), a))
        .filter(|t| t.starts_with("c4.2-"))
        .collect();
    from_herald.sort();
    assert_eq!(
        from_herald,
        [
            "c4.2-a4.2",
            "c4.2-b4.2",
            "c4.2-b6.3",
            "c4.2-c4.1",
            "c4.2-c4.3",
            "c4.2-c4.4",
            "c4.2-d4.2",
            "c4.2-e4.2",
            "c4.2-f4.2"
        ]
    );

    // The position text writes it by its letter: c4.2 is the tenth cell of
    // rank 4 (a4.1–a4.4, b4.1–b4.4, c4.1, c4.2), b6.3 the ninth of rank 6
    // (a6.1–a6.6, b6.1–b6.3).
    let start = "WWCBGBCWW/2RR2DDSS2RR2/PPPPXPPPPXPXPPPPXPPPP/9H14/25/8h15/\
                 pppxppppxpppxppppxppp/1r1ds1r2r1ds1r1/wwcbgbcww w -";
    assert_eq!(Variant::start_position(&v), start);
    assert_eq!(v.parse_position(start), Ok(v.start()));

    // Captured into hand, written after the hand classes of the shipped
    // kinds, and dropped back by its letter. Black's point on b7.3 =
    // (3, 5, 6) steps its FLU, for Black (0, 1, −1) (TS-1.4), to
    // (3, 6, 5) = c6.2; White drops the herald on c5.3, the thirteenth
    // cell of rank 5 (a5.1–a5.5, b5.1–b5.5, c5.1–c5.3).
    let moves: Vec<String> = ["c4.2-b6.3", "b7.3-c6.2", "H*c5.3"]
        .map(String::from)
        .to_vec();
    let with_hand = Variant::play(
        &v,
        &At {
            position: None,
            moves: &moves[..1],
        },
    )
    .expect("the herald takes the herald");
    assert_eq!(
        with_hand.position,
        "WWCBGBCWW/2RR2DDSS2RR2/PPPPXPPPPXPXPPPPXPPPP/24/25/8H15/\
         pppxppppxpppxppppxppp/1r1ds1r2r1ds1r1/wwcbgbcww b H"
    );
    let after_drop = Variant::play(
        &v,
        &At {
            position: None,
            moves: &moves,
        },
    )
    .expect("the herald is dropped back");
    assert_eq!(
        after_drop.position,
        "WWCBGBCWW/2RR2DDSS2RR2/PPPPXPPPPXPXPPPPXPPPP/24/12H12/8H4p10/\
         pppxppppx1ppxppppxppp/1r1ds1r2r1ds1r1/wwcbgbcww b -"
    );
    // A hand of every class is written in the file's order, the herald
    // last; a letter no kind has is refused.
    let hands = v
        .parse_position("G8/16/21/24/25/24/21/16/8g w HCPRDWX")
        .expect("a position with a full hand");
    assert_eq!(
        v.format_position(&hands),
        "G8/16/21/24/25/24/21/16/8g w RWPXDCH"
    );
    assert!(v.parse_position("G8/16/21/24/25/24/21/16/8g w K").is_err());

    // Its `[values]` entry counts for the practice opponent.
    let stock = Rules::material(variant("tetra-hexgi"), &variant("tetra-hexgi").start());
    assert_eq!(
        Rules::material(&v, &v.start()),
        [stock[0] + 500, stock[1] + 500]
    );
    // The designer's report follows the points alone as pawns: the herald
    // promotes, but it does not only step forward.
    match Rules::design_facts(&v).map(|f| f.pawns) {
        Some(seams::rules::design_facts::PawnFacts::Paths { pawns }) => {
            assert_eq!(pawns.len(), 2 * 17)
        }
        other => panic!("{other:?}"),
    }

    // Its picture draws it by its letter, and the legend names it.
    let svg = render_svg(
        &v,
        &At {
            position: None,
            moves: &moves[..1],
        },
        &Marks::default(),
    )
    .expect("renders");
    assert!(svg.contains("font-weight=\"bold\">H</text>"), "no H drawn");
    assert!(
        svg.contains("herald"),
        "the legend does not name the herald"
    );
}

/// The army's data errors of a draft that adds kinds, every one reported
/// in one run: a letter another kind has, a movement that does not read,
/// and two royal kinds; and, in another draft, no royal kind at all.
#[test]
fn a_drafts_kind_errors_are_all_reported() {
    let lib = Library::builtin();
    let text = hexgi_with_a_herald()
        .replacen("letter = \"H\"", "letter = \"G\"", 1)
        .replacen(
            "# What each piece",
            "[pieces.regent]\nletter = \"Q\"\nroyal = true\nmoves = \"K\"\ncount = 1\n\
             cells = [\"c4.3\"]\n\n\
             [pieces.knave]\nletter = \"N\"\nmoves = \"fW$\"\ncount = 1\n\
             cells = [\"c4.4\"]\n\n# What each piece",
            1,
        );
    let errors = TetraRules::load("draft.toml", &text, lib).expect_err("refused");
    let shown: Vec<String> = errors.iter().map(|e| e.to_string()).collect();
    assert_eq!(
        shown,
        [
            "draft.toml: pieces.herald.letter: 'G' is already the letter of general",
            "draft.toml: pieces.knave.moves: at character 3 ('$'): expected m, c, n, '[', \
             a direction letter (f b s v l r u d) or an atom (W F N D A H G K R B Q)",
            "draft.toml: pieces: the army needs exactly one royal kind (royal = true), \
             found 2: general, regent",
        ],
        "{shown:#?}"
    );
    let none = hexgi_with_a_herald()
        .replacen("royal = true\n", "", 1)
        .replacen("letter = \"H\"", "letter = \"P\"", 1);
    let errors = TetraRules::load("draft.toml", &none, lib).expect_err("refused");
    let shown: Vec<String> = errors.iter().map(|e| e.to_string()).collect();
    assert_eq!(
        shown,
        [
            "draft.toml: pieces.herald.letter: 'P' is already the letter of point",
            "draft.toml: pieces: the army needs exactly one royal kind (royal = true), \
             found 0",
        ],
        "{shown:#?}"
    );
    // More kinds than letters: the list is refused whole, and a royal
    // kind past the 26th place is still only reported.
    let letters = "AEFHIJKLMNOQTUVYZ";
    let mut extra = String::new();
    for i in 1..=18 {
        let letter = letters.chars().nth(i - 1).unwrap_or('A');
        let (royal, count, cells) = if i == 18 {
            ("royal = true\n", 1, "\"c4.2\"")
        } else {
            ("", 0, "")
        };
        extra.push_str(&format!(
            "[pieces.extra-{i}]\nletter = \"{letter}\"\n{royal}moves = \"W\"\n\
             count = {count}\ncells = [{cells}]\n\n"
        ));
    }
    let crowded = include_str!("../../spec/tetra/tetra-hexgi.toml").replacen(
        "# What each piece",
        &format!("{extra}# What each piece"),
        1,
    );
    let errors = TetraRules::load("draft.toml", &crowded, lib).expect_err("refused");
    let shown: Vec<String> = errors.iter().map(|e| e.to_string()).collect();
    assert_eq!(
        shown,
        [
            "draft.toml: pieces: 27 kinds; at most 26, one per letter A–Z",
            "draft.toml: pieces.extra-18.letter: 'A' is already the letter of extra-1",
            "draft.toml: pieces: the army needs exactly one royal kind (royal = true), \
             found 2: general, extra-18",
        ],
        "{shown:#?}"
    );
}
