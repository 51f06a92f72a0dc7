//! A base for `seams spec check --base-rev`: the `spec/` folder of a git
//! revision of the repository, written out to a scratch folder. Read
//! with `git ls-tree` and `git show`, so neither the index nor the work
//! tree is touched.

use std::path::{Path, PathBuf};
use std::process::Command;

use super::DraftError;

/// Writes `spec/` as it is at `rev` in the repository at `repo` into a new
/// folder under `scratch`, and returns that folder (a spec folder).
pub fn spec_at_rev(repo: &Path, rev: &str, scratch: &Path) -> Result<PathBuf, DraftError> {
    let fail = |message: String| DraftError::BaseRev {
        rev: rev.to_string(),
        message,
    };
    // A revision that starts with '-' would be read by git as an option.
    if rev.is_empty() || rev.starts_with('-') {
        return Err(fail("not a revision".into()));
    }
    let git = |args: &[&str]| -> Result<Vec<u8>, DraftError> {
        let out = Command::new("git")
            .arg("-C")
            .arg(repo)
            .args(args)
            .output()
            .map_err(|e| fail(format!("git cannot run: {e}")))?;
        if !out.status.success() {
            let err = String::from_utf8_lossy(&out.stderr);
            return Err(fail(crate::quote::bounded(err.trim()).into_owned()));
        }
        Ok(out.stdout)
    };
    let tree = format!("{rev}^{{tree}}");
    git(&["rev-parse", "--verify", "--quiet", &tree]).map_err(|_| {
        fail(format!(
            "not a revision of the repository at {} (git rev-parse finds no tree)",
            repo.display()
        ))
    })?;
    let listing = git(&["ls-tree", "-r", "-z", "--name-only", rev, "--", "spec"])?;
    let dir = scratch.join(format!(
        "seams-base-{}-{}",
        std::process::id(),
        rev.replace(|c: char| !c.is_ascii_alphanumeric(), "_")
    ));
    let io = |p: &Path, e: std::io::Error| DraftError::Io {
        path: p.display().to_string(),
        message: e.to_string(),
    };
    let mut files = 0;
    for path in listing.split(|b| *b == 0).filter(|p| !p.is_empty()) {
        let path = String::from_utf8_lossy(path).into_owned();
        let Some(inside) = path.strip_prefix("spec/") else {
            continue;
        };
        let text = git(&["show", &format!("{rev}:{path}")])?;
        let target = dir.join(inside);
        if let Some(parent) = target.parent() {
            std::fs::create_dir_all(parent).map_err(|e| io(parent, e))?;
        }
        std::fs::write(&target, text).map_err(|e| io(&target, e))?;
        files += 1;
    }
    if files == 0 {
        return Err(fail("the revision has no spec/ folder".into()));
    }
    Ok(dir)
}
