//! `seams fuzz` as a user runs it: help, usage errors, every mutant caught
//! at the defaults with a case that `seams conform` then runs, reports in
//! each format, determinism, `--max-time`, Ctrl-C and `--expect`.

use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use crate::common::{check_input_error, seams};
use serde_json::Value;

/// A fresh scratch folder for one test.
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("seams-fuzz-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn json_report(args: &[&str]) -> Value {
    let mut all = vec!["fuzz", "--format", "json"];
    all.extend_from_slice(args);
    let r = seams(&all);
    assert!(r.code == 0 || r.code == 1, "{}", r.stderr);
    serde_json::from_str(&r.stdout).unwrap_or_else(|e| panic!("{e}: {}", r.stdout))
}

#[test]
fn help_teaches_with_an_example() {
    let r = seams(&["fuzz", "--help"]);
    assert_eq!(r.code, 0);
    for needle in [
        "seams fuzz --engine",
        "--games",
        "--plies",
        "--seed",
        "--edited",
        "--max-time",
        "--out",
        "--format",
        "--expect",
        "Exit status: 0",
    ] {
        assert!(r.stdout.contains(needle), "{needle} in:\n{}", r.stdout);
    }
}

#[test]
fn usage_errors_exit_2_before_any_game() {
    let engine = ["fuzz", "--engine", "seams engine"];
    let with = |more: &[&str]| -> Vec<String> {
        engine.iter().chain(more).map(|s| s.to_string()).collect()
    };
    let check = |args: Vec<String>, fragment: &str| {
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        check_input_error(&args, fragment);
    };
    check(with(&["--games", "0"]), "--games must be between 1");
    check(with(&["--plies", "10001"]), "--plies must be between 1");
    check(with(&["--variant", "chess-klien"]), "chess-klein");
    check(with(&["--max-time", "0"]), "--max-time");
    check(with(&["--expect", "/nonexistent/known.json"]), "known.json");
    let file = scratch("out-file").join("a-file");
    std::fs::write(&file, "x").unwrap();
    check(with(&["--out", file.to_str().unwrap()]), "not a folder");
    check_input_error(
        &["fuzz", "--engine", "/nonexistent/engine-xyz"],
        "cannot start the engine",
    );
    check_input_error(
        &["fuzz", "--engine", "seams engine", "--seed", "x"],
        "--seed",
    );
}

#[test]
fn the_reference_passes_and_the_report_says_how_to_reproduce() {
    let r = seams(&[
        "fuzz",
        "--engine",
        "seams engine",
        "--games",
        "2",
        "--plies",
        "30",
        "--stats",
    ]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(r.stdout.contains("0 finding(s); compared "), "{}", r.stdout);
    assert!(
        r.stdout.contains(
            "reproduce: seams fuzz --engine 'seams engine' --seed 1 --games 2 --plies 30"
        ),
        "{}",
        r.stdout
    );
    assert!(r.stdout.contains("thin spots"), "{}", r.stdout);
    assert!(r.stdout.contains("positions/s"), "{}", r.stdout);
}

/// Each mutant, at the defaults: caught within a minute, exit 1, the case
/// written to `--out`, which the reference passes and the mutant fails.
#[rstest::rstest]
#[case::seam_keeps_facing("seam-keeps-facing")]
#[case::cone_diagonals("cone-diagonals")]
#[case::knight_lls("knight-lls")]
#[case::nifu_one_sheet("nifu-one-sheet")]
#[case::en_passant_by_neighbour("en-passant-by-neighbour")]
#[case::kyoto_flip_on_drop("kyoto-flip-on-drop")]
fn every_mutant_is_caught_at_the_defaults(#[case] mutant: &str) {
    let dir = scratch(mutant);
    let engine = format!("seams engine --mutant {mutant}");
    let began = Instant::now();
    let r = seams(&["fuzz", "--engine", &engine, "--out", dir.to_str().unwrap()]);
    let took = began.elapsed();
    assert_eq!(r.code, 1, "{mutant}: {}\n{}", r.stdout, r.stderr);
    assert!(took < Duration::from_secs(60), "{mutant} took {took:?}");
    assert!(r.stdout.contains("1 finding(s)"), "{}", r.stdout);
    assert!(dir.join("fuzz-report.txt").is_file());
    let cases: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| {
            p.file_name()
                .unwrap()
                .to_string_lossy()
                .starts_with("fuzz-")
                && p.extension().is_some_and(|e| e == "json")
        })
        .collect();
    assert_eq!(cases.len(), 1, "{cases:?}");
    let text = std::fs::read_to_string(&cases[0]).unwrap();
    assert!(text.contains("NOT REVIEWED"), "{text}");
    assert!(text.contains(&format!("seams-mutant-{mutant}")), "{text}");
    // The case holds the reference's answer…
    let corpus = dir.to_str().unwrap();
    let pass = seams(&["conform", "--corpus", corpus]);
    assert_eq!(pass.code, 0, "{}\n{}", pass.stdout, pass.stderr);
    // …which the mutant contradicts, unless the report says the corpus
    // cannot ask its question.
    let fail = seams(&["conform", "--corpus", corpus, "--engine", &engine]);
    let passes_as_written = r.stdout.contains("the engine passes this case as written");
    assert_eq!(
        fail.code,
        if passes_as_written { 0 } else { 1 },
        "{}",
        fail.stdout
    );
}

#[test]
fn the_json_report_has_speed_thin_spots_and_findings() {
    let v = json_report(&[
        "--engine",
        "seams engine --mutant kyoto-flip-on-drop",
        "--variant",
        "kyoto",
        "--games",
        "20",
    ]);
    assert!(v["positions_per_second"].as_f64().unwrap() > 0.0);
    assert!(v["positions"].as_u64().unwrap() > 0);
    let kyoto = &v["variants"][0];
    assert_eq!(kyoto["variant"], "kyoto");
    let spots: Vec<&str> = kyoto["thin"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["spot"].as_str().unwrap())
        .collect();
    assert!(spots.contains(&"perpetual-check"), "{spots:?}");
    let f = &v["findings"][0];
    assert_eq!(f["question"], "apply");
    assert!(f["reproduce"].as_str().unwrap().contains("--variant kyoto"));
    assert!(f["case"]["id"].as_str().unwrap().starts_with("fuzz/kyoto/"));
    assert_eq!(v["stopped"]["kind"], "found");
}

#[test]
fn the_html_report_draws_the_finding_with_its_marks() {
    let dir = scratch("html");
    let r = seams(&[
        "fuzz",
        "--engine",
        "seams engine --mutant nifu-one-sheet",
        "--format",
        "html",
        "--out",
        dir.to_str().unwrap(),
    ]);
    assert_eq!(r.code, 1, "{}", r.stderr);
    let page = std::fs::read_to_string(dir.join("fuzz-report.html")).unwrap();
    assert_eq!(page, r.stdout);
    assert!(page.contains("<svg"), "a picture of the position");
    assert!(page.contains("unexpected"), "the extra drops are marked");
}

/// The report without what depends on the clock.
fn timeless(mut v: Value) -> Value {
    for key in [
        "elapsed_seconds",
        "positions_per_second",
        "headline",
        "wall_seconds",
    ] {
        v.as_object_mut().unwrap().remove(key);
    }
    v
}

#[test]
fn the_same_seed_gives_the_same_report() {
    let args = [
        "--engine",
        "seams engine",
        "--games",
        "3",
        "--plies",
        "40",
        "--seed",
        "9",
        "--edited",
        "--variant",
        "shogi-genus2",
        "--variant",
        "chess-mobius",
    ];
    let a = timeless(json_report(&args));
    assert_eq!(a, timeless(json_report(&args)));
    let mut other = args.to_vec();
    other[7] = "10";
    assert_ne!(a, timeless(json_report(&other)));
}

#[test]
fn max_time_stops_cleanly_and_reports_what_was_compared() {
    let began = Instant::now();
    let r = seams(&[
        "fuzz",
        "--engine",
        "seams engine",
        "--games",
        "1000000",
        "--max-time",
        "1.5",
    ]);
    assert!(began.elapsed() < Duration::from_secs(20));
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(r.stdout.contains("stopped by --max-time"), "{}", r.stdout);
    assert!(!r.stdout.contains("compared 0 positions"), "{}", r.stdout);
}

#[cfg(unix)]
#[test]
fn ctrl_c_stops_cleanly_and_leaves_no_engine_behind() {
    // A fault that never fires on fuzz's questions marks the engine's
    // command line, so that it can be looked for afterwards.
    let marker = "--fault-on solid-facts";
    let child = Command::new(env!("CARGO_BIN_EXE_seams"))
        .args([
            "fuzz",
            "--engine",
            &format!("seams engine --fault bad-stderr {marker}"),
            "--games",
            "1000000",
        ])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    std::thread::sleep(Duration::from_millis(1500));
    // SAFETY: kill(2) sends SIGINT to the child this test started.
    unsafe {
        libc::kill(child.id() as i32, libc::SIGINT);
    }
    let out = child.wait_with_output().unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{stdout}");
    assert!(stdout.contains("interrupted"), "{stdout}");
    assert!(!stdout.contains("compared 0 positions"), "{stdout}");
    std::thread::sleep(Duration::from_millis(300));
    let left = crate::common::reap::processes_with(marker);
    assert!(left.is_empty(), "engines left behind: {left:?}");
}

#[test]
fn documented_differences_are_counted_not_reported() {
    let dir = scratch("expect");
    let known = dir.join("known.json");
    std::fs::write(
        &known,
        r#"{
  "engine": "the kyoto-flip-on-drop mutant",
  "known": [],
  "differences": [
    {"question": "apply", "variant": "kyoto", "note": "turns a dropped token over"},
    {"question": "status", "variant": "kyoto", "note": "turns a dropped token over, in its games too"}
  ]
}"#,
    )
    .unwrap();
    let r = seams(&[
        "fuzz",
        "--engine",
        "seams engine --mutant kyoto-flip-on-drop",
        "--variant",
        "kyoto",
        "--games",
        "30",
        "--expect",
        known.to_str().unwrap(),
    ]);
    assert_eq!(r.code, 0, "{}\n{}", r.stdout, r.stderr);
    assert!(
        r.stdout.contains("documented differences met"),
        "{}",
        r.stdout
    );
    assert!(
        r.stdout.contains("turns a dropped token over"),
        "{}",
        r.stdout
    );

    std::fs::write(
        &known,
        r#"{"known": [], "differences": [{"question": "apply", "note": " "}]}"#,
    )
    .unwrap();
    check_input_error(
        &[
            "fuzz",
            "--engine",
            "seams engine",
            "--expect",
            known.to_str().unwrap(),
        ],
        "differences[0]",
    );
}
