//! Surface chess: published perft on the flat control, agreement with an
//! independent engine, property tests for the player exchange and the
//! endings on all three surfaces, and the chess corpus cases.

use crate::common::other_engines::{cozy_moves, cozy_perft};
use seams::chess::{ChessRules, builtin_variant};
use seams::rules::Rules;

fn variant(name: &str) -> ChessRules {
    builtin_variant(name).expect("built-in variant")
}

const KIWIPETE: &str = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq -";
const POSITION_3: &str = "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - -";

#[test]
fn flat_perft_start() {
    let v = variant("chess-flat");
    let s = v.start();
    let mut want = vec![20, 400, 8902, 197281];
    if std::env::var("SEAMS_SLOW").is_ok_and(|x| x == "1") {
        want.push(4865609);
    }
    for (d, n) in want.into_iter().enumerate() {
        assert_eq!(v.perft(&s, d as u32 + 1), n, "depth {}", d + 1);
    }
}

#[test]
fn flat_perft_kiwipete() {
    let v = variant("chess-flat");
    let s = v.parse_position(KIWIPETE).unwrap();
    for (d, n) in [48, 2039, 97862].into_iter().enumerate() {
        assert_eq!(v.perft(&s, d as u32 + 1), n, "depth {}", d + 1);
    }
}

#[test]
fn flat_perft_position_3() {
    let v = variant("chess-flat");
    let s = v.parse_position(POSITION_3).unwrap();
    for (d, n) in [14, 191, 2812, 43238].into_iter().enumerate() {
        assert_eq!(v.perft(&s, d as u32 + 1), n, "depth {}", d + 1);
    }
}

// ---------------------------------------------------------------------------
// Agreement with cozy-chess on the flat control.

/// A small deterministic generator for reproducible random play.
struct XorShift(u64);

impl XorShift {
    fn next(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        self.0 = x;
        x
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// This engine's action in cozy-chess's coordinate form (castling is the
/// king taking its own rook there).
fn cozy_text(v: &ChessRules, pos: &seams::chess::Position, a: &seams::chess::Action) -> String {
    use seams::chess::Special;
    let b = v.geometry().board();
    let to = match a.special {
        Special::Castle(side) => v.castle(pos.to_move(), side).unwrap().rook,
        _ => a.to,
    };
    let mut s = format!("{}{}", b.cell_name(a.from), b.cell_name(to));
    if let Some(k) = a.promotion {
        s.push(v.letter(k).to_ascii_lowercase());
    }
    s
}

#[test]
fn flat_agrees_with_cozy_chess_under_random_play() {
    let v = variant("chess-flat");
    let starts = [
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        KIWIPETE,
    ];
    let mut rng = XorShift(0x9E37_79B9_7F4A_7C15);
    let mut compared = 0;
    for start in starts {
        for game in 0..10 {
            let mut pos = v.parse_position(start).unwrap();
            let mut cozy = cozy_chess::Board::from_fen(&v.format_position(&pos), false).unwrap();
            for ply in 0..70 {
                // This engine's position text must read back in cozy-chess.
                let reread = cozy_chess::Board::from_fen(&v.format_position(&pos), false)
                    .unwrap_or_else(|e| panic!("{:?}: {}", e, v.format_position(&pos)));
                assert!(reread.same_position(&cozy), "{}", v.format_position(&pos));
                let mut ours: Vec<String> = v
                    .legal_actions(&pos)
                    .iter()
                    .map(|a| cozy_text(&v, &pos, a))
                    .collect();
                let mut theirs: Vec<String> =
                    cozy_moves(&cozy).iter().map(|m| m.to_string()).collect();
                ours.sort();
                theirs.sort();
                assert_eq!(ours, theirs, "{}", v.format_position(&pos));
                if (game + ply) % 17 == 0 {
                    assert_eq!(v.perft(&pos, 2), cozy_perft(&cozy, 2));
                }
                if ply == 25 && game % 4 == 0 {
                    assert_eq!(
                        v.perft(&pos, 3),
                        cozy_perft(&cozy, 3),
                        "{}",
                        v.format_position(&pos)
                    );
                }
                compared += 1;
                let actions = v.legal_actions(&pos);
                if actions.is_empty() {
                    break;
                }
                let a = actions[rng.below(actions.len())];
                let text = cozy_text(&v, &pos, &a);
                let m: cozy_chess::Move = text.parse().unwrap();
                cozy.play(m);
                pos = v.apply(&pos, &a);
            }
        }
    }
    assert!(compared > 500);
}

// ---------------------------------------------------------------------------
// Properties on the three surfaces, over positions from random legal play.

use proptest::prelude::*;
use seams::chess::{Action, Position};
use seams::rules::{EndReason, Game, GameResult, Player};

const SURFACES: [&str; 3] = ["chess-mobius", "chess-klein", "chess-genus2"];

fn surfaces() -> &'static [ChessRules] {
    static ALL: std::sync::OnceLock<Vec<ChessRules>> = std::sync::OnceLock::new();
    ALL.get_or_init(|| SURFACES.iter().map(|n| variant(n)).collect())
}

/// Random legal play from the start: the positions and the actions.
fn random_line(v: &ChessRules, seed: u64, plies: usize) -> (Vec<Position>, Vec<Action>) {
    let mut rng = XorShift(seed | 1);
    let mut positions = vec![v.start()];
    let mut actions = vec![];
    for _ in 0..plies {
        let pos = positions.last().unwrap();
        let legal = v.legal_actions(pos);
        if legal.is_empty() {
            break;
        }
        let a = legal[rng.below(legal.len())];
        positions.push(v.apply(pos, &a));
        actions.push(a);
    }
    (positions, actions)
}

fn swap_winner(r: GameResult) -> GameResult {
    GameResult {
        winner: r.winner.map(Player::other),
        reason: r.reason,
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn exchange_commutes_with_the_rules(which in 0usize..3, seed in any::<u64>(), plies in 0usize..48) {
        let v = &surfaces()[which];
        let (line, actions) = random_line(v, seed, plies);
        let s = line.last().unwrap();
        let x = v.exchange(s);
        // Involution, and lossless text both ways.
        prop_assert_eq!(&v.exchange(&x), s);
        prop_assert_eq!(&v.parse_position(&v.format_position(s)).unwrap(), s);
        prop_assert_eq!(&v.parse_position(&v.format_position(&x)).unwrap(), &x);
        // legal(Φ(s)) = Φ(legal(s)), and moves commute with Φ.
        let legal = v.legal_actions(s);
        let mut mapped: Vec<Action> = legal.iter().map(|a| v.exchange_action(s, a)).collect();
        let mut there = v.legal_actions(&x);
        mapped.sort();
        there.sort();
        prop_assert_eq!(&mapped, &there);
        for a in &legal {
            let after = v.apply(s, a);
            prop_assert_eq!(v.exchange(&after), v.apply(&x, &v.exchange_action(s, a)));
            // Promotion replaces, never adds.
            prop_assert!(after.piece_count() <= s.piece_count());
            // Notation round-trips.
            let text = v.format_action(s, a);
            prop_assert_eq!(v.parse_action(s, &text).ok(), Some(*a), "{}", text);
        }
        prop_assert_eq!(v.in_check(&x), v.in_check(s));
        prop_assert_eq!(v.perft(&x, 2), v.perft(s, 2));
        // Keys never include counters.
        let mut edited = s.to_setup();
        edited.halfmove += 7;
        edited.ply += 13;
        prop_assert_eq!(v.key(&v.validate(edited).unwrap()), v.key(s));
        // Key equality is preserved by Φ along the line.
        let keys: Vec<String> = line.iter().map(|p| v.key(p)).collect();
        let xkeys: Vec<String> = line.iter().map(|p| v.key(&v.exchange(p))).collect();
        for i in 0..line.len() {
            for j in 0..i {
                prop_assert_eq!(keys[i] == keys[j], xkeys[i] == xkeys[j]);
            }
        }
        // Game status commutes: the exchanged game ends alike, winner swapped.
        let mut g = Game::new(v, v.start());
        let mut gx = Game::new(v, v.exchange(&v.start()));
        for (p, a) in line.iter().zip(&actions) {
            if g.result().is_some() { break; }
            g.play(*a);
            gx.play(v.exchange_action(p, a));
            prop_assert_eq!(gx.result(), g.result().map(swap_winner));
        }
    }

    #[test]
    fn games_driven_to_the_thresholds_end_by_the_rules(which in 0usize..3, seed in any::<u64>(), repeat in any::<bool>()) {
        let v = &surfaces()[which];
        let mut rng = XorShift(seed | 1);
        let (line, actions) = random_line(v, seed, 12);
        let mut g = Game::new(v, v.start());
        for (i, a) in actions.iter().enumerate() {
            if g.result().is_some() { break; }
            let _ = &line[i];
            g.play(*a);
        }
        let cap = 2000;
        let mut plies = 0;
        while g.result().is_none() && plies < cap {
            let pos = g.position().clone();
            let legal = v.legal_actions(&pos);
            // Quiet moves keep the halfmove counter running; the repeating
            // policy also heads for the most frequent resulting key.
            let quiet: Vec<Action> = legal.iter().copied().filter(|a| {
                pos.piece(a.to).is_none()
                    && pos.piece(a.from).is_some_and(|p| !v.is_pawn(p.kind))
            }).collect();
            let pool = if quiet.is_empty() { legal } else { quiet };
            let a = if repeat {
                let seen = |a: &Action| {
                    let k = v.key(&v.apply(&pos, a));
                    g.history().occurrences_of(&k)
                };
                let best = pool.iter().map(seen).max().unwrap();
                let top: Vec<Action> = pool.iter().copied().filter(|a| seen(a) == best).collect();
                top[rng.below(top.len())]
            } else {
                pool[rng.below(pool.len())]
            };
            g.play(a);
            plies += 1;
        }
        let r = g.result();
        prop_assert!(r.is_some(), "no ending after {} plies", cap);
        let pos = g.position();
        match r.unwrap().reason {
            EndReason::Repetition => prop_assert!(g.history().occurrences_of_current() >= 5),
            EndReason::MoveRule => prop_assert!(pos.halfmove() >= 150),
            EndReason::BareKings => prop_assert_eq!(pos.piece_count(), 2),
            EndReason::Checkmate | EndReason::Stalemate => prop_assert!(v.legal_actions(pos).is_empty()),
            other => prop_assert!(false, "unexpected ending {:?}", other),
        }
        // SC-I10: the final position, set up as a new game's start, ends that
        // game alike, except by repetition, which counted earlier occurrences.
        if r.unwrap().reason != EndReason::Repetition {
            prop_assert_eq!(Game::new(v, pos.clone()).result(), r);
        }
    }
}

/// SC-I10: a game's start, edited or initial, is judged by every ending of
/// SC-7.5 as a position reached by a move is, and the judgement commutes
/// with Φ (winner swapped).
#[test]
fn the_start_is_judged_like_any_position() {
    use EndReason::*;
    for (name, text, want) in [
        (
            "chess-flat",
            "4k3/8/8/8/8/8/8/4K3 w - - 0 1",
            Some(BareKings),
        ),
        (
            "chess-mobius",
            "5k4/10/10/10/10/10/10/10/5K4 w - - 0 1",
            Some(BareKings),
        ),
        (
            "chess-flat",
            "4k3/8/8/8/8/4P3/8/4K3 w - - 150 100",
            Some(MoveRule),
        ),
        ("chess-flat", "4k3/8/8/8/8/4P3/8/4K3 w - - 149 100", None),
        (
            "chess-flat",
            "R5k1/5ppp/8/8/8/8/8/6K1 b - - 0 1",
            Some(Checkmate),
        ),
        (
            "chess-flat",
            "k7/8/1Q6/8/8/8/8/7K b - - 0 1",
            Some(Stalemate),
        ),
        // Checkmate comes before the move rule at the start too (SC-7.6).
        (
            "chess-mobius",
            "R4k4/4ppp3/10/10/10/10/8K1/10/10 b - - 150 90",
            Some(Checkmate),
        ),
        // Bare kings come before the move rule.
        (
            "chess-klein",
            "9/9/9/4k4/9/9/9/9/9/9/9/9/9/9/4K4/9/9/9 w - - 200 120",
            Some(BareKings),
        ),
    ] {
        let v = variant(name);
        let start = v.parse_position(text).unwrap();
        let g = Game::new(&v, start.clone());
        assert_eq!(g.result().map(|r| r.reason), want, "{name} {text}");
        if want == Some(Checkmate) {
            assert_eq!(g.result().unwrap().winner, Some(start.to_move().other()));
        }
        let gx = Game::new(&v, v.exchange(&start));
        assert_eq!(
            gx.result(),
            g.result().map(swap_winner),
            "{name} {text} under Φ"
        );
    }
    // A game that starts over accepts no action, not even a legal move.
    let v = variant("chess-flat");
    let mut g = Game::new(
        &v,
        v.parse_position("4k3/8/8/8/8/8/8/4K3 w - - 0 1").unwrap(),
    );
    let refused = g.play_text("e1-e2").unwrap_err();
    assert_eq!(refused.code, seams::rules::IllegalReason::GameOver);
    // Every initial position is a game in progress.
    for name in ["chess-flat", "chess-mobius", "chess-klein", "chess-genus2"] {
        let v = variant(name);
        assert_eq!(Game::new(&v, v.start()).result(), None, "{name}");
    }
}

// ---------------------------------------------------------------------------
// Data drives behaviour; bad input is refused with a place, never a panic.

fn edited(name: &str, from: &str, to: &str) -> ChessRules {
    let (path, text) = seams::chess::builtin_files()
        .into_iter()
        .find(|(p, _)| p.ends_with(&format!("{name}.toml")))
        .unwrap();
    assert!(text.contains(from), "{from}");
    ChessRules::from_file(
        &path,
        &text.replace(from, to),
        seams::spec::Library::builtin(),
    )
    .unwrap()
}

#[test]
fn changing_data_changes_the_game() {
    let pos = "9/4P4/9/9/4P4/9/6k2/9/9/2K6/9/9/9/4p4/9/9/9/9 w - - 0 1";
    let k = variant("chess-klein");
    let p = k.parse_position(pos).unwrap();
    assert!(k.parse_action(&p, "e14-e15").is_err());
    // Move White's target to rank 16: e14-e15 no longer promotes.
    let k16 = edited("chess-klein", "first = \"15\"", "first = \"16\"");
    let p = k16.parse_position(pos).unwrap();
    assert!(k16.parse_action(&p, "e14-e15").is_ok());
    // Only queens: one promotion action instead of four.
    let q = edited(
        "chess-mobius",
        "pieces = [\"Q\", \"R\", \"B\", \"N\"]",
        "pieces = [\"Q\"]",
    );
    let p = q
        .parse_position("k9/4P5/10/10/10/10/10/10/5K4 w - - 0 1")
        .unwrap();
    assert_eq!(
        q.legal_actions(&p)
            .iter()
            .filter(|a| a.promotion.is_some())
            .count(),
        1
    );
    // Threefold instead of fivefold: the knight shuffle ends after 8 plies.
    let r3 = edited("chess-mobius", "repetition = 5", "repetition = 3");
    let mut g = Game::new(&r3, r3.start());
    for m in ["h1-g3", "h9-g7", "g3-h1", "g7-h9"].repeat(2) {
        g.play_text(m).unwrap();
    }
    assert_eq!(g.result().map(|r| r.reason), Some(EndReason::Repetition));
    // A shorter move rule ends the game sooner.
    let m2 = edited(
        "chess-mobius",
        "move-rule-halfmoves = 150",
        "move-rule-halfmoves = 2",
    );
    let mut g = Game::new(&m2, m2.start());
    g.play_text("h1-g3").unwrap();
    assert_eq!(g.result(), None);
    g.play_text("h9-g7").unwrap();
    assert_eq!(g.result().map(|r| r.reason), Some(EndReason::MoveRule));
}

#[test]
fn bad_data_names_the_field() {
    let (path, text) = seams::chess::builtin_files()
        .into_iter()
        .find(|(p, _)| p.ends_with("chess-mobius.toml"))
        .unwrap();
    let lib = seams::spec::Library::builtin();
    for (from, to, field) in [
        (
            "row = \". P N P P P . P P .\"",
            "row = \". P N P P P . P P\"",
            "setup[0].row",
        ),
        (
            "row = \". P N P P P . P P .\"",
            "row = \". P N P X P . P P .\"",
            "setup[0].row",
        ),
        ("rank = \"2\"", "rank = \"12\"", "setup[0].rank"),
        (
            "pieces = [\"Q\", \"R\", \"B\", \"N\"]",
            "pieces = [\"Q\", \"K\"]",
            "promotion.pieces[1]",
        ),
        (
            "king-to = \"h1\"",
            "king-to = \"h2\"",
            "castling.east.king-to",
        ),
        ("repetition = 5", "repetition = 1", "endings.repetition"),
    ] {
        match ChessRules::from_file(&path, &text.replace(from, to), lib) {
            Err(seams::chess::VariantError::Data(e)) => assert_eq!(e.field, field, "{e}"),
            other => panic!("{to}: {:?}", other.map(|v| v.variant().to_string())),
        }
    }
    assert!(ChessRules::from_file(&path, &text.replace("mobius-10x9", "mobius-1x1"), lib).is_err());
}

/// The (field, message) pairs of a load that must fail, every one a data
/// error.
fn load_errors(path: &str, text: &str) -> Vec<(String, String)> {
    match ChessRules::load(path, text, seams::spec::Library::builtin()) {
        Ok(_) => panic!("the edited data must be rejected"),
        Err(errors) => errors
            .into_iter()
            .map(|e| match e {
                seams::chess::VariantError::Data(e) => (e.field, e.message),
                other => panic!("not a data error: {other}"),
            })
            .collect(),
    }
}

/// One run names every independent mistake of a file, in the order of its
/// sections, each row, promotion piece and castling cell on its own;
/// `from_file` keeps the first. White's king is not counted, nor the
/// castling's king looked up, while a setup row is unread.
#[test]
fn load_names_every_broken_entry() {
    let (path, text) = seams::chess::builtin_files()
        .into_iter()
        .find(|(p, _)| p.ends_with("chess-mobius.toml"))
        .unwrap();
    let edits = [
        ("rank = \"2\"", "rank = \"12\""),
        (
            "row = \"P R . B Q K B N R P\"",
            "row = \"P R . B Q K B N R\"",
        ),
        (
            "pieces = [\"Q\", \"R\", \"B\", \"N\"]",
            "pieces = [\"Q\", \"K\", \"Q\"]",
        ),
        ("king-to = \"h1\"", "king-to = \"h2\""),
        ("repetition = 5", "repetition = 1"),
        ("N = 300", "N = -300"),
    ];
    let mut edited = text.clone();
    for (from, to) in edits {
        assert!(edited.contains(from), "{from}");
        edited = edited.replacen(from, to, 1);
    }
    let got = load_errors(&path, &edited);
    let want = [
        ("setup[0].rank", "rank 12 is outside 1–9"),
        ("setup[1].row", "9 tokens, but the board has 10 files"),
        (
            "promotion.pieces[1]",
            "'K' is not one of Q R B N: a pawn becomes a kind of the variant other than the king and the pawn",
        ),
        ("promotion.pieces[2]", "'Q' is listed twice"),
        (
            "castling.east.king-to",
            "must lie on the segment between king and rook",
        ),
        ("endings.repetition", "must be at least 2"),
        ("values.N", "-300 is negative"),
    ];
    assert_eq!(
        got,
        want.map(|(f, m)| (f.to_string(), m.to_string())),
        "{got:#?}"
    );
    match ChessRules::from_file(&path, &edited, seams::spec::Library::builtin()) {
        Err(seams::chess::VariantError::Data(e)) => {
            assert_eq!((e.field, e.message), got[0].clone())
        }
        other => panic!("{:?}", other.map(|v| v.variant().to_string())),
    }
    // Without its board only the sections that do not read it are checked.
    let unknown = edited.replacen("mobius-10x9", "mobius-1x1", 1);
    let fields: Vec<String> = load_errors(&path, &unknown)
        .into_iter()
        .map(|(f, _)| f)
        .collect();
    assert_eq!(
        fields,
        [
            "board",
            "promotion.pieces[1]",
            "promotion.pieces[2]",
            "endings.repetition",
            "values.N"
        ]
    );
}

/// The `[values]` table the practice opponent reads: each kind of mistake
/// is refused with the field it is in.
#[test]
fn bad_values_name_the_field() {
    let (path, text) = seams::chess::builtin_files()
        .into_iter()
        .find(|(p, _)| p.ends_with("chess-klein.toml"))
        .unwrap();
    let lib = seams::spec::Library::builtin();
    for (from, to, field, says) in [
        ("Q = 900", "Q = 900\nX = 5", "values.X", "not a piece"),
        ("N = 300", "N = -300", "values.N", "negative"),
        ("N = 300", "N = 300000", "values.N", "above"),
        ("N = 300", "N = \"300\"", "values.N", "not an integer"),
        ("N = 300", "N = 3.5", "values.N", "not an integer"),
        ("N = 300\n", "", "values.N", "missing"),
        (
            "K = 0",
            "K = 0\n[values.promoted]\nP = 900",
            "values.promoted.P",
            "promotes",
        ),
    ] {
        assert!(text.contains(from), "{from}");
        match ChessRules::from_file(&path, &text.replacen(from, to, 1), lib) {
            Err(seams::chess::VariantError::Data(e)) => {
                assert_eq!(e.field, field, "{e}");
                assert!(e.message.contains(says), "{e}");
                assert!(e.to_string().starts_with(&path), "{e}");
            }
            other => panic!("{to}: {:?}", other.map(|v| v.variant().to_string())),
        }
    }
    // The movement tables come after the values; they stay.
    let pieces = &text[text.find("\n# The kinds (SC-3.8, MV-6)").unwrap()..];
    let bare = text.split("\n[values]").next().unwrap().to_string() + pieces;
    match ChessRules::from_file(
        &path,
        &bare.replacen("variant", "values = 3\nvariant", 1),
        lib,
    ) {
        Err(seams::chess::VariantError::Data(e)) => assert_eq!(e.field, "values", "{e}"),
        other => panic!("values = 3: {:?}", other.map(|v| v.variant().to_string())),
    }
    // Without the table every piece but the king is worth 100; the king
    // may be left out of a table.
    let start = |text: &str| {
        let v = ChessRules::from_file(&path, text, lib).expect("valid data");
        let pieces = v.start().piece_count() as i32 / 2;
        (v.material(&v.start()), pieces)
    };
    let (uniform, pieces) = start(&bare);
    assert_eq!(uniform, [(pieces - 1) * 100; 2]);
    assert_eq!(start(&text.replace("K = 0\n", "")), start(&text));
}

#[test]
fn bad_position_text_names_the_field() {
    let m = variant("chess-mobius");
    let g = variant("chess-genus2");
    for (v, text, field) in [
        (&m, "", "syntax/text"),
        (
            &m,
            "pr1bqkbnrp/1pnppp1pp1/10/10/10/10/10/1PNPPP1PP1/PR1BQKBNR w KQkq - 0 1",
            "placement rank 1",
        ),
        (
            &m,
            "pr1bqkbnrp/1pnppp1pp1/10/10/10/10/10/1PNPPP1PP1 w KQkq - 0 1",
            "placement",
        ),
        (
            &m,
            // X is a letter (NT-I9), of no kind of chess-mobius.
            "pr1bqkbnrp/1pnppp1pp1/10/10/10/10/10/1PNPPP1PP1/PR1BQKBNRX w KQkq - 0 1",
            "placement rank 1",
        ),
        (
            &m,
            "pr1bqkbnrp/1pnppp1pp1/10/10/10/10/10/1PNPPP1PP1/PR1BQKBNRP x KQkq - 0 1",
            "syntax/side",
        ),
        (
            &m,
            "pr1bqkbnrp/1pnppp1pp1/10/10/10/10/10/1PNPPP1PP1/PR1BQKBNRP w KQkz - 0 1",
            "syntax/castling",
        ),
        (
            &m,
            "pr1bqkbnrp/1pnppp1pp1/10/10/10/10/10/1PNPPP1PP1/PR1BQKBNRP w KQkq z9 0 1",
            "en-passant",
        ),
        (
            &m,
            "pr1bqkbnrp/1pnppp1pp1/10/10/10/10/10/1PNPPP1PP1/PR1BQKBNRP w KQkq e2-e3-e4^ 0 1",
            "en-passant",
        ),
        (
            &m,
            "pr1bqkbnrp/1pnppp1pp1/10/10/10/10/10/1PNPPP1PP1/PR1BQKBNRP w KQkq - x 1",
            "syntax/halfmove",
        ),
        (
            &m,
            "pr1bqkbnrp/1pnppp1pp1/10/10/10/10/10/1PNPPP1PP1/PR1BQKBNRP w KQkq - 0 0",
            "syntax/move",
        ),
        (
            &m,
            "pr1bqkbnrp/1pnppp1pp1/10/10/10/10/10/1PNPPP1PP1/PR1BQKBN1P w KQkq - 0 1",
            "castling",
        ),
        (
            &m,
            "pr1bqkbnrp/1pnppp1pp1/10/10/10/10/10/1PNPPP1PP1/PR1BQ1BNRP w - - 0 1",
            "placement",
        ),
        (&m, "5k4/10/10/10/10/10/10/10/1R3K4 w - - 0 1", "side"),
        (&m, "4P5/10/10/10/10/10/10/k9/5K4 w - - 0 1", "placement"),
        (
            &g,
            "9/9/9/9/9/4P4/1P1PPP1P1/2BRQRB2/1P1NKN1P1 w - - 0 1",
            "placement",
        ),
        (
            &g,
            "9/9/9/9/9/9/1P1PPP1P1/2BRQRB2/1P1NKN1P1|1p1nkn1p1/2brqrb2/1p1ppp1p1/4p4/9/9/9/9/9 w KQ - 0 1",
            "castling",
        ),
    ] {
        let e = v.parse_position(text).expect_err(text);
        assert_eq!(crate::common::position_fault(&e), field, "{text}: {e}");
    }
}

#[test]
fn bad_action_text_gets_its_reason() {
    use seams::rules::IllegalReason::*;
    let m = variant("chess-mobius");
    let s = m.start();
    for (text, code) in [
        ("", Syntax),
        ("e2e4", Syntax),
        // X is a letter (NT-I9), of no kind a pawn can become.
        ("e2-e4=X", Promotion),
        ("Xe2-e4", NoPiece),
        ("e2-z4", NoSuchCell),
        ("e3-e4", NoPiece),
        ("e9-e8", NoPiece),
        ("Ne2-e4", NoPiece),
        ("e2-e5", Unreachable),
        ("e2-e4=Q", Promotion),
        ("O-O-east", Castling),
        ("O-O", Ambiguous),
        ("e2-e4v", Unreachable),
        ("Nc2-d4^", Unreachable),
        ("e2-e4 ", Syntax),
        ("0-0", Syntax),
    ] {
        let got = m.parse_action(&s, text).map(|a| m.format_action(&s, &a));
        assert_eq!(got.map_err(|e| e.code), Err(code), "{text}");
    }
    assert!(m.parse_action(&s, "e2–e4").is_ok());
    assert!(m.parse_action(&s, "Pe2-e4").is_ok());
    assert!(m.parse_action(&s, "e2-e4^").is_ok());
    assert!(m.parse_action(&s, "e2xe4").is_ok());
}

#[test]
fn setups_are_validated() {
    let m = variant("chess-mobius");
    let mut s = m.start().to_setup();
    s.cells[0] = Some(seams::chess::Piece::new(Player::First, m.royal()));
    assert!(matches!(
        m.validate(s),
        Err(seams::chess::SetupError::KingCount { .. })
    ));
    let mut s = m.start().to_setup();
    s.cells.pop();
    assert!(matches!(
        m.validate(s),
        Err(seams::chess::SetupError::CellCount { .. })
    ));
    assert!(seams::chess::try_builtin_variants().unwrap().len() == 4);
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 32, failure_persistence: None, ..ProptestConfig::default() })]

    /// The fast legality filter agrees with the definition on all four boards.
    #[test]
    fn fast_legality_matches_the_definition(which in 0usize..4, seed in any::<u64>(), plies in 0usize..80) {
        let v = if which == 3 { variant("chess-flat") } else { surfaces()[which].clone() };
        let (line, _) = random_line(&v, seed, plies);
        for pos in line.iter().rev().take(12) {
            let mut fast = v.legal(pos);
            let mut slow = v.legal_by_definition(pos);
            fast.sort();
            slow.sort();
            prop_assert_eq!(fast, slow);
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, failure_persistence: None, ..ProptestConfig::default() })]

    /// Arbitrary and mangled texts are refused or read, never a panic.
    #[test]
    fn text_input_never_panics(which in 0usize..4, junk in ".{0,40}", cut in 0usize..120, insert in "[0-9a-zA-Z/|:^v+=\\- ]{0,6}") {
        let v = if which == 3 { variant("chess-flat") } else { surfaces()[which].clone() };
        let _ = v.parse_position(&junk);
        let _ = v.parse_action(&v.start(), &junk);
        let start = v.format_position(&v.start());
        let at = start.char_indices().map(|(i, _)| i).nth(cut % start.chars().count()).unwrap_or(0);
        let mangled = format!("{}{}{}", &start[..at], insert, &start[at..]);
        if let Ok(p) = v.parse_position(&mangled) {
            prop_assert_eq!(v.parse_position(&v.format_position(&p)).unwrap(), p);
        }
        let _ = v.parse_action(&v.start(), &format!("{insert}{junk}"));
    }
}

/// Attacks computed forward from every piece with the geometry primitives,
/// independently of the engine's backward search.
fn attacked_forward(
    v: &ChessRules,
    pos: &Position,
    by: Player,
) -> std::collections::HashSet<seams::topology::CellId> {
    use seams::geometry::KnightWord;
    use seams::movement::for_each_on_ray;
    use seams::topology::{CellId, Dir};
    let geo = v.geometry();
    let occupied = |c: CellId| pos.piece(c).is_some();
    let mut out = std::collections::HashSet::new();
    for (i, p) in pos.cells().iter().enumerate() {
        let Some(p) = p else { continue };
        if p.owner != by {
            continue;
        }
        let from = CellId(i as u16);
        // By the shipped files' names: this is the forward reading of
        // the rules, written apart from the compiled movement.
        let kind = v.kind_name(p.kind);
        let rays: &[Dir] = match kind {
            "rook" => &Dir::CARDINALS,
            "bishop" => &Dir::DIAGONALS,
            "queen" => &Dir::ALL,
            _ => &[],
        };
        for &d in rays {
            for_each_on_ray(geo, from, d, &occupied, |l| {
                out.insert(l.cell);
            });
        }
        match kind {
            "knight" => out.extend(
                KnightWord::ALL
                    .iter()
                    .filter_map(|&w| geo.knight(from, w))
                    .map(|s| s.to),
            ),
            "king" => out.extend(
                Dir::ALL
                    .iter()
                    .filter_map(|&d| geo.step(from, d))
                    .map(|s| s.to)
                    .filter(|&c| c != from),
            ),
            "pawn" => out.extend(
                [Dir::NE, Dir::NW]
                    .iter()
                    .filter_map(|&d| geo.step(from, p.facing.absolute(d)))
                    .map(|s| s.to)
                    .filter(|&c| c != from),
            ),
            _ => {}
        }
    }
    out
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, failure_persistence: None, ..ProptestConfig::default() })]

    /// The backward attack search agrees with forward attack sets on every
    /// cell, for both players, on all three surfaces.
    #[test]
    fn backward_attacks_match_forward_attacks(which in 0usize..3, seed in any::<u64>(), plies in 0usize..90) {
        let v = &surfaces()[which];
        let (line, _) = random_line(v, seed, plies);
        let pos = line.last().unwrap();
        for by in [Player::First, Player::Second] {
            let forward = attacked_forward(v, pos, by);
            for c in v.geometry().board().cells() {
                prop_assert_eq!(v.attacked(pos.cells(), c, by), forward.contains(&c), "{} by {:?} in {}", v.geometry().board().cell_name(c), by, v.format_position(pos));
                // The audit's attacker lists agree, and name only `by`'s pieces.
                let attackers = v.attackers(pos.cells(), c, by);
                prop_assert_eq!(!attackers.is_empty(), forward.contains(&c));
                prop_assert!(attackers.iter().all(|&a| pos.piece(a).is_some_and(|p| p.owner == by)));
            }
        }
    }
}

// ---------------------------------------------------------------------------
// SC-I11: on the shipped boards no pawn has two motions to one cell, so two
// actions never differ in nothing but the pawn's final facing.

type Motion = (
    seams::topology::CellId,
    seams::movement::Facing,
    &'static str,
);

/// Every cell a pawn on `from` with `facing` could move to by one of its
/// motions (advance, double step, the two forward diagonals; en passant
/// lands by a forward diagonal), occupancy aside, with its final facing
/// and the motion's name. Mirrors SC-4.1 and SC-4.3 step by step.
fn pawn_motions(
    geo: &seams::geometry::Geometry,
    from: seams::topology::CellId,
    facing: seams::movement::Facing,
) -> Vec<Motion> {
    use seams::topology::Dir;
    let forward = facing.absolute(Dir::N);
    let mut out = Vec::new();
    if let Some(s1) = geo.step(from, forward)
        && s1.to != from
    {
        let f1 = facing.transported(s1.transport);
        out.push((s1.to, f1, "advance"));
        if let Some(s2) = geo.step(s1.to, s1.transport.apply(forward))
            && s2.to != from
        {
            out.push((s2.to, f1.transported(s2.transport), "double step"));
        }
    }
    for (rel, name) in [(Dir::NE, "forward-east"), (Dir::NW, "forward-west")] {
        if let Some(s) = geo.step(from, facing.absolute(rel))
            && s.to != from
        {
            out.push((s.to, facing.transported(s.transport), name));
        }
    }
    out
}

/// Every (cell, facing) from which two pawn motions end on one cell, as
/// text, and the number of motions looked at.
fn shared_pawn_cells(geo: &seams::geometry::Geometry) -> (Vec<String>, usize) {
    use seams::movement::Facing;
    let b = geo.board();
    let (mut found, mut motions) = (Vec::new(), 0);
    for from in b.cells() {
        for facing in [Facing::Up, Facing::Down] {
            let m = pawn_motions(geo, from, facing);
            motions += m.len();
            for (i, x) in m.iter().enumerate() {
                for y in m[i + 1..].iter().filter(|y| y.0 == x.0) {
                    found.push(format!(
                        "{} facing {}: {} by {} ({}) and {} ({})",
                        b.cell_name(from),
                        facing.name(),
                        b.cell_name(x.0),
                        x.2,
                        x.1.name(),
                        y.2,
                        y.1.name()
                    ));
                }
            }
        }
    }
    (found, motions)
}

#[test]
fn no_two_pawn_motions_share_a_cell_on_the_shipped_boards() {
    for name in ["chess-mobius", "chess-klein", "chess-genus2", "chess-flat"] {
        let v = variant(name);
        let (found, motions) = shared_pawn_cells(v.geometry());
        assert_eq!(found, Vec::<String>::new(), "{name}");
        // Not vacuous: most cells have all four motions.
        let cells = v.geometry().board().cells().count();
        assert!(motions > 3 * 2 * cells, "{name}: {motions}");
    }
}

/// The same check finds the collision where one exists: on a Möbius strip
/// two files wide, a pawn on a4 facing up reaches b5 by its forward-east
/// diagonal (inside the chart) and by its forward-west one (west across the
/// seam to b6, then north turned south by the flip: b5), facing down.
#[test]
fn pawn_motions_share_a_cell_on_a_narrow_strip() {
    let board = seams::topology::file::load(
        "mobius-2x9.toml",
        "name = \"mobius-2x9\"\ntitle = \"narrow\"\nwidth = 2\nheight = 9\n\
         [sides]\neast-west = \"translate-reversed\"\nnorth-south = \"boundary\"\n",
    )
    .unwrap();
    let (found, _) = shared_pawn_cells(&seams::geometry::Geometry::new(board));
    assert!(
        found.contains(&"a4 facing up: b5 by forward-east (up) and forward-west (down)".into()),
        "{found:?}"
    );
}

/// PROTOCOL.md's order-9 `ambiguous` row: two legal actions that differ
/// only in the pawn's final facing, told apart by the mark. No shipped
/// board has such a pair (SC-I11), so the row is pinned here, on the
/// two-file Möbius strip of the test above: the White pawn on a4 captures
/// the knight on b5 by either forward diagonal, arriving facing up or down.
#[test]
fn the_facing_mark_tells_two_pawn_captures_apart() {
    let board = "name = \"mobius-2x9\"\ntitle = \"narrow\"\nwidth = 2\nheight = 9\n\
         [sides]\neast-west = \"translate-reversed\"\nnorth-south = \"boundary\"\n";
    let lib = seams::spec::Library::from_files(vec![("mobius-2x9.toml".into(), board.into())])
        .expect("the narrow strip loads");
    let rules = "variant = \"chess-narrow\"\nboard = \"mobius-2x9\"\nrules-version = \"0.1\"\n\
         exchange = \"mirror-ranks\"\n\
         [[setup]]\nrank = \"1\"\nrow = \"K .\"\n\
         [promotion]\nrule = \"facing-last-rank\"\npieces = [\"Q\", \"R\", \"B\", \"N\"]\n\
         [endings]\nrepetition = 5\nmove-rule-halfmoves = 150\n\
         [pieces]\nking = { letter = \"K\", moves = \"K\", royal = true }\n\
         queen = { letter = \"Q\", moves = \"Q\" }\nrook = { letter = \"R\", moves = \"R\" }\n\
         bishop = { letter = \"B\", moves = \"B\" }\nknight = { letter = \"N\", moves = \"N\" }\n\
         pawn = { letter = \"P\", moves = \"mfWcfF\", pawn = true }\n";
    let chess = seams::chess::ChessRules::from_file("chess-narrow.toml", rules, &lib)
        .expect("the narrow variant loads");
    let pos = chess
        .parse_position("k1/2/2/2/1n/P1/2/2/K1 w - - 0 1")
        .expect("a valid position");
    let check = |text: &str| {
        chess
            .parse_action(&pos, text)
            .map(|_| ())
            .map_err(|e| e.code)
    };
    assert_eq!(check("a4-b5"), Err(seams::rules::IllegalReason::Ambiguous));
    assert_eq!(check("a4-b5^"), Ok(()));
    assert_eq!(check("a4-b5v"), Ok(()));
    let mut texts = chess.format_legal(&pos, &chess.legal_actions(&pos));
    texts.retain(|t| t.starts_with("a4-b5"));
    texts.sort();
    assert_eq!(texts, ["a4-b5^", "a4-b5v"]);
}
