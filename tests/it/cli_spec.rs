//! The command line as a new user meets it: `--spec` reaching every
//! command that reads rules, a closed stdout, `--position` files, and
//! unknown names with suggestions.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};

use crate::common::{Run, check_input_error, seams};

const SEAMS: &str = env!("CARGO_BIN_EXE_seams");

static NEXT: AtomicUsize = AtomicUsize::new(0);

/// A fresh scratch folder.
fn scratch(tag: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!(
        "seams-cli-spec-{tag}-{}-{}",
        std::process::id(),
        NEXT.fetch_add(1, Ordering::SeqCst)
    ));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn edit(path: &Path, from: &str, to: &str) {
    let text = std::fs::read_to_string(path).unwrap();
    assert!(text.contains(from), "{} has no '{from}'", path.display());
    std::fs::write(path, text.replacen(from, to, 1)).unwrap();
}

/// A copy of the spec in which one of the Klein first player's pawns
/// stands on i6 instead of h6: `i6-i7` is legal there and not in the
/// built-in rules.
fn moved_pawn_spec() -> PathBuf {
    let dir = scratch("pawn").join("spec");
    crate::common::copy_dir(&Path::new(env!("CARGO_MANIFEST_DIR")).join("spec"), &dir);
    edit(
        &dir.join("shogi/shogi-klein.toml"),
        "pieces = \"PPPPPPPP.\"",
        "pieces = \"PPPPPPP.P\"",
    );
    dir
}

/// A copy of the spec whose Klein shogi file ends in a line that is not
/// TOML.
fn garbage_spec() -> PathBuf {
    let dir = scratch("garbage").join("spec");
    crate::common::copy_dir(&Path::new(env!("CARGO_MANIFEST_DIR")).join("spec"), &dir);
    let file = dir.join("shogi/shogi-klein.toml");
    let mut text = std::fs::read_to_string(&file).unwrap();
    text.push_str("this is = not [toml\n");
    std::fs::write(&file, text).unwrap();
    dir
}

fn with_spec<'a>(spec: &'a Path, args: &[&'a str]) -> Vec<&'a str> {
    let mut all = vec!["--spec", spec.to_str().unwrap()];
    all.extend_from_slice(args);
    all
}

/// Runs `args` with the built-in spec and with `spec`: both succeed with
/// `expect_code` and their outputs differ.
fn check_spec_changes_answer(spec: &Path, args: &[&str], expect_code: i32) -> (Run, Run) {
    let builtin = seams(args);
    let edited = seams(&with_spec(spec, args));
    assert_eq!(builtin.code, expect_code, "{args:?}: {}", builtin.stderr);
    assert_eq!(
        edited.code, expect_code,
        "--spec {args:?}: {}",
        edited.stderr
    );
    assert_ne!(
        builtin.stdout, edited.stdout,
        "--spec must change the answer of {args:?}"
    );
    (builtin, edited)
}

#[test]
fn spec_changes_moves_perft_audit_bench_render() {
    let spec = moved_pawn_spec();
    let (_, edited) = check_spec_changes_answer(&spec, &["moves", "shogi-klein"], 0);
    assert!(
        edited.stdout.lines().any(|l| l == "i6-i7"),
        "{}",
        edited.stdout
    );
    check_spec_changes_answer(&spec, &["perft", "shogi-klein", "1"], 0);
    check_spec_changes_answer(&spec, &["audit", "shogi-klein", "--plies", "1"], 0);
    check_spec_changes_answer(
        &spec,
        &[
            "bench",
            "--variant",
            "shogi-klein",
            "--depth",
            "1",
            "--json",
        ],
        0,
    );
    check_spec_changes_answer(&spec, &["render", "shogi-klein"], 0);
}

#[test]
fn spec_changes_play_and_record_verify() {
    let spec = moved_pawn_spec();
    let args = ["play", "shogi-klein", "--moves", "i6-i7"];
    let builtin = seams(&args);
    assert_eq!(builtin.code, 2, "i6 is empty in the built-in setup");
    assert!(
        builtin.stderr.contains("'i6-i7' cannot be played"),
        "{}",
        builtin.stderr
    );
    let edited = seams(&with_spec(&spec, &args));
    assert_eq!(edited.code, 0, "{}", edited.stderr);
    assert!(edited.stdout.contains("result   none"), "{}", edited.stdout);

    let record = scratch("record").join("game.json");
    let game = serde_json::json!({
        "variant": "shogi-klein", "rules": "0.2", "start": {"kind": "initial"},
        "actions": ["i6-i7"], "result": null,
    });
    std::fs::write(&record, game.to_string()).unwrap();
    let r = record.to_str().unwrap();
    let builtin = seams(&["record", "verify", r]);
    assert_eq!(builtin.code, 1, "{}", builtin.stdout);
    assert!(
        builtin.stdout.contains("rejected at ply 1"),
        "{}",
        builtin.stdout
    );
    let edited = seams(&with_spec(&spec, &["record", "verify", r]));
    assert_eq!(edited.code, 0, "{}{}", edited.stdout, edited.stderr);
    assert!(
        edited.stdout.contains("accepted: 1 plies"),
        "{}",
        edited.stdout
    );
}

#[test]
fn spec_changes_variants_and_coverage() {
    let spec = moved_pawn_spec();
    edit(
        &spec.join("shogi/shogi-klein.toml"),
        "rules-version = \"0.2\"",
        "rules-version = \"0.3\"",
    );
    let (_, edited) = check_spec_changes_answer(&spec, &["variants"], 0);
    assert!(
        edited
            .stdout
            .lines()
            .any(|l| l.starts_with("shogi-klein") && l.ends_with("rules 0.3")),
        "{}",
        edited.stdout
    );

    let rules = spec.join("shogi/rules.md");
    let mut text = std::fs::read_to_string(&rules).unwrap();
    text = text.replacen(
        "## Interpretations",
        "- **SS-99.1** A clause no case cites yet.\n\n## Interpretations",
        1,
    );
    std::fs::write(&rules, text).unwrap();
    let r = seams(&with_spec(&spec, &["spec", "coverage", "--uncovered"]));
    assert_eq!(r.code, 1, "a clause without a case: {}", r.stderr);
    assert!(r.stdout.contains("SS-99.1"), "{}", r.stdout);
    assert!(r.stdout.contains("UNCOVERED"), "{}", r.stdout);
}

#[test]
fn spec_changes_conform_and_the_served_engine() {
    let spec = moved_pawn_spec();
    let args = ["conform", "--case", "shogi/klein/start-perft-1"];
    let builtin = seams(&args);
    assert_eq!(builtin.code, 0, "{}", builtin.stdout);
    let edited = seams(&with_spec(&spec, &args));
    assert_eq!(
        edited.code, 1,
        "the edited start changes perft 1: {}",
        edited.stdout
    );
    assert!(edited.stdout.contains("start-perft-1"), "{}", edited.stdout);

    let ask = |spec: Option<&Path>| -> serde_json::Value {
        let mut cmd = Command::new(SEAMS);
        if let Some(s) = spec {
            cmd.arg("--spec").arg(s);
        }
        let mut child = cmd
            .arg("engine")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .unwrap();
        let requests = concat!(
            r#"{"id":0,"cmd":"hello","protocol":"1.0"}"#,
            "\n",
            r#"{"id":1,"cmd":"perft","variant":"shogi-klein","depth":1}"#,
            "\n"
        );
        child
            .stdin
            .take()
            .unwrap()
            .write_all(requests.as_bytes())
            .unwrap();
        let out = child.wait_with_output().unwrap();
        let text = String::from_utf8_lossy(&out.stdout).into_owned();
        let last = text.lines().last().expect("a perft reply");
        serde_json::from_str(last).unwrap()
    };
    let builtin = ask(None);
    let edited = ask(Some(&spec));
    assert_eq!(builtin["ok"], true, "{builtin}");
    assert_eq!(edited["ok"], true, "{edited}");
    assert_ne!(builtin["nodes"], edited["nodes"], "{builtin} vs {edited}");
}

#[test]
fn a_broken_family_file_names_the_file_in_every_command() {
    let spec = garbage_spec();
    let dir = scratch("record-garbage");
    let record = dir.join("game.json");
    std::fs::write(
        &record,
        r#"{"variant":"shogi-klein","rules":"0.2","start":{"kind":"initial"},"actions":[],"result":null}"#,
    )
    .unwrap();
    let commands: Vec<Vec<&str>> = vec![
        vec!["variants"],
        vec!["moves", "shogi-klein"],
        vec!["perft", "shogi-klein", "2"],
        vec!["play", "shogi-klein"],
        vec!["render", "shogi-klein"],
        vec!["audit", "shogi-klein"],
        vec!["bench", "--variant", "shogi-klein", "--depth", "1"],
        vec!["record", "verify", record.to_str().unwrap()],
        vec!["engine"],
        vec!["conform", "--case", "shogi/klein/start-perft-1"],
        vec!["spec", "gate"],
        vec!["serve"],
    ];
    for args in commands {
        check_input_error(&with_spec(&spec, &args), "shogi-klein.toml");
    }
}

#[test]
fn geometry_commands_read_only_the_boards() {
    // A broken family file does not stop the board commands, which never
    // read one; a broken board file does.
    let spec = garbage_spec();
    let r = seams(&with_spec(&spec, &["geometry", "klein-9x18"]));
    assert_eq!(r.code, 0, "{}", r.stderr);
    std::fs::write(spec.join("boards/klein-9x18.toml"), "height = [").unwrap();
    for args in [
        vec!["boards"],
        vec!["geometry"],
        vec!["rays", "klein-9x18", "--from", "a1", "--pattern", "king"],
    ] {
        check_input_error(&with_spec(&spec, &args), "klein-9x18.toml");
    }
}

#[test]
fn family_mutants_refuse_an_edited_spec() {
    let spec = moved_pawn_spec();
    check_input_error(
        &with_spec(&spec, &["engine", "--mutant", "nifu-one-sheet"]),
        "cannot serve the rules of --spec",
    );
}

// ---- a closed stdout ----

/// Runs `args` with stdout a pipe whose reading end is already closed, so
/// the first write fails: the run must end quietly with exit 0.
fn check_closed_pipe(args: &[&str]) {
    let (reader, writer) = std::io::pipe().unwrap();
    drop(reader);
    let out = Command::new(SEAMS)
        .args(args)
        .stdin(Stdio::null())
        .stdout(writer)
        .stderr(Stdio::piped())
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!stderr.contains("panicked"), "{args:?} panicked: {stderr}");
    assert!(!stderr.contains("Broken pipe"), "{args:?}: {stderr}");
    assert_eq!(out.status.code(), Some(0), "{args:?}: {stderr}");
}

#[test]
fn a_closed_pipe_ends_every_printing_command_quietly() {
    let record =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("conformance/records/kyoto-checkmate.json");
    let scratch_corpus = scratch("rehash");
    crate::common::copy_dir(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("conformance/cases/geometry"),
        &scratch_corpus,
    );
    let commands: Vec<Vec<&str>> = vec![
        vec!["boards"],
        vec!["boards", "--json"],
        vec!["geometry"],
        vec!["geometry", "klein-9x18", "--json"],
        vec!["rays", "klein-9x18", "--from", "i18", "--pattern", "king"],
        vec!["variants"],
        vec!["moves", "shogi-klein"],
        vec!["perft", "kyoto", "2", "--divide"],
        vec!["play", "kyoto", "--moves", "c1-c2"],
        vec!["render", "kyoto"],
        vec!["audit", "kyoto", "--plies", "1"],
        vec!["bench", "--variant", "kyoto", "--depth", "1"],
        vec!["record", "verify", record.to_str().unwrap()],
        vec!["spec", "coverage"],
        vec!["conform", "--case", "geometry/klein"],
        vec!["conform", "--case", "geometry/klein", "--format", "json"],
        vec!["mutants"],
        vec!["schema"],
        vec!["corpus", "rehash", scratch_corpus.to_str().unwrap()],
        vec!["--help"],
        vec!["perft", "--help"],
        vec!["engine"],
    ];
    for args in commands {
        check_closed_pipe(&args);
    }
}

// ---- --position ----

#[test]
fn position_values_that_name_no_file_or_not_a_regular_file() {
    check_input_error(
        &["moves", "chess-flat", "--position", "no-such-position.fen"],
        "'no-such-position.fen': no such file",
    );
    let dir = scratch("position");
    check_input_error(
        &["moves", "chess-flat", "--position", dir.to_str().unwrap()],
        "is a folder, not a file",
    );
    check_input_error(
        &["moves", "chess-flat", "--position", "/dev/null"],
        "is not a regular file",
    );
    let fifo = dir.join("fifo");
    let made = Command::new("mkfifo").arg(&fifo).status();
    if made.is_ok_and(|s| s.success()) {
        // Refused before any read, so nothing blocks.
        check_input_error(
            &["moves", "chess-flat", "--position", fifo.to_str().unwrap()],
            "is not a regular file",
        );
    }
    let big = dir.join("big.fen");
    std::fs::write(&big, vec![b' '; 2 << 20]).unwrap();
    check_input_error(
        &["moves", "chess-flat", "--position", big.to_str().unwrap()],
        "at most 1048576 are read",
    );
}

#[test]
fn position_files_and_texts_are_both_read() {
    let text = "4k3/8/8/8/8/8/8/4K2R w K - 0 1";
    let from_text = seams(&["moves", "chess-flat", "--position", text]);
    assert_eq!(from_text.code, 0, "{}", from_text.stderr);
    assert!(
        from_text.stdout.lines().any(|l| l == "O-O"),
        "{}",
        from_text.stdout
    );
    let file = scratch("position-file").join("castle.fen");
    std::fs::write(&file, format!("{text}\n")).unwrap();
    let from_file = seams(&["moves", "chess-flat", "--position", file.to_str().unwrap()]);
    assert_eq!(from_file.code, 0, "{}", from_file.stderr);
    assert_eq!(from_text.stdout, from_file.stdout);
    // Text with spaces that is not a position is a position error, not a
    // file error.
    check_input_error(
        &["moves", "chess-flat", "--position", "not a position"],
        "bad position (syntax)",
    );
}

#[test]
fn help_states_the_position_rule() {
    let r = seams(&["moves", "--help"]);
    assert!(
        r.stdout.contains("has no spaces, is a file"),
        "{}",
        r.stdout
    );
}

// ---- unknown names ----

#[test]
fn unknown_names_list_the_known_and_suggest_the_nearest() {
    check_input_error(
        &["perft", "chess-mobus", "1"],
        "did you mean 'chess-mobius'?",
    );
    check_input_error(&["moves", "shogi-klien"], "did you mean 'shogi-klein'?");
    check_input_error(&["geometry", "klein-9x81"], "did you mean 'klein-9x18'?");
    check_input_error(
        &["rays", "klein-9x18", "--from", "a1", "--pattern", "knigt"],
        "did you mean 'knight'?",
    );
    check_input_error(
        &[
            "rays",
            "klein-9x18",
            "--from",
            "a1",
            "--pattern",
            "king",
            "--facing",
            "upp",
        ],
        "did you mean 'up'?",
    );
    check_input_error(
        &["engine", "--mutant", "knight-lsl"],
        "did you mean 'knight-lls'?",
    );
    check_input_error(
        &["engine", "--fault", "crash", "--fault-on", "wakl"],
        "did you mean 'walk'?",
    );
    check_input_error(
        &["conform", "--variant", "chess-klien"],
        "unknown variant 'chess-klien' (known: ",
    );
    check_input_error(
        &["conform", "--variant", "chess-klien"],
        "did you mean 'chess-klein'?",
    );
    // Far from every name: listed, with no suggestion.
    let r = seams(&["moves", "go"]);
    assert_eq!(r.code, 2);
    assert!(r.stderr.contains("known: shogi-flat"), "{}", r.stderr);
    assert!(!r.stderr.contains("did you mean"), "{}", r.stderr);
}

#[test]
fn output_paths_are_checked_before_the_run() {
    let dir = scratch("out");
    let file = dir.join("a-file");
    std::fs::write(&file, "x").unwrap();
    let under_file = file.join("report.json");
    for flag in ["--out", "--baseline"] {
        check_input_error(
            &["conform", flag, under_file.to_str().unwrap()],
            "is a file, not a folder",
        );
    }
    check_input_error(
        &["render", "kyoto", "--out", under_file.to_str().unwrap()],
        "is a file, not a folder",
    );
    // Refused before the engine is even started.
    check_input_error(
        &[
            "bisect",
            "--engine",
            "no-such-engine-program",
            "--variant",
            "kyoto",
            "--depth",
            "2",
            "--out",
            under_file.to_str().unwrap(),
        ],
        "is a file, not a folder",
    );
}

#[test]
fn readme_installs_seams_before_its_first_seams_command() {
    let readme =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("README.md")).unwrap();
    let install = readme
        .find("cargo install --path .")
        .expect("the README says how to install seams");
    let mut in_code = false;
    let mut offset = 0;
    let mut first_command = None;
    for line in readme.split_inclusive('\n') {
        if line.starts_with("```") {
            in_code = !in_code;
        } else if in_code && line.starts_with("seams ") {
            first_command = Some(offset);
            break;
        }
        offset += line.len();
    }
    let first = first_command.expect("the README shows seams commands");
    assert!(
        install < first,
        "`cargo install --path .` must come before the first `seams` command"
    );
}
