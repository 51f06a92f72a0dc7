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
        for family in FAMILIES {
            let (from_draft, files) = files_by_family.remove(family).unwrap_or_default();
            let built: Vec<Box<dyn Variant>> = match family {
                "shogi" => crate::shogi::variants_from_files(&files, &lib)?
                    .into_iter()
                    .map(|v| Box::new(v) as Box<dyn Variant>)
                    .collect(),
                "chess" => files
                    .iter()
                    .map(|(f, t)| {
                        crate::chess::ChessRules::from_file(f, t, &lib)
                            .map(|v| Box::new(v) as Box<dyn Variant>)
                    })
                    .collect::<Result<_, _>>()?,
                "tetra" => crate::tetra::variants_from_files(&files, &lib)?
                    .into_iter()
                    .map(|v| Box::new(v) as Box<dyn Variant>)
                    .collect(),
                _ => crate::kyoto::variants_from_files(&files, &lib)?
                    .into_iter()
                    .map(|v| Box::new(v) as Box<dyn Variant>)
                    .collect(),
            };
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
