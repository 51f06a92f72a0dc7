//! Loading a draft: a spec folder read whole, each family folder (or the
//! built-in files where the draft has none) built by its family's own
//! builder. Apart from the checks, since every other step starts from a
//! loaded [`Draft`] and `accept` rebuilds one from rewritten files.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use crate::spec::Library;
use crate::variant::Variant;

use super::{DraftError, FAMILIES};

/// Data files as (label, text) pairs.
type Files = Vec<(String, String)>;

/// One family's data files as read: `from_draft` is false when the draft
/// has no folder for the family and the built-in files are used.
#[derive(Clone, Debug)]
pub struct FamilyFiles {
    pub from_draft: bool,
    pub files: Vec<(String, String)>,
    /// The variants these files define.
    pub variants: Vec<String>,
}

/// A loaded spec folder: its boards and every variant built on them.
pub struct Draft {
    pub dir: PathBuf,
    pub lib: Library,
    pub variants: Vec<Box<dyn Variant>>,
    pub families: BTreeMap<&'static str, FamilyFiles>,
}

impl Draft {
    /// Loads a spec folder (boards and every family folder present).
    pub fn load(dir: &Path) -> Result<Draft, DraftError> {
        if !dir.is_dir() {
            return Err(DraftError::Io {
                path: dir.display().to_string(),
                message: "not a spec folder (expected boards/ and family folders)".into(),
            });
        }
        let lib = Library::from_dir(dir)?;
        let mut files = BTreeMap::new();
        for family in FAMILIES {
            let folder = dir.join(family);
            files.insert(
                family,
                if folder.is_dir() {
                    (true, read_toml_files(&folder)?)
                } else {
                    (false, builtin_family_files(family))
                },
            );
        }
        Draft::build(dir, lib, files)
    }

    /// Builds every family from (from_draft, files) per family folder.
    pub(super) fn build(
        dir: &Path,
        lib: Library,
        mut files_by_family: BTreeMap<&'static str, (bool, Files)>,
    ) -> Result<Draft, DraftError> {
        let mut variants: Vec<Box<dyn Variant>> = Vec::new();
        let mut families = BTreeMap::new();
        // Every file is built on its own, so that one run reports the
        // errors of every file, not only the first (a board edit often
        // breaks several families' files at once).
        let mut errors = Vec::new();
        for family in FAMILIES {
            let (from_draft, files) = files_by_family.remove(family).unwrap_or_default();
            let mut built: Vec<Box<dyn Variant>> = Vec::new();
            for file in &files {
                match build_file(family, file, &lib) {
                    Ok(v) => built.extend(v),
                    Err(e) => errors.push(e),
                }
            }
            if family == "shogi" {
                // As `shogi::variants_from_files` orders them.
                built.sort_by(|a, b| a.name().cmp(b.name()));
            }
            families.insert(
                family,
                FamilyFiles {
                    from_draft,
                    files,
                    variants: built.iter().map(|v| v.name().to_string()).collect(),
                },
            );
            variants.extend(built);
        }
        if errors.len() == 1 {
            return Err(errors.remove(0));
        }
        if !errors.is_empty() {
            return Err(DraftError::Several(errors));
        }
        Ok(Draft {
            dir: dir.to_path_buf(),
            lib,
            variants,
            families,
        })
    }

    /// The same family files built on other boards: a geometry mutant of
    /// an edited spec (the mutated rule reaches every variant).
    pub fn with_library(&self, lib: Library) -> Result<Draft, DraftError> {
        let files = self
            .families
            .iter()
            .map(|(k, f)| (*k, (f.from_draft, f.files.clone())))
            .collect();
        Draft::build(&self.dir, lib, files)
    }

    /// The family whose files define `variant`.
    pub fn family_of(&self, variant: &str) -> Option<&'static str> {
        self.families
            .iter()
            .find(|(_, f)| f.variants.iter().any(|v| v == variant))
            .map(|(k, _)| *k)
    }

    /// Every variant the draft defines, in build order.
    pub fn variant_refs(&self) -> Vec<&dyn Variant> {
        self.variants.iter().map(|v| v.as_ref()).collect()
    }
}

/// The variants one data file of `family` defines.
fn build_file(
    family: &str,
    file: &(String, String),
    lib: &Library,
) -> Result<Vec<Box<dyn Variant>>, DraftError> {
    let one = std::slice::from_ref(file);
    Ok(match family {
        "shogi" => crate::shogi::variants_from_files(one, lib)?
            .into_iter()
            .map(|v| Box::new(v) as Box<dyn Variant>)
            .collect(),
        "chess" => vec![Box::new(crate::chess::ChessRules::from_file(
            &file.0, &file.1, lib,
        )?)],
        "tetra" => crate::tetra::variants_from_files(one, lib)?
            .into_iter()
            .map(|v| Box::new(v) as Box<dyn Variant>)
            .collect(),
        _ => crate::kyoto::variants_from_files(one, lib)?
            .into_iter()
            .map(|v| Box::new(v) as Box<dyn Variant>)
            .collect(),
    })
}

fn read_toml_files(folder: &Path) -> Result<Vec<(String, String)>, DraftError> {
    let io = |p: &Path, e: std::io::Error| DraftError::Io {
        path: p.display().to_string(),
        message: e.to_string(),
    };
    let mut files = Vec::new();
    for entry in std::fs::read_dir(folder).map_err(|e| io(folder, e))? {
        let p = entry.map_err(|e| io(folder, e))?.path();
        if p.extension().is_some_and(|e| e == "toml") {
            let text =
                crate::files::read_text(&p, crate::files::MAX_SPEC_FILE_BYTES).map_err(|e| {
                    DraftError::Io {
                        path: p.display().to_string(),
                        message: e.reason(),
                    }
                })?;
            files.push((p.display().to_string(), text));
        }
    }
    files.sort();
    Ok(files)
}

fn builtin_family_files(family: &str) -> Vec<(String, String)> {
    match family {
        "shogi" => crate::shogi::builtin_files(),
        "chess" => crate::chess::builtin_files(),
        "tetra" => crate::tetra::builtin_files(),
        _ => crate::kyoto::builtin_files(),
    }
}
