//! The `seams` binary as a user runs it: outputs, snapshots and exit codes.

use std::process::Command;

struct Run {
    code: i32,
    stdout: String,
    stderr: String,
}

fn seams(args: &[&str]) -> Run {
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

/// Runs a command that must fail with exit code 2 and print `fragment`.
fn check_input_error(args: &[&str], fragment: &str) {
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
        "unknown facing 'sideways' (use up or down)",
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
    let r = seams(&["spec", "coverage", "--corpus", &dir_s, "--uncovered"]);
    assert_eq!(r.code, 1);
    assert!(
        r.stdout
            .contains("case x/y cites GEO-99.1, which no spec defines"),
        "{}",
        r.stdout
    );
    let _ = std::fs::remove_dir_all(&dir);
}
