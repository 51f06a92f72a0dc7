//! `seams schema`: the JSON Schemas generated from the types.

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{Context, Result};
use seams::conformance::schema;

#[derive(clap::Args)]
pub struct SchemaArgs {
    /// Write the files into --dir.
    #[arg(long, conflicts_with = "check")]
    write: bool,
    /// Compare the files in --dir with the types; exit 1 on drift.
    #[arg(long)]
    check: bool,
    /// The schema folder.
    #[arg(long, value_name = "DIR", default_value = "conformance/schema")]
    dir: PathBuf,
}

/// `seams schema`.
pub fn run(a: SchemaArgs) -> Result<ExitCode> {
    let dir = &a.dir;
    if a.write {
        let names = schema::write(dir, &seams::draft::schemas())
            .with_context(|| format!("writing the schemas into {}", dir.display()))?;
        for n in names {
            outln!("wrote {}", dir.join(n).display());
        }
        return Ok(ExitCode::SUCCESS);
    }
    if a.check {
        let drift = schema::drift(dir, &seams::draft::schemas());
        if drift.is_empty() {
            outln!("the schemas in {} match the types", dir.display());
            return Ok(ExitCode::SUCCESS);
        }
        outln!(
            "out of date in {}: {} (run `seams schema --write`)",
            dir.display(),
            drift.join(", ")
        );
        return Ok(ExitCode::from(1));
    }
    let all: serde_json::Map<String, serde_json::Value> = seams::draft::schemas()
        .into_iter()
        .map(|(n, v)| (n.to_string(), v))
        .collect();
    outln!("{}", serde_json::to_string_pretty(&all)?);
    Ok(ExitCode::SUCCESS)
}
