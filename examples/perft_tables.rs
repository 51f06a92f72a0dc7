//! Writes the deep perft tables of `conformance/PERFT.md`.
//!
//! For every variant: the initial position to the deepest depth whose
//! projected time stays within a budget, then ten positions from seeded
//! random play, chosen to cover what engines get wrong (pieces in hand,
//! promoted pieces, pieces facing against their owner, an en-passant
//! capture on offer, check), each to depth 4, or 5 where that is quick.
//! The root is split across threads as `seams perft --threads` does, so
//! the counts are those of a single thread.
//!
//! Run with `cargo run --release --example perft_tables -- [SECONDS]
//! [THREADS] [VARIANT,…] > conformance/PERFT.md`: SECONDS is the budget
//! for one variant's initial position (default 20), THREADS the workers
//! (default every core), VARIANT the variants (default all). Progress goes
//! to stderr.

use std::collections::BTreeSet;
use std::time::Instant;

use seams::conformance::fuzz::rng::Rng;
use seams::registry;
use seams::variant::{At, Variant, divide_parallel};
use seams::walk::Walk;

/// Random positions per variant.
const POSITIONS: usize = 10;
/// Games played to find them.
const GAMES: u32 = 40;
/// The deepest depth tried from the initial position.
const MAX_START_DEPTH: u32 = 7;
/// A random position also gets depth 5 when depth 4 took less than this.
const QUICK_SECONDS: f64 = 0.15;

/// One perft count and its time.
struct Count {
    depth: u32,
    nodes: u64,
    seconds: f64,
}

/// A position met in random play, with what it holds.
struct Found {
    text: String,
    ply: usize,
    tags: BTreeSet<&'static str>,
}

fn perft(v: &dyn Variant, position: Option<&str>, depth: u32, threads: usize) -> Count {
    let at = At {
        position,
        moves: &[],
    };
    let t = Instant::now();
    let nodes = divide_parallel(v, &at, depth, threads)
        .unwrap_or_else(|e| panic!("{}: perft {depth}: {e}", v.name()))
        .iter()
        .map(|(_, n)| n)
        .sum();
    Count {
        depth,
        nodes,
        seconds: t.elapsed().as_secs_f64(),
    }
}

/// The initial position, one depth at a time, while the next depth's
/// projected time (this one's times the last growth) fits the budget.
fn start_counts(v: &dyn Variant, budget: f64, threads: usize) -> Vec<Count> {
    let mut counts: Vec<Count> = Vec::new();
    for depth in 1..=MAX_START_DEPTH {
        if let [.., a, b] = counts.as_slice() {
            let growth = (b.seconds / a.seconds.max(1e-4)).max(b.nodes as f64 / a.nodes as f64);
            if b.seconds * growth > budget {
                break;
            }
        }
        let c = perft(v, None, depth, threads);
        eprintln!(
            "  {} start depth {depth}: {} in {:.2} s",
            v.name(),
            c.nodes,
            c.seconds
        );
        counts.push(c);
    }
    counts
}

/// What a position holds that engines get wrong, as short tags.
fn tags(walk: &dyn Walk, promoted: bool, reversed: bool) -> BTreeSet<&'static str> {
    let mut t = BTreeSet::new();
    let n = walk.actions().len();
    if (0..n).any(|i| walk.facts(i).drop) {
        t.insert("hand");
    }
    if promoted {
        t.insert("promoted");
    }
    if reversed {
        t.insert("reversed");
    }
    if (0..n).any(|i| walk.en_passant(i).is_some()) {
        t.insert("en passant");
    }
    if walk.in_check() {
        t.insert("check");
    }
    t
}

/// Positions from seeded random games, between plies 6 and 70, of games
/// that have not ended.
fn candidates(v: &dyn Variant) -> Vec<Found> {
    let mut found = Vec::new();
    for game in 0..GAMES {
        let mut rng = Rng::for_game(1, v.name(), game, "perft-tables");
        let Ok(mut walk) = v.walk(None) else { break };
        let (mut promoted, mut reversed) = (false, false);
        let stop_at = rng.between(6, 70);
        while walk.result().is_none() && !walk.actions().is_empty() {
            let n = walk.actions().len();
            // Promotions and drops are favoured, so that hands and promoted
            // pieces are common.
            let weights: Vec<u32> = (0..n)
                .map(|i| {
                    let f = walk.facts(i);
                    1 + 6 * u32::from(f.promotes) + 2 * u32::from(f.drop)
                })
                .collect();
            let i = rng.weighted(&weights).unwrap_or(0);
            promoted |= walk.facts(i).promotes;
            reversed |= walk.board(i).against_owner;
            walk.play(i);
            if walk.plies() >= stop_at {
                break;
            }
        }
        if walk.result().is_none() && !walk.actions().is_empty() {
            found.push(Found {
                text: walk.position().to_string(),
                ply: walk.plies(),
                tags: tags(&*walk, promoted, reversed),
            });
        }
    }
    found
}

/// Ten of the candidates, each chosen for the most tags not yet shown
/// (then the most tags, then the earliest game).
fn choose(mut candidates: Vec<Found>) -> Vec<Found> {
    let mut chosen = Vec::new();
    let mut shown: BTreeSet<&str> = BTreeSet::new();
    while chosen.len() < POSITIONS && !candidates.is_empty() {
        let score = |f: &Found| (f.tags.difference(&shown).count(), f.tags.len());
        let best = (0..candidates.len())
            .max_by_key(|&i| (score(&candidates[i]), std::cmp::Reverse(i)))
            .unwrap_or(0);
        let f = candidates.remove(best);
        shown.extend(f.tags.iter().copied());
        chosen.push(f);
    }
    chosen
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let budget: f64 = args.first().and_then(|a| a.parse().ok()).unwrap_or(20.0);
    let threads: usize = args.get(1).and_then(|a| a.parse().ok()).unwrap_or_else(|| {
        std::thread::available_parallelism()
            .map(|n| n.get())
            .unwrap_or(1)
    });
    let only: Option<Vec<&str>> = args.get(2).map(|a| a.split(',').collect());
    let began = Instant::now();
    let mut start_rows = Vec::new();
    let mut random_rows = Vec::new();
    for v in registry::variants() {
        let v: &dyn Variant = v.as_ref();
        if only.as_ref().is_some_and(|o| !o.contains(&v.name())) {
            continue;
        }
        eprintln!("{}", v.name());
        for c in start_counts(v, budget, threads) {
            start_rows.push(format!(
                "| {} | {} | {} | {:.2} |",
                v.name(),
                c.depth,
                c.nodes,
                c.seconds
            ));
        }
        for (k, f) in choose(candidates(v)).into_iter().enumerate() {
            let mut counts = vec![perft(v, Some(&f.text), 4, threads)];
            if counts[0].seconds < QUICK_SECONDS {
                counts.push(perft(v, Some(&f.text), 5, threads));
            }
            let tags: Vec<&str> = f.tags.iter().copied().collect();
            let shown: Vec<String> = counts
                .iter()
                .map(|c| format!("{}: {} ({:.2} s)", c.depth, c.nodes, c.seconds))
                .collect();
            eprintln!("  {} position {}: {}", v.name(), k + 1, shown.join(", "));
            random_rows.push(format!(
                "| {} | {} | {} | `{}` | {} | {} |",
                v.name(),
                k + 1,
                f.ply,
                f.text,
                if tags.is_empty() {
                    "—".to_string()
                } else {
                    tags.join(", ")
                },
                shown.join("<br>")
            ));
        }
    }
    println!("## Initial positions\n");
    println!("| variant | depth | nodes | seconds |");
    println!("|---|---|---|---|");
    for r in start_rows {
        println!("{r}");
    }
    println!("\n## Positions from seeded random play\n");
    println!("| variant | # | ply | position | holds | depth: nodes (seconds) |");
    println!("|---|---|---|---|---|---|");
    for r in random_rows {
        println!("{r}");
    }
    println!(
        "\nGenerated by `cargo run --release --example perft_tables -- {budget} {threads}{}` \
         in {:.0} s.",
        args.get(2).map(|a| format!(" {a}")).unwrap_or_default(),
        began.elapsed().as_secs_f64()
    );
}
