//! Running the `seams` binary from integration tests, shared by the test
//! files that drive the CLI.

#![allow(dead_code)] // each test file uses a different subset

pub mod actions;
pub mod drafts;
pub mod html;
pub mod other_engines;
pub mod reap;
pub mod server;

use std::process::Command;

/// What one run of the binary produced.
pub struct Run {
    pub code: i32,
    pub stdout: String,
    pub stderr: String,
}

/// Runs `seams` with `args`.
pub fn seams(args: &[&str]) -> Run {
    let out = Command::new(env!("CARGO_BIN_EXE_seams"))
        .args(args)
        .output()
        .expect("the seams binary runs");
    Run {
        code: out.status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    }
}

/// Runs `seams` with `args`, writing `input` to its standard input.
pub fn seams_with_input(args: &[&str], input: &str) -> Run {
    use std::io::Write;
    let mut child = Command::new(env!("CARGO_BIN_EXE_seams"))
        .args(args)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("the seams binary runs");
    let mut stdin = child.stdin.take().expect("stdin");
    // A failed write means the program stopped reading early; its output
    // says why.
    let _ = stdin.write_all(input.as_bytes());
    drop(stdin);
    let out = child.wait_with_output().expect("the seams binary ends");
    Run {
        code: out.status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    }
}

/// A fresh scratch folder for one test.
pub fn scratch_dir(tag: &str) -> std::path::PathBuf {
    let d = std::env::temp_dir().join(format!("seams-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).expect("scratch dir");
    d
}

/// Runs a command that must fail with exit code 2, print `fragment` on
/// stderr, and write nothing on stdout.
pub fn check_input_error(args: &[&str], fragment: &str) {
    let r = seams(args);
    assert_eq!(r.code, 2, "exit code for {args:?}; stderr: {}", r.stderr);
    assert!(
        r.stderr.contains(fragment),
        "stderr for {args:?} should contain '{fragment}': {}",
        r.stderr
    );
    assert!(
        r.stdout.is_empty(),
        "nothing half-written on stdout: {}",
        r.stdout
    );
}

/// Copies a folder tree (a spec or corpus) into `to`.
pub fn copy_dir(from: &std::path::Path, to: &std::path::Path) {
    for entry in walkdir::WalkDir::new(from) {
        let entry = entry.unwrap();
        let dest = to.join(entry.path().strip_prefix(from).unwrap());
        if entry.file_type().is_dir() {
            std::fs::create_dir_all(&dest).unwrap();
        } else {
            std::fs::copy(entry.path(), &dest).unwrap();
        }
    }
}

/// A position error's field, as `syntax/<field>` when the grammar refused
/// the text and the family's reader named a field too (`rules::notation`
/// appends "(<field>: <message>)" to the grammar's message).
pub fn position_fault(e: &seams::rules::PositionError) -> String {
    if e.field != "syntax" {
        return e.field.clone();
    }
    match e
        .message
        .split_once("; read further: ")
        .and_then(|(_, r)| r.split_once(':'))
    {
        Some((inner, _)) => format!("syntax/{inner}"),
        None => "syntax".into(),
    }
}
