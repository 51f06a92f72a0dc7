//! The versioned rules data in `spec/`, embedded at build time.
//!
//! The binary and the tests read the same files: `spec/` is compiled into the
//! crate with `include_dir`, so a user never has to point the tool at it. A
//! designer can load an edited copy instead with [`Library::from_dir`]; that
//! is the only place in the crate that reads spec files from disk.

use std::cmp::Ordering;
use std::collections::BTreeMap;
use std::path::Path;

use include_dir::{Dir as EmbeddedDir, include_dir};

use crate::geometry::Geometry;
use crate::topology::file::{self, AnyBoard, BoardError};
use crate::topology::tetra::TetraBoard;

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
    #[error("unknown board '{}' ({known})", crate::quote::excerpt(.name))]
    UnknownBoard {
        name: String,
        known: crate::names::Known,
    },
}

/// Every board of one spec folder, validated, with step tables built.
#[derive(Debug)]
pub struct Library {
    boards: BTreeMap<String, (String, Geometry)>,
    solids: BTreeMap<String, (String, TetraBoard)>,
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
                let text = crate::files::read_text(&p, crate::files::MAX_SPEC_FILE_BYTES).map_err(
                    |e| SpecError::Io {
                        path: p.display().to_string(),
                        message: e.reason(),
                    },
                )?;
                files.push((p.display().to_string(), text));
            }
        }
        files.sort();
        Library::from_files(files)
    }

    /// Validates board files given as (label, text) pairs.
    pub fn from_files(files: Vec<(String, String)>) -> Result<Library, SpecError> {
        let mut lib = Library {
            boards: BTreeMap::new(),
            solids: BTreeMap::new(),
        };
        for (path, text) in files {
            let loaded = file::load_any(&path, &text)?;
            let name = match &loaded {
                AnyBoard::Charts(b) => b.name().to_string(),
                AnyBoard::Tetrahedron(t) => t.name().to_string(),
            };
            let other = lib
                .boards
                .get(&name)
                .map(|(p, _)| p)
                .or_else(|| lib.solids.get(&name).map(|(p, _)| p));
            if let Some(other) = other {
                return Err(SpecError::Duplicate {
                    path,
                    name,
                    other: other.clone(),
                });
            }
            match loaded {
                AnyBoard::Charts(b) => {
                    lib.boards.insert(name, (path, Geometry::new(b)));
                }
                AnyBoard::Tetrahedron(t) => {
                    lib.solids.insert(name, (path, t));
                }
            }
        }
        Ok(lib)
    }

    /// Names of the chart boards (square complexes).
    pub fn board_names(&self) -> impl Iterator<Item = &str> {
        self.boards.keys().map(String::as_str)
    }

    /// Names of the tetrahedral boards.
    pub fn solid_names(&self) -> impl Iterator<Item = &str> {
        self.solids.keys().map(String::as_str)
    }

    /// A tetrahedral board by name.
    pub fn solid(&self, name: &str) -> Option<&TetraBoard> {
        self.solids.get(name).map(|(_, t)| t)
    }

    /// The board's geometry, or an error listing the known names.
    pub fn geometry(&self, name: &str) -> Result<&Geometry, SpecError> {
        self.boards
            .get(name)
            .map(|(_, g)| g)
            .ok_or_else(|| SpecError::UnknownBoard {
                name: name.to_string(),
                known: crate::names::Known::new(
                    name,
                    self.boards
                        .keys()
                        .chain(self.solids.keys())
                        .map(String::as_str),
                ),
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
            solids: self.solids.clone(),
        }
    }

    /// The file a board was loaded from.
    pub fn source(&self, name: &str) -> Option<&str> {
        self.boards
            .get(name)
            .map(|(p, _)| p.as_str())
            .or_else(|| self.solids.get(name).map(|(p, _)| p.as_str()))
    }
}

/// A numbered clause of a family's `rules.md`.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Clause {
    /// `GEO-3.1`, `SS-5.3`, or an interpretation such as `SS-I2`.
    pub id: String,
    /// The spec file it is defined in, e.g. `spec/geometry/rules.md`.
    pub file: String,
    /// The first line of its text, for listings.
    pub summary: String,
    /// Interpretations (`X-I<n>`) record a reading of an open point.
    pub interpretation: bool,
}

/// Whether `s` is a clause number: upper-case letters, a dash, then either
/// dotted numbers (`GEO-3.1`) or `I` and a number (`SS-I2`).
pub fn is_clause_id(s: &str) -> bool {
    let Some((prefix, rest)) = s.split_once('-') else {
        return false;
    };
    let prefix_ok = !prefix.is_empty() && prefix.bytes().all(|b| b.is_ascii_uppercase());
    let rest_ok = match rest.strip_prefix('I') {
        Some(n) => !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()),
        None => {
            !rest.is_empty()
                && rest
                    .split('.')
                    .all(|p| !p.is_empty() && p.bytes().all(|b| b.is_ascii_digit()))
        }
    };
    prefix_ok && rest_ok
}

/// The order clauses are listed in (`seams spec coverage`, and the clause
/// rows of `seams conform`): by prefix, then numbered clauses before
/// interpretations, numbers compared as numbers, so `SC-2.1` < `SC-10.1` <
/// `SC-I2` < `SC-I10`. Text that is not a clause number (see
/// [`is_clause_id`]) comes after every clause number, as text.
pub fn clause_order(a: &str, b: &str) -> Ordering {
    clause_key(a).cmp(&clause_key(b))
}

/// The sort key behind [`clause_order`]: (not a clause, prefix,
/// interpretation, numbers, text). The text last keeps the order total,
/// e.g. `SC-01` next to `SC-1`.
fn clause_key(s: &str) -> (bool, &str, bool, Vec<u64>, &str) {
    let parsed = s.split_once('-').filter(|_| is_clause_id(s));
    let Some((prefix, rest)) = parsed else {
        return (true, "", false, Vec::new(), s);
    };
    let (interpretation, numbers) = match rest.strip_prefix('I') {
        Some(n) => (true, n),
        None => (false, rest),
    };
    // Digits only (checked above); a number too long for u64 sorts last.
    let numbers = numbers
        .split('.')
        .map(|n| n.parse().unwrap_or(u64::MAX))
        .collect();
    (false, prefix, interpretation, numbers, s)
}

/// Reads clause definitions from a rules text: every line whose first bold
/// span (`**…**`) is a clause number defines that clause.
pub fn parse_clauses(file: &str, text: &str) -> Vec<Clause> {
    let mut out = Vec::new();
    for line in text.lines() {
        let Some(start) = line.find("**") else {
            continue;
        };
        let after = &line[start + 2..];
        let Some(end) = after.find("**") else {
            continue;
        };
        let id = after[..end].trim();
        if !is_clause_id(id) {
            continue;
        }
        let summary = after[end + 2..].trim().to_string();
        out.push(Clause {
            id: id.to_string(),
            file: file.to_string(),
            summary,
            interpretation: id.split_once('-').is_some_and(|(_, r)| r.starts_with('I')),
        });
    }
    out
}

/// Every clause defined in the embedded `spec/*/rules.md` files.
pub fn builtin_clauses() -> Vec<Clause> {
    let mut out = Vec::new();
    for dir in SPEC.dirs() {
        for f in dir.files() {
            if f.path().file_name().is_some_and(|n| n == "rules.md") {
                let label = format!("spec/{}", f.path().display());
                out.extend(parse_clauses(&label, f.contents_utf8().unwrap_or_default()));
            }
        }
    }
    out
}

/// The clauses of a spec folder: each `<folder>/rules.md` it has, and the
/// built-in one for every folder it lacks (as for family data files).
pub fn clauses_from_dir(dir: &Path) -> Result<Vec<Clause>, SpecError> {
    let mut out = Vec::new();
    for embedded in SPEC.dirs() {
        let rules = embedded.path().join("rules.md");
        let Some(builtin) = SPEC.get_file(&rules) else {
            continue;
        };
        let edited = dir.join(&rules);
        if edited.is_file() {
            let text =
                crate::files::read_text(&edited, crate::files::MAX_RULES_BYTES).map_err(|e| {
                    SpecError::Io {
                        path: edited.display().to_string(),
                        message: e.reason(),
                    }
                })?;
            out.extend(parse_clauses(&edited.display().to_string(), &text));
        } else {
            let label = format!("spec/{}", rules.display());
            out.extend(parse_clauses(
                &label,
                builtin.contents_utf8().unwrap_or_default(),
            ));
        }
    }
    Ok(out)
}

/// A family's embedded data files (`spec/<family>/*.toml`) as
/// (`spec/<family>/<file>`, text), sorted by path. Every family builds its
/// built-in variants from these.
pub fn embedded_files(family: &str) -> Vec<(String, String)> {
    let mut files: Vec<(String, String)> = SPEC
        .get_dir(family)
        .map(|d| {
            d.files()
                .filter(|f| f.path().extension().is_some_and(|e| e == "toml"))
                .map(|f| {
                    (
                        format!("spec/{}", f.path().display()),
                        f.contents_utf8().unwrap_or_default().to_string(),
                    )
                })
                .collect()
        })
        .unwrap_or_default();
    files.sort();
    files
}

/// A family's notation: the grammar its action and position texts are
/// read by (`spec/<family>/notation.abnf`, NT-1).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Notation {
    Shogi,
    Chess,
    Kyoto,
    Tetra,
}

impl Notation {
    pub const ALL: [Notation; 4] = [
        Notation::Shogi,
        Notation::Chess,
        Notation::Kyoto,
        Notation::Tetra,
    ];

    /// The grammar file, as the spec folder names it.
    pub fn file(self) -> &'static str {
        match self {
            Notation::Shogi => "spec/shogi/notation.abnf",
            Notation::Chess => "spec/chess/notation.abnf",
            Notation::Kyoto => "spec/kyoto/notation.abnf",
            Notation::Tetra => "spec/tetra/notation.abnf",
        }
    }

    /// The compiled grammar: the family's file with the shared cell names
    /// (`spec/notation/cells.abnf`), from the spec compiled into this
    /// build. Grammars are part of the notation, not of a variant's data,
    /// so a draft loaded with `--spec` reads texts by the built-in ones.
    pub fn grammar(self) -> &'static crate::grammar::Grammar {
        static GRAMMARS: std::sync::OnceLock<Vec<crate::grammar::Grammar>> =
            std::sync::OnceLock::new();
        let all = GRAMMARS.get_or_init(|| {
            Notation::ALL
                .iter()
                .map(|n| {
                    n.compile()
                        .expect("the embedded grammars are checked by the test suite")
                })
                .collect()
        });
        &all[self as usize]
    }

    /// Compiles the grammar of the embedded spec.
    pub fn compile(self) -> Result<crate::grammar::Grammar, crate::grammar::GrammarError> {
        let text = |path: &str| {
            let inside = path.strip_prefix("spec/").unwrap_or(path);
            SPEC.get_file(inside)
                .and_then(|f| f.contents_utf8())
                .unwrap_or_default()
        };
        let cells = text(CELL_GRAMMAR);
        let family = text(self.file());
        crate::grammar::Grammar::new(self.file(), &format!("{family}\n{cells}"))
    }
}

/// The cell names every family grammar uses.
pub const CELL_GRAMMAR: &str = "spec/notation/cells.abnf";
