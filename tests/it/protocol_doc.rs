//! conformance/PROTOCOL.md is checked against the implementation: every
//! example request is sent to `seams engine` and must get exactly the
//! reply the document shows; every example is validated against the
//! generated protocol schema; every runner verdict shown is the one the
//! runner's reply reader gives; and the vocabularies the document lists
//! are the ones the types define.
//!
//! The fence conventions are specified in PROTOCOL.md ("How to read the
//! examples"): ```` ```jsonl ```` blocks of `→` request and `←` reply lines
//! (`off-schema` when the requests deliberately break the schema), and
//! ```` ```jsonl runner <command> ```` blocks of `←` reply lines each
//! followed by a `⇒` verdict. A message continues on following lines that
//! start with a space.

use std::collections::BTreeSet;
use std::io::Write;
use std::process::{Command, Stdio};

use serde_json::{Value, json};

use seams::conformance::Check;
use seams::conformance::engine::{AskError, read_reply};
use seams::conformance::protocol::COMMANDS;
use seams::conformance::reference::Reference;
use seams::movement::Pattern;
use seams::topology::{Dir, Transport};

const DOC: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/conformance/PROTOCOL.md");
const SCHEMA: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/conformance/schema/protocol.schema.json"
);

/// The id the runner blocks' replies answer.
const RUNNER_ID: u64 = 5;

/// One `→`/`←` pair of a `jsonl` block.
struct Pair {
    /// Where the request starts, for messages.
    line: usize,
    request: String,
    reply: Value,
    /// The request is meant to break the schema.
    off_schema: bool,
}

/// One `←`/`⇒` example of a `jsonl runner <command>` block.
struct Verdict {
    line: usize,
    command: String,
    reply: String,
    verdict: String,
}

/// The messages of one block: (arrow, text, line), continuation lines
/// joined with single spaces.
fn messages(body: &[(usize, &str)]) -> Vec<(char, String, usize)> {
    let mut out: Vec<(char, String, usize)> = Vec::new();
    for &(n, line) in body {
        if line.starts_with(' ') && !line.trim().is_empty() {
            let last = out
                .last_mut()
                .unwrap_or_else(|| panic!("PROTOCOL.md:{n}: a continuation line with no message"));
            last.1.push(' ');
            last.1.push_str(line.trim());
            continue;
        }
        let mut chars = line.chars();
        match chars.next() {
            Some(arrow @ ('→' | '←' | '⇒')) => {
                out.push((arrow, chars.as_str().trim().to_string(), n));
            }
            None => {}
            Some(_) => panic!(
                "PROTOCOL.md:{n}: a line in an example block must start with →, ← or ⇒: {line}"
            ),
        }
    }
    out
}

fn parse_doc(doc: &str) -> (Vec<Pair>, Vec<Verdict>) {
    let lines: Vec<(usize, &str)> = doc.lines().enumerate().map(|(i, l)| (i + 1, l)).collect();
    let mut pairs = Vec::new();
    let mut verdicts = Vec::new();
    let mut i = 0;
    while i < lines.len() {
        let (start, line) = lines[i];
        let Some(info) = line.strip_prefix("```jsonl") else {
            i += 1;
            continue;
        };
        let end = lines[i + 1..]
            .iter()
            .position(|(_, l)| *l == "```")
            .map(|k| i + 1 + k)
            .unwrap_or_else(|| panic!("PROTOCOL.md:{start}: an unclosed block"));
        let body = messages(&lines[i + 1..end]);
        let info: Vec<&str> = info.split_whitespace().collect();
        match info.as_slice() {
            ["runner", command] => {
                assert!(
                    COMMANDS.contains(command),
                    "PROTOCOL.md:{start}: '{command}' is not a command"
                );
                for w in body.chunks(2) {
                    let [(a, reply, n), (b, verdict, _)] = w else {
                        panic!("PROTOCOL.md:{start}: a runner block alternates ← and ⇒");
                    };
                    assert_eq!((*a, *b), ('←', '⇒'), "PROTOCOL.md:{n}");
                    verdicts.push(Verdict {
                        line: *n,
                        command: command.to_string(),
                        reply: reply.clone(),
                        verdict: verdict.clone(),
                    });
                }
            }
            [] | ["off-schema"] => {
                for w in body.chunks(2) {
                    let [(a, request, n), (b, reply, _)] = w else {
                        panic!("PROTOCOL.md:{start}: every → line has one ← reply");
                    };
                    assert_eq!((*a, *b), ('→', '←'), "PROTOCOL.md:{n}");
                    pairs.push(Pair {
                        line: *n,
                        request: request.clone(),
                        reply: serde_json::from_str(reply).unwrap_or_else(|e| {
                            panic!("PROTOCOL.md:{n}: the reply is not JSON ({e}): {reply}")
                        }),
                        off_schema: !info.is_empty(),
                    });
                }
            }
            other => panic!("PROTOCOL.md:{start}: unknown block kind {other:?}"),
        }
        i = end + 1;
    }
    (pairs, verdicts)
}

fn doc() -> String {
    std::fs::read_to_string(DOC).expect("conformance/PROTOCOL.md")
}

/// Sends every request to one `seams engine` (which must keep serving
/// after each bad line) and returns its reply lines.
fn serve(requests: &[&str]) -> Vec<Value> {
    let mut child = Command::new(env!("CARGO_BIN_EXE_seams"))
        .arg("engine")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("seams engine starts");
    let mut stdin = child.stdin.take().expect("stdin");
    let input = requests.join("\n") + "\n";
    let writer = std::thread::spawn(move || stdin.write_all(input.as_bytes()));
    let out = child.wait_with_output().expect("seams engine ends");
    writer.join().expect("writer").expect("requests written");
    assert!(out.status.success());
    String::from_utf8(out.stdout)
        .expect("UTF-8 replies")
        .lines()
        .map(|l| serde_json::from_str(l).expect("each reply is one JSON line"))
        .collect()
}

#[test]
fn every_documented_reply_is_what_the_reference_answers() {
    let (pairs, _) = parse_doc(&doc());
    assert!(pairs.len() >= 60, "only {} examples found", pairs.len());
    let requests: Vec<&str> = pairs.iter().map(|p| p.request.as_str()).collect();
    let replies = serve(&requests);
    assert_eq!(replies.len(), pairs.len(), "one reply per request");
    let mut wrong = Vec::new();
    for (p, actual) in pairs.iter().zip(&replies) {
        if *actual != p.reply {
            wrong.push(format!(
                "PROTOCOL.md:{}: {}\n  documented: {}\n  actual:     {actual}",
                p.line, p.request, p.reply
            ));
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
    eprintln!("{} documented request/reply pairs match", pairs.len());
}

/// What the examples cover: an `ok` reply to every command, every geometry
/// kind, every reply kind, and every illegal-action reason.
#[test]
fn the_examples_cover_every_command_kind_and_reason() {
    let (pairs, verdicts) = parse_doc(&doc());
    let mut ok_commands = BTreeSet::new();
    let mut kinds = BTreeSet::new();
    let mut reply_kinds = BTreeSet::new();
    let mut reasons = BTreeSet::new();
    for p in &pairs {
        let request: Value = serde_json::from_str(&p.request).unwrap_or(Value::Null);
        let reply = &p.reply;
        for kind in ["ok", "unsupported", "error"] {
            if reply.get(kind).is_some() {
                reply_kinds.insert(kind);
            }
        }
        if reply["ok"] == true {
            ok_commands.insert(request["cmd"].as_str().unwrap_or_default().to_string());
            if let Some(k) = request["question"]["kind"].as_str() {
                kinds.insert(k.to_string());
            }
        }
        for field in ["reason", "illegal"] {
            if let Some(r) = reply[field].as_str() {
                reasons.insert(r.to_string());
            }
        }
        // `game-over` is only ever met playing a game: `status` refuses the
        // request, naming it.
        if let Some(message) = reply["error"].as_str()
            && message.contains("game-over:")
        {
            reasons.insert("game-over".into());
        }
    }
    for cmd in COMMANDS {
        assert!(ok_commands.contains(cmd), "no answered example of '{cmd}'");
    }
    for kind in Check::GEOMETRY_KINDS {
        assert!(
            kinds.contains(kind),
            "no example of the geometry kind '{kind}'"
        );
    }
    assert_eq!(reply_kinds.len(), 3, "{reply_kinds:?}");
    for code in enum_values("IllegalReason") {
        assert!(reasons.contains(&code), "no example of the reason '{code}'");
    }
    let verdict_kinds: BTreeSet<&str> = verdicts.iter().map(|v| v.verdict.as_str()).collect();
    for v in [
        "answer",
        "unsupported",
        "engine-error",
        "malformed",
        "wrong-id",
    ] {
        assert!(verdict_kinds.contains(v), "no runner example judged '{v}'");
    }
}

/// The values of a string enum of the protocol schema.
fn enum_values(def: &str) -> Vec<String> {
    let schema: Value = serde_json::from_str(&std::fs::read_to_string(SCHEMA).unwrap()).unwrap();
    let d = &schema["$defs"][def];
    let mut out: Vec<String> = Vec::new();
    if let Some(values) = d["enum"].as_array() {
        out.extend(values.iter().filter_map(|v| v.as_str().map(String::from)));
    }
    for branch in d["oneOf"].as_array().into_iter().flatten() {
        if let Some(v) = branch["const"].as_str() {
            out.push(v.to_string());
        }
        for v in branch["enum"].as_array().into_iter().flatten() {
            out.extend(v.as_str().map(String::from));
        }
    }
    assert!(!out.is_empty(), "no values for {def}");
    out
}

#[test]
fn the_runner_judges_replies_as_documented() {
    let (_, verdicts) = parse_doc(&doc());
    assert!(!verdicts.is_empty());
    for v in &verdicts {
        let got = match read_reply(&v.reply, RUNNER_ID, &v.command) {
            Ok(_) => "answer".to_string(),
            Err(AskError::Unsupported) => "unsupported".to_string(),
            Err(AskError::Failed { kind, .. }) => kind.name().to_string(),
        };
        assert_eq!(got, v.verdict, "PROTOCOL.md:{}: {}", v.line, v.reply);
    }
    eprintln!("{} documented runner verdicts match", verdicts.len());
}

/// Every code and name the types define is listed in the document, in
/// backticks: the vocabularies cannot silently grow past the spec.
#[test]
fn the_vocabularies_are_complete() {
    let doc = doc();
    let listed = |name: &str| doc.contains(&format!("`{name}`"));
    let mut missing = Vec::new();
    for def in [
        "IllegalReason",
        "EndReason",
        "RecordReason",
        "BoardErrorKind",
        "Player",
        "Facing",
    ] {
        missing.extend(
            enum_values(def)
                .into_iter()
                .filter(|v| !listed(v))
                .map(|v| format!("{def} {v}")),
        );
    }
    let names = Transport::ALL
        .iter()
        .map(|t| t.name())
        .chain(Dir::ALL.iter().map(|d| d.name()))
        .chain(Pattern::ALL.iter().map(|p| p.name()))
        .chain(Check::GEOMETRY_KINDS)
        .chain(COMMANDS);
    missing.extend(names.filter(|n| !listed(n)).map(String::from));
    let hello = Reference::builtin().hello();
    missing.extend(hello.capabilities.into_iter().filter(|c| !listed(c)));
    assert!(missing.is_empty(), "not in PROTOCOL.md: {missing:?}");
}

/// Every example in PROTOCOL.md fits its definition in the generated
/// schema, and every malformed one misses it. The validator is the
/// `jsonschema` crate, written independently of the schema's generator.
#[test]
fn the_examples_fit_the_schema() {
    let schema: Value = serde_json::from_str(&std::fs::read_to_string(SCHEMA).unwrap()).unwrap();
    jsonschema::draft202012::meta::validate(&schema).expect("the schema is a 2020-12 schema");
    let whole = jsonschema::draft202012::new(&schema).expect("the schema compiles");
    // A validator for one definition: the schema with its top-level
    // alternatives replaced by a reference to that definition.
    let one = |def: &str| {
        let mut sub = schema.clone();
        let map = sub.as_object_mut().unwrap();
        map.remove("anyOf");
        map.insert("$ref".into(), json!(format!("#/$defs/{def}")));
        jsonschema::draft202012::new(&sub).unwrap_or_else(|e| panic!("{def}: {e}"))
    };
    let (pairs, verdicts) = parse_doc(&doc());
    let mut bad: Vec<String> = Vec::new();
    let mut n = 0;
    let mut check = |instance: &Value, def: String, valid: bool, line: usize| {
        n += 1;
        let error = one(&def).validate(instance).err();
        if error.is_some() == valid {
            let why = error.map_or("valid".to_string(), |e| e.to_string());
            let expected = if valid { "valid" } else { "invalid" };
            bad.push(format!(
                "PROTOCOL.md:{line}: {def} expected {expected}: {why}"
            ));
        }
        // The whole-message schema accepts every valid message too.
        if valid && (def == "Request" || def.starts_with("reply-")) && !whole.is_valid(instance) {
            bad.push(format!("PROTOCOL.md:{line}: not a protocol message"));
        }
    };
    for p in &pairs {
        let request: Option<Value> = serde_json::from_str(&p.request).ok();
        if let Some(r) = &request {
            // An off-schema request must really be off the schema, or it
            // belongs in an ordinary block.
            check(r, "Request".into(), !p.off_schema, p.line);
        }
        let cmd = request
            .as_ref()
            .and_then(|r| r["cmd"].as_str())
            .unwrap_or_default();
        let def = if p.reply.get("ok").is_some() {
            assert!(COMMANDS.contains(&cmd), "PROTOCOL.md:{}", p.line);
            format!("reply-{cmd}")
        } else if p.reply.get("unsupported").is_some() {
            "reply-unsupported".into()
        } else {
            "reply-error".into()
        };
        check(&p.reply, def, true, p.line);
        if let (Some(kind), Some(answer)) = (
            request
                .as_ref()
                .and_then(|r| r["question"]["kind"].as_str()),
            p.reply.get("answer"),
        ) {
            check(answer, format!("answer-{kind}"), true, p.line);
        }
    }
    for v in &verdicts {
        let Ok(reply) = serde_json::from_str::<Value>(&v.reply) else {
            continue;
        };
        match v.verdict.as_str() {
            "answer" => check(&reply, format!("reply-{}", v.command), true, v.line),
            "unsupported" => check(&reply, "reply-unsupported".into(), true, v.line),
            "engine-error" => check(&reply, "reply-error".into(), true, v.line),
            "malformed" => {
                for def in [
                    format!("reply-{}", v.command),
                    "reply-unsupported".into(),
                    "reply-error".into(),
                ] {
                    check(&reply, def, false, v.line);
                }
            }
            // The schema cannot know which id was asked.
            _ => {}
        }
    }
    assert!(bad.is_empty(), "{}", bad.join("\n"));
    eprintln!("{n} schema checks of the examples pass");
}

/// One protocol version everywhere: the constant the runner and the
/// reference speak, `seams engine`'s hello, PROTOCOL.md's title and the
/// version it says it is, the corpus README, the Python kit and its
/// package's version, and every
/// mention of a protocol version in the prose of the README and docs/
/// (code blocks may show other versions on purpose: a runner's old hello,
/// a refused 2.0).
#[test]
fn one_protocol_version_everywhere() {
    use seams::conformance::protocol::PROTOCOL_VERSION;
    let v = serde_json::to_value(PROTOCOL_VERSION).expect("a version is a string");
    let v = v.as_str().expect("a version is a string");
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let read =
        |p: &str| std::fs::read_to_string(root.join(p)).unwrap_or_else(|e| panic!("{p}: {e}"));

    let hello = crate::common::seams_with_input(
        &["engine"],
        &format!("{{\"id\":0,\"cmd\":\"hello\",\"protocol\":\"{v}\"}}\n"),
    );
    let reply: Value = serde_json::from_str(hello.stdout.trim()).expect("a JSON hello reply");
    assert_eq!(reply["protocol"], v, "seams engine's hello");

    let protocol = read("conformance/PROTOCOL.md");
    assert_eq!(
        protocol.lines().next(),
        Some(format!("# The seams engine protocol, version {v}").as_str()),
        "PROTOCOL.md's title"
    );
    assert!(
        protocol.contains(&format!("document is version `{v}`")),
        "PROTOCOL.md's body"
    );
    assert!(
        read("conformance/README.md").contains(&format!("specification, version {v}")),
        "conformance/README.md"
    );
    assert!(
        read("tools/python/seams_engine.py").contains(&format!("PROTOCOL = \"{v}\"")),
        "the Python kit"
    );
    // The kit's distribution takes its version from that constant, so the
    // package says the protocol it speaks (tests/external/python.rs installs
    // it and reads the version pip reports).
    let pyproject: toml::Table =
        toml::from_str(&read("tools/python/pyproject.toml")).expect("pyproject.toml is TOML");
    assert_eq!(
        (
            pyproject["project"].get("version"),
            &pyproject["project"]["dynamic"],
            &pyproject["tool"]["setuptools"]["dynamic"]["version"]["attr"],
        ),
        (
            None,
            &toml::Value::Array(vec!["version".into()]),
            &toml::Value::from("seams_engine.PROTOCOL"),
        ),
        "the Python kit's pyproject.toml: its version is seams_engine.PROTOCOL"
    );

    let mut docs = crate::transcripts::documents();
    docs.push("conformance/PROTOCOL.md".to_string());
    for doc in docs {
        let mut in_code = false;
        for (n, line) in read(&doc).lines().enumerate() {
            if line.trim_start().starts_with("```") {
                in_code = !in_code;
                continue;
            }
            if in_code {
                continue;
            }
            for (i, _) in line.match_indices("protocol ") {
                let rest = line[i + "protocol ".len()..].trim_start_matches("version ");
                let said: String = rest
                    .chars()
                    .take_while(|c| c.is_ascii_digit() || *c == '.')
                    .collect();
                let said = said.trim_end_matches('.');
                if said.contains('.') {
                    assert_eq!(said, v, "{doc}:{}: {line}", n + 1);
                }
            }
        }
    }
}

/// The rows of the one refusal order (PROTOCOL.md, "Illegal-action
/// reasons"): (order, code, pinned by).
fn refusal_rows(doc: &str) -> Vec<(String, String, String)> {
    let start = doc.find("### Illegal-action reasons").expect("the section");
    let section = &doc[start..];
    let section = &section[..section[4..].find("\n### ").map_or(section.len(), |i| i + 4)];
    section
        .lines()
        .filter(|l| l.starts_with("| ") && !l.starts_with("| order"))
        .map(|l| {
            let cells: Vec<&str> = l.trim_matches('|').split(" | ").map(str::trim).collect();
            assert_eq!(cells.len(), 4, "a row of four cells: {l}");
            (
                cells[0].to_string(),
                cells[1].trim_matches('`').to_string(),
                cells[3].to_string(),
            )
        })
        .collect()
}

/// Every row of the refusal order names the corpus case (or, for the one
/// row no shipped board can reach, the test) that pins it, and that case
/// answers with the row's code; every reason code has a row.
#[test]
fn every_refusal_row_is_pinned() {
    let doc = doc();
    let rows = refusal_rows(&doc);
    assert!(rows.len() >= 15, "{rows:?}");
    let corpus = seams::conformance::Corpus::builtin().expect("the corpus loads");
    let tests: String = std::fs::read_dir("tests/it")
        .expect("tests/it")
        .filter_map(|e| std::fs::read_to_string(e.ok()?.path()).ok())
        .collect();
    for (order, code, pinned) in &rows {
        let row = format!("order {order} `{code}`");
        if let Some(name) = pinned
            .strip_prefix("test `")
            .and_then(|t| t.split('`').next())
        {
            let at = tests
                .find(&format!("fn {name}()"))
                .unwrap_or_else(|| panic!("{row}: no test fn {name} in tests/it"));
            let body = &tests[at..at + tests[at..].find("\n}\n").expect("the fn ends")];
            let variant: String = code
                .split('-')
                .map(|w| w[..1].to_uppercase() + &w[1..])
                .collect();
            assert!(
                body.contains(&format!("IllegalReason::{variant}")),
                "{row}: the test {name} does not check {variant}"
            );
            continue;
        }
        let slug = pinned
            .strip_prefix('`')
            .and_then(|p| p.strip_suffix('`'))
            .unwrap_or_else(|| panic!("{row}: 'pinned by' names no case: {pinned}"));
        let (_, case) = corpus
            .cases
            .iter()
            .find(|(_, c)| c.id.split('#').next() == Some(slug))
            .unwrap_or_else(|| panic!("{row}: no corpus case {slug}"));
        let expect = case.check.question();
        let answer =
            serde_json::to_value(&case.check).expect("a case serialises")["expect"].clone();
        let given = match case.check {
            Check::Action { .. } => answer["reason"].clone(),
            Check::Record { .. } => answer["illegal"].clone(),
            _ => panic!("{row}: {slug} is a {} case: {expect}", case.check.kind()),
        };
        assert_eq!(given, json!(code), "{row}: {slug} answers {given}");
    }
    for code in enum_values("IllegalReason") {
        assert!(
            rows.iter().any(|(_, c, _)| *c == code),
            "the reason code {code} has no row"
        );
    }
}
