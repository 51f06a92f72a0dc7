//! `seams fuzz --shard K/N` and `seams merge`: a run split into 1, 2, 3
//! or 7 shards merges into the report and exit status of the run played
//! whole (the reference, a mutant caught in a later game, `--keep-going`),
//! and every refusal exits 2 naming its problem.

use std::path::{Path, PathBuf};

use serde_json::Value;

use crate::common::{check_input_error, scratch_dir, seams};

/// The splits every run is checked under.
const SPLITS: [u32; 4] = [1, 2, 3, 7];

/// The JSON report without what depends on the clock or on the split.
fn comparable(text: &str) -> Value {
    let mut v: Value = serde_json::from_str(text).unwrap_or_else(|e| panic!("{e}: {text}"));
    for key in [
        "shard",
        "merged_shards",
        "wall_seconds",
        "elapsed_seconds",
        "positions_per_second",
        "headline",
    ] {
        v.as_object_mut().unwrap().remove(key);
    }
    v
}

/// `seams fuzz ARGS --format json`, with its exit status.
fn fuzz_json(args: &[&str]) -> (i32, String) {
    let mut all = vec!["fuzz", "--format", "json"];
    all.extend_from_slice(args);
    let r = seams(&all);
    assert!(r.code == 0 || r.code == 1, "{args:?}: {}", r.stderr);
    (r.code, r.stdout)
}

/// Writes each shard of `args` split `n` ways into `dir`; the files.
fn shards(dir: &Path, args: &[&str], n: u32) -> Vec<PathBuf> {
    (1..=n)
        .map(|k| {
            let shard = format!("{k}/{n}");
            let mut all = args.to_vec();
            all.extend(["--shard", &shard]);
            let (_, text) = fuzz_json(&all);
            let file = dir.join(format!("shard-{k}-of-{n}.json"));
            std::fs::write(&file, text).unwrap();
            file
        })
        .collect()
}

/// Plays `args` whole and in every split of [`SPLITS`], and checks that
/// each split's shards merge into the whole run's JSON report (but for
/// times and the split) and exit status `code`. Returns the whole run's
/// report and, per split, the positions its shards compared in all.
fn check(tag: &str, args: &[&str], code: i32) -> (Value, Vec<u64>) {
    let dir = scratch_dir(&format!("shards-{tag}"));
    let (whole_code, whole) = fuzz_json(args);
    assert_eq!(whole_code, code, "{whole}");
    let whole = comparable(&whole);
    let mut played = Vec::new();
    for n in SPLITS {
        let files = shards(&dir, args, n);
        played.push(
            files
                .iter()
                .map(|f| {
                    comparable(&std::fs::read_to_string(f).unwrap())["positions"]
                        .as_u64()
                        .unwrap()
                })
                .sum(),
        );
        let mut merge = vec!["merge", "--format", "json"];
        merge.extend(files.iter().map(|f| f.to_str().unwrap()));
        let r = seams(&merge);
        assert_eq!(r.code, code, "{n} shards: {}", r.stderr);
        assert_eq!(comparable(&r.stdout), whole, "{n} shards of {args:?}");
        // The text says what it is.
        merge[2] = "text";
        let text = seams(&merge).stdout;
        assert!(
            text.contains(&format!("merged from {n} shard report(s)")),
            "{text}"
        );
    }
    (whole, played)
}

#[test]
fn the_reference_split_any_way_merges_into_the_whole_run() {
    let (whole, _) = check(
        "reference",
        &["--engine", "seams engine", "--games", "3", "--plies", "20"],
        0,
    );
    assert_eq!(whole["findings"].as_array().unwrap().len(), 0);
    assert_eq!(whole["stopped"]["kind"], "completed");
}

#[test]
fn a_mutant_caught_in_a_later_game_merges_into_the_same_finding() {
    let args = [
        "--engine",
        "seams engine --mutant nifu-one-sheet",
        "--games",
        "6",
        "--plies",
        "40",
        "--variant",
        "shogi-mobius",
        "--variant",
        "shogi-genus2",
        "--variant",
        "kyoto",
    ];
    let (whole, played) = check("mutant", &args, 1);
    let findings = whole["findings"].as_array().unwrap();
    assert_eq!(findings.len(), 1);
    assert_eq!(findings[0]["variant"], "shogi-genus2");
    assert_eq!(
        findings[0]["game"], 2,
        "a later game, so that the cut matters"
    );
    assert_eq!(whole["stopped"]["kind"], "found");
    // Shards play past the first finding of all, which the merge cuts off.
    let one_run = whole["positions"].as_u64().unwrap();
    assert!(
        played.iter().skip(1).any(|&p| p > one_run),
        "{played:?} vs {one_run}"
    );
}

#[test]
fn keep_going_merges_into_one_finding_per_variant() {
    let args = [
        "--engine",
        "seams engine --mutant cone-diagonals",
        "--games",
        "5",
        "--plies",
        "30",
        "--keep-going",
        "--variant",
        "shogi-genus2",
        "--variant",
        "chess-genus2",
        "--variant",
        "chess-flat",
    ];
    let (whole, _) = check("keep-going", &args, 1);
    let found: Vec<(&str, u64)> = whole["findings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| (f["variant"].as_str().unwrap(), f["game"].as_u64().unwrap()))
        .collect();
    assert_eq!(found, [("chess-genus2", 0), ("shogi-genus2", 2)]);
}

/// Runs `seams merge` on `files` in `format` and checks that it exits 2
/// with `fragment` in its message and prints nothing.
fn refused(files: &[&Path], format: &str, fragment: &str) {
    let mut args = vec!["merge", "--format", format];
    args.extend(files.iter().map(|f| f.to_str().unwrap()));
    check_input_error(&args, fragment);
}

/// Shard `k/n` of a small kyoto run, with `more` options, in `dir`.
fn small_shard(dir: &Path, name: &str, k: u32, n: u32, more: &[&str]) -> PathBuf {
    let shard = format!("{k}/{n}");
    let mut args = vec![
        "--engine",
        "seams engine",
        "--variant",
        "kyoto",
        "--games",
        "4",
        "--plies",
        "10",
        "--shard",
        &shard,
    ];
    args.extend_from_slice(more);
    let file = dir.join(name);
    std::fs::write(&file, fuzz_json(&args).1).unwrap();
    file
}

/// The report in `file` changed by `edit`, written to `name` beside it.
fn edited(file: &Path, name: &str, edit: impl FnOnce(&mut Value)) -> PathBuf {
    let mut v: Value = serde_json::from_str(&std::fs::read_to_string(file).unwrap()).unwrap();
    edit(&mut v);
    let out = file.with_file_name(name);
    std::fs::write(&out, serde_json::to_string_pretty(&v).unwrap()).unwrap();
    out
}

#[test]
fn merges_that_cannot_be_exact_exit_2_and_name_the_problem() {
    let dir = scratch_dir("shards-refused");
    let a = small_shard(&dir, "a.json", 1, 2, &[]);
    let b = small_shard(&dir, "b.json", 2, 2, &[]);
    let json = ["--format", "json"];
    let r = seams(&[
        "merge",
        a.to_str().unwrap(),
        b.to_str().unwrap(),
        json[0],
        json[1],
    ]);
    assert_eq!(r.code, 0, "the pair itself merges: {}", r.stderr);

    refused(&[&a], "text", "1 of 2 shard(s) missing: 2");
    refused(&[&a, &b, &a], "text", "shard 1/2 is given twice");
    let third = small_shard(&dir, "third.json", 1, 3, &[]);
    refused(&[&third, &b], "text", "split the run differently");
    let seed = small_shard(&dir, "seed.json", 2, 2, &["--seed", "2"]);
    refused(&[&a, &seed], "text", "ran with --seed 2");
    let made_up = small_shard(&dir, "edited.json", 2, 2, &["--edited"]);
    refused(&[&a, &made_up], "text", "ran with --edited true");
    let mutant = edited(&b, "mutant.json", |v| {
        v["engine"]["name"] = "seams-mutant-knight-lls".into();
    });
    refused(
        &[&a, &mutant],
        "text",
        "tested the engine seams-mutant-knight-lls",
    );
    let version = edited(&b, "version.json", |v| v["seams"] = "0.0.1".into());
    refused(&[&a, &version], "text", "written by seams 0.0.1");

    // A game of shard 1 copied into shard 2's report.
    let game =
        serde_json::from_str::<Value>(&std::fs::read_to_string(&a).unwrap()).unwrap()["variants"]
            [0]["per_game"][0]
            .clone();
    let overlap = edited(&b, "overlap.json", |v| {
        v["variants"][0]["per_game"]
            .as_array_mut()
            .unwrap()
            .push(game);
    });
    refused(&[&a, &overlap], "text", "is in both");
    // Shard 2 stopped by --max-time before its last game.
    let late = edited(&b, "late.json", |v| {
        v["stopped"] = serde_json::json!({"kind": "max-time"});
        v["variants"][0]["per_game"].as_array_mut().unwrap().pop();
    });
    refused(&[&a, &late], "text", "stopped by --max-time before game");

    let whole = dir.join("whole.json");
    let r = seams(&[
        "fuzz",
        "--engine",
        "seams engine",
        "--variant",
        "kyoto",
        "--games",
        "1",
        "--plies",
        "5",
        "--format",
        "json",
    ]);
    std::fs::write(&whole, r.stdout).unwrap();
    refused(&[&whole], "text", "run without --shard");
    let broken = dir.join("broken.json");
    std::fs::write(&broken, "{\"report\": \"fuzz\", ").unwrap();
    refused(&[&broken, &b], "text", "broken.json: not JSON");
    let other = dir.join("other.json");
    std::fs::write(&other, r#"{"report": "audit"}"#).unwrap();
    refused(
        &[&other],
        "text",
        "is not one seams merge joins (conform, fuzz, perft)",
    );
    refused(&[&a, &b], "junit", "there is no junit fuzz report");
}

#[test]
fn a_shard_names_itself_and_bad_shards_are_usage_errors() {
    let r = seams(&[
        "fuzz",
        "--engine",
        "seams engine",
        "--variant",
        "kyoto",
        "--games",
        "3",
        "--plies",
        "5",
        "--shard",
        "2/3",
    ]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(r.stdout.contains("reproduce: seams fuzz --engine 'seams engine' --variant kyoto --seed 1 --games 3 --plies 5 --shard 2/3"), "{}", r.stdout);
    assert!(
        r.stdout
            .contains("shard 2/3: the games whose key variant/game"),
        "{}",
        r.stdout
    );
    assert!(r.stdout.contains("wall time "), "{}", r.stdout);
    let help = seams(&["fuzz", "--help"]).stdout;
    for needle in [
        "--shard <K/N>",
        "seams merge joins",
        "refuses",
        "wall_seconds",
    ] {
        assert!(help.contains(needle), "{needle} in:\n{help}");
    }
    let help = seams(&["merge", "--help"]).stdout;
    assert!(
        help.contains("seams fuzz --shard K/N --format json"),
        "{help}"
    );
    let engine = ["fuzz", "--engine", "seams engine", "--shard"];
    for (bad, fragment) in [
        ("0/3", "the index must be 1 to 3"),
        ("4/3", "the index must be 1 to 3"),
        ("1/0", "the count must be 1 to 10000"),
        ("half", "write K/N"),
    ] {
        let mut args = engine.to_vec();
        args.push(bad);
        check_input_error(&args, fragment);
    }
}
