//! `seams play`: records written and read back, and the interactive loop
//! driven through standard input as a script or a person drives it.

use std::path::Path;

use crate::common::{check_input_error, scratch_dir, seams, seams_with_input};
use serde_json::Value;

fn read_json(path: &Path) -> Value {
    serde_json::from_str(&std::fs::read_to_string(path).expect("the record exists"))
        .expect("the record is JSON")
}

fn write_json(path: &Path, v: &Value) {
    std::fs::write(path, serde_json::to_string_pretty(v).unwrap()).unwrap();
}

/// `record verify` on `path`: the exit code and the verdict as JSON.
fn verify(path: &Path) -> (i32, Value) {
    let r = seams(&["record", "verify", path.to_str().unwrap(), "--json"]);
    (
        r.code,
        serde_json::from_str(&r.stdout).expect("a JSON verdict"),
    )
}

/// Plays `moves` in `variant` (from `position` when given) with --record,
/// and returns the record.
fn recorded(dir: &Path, variant: &str, position: Option<&str>, moves: &str) -> Value {
    let file = dir.join(format!("{variant}.json"));
    let mut args = vec![
        "play",
        variant,
        "--moves",
        moves,
        "--record",
        file.to_str().unwrap(),
    ];
    if let Some(p) = position {
        args.extend(["--position", p]);
    }
    let r = seams(&args);
    assert_eq!(r.code, 0, "{}", r.stderr);
    read_json(&file)
}

#[test]
fn a_written_record_keeps_rights_repetitions_and_result_and_verifies() {
    let dir = scratch_dir("play-written");
    // Knights out and back twice: the start occurs three times.
    let record = recorded(
        &dir,
        "chess-mobius",
        None,
        "c2-d4,c8-d6,d4-c2,d6-c8,c2-d4,c8-d6,d4-c2,d6-c8",
    );
    assert_eq!(record["format"], 2);
    assert_eq!(record["start"], serde_json::json!({"kind": "initial"}));
    assert_eq!(record["actions"].as_array().unwrap().len(), 8);
    assert_eq!(record["rights"]["castling"], "KQkq");
    let reps = record["repetitions"].as_array().unwrap();
    assert_eq!(reps[0]["count"], 3, "{record}");
    // The start (plies 0, 4, 8) and the three positions between (plies 1
    // to 3 and 5 to 7).
    assert_eq!(reps.len(), 4, "{record}");
    assert!(reps[1..].iter().all(|r| r["count"] == 2), "{record}");
    let (code, verdict) = verify(&dir.join("chess-mobius.json"));
    assert_eq!((code, &verdict["verdict"]), (0, &Value::from("accepted")));
    // Eight board actions replayed (decisions would not count).
    assert_eq!(verdict["plies"], 8, "{verdict}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// `--json` gives the number of board actions played; a resignation is a
/// decision, not a ply.
#[test]
fn the_json_state_counts_board_actions_only() {
    let r = seams(&[
        "play",
        "shogi-flat",
        "--moves",
        "c3-c4,g7-g6,resign",
        "--json",
    ]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let v: Value = serde_json::from_str(&r.stdout).expect("JSON state");
    assert_eq!(v["plies"], 2, "{v}");
    assert_eq!(v["result"]["reason"], "resignation", "{v}");
}

#[test]
fn a_game_from_a_position_is_recorded_as_an_edited_setup() {
    let dir = scratch_dir("play-edited");
    let record = recorded(
        &dir,
        "kyoto",
        Some("p+nks+l/5/5/5/+LSK+NP[] w - - 0 1"),
        "a1-a2",
    );
    assert_eq!(record["start"]["kind"], "edited", "{record}");
    assert_eq!(
        record["start"]["position"], "p+nks+l/5/5/5/+LSK+NP[] w - - 0 1",
        "the start as the rules print it"
    );
    assert_eq!(
        record["rights"],
        serde_json::json!({}),
        "Kyoto has no special rights"
    );
    assert_eq!(verify(&dir.join("kyoto.json")).0, 0);
    let _ = std::fs::remove_dir_all(&dir);
}

/// Tampers with one claim of a good record and checks the rejection.
fn check_tampered(edit: impl Fn(&mut Value), ply: u64, reason: &str) {
    let dir = scratch_dir(&format!("play-tamper-{reason}"));
    let mut record = recorded(&dir, "chess-flat", None, "g1-f3,g8-f6,f3-g1,f6-g8,e2-e4");
    edit(&mut record);
    let file = dir.join("tampered.json");
    write_json(&file, &record);
    let (code, verdict) = verify(&file);
    assert_eq!(code, 1, "{verdict}");
    assert_eq!(verdict["verdict"], "rejected");
    assert_eq!(
        (verdict["ply"].as_u64(), verdict["reason"].as_str()),
        (Some(ply), Some(reason)),
        "{verdict}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_record_whose_claims_disagree_with_the_replay_is_rejected_where_they_do() {
    // Six actions: final data is judged one past the last, at ply 6.
    check_tampered(
        |r| r["repetitions"][0]["count"] = 3.into(),
        6,
        "repetition-mismatch",
    );
    check_tampered(
        |r| r["repetitions"] = serde_json::json!([]),
        6,
        "repetition-mismatch",
    );
    check_tampered(
        |r| r["rights"]["castling"] = "Qkq".into(),
        6,
        "rights-mismatch",
    );
    check_tampered(
        |r| r["rights"]["en-passant"] = Value::Null,
        6,
        "rights-mismatch",
    );
    check_tampered(
        |r| r["rights"]["halfmove-clock"] = 4.into(),
        6,
        "rights-mismatch",
    );
    check_tampered(
        |r| r["result"] = serde_json::json!({"winner": "first", "reason": "resignation"}),
        6,
        "result-mismatch",
    );
    check_tampered(|r| r["format"] = 7.into(), 0, "unknown-format");
    check_tampered(|r| r["actions"][2] = "f3-g2".into(), 3, "illegal-action");
}

#[test]
fn format_one_records_still_load() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("conformance/records");
    let mut n = 0;
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "json") {
            assert!(
                read_json(&path).get("format").is_none(),
                "{}",
                path.display()
            );
            let (code, verdict) = verify(&path);
            assert_eq!(code, 0, "{}: {verdict}", path.display());
            n += 1;
        }
    }
    assert!(n > 10, "{n} records");
}

/// Runs the interactive loop on `input` and checks every fragment is in
/// its output, in order.
fn check_session(args: &[&str], input: &str, expect: &[&str]) -> String {
    let mut all = vec!["play"];
    all.extend_from_slice(args);
    all.push("--interactive");
    let r = seams_with_input(&all, input);
    assert_eq!(r.code, 0, "{}\n{}", r.stdout, r.stderr);
    let mut rest = r.stdout.as_str();
    for fragment in expect {
        match rest.find(fragment) {
            Some(i) => rest = &rest[i + fragment.len()..],
            None => panic!("'{fragment}' not found (in order) in:\n{}", r.stdout),
        }
    }
    r.stdout
}

#[test]
fn two_players_move_list_take_back_and_resign() {
    check_session(
        &["chess-flat"],
        "moves\ne2-e4\nundo\nd2-d5\nd2-d4\nresign\ne7-e5\n",
        &[
            "20 legal: a2-a3",
            "played e2-e4",
            "took back e2-e4",
            "error: unreachable",
            "played d2-d4",
            "played resign",
            "game over: White wins by resignation",
            "error: game-over",
            "result: White wins by resignation",
        ],
    );
}

#[test]
fn a_resignation_is_taken_back_like_a_move() {
    check_session(
        &["chess-flat"],
        "d2-d4\nresign\nundo\ne7-e5\nundo\nundo\ne2-e4\n",
        &[
            "played resign",
            "took back resign",
            "played e7-e5",
            "took back e7-e5",
            "took back d2-d4",
            "played e2-e4",
        ],
    );
}

#[test]
fn two_players_agree_a_draw() {
    check_session(
        &["shogi-klein"],
        "e6-e7\ndraw\n",
        &[
            "played e6-e7",
            "played draw",
            "game over: draw by agreement",
        ],
    );
}

#[test]
fn a_game_against_the_opponent_is_saved_and_reloaded() {
    let dir = scratch_dir("play-opponent");
    let saved = dir.join("saved.json");
    let live = dir.join("live.json");
    check_session(
        &[
            "shogi-mobius",
            "--opponent",
            "1",
            "--nodes",
            "500",
            "--record",
            live.to_str().unwrap(),
        ],
        &format!("e3-e4\nundo\ne3-e4\nsave {}\nquit\n", saved.display()),
        &[
            "played e3-e4",
            "opponent plays",
            "took back",
            "played e3-e4",
            "opponent plays",
            "saved",
        ],
    );
    // Both files hold the game as it stood: two actions, each legal.
    for file in [&saved, &live] {
        let record = read_json(file);
        assert_eq!(record["actions"].as_array().unwrap().len(), 2, "{record}");
        assert_eq!(verify(file).0, 0);
    }
    // Reloaded, the game goes on from the saved position.
    let final_position = read_json(&saved)["final_position"]
        .as_str()
        .unwrap()
        .to_string();
    check_session(
        &["shogi-mobius", "--load", saved.to_str().unwrap()],
        "board\n",
        &[&format!("position {final_position}")],
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_opponent_moves_first_when_you_play_second() {
    check_session(
        &["kyoto", "--opponent", "0", "--as", "second", "--seed", "7"],
        "quit\n",
        &["opponent plays", "second player to move"],
    );
}

#[test]
fn play_refuses_bad_options_and_files() {
    let dir = scratch_dir("play-errors");
    let missing = dir.join("missing.json");
    check_input_error(
        &[
            "play",
            "chess-flat",
            "--interactive",
            "--load",
            missing.to_str().unwrap(),
        ],
        "missing.json",
    );
    let not_a_record = dir.join("not-a-record.json");
    std::fs::write(&not_a_record, "{\"variant\": 3}").unwrap();
    check_input_error(
        &[
            "play",
            "chess-flat",
            "--interactive",
            "--load",
            not_a_record.to_str().unwrap(),
        ],
        "is not a game record",
    );
    let other = recorded(&dir, "kyoto", None, "a1-a2");
    let kyoto = dir.join("kyoto.json");
    write_json(&kyoto, &other);
    check_input_error(
        &[
            "play",
            "chess-flat",
            "--interactive",
            "--load",
            kyoto.to_str().unwrap(),
        ],
        "is a game of kyoto, not chess-flat",
    );
    let mut bad = other.clone();
    bad["actions"][0] = "a1-a5".into();
    write_json(&kyoto, &bad);
    check_input_error(
        &[
            "play",
            "kyoto",
            "--interactive",
            "--load",
            kyoto.to_str().unwrap(),
        ],
        "rejected at ply 1",
    );
    check_input_error(
        &["play", "kyoto", "--interactive", "--opponent", "99"],
        "--opponent 99",
    );
    check_input_error(
        &[
            "play",
            "kyoto",
            "--moves",
            "a1-a2",
            "--record",
            dir.to_str().unwrap(),
        ],
        "is a folder",
    );
    check_input_error(
        &["play", "kyoto", "--moves", "a1-a5"],
        "move 1 'a1-a5' cannot be played",
    );
    // --opponent needs the interactive loop; clap refuses it.
    let r = seams(&["play", "kyoto", "--opponent", "1"]);
    assert_eq!(r.code, 2, "{}", r.stderr);
    let _ = std::fs::remove_dir_all(&dir);
}

/// Written records and the format-1 samples fit the generated record
/// schema (checked by the `jsonschema` crate); a misspelt field does not.
#[test]
fn records_fit_the_record_schema() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let schema = read_json(&root.join("conformance/schema/record.schema.json"));
    let validator = jsonschema::validator_for(&schema).expect("the schema compiles");
    let dir = scratch_dir("play-schema");
    let mut record = recorded(&dir, "chess-mobius", None, "e2-e4,e8-e6");
    if let Err(e) = validator.validate(&record) {
        panic!("{e}: {record}");
    }
    for entry in std::fs::read_dir(root.join("conformance/records")).unwrap() {
        let path = entry.unwrap().path();
        assert!(validator.is_valid(&read_json(&path)), "{}", path.display());
    }
    record["repetition"] = serde_json::json!([]);
    assert!(
        !validator.is_valid(&record),
        "a misspelt field was accepted"
    );
    let _ = std::fs::remove_dir_all(&dir);
}
