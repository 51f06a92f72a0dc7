//! Kyoto shogi: published perft, data validation, and the symmetries of the
//! board under random play — the left–right mirror and the player exchange
//! both commute with move generation and keep every token's face.

use proptest::prelude::*;
use seams::kyoto::{KyotoRules, builtin_variants};
use seams::rules::Rules;
use seams::spec::Library;

fn kyoto() -> KyotoRules {
    builtin_variants()
        .into_iter()
        .find(|v| v.variant() == "kyoto")
        .expect("the kyoto variant ships")
}

#[test]
fn perft_matches_the_published_figures() {
    let k = kyoto();
    let start = k.start();
    let got: Vec<u64> = (1..=4).map(|d| k.perft(&start, d)).collect();
    assert_eq!(got, vec![12, 137, 1636, 18268]);
}

#[test]
fn both_repetition_variants_ship() {
    let mut names: Vec<String> = builtin_variants()
        .iter()
        .map(|v| v.variant().to_string())
        .collect();
    names.sort();
    assert_eq!(names, vec!["kyoto", "kyoto-repetition-loss"]);
}

/// Loads an edited data file and expects an error naming `entry`.
fn check_data(edit: (&str, &str), entry: &str) {
    let text = include_str!("../../spec/kyoto/kyoto.toml").replace(edit.0, edit.1);
    let err = KyotoRules::from_toml("edited.toml", &text, Library::builtin())
        .err()
        .expect("the edited data must be rejected");
    assert_eq!(err.entry, entry, "{err}");
    assert!(err.to_string().starts_with("edited.toml: "), "{err}");
}

#[test]
fn bad_data_is_rejected_by_entry() {
    check_data(("tokin = \"lance\"", "tokin = \"silver\""), "flips.tokin");
    check_data(("tokin = \"lance\"\n", ""), "flips.tokin");
    check_data(
        ("occurrence = 3", "occurrence = 1"),
        "repetition.occurrence",
    );
    check_data(("board = \"flat-5x5\"", "board = \"flat-8x8\""), "board");
    check_data(("board = \"flat-5x5\"", "board = \"flat-7x7\""), "board");
    check_data(("\"king\", \"gold\"", "\"gold\", \"gold\""), "setup");
    // A value of the wrong kind is named by where it is in the file.
    let edited = include_str!("../../spec/kyoto/kyoto.toml")
        .replace("rule = \"draw\"", "rule = \"sometimes\"");
    let at = edited.rfind("rule = \"sometimes\"").unwrap() + "rule = ".len();
    check_data(
        ("rule = \"draw\"", "rule = \"sometimes\""),
        &format!("bytes {at}..{}", at + "\"sometimes\"".len()),
    );
}

/// One run names every independent mistake of a file, in the order of its
/// entries, each flip and each value on its own; `from_toml` keeps the
/// first. No entry reads the board, so a wrong one stops none of them.
#[test]
fn load_names_every_broken_entry() {
    let mut text = include_str!("../../spec/kyoto/kyoto.toml").to_string();
    for (from, to) in [
        ("board = \"flat-5x5\"", "board = \"flat-8x8\""),
        ("tokin = \"lance\"", "tokin = \"silver\""),
        ("pawn = \"rook\"", "pawn = \"pawn\""),
        ("occurrence = 3", "occurrence = 1"),
        ("lance = 250", "lance = -250"),
        ("king = 0", "king = 0\nqueen = 900"),
    ] {
        assert!(text.contains(from), "{from}");
        text = text.replacen(from, to, 1);
    }
    let errors = KyotoRules::load("edited.toml", &text, Library::builtin())
        .err()
        .expect("the edited data must be rejected");
    let got: Vec<(&str, &str)> = errors
        .iter()
        .map(|e| (e.entry.as_str(), e.message.as_str()))
        .collect();
    assert_eq!(
        got,
        [
            ("board", "'flat-8x8' is not a single 5×5 chart"),
            (
                "flips.tokin",
                "a tokin turns into the other face of its token"
            ),
            (
                "flips.pawn",
                "a pawn turns into the other face of its token"
            ),
            (
                "repetition.occurrence",
                "a repetition needs at least the second occurrence"
            ),
            ("values.lance", "-250 is negative"),
            (
                "values.queen",
                "'queen' is not a piece of this variant \
                 (one of: king, tokin, lance, silver, bishop, gold, knight, pawn, rook)"
            ),
        ],
        "{got:#?}"
    );
    assert_eq!(
        KyotoRules::from_toml("edited.toml", &text, Library::builtin()).err(),
        Some(errors[0].clone())
    );
}

/// The `[values]` table the practice opponent reads: each kind of mistake
/// is refused with the entry it is in.
#[test]
fn bad_values_are_rejected_by_entry() {
    check_data(("king = 0", "king = 0\nqueen = 900"), "values.queen");
    check_data(("lance = 250", "lance = -250"), "values.lance");
    check_data(("lance = 250", "lance = 250000"), "values.lance");
    check_data(("lance = 250", "lance = \"250\""), "values.lance");
    check_data(("lance = 250", "lance = { v = 250 }"), "values.lance");
    check_data(("lance = 250\n", ""), "values.lance");
    check_data(
        ("king = 0", "king = 0\n[values.promoted]\npawn = 500"),
        "values.promoted.pawn",
    );
    // Without the table, every face but the king's is worth 100; a token
    // in hand is worth its better face.
    let text = include_str!("../../spec/kyoto/kyoto.toml");
    // The movement tables come after the values; they stay.
    let pieces = &text[text.find("\n# How each face moves").unwrap()..];
    let bare = text.split("\n[values]").next().unwrap().to_string() + pieces;
    let k = KyotoRules::from_toml("edited.toml", &bare, Library::builtin()).expect("valid data");
    assert_eq!(k.material(&k.start()), [400, 400]);
    let k = kyoto();
    assert_eq!(k.material(&k.start()), [500 + 450 + 500 + 100; 2]);
    let captured = k
        .parse_position("p+nks+l/5/5/5/+LSK+N1[P] w 0 1")
        .expect("a pawn token in the first player's hand");
    assert_eq!(
        k.material(&captured),
        [500 + 450 + 500 + 800, 500 + 450 + 500 + 100]
    );
}

#[test]
fn editing_the_data_changes_the_rules() {
    // Threshold 2: the first return to the start already ends the game.
    let text =
        include_str!("../../spec/kyoto/kyoto.toml").replace("occurrence = 3", "occurrence = 2");
    let k = KyotoRules::from_toml("edited.toml", &text, Library::builtin()).expect("valid data");
    let v: &dyn seams::variant::Variant = &k;
    let moves: Vec<String> = ["c1-c2", "c5-c4", "c2-c1", "c4-c5"]
        .iter()
        .map(|s| s.to_string())
        .collect();
    let played = v
        .play(&seams::variant::At {
            position: None,
            moves: &moves,
        })
        .expect("legal moves");
    assert!(played.result.is_some());
}

/// KY-I5: a start is judged like any position reached by an action: a
/// mated start is over under both repetition rules (the loss rule, which
/// looks back at the movers, has none to look at and a single occurrence
/// never reaches it), Φ swaps the winner, and the initial position is not over.
#[test]
fn the_start_is_judged_like_any_position() {
    use seams::rules::{EndReason, Game, GameResult, Player};
    for k in builtin_variants() {
        let mated = k
            .parse_position("k4/+N4/P4/5/4K[-] b 0 1")
            .expect("a position");
        let mate = |winner| {
            Some(GameResult {
                winner: Some(winner),
                reason: EndReason::Checkmate,
            })
        };
        assert_eq!(Game::new(&k, mated.clone()).result(), mate(Player::First));
        assert_eq!(
            Game::new(&k, k.exchange(&mated)).result(),
            mate(Player::Second)
        );
        assert_eq!(Game::new(&k, k.start()).result(), None, "{}", k.variant());
    }
}

#[test]
fn bad_position_texts_name_the_field() {
    let k = kyoto();
    for (text, field) in [
        ("p+nks+l/5/5/5/+LSK+NP w 0 1", "syntax/hand"),
        ("p+nks+l/5/5/+LSK+NP[-] w 0 1", "placement"),
        ("p+nks+l/5/5/5/+LSK+NQ[-] w 0 1", "syntax/rank 1"),
        ("p+nks+l/5/5/5/+LSK+N[-] w 0 1", "rank 1"),
        ("p+nks+l/5/5/5/+LSK+NP[-] x 0 1", "syntax/side"),
        ("p+nks+l/5/5/5/+LSK+NP[Q] w 0 1", "syntax/hand"),
        ("p+nks+l/5/5/5/+LS1+NP[-] w 0 1", "placement"),
        ("p+nks+l/5/5/5/+LSK+NP[-] w zero 1", "syntax/halfmoves"),
    ] {
        let err = k.parse_position(text).expect_err(text);
        assert_eq!(crate::common::position_fault(&err), field, "{text}: {err}");
    }
}

/// A position reached by `plies` random legal actions from the start.
fn random_position(k: &KyotoRules, seed: &[u8]) -> <KyotoRules as Rules>::Position {
    let mut pos = k.start();
    for &b in seed {
        let legal = k.legal_actions(&pos);
        if legal.is_empty() {
            break;
        }
        let a = legal[b as usize % legal.len()];
        pos = k.apply(&pos, &a);
    }
    pos
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    /// Exchange and mirror commute with legal actions, keep faces and
    /// tokens, and the exchange is an involution.
    #[test]
    fn symmetries_commute_with_move_generation(seed in prop::collection::vec(any::<u8>(), 0..40)) {
        let k = kyoto();
        let pos = random_position(&k, &seed);
        prop_assert_eq!(pos.token_count(), 10);

        let phi = k.exchange(&pos);
        prop_assert_eq!(&k.exchange(&phi), &pos);
        let mut mapped: Vec<_> = k.legal_actions(&pos).iter().map(|a| k.exchange_action(&pos, a)).collect();
        let mut direct = k.legal_actions(&phi);
        mapped.sort();
        direct.sort();
        prop_assert_eq!(mapped, direct);
        prop_assert_eq!(k.in_check(&pos), k.in_check(&phi));

        let m = k.mirror(&pos);
        prop_assert_eq!(&k.mirror(&m), &pos);
        let mut mapped: Vec<_> = k.legal_actions(&pos).iter().map(|a| k.mirror_action(a)).collect();
        let mut direct = k.legal_actions(&m);
        mapped.sort();
        direct.sort();
        prop_assert_eq!(mapped, direct);

        // Faces are kept by both maps: the multiset of (owner, face) under
        // the mirror, and of face under the exchange.
        let faces = |p: &<KyotoRules as Rules>::Position| {
            let mut f: Vec<_> = p.board.iter().flatten().map(|q| (q.owner, q.face)).collect();
            f.sort();
            f
        };
        prop_assert_eq!(faces(&pos), faces(&m));
        let strip = |mut v: Vec<(seams::rules::Player, seams::kyoto::pieces::Face)>| {
            let mut f: Vec<_> = v.drain(..).map(|x| x.1).collect();
            f.sort();
            f
        };
        prop_assert_eq!(strip(faces(&pos)), strip(faces(&phi)));

        // The text round-trips.
        let text = k.format_position(&pos);
        prop_assert_eq!(k.format_position(&k.parse_position(&text).expect("own text parses")), text);
    }
}
