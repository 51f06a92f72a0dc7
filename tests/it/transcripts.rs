//! Every command README.md and docs/*.md show is run as they show it, so
//! the text and the program cannot drift apart.
//!
//! The convention (also in ARCHITECTURE.md): a file's code blocks run in
//! order, in one scratch
//! folder that holds copies of `spec/`, `conformance/`, `tools/` and
//! `examples/`, with `seams` first on `PATH`, each command through `sh -c`.
//! - ```` ```console ````: a transcript. `$ ` starts a command; a `? N`
//!   line right after it is its exit code (0 otherwise); the lines up to
//!   the next command are its output, stdout then stderr, where `[..]`
//!   matches any text within a line and a line `...` any lines. A command
//!   with no output lines shown is run for its exit code alone.
//! - ```` ```sh ````: commands shown without output; each must exit 0.
//! - ```` ```sh not-run ````: shown, never run (building or installing the
//!   project, the network, an editor); the test lists them.
//! - ```` ```sh background ````: a server; it must print a line and keep
//!   running for two seconds, then it is stopped.
//!   Other languages are not commands.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// How long one shown command may take before it counts as hung.
const COMMAND_LIMIT: Duration = Duration::from_secs(300);

/// A fenced code block: where it starts, its info string and its lines.
struct Block {
    line: usize,
    lang: String,
    attrs: Vec<String>,
    body: Vec<String>,
}

fn blocks(text: &str) -> Vec<Block> {
    let mut out = Vec::new();
    let mut open: Option<Block> = None;
    for (n, line) in text.lines().enumerate() {
        let trimmed = line.trim_start();
        match &mut open {
            None if trimmed.starts_with("```") => {
                let info = trimmed.trim_start_matches('`').trim();
                let mut words = info.split_whitespace().map(str::to_string);
                open = Some(Block {
                    line: n + 1,
                    lang: words.next().unwrap_or_default(),
                    attrs: words.collect(),
                    body: Vec::new(),
                });
            }
            Some(_) if trimmed.starts_with("```") => out.extend(open.take()),
            Some(b) => b.body.push(line.to_string()),
            None => {}
        }
    }
    out
}

/// One command of a transcript, with what it must give.
struct Step {
    line: usize,
    command: String,
    code: i32,
    /// `None` when the transcript shows no output for it.
    output: Option<String>,
}

fn console_steps(b: &Block) -> Vec<Step> {
    let mut steps: Vec<Step> = Vec::new();
    let mut output: Vec<String> = Vec::new();
    let finish = |steps: &mut Vec<Step>, output: &mut Vec<String>| {
        if let Some(last) = steps.last_mut() {
            // Blank lines at the end of a block are layout, not output.
            while output.last().is_some_and(|l| l.trim().is_empty()) {
                output.pop();
            }
            if !output.is_empty() {
                last.output = Some(output.join("\n") + "\n");
            }
        }
        output.clear();
    };
    for (i, line) in b.body.iter().enumerate() {
        if let Some(command) = line.strip_prefix("$ ") {
            finish(&mut steps, &mut output);
            steps.push(Step {
                line: b.line + 1 + i,
                command: command.to_string(),
                code: 0,
                output: None,
            });
        } else if let Some(code) = line.strip_prefix("? ")
            && output.is_empty()
            && let Some(step) = steps.last_mut()
        {
            step.code = code.trim().parse().unwrap_or(-1);
        } else if !steps.is_empty() {
            output.push(line.clone());
        }
    }
    finish(&mut steps, &mut output);
    steps
}

/// What a command did.
struct Ran {
    code: i32,
    output: String,
}

fn shell(dir: &Path, command: &str) -> Command {
    let bin = Path::new(env!("CARGO_BIN_EXE_seams"))
        .parent()
        .expect("the binary's folder");
    let path = std::env::var_os("PATH").unwrap_or_default();
    let mut paths = vec![bin.to_path_buf()];
    paths.extend(std::env::split_paths(&path));
    let mut c = Command::new("sh");
    c.arg("-c")
        .arg(command)
        .current_dir(dir)
        .env("PATH", std::env::join_paths(paths).expect("a PATH"))
        .stdin(Stdio::null());
    c
}

/// Runs `command` to its end (killed with its group past the limit).
fn run(dir: &Path, command: &str) -> Result<Ran, String> {
    let out_file = dir.join(".transcript-stdout");
    let err_file = dir.join(".transcript-stderr");
    let mut child = crate::common::reap::spawn(
        shell(dir, command)
            .stdout(std::fs::File::create(&out_file).map_err(|e| e.to_string())?)
            .stderr(std::fs::File::create(&err_file).map_err(|e| e.to_string())?),
    )
    .map_err(|e| format!("sh does not start: {e}"))?;
    let deadline = Instant::now() + COMMAND_LIMIT;
    let status = loop {
        match child.try_wait() {
            Ok(Some(s)) => break s,
            Ok(None) if Instant::now() > deadline => {
                crate::common::reap::kill(&mut child);
                return Err(format!("still running after {COMMAND_LIMIT:?}"));
            }
            Ok(None) => std::thread::sleep(Duration::from_millis(10)),
            Err(e) => return Err(e.to_string()),
        }
    };
    let read =
        |p: &Path| String::from_utf8_lossy(&std::fs::read(p).unwrap_or_default()).into_owned();
    let output = read(&out_file) + &read(&err_file);
    let _ = std::fs::remove_file(out_file);
    let _ = std::fs::remove_file(err_file);
    Ok(Ran {
        code: status.code().unwrap_or(-1),
        output,
    })
}

/// Starts a server, which must print a line and keep running for two
/// seconds; then stops it.
fn run_background(dir: &Path, command: &str) -> Result<(), String> {
    // Documents run side by side, and a server's documented command
    // names no port: one server at a time, so two never race for the
    // default one.
    static ONE_SERVER: std::sync::Mutex<()> = std::sync::Mutex::new(());
    let _turn = ONE_SERVER.lock().unwrap_or_else(|e| e.into_inner());
    let mut child = crate::common::reap::spawn(
        shell(dir, command)
            .stdout(Stdio::piped())
            .stderr(Stdio::null()),
    )
    .map_err(|e| format!("sh does not start: {e}"))?;
    let stdout = child.stdout.take().expect("piped stdout");
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let mut line = String::new();
        let _ = std::io::BufRead::read_line(&mut std::io::BufReader::new(stdout), &mut line);
        let _ = tx.send(line);
    });
    let result = match rx.recv_timeout(Duration::from_secs(20)) {
        Ok(line) if !line.is_empty() => {
            std::thread::sleep(Duration::from_secs(2));
            match child.try_wait() {
                Ok(None) => Ok(()),
                Ok(Some(s)) => Err(format!("it stopped ({s}) after printing {line:?}")),
                Err(e) => Err(e.to_string()),
            }
        }
        Ok(_) => Err("it ended without printing a line".into()),
        Err(_) => Err("it printed nothing within 20 s".into()),
    };
    crate::common::reap::kill(&mut child);
    result
}

/// A scratch folder with what a checkout's commands read.
fn scratch_for(doc: &str) -> PathBuf {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let dir = crate::common::scratch_dir(&format!("transcripts-{}", doc.replace('/', "-")));
    for folder in ["spec", "conformance", "tools", "examples"] {
        crate::common::copy_dir(&root.join(folder), &dir.join(folder));
    }
    dir
}

/// The documents whose commands are run: README.md and docs/*.md.
pub(crate) fn documents() -> Vec<String> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut docs = vec!["README.md".to_string()];
    let mut guides: Vec<String> = std::fs::read_dir(root.join("docs"))
        .map(|d| {
            d.flatten()
                .map(|e| e.path())
                .filter(|p| p.extension().is_some_and(|x| x == "md"))
                .map(|p| format!("docs/{}", p.file_name().unwrap().to_string_lossy()))
                .collect()
        })
        .unwrap_or_default();
    guides.sort();
    docs.extend(guides);
    docs
}

/// What running one document's commands found.
#[derive(Default)]
struct DocRun {
    failures: Vec<String>,
    ran: usize,
    compared: usize,
    not_run: Vec<String>,
}

/// Runs every command of one document, in order, in its own scratch copy
/// of the repository.
fn check_doc(doc: &str) -> DocRun {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let assert = snapbox::Assert::new();
    let mut failures = Vec::new();
    let (mut ran, mut compared, mut not_run) = (0, 0, Vec::new());
    let text = std::fs::read_to_string(root.join(doc)).expect("the document");
    let dir = scratch_for(doc);
    for b in blocks(&text) {
        let at = |line: usize| format!("{doc}:{line}");
        match (b.lang.as_str(), b.attrs.first().map(String::as_str)) {
            ("console", _) => {
                for step in console_steps(&b) {
                    ran += 1;
                    let got = match run(&dir, &step.command) {
                        Ok(r) => r,
                        Err(e) => {
                            failures.push(format!("{}: $ {}: {e}", at(step.line), step.command));
                            continue;
                        }
                    };
                    if got.code != step.code {
                        failures.push(format!(
                            "{}: $ {}: exit {} where the transcript says {}:\n{}",
                            at(step.line),
                            step.command,
                            got.code,
                            step.code,
                            got.output
                        ));
                        continue;
                    }
                    if let Some(expected) = &step.output {
                        compared += 1;
                        if let Err(e) = assert.try_eq(
                            Some(&step.command),
                            got.output.clone().into(),
                            expected.clone().into(),
                        ) {
                            failures.push(format!("{}: $ {}:\n{e}", at(step.line), step.command));
                        }
                    }
                }
            }
            ("sh", Some("not-run")) => {
                let shown = b.body.iter().filter(|l| is_command(l)).count();
                not_run.push(format!("{} ({shown} commands)", at(b.line)));
            }
            ("sh", Some("background")) => {
                for line in b.body.iter().filter(|l| is_command(l)) {
                    ran += 1;
                    if let Err(e) = run_background(&dir, line.trim()) {
                        failures.push(format!("{}: {}: {e}", at(b.line), line.trim()));
                    }
                }
            }
            ("sh", None) => {
                for (i, line) in b.body.iter().enumerate().filter(|(_, l)| is_command(l)) {
                    ran += 1;
                    match run(&dir, line.trim()) {
                        Ok(r) if r.code == 0 => {}
                        Ok(r) => failures.push(format!(
                            "{}: {}: exit {}:\n{}",
                            at(b.line + 1 + i),
                            line.trim(),
                            r.code,
                            r.output
                        )),
                        Err(e) => {
                            failures.push(format!("{}: {}: {e}", at(b.line + 1 + i), line.trim()))
                        }
                    }
                }
            }
            ("sh", Some(other)) => failures.push(format!(
                "{}: ```sh {other}: not a kind this test knows (not-run, background)",
                at(b.line)
            )),
            _ => {}
        }
    }
    DocRun {
        failures,
        ran,
        compared,
        not_run,
    }
}

/// Documents run side by side (each in its own copy, their commands in
/// order): the docs are the longest test, and one document's commands
/// wait on each other but not on another document's.
#[test]
fn every_command_in_the_docs_runs_as_shown() {
    let runs: Vec<DocRun> = std::thread::scope(|scope| {
        let handles: Vec<_> = documents()
            .into_iter()
            .map(|doc| scope.spawn(move || check_doc(&doc)))
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().expect("a document's run does not panic"))
            .collect()
    });
    let mut failures = Vec::new();
    let (mut ran, mut compared, mut not_run) = (0, 0, Vec::new());
    for r in runs {
        failures.extend(r.failures);
        ran += r.ran;
        compared += r.compared;
        not_run.extend(r.not_run);
    }
    println!(
        "{ran} commands run, {compared} outputs compared; shown but not run: {}",
        if not_run.is_empty() {
            "none".to_string()
        } else {
            not_run.join(", ")
        }
    );
    assert!(
        failures.is_empty(),
        "{} of the docs' commands do not do what the docs show:\n\n{}",
        failures.len(),
        failures.join("\n\n")
    );
    assert!(ran > 0, "no command found in README.md and docs/");
}

fn is_command(line: &str) -> bool {
    let t = line.trim();
    !t.is_empty() && !t.starts_with('#')
}

/// The reading of transcripts, on a made-up document.
#[test]
fn transcripts_are_read_as_the_convention_says() {
    let doc = "text\n```console\n$ seams a\n? 2\nout [..]\n...\n\n$ seams b\n$ seams c\nlast\n```\n```sh not-run\ncargo x\n```\n";
    let b = blocks(doc);
    assert_eq!(b.len(), 2);
    assert_eq!(
        (b[1].lang.as_str(), b[1].attrs.clone()),
        ("sh", vec!["not-run".to_string()])
    );
    let steps = console_steps(&b[0]);
    let shown: Vec<(usize, &str, i32, Option<&str>)> = steps
        .iter()
        .map(|s| (s.line, s.command.as_str(), s.code, s.output.as_deref()))
        .collect();
    assert_eq!(
        shown,
        [
            (3, "seams a", 2, Some("out [..]\n...\n")),
            (8, "seams b", 0, None),
            (9, "seams c", 0, Some("last\n")),
        ]
    );
    // The matcher: wildcards within a line and across lines.
    let a = snapbox::Assert::new();
    assert!(
        a.try_eq(
            None,
            "took 1.2 s\nx\ny\nend\n".into(),
            "took [..] s\n...\nend\n".into()
        )
        .is_ok()
    );
    assert!(
        a.try_eq(None, "took 1.2 s\n".into(), "took 2 s\n".into())
            .is_err()
    );
}
