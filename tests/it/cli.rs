//! The `seams` binary as a user runs it: outputs, snapshots and exit codes.

use std::path::Path;
use std::process::Command;

use crate::common::{check_input_error, seams};

/// Whether a conform summary line says every case passed ("N cases: N
/// passed, 0 failed, 0 unsupported, 0 errors"), whatever N is.
fn all_passed(stdout: &str) -> bool {
    stdout.lines().any(|l| {
        let Some((total, rest)) = l.split_once(" cases: ") else {
            return false;
        };
        // The headline ends with the run's wall time.
        let counts = rest.split_once("; wall time ").map_or(rest, |(c, _)| c);
        counts == format!("{total} passed, 0 failed, 0 unsupported, 0 errors")
    })
}

#[test]
fn geometry_json_reproduces_the_seed_tables() {
    for board in ["mobius-10x9", "klein-9x18", "genus2-9x9"] {
        let r = seams(&["geometry", board, "--json"]);
        assert_eq!(r.code, 0, "{}", r.stderr);
        let v: serde_json::Value = serde_json::from_str(&r.stdout).expect("valid JSON");
        for key in [
            "faces",
            "edges",
            "vertices",
            "euler",
            "orientable",
            "boundary_components",
            "boundary_edges",
            "link_circles",
            "link_intervals",
            "cone_points",
        ] {
            assert!(v.get(key).is_some(), "{board}: key {key} missing");
        }
        insta::assert_json_snapshot!(format!("geometry-{board}"), v);
    }
}

#[test]
fn geometry_text_for_every_board() {
    let r = seams(&["geometry"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    insta::assert_snapshot!("geometry-all", r.stdout);
}

#[test]
fn rays_lists_both_transports_to_one_cell() {
    let r = seams(&[
        "rays",
        "mobius-9x11",
        "--from",
        "a6",
        "--pattern",
        "orthogonal",
        "--facing",
        "up",
        "--json",
    ]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let v: serde_json::Value = serde_json::from_str(&r.stdout).expect("valid JSON");
    let e6: Vec<&serde_json::Value> = v
        .as_array()
        .expect("a list")
        .iter()
        .filter(|x| x["cell"] == "e6")
        .collect();
    assert_eq!(e6.len(), 2);
    assert_eq!(e6[0]["facing"], "up");
    assert_eq!(e6[1]["facing"], "down");
}

#[test]
fn rays_text_ends_with_a_count() {
    let r = seams(&["rays", "klein-9x18", "--from", "i18", "--pattern", "king"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(r.stdout.ends_with("8 destinations\n"), "{}", r.stdout);
}

#[test]
fn conform_passes_on_the_builtin_corpus() {
    let r = seams(&["conform"]);
    assert_eq!(r.code, 0, "{}{}", r.stdout, r.stderr);
    assert!(r.stdout.contains(" passed, 0 failed"), "{}", r.stdout);
}

#[test]
fn unknown_board() {
    check_input_error(
        &["geometry", "torus-3x3"],
        "unknown board 'torus-3x3' (known: ",
    );
}

#[test]
fn bad_coordinate() {
    check_input_error(
        &["rays", "genus2-9x9", "--from", "a1", "--pattern", "king"],
        "bad coordinate 'a1' on board genus2-9x9",
    );
}

#[test]
fn bad_occupied_coordinate() {
    check_input_error(
        &[
            "rays",
            "flat-8x8",
            "--from",
            "a1",
            "--pattern",
            "king",
            "--occupied",
            "b2,z9",
        ],
        "bad coordinate 'z9' on board flat-8x8",
    );
}

#[test]
fn bad_pattern() {
    check_input_error(
        &["rays", "flat-8x8", "--from", "a1", "--pattern", "camel"],
        "unknown pattern 'camel'",
    );
}

#[test]
fn bad_facing() {
    check_input_error(
        &[
            "rays",
            "flat-8x8",
            "--from",
            "a1",
            "--pattern",
            "king",
            "--facing",
            "sideways",
        ],
        "unknown facing 'sideways' (known: up, down)",
    );
}

#[test]
fn unknown_subcommand_is_a_usage_error() {
    check_input_error(&["frobnicate"], "unrecognized subcommand");
}

#[test]
fn missing_spec_folder() {
    check_input_error(
        &["--spec", "/nonexistent/spec", "boards"],
        "loading the spec folder /nonexistent/spec",
    );
}

#[test]
fn bad_board_in_spec_folder_names_file_and_entry() {
    let dir = std::env::temp_dir().join(format!("seams-spec-{}", std::process::id()));
    let boards = dir.join("boards");
    std::fs::create_dir_all(&boards).expect("temp dir");
    std::fs::write(
        boards.join("broken.toml"),
        "name = \"broken\"\nwidth = 9\nheight = 9\ncharts = [\"I\", \"II\"]\n\
         [sides]\neast-west = \"translate\"\nnorth-south = \"translate\"\n\
         [[north]]\nfrom = \"I:a4\"\nto = \"II:a4\"\n",
    )
    .expect("write board");
    let dir_s = dir.display().to_string();
    check_input_error(
        &["--spec", &dir_s, "geometry"],
        "broken.toml: north[0]: re-gluing the north edge of I:a4 leaves the south edge of I:a5 without a partner",
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn bad_corpus_folder_is_an_input_error() {
    let dir = std::env::temp_dir().join(format!("seams-corpus-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    std::fs::write(dir.join("x.json"), "{\"cases\": [ {\"id\": 3} ]}").expect("write case");
    let dir_s = dir.display().to_string();
    check_input_error(&["conform", "--corpus", &dir_s], "x.json: line 1 column");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn help_teaches() {
    let r = seams(&["geometry", "--help"]);
    assert_eq!(r.code, 0);
    assert!(
        r.stdout
            .contains("Example: seams geometry genus2-9x9 --json")
    );
}

// ---------------------------------------------------------------------
// The conformance runner end to end: `seams engine` as an outside process,
// mutants, faulty engines, expectations files, formats, corpus ids.

const SEAMS: &str = env!("CARGO_BIN_EXE_seams");

fn temp(tag: &str) -> std::path::PathBuf {
    crate::common::scratch_dir(&format!("cli-{tag}"))
}

/// The engine command for `--engine`: this very binary, quoted.
fn engine_cmd(extra: &str) -> String {
    format!("'{SEAMS}' engine {extra}")
}

#[test]
fn the_engine_speaks_the_protocol_over_stdio() {
    use std::io::Write;
    let mut child = Command::new(SEAMS)
        .arg("engine")
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .expect("seams engine starts");
    let input = [
        r#"{"id":0,"cmd":"hello","protocol":"1.0"}"#,
        r#"{"id":1,"cmd":"geometry","board":"klein-9x18","question":{"kind":"walk","board":"klein-9x18","from":"i18","steps":["NE"],"facing":"up"}}"#,
        r#"{"id":2,"cmd":"geometry","board":"genus2-9x9","question":{"kind":"invariants","board":"genus2-9x9"}}"#,
        r#"{"id":3,"cmd":"legal_actions","variant":"no-such-variant"}"#,
        r#"{"id":4,"cmd":"frobnicate"}"#,
        r#"{"id":5,"cmd":"geometry","board":"klein-9x18","question":{"kind":"walk","board":"klein-9x18","from":"z99","steps":[]}}"#,
        "{oops",
    ];
    let mut stdin = child.stdin.take().expect("stdin");
    stdin
        .write_all((input.join("\n") + "\n").as_bytes())
        .expect("write requests");
    drop(stdin);
    let out = child
        .wait_with_output()
        .expect("engine exits at end of input");
    assert!(out.status.success());
    let replies: Vec<serde_json::Value> = String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).expect("each reply is one JSON line"))
        .collect();
    assert_eq!(replies.len(), input.len());
    let hello = &replies[0];
    assert_eq!(hello["ok"], true);
    assert_eq!(hello["name"], "seams-reference");
    assert!(
        hello["capabilities"]
            .as_array()
            .unwrap()
            .contains(&"geometry".into())
    );
    assert!(
        hello["commands"]
            .as_array()
            .unwrap()
            .contains(&"perft".into())
    );
    assert_eq!(
        replies[1]["answer"],
        serde_json::json!({"cell": "a18", "transport": "flip-v", "facing": "down"})
    );
    assert_eq!(replies[2]["answer"]["euler"], -2);
    assert_eq!(
        replies[3],
        serde_json::json!({"id": 3, "unsupported": true})
    );
    assert_eq!(
        replies[4],
        serde_json::json!({"id": 4, "unsupported": true})
    );
    assert!(
        replies[5]["error"]
            .as_str()
            .unwrap()
            .contains("bad coordinate 'z99'")
    );
    assert_eq!(replies[6]["id"], serde_json::Value::Null);
}

#[test]
fn conform_against_the_engine_process_passes() {
    let r = seams(&["conform", "--engine", &engine_cmd("")]);
    assert_eq!(r.code, 0, "{}{}", r.stdout, r.stderr);
    assert!(all_passed(&r.stdout), "{}", r.stdout);
}

/// Each geometry mutant fails the corpus and the report names the clauses.
#[test]
fn mutants_are_caught_and_name_their_clauses() {
    for (mutant, case, clauses) in [
        (
            "seam-keeps-facing",
            "geometry/klein-9x18/corner-diagonal#",
            "GEO-2.2",
        ),
        (
            "cone-diagonals",
            "geometry/genus2-9x9/forbidden-diagonals#",
            "GEO-3.3",
        ),
        (
            "knight-lls",
            "geometry/genus2-9x9/knight-from-i-a3#",
            "GEO-4.2",
        ),
        ("nifu-one-sheet", "shogi/genus2/nifu-ii-a5#", "SS-6.2"),
        (
            "en-passant-by-neighbour",
            "chess/genus2/double-step-through-the-staircase-trace#",
            "SC-4.2",
        ),
        ("kyoto-flip-on-drop", "kyoto/drop/tokin-face#", "KY-5.1"),
    ] {
        let r = seams(&[
            "conform",
            "--engine",
            &engine_cmd(&format!("--mutant {mutant}")),
        ]);
        assert_eq!(r.code, 1, "{mutant}: {}{}", r.stdout, r.stderr);
        assert!(
            r.stdout.contains(&format!("FAIL {case}")),
            "{mutant}: {}",
            r.stdout
        );
        let broken = r
            .stdout
            .lines()
            .find(|l| l.starts_with("clauses broken: "))
            .unwrap_or_else(|| panic!("{mutant}: no clause line: {}", r.stdout));
        assert!(broken.contains(clauses), "{mutant}: {broken}");
        assert!(r.stdout.contains(&format!("seams-mutant-{mutant}")));
    }
}

/// Bisect walks a perft-visible mutant down to the first position whose
/// legal actions differ, names them, and writes a corpus case.
#[test]
fn bisect_pins_perft_visible_mutants() {
    let dir = std::env::temp_dir().join(format!("seams-bisect-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    for (mutant, variant, position, depth, shown) in [
        (
            "seam-keeps-facing",
            "shogi-klein",
            None,
            "3",
            "missing (the reference has them): b5-d3",
        ),
        (
            "cone-diagonals",
            "chess-genus2",
            None,
            "3",
            "extra (only the engine has them): I:c2-I:h6",
        ),
        (
            "en-passant-by-neighbour",
            "chess-genus2",
            None,
            "4",
            "missing (the reference has them): II:d5-I:e5",
        ),
        (
            "kyoto-flip-on-drop",
            "kyoto",
            Some("4k/5/5/5/K4[L] w 0 1"),
            "2",
            "missing (the reference has them): e5-d4",
        ),
    ] {
        let out = dir.join(format!("{mutant}.json"));
        let out_s = out.display().to_string();
        let engine = engine_cmd(&format!("--mutant {mutant}"));
        let mut args = vec![
            "bisect",
            "--engine",
            &engine,
            "--variant",
            variant,
            "--depth",
            depth,
            "--out",
            &out_s,
        ];
        if let Some(p) = position {
            args.extend(["--position", p]);
        }
        let r = seams(&args);
        assert_eq!(r.code, 1, "{mutant}: {}{}", r.stdout, r.stderr);
        assert!(r.stdout.contains(shown), "{mutant}: {}", r.stdout);
        let written = std::fs::read_to_string(&out).expect("bisect writes a case");
        let file: seams::conformance::CaseFile =
            serde_json::from_str(&written).expect("the written case parses");
        assert_eq!(file.cases.len(), 1, "{mutant}");
        assert_eq!(file.cases[0].provenance.kind(), "reference");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn reach_failures_name_missing_and_extra_cells() {
    let r = seams(&[
        "conform",
        "--engine",
        &engine_cmd("--mutant seam-keeps-facing"),
        "--case",
        "geometry/klein-9x18/corner-king-steps",
    ]);
    assert_eq!(r.code, 1, "{}", r.stderr);
    assert!(
        r.stdout.contains("reached cells differ: missing ["),
        "{}",
        r.stdout
    );
    assert!(r.stdout.contains("; extra ["), "{}", r.stdout);
}

#[test]
fn mutants_are_listed() {
    let r = seams(&["mutants"]);
    assert_eq!(r.code, 0);
    for m in [
        "seam-keeps-facing",
        "cone-diagonals",
        "knight-lls",
        "nifu-one-sheet",
        "en-passant-by-neighbour",
        "kyoto-flip-on-drop",
    ] {
        assert!(r.stdout.contains(m), "{}", r.stdout);
    }
}

/// A faulty engine costs the cases it faults on, with the right error kind;
/// it is restarted and every other case still passes.
#[test]
fn faulty_engines_are_survived_and_classified() {
    for (fault, kind) in [
        ("crash", "crash"),
        ("garbage", "malformed"),
        ("wrong-id", "wrong-id"),
        ("wrong-shape", "malformed"),
    ] {
        let r = seams(&[
            "conform",
            "--engine",
            &engine_cmd(&format!("--fault {fault} --fault-on diagonal-components")),
        ]);
        assert_eq!(r.code, 1, "{fault}: {}{}", r.stdout, r.stderr);
        assert!(
            r.stdout.contains(&format!("ERROR ({kind}) geometry/")),
            "{fault}: {}",
            r.stdout
        );
        assert!(
            r.stdout.contains(&format!(
                " passed, 0 failed, 0 unsupported, 3 errors ({kind} 3)"
            )),
            "{fault}: {}",
            r.stdout
        );
    }
}

/// A hung engine is stopped after the time limit and restarted. Only the
/// hanging cases are asked, and the limit is generous, so that a loaded
/// machine cannot turn an ordinary reply into a timeout.
#[test]
fn hung_engines_time_out_and_are_restarted() {
    let r = seams(&[
        "conform",
        "--engine",
        &engine_cmd("--fault hang --fault-on bishop-reach"),
        "--case",
        "bishop-reach",
        "--timeout-ms",
        "2000",
    ]);
    assert_eq!(r.code, 1, "{}{}", r.stdout, r.stderr);
    assert!(
        r.stdout
            .contains("2 cases: 0 passed, 0 failed, 0 unsupported, 2 errors (timeout 2)"),
        "{}",
        r.stdout
    );
    assert!(
        r.stdout.contains("no reply to 'geometry' within 2000 ms"),
        "{}",
        r.stdout
    );
}

#[test]
fn crash_reports_carry_the_engines_last_words() {
    let r = seams(&[
        "conform",
        "--engine",
        &engine_cmd("--fault crash --fault-on walk"),
        "--case",
        "rank-6-loop",
    ]);
    assert_eq!(r.code, 1);
    assert!(
        r.stdout.contains("the engine exited (exit status: 3)"),
        "{}",
        r.stdout
    );
    assert!(r.stdout.contains("crashing on purpose"), "{}", r.stdout);
}

#[test]
fn engines_that_cannot_start_are_input_errors() {
    check_input_error(
        &["conform", "--engine", "/nonexistent/engine --x"],
        "cannot start the engine '/nonexistent/engine --x'",
    );
    check_input_error(
        &["conform", "--engine", "  "],
        "the engine command is empty",
    );
    check_input_error(&["conform", "--engine", "engine 'x"], "unclosed quote");
    // `cat` echoes the hello request, which is not a reply.
    check_input_error(
        &["conform", "--engine", "cat"],
        "the engine 'cat' failed the hello handshake",
    );
    // An engine that exits at once.
    check_input_error(
        &["conform", "--engine", "true"],
        "failed the hello handshake",
    );
    check_input_error(
        &["conform", "--engine", &engine_cmd("--fault bad-hello")],
        "its hello reply does not have the expected fields: missing field `name`",
    );
    check_input_error(
        &[
            "conform",
            "--engine",
            &engine_cmd("--fault crash"),
            "--timeout-ms",
            "0",
        ],
        "--timeout-ms must be at least 1",
    );
}

#[test]
fn conform_usage_errors() {
    check_input_error(
        &["conform", "--rules", "v2"],
        "--rules: 'v2' is not a version",
    );
    check_input_error(
        &["conform", "--case", "no-such-case"],
        "no case in the corpus matches --case 'no-such-case'",
    );
    check_input_error(&["conform", "--format", "yaml"], "invalid value 'yaml'");
    check_input_error(
        &["conform", "--variant", "shogi-nowhere"],
        "unknown variant 'shogi-nowhere' (known: chess-flat",
    );
    check_input_error(
        &["engine", "--mutant", "nifu"],
        "unknown mutant 'nifu' (known: ",
    );
    check_input_error(
        &["engine", "--fault", "crash", "--fault-on", "perft"],
        "--fault-on 'perft' is not a geometry check kind",
    );
    check_input_error(
        &[
            "bisect",
            "--engine",
            "x",
            "--variant",
            "shogi-nowhere",
            "--depth",
            "2",
        ],
        "unknown variant 'shogi-nowhere'",
    );
    check_input_error(
        &[
            "bisect",
            "--engine",
            "x",
            "--variant",
            "shogi-nowhere",
            "--depth",
            "0",
        ],
        "--depth 0 has nothing to compare",
    );
    check_input_error(
        &["conform", "--corpus", "/nonexistent/cases"],
        "loading the corpus folder /nonexistent/cases",
    );
    check_input_error(
        &["schema", "--write", "--dir", "/dev/null/schema"],
        "writing the schemas into /dev/null/schema",
    );
}

#[test]
fn expectations_files_gate_the_exit_code() {
    let dir = temp("expect");
    let file = dir.join("known.json");
    let f = file.display().to_string();
    let mutant = engine_cmd("--mutant knight-lls");
    // A baseline records the failure and exits 0.
    let r = seams(&[
        "conform",
        "--case",
        "geometry/",
        "--engine",
        &mutant,
        "--baseline",
        &f,
    ]);
    assert_eq!(r.code, 0, "{}{}", r.stdout, r.stderr);
    assert!(
        r.stderr.contains("wrote 1 known failure(s)"),
        "{}",
        r.stderr
    );
    let text = std::fs::read_to_string(&file).expect("baseline written");
    let v: serde_json::Value = serde_json::from_str(&text).expect("JSON");
    assert_eq!(v["known"][0]["kind"], "fail");
    let id = v["known"][0]["id"].as_str().expect("an id").to_string();
    assert!(id.starts_with("geometry/genus2-9x9/knight-from-i-a3#"));
    // The same engine now matches its expectations.
    let r = seams(&[
        "conform",
        "--case",
        "geometry/",
        "--engine",
        &mutant,
        "--expect",
        &f,
    ]);
    assert_eq!(r.code, 0, "{}", r.stdout);
    assert!(r.stdout.contains("FAIL [expected] "), "{}", r.stdout);
    assert!(r.stdout.contains("0 result(s) differ"), "{}", r.stdout);
    // The fixed engine passes the listed case: a mismatch.
    let r = seams(&["conform", "--expect", &f]);
    assert_eq!(r.code, 1, "{}", r.stdout);
    assert!(r.stdout.contains("PASS [now passes] "), "{}", r.stdout);
    // Another mutant fails differently: new failures.
    let r = seams(&[
        "conform",
        "--engine",
        &engine_cmd("--mutant cone-diagonals"),
        "--expect",
        &f,
    ]);
    assert_eq!(r.code, 1);
    assert!(r.stdout.contains("FAIL [new failure] "), "{}", r.stdout);
    // A changed failure kind.
    std::fs::write(&file, text.replace("\"fail\"", "\"timeout\"")).expect("edit");
    let r = seams(&[
        "conform",
        "--case",
        "geometry/",
        "--engine",
        &mutant,
        "--expect",
        &f,
    ]);
    assert_eq!(r.code, 1);
    assert!(
        r.stdout.contains("FAIL [changed failure kind] "),
        "{}",
        r.stdout
    );
    // Bad files are input errors naming the file and entry.
    std::fs::write(&file, text.replace(&id, "geometry/gone#00000000")).expect("edit");
    check_input_error(
        &["conform", "--expect", &f],
        "known[0] 'geometry/gone#00000000': no case in the corpus has this id",
    );
    std::fs::write(&file, "{\"known\": [{\"id\": 1}]}").expect("edit");
    check_input_error(&["conform", "--expect", &f], "known.json: line 1 column");
    check_input_error(
        &["conform", "--expect", "/nonexistent/known.json"],
        "/nonexistent/known.json",
    );
    // A baseline that cannot be written: nothing half-written, exit 2.
    check_input_error(
        &["conform", "--baseline", "/nonexistent/dir/known.json"],
        "the folder /nonexistent/dir does not exist",
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn report_formats() {
    let mutant = engine_cmd("--mutant knight-lls");
    let r = seams(&[
        "conform",
        "--case",
        "geometry/",
        "--engine",
        &mutant,
        "--format",
        "json",
    ]);
    assert_eq!(r.code, 1);
    let v: serde_json::Value = serde_json::from_str(&r.stdout).expect("JSON report");
    assert_eq!(v["summary"]["fail"], 1);
    assert_eq!(
        v["clauses_broken"],
        serde_json::json!([
            {"clause": "GEO-1.5", "cases": 1},
            {"clause": "GEO-4.1", "cases": 1},
            {"clause": "GEO-4.2", "cases": 1}
        ])
    );
    let failed: Vec<&serde_json::Value> = v["cases"]
        .as_array()
        .expect("cases")
        .iter()
        .filter(|c| c["outcome"] == "fail")
        .collect();
    assert_eq!(failed.len(), 1);
    assert!(failed[0]["expected"].is_array());
    let r = seams(&[
        "conform",
        "--case",
        "geometry/",
        "--engine",
        &mutant,
        "--format",
        "junit",
    ]);
    assert_eq!(r.code, 1);
    assert!(r.stdout.starts_with("<?xml"), "{}", r.stdout);
    assert!(r.stdout.contains("<testsuite name=\"board:genus2-9x9\""));
    assert!(r.stdout.contains("<failure"));
    let r = seams(&["conform", "--format", "markdown", "--tier", "quick"]);
    assert_eq!(r.code, 0);
    assert!(
        r.stdout.starts_with("## seams conform: seams-reference"),
        "{}",
        r.stdout
    );
    assert!(r.stdout.contains("| `GEO-3.1` |"), "{}", r.stdout);
}

#[test]
fn reports_people_act_on() {
    // JSON: a failing action set carries what is missing and extra as
    // data, with counts; the clauses it breaks are counted.
    let mutant = engine_cmd("--mutant cone-diagonals");
    let r = seams(&[
        "conform", "--engine", &mutant, "--case", "genus2", "--format", "json",
    ]);
    assert_eq!(r.code, 1);
    let v: serde_json::Value = serde_json::from_str(&r.stdout).expect("JSON report");
    let case = v["cases"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| {
            c["id"]
                .as_str()
                .unwrap()
                .starts_with("shogi/genus2/cone-diagonal-forbidden")
        })
        .expect("the cone case");
    assert_eq!(case["missing"], serde_json::json!([]));
    assert_eq!(case["extra"], serde_json::json!(["I:a4-I:i5"]));
    assert_eq!(case["extra_count"], 1);
    assert_eq!(case["missing_count"], 0);
    let broken = v["clauses_broken"].as_array().unwrap();
    assert!(
        broken.iter().all(|b| b["cases"].as_u64().unwrap() >= 1),
        "{broken:?}"
    );
    // Markdown: the problems come before the tallies.
    let r = seams(&[
        "conform", "--engine", &mutant, "--case", "genus2", "--format", "markdown",
    ]);
    let problems = r.stdout.find("### Problems").expect("a problems section");
    let clauses = r.stdout.find("| clause |").expect("a clause table");
    assert!(problems < clauses, "{}", r.stdout);
    // The baseline names the engine as its hello does.
    let dir = temp("baseline-name");
    let file = dir.join("known.json");
    let r = seams(&[
        "conform",
        "--engine",
        &mutant,
        "--case",
        "genus2",
        "--baseline",
        file.to_str().unwrap(),
    ]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let written: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&file).unwrap()).unwrap();
    assert_eq!(written["engine"], "seams-mutant-cone-diagonals");
}

#[test]
fn rehash_fixes_ids_and_loading_rejects_stale_ones() {
    let dir = temp("rehash");
    let src = concat!(env!("CARGO_MANIFEST_DIR"), "/conformance/cases/geometry");
    for f in ["seed-tables.json", "worked-examples.json"] {
        std::fs::copy(format!("{src}/{f}"), dir.join(f)).expect("copy");
    }
    let d = dir.display().to_string();
    // Unchanged copies rehash to themselves.
    let r = seams(&["corpus", "rehash", &d]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(r.stdout.ends_with("0 id(s) rewritten\n"), "{}", r.stdout);
    // Edit a title: the stale hash is refused with a hint.
    let p = dir.join("seed-tables.json");
    let text = std::fs::read_to_string(&p).expect("read");
    let edited = text.replacen("\"title\": \"", "\"title\": \"Edited: ", 1);
    std::fs::write(&p, &edited).expect("write");
    let r = seams(&["conform", "--corpus", &d]);
    assert_eq!(r.code, 2);
    assert!(
        r.stderr.contains("the id's hash does not match"),
        "{}",
        r.stderr
    );
    assert!(r.stderr.contains("seams corpus rehash"), "{}", r.stderr);
    // Rehash rewrites exactly that id, and the corpus loads and passes.
    let r = seams(&["corpus", "rehash", &d]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(r.stdout.ends_with("1 id(s) rewritten\n"), "{}", r.stdout);
    let r = seams(&["conform", "--corpus", &d]);
    assert_eq!(r.code, 0, "{}{}", r.stdout, r.stderr);
    // An invalid file stops the rehash before anything is written.
    let other = dir.join("worked-examples.json");
    let before = std::fs::read_to_string(&other).expect("read");
    std::fs::write(&other, before.replacen("#", "#x", 1)).expect("write");
    std::fs::write(
        dir.join("zz-broken.json"),
        "{\"cases\": [{\"id\": \"A B\"}]}",
    )
    .expect("write");
    let r = seams(&["corpus", "rehash", &d]);
    assert_eq!(r.code, 2);
    assert!(r.stderr.contains("zz-broken.json"), "{}", r.stderr);
    assert_eq!(
        std::fs::read_to_string(&other).expect("read"),
        before.replacen("#", "#x", 1),
        "nothing is written when any file is invalid"
    );
    check_input_error(
        &["corpus", "rehash", "/nonexistent/cases"],
        "/nonexistent/cases",
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn schemas_are_current() {
    let r = seams(&[
        "schema",
        "--check",
        "--dir",
        concat!(env!("CARGO_MANIFEST_DIR"), "/conformance/schema"),
    ]);
    assert_eq!(r.code, 0, "{}", r.stdout);
    let dir = temp("schema");
    let d = dir.display().to_string();
    let r = seams(&["schema", "--check", "--dir", &d]);
    assert_eq!(r.code, 1);
    assert!(r.stdout.contains("case-file.schema.json"), "{}", r.stdout);
    let r = seams(&["schema", "--write", "--dir", &d]);
    assert_eq!(r.code, 0);
    let r = seams(&["schema", "--check", "--dir", &d]);
    assert_eq!(r.code, 0, "{}", r.stdout);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn conform_help_teaches() {
    let r = seams(&["conform", "--help"]);
    assert_eq!(r.code, 0);
    assert!(
        r.stdout
            .contains("seams conform --engine \"python3 tools/example-engine/engine.py\"")
    );
    assert!(
        r.stdout
            .contains("Exit status: 0 when every result matches")
    );
}

/// The generated schema accepts every corpus file and rejects a typo. The
/// validator is the `jsonschema` crate, independent of the generator.
#[test]
fn the_case_schema_accepts_the_corpus() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let read = |p: &Path| -> serde_json::Value {
        serde_json::from_str(&std::fs::read_to_string(p).unwrap()).unwrap()
    };
    let schema = read(&root.join("conformance/schema/case-file.schema.json"));
    let validator = jsonschema::validator_for(&schema).expect("the schema compiles");
    let files: Vec<_> = walkdir::WalkDir::new(root.join("conformance/cases"))
        .into_iter()
        .map(|e| e.unwrap().into_path())
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .collect();
    assert!(files.len() > 10, "{} case files", files.len());
    for f in &files {
        if let Err(e) = validator.validate(&read(f)) {
            panic!("{}: {e}", f.display());
        }
    }
    let mut bad = read(&files[0]);
    bad["cases"][0]["check"]["typo"] = 1.into();
    assert!(!validator.is_valid(&bad), "a typo was accepted");
}

#[test]
fn spec_coverage_is_complete_for_the_builtin_corpus() {
    let r = seams(&["spec", "coverage"]);
    assert_eq!(r.code, 0, "{}", r.stdout);
    assert!(
        r.stdout.contains(" 0 uncovered, 0 unknown citations"),
        "{}",
        r.stdout
    );
}

#[test]
fn spec_coverage_flags_an_unknown_clause() {
    let dir = std::env::temp_dir().join(format!("seams-cov-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    std::fs::write(
        dir.join("x.json"),
        r#"{"cases": [{"id": "x/y", "title": "t", "clauses": ["GEO-99.1"],
            "provenance": {"kind": "derived", "reasoning": "r"},
            "check": {"kind": "walk", "board": "flat-8x8", "from": "a1", "steps": ["N"],
                      "expect": {"cell": "a2", "transport": "identity"}}}]}"#,
    )
    .expect("write case");
    let dir_s = dir.display().to_string();
    assert_eq!(seams(&["corpus", "rehash", &dir_s]).code, 0);
    let r = seams(&["spec", "coverage", "--corpus", &dir_s, "--uncovered"]);
    assert_eq!(r.code, 1);
    assert!(
        r.stdout.contains("cites GEO-99.1, which no spec defines"),
        "{}",
        r.stdout
    );
    let _ = std::fs::remove_dir_all(&dir);
}

// ---------------------------------------------------------------------
// Game records: every sample game in conformance/records/ is accepted,
// and each kind of corruption is rejected at the right ply with a reason.

fn records_dir() -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("conformance/records")
}

#[test]
fn every_sample_game_is_accepted_with_its_result() {
    let mut seen = 0;
    let mut surfaces = std::collections::BTreeSet::new();
    for entry in std::fs::read_dir(records_dir()).expect("the records folder") {
        let path = entry.expect("entry").path();
        let text = std::fs::read_to_string(&path).expect("read record");
        let record: serde_json::Value = serde_json::from_str(&text).expect("record JSON");
        let path_s = path.display().to_string();
        let r = seams(&["record", "verify", &path_s, "--json"]);
        assert_eq!(r.code, 0, "{path_s}: {}{}", r.stdout, r.stderr);
        let verdict: serde_json::Value = serde_json::from_str(&r.stdout).expect("verdict JSON");
        assert_eq!(verdict["verdict"], "accepted", "{path_s}");
        assert_eq!(verdict["result"], record["result"], "{path_s}");
        assert!(!record["result"].is_null(), "{path_s}: a sample game ends");
        surfaces.insert(record["variant"].as_str().unwrap_or("").to_string());
        seen += 1;
    }
    assert!(seen >= 20, "only {seen} sample games");
    for v in [
        "shogi-mobius",
        "shogi-klein",
        "shogi-genus2",
        "chess-mobius",
        "chess-klein",
        "chess-genus2",
        "kyoto",
    ] {
        assert!(surfaces.contains(v), "no sample game for {v}");
    }
}

/// Writes `edit(record)` to a temporary file and checks the verdict.
fn check_corrupt(
    name: &str,
    edit: impl Fn(&mut serde_json::Value),
    ply: u64,
    reason: &str,
    fragment: &str,
) {
    let text = std::fs::read_to_string(records_dir().join("shogi-klein-checkmate.json"))
        .expect("the sample record");
    let mut record: serde_json::Value = serde_json::from_str(&text).expect("JSON");
    edit(&mut record);
    let path = std::env::temp_dir().join(format!("seams-rec-{}-{name}.json", std::process::id()));
    std::fs::write(&path, serde_json::to_string(&record).expect("JSON")).expect("write");
    let p = path.display().to_string();
    let r = seams(&["record", "verify", &p, "--json"]);
    assert_eq!(r.code, 1, "{name}: {}{}", r.stdout, r.stderr);
    let v: serde_json::Value = serde_json::from_str(&r.stdout).expect("verdict JSON");
    assert_eq!(v["verdict"], "rejected", "{name}");
    assert_eq!(v["ply"], ply, "{name}: {v}");
    assert_eq!(v["reason"], reason, "{name}: {v}");
    let text = seams(&["record", "verify", &p]);
    assert!(
        text.stdout.contains(fragment),
        "{name}: the message should say '{fragment}': {}",
        text.stdout
    );
    let _ = std::fs::remove_file(&path);
}

#[test]
fn corrupted_records_are_rejected_with_ply_and_reason() {
    let text = std::fs::read_to_string(records_dir().join("shogi-klein-checkmate.json"))
        .expect("the sample record");
    let full: serde_json::Value = serde_json::from_str(&text).expect("JSON");
    let n = full["actions"].as_array().map_or(0, Vec::len) as u64;
    // 1. An illegal action in the middle.
    check_corrupt(
        "illegal",
        |r| r["actions"][3] = serde_json::json!("a1-a9"),
        4,
        "illegal-action",
        "rejected at ply 4: ply 4 'a1-a9'",
    );
    // 2. A claimed result that replaying does not give (winner swapped).
    check_corrupt(
        "wrong-result",
        |r| {
            let other = if r["result"]["winner"] == "first" {
                "second"
            } else {
                "first"
            };
            r["result"]["winner"] = serde_json::json!(other);
        },
        n + 1,
        "result-mismatch",
        "but replaying it gives",
    );
    // 3. A truncated game still claiming its result.
    check_corrupt(
        "truncated",
        |r| {
            r["actions"].as_array_mut().expect("actions").pop();
        },
        n,
        "result-mismatch",
        "no result (the game goes on)",
    );
    // 4. A final position that is not where the game ends (the start).
    check_corrupt(
        "final-position",
        |r| {
            r["final_position"] = serde_json::json!(
                "9/9/9/lnsgkgsnl/pr5b1/1pppppppp/9/9/9/9/9/9/PPPPPPPP1/1B5RP/LNSGKGSNL/9/9/9 A - 1"
            )
        },
        n + 1,
        "final-position-mismatch",
        "differs from the replayed",
    );
    // 5. Another rules version.
    check_corrupt(
        "rules-version",
        |r| r["rules"] = serde_json::json!("0.1"),
        0,
        "wrong-rules-version",
        "played under rules 0.1",
    );
    // 6. An action after the game has ended.
    check_corrupt(
        "after-the-end",
        |r| {
            r["actions"]
                .as_array_mut()
                .expect("actions")
                .push(serde_json::json!("resign"))
        },
        n + 1,
        "illegal-action",
        "already over",
    );
    // 7. An edited start that is not a position.
    check_corrupt(
        "bad-start",
        |r| r["start"] = serde_json::json!({"kind": "edited", "position": "9/9 A - 1"}),
        0,
        "bad-start",
        "bad position",
    );
}

#[test]
fn unreadable_records_are_input_errors() {
    let path = std::env::temp_dir().join(format!("seams-rec-{}-bad.json", std::process::id()));
    std::fs::write(&path, "{\"variant\": \"shogi-klein\"").expect("write");
    let p = path.display().to_string();
    check_input_error(&["record", "verify", &p], "line 1 column");
    check_input_error(
        &["record", "verify", "/nonexistent/game.json"],
        "reading the record /nonexistent/game.json",
    );
    let _ = std::fs::remove_file(&path);
}

#[test]
fn bench_reports_nodes_for_a_variant() {
    let r = seams(&["bench", "--variant", "kyoto", "--depth", "2", "--json"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let v: serde_json::Value = serde_json::from_str(&r.stdout).expect("JSON");
    assert_eq!(v[0]["variant"], "kyoto");
    assert_eq!(v[0]["nodes"], 137);
    assert!(v[0]["seconds"].is_number());
    check_input_error(&["bench", "--variant", "go"], "unknown variant 'go'");
}

#[test]
fn analysis_mode_moves_either_army_and_is_labelled() {
    // A pinned gold: b2 is attacked only through c3 by the bishop on e5;
    // scored play refuses moving it, analysis without king safety allows it.
    let pos = "9/9/9/9/4b4/9/2G6/1K7/9 A - 1";
    let legal = seams(&["moves", "shogi-flat", "--position", pos]);
    assert_eq!(legal.code, 0, "{}", legal.stderr);
    assert!(!legal.stdout.contains("c3-c4"), "{}", legal.stdout);
    let free = seams(&[
        "moves",
        "shogi-flat",
        "--position",
        pos,
        "--analysis",
        "first",
        "--no-king-safety",
    ]);
    assert_eq!(free.code, 0, "{}", free.stderr);
    assert!(free.stdout.contains("c3-c4"), "{}", free.stdout);
    assert!(
        free.stderr
            .contains("experiments, not legal moves of a scored game"),
        "{}",
        free.stderr
    );
    // The second army can be moved although the first is to move.
    let other = seams(&[
        "moves",
        "shogi-flat",
        "--position",
        pos,
        "--analysis",
        "second",
    ]);
    assert_eq!(other.code, 0, "{}", other.stderr);
    assert!(other.stdout.contains("e5-"), "{}", other.stdout);
    check_input_error(
        &["moves", "shogi-flat", "--analysis", "both"],
        "unknown army 'both' (known: first, second)",
    );
    check_input_error(
        &["moves", "shogi-flat", "--analysis", "frist"],
        "did you mean 'first'?",
    );
    // Every family has the mode: a chess king in check castles only
    // without king safety (SC-A1).
    let checked = "k3r3/8/8/8/8/8/8/4K2R w K - 0 1";
    for (safety, castles) in [(None, false), (Some("--no-king-safety"), true)] {
        let mut args = vec![
            "moves",
            "chess-flat",
            "--position",
            checked,
            "--analysis",
            "first",
        ];
        args.extend(safety);
        let r = seams(&args);
        assert_eq!(r.code, 0, "{}", r.stderr);
        assert_eq!(
            r.stdout.lines().any(|l| l == "O-O"),
            castles,
            "{}",
            r.stdout
        );
    }
    for variant in ["kyoto", "tetra-hexgi", "chess-klein"] {
        let r = seams(&["moves", variant, "--analysis", "second"]);
        assert_eq!(r.code, 0, "{variant}: {}", r.stderr);
        assert!(!r.stdout.is_empty(), "{variant}");
    }
}
