//! `seams serve` over HTTP: what the page asks and what the server refuses.
//! Requests go over a real socket with raw headers, so the safety checks
//! are tested the way a hostile page would meet them. The page itself is
//! driven in a real browser by `tests/external/webapp.rs`.

use crate::common::server::Server;
use serde_json::{Value, json};

/// One server for the checks that do not need their own.
fn server() -> &'static Server {
    static SERVER: std::sync::OnceLock<Server> = std::sync::OnceLock::new();
    SERVER.get_or_init(|| Server::start(&[]))
}

/// Asks `path` with `body` and checks the status, and that the error (for
/// a 4xx) contains `expect`.
fn check(path: &str, body: Value, status: u16, expect: &str) -> Value {
    let (got, answer) = server().post(path, &body);
    assert_eq!(got, status, "{path} {body}: {answer}");
    if status >= 400 {
        let error = answer["error"].as_str().unwrap_or_default();
        assert!(
            error.contains(expect),
            "{path}: error {error:?} lacks {expect:?}"
        );
    }
    answer
}

#[test]
fn the_page_and_its_assets_are_served_with_a_strict_policy() {
    for (path, kind) in [
        ("/", "text/html"),
        ("/app.js", "text/javascript"),
        ("/style.css", "text/css"),
    ] {
        let (status, body) = server().request("GET", path, &[], b"");
        assert_eq!(status, 200, "{path}");
        assert!(!body.is_empty(), "{path} is empty");
        let (_, head) = raw_head(path);
        assert!(head.contains(kind), "{path}: {head}");
        assert!(
            head.contains("content-security-policy: default-src 'none'"),
            "{head}"
        );
        assert!(head.contains("x-frame-options: DENY"), "{head}");
    }
    let (status, body) = server().request("GET", "/nowhere", &[], b"");
    assert_eq!(status, 404);
    assert!(body.contains("no such page: GET /nowhere"), "{body}");
}

/// The status line and headers of a GET, lower-cased names.
fn raw_head(path: &str) -> (u16, String) {
    use std::io::{Read, Write};
    let mut s = std::net::TcpStream::connect(&server().addr).unwrap();
    write!(
        s,
        "GET {path} HTTP/1.1\r\nHost: {}\r\nConnection: close\r\n\r\n",
        server().addr
    )
    .unwrap();
    let mut text = String::new();
    s.read_to_string(&mut text).unwrap();
    let head = text.split("\r\n\r\n").next().unwrap().to_string();
    (text[9..12].parse().unwrap(), head)
}

#[test]
fn the_menu_lists_every_variant_with_its_start() {
    let (status, body) = server().request("GET", "/api/variants", &[], b"");
    assert_eq!(status, 200);
    let menu: Value = serde_json::from_str(&body).unwrap();
    let names: Vec<&str> = menu["variants"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v["name"].as_str().unwrap())
        .collect();
    let known: Vec<&str> = seams::registry::variants()
        .iter()
        .map(|v| v.name())
        .collect();
    assert_eq!(names, known);
    assert_eq!(menu["max_level"], json!(seams::opponent::MAX_LEVEL));
    for v in menu["variants"].as_array().unwrap() {
        assert_eq!(v["analysis"], json!(true), "{v}");
    }
}

#[test]
fn a_game_is_replayed_and_shown_with_its_legal_moves() {
    let view = check(
        "/api/game",
        json!({"variant": "chess-flat", "actions": ["e2-e4", "e7-e5"]}),
        200,
        "",
    );
    assert_eq!(view["actions"], json!(["e2-e4", "e7-e5"]));
    assert_eq!(view["to_move"], "first");
    assert_eq!(view["names"], json!(["White", "Black"]));
    assert_eq!(view["moves"].as_array().unwrap().len(), 29);
    assert!(view["svg"].as_str().unwrap().starts_with("<svg"));
    assert_eq!(view["record"]["actions"], json!(["e2-e4", "e7-e5"]));
    // Fool's mate: the result and its reason are shown.
    let mate = check(
        "/api/game",
        json!({"variant": "chess-flat", "actions": ["f2-f3", "e7-e5", "g2-g4", "d8-h4"]}),
        200,
        "",
    );
    assert_eq!(mate["result"]["reason"], "checkmate");
    assert_eq!(mate["result"]["text"], "Black wins by checkmate");
    assert_eq!(mate["moves"], json!([]));
}

/// The piece view on `cell`.
fn piece_on<'v>(view: &'v Value, cell: &str) -> &'v Value {
    view["pieces"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["cell"] == cell)
        .unwrap_or_else(|| panic!("no piece on {cell}: {}", view["pieces"]))
}

#[test]
fn kings_rooks_and_bishops_show_the_arrow_their_routes_left() {
    // A's rook on i5 crosses the Möbius seam to a7 and turns (SS-A2).
    let start = "4k4/9/9/9/9/9/8R/9/9/9/4K4 A - 1";
    let view = check(
        "/api/game",
        json!({"variant": "shogi-mobius", "start": start, "actions": ["i5-a7", "e11-d11"]}),
        200,
        "",
    );
    let rook = piece_on(&view, "a7");
    assert_eq!(
        (&rook["facing"], &rook["arrow"]),
        (&json!("down"), &json!(true))
    );
    let king = piece_on(&view, "e1");
    assert_eq!(
        (&king["facing"], &king["arrow"]),
        (&json!("up"), &json!(true))
    );
    let king = piece_on(&view, "d11");
    assert_eq!(
        (&king["facing"], &king["arrow"]),
        (&json!("down"), &json!(true))
    );
    // The position text knows nothing of it: no facing mark on the rook.
    assert_eq!(view["position"], "3k5/9/9/9/R8/9/9/9/9/9/4K4 A - 3");
    let svg = view["svg"].as_str().unwrap();
    assert!(svg.contains(r#"data-arrow="down" data-on="a7""#), "{svg}");
    assert!(svg.contains(r#"data-arrow="up" data-on="e1""#), "{svg}");
    // The legend travels beside the picture, as data.
    assert!(!svg.contains("id=\"legend\""), "{svg}");
    let legend = view["legend"].as_array().unwrap();
    assert!(legend.iter().any(|l| {
        l["text"]
            .as_str()
            .unwrap()
            .contains("arrow records transport; does not affect moves")
    }));
    // A gold's facing is a rule facing, drawn as before.
    let view = check(
        "/api/game",
        json!({"variant": "shogi-mobius", "actions": ["e1-e2"]}),
        200,
        "",
    );
    let gold = piece_on(&view, "d1");
    assert_eq!(
        (&gold["facing"], &gold["arrow"]),
        (&json!("up"), &json!(false))
    );
    assert_eq!(piece_on(&view, "e2")["arrow"], json!(true));
    // Where no seam turns anything, no arrow is drawn.
    for variant in ["shogi-flat", "shogi-genus2", "chess-mobius"] {
        let view = check("/api/game", json!({"variant": variant}), 200, "");
        assert!(
            view["pieces"]
                .as_array()
                .unwrap()
                .iter()
                .all(|p| p["arrow"] == json!(false)),
            "{variant}"
        );
        let svg = view["svg"].as_str().unwrap();
        assert!(!svg.contains("data-arrow"), "{variant}");
        assert!(
            !view["legend"]
                .to_string()
                .contains("arrow records transport"),
            "{variant}"
        );
    }
}

#[test]
fn resignation_and_agreed_draws_end_the_game() {
    let view = check(
        "/api/game",
        json!({"variant": "shogi-klein", "actions": ["resign"]}),
        200,
        "",
    );
    assert_eq!(view["result"]["text"], "B wins by resignation");
    let view = check(
        "/api/game",
        json!({"variant": "kyoto", "actions": ["draw"]}),
        200,
        "",
    );
    assert_eq!(view["result"]["reason"], "agreement");
}

#[test]
fn bad_requests_are_refused_with_the_reason() {
    check(
        "/api/game",
        json!({"variant": "chess-flat", "actions": ["e2-e4", "e2-e4"]}),
        422,
        "move 2 'e2-e4' cannot be played",
    );
    let answer = check(
        "/api/game",
        json!({"variant": "chess-flat", "actions": ["e2-e4", "e2-e4"]}),
        422,
        "",
    );
    assert_eq!(answer["ply"], 2);
    check(
        "/api/game",
        json!({"variant": "chess-moebius"}),
        422,
        "unknown variant 'chess-moebius'",
    );
    check(
        "/api/game",
        json!({"variant": "chess-flat", "start": "not a position"}),
        422,
        "",
    );
    check(
        "/api/game",
        json!({"variant": "chess-flat", "colour": "red"}),
        400,
        "unknown field `colour`",
    );
    check("/api/game", json!([1, 2]), 400, "bad request");
    let (status, body) = server().request(
        "POST",
        "/api/game",
        &[("Content-Type", "application/json")],
        b"{\"variant\": ",
    );
    assert_eq!(status, 400);
    assert!(body.contains("EOF while parsing"), "{body}");
    check(
        "/api/opponent",
        json!({"variant": "chess-flat", "level": 200}),
        400,
        "level 200 is above the strongest level",
    );
    check(
        "/api/import",
        json!({"variant": "chess-flat", "position": "8/8/8/8/8/8/8/8 w - - 0 1"}),
        422,
        "",
    );
    let many: Vec<&str> = vec!["e2-e4"; 100_001];
    check(
        "/api/game",
        json!({"variant": "chess-flat", "actions": many}),
        422,
        "at most 100000 are taken",
    );
}

#[test]
fn foreign_hosts_and_origins_are_refused() {
    let s = server();
    // DNS rebinding: the request reaches us, but under another name.
    let (status, body) = s.request("GET", "/api/variants", &[("Host", "evil.example:80")], b"");
    assert_eq!(status, 403);
    assert!(
        body.contains("host 'evil.example:80' is not this server's address"),
        "{body}"
    );
    let (status, _) = s.request("GET", "/", &[("Host", "")], b"");
    assert_eq!(status, 403);
    // `localhost` names the same server.
    let port = s.addr.rsplit(':').next().unwrap();
    let (status, _) = s.request("GET", "/", &[("Host", &format!("localhost:{port}"))], b"");
    assert_eq!(status, 200);
    let game = br#"{"variant": "chess-flat"}"#;
    let (status, body) = s.request(
        "POST",
        "/api/game",
        &[
            ("Content-Type", "application/json"),
            ("Origin", "http://evil.example"),
        ],
        game,
    );
    assert_eq!(status, 403);
    assert!(
        body.contains("cross-origin request refused (origin 'http://evil.example')"),
        "{body}"
    );
    let (status, body) = s.request(
        "POST",
        "/api/game",
        &[
            ("Content-Type", "application/json"),
            ("Sec-Fetch-Site", "cross-site"),
        ],
        game,
    );
    assert_eq!(status, 403);
    assert!(body.contains("sec-fetch-site: cross-site"), "{body}");
    // A form post (no preflight in browsers) is not JSON and is refused.
    let (status, body) = s.request("POST", "/api/game", &[("Content-Type", "text/plain")], game);
    assert_eq!(status, 415);
    assert!(body.contains("requests must be JSON"), "{body}");
}

#[test]
fn bodies_are_capped() {
    let huge = vec![b' '; seams::serve::MAX_BODY + 1];
    let (status, _) = server().request(
        "POST",
        "/api/game",
        &[("Content-Type", "application/json")],
        &huge,
    );
    assert_eq!(status, 413);
}

#[test]
fn the_opponent_answers_with_a_legal_action() {
    let answer = check(
        "/api/opponent",
        json!({"variant": "shogi-genus2", "actions": [], "level": 1}),
        200,
        "",
    );
    let action = answer["action"].as_str().unwrap().to_string();
    check(
        "/api/game",
        json!({"variant": "shogi-genus2", "actions": [action]}),
        200,
        "",
    );
    // A finished game has no answer.
    let answer = check(
        "/api/opponent",
        json!({"variant": "shogi-genus2", "actions": ["resign"], "level": 0}),
        200,
        "",
    );
    assert_eq!(answer["action"], Value::Null);
}

#[test]
fn analysis_moves_either_army_and_can_drop_king_safety() {
    // Black's rook on d8 guards d1 and d2 from White's king on e1.
    let guarded = "3r3k/8/8/8/8/8/8/4K3 w - - 0 1";
    let ask = |mover: &str, king_safety: bool| {
        check(
            "/api/analysis",
            json!({"variant": "chess-flat", "position": guarded, "mover": mover, "king_safety": king_safety}),
            200,
            "",
        )
    };
    let texts = |v: &Value| -> Vec<String> {
        let mut t: Vec<String> = v["moves"]
            .as_array()
            .unwrap()
            .iter()
            .map(|m| m["text"].as_str().unwrap().to_string())
            .collect();
        t.sort();
        t
    };
    let safe = ask("first", true);
    assert_eq!(safe["experiment"], true);
    assert_eq!(texts(&safe), ["e1-e2", "e1-f1", "e1-f2"]);
    let relaxed = ask("first", false);
    assert_eq!(
        texts(&relaxed),
        ["e1-d1", "e1-d2", "e1-e2", "e1-f1", "e1-f2"]
    );
    // The army not to move can be moved too.
    let black = ask("second", true);
    assert!(
        texts(&black).iter().any(|t| t.starts_with("d8")),
        "{:?}",
        texts(&black)
    );
    // A line of experiments goes on through a position the text refuses
    // (White's king left in check with the move passed), which is named.
    let step =
        |action: &str, mover: &str| json!({"action": action, "mover": mover, "king_safety": false});
    let after = check(
        "/api/analysis",
        json!({"variant": "chess-flat", "position": guarded, "steps": [step("e1-d2", "first")], "mover": "second", "king_safety": false}),
        200,
        "",
    );
    assert_eq!(after["mover"], "second");
    let refused = after["refused"].as_str().unwrap();
    assert!(
        refused.contains("White, not to move, is in check"),
        "{refused}"
    );
    // No experiment takes a king (SC-A3), even without king safety.
    assert!(
        !texts(&after).iter().any(|t| t.ends_with("d2")),
        "{:?}",
        texts(&after)
    );
    let further = check(
        "/api/analysis",
        json!({"variant": "chess-flat", "position": guarded, "steps": [step("e1-d2", "first"), step("h8-g8", "second")], "mover": "first", "king_safety": true}),
        200,
        "",
    );
    assert_eq!(further["refused"], Value::Null);
    let answer = check(
        "/api/analysis",
        json!({"variant": "chess-flat", "position": guarded, "steps": [step("e1-d2", "first"), {"action": "e1-d1", "mover": "first", "king_safety": true}], "mover": "first", "king_safety": true}),
        422,
        "move 2 'e1-d1' cannot be played: unreachable: not an action of this analysis position",
    );
    assert_eq!(answer["ply"], 2);
}

#[test]
fn the_editor_places_pieces_and_shows_the_references_verdict() {
    let palette = check("/api/palette", json!({"variant": "chess-flat"}), 200, "");
    let tokens: Vec<&str> = palette["pieces"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["token"].as_str().unwrap())
        .collect();
    assert!(tokens.contains(&"Q") && tokens.contains(&"k"), "{tokens:?}");
    assert_eq!(
        palette["pieces"][0]["text"]
            .as_str()
            .unwrap()
            .split(' ')
            .next(),
        Some("White")
    );
    let start = "4k3/8/8/8/8/8/8/4K3 w - - 0 1";
    // Taking White's king away: the text is refused, and still drawn.
    let gone = check(
        "/api/edit",
        json!({"variant": "chess-flat", "position": start, "place": {"cell": "e1", "token": null}}),
        200,
        "",
    );
    assert_eq!(gone["position"], "4k3/8/8/8/8/8/8/8 w - - 0 1");
    assert!(
        gone["valid"].as_str().unwrap().contains("king"),
        "{}",
        gone["valid"]
    );
    assert_eq!(gone["pieces"].as_array().unwrap().len(), 1);
    assert!(gone["svg"].as_str().unwrap().starts_with("<svg"));
    let back = check(
        "/api/edit",
        json!({"variant": "chess-flat", "position": gone["position"], "place": {"cell": "d1", "token": "K"}}),
        200,
        "",
    );
    assert_eq!(back["valid"], true);
    assert_eq!(back["position"], "4k3/8/8/8/8/8/8/3K4 w - - 0 1");
    let side = check(
        "/api/edit",
        json!({"variant": "chess-flat", "position": back["position"], "side": "second"}),
        200,
        "",
    );
    assert_eq!(side["to_move"], "second");
    let hand = check(
        "/api/edit",
        json!({"variant": "shogi-klein", "position": seams::registry::find("shogi-klein").unwrap().start_position(), "hand": {"player": "first", "label": "P", "count": 2}}),
        200,
        "",
    );
    // The start already has all 18 pawns: the reference names its rule.
    assert!(
        hand["position"].as_str().unwrap().ends_with(" A 2P 1"),
        "{}",
        hand["position"]
    );
    assert!(
        hand["valid"].as_str().unwrap().contains("SS-I9"),
        "{}",
        hand["valid"]
    );
    check(
        "/api/edit",
        json!({"variant": "chess-flat", "position": start, "place": {"cell": "z9", "token": "Q"}}),
        422,
        "z9",
    );
    check(
        "/api/edit",
        json!({"variant": "chess-flat", "position": start, "place": {"cell": "a1", "token": "Z"}}),
        422,
        "Z",
    );
}

#[test]
fn a_saved_game_loads_back_and_a_tampered_one_names_its_ply() {
    let view = check(
        "/api/game",
        json!({"variant": "shogi-mobius", "actions": []}),
        200,
        "",
    );
    let first = view["moves"][0]["text"].as_str().unwrap().to_string();
    let view = check(
        "/api/game",
        json!({"variant": "shogi-mobius", "actions": [first]}),
        200,
        "",
    );
    let record = view["record"].clone();
    let loaded = check("/api/load", json!({ "record": record }), 200, "");
    assert_eq!(loaded["actions"], view["actions"]);
    assert_eq!(loaded["position"], view["position"]);
    let mut tampered = record.clone();
    tampered["actions"][0] = json!("a1-a9");
    let refused = check(
        "/api/load",
        json!({ "record": tampered }),
        422,
        "refused at ply 1",
    );
    assert_eq!(refused["ply"], 1);
    check(
        "/api/load",
        json!({ "record": {"variant": 3} }),
        400,
        "not a game record",
    );
}

#[test]
fn position_text_imports_as_the_reference_reads_it() {
    let answer = check(
        "/api/import",
        json!({"variant": "shogi-flat", "position": " lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL A - 1 "}),
        200,
        "",
    );
    assert_eq!(
        answer["position"],
        "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL A - 1"
    );
}

#[test]
fn a_host_other_than_loopback_is_warned_about() {
    let out = crate::common::seams(&["serve", "--host", "not-an-address"]);
    assert_eq!(out.code, 2, "{}", out.stderr);
    assert!(out.stderr.contains("--host"), "{}", out.stderr);
}

#[test]
fn a_port_in_use_is_a_clear_error() {
    let taken = server().addr.rsplit(':').next().unwrap().to_string();
    let out = crate::common::seams(&["serve", "--port", &taken]);
    assert_eq!(out.code, 2, "{}", out.stderr);
    assert!(
        out.stderr
            .contains(&format!("cannot listen on 127.0.0.1 port {taken}")),
        "{}",
        out.stderr
    );
}

#[test]
fn an_edited_spec_is_what_the_app_plays() {
    // One of the Klein first player's pawns moved from h6 to i6.
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("serve-spec");
    let _ = std::fs::remove_dir_all(&dir);
    crate::common::copy_dir(
        &std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("spec"),
        &dir,
    );
    let file = dir.join("shogi/shogi-klein.toml");
    let text = std::fs::read_to_string(&file).unwrap();
    assert!(text.contains("pieces = \"PPPPPPPP.\""));
    std::fs::write(
        &file,
        text.replace("pieces = \"PPPPPPPP.\"", "pieces = \"PPPPPPP.P\""),
    )
    .unwrap();
    let edited = Server::start(&["--spec", dir.to_str().unwrap()]);
    let game = json!({"variant": "shogi-klein", "actions": ["i6-i7"]});
    let (status, _) = edited.post("/api/game", &game);
    assert_eq!(status, 200);
    let (status, answer) = server().post("/api/game", &game);
    assert_eq!(status, 422, "{answer}");
}

#[test]
fn every_ending_is_shown_with_its_reason() {
    let shuffle = |moves: [&str; 4], times: usize| -> Vec<String> {
        moves
            .iter()
            .cycle()
            .take(4 * times)
            .map(|m| m.to_string())
            .collect()
    };
    let cases = [
        (
            json!({"variant": "chess-flat", "actions": shuffle(["g1-f3", "g8-f6", "f3-g1", "f6-g8"], 4)}),
            "drawn by repetition",
        ),
        (
            json!({"variant": "shogi-flat", "actions": shuffle(["h2-g2", "b8-c8", "g2-h2", "c8-b8"], 3)}),
            "drawn by repetition",
        ),
        (
            json!({"variant": "chess-flat", "start": "4k3/8/8/8/8/8/8/4Kr2 w - - 0 1", "actions": ["e1-f1"]}),
            "drawn by bare kings",
        ),
    ];
    for (game, text) in cases {
        let view = check("/api/game", game.clone(), 200, "");
        assert_eq!(view["result"]["text"], text, "{game}");
        assert_eq!(view["moves"], json!([]), "{game}");
    }
}

/// The serve tests, run in a test process of their own, leave no server
/// running once that process exits: neither the one every check shares,
/// which a `static` holds and never drops, nor one whose test panics right
/// after starting it. Each run is marked with a token the servers inherit,
/// and no running process may carry it afterwards.
#[test]
fn no_server_outlives_the_tests_that_started_it() {
    // This test runs the binary it is part of; inside that run it would
    // start itself again.
    if std::env::var_os("SEAMS_TEST_TOKEN").is_some() {
        return;
    }
    let binary = std::env::current_exe().expect("the test binary");
    for (run, panic_after_start) in [("passing", false), ("failing", true)] {
        let token = format!("{}-{run}-{}", std::process::id(), line!());
        let mut inner = std::process::Command::new(&binary);
        inner
            .args(["serve::", "--test-threads", "2"])
            .env("SEAMS_TEST_TOKEN", &token)
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null());
        if panic_after_start {
            inner.env("SEAMS_TEST_PANIC_AFTER_SERVER_STARTS", "1");
        }
        let status = inner.status().expect("the serve tests run");
        assert_eq!(
            status.success(),
            !panic_after_start,
            "the {run} run of the serve tests ended with {status}"
        );
        // A killed process takes a moment to go; one left running stays.
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(2);
        let left = loop {
            let left = crate::common::reap::processes_with_token(&token);
            if left.is_empty() || std::time::Instant::now() > deadline {
                break left;
            }
            std::thread::sleep(std::time::Duration::from_millis(50));
        };
        assert!(left.is_empty(), "after the {run} run: {left:?}");
    }
}

/// One raw request: the status, the head (lower-cased header names, one a
/// line) and the body.
fn raw(method: &str, path: &str, headers: &[(&str, &str)], body: &[u8]) -> (u16, String, String) {
    use std::io::{Read, Write};
    let addr = &server().addr;
    let mut s = std::net::TcpStream::connect(addr).unwrap();
    let mut head = format!("{method} {path} HTTP/1.1\r\nConnection: close\r\n");
    if !headers.iter().any(|(k, _)| k.eq_ignore_ascii_case("host")) {
        head.push_str(&format!("Host: {addr}\r\n"));
    }
    for (k, v) in headers {
        head.push_str(&format!("{k}: {v}\r\n"));
    }
    head.push_str(&format!("Content-Length: {}\r\n\r\n", body.len()));
    s.write_all(head.as_bytes()).unwrap();
    let _ = s.write_all(body);
    let mut answer = Vec::new();
    let _ = s.read_to_end(&mut answer);
    let text = String::from_utf8_lossy(&answer).into_owned();
    let (head, body) = text.split_once("\r\n\r\n").unwrap_or((&text, ""));
    let status = head[9..12].parse().unwrap();
    (status, head.to_ascii_lowercase(), body.to_string())
}

/// A request and the status it must get: method, path, headers, body.
type Case<'a> = (&'a str, &'a str, Vec<(&'a str, &'a str)>, &'a [u8], u16);

#[test]
fn every_answer_carries_the_same_security_headers() {
    let json = ("Content-Type", "application/json");
    let game = br#"{"variant": "chess-flat"}"#.as_slice();
    let huge = vec![b' '; seams::serve::MAX_BODY + 1];
    let port = server().addr.rsplit(':').next().unwrap().to_string();
    let cases: Vec<Case> = vec![
        ("GET", "/", vec![], b"", 200),
        ("HEAD", "/", vec![], b"", 200),
        ("GET", "/app.js", vec![], b"", 200),
        ("GET", "/style.css", vec![], b"", 200),
        ("GET", "/favicon.svg", vec![], b"", 200),
        ("GET", "/api/variants", vec![], b"", 200),
        ("POST", "/api/game", vec![json], game, 200),
        (
            "POST",
            "/api/game",
            vec![json],
            br#"{"variant": "chess-flat", "actions": ["e2-e5"]}"#,
            422,
        ),
        ("POST", "/api/game", vec![json], b"[1]", 400),
        ("GET", "/nowhere", vec![], b"", 404),
        ("PUT", "/api/game", vec![json], game, 405),
        ("GET", "/api/game", vec![], b"", 405),
        ("DELETE", "/api/game", vec![], b"", 405),
        ("POST", "/", vec![json], game, 405),
        ("POST", "/api/game", vec![json], &huge, 413),
        (
            "POST",
            "/api/game",
            vec![("Content-Type", "text/plain")],
            game,
            415,
        ),
        ("GET", "/", vec![("Host", "evil.example")], b"", 403),
        (
            "POST",
            "/api/game",
            vec![json, ("Origin", "http://evil.example")],
            game,
            403,
        ),
        (
            "POST",
            "/api/game",
            vec![json, ("Sec-Fetch-Site", "cross-site")],
            game,
            403,
        ),
    ];
    for (method, path, headers, body, status) in cases {
        let (got, head, _) = raw(method, path, &headers, body);
        assert_eq!(got, status, "{method} {path} {headers:?}: {head}");
        for (name, value) in seams::serve::SECURITY_HEADERS {
            let line = format!("\r\n{}: {}", name.as_str(), value.to_ascii_lowercase());
            assert!(
                head.contains(&line),
                "{method} {path} ({status}) lacks {name}: {head}"
            );
        }
    }
    // `localhost` names the server too, and is answered alike.
    let (status, head, _) = raw("GET", "/", &[("Host", &format!("localhost:{port}"))], b"");
    assert_eq!(status, 200);
    assert!(
        head.contains("content-security-policy: default-src 'none'"),
        "{head}"
    );
}

#[test]
fn a_method_a_path_does_not_take_is_refused_in_json_with_allow() {
    for method in ["PUT", "GET", "DELETE", "PATCH"] {
        let (status, head, body) = raw(
            method,
            "/api/game",
            &[("Content-Type", "application/json")],
            b"{}",
        );
        assert_eq!(status, 405, "{method}: {head}");
        assert!(head.contains("\r\nallow: post"), "{method}: {head}");
        assert!(head.contains("content-type: application/json"), "{head}");
        let body: Value = serde_json::from_str(&body).unwrap();
        assert_eq!(
            body["error"],
            format!("method {method} is not allowed for /api/game: it takes POST"),
        );
    }
    let (status, head, body) = raw(
        "POST",
        "/app.js",
        &[("Content-Type", "application/json")],
        b"{}",
    );
    assert_eq!(status, 405);
    assert!(head.contains("\r\nallow: get, head"), "{head}");
    assert!(body.contains("it takes GET or HEAD"), "{body}");
}

#[test]
fn the_favicon_is_the_projects_own_svg() {
    for path in ["/favicon.svg", "/favicon.ico"] {
        let (status, head, body) = raw("GET", path, &[], b"");
        assert_eq!(status, 200, "{path}");
        assert!(head.contains("content-type: image/svg+xml"), "{head}");
        assert!(
            body.starts_with("<svg") && body.contains("<title>seams</title>"),
            "{body}"
        );
    }
    let (_, page) = server().request("GET", "/", &[], b"");
    assert!(
        page.contains(r#"<link rel="icon" href="/favicon.svg" type="image/svg+xml">"#),
        "{page}"
    );
}

#[test]
fn the_last_move_is_given_and_framed_on_the_board() {
    let start = check("/api/game", json!({"variant": "chess-flat"}), 200, "");
    assert_eq!(start["last_move"], Value::Null);
    assert!(!start["svg"].as_str().unwrap().contains("data-framed"));
    let view = check(
        "/api/game",
        json!({"variant": "chess-flat", "actions": ["e2-e4"]}),
        200,
        "",
    );
    assert_eq!(
        view["last_move"],
        json!({"text": "e2-e4", "from": "e2", "to": "e4"})
    );
    let svg = view["svg"].as_str().unwrap();
    assert!(svg.contains(r#"data-framed="e2""#) && svg.contains(r#"data-framed="e4""#));
    // The legend, which the page sets out beside the board, says so.
    let legend = view["legend"].to_string();
    assert!(
        legend.contains("e4: the last move (e2-e4) went here"),
        "{legend}"
    );
    // A resignation is no move: the one before it is marked.
    let view = check(
        "/api/game",
        json!({"variant": "chess-flat", "actions": ["e2-e4", "resign"]}),
        200,
        "",
    );
    assert_eq!(view["last_move"]["text"], "e2-e4");
    // A drop marks its destination alone.
    let kyoto =
        json!({"variant": "kyoto", "actions": ["b1-a2", "a5-a4", "a2-d5", "a4-a2", "B*a3"]});
    let view = check("/api/game", kyoto, 200, "");
    assert_eq!(
        view["last_move"],
        json!({"text": "B*a3", "from": null, "to": "a3"})
    );
    let svg = view["svg"].as_str().unwrap();
    assert_eq!(svg.matches("data-framed=").count(), 1, "{svg}");
    // In analysis, the last experiment, whichever army made it.
    let view = check(
        "/api/analysis",
        json!({"variant": "chess-flat", "position": "4k3/8/8/8/8/8/8/4K3 w - - 0 1",
               "steps": [{"action": "e8-d8", "mover": "second", "king_safety": true}],
               "mover": "second", "king_safety": true}),
        200,
        "",
    );
    assert_eq!(
        view["last_move"],
        json!({"text": "e8-d8", "from": "e8", "to": "d8"})
    );
}

#[test]
fn a_kyoto_token_in_hand_lists_both_faces_it_drops_with() {
    let view = check(
        "/api/game",
        json!({"variant": "kyoto", "actions": ["b1-a2", "a5-a4", "a2-d5", "a4-a2"]}),
        200,
        "",
    );
    let token = view["hands"][0]
        .as_array()
        .unwrap()
        .iter()
        .find(|h| h["label"] == "S/B")
        .unwrap();
    assert_eq!(token["count"], 1);
    assert_eq!(token["drops"], json!(["S", "B"]));
    let faces: std::collections::BTreeSet<&str> = view["moves"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|m| m["drop"].as_str())
        .collect();
    assert_eq!(faces, ["B", "S"].into());
    // Elsewhere a hand entry drops under its own label.
    let shogi = check("/api/game", json!({"variant": "shogi-flat"}), 200, "");
    for h in shogi["hands"][0].as_array().unwrap() {
        assert_eq!(h["drops"], json!([h["label"]]), "{h}");
    }
}

#[test]
fn a_refused_record_names_its_ply_once() {
    let view = check(
        "/api/game",
        json!({"variant": "chess-flat", "actions": ["e2-e4", "e7-e5", "g1-f3"]}),
        200,
        "",
    );
    let mut record = view["record"].clone();
    record["actions"][2] = json!("b2-a1");
    let refused = check("/api/load", json!({ "record": record }), 422, "");
    let error = refused["error"].as_str().unwrap();
    assert!(
        error.starts_with("the record is refused at ply 3 'b2-a1': "),
        "{error}"
    );
    assert_eq!(error.matches("ply 3").count(), 1, "{error}");
    assert_eq!(refused["ply"], 3);
    // A claim the replay contradicts is named with its ply, once.
    let mut record = view["record"].clone();
    record["result"] = json!({"winner": "first", "reason": "resignation"});
    let refused = check("/api/load", json!({ "record": record }), 422, "");
    let error = refused["error"].as_str().unwrap();
    assert!(
        error.starts_with("the record is refused at ply 4: "),
        "{error}"
    );
}

#[test]
fn the_editor_shows_a_refused_hand_count_as_typed() {
    let start = seams::registry::find("shogi-klein")
        .unwrap()
        .start_position();
    let hand = check(
        "/api/edit",
        json!({"variant": "shogi-klein", "position": start, "hand": {"player": "first", "label": "P", "count": 2}}),
        200,
        "",
    );
    assert!(hand["valid"].as_str().unwrap().contains("SS-I9"));
    let pawns = hand["hands"][0]
        .as_array()
        .unwrap()
        .iter()
        .find(|h| h["label"] == "P")
        .unwrap();
    assert_eq!(pawns["count"], 2, "{}", hand["hands"]);
    // The tetrahedron's refusals name its players as its board does.
    let tetra = seams::registry::find("tetra-shogi")
        .unwrap()
        .start_position();
    let gone = check(
        "/api/edit",
        json!({"variant": "tetra-shogi", "position": tetra, "place": {"cell": "e1.1", "token": null}}),
        200,
        "",
    );
    assert!(
        gone["valid"]
            .as_str()
            .unwrap()
            .contains("White has 0 royal pieces on the board"),
        "{}",
        gone["valid"]
    );
}

#[test]
fn coordinates_can_be_left_off_the_board() {
    let labels = |v: &Value| {
        let svg = v["svg"].as_str().unwrap();
        [
            "a", "b", "c", "d", "e", "f", "g", "h", "1", "2", "3", "4", "5", "6", "7", "8",
        ]
        .iter()
        .map(|l| svg.matches(&format!(">{l}</text>")).count())
        .sum::<usize>()
    };
    let on = check("/api/game", json!({"variant": "chess-flat"}), 200, "");
    let off = check(
        "/api/game",
        json!({"variant": "chess-flat", "coordinates": false}),
        200,
        "",
    );
    assert_eq!(labels(&on), 16);
    assert_eq!(labels(&off), 0);
    // Labelled by default, as `seams render` draws the board.
    let rendered = crate::common::seams(&["render", "chess-flat"]);
    assert_eq!(labels(&json!({ "svg": rendered.stdout })), 16);
    for (path, body) in [
        (
            "/api/analysis",
            json!({"variant": "tetra-shogi", "position": seams::registry::find("tetra-shogi").unwrap().start_position(), "mover": "first", "king_safety": true, "coordinates": false}),
        ),
        (
            "/api/edit",
            json!({"variant": "shogi-flat", "position": seams::registry::find("shogi-flat").unwrap().start_position(), "coordinates": false}),
        ),
    ] {
        let with = {
            let mut b = body.clone();
            b["coordinates"] = json!(true);
            check(path, b, 200, "")
        };
        let without = check(path, body, 200, "");
        let texts = |v: &Value| v["svg"].as_str().unwrap().matches("</text>").count();
        assert!(texts(&without) < texts(&with), "{path}");
    }
}
