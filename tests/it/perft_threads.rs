//! `seams perft --threads N` splits the root across threads and must give
//! the counts one thread gives, on every variant.

use crate::common::seams;
use seams::registry;
use seams::variant::{At, divide_parallel};

#[test]
fn every_variant_counts_the_same_with_one_two_and_three_threads() {
    for v in registry::variants() {
        let at = At::default();
        let one = divide_parallel(v.as_ref(), &at, 3, 1).unwrap();
        assert_eq!(one, v.divide(&at, 3).unwrap(), "{}", v.name());
        for threads in [2, 3] {
            let many = divide_parallel(v.as_ref(), &at, 3, threads).unwrap();
            assert_eq!(many, one, "{} with {threads} threads", v.name());
        }
    }
}

#[test]
fn moves_played_first_are_kept_under_every_root_action() {
    let moves = ["e2-e4".to_string(), "e8-e6".to_string()];
    let v = seams::registry::find("chess-mobius").unwrap();
    let at = At {
        position: None,
        moves: &moves,
    };
    assert_eq!(
        divide_parallel(v, &at, 2, 2).unwrap(),
        v.divide(&at, 2).unwrap()
    );
}

#[test]
fn the_command_prints_the_published_count_with_two_threads() {
    let r = seams(&["perft", "shogi-flat", "3", "--threads", "2"]);
    assert_eq!((r.code, r.stdout.trim()), (0, "25470"), "{}", r.stderr);
    let r = seams(&["perft", "shogi-flat", "1", "--threads", "0"]);
    assert_eq!(r.code, 2, "{}", r.stderr);
    assert!(r.stderr.contains("0 is not in 1..=1024"), "{}", r.stderr);
}
