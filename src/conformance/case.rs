//! The serde types of a corpus case.
//!
//! Field names here are the JSON keys, so renaming one is a format change:
//! update `conformance/README.md` with it.

use std::collections::BTreeMap;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::movement::{Facing, Pattern};
use crate::record::{Record, RecordReason};
use crate::rules::{GameResult, IllegalReason};

/// One corpus file.
#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct CaseFile {
    /// Optional pointer to the JSON Schema, for editors.
    #[serde(rename = "$schema", default, skip_serializing_if = "Option::is_none")]
    pub schema: Option<String>,
    pub cases: Vec<Case>,
}

/// One conformance case.
#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Case {
    /// A stable id `slug#hash`: a readable slug, unique across the corpus
    /// (such as `geometry/klein-9x18/corner-diagonal`), then `#` and the
    /// first 8 hex digits of the FNV-1a 64 hash of the case's canonical JSON
    /// without the id. `seams corpus rehash` writes the hash.
    pub id: String,
    /// One sentence saying what the case shows.
    pub title: String,
    /// Spec clauses the case pins, e.g. `GEO-3.2`.
    pub clauses: Vec<String>,
    /// The rules versions the case applies to, e.g. `>=0.2` or
    /// `>=0.2,<0.3`; absent means every version.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rules: Option<String>,
    /// What an engine must support to be asked this case: the capability
    /// the check kind needs (`geometry`, `legal-actions`, `perft`, `play`,
    /// `keys`, `records`) plus any extra rule features (`drops`,
    /// `castling`, …).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub capabilities: Vec<String>,
    /// Where the expected answer comes from.
    pub provenance: Provenance,
    /// The question and its expected answer.
    pub check: Check,
}

/// Where a case's expected answer comes from.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, Eq, JsonSchema)]
#[serde(tag = "kind", rename_all = "kebab-case", deny_unknown_fields)]
pub enum Provenance {
    /// A worked example in a rules source document.
    Seed {
        /// The document, e.g. `seeds/000 (surface shogi v0.2)`.
        source: String,
        /// The section holding the example.
        section: String,
    },
    /// A published figure.
    Published { source: String },
    /// Worked by hand; the reasoning is written down.
    Derived { reasoning: String },
    /// Agreement with another named engine.
    CrossCheck { engine: String },
    /// This engine's output, reviewed by a person.
    Reference { reviewed: String },
}

/// How a case written by a tool from the reference's own answer (`seams
/// fuzz`, `seams bisect`) starts its `reference` provenance's `reviewed`
/// until a person has checked it. The shipped corpus refuses such cases
/// ([`super::Corpus::builtin`]); the schema needs no kind of its own for
/// them, and the marker is replaced by the reviewer's name and date.
pub const UNREVIEWED: &str = "NOT REVIEWED";

impl Provenance {
    /// Whether this is a tool's unreviewed answer (see [`UNREVIEWED`]).
    pub fn is_unreviewed(&self) -> bool {
        matches!(self, Provenance::Reference { reviewed } if reviewed.trim_start().starts_with(UNREVIEWED))
    }

    pub fn kind(&self) -> &'static str {
        match self {
            Provenance::Seed { .. } => "seed",
            Provenance::Published { .. } => "published",
            Provenance::Derived { .. } => "derived",
            Provenance::CrossCheck { .. } => "cross-check",
            Provenance::Reference { .. } => "reference",
        }
    }
}

/// A route's end, as printed by `seams rays` and expected by cases.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, Eq, PartialOrd, Ord, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Arrival {
    pub cell: String,
    /// `identity`, `flip-v`, `flip-h` or `half-turn`.
    pub transport: String,
    /// The facing after the route, when the question gave one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub facing: Option<Facing>,
}

/// Expected mesh invariants; only the fields present are compared.
#[derive(Clone, Debug, Default, Serialize, Deserialize, PartialEq, Eq, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct InvariantsExpect {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub faces: Option<usize>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub edges: Option<usize>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub vertices: Option<usize>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub euler: Option<i64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub orientable: Option<bool>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub boundary_components: Option<usize>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub boundary_edges: Option<usize>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub link_circles: Option<usize>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub link_intervals: Option<usize>,
    /// Circle links by corner count, keys as strings: `{"4": 158, "8": 2}`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub circle_corners: Option<BTreeMap<String, usize>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cone_points: Option<usize>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub alternating_colouring: Option<bool>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub surface: Option<String>,
}

/// One north orbit ("file") of a board.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, Eq, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct OrbitExpect {
    pub first: String,
    pub cells: usize,
    pub closed: bool,
    /// The file letters it visits, e.g. `"a"`.
    pub files: String,
    pub charts: Vec<String>,
}

/// Expected verdict on a board file.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, Eq, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct BoardFileExpect {
    pub valid: bool,
    /// For an invalid file: what kind of inconsistency.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error: Option<crate::topology::file::BoardErrorKind>,
    /// For an invalid file: the entry named, such as `north[1]`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub entry: Option<String>,
}

/// Expected legality of one action.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, Eq, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ActionExpect {
    pub legal: bool,
    /// For an illegal action: the reason code from the fixed list.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<IllegalReason>,
}

/// Expected state after playing moves as a game.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, Eq, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct PlayExpect {
    /// The position text, in the reference's canonical form; compared as
    /// written with the engine's text read and rewritten by the reference.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub position: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub in_check: Option<bool>,
    /// `null` when the game goes on.
    pub result: Option<GameResult>,
}

/// A position named by a start (default: initial) and moves played from it.
#[derive(Clone, Debug, Default, Serialize, Deserialize, PartialEq, Eq, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Place {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub position: Option<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub moves: Vec<String>,
}

/// Whether two positions' repetition keys agree.
#[derive(Copy, Clone, Debug, Serialize, Deserialize, PartialEq, Eq, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum KeyRelation {
    Equal,
    Different,
}

/// Expected verdict on a game record.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, Eq, JsonSchema)]
#[serde(tag = "verdict", rename_all = "kebab-case", deny_unknown_fields)]
pub enum RecordExpect {
    Accepted {
        result: Option<GameResult>,
    },
    Rejected {
        ply: usize,
        reason: RecordReason,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        illegal: Option<IllegalReason>,
    },
}

/// A question about the rules and its expected answer.
#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema)]
#[serde(tag = "kind", rename_all = "kebab-case", deny_unknown_fields)]
pub enum Check {
    /// The surface invariants of a board (subset comparison).
    Invariants {
        board: String,
        expect: InvariantsExpect,
    },
    /// Follow unit steps (`N`, `NE`, …) one after another, each transported
    /// by the crossings before it. `expect: null` means some step does not
    /// exist (a boundary or a forbidden diagonal).
    Walk {
        board: String,
        from: String,
        steps: Vec<String>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        facing: Option<Facing>,
        expect: Option<Arrival>,
    },
    /// The exact set of (cell, transport) a geometric pattern reaches from a
    /// cell, with the listed cells occupied (the occupied cell itself is
    /// reached; nothing beyond it).
    Reach {
        board: String,
        from: String,
        pattern: Pattern,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        facing: Option<Facing>,
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        occupied: Vec<String>,
        expect: Vec<Arrival>,
    },
    /// The exact set of diagonals the two-order rule forbids, as `cell DIR`.
    ForbiddenDiagonals { board: String, expect: Vec<String> },
    /// How many departure cells give each number of bishop destinations on
    /// the empty board, keys as strings: `{"31": 144, "16": 18}`.
    BishopReach {
        board: String,
        expect: BTreeMap<String, usize>,
    },
    /// Component sizes of diagonal moves on the empty board, largest first.
    DiagonalComponents { board: String, expect: Vec<usize> },
    /// Every north orbit of the board, in order of first cell.
    FileOrbits {
        board: String,
        expect: Vec<OrbitExpect>,
    },
    /// Derived facts of a tetrahedral board (subset comparison: only the
    /// fields present in `expect` are compared).
    SolidFacts {
        board: String,
        expect: serde_json::Map<String, serde_json::Value>,
    },
    /// Whether a board data file (TOML text) is accepted, or which entry is
    /// rejected and why.
    BoardFile {
        text: String,
        expect: BoardFileExpect,
    },
    /// The exact set of legal actions (canonical notation).
    LegalActions {
        variant: String,
        #[serde(flatten)]
        at: Place,
        expect: Vec<String>,
    },
    /// Whether one action is legal, and if not, why.
    Action {
        variant: String,
        #[serde(flatten)]
        at: Place,
        action: String,
        expect: ActionExpect,
    },
    /// The perft count at a depth, optionally with per-action counts.
    Perft {
        variant: String,
        #[serde(flatten)]
        at: Place,
        depth: u32,
        expect: u64,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        divide: Option<BTreeMap<String, u64>>,
    },
    /// The state after playing the moves as a game: position, check, result.
    Play {
        variant: String,
        #[serde(flatten)]
        at: Place,
        expect: PlayExpect,
    },
    /// Whether two positions have equal repetition keys.
    Keys {
        variant: String,
        a: Place,
        b: Place,
        expect: KeyRelation,
    },
    /// Whether a game record is accepted (with its result) or rejected at
    /// its first bad ply with a reason.
    Record {
        variant: String,
        record: Record,
        expect: RecordExpect,
    },
}

impl Check {
    /// A check's question: the check object without `expect`.
    pub fn question(&self) -> serde_json::Value {
        let mut v = serde_json::to_value(self).unwrap_or(serde_json::Value::Null);
        if let serde_json::Value::Object(map) = &mut v {
            map.remove("expect");
        }
        v
    }

    /// The check kinds asked through the protocol's `geometry` command, as
    /// the `kind` of its `question`.
    pub const GEOMETRY_KINDS: [&'static str; 9] = [
        "invariants",
        "walk",
        "reach",
        "forbidden-diagonals",
        "bishop-reach",
        "diagonal-components",
        "file-orbits",
        "solid-facts",
        "board-file",
    ];

    pub fn kind(&self) -> &'static str {
        match self {
            Check::Invariants { .. } => "invariants",
            Check::Walk { .. } => "walk",
            Check::Reach { .. } => "reach",
            Check::ForbiddenDiagonals { .. } => "forbidden-diagonals",
            Check::BishopReach { .. } => "bishop-reach",
            Check::DiagonalComponents { .. } => "diagonal-components",
            Check::FileOrbits { .. } => "file-orbits",
            Check::BoardFile { .. } => "board-file",
            Check::SolidFacts { .. } => "solid-facts",
            Check::LegalActions { .. } => "legal-actions",
            Check::Action { .. } => "action",
            Check::Perft { .. } => "perft",
            Check::Play { .. } => "play",
            Check::Keys { .. } => "keys",
            Check::Record { .. } => "record",
        }
    }

    /// What the question is about: a board (geometry) or a variant (rules).
    pub fn subject(&self) -> Subject<'_> {
        match self {
            Check::Invariants { board, .. }
            | Check::Walk { board, .. }
            | Check::Reach { board, .. }
            | Check::ForbiddenDiagonals { board, .. }
            | Check::BishopReach { board, .. }
            | Check::DiagonalComponents { board, .. }
            | Check::FileOrbits { board, .. }
            | Check::SolidFacts { board, .. } => Subject::Board(board),
            Check::BoardFile { .. } => Subject::BoardFile,
            Check::LegalActions { variant, .. }
            | Check::Action { variant, .. }
            | Check::Perft { variant, .. }
            | Check::Play { variant, .. }
            | Check::Keys { variant, .. }
            | Check::Record { variant, .. } => Subject::Variant(variant),
        }
    }
}

/// A case is about a board's geometry or about a variant's rules.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Subject<'a> {
    Board(&'a str),
    /// A board data file given inline.
    BoardFile,
    Variant(&'a str),
}

/// Perft cases whose expected node count is above this run only in the
/// `full` tier.
pub const QUICK_PERFT_NODES: u64 = 200_000;

/// How expensive a case is: `quick` cases run on every change, `full`
/// cases (large perft counts) in the complete run.
#[derive(
    Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize, JsonSchema,
)]
#[serde(rename_all = "lowercase")]
pub enum Tier {
    Quick,
    Full,
}

impl Check {
    /// The capability an engine needs to be asked this kind of question.
    pub fn capability(&self) -> &'static str {
        match self {
            Check::Invariants { .. }
            | Check::Walk { .. }
            | Check::Reach { .. }
            | Check::ForbiddenDiagonals { .. }
            | Check::BishopReach { .. }
            | Check::DiagonalComponents { .. }
            | Check::FileOrbits { .. }
            | Check::SolidFacts { .. } => "geometry",
            Check::BoardFile { .. } => "board-files",
            Check::LegalActions { .. } | Check::Action { .. } => "legal-actions",
            Check::Perft { .. } => "perft",
            Check::Play { .. } => "play",
            Check::Keys { .. } => "keys",
            Check::Record { .. } => "records",
        }
    }

    /// The board or variant name the question is about.
    pub fn subject_name(&self) -> &str {
        match self.subject() {
            Subject::Board(b) | Subject::Variant(b) => b,
            Subject::BoardFile => "",
        }
    }
}

impl Case {
    /// The readable part of the id, before `#`.
    pub fn slug(&self) -> &str {
        self.id.split_once('#').map_or(&self.id, |(s, _)| s)
    }

    /// Every capability the case needs: the check kind's and the declared.
    pub fn required_capabilities(&self) -> Vec<String> {
        let mut out = vec![self.check.capability().to_string()];
        for c in &self.capabilities {
            if !out.contains(c) {
                out.push(c.clone());
            }
        }
        out
    }

    /// `full` for perft cases above [`QUICK_PERFT_NODES`], else `quick`.
    pub fn tier(&self) -> Tier {
        match &self.check {
            Check::Perft { expect, .. } if *expect > QUICK_PERFT_NODES => Tier::Full,
            _ => Tier::Quick,
        }
    }

    /// Rules the JSON shape cannot express, except the id's hash (checked
    /// by the loader, and rewritten by `seams corpus rehash`).
    pub fn validate(&self) -> Result<(), String> {
        let slug = self.slug();
        let slug_ok = !slug.is_empty()
            && slug.split('/').all(|part| {
                !part.is_empty()
                    && part
                        .bytes()
                        .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-')
            });
        if !slug_ok {
            return Err(
                "an id is lowercase slug parts joined by '/', then '#' and a hash, such as \
                 'geometry/klein-9x18/corner-diagonal#1a2b3c4d'"
                    .into(),
            );
        }
        if self.title.trim().is_empty() {
            return Err("the title is empty".into());
        }
        if self.clauses.is_empty() {
            return Err("a case cites at least one clause".into());
        }
        if let Some(range) = &self.rules {
            super::version::Range::parse(range).map_err(|e| format!("rules: {e}"))?;
        }
        if let Check::Perft { depth, .. } = &self.check {
            crate::variant::check_perft_depth(*depth).map_err(|e| e.to_string())?;
        }
        let needed = self.check.capability();
        if !self.capabilities.iter().any(|c| c == needed) {
            return Err(format!(
                "a '{}' case lists the capability '{needed}' in 'capabilities' \
                 (`seams corpus rehash` adds it)",
                self.check.kind()
            ));
        }
        for c in &self.capabilities {
            let ok = !c.is_empty()
                && c.bytes()
                    .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-');
            if !ok {
                return Err(format!(
                    "capability '{c}' is not a name: use lowercase letters, digits and '-'"
                ));
            }
        }
        let empty = match &self.provenance {
            Provenance::Seed { source, section } => {
                source.trim().is_empty() || section.trim().is_empty()
            }
            Provenance::Published { source } => source.trim().is_empty(),
            Provenance::Derived { reasoning } => reasoning.trim().is_empty(),
            Provenance::CrossCheck { engine } => engine.trim().is_empty(),
            Provenance::Reference { reviewed } => reviewed.trim().is_empty(),
        };
        if empty {
            return Err(format!(
                "a '{}' provenance must say its source, reasoning or reviewer",
                self.provenance.kind()
            ));
        }
        Ok(())
    }
}
