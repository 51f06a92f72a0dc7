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
        // Every file is built on its own, and each builder reports every
        // independent entry, so that one run lists every error of every
        // file (a board edit often breaks several entries of several
        // families' files at once).
        let mut errors = Vec::new();
        for family in FAMILIES {
            let (from_draft, files) = files_by_family.remove(family).unwrap_or_default();
            let mut built: Vec<Box<dyn Variant>> = Vec::new();
            for file in &files {
                match build_file(family, file, &lib) {
                    Ok(v) => built.push(v),
                    Err(e) => errors.extend(e),
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

/// The variant one data file of `family` defines, or every error of the
/// file (each family's builder reports each independent entry).
fn build_file(
    family: &str,
    (file, text): &(String, String),
    lib: &Library,
) -> Result<Box<dyn Variant>, Vec<DraftError>> {
    fn boxed<V: Variant + 'static, E: Into<DraftError>>(
        built: Result<V, Vec<E>>,
    ) -> Result<Box<dyn Variant>, Vec<DraftError>> {
        built
            .map(|v| Box::new(v) as Box<dyn Variant>)
            .map_err(|errors| errors.into_iter().map(Into::into).collect())
    }
    match family {
        "shogi" => boxed(crate::shogi::ShogiRules::load(file, text, lib)),
        "chess" => boxed(crate::chess::ChessRules::load(file, text, lib)),
        "tetra" => boxed(crate::tetra::TetraRules::load(file, text, lib)),
        _ => boxed(crate::kyoto::KyotoRules::load(file, text, lib)),
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

/// One error of a draft that does not load, as `seams spec check` lists
/// it: the file, the line of the entry where the file has it, the entry
/// (a dotted field path such as `promotion.first`; empty when the error
/// is about the file as a whole) and what is wrong.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, schemars::JsonSchema)]
pub struct LoadError {
    pub file: String,
    pub line: Option<usize>,
    pub entry: String,
    pub message: String,
}

impl std::fmt::Display for LoadError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}", self.file)?;
        if let Some(line) = self.line {
            write!(f, ":{line}")?;
        }
        if !self.entry.is_empty() {
            write!(f, ": {}", crate::quote::excerpt(&self.entry))?;
        }
        write!(f, ": {}", crate::quote::bounded(&self.message))
    }
}

impl DraftError {
    /// The load errors this error stands for, each with the line of its
    /// entry; `None` when it is not about the draft's files (a usage
    /// error, a base that cannot be read).
    pub fn load_errors(&self) -> Option<Vec<LoadError>> {
        let mut out = Vec::new();
        self.collect_load_errors(&mut out)?;
        for e in &mut out {
            let text = spec_file_text(&e.file);
            e.line = text
                .as_deref()
                .and_then(|t| {
                    crate::files::toml_line(t, &e.entry).or_else(|| bytes_line(t, &e.entry))
                })
                .or_else(|| toml_error_line(&e.message));
        }
        Some(out)
    }

    fn collect_load_errors(&self, out: &mut Vec<LoadError>) -> Option<()> {
        let mut push = |file: &str, entry: &str, message: String| {
            out.push(LoadError {
                file: file.to_string(),
                line: None,
                entry: entry.to_string(),
                message,
            })
        };
        match self {
            DraftError::Spec(e) | DraftError::Chess(crate::chess::VariantError::Spec(e)) => {
                let (file, entry, message) = spec_parts(e);
                push(file, entry, message)
            }
            DraftError::Io { path, message } => push(path, "", message.clone()),
            DraftError::Shogi(e) => push(&e.file, &e.field, e.message.clone()),
            DraftError::Chess(crate::chess::VariantError::Data(e)) => {
                push(&e.file, &e.field, e.message.clone())
            }
            DraftError::Chess(crate::chess::VariantError::Start { file, error }) => {
                push(file, "setup", error.to_string())
            }
            DraftError::Tetra(e) => {
                let (file, entry, message) = tetra_parts(e);
                push(file, &entry, message)
            }
            DraftError::Kyoto(e) => push(&e.file, &e.entry, e.message.clone()),
            DraftError::Several(all) => {
                for e in all {
                    e.collect_load_errors(out)?;
                }
            }
            _ => return None,
        }
        Some(())
    }
}

/// A board library error as (file, entry, message).
fn spec_parts(e: &crate::spec::SpecError) -> (&str, &str, String) {
    use crate::spec::SpecError as E;
    match e {
        E::Board(b) => (&b.file, &b.entry, b.message.clone()),
        E::Io { path, message } => (path, "", message.clone()),
        E::Duplicate { path, name, other } => (
            path,
            "name",
            format!("board '{name}' is defined twice (also in {other})"),
        ),
        E::UnknownBoard { .. } => ("", "board", e.to_string()),
    }
}

/// A tetrahedral data error as (file, entry, message).
fn tetra_parts(e: &crate::tetra::DataError) -> (&str, String, String) {
    use crate::tetra::DataError as E;
    match e {
        E::Parse { file, message } => (file, String::new(), message.clone()),
        E::UnknownBoard { file, board } => (
            file,
            "board".into(),
            format!("'{board}' is not a tetrahedral board of the spec library"),
        ),
        E::Piece {
            file,
            kind,
            message,
        } => (file, format!("pieces.{kind}"), message.clone()),
        E::Cell {
            file,
            kind,
            cell,
            message,
        } => (
            file,
            format!("pieces.{kind}.cells"),
            format!("'{cell}': {message}"),
        ),
        E::Field {
            file,
            field,
            message,
        } => (file, field.clone(), message.clone()),
    }
}

/// The text of a spec file named as the loaders name it: a path on disk,
/// or the label of a built-in file (`spec/chess/chess-klein.toml`, used
/// where the draft has no folder of its own for the family).
fn spec_file_text(label: &str) -> Option<String> {
    if let Ok(text) = crate::files::read_text(Path::new(label), crate::files::MAX_SPEC_FILE_BYTES) {
        return Some(text);
    }
    let folder = label.strip_prefix("spec/")?.split('/').next()?;
    crate::spec::embedded_files(folder)
        .into_iter()
        .find(|(l, _)| l == label)
        .map(|(_, t)| t)
}

/// The line of an entry named by where it is (`bytes 310..321`, as the
/// loaders name a value that does not read).
fn bytes_line(text: &str, entry: &str) -> Option<usize> {
    let (start, _) = entry.strip_prefix("bytes ")?.split_once("..")?;
    let start: usize = start.parse().ok()?;
    let before = text.get(..start.min(text.len()))?;
    Some(before.matches('\n').count() + 1)
}

/// The line a TOML parse error names (`TOML parse error at line 3, …`).
fn toml_error_line(message: &str) -> Option<usize> {
    let rest = message.split("at line ").nth(1)?;
    let digits: String = rest.chars().take_while(char::is_ascii_digit).collect();
    digits.parse().ok()
}
