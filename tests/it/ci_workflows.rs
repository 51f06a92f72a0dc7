//! The CI workflows of docs/ci/ run here: each file is read with a YAML
//! parser and its `run:` steps run for real in bash, in a scratch
//! repository, with the matrix cut to two shards and the merge job after
//! them (`tests/common/actions.rs`). A workflow that names a flag or a
//! command that no longer exists fails here.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

use crate::common::actions::{self, Ended, Runner};
use crate::common::{scratch_dir, seams};

const ROOT: &str = env!("CARGO_MANIFEST_DIR");

fn workflow(name: &str) -> actions::Workflow {
    actions::read(&Path::new(ROOT).join("docs/ci").join(name))
}

fn git(dir: &Path, args: &[&str]) {
    let ok = Command::new("git")
        .args([
            "-c",
            "user.name=seams tests",
            "-c",
            "user.email=tests@seams.invalid",
        ])
        .args(args)
        .current_dir(dir)
        .output()
        .expect("git runs");
    assert!(
        ok.status.success(),
        "git {args:?}: {}",
        String::from_utf8_lossy(&ok.stderr)
    );
}

/// A scratch repository: `files` written, committed on branch `main`.
fn repo(scratch: &Path, files: &[(&str, String)]) -> PathBuf {
    let repo = scratch.join("repo");
    std::fs::create_dir_all(&repo).unwrap();
    git(&repo, &["init", "-q", "-b", "main"]);
    for (path, text) in files {
        let path = repo.join(path);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    }
    git(&repo, &["add", "-A"]);
    git(&repo, &["commit", "-q", "-m", "start"]);
    repo
}

/// An engine's repository: a Cargo project that builds (the workflow's
/// "Build the engine" step runs for real) and the engine's expectations
/// file, written by `seams conform --baseline` for `engine`.
fn engine_repo(scratch: &Path, engine: &str) -> PathBuf {
    let known = scratch.join("known.json");
    let r = seams(&[
        "conform",
        "--engine",
        engine,
        "--baseline",
        known.to_str().unwrap(),
    ]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    repo(
        scratch,
        &[
            (
                "Cargo.toml",
                "[package]\nname = \"my-engine\"\nversion = \"0.1.0\"\nedition = \"2021\"\n".into(),
            ),
            ("src/main.rs", "fn main() {}\n".into()),
            (
                "conformance/known.json",
                std::fs::read_to_string(known).unwrap(),
            ),
        ],
    )
}

fn runner(scratch: &Path, repo: PathBuf, env: &[(&str, &str)]) -> Runner {
    Runner {
        repo,
        scratch: scratch.to_path_buf(),
        base_ref: "main".into(),
        shards: vec![1, 2],
        env: env
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect::<BTreeMap<_, _>>(),
    }
}

/// The job instances of `job`, and the merge job's summary.
fn only<'e>(ended: &'e [Ended], job: &str) -> Vec<&'e Ended> {
    ended.iter().filter(|e| e.job == job).collect()
}

/// Each step of `e` that ran, with its exit code, for a message.
fn steps(e: &Ended) -> String {
    format!("{:?}\n{}", e.steps, e.log)
}

#[test]
fn the_engine_workflow_shards_the_corpus_and_merges_the_verdict() {
    let scratch = scratch_dir("ci-engine");
    let repo = engine_repo(&scratch, "seams engine");
    let w = workflow("engine.yml");
    // The engine as its own expectations file describes it: every job
    // passes, and the summary is the one an unsharded run writes.
    let ended = runner(&scratch, repo.clone(), &[("ENGINE", "seams engine")]).run(&w);
    let shards = only(&ended, "shard");
    assert_eq!(shards.len(), 2);
    assert!(shards.iter().all(|e| e.ok), "{}", steps(shards[0]));
    let merge = only(&ended, "merge");
    assert!(merge[0].ok, "{}", steps(merge[0]));
    let whole = seams(&[
        "conform",
        "--engine",
        "seams engine",
        "--expect",
        repo.join("conformance/known.json").to_str().unwrap(),
        "--format",
        "markdown",
    ]);
    // The wall time after the counts differs from run to run.
    let headline = whole.stdout.lines().nth(2).unwrap();
    let headline = headline.split(';').next().unwrap();
    let n = seams::conformance::Corpus::builtin()
        .expect("the built-in corpus loads")
        .cases
        .len();
    assert!(
        headline.contains(&format!("{n} cases: {n} passed")),
        "{}",
        whole.stdout
    );
    assert!(merge[0].summary.contains(headline), "{}", merge[0].summary);
    assert!(
        scratch
            .join("artifacts/conform-report/conform.html")
            .is_file()
    );

    // A regressed engine: the shards still end well (their exit 1 is the
    // merge's to give), the verdict fails, and the summary, the page and
    // the JUnit report are still made.
    let scratch = scratch_dir("ci-engine-mutant");
    let ended = runner(
        &scratch,
        repo,
        &[("ENGINE", "seams engine --mutant knight-lls")],
    )
    .run(&w);
    assert!(only(&ended, "shard").iter().all(|e| e.ok));
    let merge = only(&ended, "merge")[0];
    assert!(!merge.ok, "{}", steps(merge));
    let code = |name: &str| merge.steps.iter().find(|(n, _)| n == name).unwrap().1;
    assert_eq!(code("The verdict, as JUnit"), Some(1), "{}", steps(merge));
    assert_eq!(code("The summary"), Some(0), "{}", steps(merge));
    assert_eq!(code("The page with pictures"), Some(0), "{}", steps(merge));
    assert_eq!(code("mikepenz/action-junit-report@v4"), Some(0));
    assert!(merge.summary.contains("knight"), "{}", merge.summary);
    assert!(
        scratch
            .join("artifacts/conform-report/conform.html")
            .is_file()
    );
}

#[test]
fn the_fuzz_workflow_plays_its_shards_and_merges_the_findings() {
    let scratch = scratch_dir("ci-fuzz");
    let repo = engine_repo(&scratch, "seams engine");
    let w = workflow("fuzz.yml");
    let ended = runner(
        &scratch,
        repo.clone(),
        &[("ENGINE", "seams engine"), ("GAMES", "2"), ("SEED", "1")],
    )
    .run(&w);
    assert!(
        only(&ended, "shard").iter().all(|e| e.ok),
        "{}",
        steps(&ended[0])
    );
    let merge = only(&ended, "merge")[0];
    assert!(merge.ok, "{}", steps(merge));
    assert!(merge.summary.contains("0 finding"), "{}", merge.summary);

    // A mutant is caught: the night's job fails, with the finding in the
    // summary and its case file kept.
    let scratch = scratch_dir("ci-fuzz-mutant");
    let ended = runner(
        &scratch,
        repo,
        &[
            ("ENGINE", "seams engine --mutant kyoto-flip-on-drop"),
            ("GAMES", "6"),
            // A fixed seed: the night's date would make the test's games
            // change daily.
            ("SEED", "1"),
        ],
    )
    .run(&w);
    assert!(
        only(&ended, "shard").iter().all(|e| e.ok),
        "{}",
        steps(&ended[0])
    );
    let merge = only(&ended, "merge")[0];
    assert!(!merge.ok, "{}", steps(merge));
    assert!(!merge.summary.contains(" 0 finding"), "{}", merge.summary);
    assert!(scratch.join("artifacts/fuzz-report/fuzz.html").is_file());
}

#[test]
fn the_rules_workflow_reports_a_change_and_gates_it() {
    let scratch = scratch_dir("ci-rules");
    let copy = |from: &str| -> Vec<(String, String)> {
        walkdir::WalkDir::new(Path::new(ROOT).join(from))
            .into_iter()
            .flatten()
            .filter(|e| e.file_type().is_file())
            .map(|e| {
                let rel = e.path().strip_prefix(ROOT).unwrap().display().to_string();
                (rel, std::fs::read_to_string(e.path()).unwrap())
            })
            .collect()
    };
    let mut files = copy("spec");
    files.extend(copy("conformance/cases"));
    let files: Vec<(&str, String)> = files.iter().map(|(p, t)| (p.as_str(), t.clone())).collect();
    let repo = repo(&scratch, &files);
    let w = workflow("rules.yml");

    // A pull request that changes nothing released.
    git(&repo, &["checkout", "-q", "-b", "unchanged"]);
    let ended = runner(&scratch, repo.clone(), &[]).run(&w);
    let gate = only(&ended, "gate")[0];
    assert!(gate.ok, "{}", steps(gate));
    assert!(
        gate.summary.contains("summary: no changes"),
        "{}",
        gate.summary
    );

    // One that changes a released answer: the report lists the changed
    // cases, and the gate fails.
    git(
        &repo,
        &["checkout", "-q", "-b", "shorter-repetition", "main"],
    );
    let file = repo.join("spec/chess/chess-mobius.toml");
    let edited = std::fs::read_to_string(&file)
        .unwrap()
        .replace("repetition = 5", "repetition = 3");
    std::fs::write(&file, edited).unwrap();
    git(&repo, &["commit", "-q", "-am", "repetition 3"]);
    let scratch = scratch_dir("ci-rules-edited");
    let ended = runner(&scratch, repo, &[]).run(&w);
    let gate = only(&ended, "gate")[0];
    assert!(!gate.ok, "{}", steps(gate));
    let code = |name: &str| gate.steps.iter().find(|(n, _)| n == name).unwrap().1;
    assert_eq!(code("The change report against the base branch"), Some(0));
    assert_eq!(code("The gate"), Some(1), "{}", steps(gate));
    assert!(gate.summary.contains("changed case"), "{}", gate.summary);
    assert!(
        scratch
            .join("artifacts/change-report/change-report.html")
            .is_file()
    );
}
