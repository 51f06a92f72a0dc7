//! HTML conformance reports written by the `seams` binary into scratch
//! folders, shared by `html_report.rs` and `html_chromium.rs`.

use std::path::{Path, PathBuf};

use super::seams;

/// A scratch folder for one test, emptied first.
pub fn scratch(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("scratch folder");
    dir
}

/// Runs `seams conform --format html --out DIR/report.html` for the cases
/// matching `case`, against `engine` (the reference when `None`), checks
/// the exit code, and returns the report's path and text.
pub fn html_report(dir: &Path, engine: Option<&str>, case: &str, code: i32) -> (PathBuf, String) {
    let out = dir.join("report.html");
    let mut args = vec!["conform", "--case", case, "--format", "html"];
    if let Some(e) = engine {
        args.extend(["--engine", e]);
    }
    args.extend(["--out", out.to_str().expect("utf-8 path")]);
    let r = seams(&args);
    assert_eq!(r.code, code, "exit code; stderr: {}", r.stderr);
    assert!(
        r.stdout.is_empty(),
        "the report went to --out: {}",
        r.stdout
    );
    let html = std::fs::read_to_string(&out).expect("the report was written");
    (out, html)
}

/// Runs the cone-diagonals mutant on one legal-actions case (it wrongly
/// lets a genus-two silver step along the forbidden diagonal `I:a4-I:i5`)
/// and returns the HTML report.
pub fn mutant_report(dir: &Path) -> (PathBuf, String) {
    html_report(
        dir,
        Some("seams engine --mutant cone-diagonals"),
        "shogi/genus2/cone-diagonal-forbidden*",
        1,
    )
}
