//! Surface chess: published perft on the flat control, agreement with an
//! independent engine, property tests for the player exchange and the
//! endings on all three surfaces, and the chess corpus cases.

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
        s.push(k.letter().to_ascii_lowercase());
    }
    s
}

fn cozy_moves(board: &cozy_chess::Board) -> Vec<cozy_chess::Move> {
    let mut out = Vec::new();
    board.generate_moves(|ms| {
        out.extend(ms);
        false
    });
    out
}

fn cozy_perft(board: &cozy_chess::Board, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let moves = cozy_moves(board);
    if depth == 1 {
        return moves.len() as u64;
    }
    moves
        .into_iter()
        .map(|m| {
            let mut b = board.clone();
            b.play_unchecked(m);
            cozy_perft(&b, depth - 1)
        })
        .sum()
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
                let mut theirs: Vec<String> = cozy_moves(&cozy).iter().map(|m| m.to_string()).collect();
                ours.sort();
                theirs.sort();
                assert_eq!(ours, theirs, "{}", v.format_position(&pos));
                if (game + ply) % 17 == 0 {
                    assert_eq!(v.perft(&pos, 2), cozy_perft(&cozy, 2));
                }
                if ply == 25 && game % 4 == 0 {
                    assert_eq!(v.perft(&pos, 3), cozy_perft(&cozy, 3), "{}", v.format_position(&pos));
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
