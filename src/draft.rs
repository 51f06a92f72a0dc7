//! Rules drafts: a whole edited copy of `spec/` loaded at once, checked
//! against the corpus (`seams spec check`), gated (`seams spec gate`) and
//! accepted as a new rules version (`seams spec check --accept`).
//!
//! A draft folder is laid out like `spec/`: `boards/` plus the family
//! folders `shogi/`, `chess/`, `kyoto/` and `tetra/`. A missing family
//! folder means "use the built-in one". Every variant is built by its
//! family's own builder, so a draft is read exactly as the built-in spec
//! is; nothing here changes a rule.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use serde::Serialize;

use crate::conformance::case::Subject;
use crate::conformance::engine::{Embedded, Engine};
use crate::conformance::reference::Reference;
use crate::conformance::runner::{self, Outcome, Selection};
use crate::conformance::version::{Range, Version};
use crate::conformance::{Case, Corpus, CorpusError, Provenance};
use crate::spec::{Library, SpecError};
use crate::variant::Variant;

/// Data files as (label, text) pairs.
type Files = Vec<(String, String)>;

/// The family folders of a spec, in the order variants are built.
pub const FAMILIES: [&str; 4] = ["shogi", "chess", "tetra", "kyoto"];

/// Why a draft could not be loaded or accepted. Every variant names the
/// file and, where there is one, the entry.
#[derive(Debug, thiserror::Error)]
pub enum DraftError {
    /// A board file (or the boards folder) is bad; the message names the
    /// file and entry.
    #[error(transparent)]
    Spec(#[from] SpecError),
    #[error("{path}: {message}")]
    Io { path: String, message: String },
    #[error(transparent)]
    Shogi(#[from] crate::shogi::DataError),
    #[error(transparent)]
    Chess(#[from] crate::chess::VariantError),
    #[error(transparent)]
    Tetra(#[from] crate::tetra::DataError),
    #[error(transparent)]
    Kyoto(#[from] crate::kyoto::DataError),
    #[error(transparent)]
    Corpus(#[from] CorpusError),
    #[error("--version '{version}': {message}")]
    BadVersion { version: String, message: String },
    #[error("{file}: rules-version: the new version {new} is not above the current {current}")]
    VersionNotNewer {
        file: String,
        current: String,
        new: String,
    },
    #[error("{variant}: the opening audit cannot run: {message}")]
    Audit { variant: String, message: String },
    #[error("--plies must be between 1 and {max}, not {plies}")]
    Plies { plies: u32, max: u32 },
    #[error(
        "case '{id}' changes, but its new answer cannot be written as an expectation: {message}"
    )]
    Unwritable { id: String, message: String },
}

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
    fn build(
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

/// The derived geometry of one board, as `seams spec check` shows it.
#[derive(Clone, Debug, Serialize, PartialEq, Eq)]
pub struct BoardRow {
    pub board: String,
    pub faces: usize,
    pub edges: usize,
    pub vertices: usize,
    pub euler: i64,
    pub orientable: bool,
    pub cone_points: usize,
    pub surface: String,
    /// Number of bishop destinations → number of departure cells.
    pub bishop_reach: BTreeMap<usize, usize>,
}

/// The derived facts of one tetrahedral board (GEO-8.5).
#[derive(Clone, Debug, Serialize, PartialEq, Eq)]
pub struct SolidRow {
    pub board: String,
    pub shape: String,
    pub side: u8,
    #[serde(flatten)]
    pub facts: crate::topology::tetra::TetraFacts,
}

/// The designer facts of one variant's setup and drop rules.
#[derive(Clone, Debug, Serialize, PartialEq, Eq)]
pub struct DesignRow {
    pub variant: String,
    /// Each player's initial bishops by colour class (GEO-I2).
    pub bishops: crate::design::BishopColours,
    /// Each initial pawn's forward path to a promotion target.
    pub pawns: crate::rules::design_facts::PawnFacts,
    /// Drops onto cells where the piece could never move.
    pub drops: crate::rules::design_facts::DropFacts,
}

impl DesignRow {
    /// The initial pawns with no path to a promotion target.
    pub fn stuck_pawns(&self) -> Vec<&crate::rules::design_facts::PawnPath> {
        match &self.pawns {
            crate::rules::design_facts::PawnFacts::Paths { pawns } => {
                pawns.iter().filter(|p| p.moves.is_none()).collect()
            }
            crate::rules::design_facts::PawnFacts::NotApplicable { .. } => Vec::new(),
        }
    }

    /// The drops onto cells where the piece could never move.
    pub fn immobile_drops(&self) -> &[crate::rules::design_facts::ImmobileDrop] {
        match &self.drops {
            crate::rules::design_facts::DropFacts::Checked { immobile, .. } => immobile,
            crate::rules::design_facts::DropFacts::NoDrops => &[],
        }
    }
}

/// Whether a variant's initial position is exchange-symmetric.
#[derive(Clone, Debug, Serialize, PartialEq, Eq)]
pub struct SymmetryRow {
    pub variant: String,
    pub rules: String,
    /// `Some(true)` when Φ(start) is the start with the other side to move;
    /// `None` when the family cannot say.
    pub exchange_symmetric: Option<bool>,
}

/// One corpus case whose expectation the spec does not reproduce.
#[derive(Clone, Debug, Serialize, PartialEq, Eq)]
pub struct Change {
    pub id: String,
    pub file: String,
    pub title: String,
    pub subject: String,
    pub clauses: Vec<String>,
    /// `fail` or the error kind.
    pub outcome: String,
    pub old: String,
    pub new: String,
    pub detail: String,
}

/// The corpus run against a spec.
#[derive(Clone, Debug, Default, Serialize, PartialEq, Eq)]
pub struct CorpusRun {
    pub checked: usize,
    pub not_applicable: usize,
    pub unsupported: usize,
    pub changes: Vec<Change>,
}

/// What `seams spec check` reports.
#[derive(Clone, Debug, Serialize)]
pub struct CheckReport {
    pub spec: String,
    pub boards: Vec<BoardRow>,
    /// Boards without square cells (the tetrahedron), with their facts.
    pub solids: Vec<SolidRow>,
    pub variants: Vec<SymmetryRow>,
    /// Bishop colours, pawn paths and immobile drops per variant.
    pub design: Vec<DesignRow>,
    /// The opening audit of every variant's initial position.
    pub audits: Vec<crate::audit::Report>,
    pub corpus: CorpusRun,
}

impl CheckReport {
    /// Whether some player's bishops are unbalanced on a colourable board,
    /// some initial pawn cannot reach promotion, or some drop lands where
    /// the piece can never move, as one line per finding.
    pub fn design_findings(&self) -> Vec<String> {
        let mut out = Vec::new();
        for d in &self.design {
            for p in &d.bishops.players {
                if !p.balanced {
                    out.push(format!(
                        "{}: {} bishops not colour-balanced ({} dark, {} light)",
                        d.variant,
                        player_name(p.owner),
                        p.dark.len(),
                        p.light.len()
                    ));
                }
            }
            for p in d.stuck_pawns() {
                out.push(format!(
                    "{}: the {} pawn on {} has no forward path to promotion",
                    d.variant,
                    player_name(p.owner),
                    p.cell
                ));
            }
            let n = d.immobile_drops().len();
            if n > 0 {
                out.push(format!(
                    "{}: {n} drops land where the piece can never move",
                    d.variant
                ));
            }
        }
        out
    }

    /// Whether every variant whose family can say is exchange-symmetric.
    pub fn symmetric(&self) -> bool {
        self.variants
            .iter()
            .all(|v| v.exchange_symmetric != Some(false))
    }
}

/// The geometry table of every (flat-chart) board of a library.
pub fn board_rows(lib: &Library) -> Result<Vec<BoardRow>, DraftError> {
    let mut out = Vec::new();
    for name in lib.board_names() {
        let geo = lib.geometry(name)?;
        let inv = crate::topology::mesh::invariants(geo.board());
        out.push(BoardRow {
            board: name.to_string(),
            faces: inv.faces,
            edges: inv.edges,
            vertices: inv.vertices,
            euler: inv.euler,
            orientable: inv.orientable,
            cone_points: inv.cone_points,
            surface: inv.surface,
            bishop_reach: crate::movement::move_facts(geo).bishop_reach,
        });
    }
    Ok(out)
}

fn player_name(p: crate::rules::Player) -> &'static str {
    match p {
        crate::rules::Player::First => "first",
        crate::rules::Player::Second => "second",
    }
}

/// The derived facts of every tetrahedral board of a library.
pub fn solid_rows(lib: &Library) -> Vec<SolidRow> {
    lib.solid_names()
        .filter_map(|name| lib.solid(name))
        .map(|t| SolidRow {
            board: t.name().to_string(),
            shape: "tetrahedron".into(),
            side: t.side(),
            facts: t.facts(),
        })
        .collect()
}

/// The designer facts of every variant that gathers them, with bishop
/// colours judged on the board of `lib` the variant is played on.
pub fn design_rows(lib: &Library, variants: &[&dyn Variant]) -> Vec<DesignRow> {
    variants
        .iter()
        .filter_map(|v| {
            let facts = v.design_facts()?;
            let board = facts
                .board
                .as_deref()
                .and_then(|b| lib.geometry(b).ok())
                .map(|g| g.board());
            Some(DesignRow {
                variant: v.name().to_string(),
                bishops: crate::design::BishopColours::new(board, &facts.bishops),
                pawns: facts.pawns,
                drops: facts.drops,
            })
        })
        .collect()
}

/// The opening audit (see [`crate::audit`]) of every variant's initial
/// position, to `plies` plies.
pub fn audit_rows(
    variants: &[&dyn Variant],
    plies: u32,
) -> Result<Vec<crate::audit::Report>, DraftError> {
    if plies == 0 || plies > crate::audit::MAX_PLIES {
        return Err(DraftError::Plies {
            plies,
            max: crate::audit::MAX_PLIES,
        });
    }
    let at = crate::variant::At {
        position: None,
        moves: &[],
    };
    variants
        .iter()
        .map(|v| {
            v.audit(&at, plies).map_err(|e| DraftError::Audit {
                variant: v.name().to_string(),
                message: e.to_string(),
            })
        })
        .collect()
}

/// Runs every applicable corpus case against the spec of `lib` and
/// `variants` (the reference engine built on them) and lists the cases
/// whose expectation it does not reproduce.
pub fn run_corpus(lib: &Library, variants: &[&dyn Variant], corpus: &Corpus) -> CorpusRun {
    let mut engine = Embedded::new(Reference::new(lib, variants.to_vec()));
    let hello = engine.hello().clone();
    let (cases, not_applicable) = runner::select(corpus, &Selection::default(), &hello);
    let mut run = CorpusRun {
        not_applicable,
        ..CorpusRun::default()
    };
    for (file, case) in cases.iter().map(|e| (&e.0, &e.1)) {
        run.checked += 1;
        let outcome = runner::check_case(&mut engine, case, variants);
        let (old, new, detail) = match &outcome {
            Outcome::Pass => continue,
            Outcome::Unsupported(_) => {
                run.unsupported += 1;
                continue;
            }
            Outcome::Fail {
                expected,
                actual,
                detail,
                ..
            } => (expected.clone(), actual.clone(), detail.clone()),
            Outcome::Error { message, .. } | Outcome::NotRun(message) => (
                serde_json::to_string(&check_expect(case)).unwrap_or_default(),
                format!("error: {message}"),
                message.clone(),
            ),
        };
        run.changes.push(Change {
            id: case.id.clone(),
            file: file.clone(),
            title: case.title.clone(),
            subject: subject_label(case),
            clauses: case.clauses.clone(),
            outcome: outcome.kind().name().to_string(),
            old,
            new,
            detail,
        });
    }
    run
}

fn check_expect(case: &Case) -> serde_json::Value {
    serde_json::to_value(&case.check)
        .ok()
        .and_then(|v| v.get("expect").cloned())
        .unwrap_or_default()
}

fn subject_label(case: &Case) -> String {
    match case.check.subject() {
        Subject::Board(b) => format!("board:{b}"),
        Subject::BoardFile => crate::conformance::runner::BOARD_FILES.into(),
        Subject::Variant(v) => format!("variant:{v}"),
    }
}

/// The plies of the opening audit `seams spec check` runs by default.
pub const DEFAULT_AUDIT_PLIES: u32 = 2;

/// `seams spec check` with the default audit depth.
pub fn check(dir: &Path, corpus: &Corpus) -> Result<(Draft, CheckReport), DraftError> {
    check_with(dir, corpus, DEFAULT_AUDIT_PLIES)
}

/// `seams spec check`: loads the draft and reports its geometry, the
/// exchange symmetry of every initial position, bishop colours, pawn
/// paths, immobile drops, the opening audit of every setup to
/// `audit_plies`, and every corpus case whose expectation would change.
pub fn check_with(
    dir: &Path,
    corpus: &Corpus,
    audit_plies: u32,
) -> Result<(Draft, CheckReport), DraftError> {
    let draft = Draft::load(dir)?;
    let boards = board_rows(&draft.lib)?;
    let variants = draft
        .variants
        .iter()
        .map(|v| SymmetryRow {
            variant: v.name().to_string(),
            rules: v.rules_version().to_string(),
            exchange_symmetric: v.start_exchange_symmetric(),
        })
        .collect();
    let refs = draft.variant_refs();
    let design = design_rows(&draft.lib, &refs);
    let audits = audit_rows(&refs, audit_plies)?;
    let run = run_corpus(&draft.lib, &refs, corpus);
    let report = CheckReport {
        spec: dir.display().to_string(),
        boards,
        solids: solid_rows(&draft.lib),
        variants,
        design,
        audits,
        corpus: run,
    };
    Ok((draft, report))
}

/// `seams spec gate`: the corpus against the built-in spec, or against a
/// spec folder when one is given.
pub fn gate(spec: Option<&Path>, corpus: &Corpus) -> Result<CorpusRun, DraftError> {
    match spec {
        None => {
            let variants: Vec<&dyn Variant> = crate::registry::variants()
                .iter()
                .map(|v| v.as_ref())
                .collect();
            Ok(run_corpus(Library::builtin(), &variants, corpus))
        }
        Some(dir) => {
            let draft = Draft::load(dir)?;
            Ok(run_corpus(&draft.lib, &draft.variant_refs(), corpus))
        }
    }
}

/// What `--accept` wrote.
#[derive(Clone, Debug, Default, Serialize, PartialEq, Eq)]
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

/// What [`write_into`] changed in the target spec folder.
#[derive(Clone, Debug, Default, Serialize, PartialEq, Eq)]
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

/// Makes the spec folder `into` hold the draft in `draft_dir`: every
/// folder the draft has (`boards/`, `geometry/`, family folders) gets the
/// draft's `.toml` and `.md` files, and loses the `.toml` data files the
/// draft no longer has; folders the draft lacks are left alone. The draft
/// is loaded (every board and variant built) and `into` must already be a
/// spec folder before anything is written; each file is replaced
/// atomically, and the written folder must load again afterwards.
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
