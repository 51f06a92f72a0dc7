//! Accepting a checked draft as a new rules version: the changed
//! families' data files get the version, changed cases are narrowed,
//! copied or rewritten, and `rules.md` gets a changelog entry, all
//! validated before the first file is written. Apart because it is the
//! one step that writes the corpus.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use serde::Serialize;

use crate::conformance::version::{Range, Version};
use crate::conformance::{Case, Corpus, Provenance};
use crate::spec::Library;

use super::{Change, CheckReport, Draft, DraftError, run_corpus};

/// What `--accept` wrote.
#[derive(Clone, Debug, Default, Serialize, PartialEq, Eq, schemars::JsonSchema)]
pub struct Accepted {
    pub version: String,
    /// Family data files given the new `rules-version`.
    pub data_files: Vec<String>,
    /// Cases narrowed to the old version, by their old id.
    pub narrowed: Vec<String>,
    /// Cases whose expectation was rewritten in place (board geometry,
    /// which carries no rules version), by their old id.
    pub rewritten: Vec<String>,
    /// Board-geometry cases removed because the edited board no longer has
    /// the cells they ask about, by their old id.
    pub removed: Vec<String>,
    /// New cases carrying the draft's answers, marked for review.
    pub added: Vec<String>,
    /// `rules.md` files given a changelog entry.
    pub changelogs: Vec<String>,
}

/// Turns a checked draft into rules version `version`: every family with a
/// changed case gets `rules-version = "version"` in each of its data files
/// (written into the draft folder, which therefore must hold the family's
/// folder), each changed rules case is narrowed to `<version` and copied
/// with the draft's answer as a new case (provenance `reference`, marked
/// for review), changed board-geometry cases get the draft's answer in
/// place, ids are rehashed and each family's `rules.md` gets a changelog
/// entry naming the clauses. Everything is computed and validated before
/// the first file is written; each file is replaced atomically.
pub fn accept(
    draft: &Draft,
    report: &CheckReport,
    corpus_dir: &Path,
    version: &str,
) -> Result<Accepted, DraftError> {
    let new_version = Version::parse(version).map_err(|message| DraftError::BadVersion {
        version: version.to_string(),
        message,
    })?;
    if version.split('.').count() < 2 {
        return Err(DraftError::BadVersion {
            version: version.to_string(),
            message: "give a version like 0.3".into(),
        });
    }
    // The families with a changed case get the new version; the corpus is
    // then run against the draft as it will be written, so cases that
    // depend on the version itself (records, keys) are caught too.
    let mut bumped_families: BTreeSet<&'static str> = BTreeSet::new();
    for c in &report.corpus.changes {
        if let Some(v) = c.subject.strip_prefix("variant:")
            && let Some(f) = draft.family_of(v)
        {
            bumped_families.insert(f);
        }
    }
    let mut writes: Vec<(PathBuf, String)> = Vec::new();
    let mut out = Accepted {
        version: version.to_string(),
        ..Accepted::default()
    };
    let mut files_by_family = BTreeMap::new();
    for (family, ff) in &draft.families {
        if !bumped_families.contains(family) {
            files_by_family.insert(*family, (ff.from_draft, ff.files.clone()));
            continue;
        }
        if !ff.from_draft {
            return Err(DraftError::Io {
                path: draft.dir.join(family).display().to_string(),
                message: "cases of this family change, but the draft has no folder for it; \
                          copy spec/ whole before accepting"
                    .into(),
            });
        }
        let mut bumped = Vec::new();
        for (file, text) in &ff.files {
            let (current, rewritten) = set_rules_version(file, text, version)?;
            if !version_newer(&new_version, &current) {
                return Err(DraftError::VersionNotNewer {
                    file: file.clone(),
                    current,
                    new: version.to_string(),
                });
            }
            writes.push((PathBuf::from(file), rewritten.clone()));
            out.data_files.push(file.clone());
            bumped.push((file.clone(), rewritten));
        }
        files_by_family.insert(*family, (true, bumped));
    }
    let released = Draft::build(&draft.dir, Library::from_dir(&draft.dir)?, files_by_family)?;
    let run = run_corpus(
        &released.lib,
        &released.variant_refs(),
        &Corpus::from_dir(corpus_dir)?,
    );
    let changes: BTreeMap<&str, &Change> = run.changes.iter().map(|c| (c.id.as_str(), c)).collect();
    let mut clauses_by_family: BTreeMap<&'static str, BTreeSet<String>> = BTreeMap::new();
    for c in &run.changes {
        if let Some(f) = c
            .subject
            .strip_prefix("variant:")
            .and_then(|v| draft.family_of(v))
        {
            clauses_by_family
                .entry(f)
                .or_default()
                .extend(c.clauses.clone());
        }
    }
    for family in &bumped_families {
        let md = draft.dir.join(family).join("rules.md");
        let old_md = crate::files::read_text(&md, crate::files::MAX_RULES_BYTES).map_err(|e| {
            DraftError::Io {
                path: md.display().to_string(),
                message: e.reason(),
            }
        })?;
        let clauses: Vec<String> = clauses_by_family
            .get(family)
            .map(|c| c.iter().cloned().collect())
            .unwrap_or_default();
        let entry = format!(
            "\n## Changelog: rules {version}\n\nAccepted from a draft with \
             `seams spec check --accept`. Changed clauses: {}. Cases of earlier versions \
             are kept with `rules` narrowed to `<{version}`; new cases carry this \
             version's answers, marked for review.\n",
            clauses.join(", ")
        );
        let mut text = old_md;
        if !text.ends_with('\n') {
            text.push('\n');
        }
        text.push_str(&entry);
        writes.push((md.clone(), text));
        out.changelogs.push(md.display().to_string());
    }

    // Plan corpus files.
    let mut files: Vec<PathBuf> = walkdir::WalkDir::new(corpus_dir)
        .sort_by_file_name()
        .into_iter()
        .filter_map(|e| e.ok())
        .filter(|e| e.file_type().is_file() && e.path().extension().is_some_and(|x| x == "json"))
        .map(|e| e.path().to_path_buf())
        .collect();
    files.sort();
    let mut corpus_writes = Vec::new();
    let mut untouched = Vec::new();
    for path in files {
        let label = path.display().to_string();
        let text =
            crate::files::read_text(&path, crate::files::MAX_CASE_FILE_BYTES).map_err(|e| {
                DraftError::Io {
                    path: label.clone(),
                    message: e.reason(),
                }
            })?;
        let mut parsed = crate::conformance::parse_file(&label, &text)?;
        let mut touched = false;
        let mut new_cases = Vec::new();
        let mut removed_here = BTreeSet::new();
        for case in &mut parsed.cases {
            let Some(change) = changes.get(case.id.as_str()) else {
                continue;
            };
            touched = true;
            let answered = with_answer(case, change);
            if change.subject.starts_with("variant:") {
                out.narrowed.push(case.id.clone());
                let old_range = case.rules.clone();
                case.rules = Some(match &old_range {
                    Some(r) => format!("{r},<{version}"),
                    None => format!("<{version}"),
                });
                // A question the new version cannot ask (its position no
                // longer fits the board) only keeps its old answer.
                let Ok(mut new_case) = answered else {
                    continue;
                };
                new_case.id = format!("{}/rules-{}", case.slug(), version.replace('.', "-"));
                new_case.rules = Some(format!(">={version}"));
                new_case.provenance = Provenance::Reference {
                    reviewed: format!(
                        "NEEDS REVIEW: the draft's answer, written by `seams spec check --accept` \
                         for rules {version}"
                    ),
                };
                out.added.push(new_case.id.clone());
                new_cases.push(new_case);
            } else if change.outcome == "fail" {
                out.rewritten.push(case.id.clone());
                case.check = answered?.check;
                case.provenance = Provenance::Reference {
                    reviewed: format!(
                        "NEEDS REVIEW: the edited board's derived answer, rewritten by \
                         `seams spec check --accept` for rules {version}"
                    ),
                };
            } else {
                // Board files carry no rules version: a question about
                // cells the edited board no longer has is retired.
                out.removed.push(case.id.clone());
                removed_here.insert(case.id.clone());
            }
        }
        parsed.cases.retain(|c| !removed_here.contains(&c.id));
        parsed.cases.extend(new_cases);
        for case in &mut parsed.cases {
            case.id = format!("{}#00000000", case.slug());
            case.id = crate::conformance::id::expected_id(case);
        }
        if touched {
            let mut body = serde_json::to_string_pretty(&parsed).map_err(|e| DraftError::Io {
                path: label.clone(),
                message: e.to_string(),
            })?;
            body.push('\n');
            corpus_writes.push((path, body));
        } else {
            untouched.push((label, text));
        }
    }
    let done: usize = out.narrowed.len() + out.rewritten.len() + out.removed.len();
    if done != run.changes.len() {
        let missing = run
            .changes
            .iter()
            .find(|c| {
                !out.narrowed.contains(&c.id)
                    && !out.rewritten.contains(&c.id)
                    && !out.removed.contains(&c.id)
            })
            .map(|c| c.id.clone())
            .unwrap_or_default();
        return Err(DraftError::Io {
            path: corpus_dir.display().to_string(),
            message: format!("the changed case '{missing}' is not in this corpus folder"),
        });
    }

    // The rewritten corpus must load (ids, slugs, case rules) before
    // anything is written.
    let mut all = untouched;
    all.extend(
        corpus_writes
            .iter()
            .map(|(p, t)| (p.display().to_string(), t.clone())),
    );
    Corpus::from_files(all)?;

    // Write: data, changelogs, corpus (each atomically), then rehash ids.
    for (p, text) in writes.iter().chain(corpus_writes.iter()) {
        crate::files::write_atomically(p, text).map_err(|e| DraftError::Io {
            path: p.display().to_string(),
            message: e.to_string(),
        })?;
    }
    crate::conformance::rehash_dir(corpus_dir)?;
    Ok(out)
}

/// Whether `new` is above the version written as `current`.
fn version_newer(new: &Version, current: &str) -> bool {
    Range::parse(&format!(">{current}")).is_ok_and(|r| r.admits(new))
}

/// Replaces the top-level `rules-version = "…"` line of a family data file,
/// returning the old version and the new text.
fn set_rules_version(
    file: &str,
    text: &str,
    version: &str,
) -> Result<(String, String), DraftError> {
    let mut current = None;
    let mut lines = Vec::new();
    for line in text.lines() {
        let t = line.trim_start();
        if current.is_none() && t.starts_with("rules-version") && t.contains('=') {
            let value = t.split_once('=').map(|x| x.1).unwrap_or_default().trim();
            current = Some(value.trim_matches('"').to_string());
            lines.push(format!("rules-version = \"{version}\""));
        } else {
            lines.push(line.to_string());
        }
    }
    let current = current.ok_or_else(|| DraftError::Io {
        path: file.to_string(),
        message: "rules-version: no `rules-version = \"…\"` line to update".into(),
    })?;
    let mut out = lines.join("\n");
    if text.ends_with('\n') {
        out.push('\n');
    }
    Ok((current, out))
}

/// The case with its expectation replaced by the draft's answer.
fn with_answer(case: &Case, change: &Change) -> Result<Case, DraftError> {
    let unwritable = |message: String| DraftError::Unwritable {
        id: case.id.clone(),
        message,
    };
    if change.outcome != "fail" {
        return Err(unwritable(change.new.clone()));
    }
    let new: serde_json::Value = serde_json::from_str(&change.new)
        .map_err(|e| unwritable(format!("the answer is not JSON: {e}")))?;
    let mut check = serde_json::to_value(&case.check).map_err(|e| unwritable(e.to_string()))?;
    let obj = check
        .as_object_mut()
        .ok_or_else(|| unwritable("the check is not an object".into()))?;
    obj.insert("expect".into(), new);
    obj.remove("divide");
    let check = serde_json::from_value(check).map_err(|e| {
        unwritable(format!(
            "the answer does not have the expectation's shape: {e}"
        ))
    })?;
    let mut out = case.clone();
    out.check = check;
    Ok(out)
}
