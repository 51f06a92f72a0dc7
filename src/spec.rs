//! The versioned rules data in `spec/`, embedded at build time.
//!
//! The binary and the tests read the same files: `spec/` is compiled into the
//! crate with `include_dir`, so a user never has to point the tool at it. A
//! designer can load an edited copy instead with [`Library::from_dir`]; that
//! is the only place in the crate that reads spec files from disk.

use std::collections::BTreeMap;
use std::path::Path;

use include_dir::{Dir as EmbeddedDir, include_dir};

use crate::geometry::Geometry;
use crate::topology::file::{self, BoardError};

static SPEC: EmbeddedDir<'static> = include_dir!("$CARGO_MANIFEST_DIR/spec");

/// Errors that arise while loading a spec folder.
#[derive(Debug, thiserror::Error)]
pub enum SpecError {
    #[error(transparent)]
    Board(#[from] BoardError),
    #[error("{path}: {message}")]
    Io { path: String, message: String },
    #[error("{path}: board '{name}' is defined twice (also in {other})")]
    Duplicate {
        path: String,
        name: String,
        other: String,
    },
    #[error("unknown board '{name}' (known: {known})")]
    UnknownBoard { name: String, known: String },
}

/// Every board of one spec folder, validated, with step tables built.
#[derive(Debug)]
pub struct Library {
    boards: BTreeMap<String, (String, Geometry)>,
}

impl Library {
    /// The spec folder compiled into this build.
    pub fn builtin() -> &'static Library {
        static LIB: std::sync::OnceLock<Library> = std::sync::OnceLock::new();
        LIB.get_or_init(|| {
            let files = SPEC
                .get_dir("boards")
                .map(|d| {
                    d.files()
                        .filter(|f| f.path().extension().is_some_and(|e| e == "toml"))
                        .map(|f| {
                            (
                                format!("spec/{}", f.path().display()),
                                f.contents_utf8().unwrap_or_default().to_string(),
                            )
                        })
                        .collect::<Vec<_>>()
                })
                .unwrap_or_default();
            Library::from_files(files).expect("the embedded spec is validated by the test suite")
        })
    }

    /// Loads an edited copy of the spec folder (the designer workflow).
    pub fn from_dir(dir: &Path) -> Result<Library, SpecError> {
        let boards_dir = dir.join("boards");
        let read_err = |p: &Path, e: std::io::Error| SpecError::Io {
            path: p.display().to_string(),
            message: e.to_string(),
        };
        let mut files = Vec::new();
        let entries = std::fs::read_dir(&boards_dir).map_err(|e| read_err(&boards_dir, e))?;
        for entry in entries {
            let entry = entry.map_err(|e| read_err(&boards_dir, e))?;
            let p = entry.path();
            if p.extension().is_some_and(|e| e == "toml") {
                let text = std::fs::read_to_string(&p).map_err(|e| read_err(&p, e))?;
                files.push((p.display().to_string(), text));
            }
        }
        files.sort();
        Library::from_files(files)
    }

    /// Validates board files given as (label, text) pairs.
    pub fn from_files(files: Vec<(String, String)>) -> Result<Library, SpecError> {
        let mut boards = BTreeMap::new();
        for (path, text) in files {
            let board = file::load(&path, &text)?;
            let name = board.name().to_string();
            if let Some((other, _)) = boards.get(&name) {
                return Err(SpecError::Duplicate {
                    path,
                    name,
                    other: String::clone(other),
                });
            }
            boards.insert(name, (path, Geometry::new(board)));
        }
        Ok(Library { boards })
    }

    pub fn board_names(&self) -> impl Iterator<Item = &str> {
        self.boards.keys().map(String::as_str)
    }

    /// The board's geometry, or an error listing the known names.
    pub fn geometry(&self, name: &str) -> Result<&Geometry, SpecError> {
        self.boards
            .get(name)
            .map(|(_, g)| g)
            .ok_or_else(|| SpecError::UnknownBoard {
                name: name.to_string(),
                known: self.boards.keys().cloned().collect::<Vec<_>>().join(", "),
            })
    }

    /// The same boards with one geometric rule replaced by a wrong one
    /// (for mutants; see [`crate::mutants`]).
    pub fn mutated(&self, mutation: crate::geometry::Mutation) -> Library {
        Library {
            boards: self
                .boards
                .iter()
                .map(|(name, (path, geo))| {
                    (
                        name.clone(),
                        (
                            path.clone(),
                            Geometry::new_mutated(geo.board().clone(), mutation),
                        ),
                    )
                })
                .collect(),
        }
    }

    /// The file a board was loaded from.
    pub fn source(&self, name: &str) -> Option<&str> {
        self.boards.get(name).map(|(p, _)| p.as_str())
    }
}
