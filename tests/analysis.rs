//! Surface shogi's analysis mode: either army may be moved, and king-safety
//! filtering may be switched off while every other rule stays.

use proptest::prelude::*;
use seams::rules::{Player, Rules};
use seams::shogi::builtin_variants;

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn analysis_agrees_with_play_and_only_relaxes_king_safety(
        variant in 0usize..4,
        seed in prop::collection::vec(any::<u16>(), 0..30),
    ) {
        let rules = &builtin_variants()[variant];
        let mut pos = rules.start();
        for s in seed {
            let legal = rules.legal_actions(&pos);
            if legal.is_empty() {
                break;
            }
            pos = rules.apply(&pos, &legal[s as usize % legal.len()]);
        }
        let me = rules.to_move(&pos);
        let mut legal = rules.legal_actions(&pos);
        legal.sort();
        // For the side to move with king safety on, analysis is play.
        let (_, mut same) = rules.analysis_actions(&pos, me, true).expect("shogi has analysis");
        same.sort();
        prop_assert_eq!(&same, &legal);
        for army in [Player::First, Player::Second] {
            let (_, safe) = rules.analysis_actions(&pos, army, true).expect("analysis");
            let (_, free) = rules.analysis_actions(&pos, army, false).expect("analysis");
            // Switching king safety off only adds actions.
            prop_assert!(safe.iter().all(|a| free.contains(a)));
            // The other army's safe actions are its legal moves were it to move.
            if army != me {
                let (seen, _) = rules.analysis_actions(&pos, army, true).expect("analysis");
                let mut direct = rules.legal_actions(&seen);
                direct.sort();
                let mut safe = safe.clone();
                safe.sort();
                prop_assert_eq!(safe, direct);
            }
        }
    }
}
