//! JSON Schemas of the corpus format, the engine protocol and the
//! expectations file, generated from the Rust types.
//!
//! The checked-in copies live in `conformance/schema/`. They are never
//! edited by hand: `seams schema --write` (or running the test suite with
//! `SEAMS_WRITE_SCHEMA=1`) regenerates them, and a test fails when they
//! drift from the types.

use std::path::Path;

use serde_json::Value;

use super::case::CaseFile;
use super::expectations::Expectations;
use super::protocol::Message;

/// Where the schemas live, relative to the repository root.
pub const SCHEMA_DIR: &str = "conformance/schema";

fn with_id(mut schema: Value, file: &str, title: &str) -> Value {
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
                v(schemars::schema_for!(Message)),
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
    ]
}

/// A schema file's text as written: pretty JSON and a final newline.
pub fn text(schema: &Value) -> String {
    let mut s = serde_json::to_string_pretty(schema).unwrap_or_default();
    s.push('\n');
    s
}

/// The schema files under `dir` that are missing or differ from the types.
pub fn drift(dir: &Path) -> Vec<String> {
    all()
        .into_iter()
        .filter(|(name, schema)| {
            std::fs::read_to_string(dir.join(name)).ok().as_deref() != Some(text(schema).as_str())
        })
        .map(|(name, _)| name.to_string())
        .collect()
}

/// Writes every schema under `dir` (each atomically); returns the names.
pub fn write(dir: &Path) -> std::io::Result<Vec<String>> {
    std::fs::create_dir_all(dir)?;
    let mut out = Vec::new();
    for (name, schema) in all() {
        super::write_atomically(&dir.join(name), &text(&schema))?;
        out.push(name.to_string());
    }
    Ok(out)
}
