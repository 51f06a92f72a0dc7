//! How strong the practice opponent is, variant by variant: a measurement
//! to run and read, not a test (nothing is asserted, and it takes
//! minutes).
//!
//! ```text
//! cargo run --release --example opponent_strength -- [GAMES] [NODES] [VARIANT,…]
//! ```
//!
//! A comma-separated list of variant names measures only those.
//!
//! For every shipped variant it prints one row:
//!
//! - *mate in one*: positions with a mate in one (any action after which
//!   the opponent has no legal action and the family gives the mover the
//!   game), sampled from seeded random games, and how many of them each
//!   level solves;
//! - *hanging*: positions from the same games where a piece of the player
//!   to move hangs (the opponent, were it to move, could win material by
//!   an exchange of captures, each side free to stop), the player has no
//!   capture or promotion of its own and some action saves it; how many
//!   choices of each level leave nothing to win that way;
//! - *vs level 0*: GAMES games (default 100) of the strongest level
//!   against level 0 through `choose_in_game`, colours alternating, seeds
//!   varying by game and ply, each game won by the result (checkmate, no
//!   legal action, …) or, at ply 200, by material lead: wins, draws,
//!   losses, how the wins came, and the mean length in plies.
//!
//! Every search has a budget of NODES positions a move (default 2000), so
//! the figures do not depend on the machine; the time taken is printed.

#[path = "../tests/common/opponent_probe.rs"]
mod probe;

use std::sync::atomic::AtomicBool;
use std::time::Instant;

use seams::opponent::{Budget, MAX_LEVEL, Settings, choose};
use seams::rules::{Player, Rules};

/// The ply at which an unfinished game is judged by material.
const PLY_LIMIT: usize = 200;
/// Sampled positions of each kind, at most, and the random games they are
/// sampled from.
const SAMPLES: usize = 20;
const SAMPLE_GAMES: u64 = 30;

fn main() {
    let arg = |i: usize, default: u64| {
        std::env::args()
            .nth(i)
            .map(|a| a.parse::<u64>().expect("GAMES and NODES are whole numbers"))
            .unwrap_or(default)
    };
    let (games, nodes) = (arg(1, 100), arg(2, 2000));
    let only: Option<Vec<String>> = std::env::args()
        .nth(3)
        .map(|list| list.split(',').map(str::to_string).collect());
    let wanted = |name: &str| only.as_ref().is_none_or(|o| o.iter().any(|n| n == name));
    println!(
        "Practice opponent: level {MAX_LEVEL} against level 0, {games} games a variant \
         (colours alternating, material decides at ply {PLY_LIMIT}); \
         every search has {nodes} nodes a move."
    );
    println!(
        "{:<22} {:>5} {:<24} {:>5} {:<24} {:<26} {:>6} {:>7}",
        "variant",
        "mates",
        "found by level 0..",
        "hangs",
        "saved by level 0..",
        "vs level 0: W-D-L (how)",
        "plies",
        "time"
    );
    let start = Instant::now();
    for v in seams::shogi::builtin_variants() {
        if wanted(v.variant()) {
            row(&v, games, nodes);
        }
    }
    for v in seams::chess::builtin_variants() {
        if wanted(v.variant()) {
            row(&v, games, nodes);
        }
    }
    for v in seams::tetra::builtin_variants() {
        if wanted(v.variant()) {
            row(&v, games, nodes);
        }
    }
    for v in seams::kyoto::builtin_variants() {
        if wanted(v.variant()) {
            row(&v, games, nodes);
        }
    }
    println!("total time {:.0} s", start.elapsed().as_secs_f64());
}

fn settings(level: u8, nodes: u64, seed: u64) -> Settings {
    Settings::new(level, Budget::Nodes(nodes), seed).expect("a level up to MAX_LEVEL")
}

/// One variant's row.
fn row<R: Rules>(rules: &R, games: u64, nodes: u64) {
    let t = Instant::now();
    let (mates, hanging) = sample(rules);
    let stop = AtomicBool::new(false);
    let per_level = |positions: &[R::Position], good: &dyn Fn(&R::Position, &R::Action) -> bool| {
        (0..=MAX_LEVEL)
            .map(|level| {
                let solved = positions
                    .iter()
                    .filter(|pos| {
                        let choice = choose(rules, pos, &settings(level, nodes, 1), &stop)
                            .expect("a sampled position has an action");
                        good(pos, &choice.action)
                    })
                    .count();
                solved.to_string()
            })
            .collect::<Vec<_>>()
            .join(" ")
    };
    let found = per_level(&mates, &|pos, a| probe::wins_at_once(rules, pos, a));
    let saved = per_level(&hanging, &|pos, a| {
        probe::winning_capture(rules, &rules.apply(pos, a)).is_none()
    });
    let (mut won, mut drawn, mut lost, mut plies) = (0, 0, 0, 0);
    let (mut by_result, mut by_material) = (0, 0);
    for game in 0..games {
        let strong = if game % 2 == 0 {
            Player::First
        } else {
            Player::Second
        };
        let mut pair = [settings(0, nodes, game), settings(0, nodes, game)];
        pair[strong.index()] = settings(MAX_LEVEL, nodes, game);
        let played = probe::play_game(rules, &pair, PLY_LIMIT);
        plies += played.plies;
        match played.winner(rules) {
            Some(w) if w == strong => {
                won += 1;
                if played.result.is_some() {
                    by_result += 1;
                } else {
                    by_material += 1;
                }
            }
            Some(_) => lost += 1,
            None => drawn += 1,
        }
    }
    println!(
        "{:<22} {:>5} {:<24} {:>5} {:<24} {:<26} {:>6.0} {:>6.0}s",
        rules.variant(),
        mates.len(),
        found,
        hanging.len(),
        saved,
        format!("{won}-{drawn}-{lost} ({by_result} result, {by_material} mat.)"),
        plies as f64 / games.max(1) as f64,
        t.elapsed().as_secs_f64()
    );
}

/// Positions with a mate in one, and positions with a hanging piece that
/// can be saved, from seeded games of level 0 against itself.
fn sample<R: Rules>(rules: &R) -> (Vec<R::Position>, Vec<R::Position>) {
    let (mut mates, mut hanging) = (Vec::new(), Vec::new());
    let stop = AtomicBool::new(false);
    for seed in 0..SAMPLE_GAMES {
        if mates.len() >= SAMPLES && hanging.len() >= SAMPLES {
            break;
        }
        let mut pos = rules.start();
        for _ in 0..PLY_LIMIT {
            let Some(choice) = choose(rules, &pos, &settings(0, 1, seed), &stop) else {
                break;
            };
            if mates.len() < SAMPLES && !probe::mates_in_one(rules, &pos).is_empty() {
                mates.push(pos.clone());
            } else if hanging.len() < SAMPLES && saveable(rules, &pos) {
                hanging.push(pos.clone());
            }
            pos = rules.apply(&pos, &choice.action);
        }
    }
    (mates, hanging)
}

/// A piece of the player to move hangs, the player is not in check and
/// has no capture or promotion (so saving the piece is the point), and
/// some action saves it.
fn saveable<R: Rules>(rules: &R, pos: &R::Position) -> bool {
    let me = rules.to_move(pos).index();
    let before = rules.material(pos);
    let quiet = |a: &R::Action| {
        let after = rules.material(&rules.apply(pos, a));
        after[1 - me] >= before[1 - me] && after[me] <= before[me]
    };
    // Cheapest test first: the probes play out exchanges.
    !rules.in_check(pos)
        && rules.legal_actions(pos).iter().all(quiet)
        && probe::hangs(rules, pos)
        && !probe::safe_actions(rules, pos).is_empty()
}
