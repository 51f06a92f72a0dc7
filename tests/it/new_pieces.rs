//! Pieces as data, as a rules designer uses them (MV-6, SS-3.4, SC-3.8):
//! five scenarios on scratch copies of `spec/`, each through the binary a
//! designer runs. An edit to a movement and a new kind both load without
//! Rust, play, count, draw and answer over the engine protocol by their
//! letters, and `seams spec check` reports them as the reach they change
//! and as new; three broken movements in three files are reported in one
//! run. docs/designers.md shows the same scenarios as transcripts.

use std::path::{Path, PathBuf};

use crate::common::drafts::{edit, scratch};
use crate::common::server::Server;
use crate::common::{seams, seams_with_input};
use serde_json::{Value, json};

fn p(path: &Path) -> &str {
    path.to_str().unwrap()
}

/// `seams --spec DRAFT ARGS`, which must exit 0; its standard output.
fn with_spec(draft: &Path, args: &[&str]) -> String {
    let mut argv = vec!["--spec", p(draft)];
    argv.extend_from_slice(args);
    let r = seams(&argv);
    assert_eq!(r.code, 0, "seams {argv:?}: {}{}", r.stdout, r.stderr);
    r.stdout
}

/// The position `seams play` reaches from `position` (the start when
/// empty) after `moves`, as its position text.
fn position_after(draft: &Path, variant: &str, position: &str, moves: &str) -> String {
    let mut args = vec!["play", variant];
    if !position.is_empty() {
        args.extend(["--position", position]);
    }
    if !moves.is_empty() {
        args.extend(["--moves", moves]);
    }
    let out = with_spec(draft, &args);
    out.lines()
        .find_map(|l| l.strip_prefix("position "))
        .unwrap_or_else(|| panic!("no position in {out}"))
        .to_string()
}

/// `seams spec check DRAFT`: the exit code and the report's lines.
fn spec_check(draft: &Path) -> (i32, Vec<String>) {
    let r = seams(&["spec", "check", p(draft)]);
    (r.code, r.stdout.lines().map(str::to_string).collect())
}

fn has(lines: &[String], line: &str) -> bool {
    lines.iter().any(|l| l == line)
}

/// The Klein shogi draft whose silver also steps sideways.
fn sideways_silver(root: &Path) -> PathBuf {
    let d = root.join("draft");
    edit(
        &d.join("shogi/shogi-klein.toml"),
        "[pieces.silver]\nletter = \"S\"\nmoves = \"FfW\"",
        "[pieces.silver]\nletter = \"S\"\nmoves = \"FfsW\"",
    );
    d
}

#[test]
fn the_silver_given_a_sideways_step() {
    let root = scratch();
    let d = sideways_silver(&root);
    let (code, lines) = spec_check(&d);
    assert_eq!(code, 1, "{}", lines.join("\n"));
    // On the Klein bottle every cell has all four diagonals (no cone
    // point) and both side neighbours (the side seam joins file i to file
    // a), and the seven cells a silver then reaches are distinct: five
    // from each of the 162 cells before, seven after.
    for line in [
        "    shogi-klein: pieces[silver].moves: FfW → FfsW",
        "    shogi-klein: pieces[silver].destinations: 810 → 1134",
        "    shogi-klein: pieces[silver].reach: 5×162 → 7×162",
    ] {
        assert!(has(&lines, line), "no '{line}':\n{}", lines.join("\n"));
    }
    // The start's silvers stand between a knight and a gold, so the
    // sideways step changes nothing at depths 1 and 2; it shows from
    // depth 3.
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("  shogi-klein: perft 38 1444 53613 → 38 1444 ")),
        "{}",
        lines.join("\n")
    );
    // The silver's own movement, on the empty board, from the command
    // line: forward, the four diagonals, and now both sides.
    let moves = with_spec(
        &d,
        &[
            "moves",
            "shogi-klein",
            "--position",
            "9/9/9/9/9/4k4/9/9/9/9/9/4S4/9/9/9/9/9/4K4 A - 1",
        ],
    );
    let silver: Vec<&str> = moves.lines().filter(|l| l.starts_with("e7-")).collect();
    assert_eq!(
        silver,
        [
            "e7-d6", "e7-d7", "e7-d8", "e7-e8", "e7-f6", "e7-f7", "e7-f8"
        ],
        "{moves}"
    );
    std::fs::remove_dir_all(root).unwrap();
}

#[test]
fn the_knight_given_the_queens_movement() {
    let root = scratch();
    let d = root.join("draft");
    edit(
        &d.join("chess/chess-flat.toml"),
        "[pieces.knight]\nletter = \"N\"\nmoves = \"N\"",
        "[pieces.knight]\nletter = \"N\"\nmoves = \"Q\"",
    );
    // From the start b1 and g1 are walled in by their own pieces, so the
    // queen-moving knights have no move: only the sixteen pawn moves stay
    // of the twenty.
    assert_eq!(with_spec(&d, &["perft", "chess-flat", "1"]).trim(), "16");
    let (code, lines) = spec_check(&d);
    assert_eq!(code, 1, "{}", lines.join("\n"));
    // On the empty 8×8 board a knight has 336 moves from the 64 squares
    // and a queen 1456: a rook's 14 from every square (896) and a
    // bishop's 560 (7, 9, 11 and 13 from the 28, 20, 12 and 4 squares of
    // the rings from the edge inwards).
    for line in [
        "    chess-flat: pieces[knight].moves: N → Q",
        "    chess-flat: pieces[knight].destinations: 336 → 1456",
    ] {
        assert!(has(&lines, line), "no '{line}':\n{}", lines.join("\n"));
    }
    // Black's knights are walled in too, so depth 2 is 16 · 16.
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("  chess-flat: perft 20 400 8902 → 16 256 ")),
        "{}",
        lines.join("\n")
    );
    std::fs::remove_dir_all(root).unwrap();
}

/// The Klein chess draft with a chancellor (rook and knight) on a5 for
/// White, and so on a14 for Black, its exchange image.
fn chancellor(root: &Path) -> PathBuf {
    let d = root.join("draft");
    let file = d.join("chess/chess-klein.toml");
    edit(
        &file,
        "row = \". . B R Q R . B .\"",
        "row = \"C . B R Q R . B .\"",
    );
    edit(&file, "K = 0\n", "K = 0\nC = 850\n");
    let text = std::fs::read_to_string(&file).unwrap();
    std::fs::write(
        &file,
        text + "\n[pieces.chancellor]\nletter = \"C\"\nmoves = \"RN\"\n",
    )
    .unwrap();
    d
}

#[test]
fn a_chancellor_in_the_klein_chess_setup() {
    let root = scratch();
    let d = chancellor(&root);
    // The chancellor's actions from the start are the rook's and the
    // knight's from a5 in the same position: shown by the shipped rules
    // with a rook, then a knight, on a5 (and a black one on a14).
    let start = with_spec(&d, &["moves", "chess-klein"]);
    let from_a5 = |text: &str| -> Vec<String> {
        let mut v: Vec<String> = text
            .lines()
            .filter(|l| l.starts_with("a5-"))
            .map(str::to_string)
            .collect();
        v.sort();
        v
    };
    let chancellor_moves = from_a5(&start);
    let position = position_after(&d, "chess-klein", "", "");
    assert!(
        position.contains('C') && position.contains('c'),
        "{position}"
    );
    let mut union = Vec::new();
    for letter in ['R', 'N'] {
        let shipped = position
            .replace('C', &letter.to_string())
            .replace('c', &letter.to_ascii_lowercase().to_string());
        let r = seams(&["moves", "chess-klein", "--position", &shipped]);
        assert_eq!(r.code, 0, "{shipped}: {}", r.stderr);
        union.extend(from_a5(&r.stdout));
    }
    union.sort();
    union.dedup();
    assert_eq!(chancellor_moves, union);
    assert!(!chancellor_moves.is_empty());

    // `seams spec check` names the kind as new.
    let (code, lines) = spec_check(&d);
    assert_eq!(code, 1, "{}", lines.join("\n"));
    assert!(
        lines.iter().any(
            |l| l.starts_with("    chess-klein: pieces: + ") && l.contains("piece: chancellor")
        ),
        "{}",
        lines.join("\n")
    );
    // Its picture draws it as a lettered disc, for either owner.
    let svg = with_spec(&d, &["render", "chess-klein"]);
    for on in ["a5", "a14"] {
        let disc = format!("<circle data-piece=\"C\" data-on=\"{on}\"");
        assert!(svg.contains(&disc), "no {disc}");
    }
    std::fs::remove_dir_all(root).unwrap();
}

#[test]
fn the_chancellor_plays_over_the_protocol_the_app_and_the_terminal() {
    let root = scratch();
    let d = chancellor(&root);
    let first = from_start_first_chancellor_move(&d);
    // The engine protocol: a position with the chancellor, by its letter,
    // and a move of it with its letter given.
    let position = position_after(&d, "chess-klein", "", "");
    let requests = format!(
        "{}\n{}\n{}\n",
        json!({"id": 0, "cmd": "hello", "protocol": "1.1"}),
        json!({"id": 1, "cmd": "check_action", "variant": "chess-klein", "position": position, "action": format!("C{first}")}),
        json!({"id": 2, "cmd": "check_action", "variant": "chess-klein", "position": position, "action": format!("R{first}")}),
    );
    let r = seams_with_input(&["--spec", p(&d), "engine"], &requests);
    let replies: Vec<Value> = r
        .stdout
        .lines()
        .filter_map(|l| serde_json::from_str(l).ok())
        .filter(|v: &Value| v["id"] != json!(0))
        .collect();
    assert_eq!(replies[0]["legal"], json!(true), "{}", r.stdout);
    assert_eq!(replies[1]["reason"], json!("no-piece"), "{}", r.stdout);

    // The corpus runner: a case on the draft's start that leaves one of
    // the chancellor's actions out is reported with that action missing.
    let all = with_spec(&d, &["moves", "chess-klein"]);
    let short: Vec<&str> = all.lines().filter(|l| *l != first).collect();
    let cases = root.join("my-cases");
    std::fs::create_dir_all(&cases).unwrap();
    let case = json!({"cases": [{
        "id": "draft/chancellor-start#00000000",
        "title": "The draft's start, one chancellor action left out.",
        "clauses": ["SC-3.8"],
        "capabilities": ["legal-actions"],
        "provenance": {"kind": "reference", "reviewed": "a test of the runner"},
        "check": {"kind": "legal-actions", "variant": "chess-klein", "position": position, "expect": short}
    }]});
    std::fs::write(cases.join("draft.json"), case.to_string()).unwrap();
    let r = seams(&["corpus", "rehash", p(&cases)]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let r = seams(&[
        "--spec",
        p(&d),
        "conform",
        "--corpus",
        p(&cases),
        "--verbose",
    ]);
    assert_eq!(r.code, 1, "{}{}", r.stdout, r.stderr);
    assert!(
        r.stdout.contains(&format!("extra [\"{first}\"]")),
        "{}",
        r.stdout
    );

    // The web application, serving the draft, plays it.
    let server = Server::start(&["--spec", p(&d)]);
    let (status, answer) = server.post(
        "/api/game",
        &json!({"variant": "chess-klein", "actions": [first.clone()]}),
    );
    assert_eq!(status, 200, "{answer}");

    // `seams play`, one move typed at its prompt, then a resignation.
    let r = seams_with_input(
        &["--spec", p(&d), "play", "chess-klein", "--interactive"],
        &format!("{first}\nresign\n"),
    );
    assert_eq!(r.code, 0, "{}{}", r.stdout, r.stderr);
    assert!(r.stdout.contains(&first), "{}", r.stdout);
    std::fs::remove_dir_all(root).unwrap();
}

/// A legal move of White's chancellor from the draft's start.
fn from_start_first_chancellor_move(d: &Path) -> String {
    with_spec(d, &["moves", "chess-klein"])
        .lines()
        .find(|l| l.starts_with("a5-"))
        .expect("the chancellor has a move")
        .to_string()
}

/// The Klein shogi draft with a new kind, the cat (a step along each
/// diagonal and straight forward and back), on c5 of A's middle row and
/// so on g14 for B.
fn cat(root: &Path) -> PathBuf {
    let d = root.join("draft");
    let file = d.join("shogi/shogi-klein.toml");
    edit(&file, "pieces = \".B.....RP\"", "pieces = \".BC....RP\"");
    edit(&file, "king = 0\n", "king = 0\ncat = 450\n");
    let text = std::fs::read_to_string(&file).unwrap();
    std::fs::write(
        &file,
        text + "\n[pieces.cat]\nletter = \"C\"\nmoves = \"FvW\"\n",
    )
    .unwrap();
    d
}

#[test]
fn a_new_shogi_piece_dropped_from_hand() {
    let root = scratch();
    let d = cat(&root);
    let start = position_after(&d, "shogi-klein", "", "");
    // B's cat, taken off g14 (B's middle row, rank 14, reads `pr4cb1`
    // from file a), is in A's hand: the game's two cats are still two
    // (SS-I9).
    assert!(start.contains("/pr4cb1/"), "{start}");
    let without = start.replacen("/pr4cb1/", "/pr5b1/", 1);
    let with_cat = without.replacen(" - ", " C ", 1);
    // A drop adds one action for each empty cell (no dead ranks on the
    // Klein bottle, no nifu for a cat, and a drop cannot mate here) and
    // takes none away.
    let list = |pos: &str| -> Vec<String> {
        with_spec(&d, &["moves", "shogi-klein", "--position", pos])
            .lines()
            .map(str::to_string)
            .collect()
    };
    let (before, after) = (list(&without), list(&with_cat));
    // 40 pieces of the shipped armies and A's cat on c5.
    let empty = 162 - 41;
    assert_eq!(after.len(), before.len() + empty);
    let drops: Vec<&String> = after.iter().filter(|a| a.starts_with("C*")).collect();
    assert_eq!(drops.len(), empty);
    assert!(before.iter().all(|a| after.contains(a)));
    let perft = with_spec(&d, &["perft", "shogi-klein", "1", "--position", &with_cat]);
    assert_eq!(perft.trim(), after.len().to_string());
    // Dropped on e10, the cat steps forward to e11, as its movement says.
    let moves = with_spec(
        &d,
        &[
            "moves",
            "shogi-klein",
            "--position",
            &with_cat,
            "--moves",
            "C*e10,e13-e12",
        ],
    );
    assert!(moves.lines().any(|l| l == "e10-e11"), "{moves}");
    // Captured, it goes to the captor's hand by its letter (SS-4.4): B
    // drops its cat on e7 and A's pawn on e6 takes it.
    let b_cat = without.replacen(" - ", " c ", 1).replacen(" A ", " B ", 1);
    let text = position_after(&d, "shogi-klein", &b_cat, "C*e7,e6-e7");
    assert!(text.ends_with(" B C 3"), "{text}");
    // The report shows the new kind and where the draft's start changed.
    let (code, lines) = spec_check(&d);
    assert_eq!(code, 1, "{}", lines.join("\n"));
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("    shogi-klein: pieces: + ") && l.contains("piece: cat")),
        "{}",
        lines.join("\n")
    );
    // Its picture draws it by its letter, on the board and in the hand.
    let svg = with_spec(&d, &["render", "shogi-klein", "--position", &with_cat]);
    assert!(
        svg.contains("data-piece=\"C\" data-on=\"c5\""),
        "no cat on c5"
    );
    std::fs::remove_dir_all(root).unwrap();
}

#[test]
fn broken_movements_in_three_files_are_reported_in_one_run() {
    let root = scratch();
    let d = root.join("draft");
    edit(
        &d.join("shogi/shogi-klein.toml"),
        "moves = \"FfW\"",
        "moves = \"FfWx\"",
    );
    edit(
        &d.join("chess/chess-mobius.toml"),
        "moves = \"N\"",
        "moves = \"N[\"",
    );
    edit(
        &d.join("kyoto/kyoto.toml"),
        "moves = \"fR\"",
        "moves = \"ffR\"",
    );
    let r = seams(&["spec", "check", p(&d)]);
    assert_eq!(r.code, 2, "{}{}", r.stdout, r.stderr);
    let text = format!("{}{}", r.stdout, r.stderr);
    for (file, field) in [
        ("shogi/shogi-klein.toml", "pieces.silver.moves"),
        ("chess/chess-mobius.toml", "pieces.knight.moves"),
        ("kyoto/kyoto.toml", "pieces.lance.moves"),
    ] {
        let line = text
            .lines()
            .find(|l| l.contains(file) && l.contains(field))
            .unwrap_or_else(|| panic!("no error for {file} {field}:\n{text}"));
        // The file, its line, the piece's field, the character and what
        // was expected there.
        assert!(line.contains(&format!("{file}:")), "{line}");
        assert!(line.contains("character"), "{line}");
        assert!(line.contains("expected"), "{line}");
    }
    std::fs::remove_dir_all(root).unwrap();
}
