//! Writes the sample game records in `conformance/records/`.
//!
//! For each variant it plays seeded random legal games through [`Game`]
//! (so every ending is adjudicated by the rules) and keeps, for each way a
//! game can end, the first game found that ends that way. A game that
//! reaches the ply cap without ending is closed by resignation or an
//! agreed draw, which are recorded actions. Run with
//! `cargo run --release --example sample_games`; the records are then
//! replayed by `seams record verify` in `tests/it/cli.rs`.

use std::collections::BTreeMap;
use std::path::Path;

use seams::record::{Record, RecordStart};
use seams::rules::{EndReason, Game, Rules};

/// A small deterministic generator (xorshift64*), so records are stable.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
}

/// Plays one seeded game; `shuffle` makes repetitions likely by preferring
/// king moves back and forth when `true`.
fn play<R: Rules>(rules: &R, seed: u64, cap: usize) -> (Vec<String>, Option<EndReason>) {
    let mut rng = Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1);
    let mut game = Game::new(rules, rules.start());
    let mut texts = Vec::new();
    while game.result().is_none() && texts.len() < cap {
        let mut legal = rules.legal_actions(game.position());
        legal.sort();
        let a = legal[(rng.next() % legal.len() as u64) as usize].clone();
        texts.push(rules.format_action(game.position(), &a));
        game.play(a);
    }
    let reason = game.result().map(|r| r.reason);
    if reason.is_none() {
        // Close an unfinished game with a recorded decision.
        let last = if seed.is_multiple_of(2) {
            "resign"
        } else {
            "draw"
        };
        game.play_text(last)
            .expect("a game in progress accepts a decision");
        texts.push(last.to_string());
        let closed = game.result().map(|r| r.reason);
        return (texts, closed);
    }
    (texts, reason)
}

fn reason_name(r: EndReason) -> String {
    serde_json::to_value(r)
        .ok()
        .and_then(|v| v.as_str().map(String::from))
        .unwrap_or_default()
}

/// `plies` seeded random legal actions from the start, or `None` if the
/// game ends by the rules before that.
fn opening<R: Rules>(rules: &R, seed: u64, plies: usize) -> Option<Vec<String>> {
    let mut rng = Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1);
    let mut game = Game::new(rules, rules.start());
    let mut texts = Vec::new();
    while texts.len() < plies {
        if game.result().is_some() {
            return None;
        }
        let mut legal = rules.legal_actions(game.position());
        legal.sort();
        let a = legal[(rng.next() % legal.len() as u64) as usize].clone();
        texts.push(rules.format_action(game.position(), &a));
        game.play(a);
    }
    game.result().is_none().then_some(texts)
}

/// A game that shuffles one piece of each side out and back until the
/// repetition rule ends it: the first reversible four-ply cycle found from
/// the start (each move's reverse, `b-a` for `a-b`, must be legal).
fn repetition_game<R: Rules>(rules: &R) -> Option<Vec<String>> {
    let start = rules.start();
    let reverse = |text: &str| {
        let (a, b) = text.split_once('-')?;
        let b = b.trim_end_matches(['=', '+', '^', 'v']);
        Some(format!("{b}-{a}"))
    };
    for m in rules.legal_actions(&start) {
        let m_text = rules.format_action(&start, &m);
        let p1 = rules.apply(&start, &m);
        for o in rules.legal_actions(&p1) {
            let o_text = rules.format_action(&p1, &o);
            let p2 = rules.apply(&p1, &o);
            let Some(back) = reverse(&m_text).and_then(|t| rules.parse_action(&p2, &t).ok()) else {
                continue;
            };
            let back_text = rules.format_action(&p2, &back);
            let p3 = rules.apply(&p2, &back);
            let Some(o_back) = reverse(&o_text).and_then(|t| rules.parse_action(&p3, &t).ok())
            else {
                continue;
            };
            let o_back_text = rules.format_action(&p3, &o_back);
            if rules.key(&rules.apply(&p3, &o_back)) != rules.key(&start) {
                continue;
            }
            let cycle = [m_text.clone(), o_text, back_text, o_back_text];
            let mut game = Game::new(rules, start.clone());
            let mut texts = Vec::new();
            while game.result().is_none() && texts.len() < 64 {
                let t = &cycle[texts.len() % 4];
                game.play_text(t).ok()?;
                texts.push(t.clone());
            }
            return game.result().is_some().then_some(texts);
        }
    }
    None
}

/// Searches seeds for games ending in each wanted reason and writes them.
fn sample<R: Rules>(rules: &R, wanted: &[EndReason], cap: usize, seeds: u64, out: &Path) {
    let mut found: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for seed in 0..seeds {
        if found.len() == wanted.len() {
            break;
        }
        let (moves, reason) = play(rules, seed, cap);
        let Some(reason) = reason else { continue };
        let name = reason_name(reason);
        if wanted.contains(&reason) && !found.contains_key(&name) {
            found.insert(name, moves);
        }
    }
    // Recorded decisions, where no random game was long enough to be
    // closed by one: a short random opening, then the decision.
    for (reason, decision) in [
        (EndReason::Resignation, "resign"),
        (EndReason::Agreement, "draw"),
    ] {
        let name = reason_name(reason);
        if wanted.contains(&reason)
            && !found.contains_key(&name)
            && let Some(mut moves) = opening(rules, 7, 20)
        {
            moves.push(decision.to_string());
            found.insert(name, moves);
        }
    }
    // Random play rarely repeats a position often enough; shuffle instead.
    if wanted.contains(&EndReason::Repetition)
        && !found.contains_key("repetition")
        && let Some(moves) = repetition_game(rules)
    {
        found.insert("repetition".into(), moves);
    }
    let v: &dyn seams::variant::Variant = rules;
    for (reason, actions) in found {
        let played = v
            .play(&seams::variant::At {
                position: None,
                moves: &actions,
            })
            .expect("the generator plays legal actions");
        // Format 1 on purpose: these records are also the test that the
        // first record format is still read (tests/it/play.rs).
        let record = Record {
            format: None,
            variant: rules.variant().to_string(),
            rules: rules.rules_version().to_string(),
            start: RecordStart::Initial,
            actions,
            result: played.result,
            final_position: Some(played.position),
            rights: None,
            repetitions: None,
        };
        let path = out.join(format!("{}-{reason}.json", rules.variant()));
        let text = serde_json::to_string_pretty(&record).expect("records serialize") + "\n";
        std::fs::write(&path, text).expect("write the record");
        println!("{}", path.display());
    }
}

fn main() {
    let out = Path::new(env!("CARGO_MANIFEST_DIR")).join("conformance/records");
    std::fs::create_dir_all(&out).expect("create conformance/records");
    use EndReason::*;
    for v in seams::shogi::builtin_variants() {
        if v.variant() != "shogi-flat" {
            sample(
                &v,
                &[Checkmate, NoLegalAction, Repetition, Resignation, Agreement],
                600,
                400,
                &out,
            );
        }
    }
    for v in seams::chess::builtin_variants() {
        if v.variant() != "chess-flat" {
            sample(
                &v,
                &[
                    Checkmate,
                    Stalemate,
                    BareKings,
                    Repetition,
                    MoveRule,
                    Resignation,
                    Agreement,
                ],
                1200,
                300,
                &out,
            );
        }
    }
    for v in seams::kyoto::builtin_variants() {
        sample(
            &v,
            &[
                Checkmate,
                NoLegalAction,
                Repetition,
                PerpetualCheck,
                Resignation,
            ],
            400,
            400,
            &out,
        );
    }
}
