//! Engines that try to wedge or flood the runner: each must get its own
//! verdict, the run must end, and nothing the engine started may be left
//! running. The misbehaving engines are `seams engine --fault KIND`.
//!
//! "Ends" is checked as liveness, not speed: a watchdog fails the test
//! only if a run is still going after a minute, where a wedged runner
//! would wait forever.

use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::Value;

const SEAMS: &str = env!("CARGO_BIN_EXE_seams");

/// Far above what any of these runs needs; only a wedged run reaches it.
const WATCHDOG: Duration = Duration::from_secs(60);

/// What `seams conform --format json` reported, and its exit code.
struct Conformed {
    code: i32,
    report: Value,
    stderr: String,
}

/// Runs the geometry cases of the Klein bottle against `engine` with
/// `extra` flags, under the watchdog.
fn conform(engine: &str, extra: &[&str]) -> Conformed {
    let mut child = Command::new(SEAMS)
        .args(["conform", "--case", "geometry/klein", "--format", "json"])
        .args(["--engine", engine])
        .args(extra)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let started = Instant::now();
    loop {
        if child.try_wait().unwrap().is_some() {
            break;
        }
        if started.elapsed() > WATCHDOG {
            let _ = child.kill();
            panic!("`{engine}` wedged the runner: still running after {WATCHDOG:?}");
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    let out = child.wait_with_output().unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    Conformed {
        code: out.status.code().unwrap_or(-1),
        report: serde_json::from_str(&stdout).unwrap_or(Value::Null),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    }
}

/// Every case's outcome is `kind`, with a message containing `fragment`.
fn check_every_case(c: &Conformed, kind: &str, fragment: &str) {
    let cases = c.report["cases"]
        .as_array()
        .unwrap_or_else(|| panic!("a JSON report: {}", c.stderr));
    assert!(!cases.is_empty());
    for case in cases {
        assert_eq!(case["outcome"], kind, "{case}");
        let message = case["message"].as_str().unwrap_or_default();
        assert!(message.contains(fragment), "'{fragment}' in {message}");
    }
}

#[test]
fn an_engine_that_forks_and_exits_is_a_crash_and_leaves_no_orphan() {
    let c = conform("seams engine --fault fork-exit", &["--max-failures", "100"]);
    assert_eq!(c.code, 1, "{}", c.stderr);
    check_every_case(&c, "crash", "exited");
    // The forked `sleep` held the engine's stdout; killing the process
    // group took it down with the engine.
    std::thread::sleep(Duration::from_millis(200));
    let left = crate::common::reap::processes_with("sleep 3600.0417");
    assert!(left.is_empty(), "orphans left behind: {left:?}");
}

#[test]
fn an_engine_that_closes_stdout_is_a_crash_at_once() {
    // The engine stays alive after closing stdout; waiting for it to exit
    // would take forever. The reply timeout is an hour so that only the
    // closed stream can end each case.
    let c = conform(
        "seams engine --fault close-stdout",
        &["--timeout-ms", "3600000", "--max-failures", "100"],
    );
    assert_eq!(c.code, 1, "{}", c.stderr);
    check_every_case(&c, "crash", "closed its stdout");
}

#[test]
fn stderr_that_is_not_utf8_is_drained_and_ignored() {
    let c = conform("seams engine --fault bad-stderr", &[]);
    assert_eq!(c.code, 0, "{}", c.stderr);
    check_every_case(&c, "pass", "");
}

#[test]
fn a_huge_reply_line_is_malformed_without_being_held() {
    let c = conform(
        "seams engine --fault huge-reply",
        &["--max-reply-bytes", "1048576"],
    );
    assert_eq!(c.code, 1, "{}", c.stderr);
    check_every_case(&c, "malformed", "reply too long");
}

#[test]
fn an_engine_that_never_says_hello_fails_after_the_hello_timeout() {
    let c = conform(
        "seams engine --fault no-hello",
        &["--hello-timeout-ms", "500"],
    );
    assert_eq!(c.code, 2, "{}", c.stderr);
    assert!(
        c.stderr
            .contains("failed the hello handshake: no reply to 'hello' within 500 ms"),
        "{}",
        c.stderr
    );
}

#[test]
fn a_dead_engine_is_not_asked_again() {
    // Every request crashes the engine; after two crashes in a row the
    // rest are not asked, each with its own verdict.
    let c = conform("seams engine --fault crash", &["--max-failures", "2"]);
    assert_eq!(c.code, 1, "{}", c.stderr);
    let cases = c.report["cases"].as_array().unwrap();
    let outcomes: Vec<&str> = cases
        .iter()
        .map(|k| k["outcome"].as_str().unwrap())
        .collect();
    assert_eq!(&outcomes[..2], ["crash", "crash"], "{outcomes:?}");
    for k in &cases[2..] {
        assert_eq!(k["outcome"], "not-run", "{k}");
        let m = k["message"].as_str().unwrap();
        assert!(
            m.contains("engine dead (it crashed or timed out 2 times in a row)"),
            "{m}"
        );
    }
    assert_eq!(c.report["summary"]["not_run"], cases.len() - 2);
}

#[test]
fn an_engine_that_hangs_on_every_case_is_bounded_by_max_time() {
    // An hour per reply, and plenty of failures allowed: only --max-time
    // can end this run.
    let started = Instant::now();
    let c = conform(
        "seams engine --fault hang",
        &[
            "--max-time",
            "2",
            "--timeout-ms",
            "3600000",
            "--max-failures",
            "100",
        ],
    );
    assert_eq!(c.code, 1, "{}", c.stderr);
    let cases = c.report["cases"].as_array().unwrap();
    assert_eq!(cases[0]["outcome"], "timeout", "{}", cases[0]);
    for k in &cases[1..] {
        assert_eq!(k["outcome"], "not-run", "{k}");
        assert!(k["message"].as_str().unwrap().contains("--max-time"), "{k}");
    }
    // Liveness: the hour-long reply limit was cut to the run's limit.
    assert!(started.elapsed() < WATCHDOG);
    crate::common::check_input_error(&["conform", "--max-time", "0"], "--max-time must be");
    crate::common::check_input_error(&["conform", "--max-time=-3"], "--max-time must be");
}

#[test]
fn limit_flags_must_be_positive() {
    for flag in ["--hello-timeout-ms", "--max-reply-bytes", "--max-failures"] {
        crate::common::check_input_error(
            &["conform", "--engine", "seams engine", flag, "0"],
            &format!("{flag} must be at least 1"),
        );
    }
}

#[test]
fn unknown_hello_fields_are_refused_by_name() {
    let dir = std::env::temp_dir().join(format!("seams-wedge-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let script = dir.join("typo.sh");
    // A hello reply with `boards_` for `boards`: once silently accepted,
    // which turned board filtering off.
    std::fs::write(
        &script,
        "read line\necho '{\"id\":0,\"ok\":true,\"name\":\"typo\",\"version\":\"1\",\"boards_\":[]}'\nsleep 5\n",
    )
    .unwrap();
    crate::common::check_input_error(
        &["conform", "--engine", &format!("sh {}", script.display())],
        "the unknown field 'boards_'",
    );
}

/// A hello reply without `protocol`, or with another major version, ends
/// the run at the handshake with a message naming the version; the same
/// reply naming protocol 1.x is accepted.
#[test]
fn the_handshake_needs_protocol_major_version_1() {
    let dir = std::env::temp_dir().join(format!("seams-wedge-hello-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    // Answers hello offering no command, so no case is asked, then waits
    // for the end of its input.
    let engine = |name: &str, protocol: &str| {
        let script = dir.join(name);
        let hello = format!(r#"{{"id":0,"ok":true,{protocol}"name":"e","version":"1"}}"#);
        std::fs::write(
            &script,
            format!("read line\necho '{hello}'\ncat >/dev/null\n"),
        )
        .unwrap();
        format!("sh {}", script.display())
    };
    crate::common::check_input_error(
        &["conform", "--engine", &engine("none.sh", "")],
        "its hello reply has no 'protocol'",
    );
    crate::common::check_input_error(
        &[
            "conform",
            "--engine",
            &engine("two.sh", r#""protocol":"2.0","#),
        ],
        "its hello reply says protocol 2.0; this runner speaks protocol 1.1",
    );
    let later_minor = conform(&engine("one.sh", r#""protocol":"1.4","#), &[]);
    assert_eq!(later_minor.code, 0, "{}", later_minor.stderr);
    check_every_case(
        &later_minor,
        "unsupported",
        "does not declare the capability",
    );
}

// ---- seams engine under any input ----

fn serve(input: &[u8]) -> Vec<Value> {
    use std::io::Write;
    let mut child = Command::new(SEAMS)
        .arg("engine")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(input).unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success());
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

#[test]
fn seams_engine_answers_bad_requests_and_goes_on_serving() {
    let mut input = Vec::new();
    input.extend_from_slice(
        b"{\"id\":1,\"cmd\":\"perft\",\"variant\":\"kyoto\",\"depth\":4294967295}\n",
    );
    input.extend_from_slice(b"\xff\xfe not utf-8\n");
    input.extend_from_slice(
        b"{\"id\":2,\"cmd\":\"perft\",\"variant\":\"chess-flat\",\"depth\":229}\n",
    );
    input.extend_from_slice(b"{\"id\":3,\"cmd\":\"perft\",\"variant\":\"kyoto\",\"depth\":2}\n");
    let replies = serve(&input);
    assert_eq!(replies.len(), 4, "{replies:?}");
    assert_eq!(replies[0]["id"], 1);
    assert!(
        replies[0]["error"]
            .as_str()
            .unwrap()
            .contains("above the limit of 20")
    );
    assert_eq!(replies[1]["id"], Value::Null);
    assert!(replies[1]["error"].as_str().unwrap().contains("not UTF-8"));
    assert!(
        replies[2]["error"]
            .as_str()
            .unwrap()
            .contains("above the limit")
    );
    assert_eq!(replies[3]["nodes"], 137, "Kyoto perft 2 still answered");
}

#[test]
fn seams_engine_skips_an_over_long_request_and_goes_on() {
    let mut input = vec![b'x'; 17 << 20];
    input.push(b'\n');
    input.extend_from_slice(b"{\"id\":1,\"cmd\":\"perft\",\"variant\":\"kyoto\",\"depth\":1}\n");
    let replies = serve(&input);
    assert_eq!(replies.len(), 2, "{replies:?}");
    assert_eq!(replies[0]["id"], Value::Null);
    let message = replies[0]["error"].as_str().unwrap();
    assert!(
        message.contains("request too long: 17825792 bytes"),
        "{message}"
    );
    assert_eq!(replies[1]["nodes"], 12);
}

#[test]
fn huge_perft_depths_are_input_errors_everywhere() {
    crate::common::check_input_error(
        &["perft", "chess-flat", "4294967295"],
        "perft depth 4294967295 is above the limit of 20",
    );
    crate::common::check_input_error(
        &[
            "bisect",
            "--engine",
            "seams engine",
            "--variant",
            "kyoto",
            "--depth",
            "21",
        ],
        "above the limit of 20",
    );
    // A corpus case asking for such a depth is refused when the corpus
    // loads, before any engine is asked.
    let dir = std::env::temp_dir().join(format!("seams-deep-case-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut file: Value = serde_json::from_str(
        &std::fs::read_to_string(root.join("conformance/cases/shogi/perft.json")).unwrap(),
    )
    .unwrap();
    let mut case = file["cases"][0].clone();
    assert_eq!(case["check"]["kind"], "perft");
    case["check"]["depth"] = 4294967295u64.into();
    file["cases"] = Value::Array(vec![case]);
    std::fs::write(dir.join("deep.json"), file.to_string()).unwrap();
    crate::common::check_input_error(
        &["conform", "--corpus", dir.to_str().unwrap()],
        "perft depth 4294967295 is above the limit of 20",
    );
}
