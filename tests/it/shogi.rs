//! Surface shogi: published perft for the flat control, geometric facts the
//! attack search relies on, and property tests on all surfaces. The corpus
//! cases of `conformance/cases/shogi` run in `tests/corpus.rs`.

use seams::rules::Rules;
use seams::shogi::{ShogiRules, builtin_variant, builtin_variants};

fn variant(name: &str) -> ShogiRules {
    builtin_variant(name).expect("built-in variant")
}

#[test]
fn flat_start_perft_matches_published_figures() {
    let r = variant("shogi-flat");
    let start = r.start();
    let slow = std::env::var("SEAMS_SLOW").is_ok_and(|v| v == "1");
    let expected: &[u64] = if slow {
        &[30, 900, 25470, 719731, 19861490]
    } else {
        &[30, 900, 25470, 719731]
    };
    for (i, &n) in expected.iter().enumerate() {
        assert_eq!(r.perft(&start, i as u32 + 1), n, "depth {}", i + 1);
    }
}

#[test]
fn flat_usi_sfen_perft_matches_published_figures() {
    let r = variant("shogi-flat");
    let pos = r
        .parse_position("l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL w GR5pnsg 1")
        .expect("USI SFEN parses");
    assert_eq!(r.perft(&pos, 1), 207);
    assert_eq!(r.perft(&pos, 2), 28684);
}

#[test]
fn all_variants_build() {
    let names: Vec<String> = builtin_variants()
        .iter()
        .map(|r| r.variant().to_string())
        .collect();
    assert_eq!(
        names,
        ["shogi-flat", "shogi-genus2", "shogi-klein", "shogi-mobius"]
    );
}

/// The attack search traces routes backwards from the target; that is exact
/// when every unit step and knight word retraces itself.
#[test]
fn every_step_and_knight_word_retraces_itself() {
    use seams::geometry::KnightWord;
    use seams::topology::Dir;
    for r in builtin_variants() {
        let geo = r.geometry();
        for c in geo.board().cells() {
            for d in Dir::ALL {
                if let Some(s) = geo.step(c, d) {
                    let back = geo.step(s.to, s.transport.apply(d).opposite());
                    assert_eq!(
                        back.map(|b| (b.to, b.transport)),
                        Some((c, s.transport)),
                        "{} {} {d}",
                        r.variant(),
                        geo.board().cell_name(c)
                    );
                }
            }
            for w in KnightWord::ALL {
                if let Some(s) = geo.knight(c, w) {
                    let rev = KnightWord::new(
                        s.transport.apply(w.long).opposite(),
                        s.transport.apply(w.short).opposite(),
                    );
                    let back = geo.knight(s.to, rev);
                    assert_eq!(
                        back.map(|b| b.to),
                        Some(c),
                        "{} {} {w:?}",
                        r.variant(),
                        geo.board().cell_name(c)
                    );
                }
            }
        }
    }
}

/// Φ on cells is a board automorphism that reverses every direction.
#[test]
fn phi_on_cells_reverses_every_step() {
    use seams::topology::Dir;
    for r in builtin_variants() {
        let geo = r.geometry();
        for c in geo.board().cells() {
            assert_eq!(r.phi_cell(r.phi_cell(c)), c);
            for d in Dir::ALL {
                let a = geo.step(c, d).map(|s| (r.phi_cell(s.to), s.transport));
                let b = geo
                    .step(r.phi_cell(c), d.opposite())
                    .map(|s| (s.to, s.transport));
                assert_eq!(a, b, "{} {} {d}", r.variant(), geo.board().cell_name(c));
            }
        }
    }
}

#[test]
fn start_positions_print() {
    for r in builtin_variants() {
        let s = r.start();
        let t = r.format_position(&s);
        println!("{} {}", r.variant(), t);
        assert_eq!(r.parse_position(&t).unwrap(), s);
        for d in 1..=3 {
            let n = r.perft(&s, d);
            let m = r.perft(&r.exchange(&s), d);
            println!("  perft {d} = {n} (phi {m})");
            assert_eq!(n, m);
        }
    }
}

// ---------------------------------------------------------------------------
// Property tests over positions reached by random legal play.

mod properties {
    use proptest::prelude::*;
    use seams::rules::{EndReason, Game, Player, Rules};
    use seams::shogi::{Action, Position, ShogiRules, builtin_variants};
    use std::sync::OnceLock;

    fn variants() -> &'static [ShogiRules] {
        static V: OnceLock<Vec<ShogiRules>> = OnceLock::new();
        V.get_or_init(builtin_variants)
    }

    /// A small deterministic generator, so a proptest seed fixes the game.
    struct Mix(u64);
    impl Mix {
        fn next(&mut self, n: usize) -> usize {
            self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
            let mut z = self.0;
            z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
            ((z ^ (z >> 31)) % n as u64) as usize
        }
    }

    /// The position after up to `plies` random legal actions.
    fn reach(r: &ShogiRules, seed: u64, plies: usize) -> Position {
        let mut rng = Mix(seed);
        let mut p = r.start();
        for _ in 0..plies {
            let legal = r.legal_actions(&p);
            if legal.is_empty() {
                break;
            }
            p = r.apply(&p, &legal[rng.next(legal.len())]);
        }
        p
    }

    fn sorted(mut v: Vec<Action>) -> Vec<Action> {
        v.sort();
        v
    }

    fn check_position(r: &ShogiRules, p: &Position) -> Result<(), TestCaseError> {
        let name = r.variant();
        let text = r.format_position(p);
        // Φ is an involution and commutes with legality and status.
        let q = r.exchange(p);
        prop_assert_eq!(&r.exchange(&q), p, "{} Φ∘Φ at {}", name, text);
        let legal = sorted(r.legal_actions(p));
        let mapped = sorted(legal.iter().map(|a| r.exchange_action(p, a)).collect());
        prop_assert_eq!(
            sorted(r.legal_actions(&q)),
            mapped,
            "{} legal∘Φ at {}",
            name,
            text
        );
        prop_assert_eq!(r.in_check(&q), r.in_check(p));
        prop_assert_eq!(r.key(&r.exchange(&q)), r.key(p));
        // Material and kings.
        prop_assert_eq!(p.piece_count(), 40, "{} material at {}", name, text);
        prop_assert!(p.king(Player::First).is_some() && p.king(Player::Second).is_some());
        // Text and notation round trips.
        prop_assert_eq!(&r.parse_position(&text).expect("printed text parses"), p);
        for a in &legal {
            let t = r.format_action(p, a);
            prop_assert_eq!(
                r.parse_action(p, &t).ok(),
                Some(*a),
                "{} action {} at {}",
                name,
                t,
                text
            );
        }
        // The backward attack search agrees with forward generation.
        for by in [Player::First, Player::Second] {
            let forward = r.attacked_cells_forward(p.board(), by);
            for c in r.geometry().board().cells() {
                prop_assert_eq!(
                    r.attacked(p.board(), c, by),
                    forward.binary_search(&c).is_ok(),
                    "{} attack on {} by {:?} at {}",
                    name,
                    r.geometry().board().cell_name(c),
                    by,
                    text
                );
                // The audit's attacker lists agree, and name only `by`'s pieces.
                let attackers = r.attackers(p.board(), c, by);
                prop_assert_eq!(!attackers.is_empty(), forward.binary_search(&c).is_ok());
                prop_assert!(
                    attackers
                        .iter()
                        .all(|&a| p.piece_at(a).is_some_and(|q| q.owner == by))
                );
            }
        }
        // A pawn drop never lands in a file with the mover's unpromoted pawn.
        let me = p.to_move();
        for a in &legal {
            if let Action::Drop { kind, to } = a
                && r.kind_name(*kind) == "pawn"
            {
                let files = r.nifu_files(p, me, *kind);
                prop_assert!(!files.contains(&r.file_of(*to)));
            }
        }
        Ok(())
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(256))]

        #[test]
        fn exchange_text_and_attacks_hold_on_random_positions(
            seed in any::<u64>(), plies in 0usize..40, v in 0usize..4
        ) {
            let r = &variants()[v];
            let p = reach(r, seed, plies);
            check_position(r, &p)?;
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(24))]

        #[test]
        fn perft_two_is_invariant_under_exchange(
            seed in any::<u64>(), plies in 0usize..16, v in 0usize..4
        ) {
            let r = &variants()[v];
            let p = reach(r, seed, plies);
            prop_assert_eq!(r.perft(&r.exchange(&p), 2), r.perft(&p, 2));
        }

        #[test]
        fn playouts_end_by_the_rules_or_reach_the_cap(seed in any::<u64>(), v in 0usize..4) {
            let r = &variants()[v];
            let mut rng = Mix(seed);
            let mut g = Game::new(r, r.start());
            for _ in 0..400 {
                if g.result().is_some() {
                    break;
                }
                let legal = r.legal_actions(g.position());
                prop_assert!(!legal.is_empty(), "a game with no legal action must be over");
                g.play(legal[rng.next(legal.len())]);
                let p = g.position();
                prop_assert_eq!(p.piece_count(), 40);
                prop_assert!(p.king(Player::First).is_some() && p.king(Player::Second).is_some());
            }
            if let Some(res) = g.result() {
                let p = g.position();
                match res.reason {
                    EndReason::Checkmate | EndReason::NoLegalAction => {
                        prop_assert!(r.legal_actions(p).is_empty());
                        prop_assert_eq!(res.winner, Some(p.to_move().other()));
                        prop_assert_eq!(res.reason == EndReason::Checkmate, r.in_check(p));
                    }
                    EndReason::Repetition | EndReason::PerpetualCheck => {
                        prop_assert_eq!(g.history().occurrences_of_current(), 4);
                    }
                    other => prop_assert!(false, "unexpected ending {:?}", other),
                }
            }
        }
    }
}

// ---------------------------------------------------------------------------
// Data drives behaviour; bad data and bad text are typed errors, never panics.

mod data_and_text {
    use proptest::prelude::*;
    use seams::rules::{IllegalReason, Rules};
    use seams::shogi::{ShogiRules, builtin_files, builtin_variant};
    use seams::spec::Library;

    fn klein_text() -> String {
        builtin_files()
            .into_iter()
            .find(|(p, _)| p.ends_with("shogi-klein.toml"))
            .expect("klein data")
            .1
    }

    #[test]
    fn changing_a_band_in_the_data_changes_promotion() {
        let text = klein_text().replace("first = [\"13-15\"]", "first = [\"12-15\"]");
        let r = ShogiRules::new("edited", &text, Library::builtin()).expect("edited data loads");
        let p = r
            .parse_position("9/9/9/9/9/9/9/4S4/9/9/9/9/9/9/9/9/9/9 A - 1")
            .unwrap();
        let stock = builtin_variant("shogi-klein").unwrap();
        let q = stock
            .parse_position("9/9/9/9/9/9/9/4S4/9/9/9/9/9/9/9/9/9/9 A - 1")
            .unwrap();
        // The silver on e11 steps into rank 12: a band only in the edited data.
        assert!(r.legal_texts(&p).contains(&"e11-e12+".to_string()));
        assert!(!stock.legal_texts(&q).contains(&"e11-e12+".to_string()));
    }

    #[test]
    fn adding_dead_ranks_in_the_data_forces_promotion() {
        let text = klein_text().replace("[dead-ranks]", "[dead-ranks]\npawn = { up = [18] }");
        let r = ShogiRules::new("edited", &text, Library::builtin()).expect("edited data loads");
        let p = r
            .parse_position("9/4P4/9/9/9/9/9/9/9/9/9/9/9/9/9/9/9/9 A - 1")
            .unwrap();
        assert_eq!(r.legal_texts(&p), ["e17-e18+"]);
    }

    #[test]
    fn bad_data_names_the_field() {
        let cases = [
            ("board = \"klein-9x18\"", "board = \"klein-1x1\"", "board"),
            (
                "first = [\"13-15\"]",
                "first = [\"13-99\"]",
                "promotion.first",
            ),
            ("second = \"15\"", "second = \"19\"", "setup.rows[0].second"),
            (
                "pieces = \".B.....RP\"",
                "pieces = \".B.....RX\"",
                "setup.rows[1].pieces",
            ),
            ("second = \"down\"", "second = \"up\"", "drop-facing"),
            (
                "[dead-ranks]",
                "[dead-ranks]\ngold = { up = [1] }",
                "dead-ranks.gold",
            ),
        ];
        for (from, to, field) in cases {
            let text = klein_text().replacen(from, to, 1);
            assert_ne!(text, klein_text(), "{from} not found");
            let e = ShogiRules::new("edited", &text, Library::builtin()).unwrap_err();
            assert_eq!(e.field, field, "{e}");
        }
    }

    /// The `[values]` table the practice opponent reads: each kind of
    /// mistake is refused with the field it is in.
    #[test]
    fn bad_values_name_the_field() {
        let cases = [
            (
                "king = 0",
                "king = 0\ndragon = 1",
                "values.dragon",
                "not a piece",
            ),
            ("lance = 300", "lance = -1", "values.lance", "negative"),
            ("lance = 300", "lance = 100001", "values.lance", "above"),
            (
                "lance = 300",
                "lance = \"300\"",
                "values.lance",
                "not an integer",
            ),
            (
                "lance = 300",
                "lance = [300]",
                "values.lance",
                "not an integer",
            ),
            ("lance = 300\n", "", "values.lance", "missing"),
            (
                "pawn = 600",
                "gold = 600",
                "values.promoted.gold",
                "not a piece",
            ),
            (
                "pawn = 600",
                "pawn = true",
                "values.promoted.pawn",
                "not an integer",
            ),
            ("silver = 600\n", "", "values.promoted.silver", "missing"),
        ];
        for (from, to, field, says) in cases {
            // The promoted sub-table's entries come after the base ones.
            let text = klein_text();
            let at = if field.starts_with("values.promoted") {
                text.find("\n[values.promoted]").unwrap()
            } else {
                text.find("\n[values]").unwrap()
            };
            let (head, tail) = text.split_at(at);
            let edited = format!("{head}{}", tail.replacen(from, to, 1));
            assert_ne!(edited, text, "{from} not found");
            let e = ShogiRules::new("edited", &edited, Library::builtin()).unwrap_err();
            assert_eq!(e.field, field, "{e}");
            assert!(e.message.contains(says), "{e}");
        }
        let text = klein_text();
        // The movement tables come after the values; they stay.
        let pieces = &text[text.find("\n# The kinds (SS-4, MV-6)").unwrap()..];
        let head = text.split("\n[values.promoted]").next().unwrap();
        let edited = head.replacen("king = 0", "king = 0\npromoted = 5", 1) + pieces;
        let e = ShogiRules::new("edited", &edited, Library::builtin()).unwrap_err();
        assert_eq!(e.field, "values.promoted", "{e}");
        // Without the table, every piece but the king is worth 100.
        let bare = klein_text().split("\n[values]").next().unwrap().to_string() + pieces;
        let r = ShogiRules::new("edited", &bare, Library::builtin()).expect("valid");
        assert_eq!(r.material(&r.start()), [1900, 1900]);
        let stock = builtin_variant("shogi-klein").unwrap();
        let s = stock.material(&stock.start());
        assert_eq!(s[0], s[1]);
        assert_eq!(
            s[0],
            9 * 100 + 2 * 300 + 2 * 400 + 2 * 500 + 2 * 600 + 800 + 1000
        );
    }

    /// The (field, message) pairs of a load that must fail.
    fn load_errors(text: &str, lib: &Library) -> Vec<(String, String)> {
        match ShogiRules::load("edited", text, lib) {
            Ok(_) => panic!("the edited data must be rejected"),
            Err(errors) => errors.into_iter().map(|e| (e.field, e.message)).collect(),
        }
    }

    /// One run names every independent mistake of a file, in the order of
    /// its sections, each range and row on its own; `new` keeps the first.
    #[test]
    fn load_names_every_broken_entry() {
        let text = klein_text()
            .replacen("first = [\"13-15\"]", "first = [\"13-99\", \"0-2\"]", 1)
            .replacen("[dead-ranks]", "[dead-ranks]\ngold = { up = [1] }", 1)
            .replacen("lance = 300", "lance = -1", 1)
            .replacen("silver = 600\n", "", 1)
            .replacen("second = \"15\"", "second = \"19\"", 1)
            .replacen("pieces = \".B.....RP\"", "pieces = \".B.....RX\"", 1);
        let got = load_errors(&text, Library::builtin());
        let want = [
            ("promotion.first", "'13-99': the board has 18 ranks"),
            (
                "promotion.first",
                "'0-2' is not a rank range like 7-9 or II:7-9",
            ),
            (
                "dead-ranks.gold",
                "only a piece that can promote can be forced to",
            ),
            ("values.lance", "-1 is negative"),
            (
                "values.promoted.silver",
                "missing: every kind that promotes needs the value of its promoted form",
            ),
            (
                "setup.rows[0].second",
                "bad coordinate 'i19' on board klein-9x18: rank 19 is outside 1–18",
            ),
            (
                "setup.rows[1].pieces",
                "'X' is not a piece letter (K R B G S N L P or .)",
            ),
        ];
        assert_eq!(
            got,
            want.map(|(f, m)| (f.to_string(), m.to_string())),
            "{got:#?}"
        );
        let first = ShogiRules::new("edited", &text, Library::builtin()).unwrap_err();
        assert_eq!((first.field, first.message), got[0]);
    }

    /// Shrinking the Klein bottle to 14 ranks breaks two independent
    /// entries of shogi-klein: the band on ranks 13–15 and the row on rank
    /// 15. One run names both.
    #[test]
    fn a_shorter_klein_board_breaks_the_band_and_a_row_at_once() {
        let boards = seams::spec::embedded_files("boards")
            .into_iter()
            .map(|(path, text)| {
                if path.ends_with("klein-9x18.toml") {
                    assert!(text.contains("height = 18"), "{text}");
                    (path, text.replace("height = 18", "height = 14"))
                } else {
                    (path, text)
                }
            })
            .collect();
        let lib = Library::from_files(boards).expect("the edited boards load");
        assert_eq!(lib.geometry("klein-9x18").unwrap().board().height(), 14);
        let got = load_errors(&klein_text(), &lib);
        let want = [
            ("promotion.first", "'13-15': the board has 14 ranks"),
            (
                "setup.rows[0].second",
                "bad coordinate 'i15' on board klein-9x18: rank 15 is outside 1–14",
            ),
        ];
        assert_eq!(
            got,
            want.map(|(f, m)| (f.to_string(), m.to_string())),
            "{got:#?}"
        );
    }

    /// Without its board a file's board-free sections are still checked;
    /// the sections that read the board are not.
    #[test]
    fn an_unknown_board_stops_only_the_sections_that_read_it() {
        let text = klein_text()
            .replacen("board = \"klein-9x18\"", "board = \"klein-1x1\"", 1)
            .replacen("first = [\"13-15\"]", "first = [\"13-99\"]", 1)
            .replacen("second = \"down\"", "second = \"up\"", 1)
            .replacen("lance = 300", "lance = -1", 1);
        let fields: Vec<String> = load_errors(&text, Library::builtin())
            .into_iter()
            .map(|(f, _)| f)
            .collect();
        assert_eq!(fields, ["board", "drop-facing", "values.lance"]);
    }

    #[test]
    fn bad_position_text_names_field_and_place() {
        let r = builtin_variant("shogi-genus2").unwrap();
        let start = r.format_position(&r.start());
        let cases = [
            (
                start.replacen("9/9/9/9/9/9/PPPPPPPPP", "9/9/9/9/9/9/PPPPPPPPPP", 1),
                "placement I:3",
            ),
            (start.replacen(" A ", " C ", 1), "syntax/side"),
            // X is a letter (NT-I9), of no kind of this variant.
            (start.replacen(" - ", " 2X ", 1), "hand"),
            (start.replacen(" 1", " 0", 1), "syntax/move number"),
            (start.replacen("|", "/", 1), "placement"),
            (
                start.replacen("PPPPPPPPP/1B5R1", "PPPPPPPPP/1Bv4R1", 1),
                "placement I:2",
            ),
        ];
        for (text, field) in cases {
            let e = r.parse_position(&text).unwrap_err();
            assert_eq!(crate::common::position_fault(&e), field, "{text}: {e}");
        }
    }

    #[test]
    fn bad_action_text_gives_a_reason() {
        let r = builtin_variant("shogi-flat").unwrap();
        let s = r.start();
        let cases = [
            ("", IllegalReason::Syntax),
            ("e3", IllegalReason::Syntax),
            ("z3-z4", IllegalReason::NoSuchCell),
            ("e5-e6", IllegalReason::NoPiece),
            ("e9-e8", IllegalReason::NoPiece),
            ("e3-e5", IllegalReason::Unreachable),
            ("P*e5", IllegalReason::NoPiece),
            ("K*e5", IllegalReason::NoPiece),
            ("e3-e4+", IllegalReason::Promotion),
        ];
        for (text, code) in cases {
            assert_eq!(r.parse_action(&s, text).unwrap_err().code, code, "{text}");
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(256))]

        #[test]
        fn arbitrary_text_never_panics(text in "[ -~|]{0,80}", v in 0usize..4) {
            let r = &seams::shogi::builtin_variants()[v];
            let _ = r.parse_position(&text);
            let _ = r.parse_action(&r.start(), &text);
        }

        #[test]
        fn mangled_start_text_never_panics(cut in 0usize..200, insert in "[0-9a-zA-Z+^v/| -]{0,4}", v in 0usize..4) {
            let r = &seams::shogi::builtin_variants()[v];
            let mut t = r.format_position(&r.start());
            let at = cut.min(t.len());
            t.insert_str(at, &insert);
            let _ = r.parse_position(&t);
        }
    }
}

// ---------------------------------------------------------------------------
// shogi-flat against an independent standard-shogi move generator.

mod cross_check {
    use proptest::prelude::*;
    use seams::rules::{Player, Rules};
    use seams::shogi::{Position, ShogiRules, builtin_variant};

    use crate::common::other_engines::{haitaka_moves, sfen as usi};

    fn sfen(r: &ShogiRules, p: &Position) -> String {
        usi(&r.format_position(p), p.to_move() == Player::First)
    }

    /// The other generator's legal-move count (see `haitaka_moves`).
    fn other_count(sfen: &str) -> usize {
        let board = haitaka::Board::from_sfen(sfen).expect("the other generator reads the SFEN");
        haitaka_moves(&board).len()
    }

    #[test]
    fn start_agrees() {
        let r = builtin_variant("shogi-flat").unwrap();
        assert_eq!(other_count(&sfen(&r, &r.start())), 30);
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(256))]

        #[test]
        fn legal_counts_agree_along_random_games(seed in any::<u64>()) {
            let r = builtin_variant("shogi-flat").unwrap();
            let mut p = r.start();
            let mut s = seed | 1;
            for _ in 0..120 {
                let legal = r.legal_actions(&p);
                let text = sfen(&r, &p);
                prop_assert_eq!(legal.len(), other_count(&text), "at {}", text);
                if legal.is_empty() {
                    break;
                }
                s ^= s << 13;
                s ^= s >> 7;
                s ^= s << 17;
                p = r.apply(&p, &legal[(s % legal.len() as u64) as usize]);
            }
        }
    }
}

// ---------------------------------------------------------------------------
// The fast legality filter against the definition.

mod fast_legality {
    use proptest::prelude::*;
    use seams::rules::Rules;

    proptest! {
        #![proptest_config(ProptestConfig { cases: 48, failure_persistence: None, ..ProptestConfig::default() })]

        /// On all four boards, along random games (captures, drops, checks
        /// and promotions included), the legal actions found by testing only
        /// king moves, moves in check and moves of possible shields equal
        /// those found by testing every candidate.
        #[test]
        fn fast_legality_matches_the_definition(v in 0usize..4, seed in any::<u64>()) {
            let variants = seams::shogi::builtin_variants();
            let r = &variants[v];
            let mut p = r.start();
            let mut s = seed | 1;
            for _ in 0..160 {
                let fast = r.legal(&p);
                prop_assert_eq!(&fast, &r.legal_by_definition(&p), "at {}", r.format_position(&p));
                if fast.is_empty() {
                    break;
                }
                s ^= s << 13;
                s ^= s >> 7;
                s ^= s << 17;
                p = r.apply(&p, &fast[(s % fast.len() as u64) as usize]);
            }
        }
    }
}

/// The same comparison on fixed seeds, where the positions in check and
/// the ones with pawns in hand are counted, so that the paths the fast
/// filter treats specially are known to be exercised.
#[test]
fn fast_legality_is_exercised_in_check_and_with_drops() {
    let (mut checked, mut drops) = (0, 0);
    for r in builtin_variants() {
        for seed in 1..=12u64 {
            let mut p = r.start();
            let mut s = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
            for _ in 0..160 {
                let fast = r.legal(&p);
                assert_eq!(fast, r.legal_by_definition(&p), "{}", r.format_position(&p));
                checked += usize::from(r.in_check(&p));
                drops += fast
                    .iter()
                    .filter(|a| matches!(a, seams::shogi::Action::Drop { .. }))
                    .count();
                if fast.is_empty() {
                    break;
                }
                s ^= s << 13;
                s ^= s >> 7;
                s ^= s << 17;
                p = r.apply(&p, &fast[(s % fast.len() as u64) as usize]);
            }
        }
    }
    assert!(checked >= 20, "only {checked} positions in check");
    assert!(drops > 1000, "only {drops} drops");
}
