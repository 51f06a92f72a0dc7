//! A small runner of GitHub Actions workflows, enough to run the ones in
//! docs/ci/ locally: their `run:` steps for real, in bash, in a scratch
//! repository, with `seams` on the PATH.
//!
//! What it does not run it emulates: `actions/checkout` (each job starts in
//! a fresh clone of the scratch repository), `actions/cache` (nothing is
//! cached), `actions/upload-artifact` and `actions/download-artifact`
//! (files copied through a folder), and `mikepenz/action-junit-report` (the
//! report must exist and be JUnit XML). Any other action, and any `${{ }}`
//! expression it does not know, fails the test by name: the docs must not
//! drift into something this runner cannot check.
//!
//! A matrix `shard: [1, 2, …, N]` runs with the shards the test asks for,
//! and `strategy.job-total` is their count, so a workflow written for N
//! jobs runs here with N = 2.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

use yaml_rust2::{Yaml, YamlLoader};

/// One step of a job.
#[derive(Debug)]
pub struct Step {
    pub name: String,
    pub uses: Option<String>,
    pub with: BTreeMap<String, String>,
    pub run: Option<String>,
    pub condition: Option<String>,
}

/// One job of a workflow.
#[derive(Debug)]
pub struct Job {
    pub id: String,
    pub needs: Vec<String>,
    pub condition: Option<String>,
    /// The `shard` values of its matrix, if it has one.
    pub shards: Option<Vec<u32>>,
    pub steps: Vec<Step>,
}

/// A workflow file, read.
#[derive(Debug)]
pub struct Workflow {
    pub env: BTreeMap<String, String>,
    pub jobs: Vec<Job>,
}

fn text(y: &Yaml) -> Option<String> {
    match y {
        Yaml::String(s) => Some(s.clone()),
        Yaml::Integer(i) => Some(i.to_string()),
        Yaml::Boolean(b) => Some(b.to_string()),
        Yaml::Real(r) => Some(r.clone()),
        _ => None,
    }
}

fn map(y: &Yaml) -> BTreeMap<String, String> {
    let mut out = BTreeMap::new();
    if let Yaml::Hash(h) = y {
        for (k, v) in h {
            if let (Some(k), Some(v)) = (text(k), text(v)) {
                out.insert(k, v);
            }
        }
    }
    out
}

/// Reads a workflow file with a YAML parser.
pub fn read(path: &Path) -> Workflow {
    let source = std::fs::read_to_string(path).expect("workflow file");
    let docs = YamlLoader::load_from_str(&source)
        .unwrap_or_else(|e| panic!("{}: not YAML: {e}", path.display()));
    let doc = &docs[0];
    let mut jobs = Vec::new();
    let Yaml::Hash(job_map) = &doc["jobs"] else {
        panic!("{}: no jobs", path.display());
    };
    for (id, job) in job_map {
        let id = text(id).expect("job id");
        let needs = match &job["needs"] {
            Yaml::Array(a) => a.iter().filter_map(text).collect(),
            y => text(y).into_iter().collect(),
        };
        let shards = match &job["strategy"]["matrix"]["shard"] {
            Yaml::Array(a) => Some(
                a.iter()
                    .map(|s| s.as_i64().expect("shard numbers") as u32)
                    .collect(),
            ),
            _ => None,
        };
        let steps = job["steps"]
            .as_vec()
            .unwrap_or_else(|| panic!("{}: job {id} has no steps", path.display()))
            .iter()
            .map(|s| Step {
                name: text(&s["name"])
                    .or_else(|| text(&s["uses"]))
                    .unwrap_or_else(|| "(unnamed)".into()),
                uses: text(&s["uses"]),
                with: map(&s["with"]),
                run: text(&s["run"]),
                condition: text(&s["if"]),
            })
            .collect();
        jobs.push(Job {
            id,
            needs,
            condition: text(&job["if"]),
            shards,
            steps,
        });
    }
    Workflow {
        env: map(&doc["env"]),
        jobs,
    }
}

/// How a job instance ended, with what it wrote to the job summary.
#[derive(Debug)]
pub struct Ended {
    pub job: String,
    pub shard: Option<u32>,
    pub ok: bool,
    /// Each step's name and its exit code (`None`: skipped).
    pub steps: Vec<(String, Option<i32>)>,
    pub summary: String,
    /// The output of the steps, for a failing assertion's message.
    pub log: String,
}

/// Where a workflow runs: the repository it checks out, the folder for
/// artifacts, the `${{ github.base_ref }}` of a pull request, and the
/// environment values the test sets over the workflow's own.
pub struct Runner {
    pub repo: PathBuf,
    pub scratch: PathBuf,
    pub base_ref: String,
    pub shards: Vec<u32>,
    pub env: BTreeMap<String, String>,
}

impl Runner {
    /// Runs every job of `w` in order (each after the jobs it needs), and
    /// returns how each instance ended.
    pub fn run(&self, w: &Workflow) -> Vec<Ended> {
        let artifacts = self.scratch.join("artifacts");
        std::fs::create_dir_all(&artifacts).unwrap();
        let bin = self.scratch.join("bin");
        std::fs::create_dir_all(&bin).unwrap();
        let seams = bin.join("seams");
        if !seams.exists() {
            std::os::unix::fs::symlink(env!("CARGO_BIN_EXE_seams"), &seams).unwrap();
        }
        let mut ended: Vec<Ended> = Vec::new();
        for job in &w.jobs {
            let needed_ok = job
                .needs
                .iter()
                .all(|n| ended.iter().filter(|e| &e.job == n).all(|e| e.ok));
            let run_job = match job.condition.as_deref() {
                None => needed_ok,
                Some(c) => self.condition(c, !needed_ok),
            };
            if !run_job {
                continue;
            }
            let instances: Vec<Option<u32>> = match &job.shards {
                None => vec![None],
                Some(listed) => {
                    let n = listed.len() as u32;
                    assert_eq!(
                        listed,
                        &(1..=n).collect::<Vec<_>>(),
                        "job {}: the matrix lists the shards 1 to N",
                        job.id
                    );
                    self.shards.iter().copied().map(Some).collect()
                }
            };
            for shard in instances {
                ended.push(self.run_job(w, job, shard, &artifacts, &bin));
            }
        }
        ended
    }

    fn condition(&self, c: &str, failed: bool) -> bool {
        match c
            .trim()
            .trim_start_matches("${{")
            .trim_end_matches("}}")
            .trim()
        {
            "always()" | "!cancelled()" => true,
            "failure()" => failed,
            "success()" => !failed,
            other => panic!("a condition this runner does not know: {other}"),
        }
    }

    fn run_job(
        &self,
        w: &Workflow,
        job: &Job,
        shard: Option<u32>,
        artifacts: &Path,
        bin: &Path,
    ) -> Ended {
        let tag = format!("{}-{}", job.id, shard.unwrap_or(0));
        let work = self.scratch.join("jobs").join(&tag);
        let _ = std::fs::remove_dir_all(&work);
        std::fs::create_dir_all(&work).unwrap();
        let summary = self.scratch.join(format!("summary-{tag}.md"));
        std::fs::write(&summary, "").unwrap();
        let mut env = w.env.clone();
        env.extend(self.env.clone());
        let mut failed = false;
        let mut steps = Vec::new();
        let mut log = String::new();
        for step in &job.steps {
            let go = match step.condition.as_deref() {
                None => !failed,
                Some(c) => self.condition(c, failed),
            };
            if !go {
                steps.push((step.name.clone(), None));
                continue;
            }
            let code = match (&step.uses, &step.run) {
                (Some(action), None) => self.action(action, step, &work, artifacts, shard, &env),
                (None, Some(script)) => {
                    let script = self.expand(script, shard, &env);
                    let out = Command::new("bash")
                        .args(["--noprofile", "--norc", "-eo", "pipefail", "-c", &script])
                        .current_dir(&work)
                        .envs(&env)
                        .env(
                            "PATH",
                            format!("{}:{}", bin.display(), std::env::var("PATH").unwrap()),
                        )
                        .env("GITHUB_STEP_SUMMARY", &summary)
                        .env("CARGO_TARGET_DIR", self.scratch.join("target"))
                        .output()
                        .expect("bash runs");
                    log.push_str(&format!(
                        "--- {} (exit {:?})\n{}{}",
                        step.name,
                        out.status.code(),
                        String::from_utf8_lossy(&out.stdout),
                        String::from_utf8_lossy(&out.stderr)
                    ));
                    out.status.code().unwrap_or(-1)
                }
                _ => panic!("step {}: neither uses nor run", step.name),
            };
            failed |= code != 0;
            steps.push((step.name.clone(), Some(code)));
        }
        Ended {
            job: job.id.clone(),
            shard,
            ok: !failed,
            steps,
            summary: std::fs::read_to_string(&summary).unwrap(),
            log,
        }
    }

    /// `${{ … }}` in a step's text, for the expressions the docs use.
    fn expand(&self, s: &str, shard: Option<u32>, env: &BTreeMap<String, String>) -> String {
        let mut out = String::new();
        let mut rest = s;
        while let Some(start) = rest.find("${{") {
            out.push_str(&rest[..start]);
            let end = rest[start..].find("}}").expect("a closed expression") + start;
            let expr = rest[start + 3..end].trim();
            let value = match expr {
                "matrix.shard" => shard.expect("a matrix job").to_string(),
                "strategy.job-total" => self.shards.len().to_string(),
                "github.base_ref" => self.base_ref.clone(),
                e if e.starts_with("env.") => env[&e[4..]].clone(),
                other => panic!("an expression this runner does not know: {other}"),
            };
            out.push_str(&value);
            rest = &rest[end + 2..];
        }
        out.push_str(rest);
        out
    }

    fn action(
        &self,
        action: &str,
        step: &Step,
        work: &Path,
        artifacts: &Path,
        shard: Option<u32>,
        env: &BTreeMap<String, String>,
    ) -> i32 {
        let with = |k: &str| step.with.get(k).map(|v| self.expand(v, shard, env));
        match action {
            "actions/checkout@v4" => {
                let ok = Command::new("git")
                    .args(["clone", "-q", "--shared"])
                    .arg(&self.repo)
                    .arg(".")
                    .current_dir(work)
                    .status()
                    .expect("git runs")
                    .success();
                if ok { 0 } else { 1 }
            }
            "actions/cache@v4" => 0,
            "actions/upload-artifact@v4" => {
                let name = with("name").expect("an artifact name");
                let into = artifacts.join(name);
                std::fs::create_dir_all(&into).unwrap();
                let paths = with("path").expect("an artifact path");
                let found: Vec<PathBuf> = paths
                    .lines()
                    .map(str::trim)
                    .filter(|p| !p.is_empty())
                    .flat_map(|p| glob(work, p))
                    .collect();
                // As the action does: paths are kept relative to their
                // least common ancestor (a folder alone: its contents).
                let folder = |p: &PathBuf| {
                    if work.join(p).is_dir() {
                        p.clone()
                    } else {
                        p.parent().map(Path::to_path_buf).unwrap_or_default()
                    }
                };
                let Some(mut root) = found.first().map(folder) else {
                    return 1;
                };
                for p in &found {
                    while !p.starts_with(&root) {
                        root.pop();
                    }
                }
                for p in &found {
                    copy(&work.join(p), &into.join(p.strip_prefix(&root).unwrap()));
                }
                0
            }
            "actions/download-artifact@v4" => {
                let pattern = with("pattern").unwrap_or_else(|| "*".into());
                let into = work.join(with("path").unwrap_or_else(|| ".".into()));
                let merge = with("merge-multiple").as_deref() == Some("true");
                for name in glob(artifacts, &pattern) {
                    let to = if merge {
                        into.clone()
                    } else {
                        into.join(&name)
                    };
                    copy(&artifacts.join(&name), &to);
                }
                0
            }
            "mikepenz/action-junit-report@v4" => {
                let path = work.join(with("report_paths").expect("report_paths"));
                match std::fs::read_to_string(&path) {
                    Ok(xml) if xml.starts_with("<?xml") && xml.contains("<testsuites") => 0,
                    _ => 1,
                }
            }
            other => panic!("an action this runner does not emulate: {other}"),
        }
    }
}

/// Paths under `root` (relative to it) matching `pattern`, whose `*`
/// matches within one path segment.
fn glob(root: &Path, pattern: &str) -> Vec<PathBuf> {
    let mut found = vec![PathBuf::new()];
    for part in pattern.split('/') {
        let mut next = Vec::new();
        for base in &found {
            let Ok(entries) = std::fs::read_dir(root.join(base)) else {
                continue;
            };
            let mut names: Vec<String> = entries
                .flatten()
                .map(|e| e.file_name().to_string_lossy().into_owned())
                .collect();
            names.sort();
            for name in names {
                if seams::conformance::runner::glob_match(part, &name) {
                    next.push(base.join(name));
                }
            }
        }
        found = next;
    }
    found
}

/// Copies a file or folder to `to`, folders merged into what is there.
fn copy(from: &Path, to: &Path) {
    if from.is_dir() {
        std::fs::create_dir_all(to).unwrap();
        for e in std::fs::read_dir(from).unwrap().flatten() {
            copy(&e.path(), &to.join(e.file_name()));
        }
    } else {
        if let Some(p) = to.parent() {
            std::fs::create_dir_all(p).unwrap();
        }
        std::fs::copy(from, to).unwrap();
    }
}
