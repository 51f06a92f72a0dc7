//! The conformance corpus: case format, loading, and checking cases against
//! the reference implementation.
//!
//! A corpus file (`conformance/cases/**/*.json`) holds a list of [`Case`]s.
//! Every case names what it pins (clauses, worked example), where its expected
//! answer comes from ([`Provenance`]), and a typed [`Check`]: a question plus
//! the expected answer. [`reference::run`] answers the question with this
//! crate and compares. The format is specified in `conformance/README.md`.

pub mod case;
pub mod coverage;
pub mod reference;

pub use case::{Case, CaseFile, Check, Provenance};
pub use reference::{Outcome, run};

use std::path::Path;

use include_dir::{Dir as EmbeddedDir, include_dir};

static CORPUS: EmbeddedDir<'static> = include_dir!("$CARGO_MANIFEST_DIR/conformance/cases");

/// A loaded corpus: every case with the file it came from.
#[derive(Debug, Default)]
pub struct Corpus {
    pub cases: Vec<(String, Case)>,
}

impl Corpus {
    /// The corpus compiled into this build.
    pub fn builtin() -> Result<Corpus, CorpusError> {
        let mut files = Vec::new();
        collect_embedded(&CORPUS, &mut files);
        Corpus::from_files(files)
    }

    /// A corpus folder on disk (every `*.json` below it).
    pub fn from_dir(dir: &Path) -> Result<Corpus, CorpusError> {
        let mut files = Vec::new();
        for entry in walkdir::WalkDir::new(dir).sort_by_file_name() {
            let entry = entry.map_err(|e| CorpusError::Parse {
                file: dir.display().to_string(),
                message: e.to_string(),
            })?;
            let p = entry.path();
            if entry.file_type().is_file() && p.extension().is_some_and(|e| e == "json") {
                let text = std::fs::read_to_string(p).map_err(|e| CorpusError::Parse {
                    file: p.display().to_string(),
                    message: e.to_string(),
                })?;
                files.push((p.display().to_string(), text));
            }
        }
        Corpus::from_files(files)
    }

    /// Parses (label, text) pairs and rejects duplicate ids.
    pub fn from_files(mut files: Vec<(String, String)>) -> Result<Corpus, CorpusError> {
        files.sort();
        let mut corpus = Corpus::default();
        let mut seen: std::collections::HashMap<String, String> = Default::default();
        for (file, text) in files {
            for case in parse_file(&file, &text)?.cases {
                if let Some(other) = seen.insert(case.id.clone(), file.clone()) {
                    return Err(CorpusError::Invalid {
                        file,
                        id: case.id,
                        message: format!("the id is used twice (also in {other})"),
                    });
                }
                corpus.cases.push((file.clone(), case));
            }
        }
        Ok(corpus)
    }
}

fn collect_embedded(dir: &EmbeddedDir<'static>, out: &mut Vec<(String, String)>) {
    for f in dir.files() {
        if f.path().extension().is_some_and(|e| e == "json") {
            out.push((
                format!("conformance/cases/{}", f.path().display()),
                f.contents_utf8().unwrap_or_default().to_string(),
            ));
        }
    }
    for d in dir.dirs() {
        collect_embedded(d, out);
    }
}

/// A corpus file that could not be read as cases.
#[derive(Debug, thiserror::Error)]
pub enum CorpusError {
    #[error("{file}: {message}")]
    Parse { file: String, message: String },
    #[error("{file}: case '{id}': {message}")]
    Invalid {
        file: String,
        id: String,
        message: String,
    },
}

/// Parses one corpus file and checks the case-level rules that JSON alone
/// cannot express (id shape, provenance details).
pub fn parse_file(file: &str, text: &str) -> Result<CaseFile, CorpusError> {
    let parsed: CaseFile = serde_json::from_str(text).map_err(|e| CorpusError::Parse {
        file: file.to_string(),
        message: format!("line {} column {}: {e}", e.line(), e.column()),
    })?;
    for c in &parsed.cases {
        c.validate().map_err(|message| CorpusError::Invalid {
            file: file.to_string(),
            id: c.id.clone(),
            message,
        })?;
    }
    Ok(parsed)
}
