//! Verifying a very long game record: time and peak memory of
//! `seams record verify` on a legal record of a million plies (set
//! `SEAMS_RECORD_PLIES` for another length), generated here by seeded
//! random play on the Klein-bottle shogi board with no position reaching a
//! fourth occurrence, so the game never ends.
//!
//! Run with `cargo bench --bench long_record`. It measures; it asserts
//! nothing about speed.

use std::collections::HashMap;
use std::time::Instant;

use seams::rules::{Game, Rules};

/// A small deterministic generator (xorshift64*), so every run plays the
/// same game.
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        (self.0.wrapping_mul(0x2545_f491_4f6c_dd1d) >> 33) as usize % n
    }
}

/// The action texts of a game of `plies` plies that never ends.
fn long_game(plies: usize) -> Vec<String> {
    let rules = seams::shogi::builtin_variants()
        .into_iter()
        .find(|v| v.variant() == "shogi-klein")
        .expect("shogi-klein is built in");
    let mut game = Game::new(&rules, rules.start());
    let mut seen: HashMap<String, u32> = HashMap::new();
    let mut rng = Rng(0x0005_ea45);
    let mut texts = Vec::with_capacity(plies);
    while texts.len() < plies {
        let pos = game.position().clone();
        let mut moves = rules.legal_actions(&pos);
        // Try moves in random order until one keeps the game going: not a
        // fourth occurrence, and the opponent still has a legal action.
        let mut chosen = None;
        while !moves.is_empty() {
            let a = moves.swap_remove(rng.below(moves.len()));
            let next = rules.apply(&pos, &a);
            let key = rules.key(&next);
            if seen.get(&key).copied().unwrap_or(0) < 3 && !rules.legal_actions(&next).is_empty() {
                *seen.entry(key).or_default() += 1;
                chosen = Some(a);
                break;
            }
        }
        let a = chosen.expect("some action keeps the game going");
        texts.push(rules.format_action(&pos, &a));
        game.play(a);
        assert!(game.result().is_none(), "the game goes on");
    }
    texts
}

/// The peak resident memory (`VmHWM`) of a running process, in KiB.
/// Read from `/proc` while the child runs: the peak of the children counted
/// by `getrusage` would include this process's own memory, which a child
/// shares until it starts the new program.
fn peak_kib(pid: u32) -> Option<u64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

fn main() {
    let plies: usize = std::env::var("SEAMS_RECORD_PLIES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(1_000_000);
    let started = Instant::now();
    let texts = long_game(plies);
    eprintln!(
        "generated {plies} plies in {:.1} s",
        started.elapsed().as_secs_f64()
    );
    let record = serde_json::json!({
        "variant": "shogi-klein",
        "rules": "0.2",
        "start": {"kind": "initial"},
        "actions": texts,
        "result": null,
    });
    let file = std::env::temp_dir().join(format!("seams-long-record-{}.json", std::process::id()));
    std::fs::write(&file, record.to_string()).expect("the record is written");
    let bytes = std::fs::metadata(&file).map(|m| m.len()).unwrap_or(0);
    drop(record);
    let started = Instant::now();
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_seams"))
        .args(["record", "verify"])
        .arg(&file)
        .stdout(std::process::Stdio::piped())
        .spawn()
        .expect("seams runs");
    let mut peak = 0;
    while child
        .try_wait()
        .expect("the child can be waited for")
        .is_none()
    {
        peak = peak.max(peak_kib(child.id()).unwrap_or(0));
        std::thread::sleep(std::time::Duration::from_millis(10));
    }
    let out = child.wait_with_output().expect("seams ends");
    let seconds = started.elapsed().as_secs_f64();
    if std::env::var_os("SEAMS_RECORD_KEEP").is_some() {
        eprintln!("kept {}", file.display());
    } else {
        let _ = std::fs::remove_file(&file);
    }
    println!(
        "record verify: {plies} plies, {:.1} MB of JSON: {seconds:.1} s, peak memory {:.0} MB; {}",
        bytes as f64 / 1e6,
        peak as f64 / 1024.0,
        String::from_utf8_lossy(&out.stdout).trim()
    );
}
