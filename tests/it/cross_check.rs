//! Every corpus case whose provenance is a cross-check against an engine
//! available here is checked against that engine again, live: cases citing
//! cozy-chess are recounted by cozy-chess, cases citing haitaka by haitaka.
//! A cross-check case can therefore never drift into this engine's own
//! output. (Cases cross-checked with Fairy-Stockfish are re-asked by
//! `.ci/run` through tools/ffish-engine.)

use crate::common::other_engines::{cozy_perft, haitaka_perft, sfen};
use seams::conformance::{Check, Corpus, Provenance};
use seams::registry::find;
use seams::rules::Player;
use seams::variant::At;

/// The position a case's place names, as this engine writes it, and
/// whether the first player moves.
fn reached(variant: &str, position: Option<&str>, moves: &[String]) -> (String, bool) {
    let v = find(variant).expect("a shipped variant");
    let at = At { position, moves };
    let played = v.play(&at).expect("the case's place can be reached");
    (played.position, played.to_move == Player::First)
}

#[test]
fn cross_check_cases_agree_with_the_named_engine_now() {
    let corpus = Corpus::builtin().expect("the built-in corpus loads");
    let (mut cozy, mut haitaka, mut elsewhere) = (0, 0, 0);
    for (file, case) in &corpus.cases {
        let Provenance::CrossCheck { engine } = &case.provenance else {
            continue;
        };
        let Check::Perft {
            variant,
            at,
            depth,
            expect,
            ..
        } = &case.check
        else {
            elsewhere += 1;
            continue;
        };
        let (text, first) = reached(variant, at.position.as_deref(), &at.moves);
        let counted = if engine.starts_with("cozy-chess") {
            assert_eq!(variant, "chess-flat", "{}", case.id);
            cozy += 1;
            let board = cozy_chess::Board::from_fen(&text, false)
                .unwrap_or_else(|e| panic!("{}: cozy-chess cannot read {text}: {e:?}", case.id));
            cozy_perft(&board, *depth)
        } else if engine.starts_with("haitaka") {
            assert_eq!(variant, "shogi-flat", "{}", case.id);
            haitaka += 1;
            let board = haitaka::Board::from_sfen(&sfen(&text, first))
                .unwrap_or_else(|e| panic!("{}: haitaka cannot read {text}: {e:?}", case.id));
            haitaka_perft(&board, *depth)
        } else {
            elsewhere += 1;
            continue;
        };
        assert_eq!(counted, *expect, "{} ({file}) at {text}", case.id);
    }
    // The corpus must keep a real share of live cross-checks.
    assert!(
        cozy >= 10,
        "only {cozy} cases are cross-checked by cozy-chess"
    );
    assert!(
        haitaka >= 10,
        "only {haitaka} cases are cross-checked by haitaka"
    );
    assert!(elsewhere > 0);
}
