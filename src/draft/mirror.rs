//! A draft mirrored into another spec folder (`--into`): the draft's
//! folders copied file by file, atomically, with data files it dropped
//! removed. Apart from accepting, which writes only into the draft and
//! the corpus.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use serde::Serialize;

use super::{Draft, DraftError, FAMILIES};

/// What [`write_into`] changed in the target spec folder.
#[derive(Clone, Debug, Default, Serialize, PartialEq, Eq, schemars::JsonSchema)]
pub struct Released {
    pub into: String,
    /// Files written (new or changed).
    pub written: Vec<String>,
    /// Data files removed because the draft no longer has them.
    pub removed: Vec<String>,
}

/// The folders of a spec that [`write_into`] mirrors: the boards, the
/// geometry rules and every family folder.
fn mirrored_folders() -> impl Iterator<Item = &'static str> {
    ["boards", "geometry"].into_iter().chain(FAMILIES)
}

/// Whether `into` can receive the draft in `draft_dir` ([`write_into`]):
/// a spec folder (with `boards/`) other than the draft itself. Checked
/// before `--accept` writes anything.
pub fn check_into(draft_dir: &Path, into: &Path) -> Result<(), DraftError> {
    let io = |message: &str| DraftError::Io {
        path: into.display().to_string(),
        message: message.into(),
    };
    if !into.join("boards").is_dir() {
        return Err(io("--into: not a spec folder (it has no boards/ folder)"));
    }
    let same = match (draft_dir.canonicalize(), into.canonicalize()) {
        (Ok(a), Ok(b)) => a == b,
        _ => false,
    };
    if same {
        return Err(io("--into: this is the draft folder itself"));
    }
    Ok(())
}

/// Makes the spec folder `into` hold the draft in `draft_dir`: every
/// folder the draft has (`boards/`, `geometry/`, family folders) gets the
/// draft's `.toml` and `.md` files, and loses the `.toml` data files the
/// draft no longer has; folders the draft lacks are left alone. The draft
/// is loaded (every board and variant built) and `into` must already be a
/// spec folder before anything is written; each file is replaced
/// atomically, and the written folder must load again afterwards.
pub fn write_into(draft_dir: &Path, into: &Path) -> Result<Released, DraftError> {
    let io = |p: &Path, message: String| DraftError::Io {
        path: p.display().to_string(),
        message,
    };
    check_into(draft_dir, into)?;
    Draft::load(draft_dir)?;
    let mut writes: Vec<(PathBuf, String)> = Vec::new();
    let mut removes: Vec<PathBuf> = Vec::new();
    for folder in mirrored_folders() {
        let from = draft_dir.join(folder);
        if !from.is_dir() {
            continue;
        }
        let listed = |dir: &Path| -> Result<BTreeSet<String>, DraftError> {
            if !dir.is_dir() {
                return Ok(BTreeSet::new());
            }
            let mut names = BTreeSet::new();
            for entry in std::fs::read_dir(dir).map_err(|e| io(dir, e.to_string()))? {
                let p = entry.map_err(|e| io(dir, e.to_string()))?.path();
                if p.is_file()
                    && p.extension().is_some_and(|e| e == "toml" || e == "md")
                    && let Some(n) = p.file_name()
                {
                    names.insert(n.to_string_lossy().into_owned());
                }
            }
            Ok(names)
        };
        let to = into.join(folder);
        let wanted = listed(&from)?;
        for name in &wanted {
            let text = std::fs::read_to_string(from.join(name))
                .map_err(|e| io(&from.join(name), e.to_string()))?;
            let target = to.join(name);
            if std::fs::read_to_string(&target).ok().as_deref() != Some(text.as_str()) {
                writes.push((target, text));
            }
        }
        // Only data files are removed: a rules text the draft dropped is
        // more likely an incomplete copy than a retired family.
        for name in listed(&to)?.difference(&wanted) {
            if name.ends_with(".toml") {
                removes.push(to.join(name));
            }
        }
    }
    let mut out = Released {
        into: into.display().to_string(),
        ..Released::default()
    };
    for (p, text) in &writes {
        if let Some(parent) = p.parent() {
            std::fs::create_dir_all(parent).map_err(|e| io(parent, e.to_string()))?;
        }
        crate::files::write_atomically(p, text).map_err(|e| io(p, e.to_string()))?;
        out.written.push(p.display().to_string());
    }
    for p in &removes {
        std::fs::remove_file(p).map_err(|e| io(p, e.to_string()))?;
        out.removed.push(p.display().to_string());
    }
    Draft::load(into)?;
    Ok(out)
}
