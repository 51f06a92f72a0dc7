//! What `seams spec check` reports about a draft: each board's geometry,
//! the tetrahedral boards' facts, exchange symmetry, the designer rows
//! (bishop colours, pawn paths, immobile drops), each kind's movement and
//! its reach on the empty board, the opening audit and the corpus run,
//! with the findings a designer acts on. Apart from loading and
//! accepting, which only read the report.

use std::collections::BTreeMap;
use std::path::Path;

use serde::Serialize;

use crate::conformance::Corpus;
use crate::rules::Player;
use crate::spec::Library;
use crate::variant::Variant;

use super::{CorpusRun, Draft, DraftError, run_corpus};

/// The derived geometry of one board, as `seams spec check` shows it.
#[derive(Clone, Debug, Serialize, PartialEq, Eq, schemars::JsonSchema)]
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
#[derive(Clone, Debug, Serialize, PartialEq, Eq, schemars::JsonSchema)]
pub struct SolidRow {
    pub board: String,
    pub shape: String,
    pub side: u8,
    #[serde(flatten)]
    pub facts: crate::topology::tetra::TetraFacts,
}

/// The designer facts of one variant's setup and drop rules.
#[derive(Clone, Debug, Serialize, PartialEq, Eq, schemars::JsonSchema)]
pub struct DesignRow {
    pub variant: String,
    /// The players' names as the family's rules give them, for the
    /// findings' sentences.
    #[serde(skip)]
    pub players: [&'static str; 2],
    /// Each player's initial bishops by colour class (GEO-I2).
    pub bishops: crate::design::BishopColours,
    /// Each initial pawn's forward path to a promotion target.
    pub pawns: crate::rules::design_facts::PawnFacts,
    /// Drops onto cells where the piece could never move.
    pub drops: crate::rules::design_facts::DropFacts,
    /// The players' promotion zones and drop restrictions judged under Φ.
    pub mirrored: Vec<crate::design::MirrorCheck>,
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

/// Every kind of piece of one variant: its movement as the data writes it
/// and where it reaches on the empty board (MV-6), in the data file's
/// order. A movement edit shows here as the reach it changes, and a new
/// kind as a new item.
#[derive(Clone, Debug, Serialize, PartialEq, Eq, schemars::JsonSchema)]
pub struct PieceRow {
    pub variant: String,
    pub pieces: Vec<crate::rules::design_facts::PieceFacts>,
}

/// Whether a variant's initial position is exchange-symmetric.
#[derive(Clone, Debug, Serialize, PartialEq, Eq, schemars::JsonSchema)]
pub struct SymmetryRow {
    pub variant: String,
    pub rules: String,
    /// `Some(true)` when Φ(start) is the start with the other side to move;
    /// `None` when the family cannot say.
    pub exchange_symmetric: Option<bool>,
}

/// What `seams spec check` reports.
#[derive(Clone, Debug, Serialize)]
pub struct CheckReport {
    pub spec: String,
    /// What the fingerprints are compared against: a spec folder, or "the
    /// built-in spec".
    pub base: String,
    pub boards: Vec<BoardRow>,
    /// Boards without square cells (the tetrahedron), with their facts.
    pub solids: Vec<SolidRow>,
    pub variants: Vec<SymmetryRow>,
    /// Bishop colours, pawn paths and immobile drops per variant.
    pub design: Vec<DesignRow>,
    /// Each kind's movement and reach per variant.
    pub pieces: Vec<PieceRow>,
    /// The opening audit of every variant's initial position.
    pub audits: Vec<crate::audit::Report>,
    /// Each variant's fingerprint (perft of its start to depth 3, with the
    /// divide), and where it differs from the built-in spec's.
    pub fingerprints: Vec<super::Fingerprint>,
    pub fingerprint_changes: Vec<super::FingerprintChange>,
    /// The facts above compared with the base's, one entry per kind.
    pub fact_changes: Vec<super::FactDiff>,
    /// The design findings, new, gone and unchanged against the base's.
    pub findings: Findings,
    pub corpus: CorpusRun,
}

impl CheckReport {
    /// Every design finding of the draft, as one line each (see
    /// [`findings`]); [`CheckReport::findings`] sorts them against the base.
    pub fn design_findings(&self) -> Vec<String> {
        findings(&self.design, &self.variants)
    }

    /// What changed, counted: the report's first and last line.
    pub fn summary(&self) -> Summary {
        Summary {
            load_errors: 0,
            files_with_load_errors: 0,
            changed_cases: self.corpus.changes.len(),
            changed_fact_rows: self.fact_changes.iter().map(|d| d.changed_rows()).sum(),
            changed_fingerprints: self.fingerprint_changes.len(),
            fingerprints: self.fingerprints.len(),
            new_findings: self.findings.new.len(),
            gone_findings: self.findings.gone.len(),
        }
    }

    /// The draft's fingerprints equal to the base's.
    pub fn unchanged_fingerprints(&self) -> usize {
        let changed = self
            .fingerprint_changes
            .iter()
            .filter(|c| c.perft.1.is_some())
            .count();
        self.fingerprints.len().saturating_sub(changed)
    }

    /// Whether every variant whose family can say is exchange-symmetric.
    pub fn symmetric(&self) -> bool {
        self.variants
            .iter()
            .all(|v| v.exchange_symmetric != Some(false))
    }
}

/// The findings a designer acts on, one line each: a setup that is not
/// its own image under Φ, a per-player rule (promotion zone, drop
/// restriction) whose two players' cells do not mirror under Φ, bishops
/// not colour-balanced on a colourable board, an initial pawn with no
/// path to promotion, and drops onto cells where the piece can never move.
pub fn findings(design: &[DesignRow], variants: &[SymmetryRow]) -> Vec<String> {
    let mut out = Vec::new();
    for v in variants {
        if v.exchange_symmetric == Some(false) {
            out.push(format!(
                "{}: the two players' setups do not mirror under Φ (the start is not \
                 exchange-symmetric)",
                v.variant
            ));
        }
    }
    for d in design {
        for m in d.mirrored.iter().filter(|m| !m.mirrors()) {
            out.push(mirror_finding(d, m));
        }
        for p in &d.bishops.players {
            if !p.balanced {
                out.push(format!(
                    "{}: {} bishops not colour-balanced ({} dark, {} light)",
                    d.variant,
                    d.players[p.owner.index()],
                    p.dark.len(),
                    p.light.len()
                ));
            }
        }
        for p in d.stuck_pawns() {
            out.push(format!(
                "{}: the {} pawn on {} has no forward path to promotion",
                d.variant,
                d.players[p.owner.index()],
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

/// `shogi-mobius: promotion zone does not mirror under Φ: …`, naming a
/// few of the cells on each side.
fn mirror_finding(d: &DesignRow, m: &crate::design::MirrorCheck) -> String {
    let [first, second] = d.players;
    let few = |cells: &[String]| {
        const SHOWN: usize = 6;
        let mut s = cells
            .iter()
            .take(SHOWN)
            .cloned()
            .collect::<Vec<_>>()
            .join(" ");
        if cells.len() > SHOWN {
            s.push_str(&format!(" … ({} in all)", cells.len()));
        }
        s
    };
    let mut parts = Vec::new();
    if !m.first_only.is_empty() {
        parts.push(format!(
            "Φ takes {first}'s {} outside {second}'s",
            few(&m.first_only)
        ));
    }
    if !m.second_only.is_empty() {
        parts.push(format!(
            "{second}'s {} are not Φ of {first}'s",
            few(&m.second_only)
        ));
    }
    format!(
        "{}: {} does not mirror under Φ: {}",
        d.variant,
        m.rule,
        parts.join("; ")
    )
}

/// The draft's findings sorted against the base's: the new ones, the ones
/// that disappeared, and how many both have.
#[derive(Clone, Debug, Default, Serialize, PartialEq, Eq, schemars::JsonSchema)]
pub struct Findings {
    pub new: Vec<String>,
    pub gone: Vec<String>,
    pub unchanged: Vec<String>,
}

impl Findings {
    fn sort(base: Vec<String>, draft: Vec<String>) -> Findings {
        let mut f = Findings::default();
        for line in &draft {
            if base.contains(line) {
                f.unchanged.push(line.clone());
            } else {
                f.new.push(line.clone());
            }
        }
        f.gone = base.into_iter().filter(|l| !draft.contains(l)).collect();
        f
    }
}

/// The counts a report starts and ends with.
#[derive(Clone, Debug, Default, Serialize, PartialEq, Eq, schemars::JsonSchema)]
pub struct Summary {
    /// Errors that keep the draft from loading; when there are any,
    /// nothing else is compared and every other count is 0.
    pub load_errors: usize,
    pub files_with_load_errors: usize,
    pub changed_cases: usize,
    /// Rows of derived facts (boards, symmetry, designer rows, audits)
    /// that differ from the base's.
    pub changed_fact_rows: usize,
    pub changed_fingerprints: usize,
    /// How many fingerprints were compared (one per variant).
    pub fingerprints: usize,
    pub new_findings: usize,
    pub gone_findings: usize,
}

impl Summary {
    /// The counts of a draft that does not load.
    pub fn of_load_errors(errors: &[super::LoadError]) -> Summary {
        let files: std::collections::BTreeSet<&str> =
            errors.iter().map(|e| e.file.as_str()).collect();
        Summary {
            load_errors: errors.len(),
            files_with_load_errors: files.len(),
            ..Summary::default()
        }
    }

    /// Whether nothing differs from the base.
    pub fn no_changes(&self) -> bool {
        *self
            == Summary {
                fingerprints: self.fingerprints,
                ..Summary::default()
            }
    }
}

impl std::fmt::Display for Summary {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let n = |k: usize, one: &str| format!("{k} {one}{}", if k == 1 { "" } else { "s" });
        if self.load_errors > 0 {
            return write!(
                f,
                "summary: {} in {}; the draft must load before anything is compared",
                n(self.load_errors, "load error"),
                n(self.files_with_load_errors, "file"),
            );
        }
        let counts = format!(
            "0 load errors, {}, {}, {} (of {}), {}, {}",
            n(self.changed_cases, "changed case"),
            n(self.changed_fact_rows, "changed fact row"),
            n(self.changed_fingerprints, "changed fingerprint"),
            self.fingerprints,
            n(self.new_findings, "new finding"),
            n(self.gone_findings, "gone finding"),
        );
        if self.no_changes() {
            write!(f, "summary: no changes ({counts})")
        } else {
            write!(f, "summary: {counts}")
        }
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
    design_and_piece_rows(lib, variants).0
}

/// [`design_rows`] and each variant's [`PieceRow`], from one gathering of
/// the designer facts.
pub fn design_and_piece_rows(
    lib: &Library,
    variants: &[&dyn Variant],
) -> (Vec<DesignRow>, Vec<PieceRow>) {
    let mut design = Vec::new();
    let mut pieces = Vec::new();
    for v in variants {
        let Some(facts) = v.design_facts() else {
            continue;
        };
        let board = facts
            .board
            .as_deref()
            .and_then(|b| lib.geometry(b).ok())
            .map(|g| g.board());
        design.push(DesignRow {
            variant: v.name().to_string(),
            players: [v.player_name(Player::First), v.player_name(Player::Second)],
            bishops: crate::design::BishopColours::new(board, &facts.bishops),
            mirrored: board.map_or_else(Vec::new, |b| {
                crate::design::mirror_checks(b, &facts.phi, &facts.mirrored)
            }),
            pawns: facts.pawns,
            drops: facts.drops,
        });
        pieces.push(PieceRow {
            variant: v.name().to_string(),
            pieces: facts.pieces,
        });
    }
    (design, pieces)
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

/// The fingerprint of every variant (see [`super::fingerprint`]).
pub fn fingerprints(variants: &[&dyn Variant]) -> Result<Vec<super::Fingerprint>, DraftError> {
    variants
        .iter()
        .map(|v| {
            super::fingerprint(*v).map_err(|e| DraftError::Fingerprint {
                variant: v.name().to_string(),
                message: e.to_string(),
            })
        })
        .collect()
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
    let c = check_against(dir, None, corpus, audit_plies)?;
    Ok((c.draft, c.report))
}

/// A checked draft: the loaded draft, the base it was compared with
/// (`None`: the built-in spec) and the report. The pictures of the HTML
/// report draw positions of both.
pub struct Checked {
    pub draft: Draft,
    pub base: Option<Draft>,
    pub report: CheckReport,
}

impl Checked {
    /// The base's variants: the base folder's, or the built-in ones.
    pub fn base_variants(&self) -> Vec<&dyn Variant> {
        match &self.base {
            Some(b) => b.variant_refs(),
            None => crate::registry::variants()
                .iter()
                .map(|v| v.as_ref())
                .collect(),
        }
    }
}

/// [`check_with`], with the facts compared against the spec folder `base`
/// instead of the built-in spec.
pub fn check_against(
    dir: &Path,
    base: Option<&Path>,
    corpus: &Corpus,
    audit_plies: u32,
) -> Result<Checked, DraftError> {
    let draft = Draft::load(dir)?;
    let refs = draft.variant_refs();
    let facts = Facts::of(&draft.lib, &refs, audit_plies)?;
    let run = run_corpus(&draft.lib, &refs, corpus);
    // The base's facts, computed the same way.
    let base_draft = base
        .map(|dir| {
            Draft::load(dir).map_err(|error| DraftError::Base {
                dir: dir.display().to_string(),
                error: Box::new(error),
            })
        })
        .transpose()?;
    let base_facts = match &base_draft {
        None => {
            let builtin: Vec<&dyn Variant> = crate::registry::variants()
                .iter()
                .map(|v| v.as_ref())
                .collect();
            Facts::of(Library::builtin(), &builtin, audit_plies)?
        }
        Some(b) => Facts::of(&b.lib, &b.variant_refs(), audit_plies)?,
    };
    let report = CheckReport {
        spec: dir.display().to_string(),
        base: base.map_or("the built-in spec".into(), |b| b.display().to_string()),
        fact_changes: base_facts.diff(&facts),
        findings: Findings::sort(
            findings(&base_facts.design, &base_facts.variants),
            findings(&facts.design, &facts.variants),
        ),
        fingerprint_changes: super::compare(&base_facts.fingerprints, &facts.fingerprints),
        boards: facts.boards,
        solids: facts.solids,
        variants: facts.variants,
        design: facts.design,
        pieces: facts.pieces,
        audits: facts.audits,
        fingerprints: facts.fingerprints,
        corpus: run,
    };
    Ok(Checked {
        draft,
        base: base_draft,
        report,
    })
}

/// The kinds of [`CheckReport::fact_changes`] whose rows are boards (flat
/// charts, then tetrahedral ones): the HTML page draws each changed one.
pub const BOARD_FACTS: [&str; 2] = ["boards", "tetrahedral boards"];

/// The kind of [`CheckReport::fact_changes`] that compares the opening
/// audits: the HTML page draws each new line.
pub const AUDIT_FACTS: &str = "opening audits";

/// The kind of [`CheckReport::fact_changes`] that compares each kind's
/// movement and reach.
pub const PIECE_FACTS: &str = "pieces: movement and reach on the empty board";

/// Every derived fact of one spec, as `seams spec check` compares them.
struct Facts {
    boards: Vec<BoardRow>,
    solids: Vec<SolidRow>,
    variants: Vec<SymmetryRow>,
    design: Vec<DesignRow>,
    pieces: Vec<PieceRow>,
    audits: Vec<crate::audit::Report>,
    fingerprints: Vec<super::Fingerprint>,
}

impl Facts {
    fn of(lib: &Library, variants: &[&dyn Variant], audit_plies: u32) -> Result<Facts, DraftError> {
        let (design, pieces) = design_and_piece_rows(lib, variants);
        Ok(Facts {
            boards: board_rows(lib)?,
            solids: solid_rows(lib),
            variants: variants
                .iter()
                .map(|v| SymmetryRow {
                    variant: v.name().to_string(),
                    rules: v.rules_version().to_string(),
                    exchange_symmetric: v.start_exchange_symmetric(),
                })
                .collect(),
            design,
            pieces,
            audits: audit_rows(variants, audit_plies)?,
            fingerprints: fingerprints(variants)?,
        })
    }

    /// What changed from `self` (the base) to `draft`, one diff per kind.
    /// A rules version is not a fact: accepting a draft changes it on
    /// purpose.
    fn diff(&self, draft: &Facts) -> Vec<super::FactDiff> {
        use super::diff_rows;
        vec![
            diff_rows(BOARD_FACTS[0], "board", &[], &self.boards, &draft.boards),
            diff_rows(BOARD_FACTS[1], "board", &[], &self.solids, &draft.solids),
            diff_rows(
                "exchange symmetry of the starts",
                "variant",
                &["rules"],
                &self.variants,
                &draft.variants,
            ),
            diff_rows(
                "bishop colours, pawn paths and drops",
                "variant",
                &[],
                &self.design,
                &draft.design,
            ),
            diff_rows(PIECE_FACTS, "variant", &[], &self.pieces, &draft.pieces),
            diff_rows(
                AUDIT_FACTS,
                "variant",
                &["rules"],
                &self.audits,
                &draft.audits,
            ),
        ]
    }
}
