//! The rules every command reads: the built-in spec, or the spec folder
//! given with `--spec DIR` (boards and family files), loaded once and only
//! when a command needs it.
//!
//! Every command that reads boards or variants goes through [`Rulebook`],
//! so `--spec` reaches all of them: a designer trying an edited spec is
//! never shown the built-in rules instead.

use std::cell::OnceCell;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result};
use seams::draft::Draft;
use seams::registry;
use seams::spec::Library;
use seams::variant::{self, Variant};

/// The built-in spec or an edited copy (`--spec DIR`).
pub struct Rulebook {
    spec: Option<PathBuf>,
    /// Boards alone, for the geometry commands, which read no family file.
    boards: OnceCell<&'static Library>,
    /// Boards and every family built on them.
    draft: OnceCell<&'static Draft>,
}

impl Rulebook {
    pub fn new(spec: Option<PathBuf>) -> Rulebook {
        Rulebook {
            spec,
            boards: OnceCell::new(),
            draft: OnceCell::new(),
        }
    }

    /// The `--spec` folder, if one was given.
    pub fn spec_dir(&self) -> Option<&Path> {
        self.spec.as_deref()
    }

    /// The boards. With `--spec`, only its `boards/` folder is read, so a
    /// broken family file does not stop `seams geometry`.
    pub fn library(&self) -> Result<&'static Library> {
        let Some(dir) = &self.spec else {
            return Ok(Library::builtin());
        };
        if let Some(d) = self.draft.get() {
            return Ok(&d.lib);
        }
        if let Some(lib) = self.boards.get() {
            return Ok(lib);
        }
        let lib = Library::from_dir(dir)
            .with_context(|| format!("loading the spec folder {}", dir.display()))?;
        // The process serves one command, so leaking the loaded spec gives
        // it the same 'static lifetime as the built-in one.
        Ok(self.boards.get_or_init(|| Box::leak(Box::new(lib))))
    }

    /// The edited spec with every family built, or `None` for the built-in
    /// spec. A broken family file is an error naming the file and entry.
    pub fn draft(&self) -> Result<Option<&'static Draft>> {
        let Some(dir) = &self.spec else {
            return Ok(None);
        };
        if let Some(d) = self.draft.get() {
            return Ok(Some(d));
        }
        let draft = Draft::load(dir)
            .with_context(|| format!("loading the spec folder {}", dir.display()))?;
        Ok(Some(self.draft.get_or_init(|| Box::leak(Box::new(draft)))))
    }

    /// Every variant, built from the spec in force.
    pub fn variants(&self) -> Result<Vec<&'static dyn Variant>> {
        Ok(match self.draft()? {
            None => registry::variants().iter().map(|v| v.as_ref()).collect(),
            Some(d) => d.variant_refs(),
        })
    }

    /// One variant by name; an unknown name lists the known ones and
    /// suggests the nearest.
    pub fn variant(&self, name: &str) -> Result<&'static dyn Variant> {
        Ok(variant::find_in(&self.variants()?, name)?)
    }
}
