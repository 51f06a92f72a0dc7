//! `tools/mutants.sh` as a user runs it, up to the point where it would
//! need cargo-mutants: help, and the usage errors it answers with exit 2.

use std::process::Command;

/// Runs the script with `args`: exit code and both streams together.
fn run(args: &[&str]) -> (i32, String) {
    let out = Command::new("bash")
        .arg(concat!(env!("CARGO_MANIFEST_DIR"), "/tools/mutants.sh"))
        .args(args)
        .output()
        .expect("bash runs");
    let text =
        String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr);
    (out.status.code().unwrap_or(-1), text)
}

fn check(args: &[&str], code: i32, fragment: &str) {
    let (got, text) = run(args);
    assert_eq!(got, code, "{args:?}: {text}");
    assert!(text.contains(fragment), "{args:?}: {text}");
}

#[test]
fn help_teaches_the_shards() {
    check(&["--help"], 0, "--shard K/N");
    check(&["--help"], 0, "conformance/MUTANTS.md");
}

#[test]
fn usage_errors_exit_2_and_say_what() {
    check(&["--bogus"], 2, "unknown argument '--bogus'");
    check(
        &["--shard", "x"],
        2,
        "--shard takes K/N, such as 0/40; got 'x'",
    );
    check(&["--shard", "3/0"], 2, "got '3/0'");
    check(&["--shard"], 2, "--shard needs K/N");
    check(&["--re"], 2, "--re needs a regular expression");
    check(
        &["--jobs", "0"],
        2,
        "--jobs takes a positive number; got '0'",
    );
    check(&["--jobs"], 2, "--jobs needs a number");
}
