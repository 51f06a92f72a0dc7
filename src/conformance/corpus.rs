//! Loading the corpus: the case files built into this crate or a folder of
//! them, each checked for what JSON alone cannot say (id shape, provenance,
//! stale hashes, duplicate slugs), and `rehash_dir` for a corpus edited by
//! hand.

use std::path::Path;

use super::case::{self, Case, CaseFile};
use super::id;
use crate::files::write_atomically;

use include_dir::{Dir as EmbeddedDir, include_dir};

static CORPUS: EmbeddedDir<'static> = include_dir!("$CARGO_MANIFEST_DIR/conformance/cases");

/// A loaded corpus: every case with the file it came from.
#[derive(Debug, Default)]
pub struct Corpus {
    pub cases: Vec<(String, Case)>,
}

impl Corpus {
    /// The corpus compiled into this build: only reviewed cases (see
    /// [`Corpus::refuse_unreviewed`]).
    pub fn builtin() -> Result<Corpus, CorpusError> {
        let mut files = Vec::new();
        collect_embedded(&CORPUS, &mut files);
        let corpus = Corpus::from_files(files)?;
        corpus.refuse_unreviewed()?;
        Ok(corpus)
    }

    /// Fails on a case whose provenance is still marked
    /// [`case::UNREVIEWED`]: `seams fuzz` and `seams bisect` write the
    /// reference's answer as a ready-made case, which a person must check
    /// before it joins the shipped corpus. A corpus folder given with
    /// `--corpus` may hold such cases, so that a found case can be run at
    /// once.
    pub fn refuse_unreviewed(&self) -> Result<(), CorpusError> {
        match self
            .cases
            .iter()
            .find(|(_, c)| c.provenance.is_unreviewed())
        {
            None => Ok(()),
            Some((file, case)) => Err(CorpusError::Invalid {
                file: file.clone(),
                id: case.id.clone(),
                message: format!(
                    "the provenance is marked {}: review the case, cite its clauses and \
                     say who reviewed it before it joins the corpus",
                    case::UNREVIEWED
                ),
            }),
        }
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
                let text =
                    crate::files::read_text(p, crate::files::MAX_CASE_FILE_BYTES).map_err(|e| {
                        CorpusError::Parse {
                            file: p.display().to_string(),
                            message: e.reason(),
                        }
                    })?;
                files.push((p.display().to_string(), text));
            }
        }
        Corpus::from_files(files)
    }

    /// Parses (label, text) pairs and rejects duplicate ids, duplicate
    /// slugs and ids whose hash does not match the case.
    pub fn from_files(mut files: Vec<(String, String)>) -> Result<Corpus, CorpusError> {
        files.sort();
        let mut corpus = Corpus::default();
        let mut seen: std::collections::HashMap<String, String> = Default::default();
        for (file, text) in files {
            for case in parse_file(&file, &text)?.cases {
                let want = id::expected_id(&case);
                if case.id != want {
                    return Err(CorpusError::Invalid {
                        file,
                        id: case.id,
                        message: format!(
                            "the id's hash does not match the case (it should be '{want}'); \
                             after editing cases run `seams corpus rehash`"
                        ),
                    });
                }
                if let Some(other) = seen.insert(case.slug().to_string(), file.clone()) {
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

    /// A digest of the corpus: 64-bit FNV-1a (16 hex digits) over its
    /// case ids, sorted, one per line. An id ends in a hash of its case,
    /// so two corpora with the same digest ask the same questions with
    /// the same answers; reports carry it so that `seams merge` can refuse
    /// parts run on different corpora.
    pub fn digest(&self) -> String {
        let mut ids: Vec<&str> = self.cases.iter().map(|(_, c)| c.id.as_str()).collect();
        ids.sort_unstable();
        format!("{:016x}", id::fnv1a64(ids.join("\n").as_bytes()))
    }

    /// Looks a case up by its full id.
    pub fn get(&self, id: &str) -> Option<&Case> {
        self.cases.iter().map(|(_, c)| c).find(|c| c.id == id)
    }
}

/// What `rehash` changed: (file, old id, new id) for every rewritten id.
pub type Rehashed = Vec<(String, String, String)>;

/// Rewrites every case id under `dir` to `slug#hash` (adding the check
/// kind's capability when it is missing). Every file is parsed and
/// validated before any is written; each file is replaced atomically.
pub fn rehash_dir(dir: &Path) -> Result<Rehashed, CorpusError> {
    let io_err = |p: &Path, e: &dyn std::fmt::Display| CorpusError::Parse {
        file: p.display().to_string(),
        message: e.to_string(),
    };
    if !dir.is_dir() {
        return Err(io_err(dir, &"not a folder of corpus files"));
    }
    let mut plans = Vec::new();
    let mut changes = Vec::new();
    let mut slugs: std::collections::HashMap<String, String> = Default::default();
    for entry in walkdir::WalkDir::new(dir).sort_by_file_name() {
        let entry = entry.map_err(|e| io_err(dir, &e))?;
        let p = entry.path().to_path_buf();
        if !(entry.file_type().is_file() && p.extension().is_some_and(|e| e == "json")) {
            continue;
        }
        let label = p.display().to_string();
        let text = crate::files::read_text(&p, crate::files::MAX_CASE_FILE_BYTES)
            .map_err(|e| io_err(&p, &e.reason()))?;
        let mut parsed: CaseFile = serde_json::from_str(&text).map_err(|e| CorpusError::Parse {
            file: label.clone(),
            message: format!("line {} column {}: {e}", e.line(), e.column()),
        })?;
        for case in &mut parsed.cases {
            let needed = case.check.capability().to_string();
            if !case.capabilities.contains(&needed) {
                case.capabilities.insert(0, needed);
            }
            let old = case.id.clone();
            case.id = case.slug().to_string();
            case.validate().map_err(|message| CorpusError::Invalid {
                file: label.clone(),
                id: old.clone(),
                message,
            })?;
            case.id = id::expected_id(case);
            if let Some(other) = slugs.insert(case.slug().to_string(), label.clone()) {
                return Err(CorpusError::Invalid {
                    file: label.clone(),
                    id: old,
                    message: format!("the slug is used twice (also in {other})"),
                });
            }
            if old != case.id {
                changes.push((label.clone(), old, case.id.clone()));
            }
        }
        let mut out = serde_json::to_string_pretty(&parsed).map_err(|e| io_err(&p, &e))?;
        out.push('\n');
        if out != text {
            plans.push((p, out));
        }
    }
    for (p, out) in plans {
        write_atomically(&p, &out).map_err(|e| io_err(&p, &e))?;
    }
    Ok(changes)
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
    #[error("{file}: {}", crate::quote::bounded(.message))]
    Parse { file: String, message: String },
    #[error("{file}: case '{}': {}", crate::quote::excerpt(.id), crate::quote::bounded(.message))]
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
