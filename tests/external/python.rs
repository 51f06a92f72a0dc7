//! Tests that run Python: the example engine in tools/, the Python kit
//! installed as a package into a fresh venv, the case-id recipe written in
//! Python in conformance/README.md, tools/mutants_report.py over the
//! mutation records, and tools/deep-perft.sh (which reads its merged report
//! with Python).
//!
//! A machine without `python3` reports these trials as *ignored* in the
//! `cargo test` summary, with the reason in their names, instead of
//! passing them (the harness is `main.rs`'s). `--include-ignored` runs them anyway, and they then fail.
//! The installed kit's trial also needs a venv and PyPI (pip fetches
//! setuptools for the build); where it finds either missing it reports
//! itself ignored, with the reason, when it has run.

use std::path::Path;
use std::process::{Command, Output};

use crate::common::seams;
use libtest_mimic::{Completion, Failed, Trial};

/// A named check of this harness, run as a libtest trial.
type Check = (&'static str, fn() -> Result<(), Failed>);

/// A check that may find what it needs missing when it runs, and then
/// reports itself ignored with the reason.
type IgnorableCheck = (&'static str, fn() -> Result<Completion, Failed>);

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
    let mut trials: Vec<Trial> = tests
        .into_iter()
        .map(|(name, f)| {
            if python {
                Trial::test(name, f)
            } else {
                Trial::test(format!("{name} (needs python3 on PATH)"), f).with_ignored_flag(true)
            }
        })
        .collect();
    let ignorable: [IgnorableCheck; 2] = [
        (
            "the_kit_installs_into_a_fresh_venv_and_its_example_engine_passes_geometry",
            the_kit_installs_into_a_fresh_venv_and_its_example_engine_passes_geometry,
        ),
        (
            "the_deep_perft_script_counts_by_shards_with_tables_and_merges",
            the_deep_perft_script_counts_by_shards_with_tables_and_merges,
        ),
    ];
    trials.extend(ignorable.into_iter().map(|(name, f)| {
        if python {
            Trial::ignorable_test(name, f)
        } else {
            Trial::ignorable_test(format!("{name} (needs python3 on PATH)"), f)
                .with_ignored_flag(true)
        }
    }));
    trials
}

/// The example Python engine from tools/ passes every geometry case and
/// says unsupported to everything else. Run with the `python3` on PATH,
/// which needs no kit installed: the launcher then imports the checkout's.
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
    check_example_report(&r.stdout);
    Ok(())
}

/// The example engine's JSON report of the whole corpus: every question
/// about a board of glued charts passes; the tetrahedral board, board
/// files and every variant are unsupported there.
fn check_example_report(json: &str) {
    let v: serde_json::Value = serde_json::from_str(json).expect("JSON report");
    let mut passed = 0;
    for c in v["cases"].as_array().expect("cases") {
        let subject = c["subject"].as_str().unwrap_or("");
        let chart_board = subject
            .strip_prefix("board:")
            .is_some_and(|b| seams::spec::Library::builtin().solid(b).is_none());
        let want = if chart_board { "pass" } else { "unsupported" };
        assert_eq!(c["outcome"], want, "{c}");
        passed += usize::from(chart_board);
    }
    assert!(passed > 0, "no geometry case was asked");
    assert_eq!(v["engine"]["name"], "example-engine");
}

/// Runs `python` with `args` in `dir`, without a PYTHONPATH that could put
/// the checkout's copy of the kit before the installed one.
fn python_in(python: &Path, dir: &Path, args: &[&str]) -> Output {
    Command::new(python)
        .args(args)
        .current_dir(dir)
        .env_remove("PYTHONPATH")
        .output()
        .expect("python runs")
}

/// Both streams of a finished command, for a failure's message.
fn streams(out: &Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr)
}

/// The kit as users install it: `pip install ./tools/python` into a fresh
/// venv (from a copy of the folder, as setuptools builds in place), the
/// distribution's version the protocol's, and the example engine run from
/// the installed package, `python -m seams_example_engine --spec DIR`,
/// passing every geometry case as the checkout's launcher does.
fn the_kit_installs_into_a_fresh_venv_and_its_example_engine_passes_geometry()
-> Result<Completion, Failed> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let tmp = crate::common::scratch_dir("kit-venv");
    // The folder's files only: not the build/, *.egg-info/ or __pycache__/
    // an earlier install or run left there, which a build would pick up.
    let kit = tmp.join("tools/python");
    std::fs::create_dir_all(&kit).expect("scratch kit folder");
    for entry in std::fs::read_dir(root.join("tools/python")).expect("tools/python") {
        let path = entry.expect("a folder entry").path();
        if path.is_file() {
            std::fs::copy(&path, kit.join(path.file_name().expect("a name"))).expect("copy");
        }
    }
    let venv = tmp.join("venv");
    let made = python_in(Path::new("python3"), &tmp, &["-m", "venv", "venv"]);
    if !made.status.success() {
        let _ = std::fs::remove_dir_all(&tmp);
        return Ok(Completion::ignored_with(format!(
            "python3 cannot make a venv: {}",
            streams(&made).trim()
        )));
    }
    let python = venv.join("bin/python");
    let pip = |args: &[&str]| {
        let mut all = vec!["-m", "pip", "--disable-pip-version-check"];
        all.extend(args);
        python_in(&python, &tmp, &all)
    };
    let install = pip(&["install", "./tools/python"]);
    if !install.status.success() {
        // Offline, the isolated build cannot fetch its backend: the trial
        // cannot run. With PyPI in reach, the failure is the kit's.
        let probe = pip(&["download", "--no-deps", "--dest", "probe", "setuptools>=61"]);
        if !probe.status.success() {
            let _ = std::fs::remove_dir_all(&tmp);
            return Ok(Completion::ignored_with(
                "pip cannot fetch setuptools from PyPI for the build",
            ));
        }
        return Err(format!("pip install ./tools/python:\n{}", streams(&install)).into());
    }

    let protocol = serde_json::to_value(seams::conformance::protocol::PROTOCOL_VERSION)
        .expect("a version is a string");
    let show = pip(&["show", "seams-kit"]);
    let version = String::from_utf8_lossy(&show.stdout)
        .lines()
        .find_map(|l| l.strip_prefix("Version: ").map(str::to_string));
    if version.as_deref() != protocol.as_str() {
        return Err(format!(
            "pip show seams-kit, against protocol {protocol}:\n{}",
            streams(&show)
        )
        .into());
    }

    let site = python_in(
        &python,
        &tmp,
        &["-c", "import seams_example_engine as m; print(m.__file__)"],
    );
    let file = String::from_utf8_lossy(&site.stdout).trim().to_string();
    if !Path::new(&file).starts_with(&venv) {
        return Err(format!(
            "seams_example_engine is imported from outside the venv: {}",
            streams(&site)
        )
        .into());
    }

    let engine = format!(
        "'{}' -m seams_example_engine --spec '{}'",
        python.display(),
        root.join("spec").display()
    );
    let r = Command::new(env!("CARGO_BIN_EXE_seams"))
        .args(["conform", "--engine", &engine, "--format", "json"])
        .current_dir(&tmp)
        .env_remove("PYTHONPATH")
        .output()
        .expect("the seams binary runs");
    if !r.status.success() {
        return Err(format!("seams conform --engine {engine}:\n{}", streams(&r)).into());
    }
    check_example_report(&String::from_utf8_lossy(&r.stdout));
    let _ = std::fs::remove_dir_all(&tmp);
    Ok(Completion::Completed)
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

/// tools/deep-perft.sh, as conformance/PERFT.md runs it, on a count small
/// enough for a test: three shards two at a time, each with two threads
/// and a table, merged into the published figure. It times each shard
/// with `/usr/bin/time`, and reports itself ignored, with the reason,
/// where that is missing.
fn the_deep_perft_script_counts_by_shards_with_tables_and_merges() -> Result<Completion, Failed> {
    if !Path::new("/usr/bin/time").exists() {
        return Ok(Completion::ignored_with(
            "needs /usr/bin/time (Debian's time package)",
        ));
    }
    let target = crate::common::scratch_dir("deep-perft");
    let out = Command::new("bash")
        .arg(concat!(env!("CARGO_MANIFEST_DIR"), "/tools/deep-perft.sh"))
        .args(["chess-flat", "5", "3", "2"])
        .env("SEAMS", env!("CARGO_BIN_EXE_seams"))
        .env("CARGO_TARGET_DIR", &target)
        .env("THREADS", "2")
        .env("HASH", "8")
        .output()
        .map_err(|e| format!("bash: {e}"))?;
    let stdout = String::from_utf8_lossy(&out.stdout);
    if !out.status.success() || !stdout.starts_with("| chess-flat | 5 | 4865609 | 3 | ") {
        return Err(format!(
            "exit {:?}\nstdout: {stdout}\nstderr: {}",
            out.status.code(),
            String::from_utf8_lossy(&out.stderr)
        )
        .into());
    }
    let dir = target.join("deep-perft/chess-flat-5");
    for k in 1..=3 {
        let shard = std::fs::read_to_string(dir.join(format!("shard-{k}.json")))
            .map_err(|e| format!("shard {k}: {e}"))?;
        let report: serde_json::Value =
            serde_json::from_str(&shard).map_err(|e| format!("shard {k}: {e}"))?;
        if report["hash_mib"] != 8 || report["threads"] != 2 {
            return Err(format!("shard {k} did not count as asked: {shard}").into());
        }
    }
    let times = std::fs::read_to_string(dir.join("times.tsv")).map_err(|e| e.to_string())?;
    if times.lines().count() != 4 {
        return Err(format!("times.tsv should have a header and 3 rows: {times}").into());
    }
    std::fs::remove_dir_all(&target).ok();
    Ok(Completion::Completed)
}
