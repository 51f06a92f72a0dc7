//! Flat-control perft speed next to dedicated engines: this engine's
//! chess-flat against cozy-chess, and shogi-flat against haitaka, from the
//! same positions at the same depths. Run with `cargo bench --bench
//! versus`; it prints one line per pair and asserts nothing about time.
//!
//! The counts of each pair must agree, so the comparison is of equal work.

#[path = "../tests/common/other_engines.rs"]
mod other_engines;

use std::time::{Duration, Instant};

use other_engines::{cozy_perft, haitaka_perft, sfen};
use seams::rules::Rules;

/// The best of `runs` timings of `f`, with its result.
fn best<T: PartialEq + std::fmt::Debug>(runs: usize, f: impl Fn() -> T) -> (T, Duration) {
    let mut out = None;
    let mut fastest = Duration::MAX;
    for _ in 0..runs {
        let t = Instant::now();
        let v = f();
        fastest = fastest.min(t.elapsed());
        if let Some(prev) = &out {
            assert_eq!(prev, &v, "the same work gives the same count");
        }
        out = Some(v);
    }
    (out.expect("at least one run"), fastest)
}

fn line(what: &str, nodes: u64, ours: Duration, theirs: Duration, other: &str) {
    println!(
        "{what:<34} {nodes:>10} nodes  seams {:>8.1} ms  {other} {:>8.1} ms  ratio {:>5.2}",
        ours.as_secs_f64() * 1e3,
        theirs.as_secs_f64() * 1e3,
        ours.as_secs_f64() / theirs.as_secs_f64()
    );
}

fn main() {
    let chess = seams::chess::builtin_variant("chess-flat").expect("chess-flat");
    for (name, fen, depth) in [
        (
            "chess start",
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            5,
        ),
        (
            "chess kiwipete",
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            4,
        ),
    ] {
        let pos = chess.parse_position(fen).expect("a FEN");
        let board = cozy_chess::Board::from_fen(fen, false).expect("a FEN");
        let (n, ours) = best(3, || chess.perft(&pos, depth));
        let (m, theirs) = best(3, || cozy_perft(&board, depth));
        assert_eq!(n, m, "{name}: the engines disagree");
        line(
            &format!("{name} perft {depth}"),
            n,
            ours,
            theirs,
            "cozy-chess",
        );
    }
    let shogi = seams::shogi::builtin_variant("shogi-flat").expect("shogi-flat");
    let start = shogi.start();
    let text = shogi.format_position(&start);
    let board = haitaka::Board::from_sfen(&sfen(&text, true)).expect("an SFEN");
    for depth in [3, 4] {
        let (n, ours) = best(3, || shogi.perft(&start, depth));
        let (m, theirs) = best(3, || haitaka_perft(&board, depth));
        assert_eq!(n, m, "shogi start: the engines disagree");
        line(
            &format!("shogi start perft {depth}"),
            n,
            ours,
            theirs,
            "haitaka",
        );
    }
}
