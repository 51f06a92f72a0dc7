//! JSON Schemas of the corpus format, the engine protocol and the
//! expectations file, generated from the Rust types.
//!
//! The checked-in copies live in `conformance/schema/`. They are never
//! edited by hand: `seams schema --write` (or running the test suite with
//! `SEAMS_WRITE_SCHEMA=1`) regenerates them, and a test fails when they
//! drift from the types.
//!
//! The protocol schema is assembled from the message types rather than
//! derived from one type, so that each message has its own definition an
//! implementer (and `tests/it/protocol_doc.rs`) can validate against:
//! `#/$defs/Request`, `#/$defs/reply-<command>` for each command's `ok`
//! reply, `#/$defs/reply-unsupported`, `#/$defs/reply-error`, and for
//! `geometry` the question and answer of each check kind
//! (`#/$defs/question-<kind>`, `#/$defs/answer-<kind>`).

use std::collections::BTreeSet;
use std::path::Path;

use serde_json::{Map, Value, json};

use super::case::{CaseFile, Check};
use super::expectations::Expectations;
use super::protocol::{
    ActionsReply, ApplyReply, COMMANDS, CheckActionReply, GeometryReply, Hello, KeyReply,
    PerftReply, RecordReply, Request, StatusReply,
};
use crate::topology::tetra::TetraFacts;

/// Where the schemas live, relative to the repository root.
pub const SCHEMA_DIR: &str = "conformance/schema";

const DRAFT: &str = "https://json-schema.org/draft/2020-12/schema";

/// `schema` with its `$id` (under the published folder) and title.
pub fn with_id(mut schema: Value, file: &str, title: &str) -> Value {
    if let Value::Object(map) = &mut schema {
        map.insert(
            "$id".into(),
            Value::String(format!("https://seams.invalid/conformance/schema/{file}")),
        );
        map.insert("title".into(), Value::String(title.into()));
    }
    schema
}

/// (file name, schema) for every schema, in a fixed order.
pub fn all() -> Vec<(&'static str, Value)> {
    let v = |s: schemars::Schema| serde_json::to_value(s).unwrap_or(Value::Null);
    vec![
        (
            "case-file.schema.json",
            with_id(
                v(schemars::schema_for!(CaseFile)),
                "case-file.schema.json",
                "seams conformance case file",
            ),
        ),
        (
            "protocol.schema.json",
            with_id(
                protocol(),
                "protocol.schema.json",
                "seams engine protocol message (one JSON line)",
            ),
        ),
        (
            "expectations.schema.json",
            with_id(
                v(schemars::schema_for!(Expectations)),
                "expectations.schema.json",
                "seams expectations file (known failures of an engine)",
            ),
        ),
        (
            "record.schema.json",
            with_id(
                v(schemars::schema_for!(crate::record::Record)),
                "record.schema.json",
                "seams game record (a saved game, any family)",
            ),
        ),
        (
            "perft-report.schema.json",
            with_id(
                v(schemars::schema_for!(
                    crate::variant::perft_report::PerftReport
                )),
                "perft-report.schema.json",
                "seams perft report (--json: a whole count, a shard, or shards merged)",
            ),
        ),
    ]
}

fn reference(name: &str) -> Value {
    json!({ "$ref": format!("#/$defs/{name}") })
}

/// A reply line: `id`, the fields of `body` (a definition, or none), and
/// any `x-…` extension; nothing else.
fn reply_line(description: &str, body: Option<&str>, fields: Value, required: &[&str]) -> Value {
    let mut line = json!({
        "description": description,
        "type": "object",
        "properties": fields,
        "required": required,
        "patternProperties": { "^x-": true },
        "unevaluatedProperties": false,
    });
    if let (Some(body), Value::Object(map)) = (body, &mut line) {
        map.insert("$ref".into(), Value::String(format!("#/$defs/{body}")));
    }
    line
}

/// The schema of every protocol message: requests, replies, and the
/// geometry questions and answers, each under its own name in `$defs`.
pub fn protocol() -> Value {
    let mut generator = schemars::SchemaGenerator::default();
    // Each call registers the type (and what it uses) under its name.
    let bodies: Vec<(&str, String)> = vec![
        ("hello", name_of(generator.subschema_for::<Hello>())),
        (
            "legal_actions",
            name_of(generator.subschema_for::<ActionsReply>()),
        ),
        (
            "check_action",
            name_of(generator.subschema_for::<CheckActionReply>()),
        ),
        ("perft", name_of(generator.subschema_for::<PerftReply>())),
        ("apply", name_of(generator.subschema_for::<ApplyReply>())),
        ("status", name_of(generator.subschema_for::<StatusReply>())),
        ("key", name_of(generator.subschema_for::<KeyReply>())),
        (
            "verify_record",
            name_of(generator.subschema_for::<RecordReply>()),
        ),
        (
            "geometry",
            name_of(generator.subschema_for::<GeometryReply>()),
        ),
    ];
    let request = name_of(generator.subschema_for::<Request>());
    let check = name_of(generator.subschema_for::<Check>());
    let facts = name_of(generator.subschema_for::<TetraFacts>());
    let mut defs = generator.take_definitions(true);

    geometry_defs(&mut defs, &check, &facts);
    // A request as a 1.0 runner writes it: no field beyond those listed.
    if let Some(Value::Object(r)) = defs.get_mut(&request) {
        r.insert("unevaluatedProperties".into(), false.into());
        for branch in r
            .get_mut("oneOf")
            .and_then(Value::as_array_mut)
            .into_iter()
            .flatten()
        {
            if branch.pointer("/properties/cmd/const") == Some(&json!("geometry")) {
                branch["properties"]["question"] = reference("GeometryQuestion");
            }
        }
    }
    if let Some(reply) = defs.get_mut("GeometryReply") {
        reply["properties"]["answer"] = reference("GeometryAnswer");
    }

    let id = json!({ "type": "integer", "minimum": 0 });
    let mut all = vec![reference(&request)];
    for (command, body) in &bodies {
        debug_assert!(COMMANDS.contains(command));
        let name = format!("reply-{command}");
        defs.insert(
            name.clone(),
            reply_line(
                &format!("An `ok` reply to `{command}`."),
                Some(body),
                json!({ "id": id, "ok": { "const": true } }),
                &["id", "ok"],
            ),
        );
        all.push(reference(&name));
    }
    defs.insert(
        "reply-unsupported".into(),
        reply_line(
            "The engine does not answer this question (not a failure).",
            None,
            json!({ "id": id, "unsupported": { "const": true } }),
            &["id", "unsupported"],
        ),
    );
    defs.insert(
        "reply-error".into(),
        reply_line(
            "The question could not be answered; `id` is null when the request line \
             could not be read far enough to find it.",
            None,
            json!({
                "id": { "type": ["integer", "null"], "minimum": 0 },
                "error": { "type": "string" },
            }),
            &["id", "error"],
        ),
    );
    all.push(reference("reply-unsupported"));
    all.push(reference("reply-error"));

    let mut root = json!({
        "$schema": DRAFT,
        "description": "One line of the engine protocol (conformance/PROTOCOL.md): a request, \
                        or a reply of one of the kinds below.",
        "anyOf": all,
    });
    let keep = reachable(&root, &defs);
    defs.retain(|name, _| keep.contains(name));
    root["$defs"] = Value::Object(defs);
    root
}

/// The definition name a `$ref` subschema points at.
fn name_of(schema: schemars::Schema) -> String {
    schema
        .as_value()
        .get("$ref")
        .and_then(Value::as_str)
        .and_then(|r| r.strip_prefix("#/$defs/"))
        .unwrap_or_default()
        .to_string()
}

/// `question-<kind>` and `answer-<kind>` for every geometry check kind,
/// cut from the corpus check's schema: a question is the check without
/// `expect`, an answer has the shape of its `expect`.
fn geometry_defs(defs: &mut Map<String, Value>, check: &str, facts: &str) {
    let branches: Vec<Value> = defs
        .get(check)
        .and_then(|c| c.get("oneOf"))
        .and_then(Value::as_array)
        .cloned()
        .unwrap_or_default();
    let mut questions = Vec::new();
    let mut answers = Vec::new();
    for kind in Check::GEOMETRY_KINDS {
        let Some(branch) = branches
            .iter()
            .find(|b| b.pointer("/properties/kind/const") == Some(&json!(kind)))
        else {
            continue;
        };
        let mut question = branch.clone();
        let expect = question["properties"]
            .as_object_mut()
            .and_then(|p| p.remove("expect"))
            .unwrap_or(Value::Bool(true));
        if let Some(required) = question["required"].as_array_mut() {
            required.retain(|r| r != "expect");
        }
        let answer = if kind == "solid-facts" {
            // The case lists some facts; an answer gives every fact it
            // knows, and only the ones the case lists are compared.
            let mut all = defs.get(facts).cloned().unwrap_or(Value::Bool(true));
            if let Value::Object(map) = &mut all {
                map.remove("required");
                map.insert("additionalProperties".into(), false.into());
            }
            all
        } else {
            expect
        };
        defs.insert(format!("question-{kind}"), question);
        defs.insert(format!("answer-{kind}"), answer);
        questions.push(reference(&format!("question-{kind}")));
        answers.push(reference(&format!("answer-{kind}")));
    }
    defs.insert(
        "GeometryQuestion".into(),
        json!({
            "description": "A corpus check of a geometry kind without its `expect`.",
            "oneOf": questions,
        }),
    );
    defs.insert(
        "GeometryAnswer".into(),
        json!({
            "description": "Shaped like the `expect` of the question's kind \
                            (`#/$defs/answer-<kind>`).",
            "anyOf": answers,
        }),
    );
}

/// The definitions `root` uses, directly or through other definitions.
fn reachable(root: &Value, defs: &Map<String, Value>) -> BTreeSet<String> {
    fn refs(v: &Value, out: &mut Vec<String>) {
        match v {
            Value::Object(map) => {
                for (k, x) in map {
                    match (k.as_str(), x) {
                        ("$ref", Value::String(r)) => {
                            if let Some(name) = r.strip_prefix("#/$defs/") {
                                out.push(name.to_string());
                            }
                        }
                        ("$defs", _) => {}
                        _ => refs(x, out),
                    }
                }
            }
            Value::Array(items) => items.iter().for_each(|x| refs(x, out)),
            _ => {}
        }
    }
    let mut seen = BTreeSet::new();
    let mut todo = Vec::new();
    refs(root, &mut todo);
    while let Some(name) = todo.pop() {
        if seen.insert(name.clone())
            && let Some(def) = defs.get(&name)
        {
            refs(def, &mut todo);
        }
    }
    seen
}

/// A schema file's text as written: pretty JSON and a final newline.
pub fn text(schema: &Value) -> String {
    let mut s = serde_json::to_string_pretty(schema).unwrap_or_default();
    s.push('\n');
    s
}

/// The schema files under `dir` that are missing or differ from the types.
pub fn drift(dir: &Path, schemas: &[(&str, Value)]) -> Vec<String> {
    schemas
        .iter()
        .filter(|(name, schema)| {
            std::fs::read_to_string(dir.join(name)).ok().as_deref() != Some(text(schema).as_str())
        })
        .map(|(name, _)| name.to_string())
        .collect()
}

/// Writes `schemas` under `dir` (each atomically); returns the names.
pub fn write(dir: &Path, schemas: &[(&str, Value)]) -> std::io::Result<Vec<String>> {
    std::fs::create_dir_all(dir)?;
    let mut out = Vec::new();
    for (name, schema) in schemas {
        crate::files::write_atomically(&dir.join(name), &text(schema))?;
        out.push(name.to_string());
    }
    Ok(out)
}
