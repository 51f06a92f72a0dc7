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
                "a tokin turns into a silver, which turns into a bishop: the two faces \
                 of a token turn into each other"
            ),
            (
                "flips.pawn",
                "a pawn turns into a pawn: a token's two faces are different faces"
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
    // The face tables come after the values; they stay.
    let pieces = &text[text.find("\n# The faces (KY-1.4)").unwrap()..];
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
        // Any letter is read (NT-I9); one of no face is refused in its field.
        ("p+nks+l/5/5/5/+LSK+NQ[-] w 0 1", "rank 1"),
        ("p+nks+l/5/5/5/+LSK+GP[-] w 0 1", "rank 1"),
        ("p+nks+l/5/5/5/+LSK+KP[-] w 0 1", "rank 1"),
        ("p+nks+l/5/5/5/+LSK+N[-] w 0 1", "rank 1"),
        ("p+nks+l/5/5/5/+LSK+NP[-] x 0 1", "syntax/side"),
        ("p+nks+l/5/5/5/+LSK+NP[Q] w 0 1", "hand"),
        ("p+nks+l/5/5/5/+LSK+NP[T] w 0 1", "hand"),
        ("p+nks+l/5/5/5/+LSK+NP[K] w 0 1", "hand"),
        ("p+nks+l/5/5/5/+LSK+NP[1] w 0 1", "syntax/hand"),
        ("p+nks+l/5/5/5/+LS1+NP[-] w 0 1", "placement"),
        ("p+nks+l/5/5/5/+LSK+NP[-] w zero 1", "syntax/halfmoves"),
    ] {
        let err = k.parse_position(text).expect_err(text);
        assert_eq!(crate::common::position_fault(&err), field, "{text}: {err}");
    }
}

/// The shipped file with a fifth token added as data (KY-1.4), as a rules
/// designer would write it: two new faces with their letters and
/// movements, the elephant (`E`, one or two diagonal steps, the second a
/// jump: `FA`) and the dragon (`D`, a rook or one diagonal step: `RF`,
/// written `+E`), paired in `[flips]`, valued, and standing on the first
/// rank where the pawn stood (so the game has two of them, KY-I6).
fn elephant_draft() -> String {
    let text = include_str!("../../spec/kyoto/kyoto.toml").to_string();
    edited(
        text,
        &[
            (
                "\"king\", \"gold\", \"pawn\"]",
                "\"king\", \"gold\", \"elephant\"]",
            ),
            (
                "rook = \"pawn\"\n",
                "rook = \"pawn\"\nelephant = \"dragon\"\ndragon = \"elephant\"\n",
            ),
            ("king = 0\n", "king = 0\nelephant = 300\ndragon = 900\n"),
        ],
    ) + "\n[pieces.elephant]\nletter = \"E\"\nmoves = \"FA\"\n\n\
         [pieces.dragon]\nletter = \"D\"\nmoves = \"RF\"\npromoted = true\n"
}

/// `text` with each edit made once; each must match exactly once.
fn edited(mut text: String, edits: &[(&str, &str)]) -> String {
    for (from, to) in edits {
        assert_eq!(text.matches(from).count(), 1, "{from}");
        text = text.replacen(from, to, 1);
    }
    text
}

#[test]
fn a_designer_adds_a_token_without_rust() {
    use seams::render::{Marks, render_svg};
    use seams::variant::At;
    let k = KyotoRules::from_toml("elephants.toml", &elephant_draft(), Library::builtin())
        .expect("the draft loads");
    // The setup writes the elephant by its letter, as it did the pawn.
    assert_eq!(
        k.format_position(&k.start()),
        "e+nks+l/5/5/5/+LSK+NE[] w - - 0 1"
    );
    // Perft 1 with a dragon (+E) on c1 and an elephant token in hand:
    // - king a1: a2, b1, b2 (the other king, on e5, attacks none): 3;
    // - dragon c1 (RF): up c2 c3 c4 c5 (c5 is empty), left b1 (a1 holds
    //   its own king), right d1 e1, diagonally b2 d2: 9;
    // - drops: 22 empty cells, the token either face up (E or D): 44.
    // No action leaves the first player's king attacked: 3 + 9 + 44 = 56.
    let pos = k
        .parse_position("4k/5/5/5/K1+E2[E] w 0 1")
        .expect("the draft's letters read");
    assert_eq!(k.perft(&pos, 1), 56);
    let legal = k.format_legal(&pos, &k.legal_actions(&pos));
    for a in ["E*c3", "D*c3", "c1-c5", "c1-d2", "a1-b2"] {
        assert!(legal.contains(&a.to_string()), "{a}: {legal:?}");
    }
    let play = |pos: &_, a: &str| {
        let action = k.parse_action(pos, a).expect(a);
        k.format_position(&k.apply(pos, &action))
    };
    // Dropped either face up by its face letters; a drop does not turn it.
    assert_eq!(play(&pos, "E*c3"), "4k/5/2E2/5/K1+E2[] b - - 0 1");
    assert_eq!(play(&pos, "D*c3"), "4k/5/2+E2/5/K1+E2[] b - - 0 1");
    // It turns over after moving: the dragon shows its elephant face...
    assert_eq!(play(&pos, "c1-c5"), "2E1k/5/5/5/K4[E] b - - 1 1");
    // ...and an elephant its dragon face. The elephant on c1 has b2 and d2
    // (F) and a3 and e3 (A; the cells beyond the first rank do not exist),
    // the king a1 a2, b1 and b2: 4 + 3.
    let elephant = k.parse_position("4k/5/5/5/K1E2[-] w 0 1").unwrap();
    assert_eq!(k.perft(&elephant, 1), 4 + 3);
    assert_eq!(play(&elephant, "c1-e3"), "4k/5/4+E/5/K4[] b - - 1 1");
    // A captured one goes to hand as a token, written by its base letter.
    let capture = k.parse_position("4k/5/5/1+e3/K4[-] w 0 1").unwrap();
    assert_eq!(play(&capture, "a1-b2"), "4k/5/5/1K3/5[E] b - - 0 1");
    // Its picture draws it by its letters, and the legend names its faces.
    let at = At {
        position: Some("4k/5/5/5/K1+E2[E] w 0 1"),
        moves: &[],
    };
    let svg = render_svg(&k, &at, &Marks::default()).expect("pictured");
    assert!(svg.contains(r#"data-piece="D""#), "the dragon on c1");
    assert!(svg.contains(">D</text>") && svg.contains(">E</text>"));
    let legend = seams::variant::Variant::diagram(&k, &at).unwrap().legend;
    for face in [("E", "elephant"), ("D", "dragon")] {
        assert!(
            legend.contains(&(face.0.into(), face.1.into())),
            "{legend:?}"
        );
    }
    // The shipped variant has no such face: E*c3 is read and refused as
    // no token in hand (NT-I9), and so is the king's letter.
    let shipped = kyoto();
    let start = shipped
        .parse_position("p+nks+l/5/5/5/+LSK+N1[P] w 0 1")
        .unwrap();
    for drop in ["E*c3", "K*c3"] {
        let e = shipped.parse_action(&start, drop).expect_err(drop);
        assert_eq!(
            e.code,
            seams::rules::IllegalReason::NoPiece,
            "{drop}: {e:?}"
        );
    }
}

/// Loads `text` and returns every error as (entry, message).
fn errors_of(text: &str) -> Vec<(String, String)> {
    KyotoRules::load("edited.toml", text, Library::builtin())
        .err()
        .expect("the edited data must be rejected")
        .into_iter()
        .map(|e| (e.entry, e.message))
        .collect()
}

/// KY-1.4: every face and token mistake of a draft in one run, each named
/// by its field. The tokens' `+` faces are checked once the flips pair the
/// faces, so the flips' own mistakes are the next test's run.
#[test]
fn face_and_token_mistakes_are_named_in_one_run() {
    let text = edited(
        elephant_draft(),
        &[
            ("\"gold\", \"elephant\"]", "\"gold\", \"elefant\"]"),
            ("letter = \"E\"", "letter = \"S\""),
            (
                "moves = \"K\"\nroyal = true",
                "moves = \"K\"\nroyal = true\npromoted = true",
            ),
            ("moves = \"FA\"", "moves = \"FA\"\npromoted = true"),
            ("moves = \"R\"\npromoted = true", "moves = \"R\""),
            ("moves = \"ffN\"", "moves = \"ffQ\""),
            ("dragon = 900\n", ""),
        ],
    );
    let got = errors_of(&text);
    // The movement's message is the movement language's own (MV-1).
    let shown: Vec<(&str, &str)> = got
        .iter()
        .map(|(e, m)| (e.as_str(), if e.ends_with(".moves") { "…" } else { m }))
        .collect();
    assert_eq!(
        shown,
        [
            (
                "setup",
                "unknown face 'elefant' (known: king, tokin, lance, silver, bishop, gold, \
                 knight, pawn, rook, elephant, dragon; did you mean 'elephant'?)",
            ),
            (
                "pieces.elephant.letter",
                "'S' is already the letter of silver"
            ),
            (
                "pieces.king.promoted",
                "the royal face never turns over: it is written by its own letter, never \
                 with '+'",
            ),
            ("pieces.knight.moves", "…"),
            (
                "pieces.pawn",
                "neither pawn nor rook has promoted = true: one face of each token is \
                 written '+' and the letter of its other, plain face",
            ),
            (
                "pieces.dragon.promoted",
                "elephant and dragon are both written with '+' (promoted = true): one face \
                 of a token is its plain face, whose letter writes the other after '+'",
            ),
            (
                "values.dragon",
                "missing: list every kind, or leave the [values] table out",
            ),
        ],
        "{got:#?}"
    );
}

/// KY-3.1, KY-1.4: every flip mistake in one run, each blamed once: a face
/// naming one that is itself blamed is not blamed again (`lance = "tokin"`
/// stands; `knight = "gold"` too).
#[test]
fn flip_mistakes_are_named_in_one_run() {
    let text = edited(
        elephant_draft(),
        &[
            ("[flips]\n", "[flips]\nking = \"king\"\n"),
            ("tokin = \"lance\"", "tokin = \"king\""),
            ("gold = \"knight\"", "gold = \"lance\""),
            ("elephant = \"dragon\"", "elephant = \"dragoon\""),
            (
                "dragon = \"elephant\"\n",
                "dragon = \"elephant\"\nqueen = \"king\"\n",
            ),
        ],
    );
    let got = errors_of(&text);
    let got: Vec<(&str, &str)> = got.iter().map(|(e, m)| (e.as_str(), m.as_str())).collect();
    assert_eq!(
        got,
        [
            ("flips.king", "the king never flips"),
            (
                "flips.tokin",
                "a tokin cannot turn into the king, which never flips"
            ),
            (
                "flips.gold",
                "a gold turns into a lance, which turns into a tokin: the two faces of a \
                 token turn into each other",
            ),
            (
                "flips.elephant",
                "unknown face 'dragoon' (known: king, tokin, lance, silver, bishop, gold, \
                 knight, pawn, rook, elephant, dragon; did you mean 'dragon'?)",
            ),
            (
                "flips.queen",
                "unknown face 'queen' (known: king, tokin, lance, silver, bishop, gold, \
                 knight, pawn, rook, elephant, dragon)",
            ),
        ],
        "{got:#?}"
    );
    // Without exactly one royal face the faces say so, once: the flips,
    // the setup and the values, which read the royal face, add nothing.
    for (from, to, found) in [
        ("moves = \"K\"\nroyal = true", "moves = \"K\"", "found 0"),
        (
            "moves = \"FA\"",
            "moves = \"FA\"\nroyal = true",
            "found 2: king, elephant",
        ),
    ] {
        assert_eq!(
            errors_of(&edited(elephant_draft(), &[(from, to)])),
            [(
                "pieces".to_string(),
                format!("exactly one face is royal (royal = true), {found}")
            )]
        );
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
