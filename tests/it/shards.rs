//! `seams conform --shard K/N` and `seams merge`: every split of a run into
//! 1, 2, 3 and 7 parts merges into the report and exit status of the
//! unsplit run (the reference in process, a mutant engine as an outside
//! process, the mutant judged against expectations, a corpus with cases
//! that are not applicable), and each refusal of `seams merge` exits 2,
//! names what is wrong and writes nothing.

use std::path::{Path, PathBuf};

use serde_json::{Value, json};

use crate::common::{Run, scratch_dir, seams};

/// A mutant that fails some cases and errs on others.
const MUTANT: &str = "seams engine --mutant seam-keeps-facing";
/// A modest slice of the corpus for an engine run as a process: the quick
/// cases about the Möbius boards (134, of which the mutant fails 23 and
/// errs on 3).
const SLICE: [&str; 4] = ["--tier", "quick", "--case", "*mobius*"];
/// The formats whose merged report is compared with the unsplit run's.
const FORMATS: [&str; 5] = ["json", "text", "markdown", "junit", "html"];

fn run(args: &[String]) -> Run {
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    seams(&args)
}

fn strings(args: &[&str]) -> Vec<String> {
    args.iter().map(|s| s.to_string()).collect()
}

fn path(p: &Path) -> String {
    p.to_str().expect("a UTF-8 path").to_string()
}

fn read_json(p: &Path) -> Value {
    serde_json::from_str(&std::fs::read_to_string(p).expect("the report was written"))
        .expect("the report is JSON")
}

fn write_json(p: &Path, v: &Value) {
    std::fs::write(p, serde_json::to_string_pretty(v).unwrap()).unwrap();
}

/// `--corpus DIR` of a conform command line, which merge needs too.
fn corpus_args(args: &[&str]) -> Vec<String> {
    match args.iter().position(|a| *a == "--corpus") {
        Some(i) => strings(&args[i..i + 2]),
        None => Vec::new(),
    }
}

/// What a report says apart from the time it took and how it was split:
/// the JSON without those fields; the text, Markdown and HTML headline
/// without its wall time; JUnit without its time attributes.
fn timeless(format: &str, text: &str) -> String {
    if format == "json" {
        let mut v: Value = serde_json::from_str(text).expect("a JSON report");
        for key in ["shard", "wall_seconds", "merged_from", "wall_seconds_max"] {
            v.as_object_mut().unwrap().remove(key);
        }
        return serde_json::to_string_pretty(&v).unwrap();
    }
    let (from, to) = if format == "junit" {
        (" time=\"", '"')
    } else {
        ("; wall time ", '<')
    };
    text.lines()
        .map(|line| match line.find(from) {
            None => line.to_string(),
            Some(start) => {
                let rest = &line[start + from.len()..];
                let end = rest.find(to).map_or(line.len(), |e| {
                    // A time attribute goes with its closing quote.
                    start + from.len() + e + usize::from(format == "junit")
                });
                format!("{}{}", &line[..start], &line[end..])
            }
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// How many results of a JSON report count against the run.
fn mismatches(report: &Value) -> u64 {
    if let Some(n) = report.get("mismatches") {
        return n.as_u64().unwrap();
    }
    let s = &report["summary"];
    ["fail", "errors", "not_run"]
        .iter()
        .map(|k| s[k].as_u64().unwrap())
        .sum()
}

/// Runs `seams conform ARGS` whole in every format, then split into 1, 2,
/// 3 and 7 parts, each part's JSON report to a file, and checks that each
/// part exits as its own run and that `seams merge` of the parts gives
/// the whole run's report in every format and its exit status. Returns
/// that exit status and the folder of the parts' reports.
fn check_splits(tag: &str, args: &[&str]) -> (i32, PathBuf) {
    let dir = scratch_dir(&format!("shards-{tag}"));
    let conform = |extra: &[&str]| {
        let mut a = strings(&["conform"]);
        a.extend(strings(args));
        a.extend(strings(extra));
        run(&a)
    };
    let whole: Vec<(&str, Run)> = FORMATS
        .iter()
        .map(|f| (*f, conform(&["--format", f])))
        .collect();
    let code = whole[0].1.code;
    for (f, w) in &whole {
        assert_eq!(w.code, code, "{tag} --format {f}: {}", w.stderr);
    }
    assert!(code == 0 || code == 1, "{tag}: {}", whole[0].1.stderr);
    for n in [1, 2, 3, 7] {
        let parts = split(&dir, n, &conform);
        for (format, w) in &whole {
            let mut a = strings(&["merge", "--format", format]);
            a.extend(corpus_args(args));
            a.extend(parts.iter().map(|p| path(p)));
            let m = run(&a);
            assert_eq!(
                m.code, code,
                "{tag}: merge of {n} --format {format}: {}",
                m.stderr
            );
            assert_eq!(
                timeless(format, &m.stdout),
                timeless(format, &w.stdout),
                "{tag}: {n} parts merged, --format {format}"
            );
        }
        check_merged_time(&parts, &corpus_args(args));
    }
    (code, dir)
}

/// Runs every part of a split into `n` with JSON reports in `dir`, checks
/// that each states its shard and exits as a run of its own, and returns
/// the reports' paths.
fn split(dir: &Path, n: u32, conform: &dyn Fn(&[&str]) -> Run) -> Vec<PathBuf> {
    (1..=n)
        .map(|k| {
            let out = dir.join(format!("{k}-of-{n}.json"));
            let shard = format!("{k}/{n}");
            let r = conform(&["--shard", &shard, "--format", "json", "--out", &path(&out)]);
            let part = read_json(&out);
            assert_eq!(part["shard"], json!({"index": k, "count": n}));
            assert_eq!(part["report"], "conform");
            let own = if mismatches(&part) > 0 { 1 } else { 0 };
            assert_eq!(r.code, own, "shard {shard}: {}", r.stderr);
            out
        })
        .collect()
}

/// The merged JSON report says how many parts it joins, their summed wall
/// time and the longest part's.
fn check_merged_time(parts: &[PathBuf], corpus: &[String]) {
    let mut a = strings(&["merge", "--format", "json"]);
    a.extend(corpus.iter().cloned());
    a.extend(parts.iter().map(|p| path(p)));
    let merged: Value = serde_json::from_str(&run(&a).stdout).unwrap();
    let times: Vec<f64> = parts
        .iter()
        .map(|p| read_json(p)["wall_seconds"].as_f64().unwrap())
        .collect();
    assert_eq!(merged["merged_from"], json!(parts.len()));
    assert_eq!(merged["shard"], json!({"index": 1, "count": 1}));
    let sum: f64 = times.iter().sum();
    let max = times.iter().copied().fold(0.0, f64::max);
    assert!((merged["wall_seconds"].as_f64().unwrap() - sum).abs() < 0.001 * parts.len() as f64);
    assert_eq!(merged["wall_seconds_max"].as_f64().unwrap(), max);
}

/// Every quick case (all but six perft cases, which take most of a full
/// run's time) against the reference in process.
#[test]
fn the_reference_split_and_merged_is_the_whole_run() {
    assert_eq!(check_splits("reference", &["--tier", "quick"]).0, 0);
}

#[test]
fn a_mutant_split_and_merged_is_the_whole_run() {
    let mut args = vec!["--engine", MUTANT];
    args.extend(SLICE);
    assert_eq!(check_splits("mutant", &args).0, 1);
}

#[test]
fn a_mutant_judged_against_expectations_split_and_merged_is_the_whole_run() {
    let dir = scratch_dir("shards-known");
    let known = dir.join("known.json");
    let mut args = vec!["--engine", MUTANT];
    args.extend(SLICE);
    let mut baseline = strings(&["conform", "--baseline", &path(&known)]);
    baseline.extend(strings(&args));
    assert_eq!(run(&baseline).code, 0);
    let all = path(&known);
    let mut expect = args.clone();
    expect.extend(["--expect", all.as_str()]);
    assert_eq!(check_splits("expect-all", &expect).0, 0);
    // One known failure left out: the whole run and the merge both fail.
    let mut file = read_json(&known);
    file["known"].as_array_mut().unwrap().remove(0);
    let fewer = dir.join("fewer.json");
    write_json(&fewer, &file);
    let fewer = path(&fewer);
    let mut expect = args.clone();
    expect.extend(["--expect", fewer.as_str()]);
    assert_eq!(check_splits("expect-fewer", &expect).0, 1);
}

/// A corpus of the chess-klein cases with every other one for rules 0.2
/// on, which the reference (chess rules 0.1) does not play: those about a
/// variant are not applicable.
fn later_rules_corpus(dir: &Path) -> PathBuf {
    let corpus = dir.join("corpus");
    std::fs::create_dir_all(&corpus).unwrap();
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut file = read_json(&root.join("conformance/cases/chess/klein.json"));
    for case in file["cases"].as_array_mut().unwrap().iter_mut().step_by(2) {
        case["rules"] = json!(">=0.2");
    }
    write_json(&corpus.join("klein.json"), &file);
    let r = seams(&["corpus", "rehash", &path(&corpus)]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    corpus
}

#[test]
fn cases_not_applicable_are_split_and_add_up() {
    let corpus = path(&later_rules_corpus(&scratch_dir("shards-later-rules")));
    let r = seams(&["conform", "--corpus", &corpus, "--format", "json"]);
    let whole: Value = serde_json::from_str(&r.stdout).unwrap();
    let not_applicable = whole["not_applicable"].as_u64().unwrap();
    assert!(not_applicable > 0, "{}", r.stderr);
    let (code, dir) = check_splits("rules", &["--corpus", &corpus]);
    assert_eq!(code, 0);
    let parts: u64 = (1..=3)
        .map(|k| {
            read_json(&dir.join(format!("{k}-of-3.json")))["not_applicable"]
                .as_u64()
                .unwrap()
        })
        .sum();
    assert_eq!(parts, not_applicable);
}

#[test]
fn a_part_with_no_case_is_a_run_and_a_part_is_no_baseline() {
    // The two corner cases both hash to other parts of seven.
    let r = seams(&[
        "conform",
        "--case",
        "geometry/klein-9x18/corner*",
        "--shard",
        "1/7",
    ]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(
        r.stdout.starts_with("shard 1/7: 0 cases: 0 passed"),
        "{}",
        r.stdout
    );
    let r = seams(&["conform", "--case", "nothing-matches", "--shard", "1/7"]);
    assert_eq!(r.code, 2);
    assert!(
        r.stderr.contains("no case in the corpus matches"),
        "{}",
        r.stderr
    );
    let dir = scratch_dir("shards-baseline");
    let known = path(&dir.join("known.json"));
    let r = seams(&["conform", "--shard", "2/3", "--baseline", &known]);
    assert_eq!(r.code, 2);
    assert!(
        r.stderr.contains("--baseline with --shard 2/3"),
        "{}",
        r.stderr
    );
    assert!(!dir.join("known.json").exists());
    for bad in ["0/3", "4/3", "3", "a/b", "1/0"] {
        let r = seams(&["conform", "--shard", bad]);
        assert_eq!(r.code, 2, "{bad}");
        assert!(r.stderr.contains("shard"), "{bad}: {}", r.stderr);
    }
}

/// Shard reports of the reference on a small slice, to be refused in
/// every way.
struct Fixtures {
    dir: PathBuf,
}

impl Fixtures {
    /// Fixtures in a folder of their own, named after `tag`.
    fn new(tag: &str) -> Fixtures {
        Fixtures {
            dir: scratch_dir(&format!("shards-refused-{tag}")),
        }
    }

    /// The JSON report of `seams conform ARGS --shard SHARD` on the Klein
    /// cases (the quick ones unless ARGS give a tier), named `name`.
    fn part(&self, name: &str, shard: &str, args: &[&str]) -> String {
        let out = self.dir.join(name);
        let mut a = strings(&["conform", "--case", "*klein*"]);
        if !args.contains(&"--tier") {
            a.extend(strings(&["--tier", "quick"]));
        }
        a.extend(strings(args));
        a.extend(strings(&[
            "--shard",
            shard,
            "--format",
            "json",
            "--out",
            &path(&out),
        ]));
        let r = run(&a);
        assert!(r.code == 0 || r.code == 1, "{name}: {}", r.stderr);
        path(&out)
    }

    /// A copy of the report `from`, named `name`, changed by `edit`.
    fn edited(&self, from: &str, name: &str, edit: impl FnOnce(&mut Value)) -> String {
        let mut v = read_json(Path::new(from));
        edit(&mut v);
        let out = self.dir.join(name);
        write_json(&out, &v);
        path(&out)
    }

    /// A file named `name` holding `text`.
    fn file(&self, name: &str, text: &str) -> String {
        let out = self.dir.join(name);
        std::fs::write(&out, text).unwrap();
        path(&out)
    }

    /// `seams merge ARGS --out FILE` must exit 2 naming `fragment`, print
    /// nothing and write nothing.
    fn refused(&self, args: &[&str], fragment: &str) {
        let out = self.dir.join("merged.txt");
        let mut a = strings(&["merge", "--out", &path(&out)]);
        a.extend(strings(args));
        let r = run(&a);
        assert_eq!(r.code, 2, "merge {args:?}: {}", r.stderr);
        assert!(
            r.stderr.contains(fragment),
            "merge {args:?} should say '{fragment}': {}",
            r.stderr
        );
        assert!(r.stdout.is_empty(), "{}", r.stdout);
        assert!(!out.exists(), "nothing written for {args:?}");
    }
}

#[test]
fn merge_refuses_parts_that_are_not_one_whole_split() {
    let f = Fixtures::new("split");
    let (a1, a2) = (f.part("a1.json", "1/2", &[]), f.part("a2.json", "2/2", &[]));
    let b: Vec<String> = (1..=3)
        .map(|k| f.part(&format!("b{k}.json"), &format!("{k}/3"), &[]))
        .collect();
    f.refused(&[&b[0], &b[1]], "1 of 3 shard(s) missing: 3");
    f.refused(&[&b[0], &b[0], &b[1], &b[2]], "shard 1/3 is given twice");
    f.refused(&[&a1, &b[1]], "split the run differently");
    // The parts are whole, so merging them works.
    let r = seams(&["merge", &a1, &a2]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let theirs = read_json(Path::new(&a2))["cases"][0].clone();
    let overlap = f.edited(&a1, "overlap.json", |v| {
        v["cases"].as_array_mut().unwrap().push(theirs);
    });
    f.refused(&[&overlap, &a2], "and again in");
    let first = read_json(Path::new(&a1))["cases"][0].clone();
    let twice = f.edited(&a1, "twice.json", |v| {
        v["cases"].as_array_mut().unwrap().push(first);
    });
    f.refused(&[&twice, &a2], "twice.json and again in");
    let swapped1 = f.edited(&a1, "swapped1.json", |v| v["shard"]["index"] = json!(2));
    let swapped2 = f.edited(&a2, "swapped2.json", |v| v["shard"]["index"] = json!(1));
    f.refused(&[&swapped1, &swapped2], "which is shard 1's");
    let unknown = f.edited(&a1, "unknown.json", |v| {
        v["cases"][0]["id"] = json!("geometry/nowhere#00000000");
    });
    f.refused(
        &[&unknown, &a2],
        "'geometry/nowhere#00000000' is not in the corpus given",
    );
    let lost = f.edited(&a1, "lost.json", |v| {
        v["cases"].as_array_mut().unwrap().pop();
    });
    f.refused(&[&lost, &a2], "a report lost cases");
    let moved = f.edited(&a1, "moved.json", |v| {
        v["cases"][0]["file"] = json!("elsewhere.json")
    });
    f.refused(&[&moved, &a2], "is in elsewhere.json by the report");
}

#[test]
fn merge_refuses_parts_of_different_runs() {
    let f = Fixtures::new("runs");
    let a1 = f.part("a1.json", "1/2", &[]);
    let a2 = f.part("a2.json", "2/2", &[]);
    let mutant = f.part("mutant2.json", "2/2", &["--engine", MUTANT]);
    f.refused(&[&a1, &mutant], "the engine seams-reference 0.1.0 in");
    let full = f.part("full2.json", "2/2", &["--tier", "full"]);
    f.refused(&[&a1, &full], "different runs: the selection");
    let empty = f.file("empty.known.json", r#"{"known": []}"#);
    let judged = f.part("judged2.json", "2/2", &["--expect", &empty]);
    f.refused(&[&a1, &judged], "the expectations none in");
    let older = f.edited(&a1, "older.json", |v| v["seams"] = json!("0.0.1"));
    f.refused(&[&older, &a2], "seams 0.0.1 in");
    // A smaller corpus: a copy holding only the chess-klein cases.
    let small = f.dir.join("small");
    std::fs::create_dir_all(&small).unwrap();
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    std::fs::copy(
        root.join("conformance/cases/chess/klein.json"),
        small.join("klein.json"),
    )
    .unwrap();
    let small = path(&small);
    let s1 = f.part("s1.json", "1/2", &["--corpus", &small]);
    let s2 = f.part("s2.json", "2/2", &["--corpus", &small]);
    f.refused(&[&s1, &a2], "different runs: the corpus");
    f.refused(&[&s1, &s2], "give --corpus the folder the shards ran");
    let r = seams(&["merge", "--corpus", &small, &s1, &s2]);
    assert_eq!(r.code, 0, "{}", r.stderr);
}

#[test]
fn merge_refuses_what_is_no_conform_report() {
    let f = Fixtures::new("kinds");
    let a1 = f.part("a1.json", "1/2", &[]);
    let a2 = f.part("a2.json", "2/2", &[]);
    let fuzz = f.edited(&a2, "fuzz.json", |v| v["report"] = json!("fuzz"));
    f.refused(&[&a1, &fuzz], "is a 'conform' report but");
    // A conform report relabelled: the fuzz merge reads it and refuses.
    f.refused(&[&fuzz], "not a fuzz report seams can merge");
    let audit = f.edited(&a2, "audit.json", |v| v["report"] = json!("audit"));
    f.refused(
        &[&audit],
        "the report kind 'audit' is not one seams merge joins (conform, fuzz, perft)",
    );
    let broken = f.file("broken.json", "{\"report\": \"conform\",");
    f.refused(&[&broken], "broken.json: not JSON");
    let plain = f.file("plain.json", r#"{"cases": []}"#);
    f.refused(&[&plain], "plain.json: not a seams report");
    let list = f.file("list.json", "[1, 2]");
    f.refused(&[&list], "list.json: not a seams report");
    let bare = f.edited(&a1, "bare.json", |v| {
        v.as_object_mut().unwrap().remove("corpus_digest");
    });
    f.refused(&[&bare, &a2], "missing field `corpus_digest`");
    let failed = f.edited(&a1, "failed.json", |v| {
        v["cases"][0]["outcome"] = json!("fail")
    });
    f.refused(&[&failed, &a2], "a 'fail' outcome needs 'expected_text'");
    let odd = f.edited(&a1, "odd.json", |v| {
        v["cases"][0]["outcome"] = json!("flaky")
    });
    f.refused(&[&odd, &a2], "unknown variant `flaky`");
    let nowhere = path(&f.dir.join("nowhere.json"));
    f.refused(&[&a1, &nowhere], "nowhere.json: No such file");
    f.refused(&[&a1, &path(&f.dir)], "is a folder, not a file");
    let r = seams(&["merge"]);
    assert_eq!(r.code, 2);
}

#[test]
fn the_help_teaches_sharding_and_merging() {
    let r = seams(&["merge", "--help"]);
    assert_eq!(r.code, 0);
    for shown in [
        "seams merge part-1.json part-2.json",
        "conform: 0 when it passes, 1 on a",
        "--corpus <DIR>",
    ] {
        assert!(r.stdout.contains(shown), "{shown}: {}", r.stdout);
    }
    let r = seams(&["conform", "--help"]);
    assert!(
        r.stdout.contains("--shard 2/4 --format json"),
        "{}",
        r.stdout
    );
    assert!(r.stdout.contains("Not with --baseline"), "{}", r.stdout);
}
