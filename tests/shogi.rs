//! Surface shogi: published perft for the flat control, geometric facts the
//! attack search relies on, property tests on all surfaces, and the corpus
//! cases of `conformance/cases/shogi`.

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
