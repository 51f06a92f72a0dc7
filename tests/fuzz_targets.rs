//! The fuzz targets of `seams::fuzz_targets` on stable Rust, in process.
//!
//! Two trials per target: `fuzz::<target>` mutates seed inputs for a time
//! (`SEAMS_FUZZ_SECONDS`, default 2) or a number of inputs
//! (`SEAMS_FUZZ_INPUTS`, which then ignores the time unless both are set);
//! `regressions::<target>` replays every file in
//! `tests/fuzz-regressions/<target>/`. Seeds come from the corpus, the
//! records and the spec; mutations are structure-aware (tokens, ranks,
//! numbers, JSON values, lines) besides byte flips, inserts, deletes,
//! splices and repeats, so most inputs stay near a valid one. The
//! generator is seeded (`SEAMS_FUZZ_SEED`, printed with every run; fixed
//! by default, `random` for one from the clock), so a seed and an input
//! count reproduce a run exactly. An input that breaks
//! a target is shrunk, written to `tests/fuzz-regressions/<target>/<hash>`
//! and named in the failure.
//!
//! `tests/fuzz-open.txt` lists open findings: failures reported but not
//! fixed yet (in code this change does not own), each with the regression
//! input that shows it. A fuzz run counts the inputs that meet one and goes
//! on; the regression trial checks that each listed input still fails that
//! way, so the line goes when the fix comes. Anything unlisted fails.
//!
//! `SEAMS_FUZZ_INPUTS=10000000 cargo test --release --test fuzz_targets -- action`
//! is a long run of one target. The same targets run under libFuzzer from
//! `fuzz/` (see `fuzz/README.md`).

use std::cell::RefCell;
use std::collections::HashSet;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use libtest_mimic::{Arguments, Failed, Trial};
use seams::conformance::engine::{AskError, Embedded, Engine};
use seams::conformance::protocol::{Command, Hello, Request};
use seams::conformance::reference::Reference;
use seams::conformance::run::{EngineChoice, Run};
use seams::conformance::{Check, Corpus};
use seams::fuzz_targets::{TARGETS, Target};
use seams::variant::Variant;
use serde_json::Value;

const ROOT: &str = env!("CARGO_MANIFEST_DIR");

/// The most inputs kept for mutation besides the seeds.
const POOL: usize = 4096;

/// How often a long run reports its progress.
const PROGRESS: Duration = Duration::from_secs(60);

/// The generator's seed unless `SEAMS_FUZZ_SEED` names one.
const DEFAULT_SEED: u64 = 0x5eed_f022;

fn main() {
    std::panic::set_hook(Box::new(record_panic));
    let args = Arguments::from_args();
    let budget = Budget::from_env();
    let open = match open_findings() {
        Ok(o) => o,
        Err(message) => {
            let trial = Trial::test("open-findings", move || Err(message.into()));
            libtest_mimic::run(&args, vec![trial]).exit();
        }
    };
    let mut trials = Vec::new();
    for (name, target) in TARGETS {
        let mine: Vec<Open> = open.iter().filter(|o| o.target == name).cloned().collect();
        let for_fuzz = mine.clone();
        trials.push(Trial::test(format!("fuzz::{name}"), move || {
            fuzz(name, target, budget, &for_fuzz)
        }));
        trials.push(Trial::test(format!("regressions::{name}"), move || {
            regressions(name, target, &mine)
        }));
    }
    libtest_mimic::run(&args, trials).exit();
}

/// One line of `tests/fuzz-open.txt`.
#[derive(Clone, Debug)]
struct Open {
    target: String,
    /// The regression input (a file name in the target's folder).
    input: String,
    /// A glob (`*`, `?`) the failure message matches.
    pattern: String,
}

impl Open {
    fn matches(&self, message: &str) -> bool {
        seams::conformance::runner::glob_match(&self.pattern, message)
    }
}

/// Reads `tests/fuzz-open.txt`: `<target> <input> <message glob>` per
/// line, `#` comments.
fn open_findings() -> Result<Vec<Open>, String> {
    let path = Path::new(ROOT).join("tests/fuzz-open.txt");
    let text = std::fs::read_to_string(&path).map_err(|e| format!("{}: {e}", path.display()))?;
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let mut words = line.splitn(3, ' ');
        let (Some(target), Some(input), Some(pattern)) = (words.next(), words.next(), words.next())
        else {
            return Err(format!(
                "{}:{}: expected '<target> <input> <message glob>'",
                path.display(),
                i + 1
            ));
        };
        if !TARGETS.iter().any(|(t, _)| *t == target) {
            return Err(format!(
                "{}:{}: no target '{target}'",
                path.display(),
                i + 1
            ));
        }
        out.push(Open {
            target: target.to_string(),
            input: input.to_string(),
            pattern: pattern.to_string(),
        });
    }
    Ok(out)
}

#[derive(Clone, Copy, Debug)]
struct Budget {
    time: Option<Duration>,
    inputs: Option<u64>,
    seed: u64,
}

impl Budget {
    fn from_env() -> Budget {
        let var = |name: &str| std::env::var(name).ok().filter(|v| !v.trim().is_empty());
        let number = |name: &str| {
            var(name).map(|v| {
                let v = v.trim();
                let parsed = match v.strip_prefix("0x") {
                    Some(hex) => u64::from_str_radix(hex, 16).ok(),
                    None => v.parse::<u64>().ok(),
                };
                parsed.unwrap_or_else(|| panic!("{name}={v} is not a whole number"))
            })
        };
        let inputs = number("SEAMS_FUZZ_INPUTS");
        let seconds = var("SEAMS_FUZZ_SECONDS").map(|v| {
            v.trim()
                .parse::<f64>()
                .ok()
                .filter(|s| s.is_finite() && *s >= 0.0)
                .unwrap_or_else(|| panic!("SEAMS_FUZZ_SECONDS={v} is not a number of seconds"))
        });
        // A count alone runs to the count; time alone, or neither, to the
        // time (2 s by default, enough to catch a regression on every run).
        let time = match (inputs, seconds) {
            (Some(_), None) => None,
            (_, s) => Some(Duration::from_secs_f64(s.unwrap_or(2.0))),
        };
        // A fixed seed by default, so that `cargo test` (and CI) fails only
        // when the code changes; `random` explores from the clock.
        let seed = if var("SEAMS_FUZZ_SEED").is_some_and(|v| v.trim() == "random") {
            let now = std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .unwrap_or_default();
            splitmix(now.as_nanos() as u64 ^ u64::from(std::process::id()))
        } else {
            number("SEAMS_FUZZ_SEED").unwrap_or(DEFAULT_SEED)
        };
        Budget { time, inputs, seed }
    }
}

// ---------------------------------------------------------------- running

thread_local! {
    /// The last panic on this thread: (location, message).
    static PANIC: RefCell<Option<(String, String)>> = const { RefCell::new(None) };
}

/// Keeps the panic for the trial instead of printing it: a fuzz run panics
/// on purpose while shrinking an input, thousands of times.
fn record_panic(info: &std::panic::PanicHookInfo<'_>) {
    let message = if let Some(s) = info.payload().downcast_ref::<&str>() {
        s.to_string()
    } else if let Some(s) = info.payload().downcast_ref::<String>() {
        s.clone()
    } else {
        "(a panic without a message)".to_string()
    };
    let location = info
        .location()
        .map(|l| format!("{}:{}", l.file(), l.line()))
        .unwrap_or_default();
    PANIC.with(|p| *p.borrow_mut() = Some((location, message)));
}

/// Runs one input: `Ok(fingerprint)` or `Err((location, message))`.
fn run_one(target: Target, input: &[u8]) -> Result<u64, (String, String)> {
    catch_unwind(AssertUnwindSafe(|| target(input))).map_err(|_| {
        PANIC
            .with(|p| p.borrow_mut().take())
            .unwrap_or_else(|| (String::new(), "(no panic recorded)".into()))
    })
}

fn fuzz(name: &'static str, target: Target, budget: Budget, open: &[Open]) -> Result<(), Failed> {
    let seed = budget.seed ^ seams::fuzz_targets::hash(name.as_bytes());
    let mut rng = Rng(seed);
    let seeds = seeds(name);
    if seeds.is_empty() {
        return Err(format!("no seed inputs for {name}").into());
    }
    let dict = dictionary(name);
    let max_len = max_len(name);
    let started = Instant::now();
    let mut shapes: HashSet<u64> = HashSet::new();
    let mut pool: Vec<Vec<u8>> = Vec::new();
    let mut count: u64 = 0;
    // Inputs that met an open finding, by finding.
    let mut met = vec![0u64; open.len()];
    let mut known =
        |(_, message): &(String, String)| match open.iter().position(|o| o.matches(message)) {
            Some(i) => {
                met[i] += 1;
                true
            }
            None => false,
        };
    let fail = |input: &[u8], (location, message): (String, String), count: u64| -> Failed {
        let input = shrink(target, input, &location, &message);
        let saved = save(name, &input);
        format!(
            "{name}: {message}\n  at {location}\n  input saved to {}\n  (seed {seed:#x}, after {count} inputs)",
            saved.display()
        )
        .into()
    };
    for s in &seeds {
        count += 1;
        match run_one(target, s) {
            Ok(shape) => {
                shapes.insert(shape);
            }
            Err(e) if known(&e) => {}
            Err(e) => return Err(fail(s, e, count)),
        }
    }
    let mut report_at = started + PROGRESS;
    loop {
        if budget.inputs.is_some_and(|n| count >= n) {
            break;
        }
        // Long runs say how far they are, on stderr, once a minute.
        if count.is_multiple_of(1024) && Instant::now() >= report_at {
            report_at += PROGRESS;
            let secs = started.elapsed().as_secs_f64();
            eprintln!(
                "fuzz {name}: {count} inputs in {secs:.0} s ({:.0}/s) so far",
                count as f64 / secs
            );
        }
        if count.is_multiple_of(32) && budget.time.is_some_and(|t| started.elapsed() >= t) {
            break;
        }
        // Half the time the shorter of two picks: small inputs run and
        // mutate faster, and the pool would otherwise fill up with grown
        // ones; the other half keeps the large ones in play.
        let pick = |rng: &mut Rng| {
            if pool.is_empty() || rng.below(3) == 0 {
                &seeds[rng.below(seeds.len())]
            } else {
                &pool[rng.below(pool.len())]
            }
        };
        let a = pick(&mut rng);
        let parent = if rng.chance(2) {
            let b = pick(&mut rng);
            if b.len() < a.len() { b } else { a }
        } else {
            a
        };
        let other = &seeds[rng.below(seeds.len())];
        let input = mutate(&mut rng, parent, other, &dict, max_len);
        count += 1;
        match run_one(target, &input) {
            Ok(shape) => {
                if shapes.insert(shape) {
                    if pool.len() < POOL {
                        pool.push(input);
                    } else {
                        let i = rng.below(POOL);
                        pool[i] = input;
                    }
                }
            }
            Err(e) if known(&e) => {}
            Err(e) => return Err(fail(&input, e, count)),
        }
    }
    let secs = started.elapsed().as_secs_f64();
    println!(
        "fuzz {name}: {count} inputs in {secs:.1} s ({:.0}/s), seed {seed:#x} (SEAMS_FUZZ_SEED={:#x}), {} seeds, {} outcome shapes",
        count as f64 / secs.max(1e-9),
        budget.seed,
        seeds.len(),
        shapes.len()
    );
    for (o, n) in open.iter().zip(&met) {
        if *n > 0 {
            println!("fuzz {name}: {n} inputs met the open finding {}", o.input);
        }
    }
    Ok(())
}

fn regression_dir(name: &str) -> PathBuf {
    Path::new(ROOT).join("tests/fuzz-regressions").join(name)
}

fn regressions(name: &str, target: Target, open: &[Open]) -> Result<(), Failed> {
    let dir = regression_dir(name);
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .map_err(|e| format!("{}: {e}", dir.display()))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.is_file())
        .collect();
    files.sort();
    if files.is_empty() {
        return Err(format!("{}: no regression inputs for {name}", dir.display()).into());
    }
    let mut failures = Vec::new();
    for o in open {
        if !files
            .iter()
            .any(|f| f.file_name().is_some_and(|n| *n == *o.input))
        {
            failures.push(format!(
                "tests/fuzz-open.txt names {}, which is not in {}",
                o.input,
                dir.display()
            ));
        }
    }
    for f in &files {
        let input = std::fs::read(f).map_err(|e| format!("{}: {e}", f.display()))?;
        let listed = open
            .iter()
            .find(|o| f.file_name().is_some_and(|n| *n == *o.input));
        match (run_one(target, &input), listed) {
            (Ok(_), None) => {}
            (Err((location, message)), None) => {
                failures.push(format!("{}: {message}\n  at {location}", f.display()));
            }
            (Err((_, message)), Some(o)) if o.matches(&message) => {}
            (Err((location, message)), Some(_)) => failures.push(format!(
                "{}: listed as open in tests/fuzz-open.txt, but fails differently: {message}\n  at {location}",
                f.display()
            )),
            (Ok(_), Some(_)) => failures.push(format!(
                "{}: listed as open in tests/fuzz-open.txt, but passes now: remove its line",
                f.display()
            )),
        }
    }
    if failures.is_empty() {
        Ok(())
    } else {
        Err(failures.join("\n").into())
    }
}

/// The smallest input found by deleting stretches that still fails at the
/// same place with the same kind of message.
fn shrink(target: Target, input: &[u8], location: &str, message: &str) -> Vec<u8> {
    let kind = |m: &str| m.split(':').next().unwrap_or("").to_string();
    let want = kind(message);
    let same = |candidate: &[u8]| match run_one(target, candidate) {
        Err((l, m)) => l == location && kind(&m) == want,
        Ok(_) => false,
    };
    let mut best = input.to_vec();
    let mut tries = 0;
    let mut width = best.len() / 2;
    while width >= 1 && tries < 4000 {
        let mut at = 0;
        let mut progressed = false;
        while at < best.len() && tries < 4000 {
            let end = (at + width).min(best.len());
            let mut candidate = best[..at].to_vec();
            candidate.extend_from_slice(&best[end..]);
            tries += 1;
            if same(&candidate) {
                best = candidate;
                progressed = true;
            } else {
                at += width;
            }
        }
        if !progressed {
            width /= 2;
        }
    }
    best
}

fn save(name: &str, input: &[u8]) -> PathBuf {
    let dir = regression_dir(name);
    let path = dir.join(format!("{:016x}", seams::fuzz_targets::hash(input)));
    if let Err(e) = std::fs::create_dir_all(&dir).and_then(|_| std::fs::write(&path, input)) {
        eprintln!("cannot save {}: {e}", path.display());
    }
    path
}

// ---------------------------------------------------------------- mutating

/// SplitMix64: small, fast, and the same on every machine.
struct Rng(u64);

fn splitmix(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        splitmix(self.0)
    }
    /// A number below `n` (0 when `n` is 0).
    fn below(&mut self, n: usize) -> usize {
        if n == 0 {
            0
        } else {
            (self.next() % n as u64) as usize
        }
    }
    fn chance(&mut self, one_in: usize) -> bool {
        self.below(one_in) == 0
    }
    fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len())]
    }
}

/// Numbers worth trying wherever a number stands.
const NUMBERS: [&str; 22] = [
    "0",
    "1",
    "2",
    "7",
    "9",
    "10",
    "11",
    "18",
    "19",
    "20",
    "21",
    "25",
    "26",
    "27",
    "99",
    "100",
    "255",
    "65535",
    "65536",
    "4294967295",
    "18446744073709551615",
    "99999999999999999999999",
];

/// Tokens worth inserting for every target: separators of the texts, JSON
/// and TOML punctuation, and characters several bytes long in UTF-8.
const COMMON: [&str; 30] = [
    "/", "-", "+", "=", "*", ":", "|", "[", "]", "{", "}", ",", "\"", "'", "\n", "\r\n", " ", "\t",
    "^", "v", "<", ">", ".", "#", "**", "é", "€", "𝄞", "\u{0}", "\u{feff}",
];

fn dictionary(name: &str) -> Vec<Vec<u8>> {
    let specific: &[&str] = match name {
        "position" | "action" | "edit" => &[
            "I:", "II:", "w", "b", "A", "B", "KQkq", "-", "[-]", "+", "=", "P*", "x", "resign",
            "draw", "p1", "e2-e4", "a1.1", "c5.3", "+L", "+N", "+S", "K", "k", "Q", "X", "W", "G",
            "=Q", "=", "^",
        ],
        "record" => &[
            "\"variant\"",
            "\"rules\"",
            "\"start\"",
            "\"actions\"",
            "\"result\"",
            "\"final_position\"",
            "{\"kind\":\"initial\"}",
            "{\"kind\":\"edited\",\"position\":\"\"}",
            "{\"winner\":\"first\",\"reason\":\"checkmate\"}",
            "null",
            "\"resign\"",
            "\"draw\"",
        ],
        "board_file" => &[
            "name = ",
            "width = ",
            "height = ",
            "charts = ",
            "[sides]",
            "[[transition]]",
            "from = ",
            "to = ",
            "transport = ",
            "\"translate\"",
            "\"translate-reversed\"",
            "\"flip-v\"",
            "\"rotate-180\"",
            "shape = \"tetrahedron\"",
            "side = ",
            "..",
        ],
        "shogi_data" | "chess_data" | "tetra_data" | "kyoto_data" => &[
            "board = ",
            "name = ",
            "rules = ",
            "start = ",
            "[promotion]",
            "[drops]",
            "[pieces]",
            "true",
            "false",
            "\"flat-9x9\"",
            "\"mobius-10x9\"",
            "\"tetra9\"",
            "\"flat-5x5\"",
            "[[",
            "]]",
            "= [",
            "\"\"",
        ],
        "clauses" => &[
            "**SS-1.2**",
            "**GEO-3.1**",
            "**SC-I2**",
            "**",
            "SS-",
            "-I",
            ".",
            "\n- ",
        ],
        "merge_report" => &[
            "\"report\"",
            "\"conform\"",
            "\"shard\"",
            "{\"index\":1,\"count\":1}",
            "\"wall_seconds\"",
            "\"merged_from\"",
            "\"wall_seconds_max\"",
            "\"corpus_digest\"",
            "\"selection\"",
            "\"expectations_digest\"",
            "\"outcome\"",
            "\"verdict\"",
            "\"new-failure\"",
            "\"expected_text\"",
            "\"message\"",
            "\"fail\"",
            "\"crash\"",
            "1e400",
            "-1",
            "null",
        ],
        "cases" | "expectations" | "request" | "reply" => &[
            "\"id\"",
            "\"kind\"",
            "\"check\"",
            "\"expect\"",
            "\"cmd\"",
            "\"ok\"",
            "true",
            "false",
            "null",
            "\"error\"",
            "\"unsupported\"",
            "\"perft\"",
            "\"legal_actions\"",
            "\"geometry\"",
            "\"verify_record\"",
            "\"hello\"",
            "\"fail\"",
            "\"pass\"",
            "#00000000",
            "1e400",
            "-1",
            "[]",
            "{}",
        ],
        _ => &[],
    };
    COMMON
        .iter()
        .chain(specific)
        .chain(NUMBERS.iter())
        .map(|s| s.as_bytes().to_vec())
        .collect()
}

/// How long a target's inputs may grow: enough for any seed and for
/// messages that would quote too much, small enough to stay fast.
fn max_len(name: &str) -> usize {
    match name {
        "position" | "action" | "edit" | "request" | "reply" | "capped_lines" => 8 << 10,
        _ => 24 << 10,
    }
}

/// One to four mutations stacked on `parent`; `other` is a seed to splice
/// from.
fn mutate(rng: &mut Rng, parent: &[u8], other: &[u8], dict: &[Vec<u8>], max_len: usize) -> Vec<u8> {
    let mut data = parent.to_vec();
    for _ in 0..1 + rng.below(4) {
        mutate_once(rng, &mut data, other, dict);
        if data.len() > max_len {
            data.truncate(max_len);
        }
    }
    data
}

fn mutate_once(rng: &mut Rng, data: &mut Vec<u8>, other: &[u8], dict: &[Vec<u8>]) {
    let len = data.len();
    match rng.below(17) {
        // Flip a bit.
        0 if len > 0 => {
            let i = rng.below(len);
            data[i] ^= 1 << rng.below(8);
        }
        // Replace a byte by one of the text's own or a dictionary byte.
        1 if len > 0 => {
            let i = rng.below(len);
            data[i] = if rng.chance(2) {
                data[rng.below(len)]
            } else {
                let t = rng.pick(dict);
                t.first().copied().unwrap_or(b' ')
            };
        }
        // Insert a dictionary token.
        2 | 3 => {
            let i = rng.below(len + 1);
            let t = rng.pick(dict).clone();
            data.splice(i..i, t);
        }
        // Delete a stretch.
        4 if len > 0 => {
            let i = rng.below(len);
            let most = if rng.chance(4) {
                len - i
            } else {
                (len - i).min(8)
            };
            let n = 1 + rng.below(most);
            data.drain(i..i + n);
        }
        // Repeat a stretch, sometimes many times.
        5 if len > 0 => {
            let i = rng.below(len);
            let n = 1 + rng.below((len - i).min(64));
            let times = if rng.chance(8) {
                1 + rng.below(2000)
            } else {
                1 + rng.below(4)
            };
            let chunk = data[i..i + n].repeat(times);
            data.splice(i + n..i + n, chunk);
        }
        // Splice in a stretch of another seed.
        6 if !other.is_empty() => {
            let a = rng.below(other.len());
            let n = 1 + rng.below((other.len() - a).min(128));
            let i = rng.below(len + 1);
            let end = if rng.chance(2) { (i + n).min(len) } else { i };
            data.splice(i..end, other[a..a + n].iter().copied());
        }
        // Truncate.
        7 if len > 0 => data.truncate(rng.below(len)),
        // Swap, drop or repeat a whitespace-separated field.
        8 => edit_parts(rng, data, |b| b == b' ', b" "),
        // Swap, drop or repeat a `/` rank (or path part).
        9 => edit_parts(rng, data, |b| b == b'/', b"/"),
        // Swap, drop or repeat a line.
        10 => edit_parts(rng, data, |b| b == b'\n', b"\n"),
        // Change a number.
        11 | 12 => change_number(rng, data),
        // Change a JSON value, or swap two.
        13 | 14 => {
            mutate_json(rng, data, dict);
        }
        // Swap the values of two `key = value` lines.
        15 => swap_toml_values(rng, data),
        // Change the case of a letter (piece letters, owners).
        _ => {
            let letters: Vec<usize> = (0..len)
                .filter(|&i| data[i].is_ascii_alphabetic())
                .collect();
            if !letters.is_empty() {
                let i = *rng.pick(&letters);
                data[i] ^= 0x20;
            }
        }
    }
}

/// Edits the parts of `data` between separators: swap two, drop one or
/// repeat one (keeping the separators between them).
fn edit_parts(rng: &mut Rng, data: &mut Vec<u8>, sep: impl Fn(u8) -> bool, joint: &[u8]) {
    let mut parts: Vec<Vec<u8>> = data.split(|&b| sep(b)).map(<[u8]>::to_vec).collect();
    if parts.len() < 2 {
        return;
    }
    let i = rng.below(parts.len());
    match rng.below(3) {
        0 => {
            let j = rng.below(parts.len());
            parts.swap(i, j);
        }
        1 => {
            parts.remove(i);
        }
        _ => {
            let p = parts[i].clone();
            parts.insert(i, p);
        }
    }
    *data = parts.join(joint);
}

fn change_number(rng: &mut Rng, data: &mut Vec<u8>) {
    let mut runs = Vec::new();
    let mut i = 0;
    while i < data.len() {
        if data[i].is_ascii_digit() {
            let start = i;
            while i < data.len() && data[i].is_ascii_digit() {
                i += 1;
            }
            runs.push(start..i);
        } else {
            i += 1;
        }
    }
    if runs.is_empty() {
        return;
    }
    let run = rng.pick(&runs).clone();
    let current: u64 = std::str::from_utf8(&data[run.clone()])
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(0);
    let new = match rng.below(3) {
        0 => rng.pick(&NUMBERS).to_string(),
        1 => current.wrapping_add(1).to_string(),
        _ => current.saturating_sub(1).to_string(),
    };
    data.splice(run, new.into_bytes());
}

/// Replaces one value of a JSON document by another of the same document,
/// a scalar, or nothing (a removed key or element), or repeats an array
/// element; writes it back compact or pretty. Not JSON: unchanged.
fn mutate_json(rng: &mut Rng, data: &mut Vec<u8>, dict: &[Vec<u8>]) -> bool {
    let Ok(mut doc) = serde_json::from_slice::<Value>(data) else {
        return false;
    };
    let mut paths = Vec::new();
    collect_paths(&doc, &mut Vec::new(), &mut paths);
    if paths.is_empty() {
        return false;
    }
    let path = rng.pick(&paths).clone();
    let donor_path = &paths[rng.below(paths.len())];
    let donor = value_at(&doc, donor_path).cloned().unwrap_or(Value::Null);
    let scalar = match rng.below(7) {
        0 => Value::Null,
        1 => Value::Bool(rng.chance(2)),
        2 => Value::from(rng.pick(&NUMBERS).parse::<u64>().unwrap_or(u64::MAX)),
        3 => Value::from(-1),
        4 => Value::String(String::from_utf8_lossy(&dict[rng.below(dict.len())]).into_owned()),
        5 => Value::Array(vec![]),
        _ => Value::Object(Default::default()),
    };
    let choice = rng.below(4);
    let Some((last, parent_path)) = path.split_last() else {
        doc = scalar;
        *data = serde_json::to_vec(&doc).unwrap_or_default();
        return true;
    };
    let Some(parent) = value_at_mut(&mut doc, parent_path) else {
        return false;
    };
    match (parent, last) {
        (Value::Object(map), Step::Key(k)) => match choice {
            0 => {
                map.remove(k);
            }
            1 => {
                map.insert(k.clone(), scalar);
            }
            _ => {
                map.insert(k.clone(), donor);
            }
        },
        (Value::Array(items), Step::Index(i)) => match choice {
            0 => {
                items.remove(*i);
            }
            1 => items[*i] = scalar,
            2 => {
                let v = items[*i].clone();
                items.insert(*i, v);
            }
            _ => items[*i] = donor,
        },
        _ => return false,
    }
    *data = if rng.chance(2) {
        serde_json::to_vec_pretty(&doc).unwrap_or_default()
    } else {
        serde_json::to_vec(&doc).unwrap_or_default()
    };
    true
}

#[derive(Clone)]
enum Step {
    Key(String),
    Index(usize),
}

fn collect_paths(v: &Value, here: &mut Vec<Step>, out: &mut Vec<Vec<Step>>) {
    if out.len() > 4096 {
        return;
    }
    out.push(here.clone());
    match v {
        Value::Object(map) => {
            for (k, child) in map {
                here.push(Step::Key(k.clone()));
                collect_paths(child, here, out);
                here.pop();
            }
        }
        Value::Array(items) => {
            for (i, child) in items.iter().enumerate() {
                here.push(Step::Index(i));
                collect_paths(child, here, out);
                here.pop();
            }
        }
        _ => {}
    }
}

fn value_at<'v>(v: &'v Value, path: &[Step]) -> Option<&'v Value> {
    path.iter().try_fold(v, |v, step| match step {
        Step::Key(k) => v.get(k),
        Step::Index(i) => v.get(i),
    })
}

fn value_at_mut<'v>(v: &'v mut Value, path: &[Step]) -> Option<&'v mut Value> {
    path.iter().try_fold(v, |v, step| match step {
        Step::Key(k) => v.get_mut(k),
        Step::Index(i) => v.get_mut(i),
    })
}

fn swap_toml_values(rng: &mut Rng, data: &mut Vec<u8>) {
    let mut lines: Vec<Vec<u8>> = data.split(|&b| b == b'\n').map(<[u8]>::to_vec).collect();
    let with_value: Vec<(usize, usize)> = lines
        .iter()
        .enumerate()
        .filter_map(|(i, l)| l.iter().position(|&b| b == b'=').map(|eq| (i, eq)))
        .collect();
    if with_value.len() < 2 {
        return;
    }
    let (a, ea) = *rng.pick(&with_value);
    let (b, eb) = *rng.pick(&with_value);
    let va = lines[a][ea..].to_vec();
    let vb = lines[b][eb..].to_vec();
    lines[a].truncate(ea);
    lines[a].extend(vb);
    lines[b].truncate(eb);
    lines[b].extend(va);
    *data = lines.join(&b'\n');
}

// ---------------------------------------------------------------- seeds

fn read(path: &Path) -> Vec<u8> {
    std::fs::read(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// Every file under `dir` (relative to the crate) whose name ends in `ext`.
fn files(dir: &str, ext: &str) -> Vec<PathBuf> {
    let mut out: Vec<PathBuf> = walk(&Path::new(ROOT).join(dir))
        .into_iter()
        .filter(|p| p.to_string_lossy().ends_with(ext))
        .collect();
    out.sort();
    out
}

fn walk(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    if let Ok(entries) = std::fs::read_dir(dir) {
        for e in entries.flatten() {
            let p = e.path();
            if p.is_dir() {
                out.extend(walk(&p));
            } else {
                out.push(p);
            }
        }
    }
    out
}

fn corpus() -> Corpus {
    Corpus::from_dir(&Path::new(ROOT).join("conformance/cases")).expect("the corpus loads")
}

fn registry() -> Vec<&'static dyn Variant> {
    seams::registry::variants()
        .iter()
        .map(|v| v.as_ref())
        .collect()
}

fn seeds(name: &str) -> Vec<Vec<u8>> {
    let text = |s: String| s.into_bytes();
    match name {
        "position" => {
            let mut out = Vec::new();
            let spots = seams::fuzz_targets::spots();
            for (vi, v) in registry().into_iter().enumerate() {
                for spot in &spots[vi] {
                    out.push(text(format!("{}\n{}", v.name(), spot.position)));
                }
                // The corpus's own spellings, before normalising.
                for (_, case) in &corpus().cases {
                    for p in seams::fuzz_targets::case_positions(&case.check, v.name()) {
                        out.push(text(format!("{}\n{p}", v.name())));
                    }
                }
            }
            // The flat controls' outside spellings: USI SFEN (hands with
            // counts) and FEN with an en-passant square and counters.
            for (name, p) in [
                (
                    "shogi-flat",
                    "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1",
                ),
                (
                    "shogi-flat",
                    "8l/1l+R2P3/p2pBG1pp/kps1p4/Nn1P2G2/P1P1P2PP/1PS6/1KSG3+r1/LN2+p3L w Sbgn3p 124",
                ),
                (
                    "chess-flat",
                    "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
                ),
                ("chess-flat", "8/8/8/8/8/8/8/K6k b - - 99 150"),
            ] {
                out.push(text(format!("{name}\n{p}")));
            }
            out.sort();
            out.dedup();
            out
        }
        "action" => {
            let mut out = Vec::new();
            let spots = seams::fuzz_targets::spots();
            let variants = registry();
            for (vi, v) in variants.iter().enumerate() {
                for (k, spot) in spots[vi].iter().enumerate() {
                    let step = spot.legal.len().div_ceil(6).max(1);
                    for a in spot.legal.iter().step_by(step) {
                        out.push(text(format!("{} {k}\n{a}", v.name())));
                    }
                }
            }
            // The corpus's action texts, legal or not, at their position
            // when it is one of the known ones.
            for (_, case) in &corpus().cases {
                if let Check::Action {
                    variant,
                    at,
                    action,
                    ..
                } = &case.check
                    && let Some(vi) = variants.iter().position(|v| v.name() == variant)
                {
                    let v = variants[vi];
                    let reached = v.reached(&seams::variant::At {
                        position: at.position.as_deref(),
                        moves: &at.moves,
                    });
                    let k = reached
                        .ok()
                        .and_then(|(p, _)| spots[vi].iter().position(|s| s.position == p))
                        .unwrap_or(0);
                    out.push(text(format!("{variant} {k}\n{action}")));
                }
            }
            out.sort();
            out.dedup();
            out
        }
        "record" => {
            let mut out: Vec<Vec<u8>> = Vec::new();
            for p in files("conformance/records", ".json") {
                let whole = read(&p);
                // Most records run to hundreds of plies, and every input
                // replays all of them: records are cut short (a game going
                // on, or ended by the record's own resignation or agreed
                // draw) so that the run keeps its rate, and only the short
                // ones are kept whole.
                let record: Value = serde_json::from_slice(&whole).expect("a record is JSON");
                let actions = record["actions"].as_array().cloned().unwrap_or_default();
                let last = actions.last().and_then(Value::as_str).unwrap_or("");
                let decided = matches!(last, "resign" | "draw");
                for n in [3, 12, 40, 150] {
                    if n >= actions.len() {
                        continue;
                    }
                    let mut cut = record.clone();
                    let mut kept = actions[..n].to_vec();
                    if decided {
                        kept.push(Value::from(last));
                    } else {
                        cut["result"] = Value::Null;
                    }
                    cut["actions"] = Value::Array(kept);
                    if let Some(map) = cut.as_object_mut() {
                        map.remove("final_position");
                    }
                    out.push(serde_json::to_vec_pretty(&cut).expect("serializes"));
                }
                if actions.len() <= 250 {
                    out.push(whole);
                }
            }
            for (_, case) in &corpus().cases {
                if let Check::Record { record, .. } = &case.check {
                    out.push(serde_json::to_vec_pretty(record).expect("serializes"));
                }
            }
            out
        }
        "board_file" => {
            let mut out: Vec<Vec<u8>> = files("spec/boards", ".toml")
                .iter()
                .map(|p| read(p))
                .collect();
            for (_, case) in &corpus().cases {
                if let Check::BoardFile { text, .. } = &case.check {
                    out.push(text.clone().into_bytes());
                }
            }
            out
        }
        "shogi_data" | "chess_data" | "tetra_data" | "kyoto_data" => {
            let family = name.trim_end_matches("_data");
            files(&format!("spec/{family}"), ".toml")
                .iter()
                .map(|p| read(p))
                .collect()
        }
        "clauses" => {
            let mut out = Vec::new();
            for p in files("spec", "rules.md") {
                let whole = String::from_utf8(read(&p)).expect("rules.md is UTF-8");
                // Each section alone as well: small inputs mutate quickly.
                for section in whole.split("\n## ").skip(1) {
                    out.push(format!("## {section}").into_bytes());
                }
                out.push(whole.into_bytes());
            }
            out
        }
        "cases" => {
            let mut out = Vec::new();
            for p in files("conformance/cases", ".json") {
                let whole = read(&p);
                // Each case alone as a file: small inputs mutate quickly.
                let file: Value = serde_json::from_slice(&whole).expect("a corpus file is JSON");
                if let Some(cases) = file.get("cases").and_then(Value::as_array) {
                    for c in cases {
                        let one = serde_json::json!({ "cases": [c] });
                        out.push(serde_json::to_vec_pretty(&one).expect("serializes"));
                    }
                }
                if whole.len() <= 20 << 10 {
                    out.push(whole);
                }
            }
            out
        }
        "expectations" => {
            let mut out = vec![read(&Path::new(ROOT).join("tools/ffish-engine/known.json"))];
            let ids: Vec<String> = corpus().cases.into_iter().map(|(_, c)| c.id).collect();
            let kinds = [
                "fail",
                "unsupported",
                "crash",
                "timeout",
                "malformed",
                "wrong-id",
                "engine-error",
            ];
            for (i, kind) in kinds.iter().enumerate() {
                let known: Vec<Value> = ids
                    .iter()
                    .skip(i * 37)
                    .step_by(101)
                    .take(2)
                    .map(|id| serde_json::json!({"id": id, "kind": kind, "note": "seed", "link": "https://example.org/1"}))
                    .collect();
                let file = serde_json::json!({"$schema": "../schema/expectations.schema.json", "engine": "seed", "known": known});
                out.push(serde_json::to_vec_pretty(&file).expect("serializes"));
            }
            out.push(b"{\"known\": []}".to_vec());
            out
        }
        "request" => requests()
            .iter()
            .map(|r| serde_json::to_vec(r).expect("serializes"))
            .collect(),
        "reply" => {
            let reference = Reference::builtin();
            let mut out: Vec<Vec<u8>> = requests()
                .into_iter()
                .map(|mut r| {
                    r.id = 1;
                    if let Command::Perft { depth, .. } = &mut r.command {
                        *depth = (*depth).min(seams::fuzz_targets::REQUEST_MAX_PERFT_DEPTH);
                    }
                    reference.handle(&r).to_string().into_bytes()
                })
                .collect();
            for line in [
                r#"{"id":1,"unsupported":true}"#,
                r#"{"id":1,"error":"no such variant"}"#,
                r#"{"id":2,"ok":true,"actions":[]}"#,
                r#"{"id":"1","ok":true}"#,
                r#"{"ok":true}"#,
                r#"[1,2,3]"#,
                r#"{"id":1,"ok":false}"#,
                "not json at all",
            ] {
                out.push(line.as_bytes().to_vec());
            }
            out.sort();
            out.dedup();
            out
        }
        "capped_lines" => {
            let lines: Vec<Vec<u8>> = requests()
                .iter()
                .take(40)
                .map(|r| serde_json::to_vec(r).expect("serializes"))
                .collect();
            let mut out = Vec::new();
            for (cap, chunk) in [(0u8, 0u8), (1, 2), (5, 15), (32, 3), (63, 7), (40, 0)] {
                for group in lines.chunks(4) {
                    let mut data = vec![cap, chunk];
                    data.extend(group.join(&b"\n"[..]));
                    out.push(data);
                }
                out.push(vec![cap, chunk, b'a', b' ', b'\r', b'\n', b'\n', b'b']);
            }
            out
        }
        "edit" => {
            let mut out = Vec::new();
            for v in registry() {
                let start = v.start_position();
                let cells = v.edit_cells();
                for (k, entry) in v.edit_palette().iter().enumerate() {
                    let cell = &cells[k * 7 % cells.len()];
                    out.push(text(format!(
                        "{}\nplace {cell} {}\n{start}",
                        v.name(),
                        entry.token
                    )));
                }
                out.push(text(format!("{}\nplace {} -\n{start}", v.name(), cells[0])));
                out.push(text(format!("{}\nside second\n{start}", v.name())));
                if let Some(hands) = v.edit_hands() {
                    for e in &hands.entries {
                        out.push(text(format!(
                            "{}\nhand second {} 2\n{start}",
                            v.name(),
                            e.letter
                        )));
                    }
                }
            }
            out
        }
        "merge_report" => merge_reports(),
        other => panic!("no seeds for the target '{other}'"),
    }
}

/// Conform reports of the reference in process on a few small selections
/// of the built-in corpus, as `seams merge` reads them: each as written,
/// with every other outcome kind edited into its first case, and judged
/// against expectations.
fn merge_reports() -> Vec<Vec<u8>> {
    let globs = [
        "geometry/klein-9x18/corner*",
        "kyoto/drop/pawn-face*",
        "board-file",
        "chess/flat/castl",
    ];
    let outcomes = [
        serde_json::json!({"outcome": "fail", "detail": "actions differ", "expected_text": "[\"a1-a2\"]",
            "actual_text": "[]", "missing": ["a1-a2"], "extra": []}),
        serde_json::json!({"outcome": "unsupported", "message": "no castling"}),
        serde_json::json!({"outcome": "engine-error", "message": "unknown variant"}),
        serde_json::json!({"outcome": "timeout", "message": "no reply in 30 s"}),
        serde_json::json!({"outcome": "not-run", "message": "not run: engine dead"}),
    ];
    let mut out = Vec::new();
    for glob in globs {
        let mut run = Run::builtin(Corpus::builtin().expect("the built-in corpus loads"));
        run.selection.case = Some(glob.into());
        let finished = run
            .execute(
                // Built here, not `Reference::builtin()`, so that it borrows
                // no longer than the run.
                EngineChoice::Reference(Reference::new(
                    seams::spec::Library::builtin(),
                    run.reference.clone(),
                )),
                &mut (),
            )
            .expect("the reference runs");
        let report = finished.report().json();
        out.push(serde_json::to_vec_pretty(&report).expect("serializes"));
        for outcome in &outcomes {
            let mut edited = report.clone();
            for (k, v) in outcome.as_object().expect("an object") {
                edited["cases"][0][k] = v.clone();
            }
            out.push(serde_json::to_vec_pretty(&edited).expect("serializes"));
        }
        let mut judged = report.clone();
        judged["expectations_digest"] = Value::from("0123456789abcdef");
        for case in judged["cases"].as_array_mut().expect("cases") {
            case["verdict"] = Value::from("expected");
        }
        out.push(serde_json::to_vec_pretty(&judged).expect("serializes"));
    }
    out
}

/// Every request the runner sends for the corpus (recorded, not answered),
/// after a `hello`.
fn requests() -> Vec<Request> {
    struct Recorder {
        hello: Hello,
        sent: Vec<Request>,
    }
    impl Engine for Recorder {
        fn hello(&self) -> &Hello {
            &self.hello
        }
        fn ask(&mut self, command: &Command) -> Result<Value, AskError> {
            self.sent.push(Request {
                id: self.sent.len() as u64 + 1,
                command: command.clone(),
            });
            Err(AskError::Unsupported)
        }
    }
    let hello = Embedded::new(Reference::builtin()).hello().clone();
    let mut recorder = Recorder {
        hello,
        sent: vec![Request {
            id: 0,
            command: Command::Hello {
                protocol: seams::conformance::protocol::PROTOCOL_VERSION,
            },
        }],
    };
    let variants = registry();
    for (_, case) in &corpus().cases {
        seams::conformance::runner::check_case(&mut recorder, case, &variants);
    }
    recorder.sent
}
