//! Tests that run Python: the example engine in tools/, the case-id
//! recipe written in Python in conformance/README.md, and
//! tools/mutants_report.py over the mutation records.
//!
//! A machine without `python3` reports these trials as *ignored* in the
//! `cargo test` summary, with the reason in their names, instead of
//! passing them (the harness is `main.rs`'s). `--include-ignored` runs them anyway, and they then fail.

use std::process::Command;

use crate::common::seams;
use libtest_mimic::{Failed, Trial};

/// A named check of this harness, run as a libtest trial.
type Check = (&'static str, fn() -> Result<(), Failed>);

/// The trials, ignored with the reason in their names without `python3`.
pub fn trials() -> Vec<Trial> {
    let python = Command::new("python3")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    let tests: [Check; 4] = [
        (
            "the_example_python_engine_passes_geometry",
            the_example_python_engine_passes_geometry,
        ),
        (
            "ids_are_reproducible_from_the_documented_recipe",
            ids_are_reproducible_from_the_documented_recipe,
        ),
        (
            "the_mutation_records_fold_into_a_table_and_killers_exist",
            the_mutation_records_fold_into_a_table_and_killers_exist,
        ),
        (
            "the_mutation_report_refuses_bad_input_with_exit_2",
            the_mutation_report_refuses_bad_input_with_exit_2,
        ),
    ];
    tests
        .into_iter()
        .map(|(name, f)| {
            if python {
                Trial::test(name, f)
            } else {
                Trial::test(format!("{name} (needs python3 on PATH)"), f).with_ignored_flag(true)
            }
        })
        .collect()
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

/// Runs tools/mutants_report.py: exit code and both streams together.
fn mutants_report(args: &[&str]) -> (i32, String) {
    let out = Command::new("python3")
        .arg(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/tools/mutants_report.py"
        ))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("python3 runs");
    let text =
        String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr);
    (out.status.code().unwrap_or(-1), text)
}

/// The committed records and survivors file fold into MUTANTS.md's table,
/// every entry of the survivors file explains a recorded survivor, and
/// every survivor said to be killed names a case the corpus holds.
fn the_mutation_records_fold_into_a_table_and_killers_exist() -> Result<(), Failed> {
    let dir = std::path::Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/conformance/mutants"));
    let mut records: Vec<String> = std::fs::read_dir(dir)
        .expect("conformance/mutants")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "tsv"))
        .filter(|p| p.file_name().is_some_and(|n| n != "survivors.tsv"))
        .map(|p| p.display().to_string())
        .collect();
    records.sort();
    if records.is_empty() {
        return Err("no shard records in conformance/mutants".into());
    }
    let mut args = vec!["table", "--survivors", "conformance/mutants/survivors.tsv"];
    args.extend(records.iter().map(String::as_str));
    let (code, text) = mutants_report(&args);
    if code != 0 || !text.contains("| **all** |") {
        return Err(format!("exit {code}: {text}").into());
    }
    // survivors.tsv explains recorded survivors only: no guesses, nothing stale.
    let (_, unused) = text
        .split_once("Listed, explaining no survivor:")
        .ok_or("the report names unused entries")?;
    if unused.lines().any(|l| l.starts_with("- ")) {
        return Err(format!("survivors.tsv entries that explain no survivor:{unused}").into());
    }
    let corpus = seams::conformance::Corpus::builtin().expect("the corpus loads");
    let slugs: std::collections::BTreeSet<&str> =
        corpus.cases.iter().map(|(_, c)| c.slug()).collect();
    let survivors = std::fs::read_to_string(dir.join("survivors.tsv")).expect("survivors.tsv");
    for line in survivors.lines().filter(|l| !l.starts_with('#')) {
        let fields: Vec<&str> = line.split('\t').collect();
        if fields.get(2) == Some(&"killed") {
            let case = fields[3].split_whitespace().next().unwrap_or("");
            if !slugs.contains(case) {
                return Err(format!("survivors.tsv names no case of the corpus: {line}").into());
            }
        }
    }
    Ok(())
}

/// Bad input: a usage error, a run that is not there, a malformed list.
fn the_mutation_report_refuses_bad_input_with_exit_2() -> Result<(), Failed> {
    let tmp = crate::common::scratch_dir("mutants-report");
    let bad = tmp.join("bad.tsv");
    std::fs::write(&bad, "src/rules.rs\tPlayer::other\tmaybe\twhy\n").expect("write");
    let record = tmp.join("record.tsv");
    std::fs::write(&record, "caught\tsrc/rules.rs:1:1: replace x with y in f\n").expect("write");
    let bad_record = tmp.join("bad-record.tsv");
    std::fs::write(&bad_record, "survived src/rules.rs:1:1\n").expect("write");
    let missing = tmp.join("no-such-run");
    let cases: [(Vec<&str>, &str); 4] = [
        (vec![], "usage: record OUT_DIR SHARD COMMIT"),
        (
            vec!["record", missing.to_str().expect("utf-8"), "0/8", "abc"],
            "is not a directory",
        ),
        (
            vec![
                "table",
                "--survivors",
                bad.to_str().expect("utf-8"),
                record.to_str().expect("utf-8"),
            ],
            "bad.tsv:1: expected 'file<TAB>function<TAB>killed|reference|equivalent|removed<TAB>why'",
        ),
        (
            vec!["table", bad_record.to_str().expect("utf-8")],
            "bad-record.tsv:1: expected 'outcome<TAB>mutant'",
        ),
    ];
    for (args, fragment) in cases {
        let (code, text) = mutants_report(&args);
        if code != 2 || !text.contains(fragment) {
            return Err(format!("{args:?}: exit {code}: {text}").into());
        }
    }
    let _ = std::fs::remove_dir_all(&tmp);
    Ok(())
}
