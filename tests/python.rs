//! Tests that run Python: the example engine in tools/ and the case-id
//! recipe written in Python in conformance/README.md.
//!
//! This file has its own harness (libtest-mimic, `harness = false`) so that
//! a machine without `python3` reports these trials as *ignored* in the
//! `cargo test` summary, with the reason in their names, instead of
//! passing them. `--include-ignored` runs them anyway, and they then fail.

mod common;

use std::process::Command;

use common::seams;
use libtest_mimic::{Arguments, Failed, Trial};

/// A named check of this harness, run as a libtest trial.
type Check = (&'static str, fn() -> Result<(), Failed>);

fn main() {
    let args = Arguments::from_args();
    let python = Command::new("python3")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    let tests: [Check; 2] = [
        (
            "the_example_python_engine_passes_geometry",
            the_example_python_engine_passes_geometry,
        ),
        (
            "ids_are_reproducible_from_the_documented_recipe",
            ids_are_reproducible_from_the_documented_recipe,
        ),
    ];
    let trials = tests
        .into_iter()
        .map(|(name, f)| {
            if python {
                Trial::test(name, f)
            } else {
                Trial::test(format!("{name} (needs python3 on PATH)"), f).with_ignored_flag(true)
            }
        })
        .collect();
    libtest_mimic::run(&args, trials).exit();
}

/// The example Python engine from tools/ passes every geometry case and
/// says unsupported to everything else.
fn the_example_python_engine_passes_geometry() -> Result<(), Failed> {
    let engine = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tools/example-engine/engine.py"
    );
    let r = seams(&[
        "conform",
        "--engine",
        &format!("python3 '{engine}'"),
        "--format",
        "json",
    ]);
    assert_eq!(r.code, 0, "{}{}", r.stdout, r.stderr);
    let v: serde_json::Value = serde_json::from_str(&r.stdout).expect("JSON report");
    for c in v["cases"].as_array().expect("cases") {
        // The example engine knows glued charts only: the tetrahedral
        // board, board files and every variant are unsupported there.
        let subject = c["subject"].as_str().unwrap_or("");
        let chart_board = subject
            .strip_prefix("board:")
            .is_some_and(|b| seams::spec::Library::builtin().solid(b).is_none());
        let want = if chart_board { "pass" } else { "unsupported" };
        assert_eq!(c["outcome"], want, "{c}");
    }
    assert_eq!(v["engine"]["name"], "example-engine");
    Ok(())
}

/// The id hash as conformance/README.md writes it in Python agrees with
/// every id in the corpus: the hash is specified, not an accident of Rust.
fn ids_are_reproducible_from_the_documented_recipe() -> Result<(), Failed> {
    let readme = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/conformance/README.md"
    ))
    .expect("README");
    let start = readme.find("```python\n").expect("a Python block") + 10;
    let recipe = &readme[start..start + readme[start..].find("```").expect("closed")];
    let script = format!(
        "{recipe}\nimport glob, sys\nn = 0\nfor f in glob.glob(sys.argv[1] + '/conformance/cases/**/*.json', recursive=True):\n    for c in json.load(open(f))['cases']:\n        assert c['id'].split('#')[1] == case_hash(c), c['id']\n        n += 1\nassert n > 0\nprint(n)\n"
    );
    let out = Command::new("python3")
        .args(["-c", &script, env!("CARGO_MANIFEST_DIR")])
        .output()
        .expect("python3 runs");
    assert!(
        out.status.success(),
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    Ok(())
}
