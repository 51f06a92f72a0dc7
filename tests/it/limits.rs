//! Every input has a bound and a clear exit-2 error: special files, sizes,
//! counts, and error messages that quote only a little of a huge input.
//! Each test is a reproducer of something that once read forever, ran out
//! of memory, overflowed, or printed a 10 MB message.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use crate::common::{check_input_error, seams};

fn scratch(tag: &str) -> PathBuf {
    crate::common::scratch_dir(&format!("limits-{tag}"))
}

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

#[test]
fn special_files_are_refused_before_any_read() {
    check_input_error(&["record", "verify", "/dev/zero"], "is not a regular file");
    check_input_error(&["conform", "--expect", "/dev/zero"], "not a regular file");
    let dir = scratch("fifo");
    let fifo = dir.join("record.json");
    let made = Command::new("mkfifo").arg(&fifo).status();
    assert!(
        made.is_ok_and(|st| st.success()),
        "mkfifo is on every Linux"
    );
    // A FIFO with no writer would block a read forever.
    check_input_error(&["record", "verify", s(&fifo)], "is not a regular file");
    check_input_error(&["conform", "--expect", s(&fifo)], "not a regular file");
    check_input_error(&["record", "verify", s(&dir)], "is a folder, not a file");
}

#[test]
fn a_board_file_linked_to_a_device_names_the_file() {
    let spec = scratch("board-link").join("spec");
    std::fs::create_dir_all(spec.join("boards")).unwrap();
    std::os::unix::fs::symlink("/dev/zero", spec.join("boards/zero.toml")).unwrap();
    check_input_error(
        &["--spec", s(&spec), "boards"],
        "zero.toml: not a regular file",
    );
}

#[test]
fn oversized_files_are_refused_by_size() {
    let dir = scratch("big");
    let record = dir.join("big.json");
    // Sparse: the size is what counts, and nothing is read.
    std::fs::File::create(&record)
        .unwrap()
        .set_len(65 << 20)
        .unwrap();
    check_input_error(
        &["record", "verify", s(&record)],
        "at most 67108864 are read",
    );
    let spec = dir.join("spec");
    std::fs::create_dir_all(spec.join("boards")).unwrap();
    std::fs::File::create(spec.join("boards/huge.toml"))
        .unwrap()
        .set_len(2 << 20)
        .unwrap();
    check_input_error(
        &["--spec", s(&spec), "geometry"],
        "huge.toml: 2097152 bytes; at most 1048576",
    );
}

/// A board file with `charts` chart names of a 1×1 chart.
fn board_with_charts(charts: usize) -> String {
    let names: Vec<String> = (0..charts).map(|i| format!("\"C{i}\"")).collect();
    format!(
        "name = \"many\"\ntitle = \"many charts\"\nwidth = 1\nheight = 1\ncharts = [{}]\n\
         [sides]\neast-west = \"boundary\"\nnorth-south = \"boundary\"\n",
        names.join(",")
    )
}

#[test]
fn board_size_is_checked_before_anything_quadratic() {
    let spec = scratch("charts").join("spec");
    std::fs::create_dir_all(spec.join("boards")).unwrap();
    // 100 000 chart names once took 10 s to refuse (a quadratic duplicate
    // check ran before the size check).
    std::fs::write(spec.join("boards/many.toml"), board_with_charts(100_000)).unwrap();
    check_input_error(
        &["--spec", s(&spec), "geometry"],
        "100000 cells: a board has at most 10000",
    );
    std::fs::write(spec.join("boards/many.toml"), board_with_charts(3)).unwrap();
    let r = seams(&["--spec", s(&spec), "geometry", "many"]);
    assert_eq!(
        r.code, 0,
        "a small board with three charts loads: {}",
        r.stderr
    );
}

/// Writes `text` to a scratch file: command-line arguments cannot carry
/// more than 128 KiB.
fn in_file(tag: &str, text: &str) -> PathBuf {
    let file = scratch(tag).join("position.txt");
    std::fs::write(&file, text).unwrap();
    file
}

#[test]
fn huge_position_texts_are_refused_with_a_short_message() {
    let huge = in_file("huge", &format!("{} w - - 0 1", "8/".repeat(200_000)));
    let r = seams(&["moves", "chess-flat", "--position", s(&huge)]);
    assert_eq!(r.code, 2);
    assert!(
        r.stderr.contains("a position text has at most 65536"),
        "{}",
        &r.stderr[..300.min(r.stderr.len())]
    );
    assert!(
        r.stderr.len() < 1000,
        "the message quotes only a little: {} bytes",
        r.stderr.len()
    );
    // Just under the bound: parsed, refused for what it says, still short.
    let long = format!("{} w - - 0 1", "8".repeat(60_000));
    let r = seams(&["moves", "chess-flat", "--position", &long]);
    assert_eq!(r.code, 2);
    assert!(r.stderr.len() < 1000, "{} bytes of message", r.stderr.len());
}

/// The replies of `seams engine` to `requests`.
fn serve(requests: &[serde_json::Value]) -> Vec<serde_json::Value> {
    use std::io::Write;
    let mut child = Command::new(env!("CARGO_BIN_EXE_seams"))
        .arg("engine")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let mut input = String::new();
    for r in requests {
        input.push_str(&r.to_string());
        input.push('\n');
    }
    child
        .stdin
        .take()
        .unwrap()
        .write_all(input.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

#[test]
fn long_move_lists_and_long_moves_are_bounded() {
    let replies = serve(&[
        serde_json::json!({"id": 0, "cmd": "hello", "protocol": "1.0"}),
        serde_json::json!({"id": 1, "cmd": "perft", "variant": "chess-flat", "depth": 1,
                           "moves": vec!["e2-e4"; 100_001]}),
        serde_json::json!({"id": 2, "cmd": "status", "variant": "chess-flat",
                           "moves": ["e".repeat(1 << 20)]}),
    ]);
    let error = |i: usize| replies[i]["error"].as_str().unwrap_or_default().to_string();
    assert!(
        error(1).contains("at most 100000 are taken"),
        "{}",
        error(1)
    );
    assert!(
        !error(2).is_empty() && error(2).len() < 1000,
        "{} bytes",
        error(2).len()
    );
    let long_move = "e".repeat(100_000);
    let r = seams(&["play", "chess-flat", "--moves", &long_move]);
    assert_eq!(r.code, 2);
    assert!(r.stderr.len() < 1000, "{} bytes of message", r.stderr.len());
}

#[test]
fn kyoto_hands_hold_only_the_games_tokens() {
    // 49 pawns in hand: once accepted.
    let pawns = "P".repeat(49);
    check_input_error(
        &[
            "moves",
            "kyoto",
            "--position",
            &format!("1+nks+l/5/5/5/+LSK+NP[{pawns}] w - - 0 1"),
        ],
        "50 P tokens on the board and in hand; the game has 2 (KY-I6)",
    );
    // A megabyte of pawns: refused by length, with a short message.
    let flood = in_file(
        "flood",
        &format!("5/5/5/5/5[{}] w 0 1", "P".repeat(1_000_000)),
    );
    let r = seams(&["moves", "kyoto", "--position", s(&flood)]);
    assert_eq!(r.code, 2);
    assert!(r.stderr.contains("at most 65536"), "{}", r.stderr);
    assert!(r.stderr.len() < 1000, "{} bytes of message", r.stderr.len());
    // 300 pawns, under the text bound: the count does not overflow.
    let r = seams(&[
        "moves",
        "kyoto",
        "--position",
        &format!("1+nks+l/5/5/5/+LSK+NP[{}] w - - 0 1", "P".repeat(300)),
    ]);
    assert_eq!(r.code, 2);
    assert!(
        r.stderr.contains("more than 255 'P' in hand"),
        "{}",
        r.stderr
    );
}

#[test]
fn a_record_with_a_huge_action_is_rejected_with_a_short_message() {
    let dir = scratch("record");
    let record = dir.join("r.json");
    let game = serde_json::json!({
        "variant": "kyoto", "rules": "1.0", "start": {"kind": "initial"},
        "actions": ["x".repeat(1 << 20)], "result": null,
    });
    std::fs::write(&record, game.to_string()).unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_seams"))
        .args(["record", "verify", s(&record)])
        .stdout(Stdio::piped())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(
        out.stdout.len() < 1000,
        "{} bytes of report",
        out.stdout.len()
    );
}
