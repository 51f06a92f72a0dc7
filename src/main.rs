//! The `seams` command line.
//!
//! All error printing and exit codes live here, in one place: 0 success,
//! 1 a check found a mismatch, 2 a usage or input error. The library returns
//! typed errors; this binary wraps them with `anyhow` context.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::{Context, Result, bail};
use clap::{Parser, Subcommand};

use std::collections::HashSet;
use std::io::{BufRead, IsTerminal, Write};
use std::time::Duration;

use indicatif::{ProgressBar, ProgressStyle};
use seams::conformance::engine::{Embedded, Engine, Process, split_command};
use seams::conformance::expectations::{self, Expectations};
use seams::conformance::reference::Reference;
use seams::conformance::report::Report;
use seams::conformance::runner::{self, Selection};
use seams::conformance::version::Version;
use seams::conformance::{self, Corpus, Tier, bisect, html, schema};
use seams::geometry::Geometry;
use seams::movement::{Facing, Pattern};
use seams::mutants::{self, MutantKind};
use seams::spec::Library;
use seams::topology::{CellId, mesh};
use seams::variant::{self, At, Record, RecordVerdict};

/// Reference implementation and conformance suite for chess and shogi on
/// boards that are not flat planes: Möbius strips, Klein bottles and a
/// genus-two surface.
///
/// Boards are data files in spec/boards/; every number `seams geometry`
/// prints is computed from their gluing.
#[derive(Parser)]
#[command(name = "seams", version, propagate_version = true)]
struct Cli {
    /// Load rules data from this spec folder instead of the built-in one
    /// (for trying an edited copy).
    #[arg(long, global = true, value_name = "DIR")]
    spec: Option<PathBuf>,
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// List the boards the spec defines.
    Boards {
        /// Print JSON instead of text.
        #[arg(long)]
        json: bool,
    },
    /// Print a board's surface invariants, all computed from its gluing:
    /// V, E, F, χ, vertex links, boundary, orientability, cone points,
    /// colouring, diagonal components, bishop reach and file orbits.
    ///
    /// Without a board name, every board is printed.
    ///
    /// Example: seams geometry genus2-9x9 --json
    Geometry {
        /// A board name from `seams boards`.
        board: Option<String>,
        /// Print JSON instead of text.
        #[arg(long)]
        json: bool,
    },
    /// List where a move shape lands from one cell on the empty board, with
    /// the transport each route ends with.
    ///
    /// Routes to one cell that end with different transports are listed
    /// separately: on a Möbius or Klein board they leave a piece with
    /// different facings.
    ///
    /// Example: seams rays klein-9x18 --from i18 --pattern king --facing up
    Rays {
        /// A board name from `seams boards`.
        board: String,
        /// The departure cell, e.g. `e5` or `I:d4` on genus two.
        #[arg(long)]
        from: String,
        /// orthogonal (rook rays), diagonal (bishop rays), knight (L,S,L
        /// words) or king (one step each way).
        #[arg(long)]
        pattern: String,
        /// Report the facing each route leaves a piece with: up or down.
        #[arg(long)]
        facing: Option<String>,
        /// Cells to treat as occupied, comma-separated: rays stop on them.
        #[arg(long, value_delimiter = ',')]
        occupied: Vec<String>,
        /// Print JSON instead of text.
        #[arg(long)]
        json: bool,
    },
    /// List the variants and their rules versions.
    Variants {
        /// Print JSON instead of text.
        #[arg(long)]
        json: bool,
    },
    /// Print the legal actions of a position, one per line, sorted.
    ///
    /// Example: seams moves shogi-klein --moves e6-e7
    Moves {
        /// A variant name from `seams variants`.
        variant: String,
        #[command(flatten)]
        at: PositionArgs,
        /// Analysis mode (families that have one): list the actions of this
        /// army, `first` or `second`, whoever is to move. The result is an
        /// experiment, not the legal moves of a scored game.
        #[arg(long, value_name = "ARMY")]
        analysis: Option<String>,
        /// With --analysis: do not filter out actions that leave the army's
        /// own king attacked. Every other rule still applies.
        #[arg(long, requires = "analysis")]
        no_king_safety: bool,
        /// Print JSON instead of text.
        #[arg(long)]
        json: bool,
    },
    /// Count the leaves of the legal-action tree at a depth (perft).
    ///
    /// Game-end rules are ignored, as is conventional; distinct facings and
    /// promotion choices are distinct actions. The count is the last line.
    ///
    /// Example: seams perft shogi-flat 3 --divide
    Perft {
        /// A variant name from `seams variants`.
        variant: String,
        /// How many plies deep.
        depth: u32,
        #[command(flatten)]
        at: PositionArgs,
        /// Also print the count below each legal action.
        #[arg(long)]
        divide: bool,
        /// Print JSON instead of text.
        #[arg(long)]
        json: bool,
    },
    /// Play actions as a game and print the position, check and result.
    ///
    /// `resign` and `draw` (an agreed draw) are recorded actions.
    ///
    /// Example: seams play chess-mobius --moves e2-e4,e8-e6
    Play {
        /// A variant name from `seams variants`.
        variant: String,
        #[command(flatten)]
        at: PositionArgs,
        /// Print JSON instead of text.
        #[arg(long)]
        json: bool,
    },
    /// Draw a position as an SVG picture: the board with its seams, cone
    /// points and promotion zones, the pieces (owner, kind, promotion,
    /// facing where a seam can reverse it) and the hands, with a legend.
    ///
    /// With --moves-from, the legal destinations of the piece on that cell
    /// are marked; a destination reached with two different facings shows
    /// both. The picture goes to stdout unless --out names a file, which is
    /// replaced atomically.
    ///
    /// Example: seams render shogi-klein --moves e6-e7,e13-e12 --moves-from e7 --out klein.svg
    Render {
        /// A variant name from `seams variants`.
        variant: String,
        #[command(flatten)]
        at: PositionArgs,
        /// Mark the legal destinations of the piece on this cell.
        #[arg(long, value_name = "CELL")]
        moves_from: Option<String>,
        /// Write the SVG to this file instead of stdout.
        #[arg(long, value_name = "FILE.svg")]
        out: Option<PathBuf>,
    },
    /// The opening audit of a position: checks and forced mates within N
    /// plies, king shield lines (through seams and wraps), attacked pieces.
    ///
    /// Checks are the action sequences of at most N plies whose last action
    /// gives check; forced mates are first actions of the side to move that
    /// mate in k ≤ ⌈N/2⌉ of its moves against every defence. Shield lines
    /// and attacked pieces are reported for every family.
    ///
    /// Example: seams audit chess-mobius --plies 3
    Audit {
        /// A variant name from `seams variants`.
        variant: String,
        #[command(flatten)]
        at: PositionArgs,
        /// How many plies to search for checks and mates (1 to 4).
        #[arg(long, default_value_t = 2, value_name = "N")]
        plies: u32,
        /// Print JSON instead of text.
        #[arg(long)]
        json: bool,
    },
    /// Measure perft speed: nodes, seconds and nodes per second for every
    /// variant (or one), from its start position.
    ///
    /// Speed is measured here, never in tests. Build with --release.
    ///
    /// Example: cargo run --release -- bench --variant chess-flat --depth 5
    Bench {
        /// Only this variant.
        #[arg(long)]
        variant: Option<String>,
        /// The depth (default: 5 for chess-flat and kyoto, 3 for the
        /// tetrahedral variants, 4 otherwise).
        #[arg(long)]
        depth: Option<u32>,
        /// Print JSON instead of text.
        #[arg(long)]
        json: bool,
    },
    /// Work with JSON game records.
    Record {
        #[command(subcommand)]
        command: RecordCommand,
    },
    /// The rules spec: clause coverage, checking a draft (and accepting it as
    /// a new rules version), and the gate on released versions.
    Spec {
        #[command(subcommand)]
        command: SpecCommand,
    },
    /// Check an engine (default: the reference) against the corpus.
    ///
    /// Each case is asked over the engine protocol (conformance/README.md)
    /// and its outcome is pass, fail (with expected and actual, and for
    /// action sets the missing and extra actions), unsupported, or an error:
    /// crash, timeout, malformed, wrong-id or engine-error. A crashed or hung
    /// engine is restarted and the run goes on.
    ///
    /// Exit status: 0 when every result matches the expectations file (without
    /// one: nothing fails or errors; unsupported is fine), 1 on a new failure,
    /// a changed failure kind or a listed case that now passes, 2 on a usage
    /// or input error.
    ///
    /// Examples:
    ///   seams conform
    ///   seams conform --case 'geometry/klein-*' --format markdown
    ///   seams conform --engine "python3 tools/example-engine/engine.py"
    ///   seams conform --engine "./my-engine --protocol" --expect known.json
    ///   seams conform --engine "./my-engine" --baseline known.json
    ///   seams conform --engine "seams engine --mutant knight-lls"
    ///   seams conform --engine "./my-engine" --format html --out report.html
    #[command(verbatim_doc_comment)]
    Conform(ConformArgs),
    /// Serve the reference engine over the engine protocol on stdio.
    ///
    /// JSON lines on stdin and stdout; see conformance/README.md.
    ///
    /// Examples:
    ///   echo '{"id":0,"cmd":"hello","protocol":1}' | seams engine
    ///   seams engine --mutant seam-keeps-facing     # a deliberately wrong engine
    ///   seams conform --engine "seams engine --mutant cone-diagonals"
    #[command(verbatim_doc_comment)]
    Engine {
        /// Serve a deliberately wrong engine (see `seams mutants`).
        #[arg(long, value_name = "NAME")]
        mutant: Option<String>,
        /// Misbehave on purpose, to test runners: crash (exit without
        /// replying), hang (never reply), garbage (reply with a non-JSON
        /// line), wrong-id (reply with another id), wrong-shape (an `ok`
        /// reply whose fields have the wrong shape) or bad-hello (a hello
        /// reply without its fields).
        #[arg(long, value_enum, value_name = "KIND")]
        fault: Option<Fault>,
        /// Only misbehave on geometry questions of this check kind (e.g.
        /// `walk`); by default on every request after hello.
        #[arg(long, value_name = "CHECK", requires = "fault")]
        fault_on: Option<String>,
    },
    /// List the mutants `seams engine --mutant` serves.
    Mutants,
    /// Work with corpus files.
    Corpus {
        #[command(subcommand)]
        command: CorpusCommand,
    },
    /// Print, write or check the JSON Schemas generated from the types.
    ///
    /// The schemas cover the case format, the engine protocol and the
    /// expectations file (conformance/schema/).
    ///
    /// Examples:
    ///   seams schema --write      # regenerate conformance/schema/*.json
    ///   seams schema --check      # exit 1 if the checked-in files drifted
    #[command(verbatim_doc_comment)]
    Schema {
        /// Write the files into --dir.
        #[arg(long, conflicts_with = "check")]
        write: bool,
        /// Compare the files in --dir with the types; exit 1 on drift.
        #[arg(long)]
        check: bool,
        /// The schema folder.
        #[arg(long, value_name = "DIR", default_value = "conformance/schema")]
        dir: PathBuf,
    },
    /// Find the first position where an engine's perft disagrees.
    ///
    /// Compares perft divide counts with the reference, walks down to the
    /// first position whose legal actions differ, prints the missing and
    /// extra actions there, and writes that position out as a corpus case
    /// (provenance `reference`, marked for review).
    ///
    /// Example:
    ///   seams bisect --engine "./my-engine" --variant shogi-klein --depth 4 --out found.json
    #[command(verbatim_doc_comment)]
    Bisect {
        /// The engine command line.
        #[arg(long, value_name = "CMD")]
        engine: String,
        /// A variant name from `seams variants`.
        #[arg(long, value_name = "V")]
        variant: String,
        #[command(flatten)]
        at: PositionArgs,
        /// How many plies deep to compare.
        #[arg(long, value_name = "D")]
        depth: u32,
        /// Write the culprit position as a corpus case file here.
        #[arg(long, value_name = "FILE")]
        out: Option<PathBuf>,
        /// Time limit for each reply, in milliseconds.
        #[arg(long, value_name = "T", default_value_t = 300_000)]
        timeout_ms: u64,
    },
}

#[derive(Copy, Clone, PartialEq, Eq, clap::ValueEnum)]
enum TierArg {
    Quick,
    Full,
}

#[derive(Copy, Clone, PartialEq, Eq, clap::ValueEnum)]
enum Format {
    Text,
    Json,
    Junit,
    Markdown,
    /// One self-contained page with a picture of every failing position.
    Html,
}

#[derive(Copy, Clone, PartialEq, Eq, clap::ValueEnum)]
enum Fault {
    Crash,
    Hang,
    Garbage,
    WrongId,
    /// Reply `ok` with fields of the wrong shape.
    WrongShape,
    /// Answer hello without the fields a hello reply has.
    BadHello,
}

#[derive(Subcommand)]
enum CorpusCommand {
    /// Rewrite every case id under DIR to `slug#hash` after editing cases
    /// (each file is replaced atomically; nothing is written if any file
    /// is invalid).
    ///
    /// Example: seams corpus rehash conformance/cases
    Rehash {
        /// The corpus folder.
        #[arg(default_value = "conformance/cases")]
        dir: PathBuf,
    },
}

/// Where a question is asked: a start position and moves played from it.
#[derive(clap::Args)]
struct PositionArgs {
    /// The start position as text, or a file holding it (default: the
    /// variant's initial position).
    #[arg(long, value_name = "TEXT|FILE")]
    position: Option<String>,
    /// Actions to play first, comma-separated, in canonical notation.
    #[arg(long, value_delimiter = ',', value_name = "M1,M2,…")]
    moves: Vec<String>,
}

impl PositionArgs {
    /// Resolves `--position`: a path to an existing file is read.
    fn position_text(&self) -> Result<Option<String>> {
        match &self.position {
            None => Ok(None),
            Some(p) if std::path::Path::new(p).is_file() => {
                let text = std::fs::read_to_string(p)
                    .with_context(|| format!("reading the position file {p}"))?;
                Ok(Some(text.trim().to_string()))
            }
            Some(p) => Ok(Some(p.clone())),
        }
    }
}

#[derive(Subcommand)]
enum SpecCommand {
    /// List every clause of spec/*/rules.md with the corpus cases that cite
    /// it, by provenance. Exit status 1 when a clause has no case or a case
    /// cites a clause that does not exist.
    ///
    /// Example: seams spec coverage --uncovered
    Coverage {
        /// Read cases from this folder instead of the built-in corpus.
        #[arg(long, value_name = "DIR")]
        corpus: Option<PathBuf>,
        /// Only list clauses without cases.
        #[arg(long)]
        uncovered: bool,
        /// Print JSON instead of text.
        #[arg(long)]
        json: bool,
    },
    /// Check a rules draft (an edited copy of spec/) without writing
    /// anything: load errors, each board's derived geometry (the
    /// tetrahedron's facts too), whether each initial position is
    /// exchange-symmetric under Φ, each player's bishops by colour class
    /// where the board has an alternating colouring (GEO-I2; otherwise the
    /// odd cycle through a seam that forbids one), initial pawns without a
    /// forward path to promotion on the empty board, drops allowed onto
    /// cells where the piece could never move, the opening audit of every
    /// setup (--plies), and every corpus case whose expected answer the
    /// draft would change (old → new, with its clauses). Exit status 0 when
    /// no case changes, 1 when some case changes, 2 when the draft cannot
    /// be loaded; the designer findings do not change it.
    ///
    /// With --accept --version X.Y --corpus DIR the draft becomes rules
    /// version X.Y: the data files of every family with a changed case get
    /// rules-version X.Y (written into the draft folder), changed cases are
    /// narrowed to "<X.Y" and copied with the draft's answers as new
    /// `reference` cases marked NEEDS REVIEW, changed board-geometry cases
    /// are rewritten in place, ids are rehashed and each family's rules.md
    /// gets a changelog entry. Nothing is written unless everything can
    /// be; each file is replaced atomically. With --into SPEC_DIR the
    /// accepted draft is then written into that spec folder (normally the
    /// project's spec/; never implied): every folder the draft has is made
    /// equal to the draft's.
    ///
    /// Example: cp -r spec draft && $EDITOR draft/boards/klein-9x18.toml &&
    /// seams spec check draft
    ///
    /// Example: seams spec check draft --accept --version 0.3 --corpus conformance/cases
    ///
    /// Example: seams spec check draft --accept --version 0.3 --corpus conformance/cases --into spec
    Check {
        /// The draft spec folder (boards/ plus family folders; a missing
        /// family folder means the built-in one).
        dir: PathBuf,
        /// Read cases from this folder instead of the built-in corpus (and,
        /// with --accept, rewrite them there).
        #[arg(long, value_name = "DIR")]
        corpus: Option<PathBuf>,
        /// Turn the draft into a new rules version (needs --version and
        /// --corpus).
        #[arg(long, requires = "version")]
        accept: bool,
        /// The new rules version for --accept, such as 0.3.
        #[arg(long, value_name = "X.Y")]
        version: Option<String>,
        /// With --accept, also write the accepted spec into this spec
        /// folder (normally the project's spec/): boards/ and every family
        /// folder the draft holds are made equal to the draft's.
        #[arg(long, value_name = "SPEC_DIR", requires = "accept")]
        into: Option<PathBuf>,
        /// Plies of the opening audit run on every setup (1 to 4).
        #[arg(long, default_value_t = seams::draft::DEFAULT_AUDIT_PLIES)]
        plies: u32,
        /// Print JSON instead of text.
        #[arg(long)]
        json: bool,
    },
    /// The CI gate: every case of every released rules version must be
    /// reproduced by the current code and spec (cases whose `rules` range
    /// excludes a variant's current version do not apply). Exit status 1
    /// when some case changes.
    ///
    /// Example: seams spec gate
    ///
    /// Example: seams --spec draft spec gate --corpus draft-cases
    Gate {
        /// Read cases from this folder instead of the built-in corpus.
        #[arg(long, value_name = "DIR")]
        corpus: Option<PathBuf>,
        /// Print JSON instead of text.
        #[arg(long)]
        json: bool,
    },
}

#[derive(Subcommand)]
enum RecordCommand {
    /// Replay a record and check every action, the result and the final
    /// position. Exit status 0 when accepted, 1 when rejected.
    ///
    /// Example: seams record verify game.json
    Verify {
        /// The record file (JSON).
        file: PathBuf,
        /// Print JSON instead of text.
        #[arg(long)]
        json: bool,
    },
}

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => {
            // clap prints help and version to stdout with success; usage
            // errors go to stderr with our input-error status.
            let _ = e.print();
            return if e.use_stderr() {
                ExitCode::from(2)
            } else {
                ExitCode::SUCCESS
            };
        }
    };
    match run(cli) {
        Ok(code) => code,
        Err(e) => {
            eprintln!("seams: error: {e:#}");
            ExitCode::from(2)
        }
    }
}

fn library(cli_spec: &Option<PathBuf>) -> Result<&'static Library> {
    match cli_spec {
        None => Ok(Library::builtin()),
        Some(dir) => {
            let lib = Library::from_dir(dir)
                .with_context(|| format!("loading the spec folder {}", dir.display()))?;
            Ok(Box::leak(Box::new(lib)))
        }
    }
}

fn run(cli: Cli) -> Result<ExitCode> {
    let lib = library(&cli.spec)?;
    match cli.command {
        Command::Boards { json } => {
            let mut rows: Vec<serde_json::Value> = lib
                .board_names()
                .map(|n| {
                    let g = lib.geometry(n).expect("listed boards exist");
                    serde_json::json!({
                        "name": n,
                        "title": g.board().title(),
                        "cells": g.board().cell_count(),
                        "file": lib.source(n),
                    })
                })
                .collect();
            rows.extend(lib.solid_names().map(|n| {
                let t = lib.solid(n).expect("listed solids exist");
                serde_json::json!({
                    "name": n,
                    "title": t.title(),
                    "cells": t.cell_count(),
                    "file": lib.source(n),
                })
            }));
            if json {
                println!("{}", serde_json::to_string_pretty(&rows)?);
            } else {
                for r in rows {
                    println!(
                        "{:<14} {:>4} cells  {}",
                        r["name"].as_str().unwrap_or_default(),
                        r["cells"],
                        r["title"].as_str().unwrap_or_default()
                    );
                }
            }
            Ok(ExitCode::SUCCESS)
        }
        Command::Geometry { board, json } => {
            let names: Vec<String> = match board {
                Some(b) => {
                    if lib.solid(&b).is_none() {
                        lib.geometry(&b)?;
                    }
                    vec![b]
                }
                None => lib
                    .board_names()
                    .chain(lib.solid_names())
                    .map(String::from)
                    .collect(),
            };
            let mut reports = Vec::new();
            for n in &names {
                reports.push(match lib.solid(n) {
                    Some(t) => solid_report(t),
                    None => geometry_report(lib.geometry(n)?),
                });
            }
            if json {
                let v = if reports.len() == 1 {
                    reports.remove(0)
                } else {
                    serde_json::Value::Array(reports)
                };
                println!("{}", serde_json::to_string_pretty(&v)?);
            } else {
                for (i, r) in reports.iter().enumerate() {
                    if i > 0 {
                        println!();
                    }
                    if r["shape"] == "tetrahedron" {
                        print!("{}", solid_text(r));
                    } else {
                        print!("{}", geometry_text(r));
                    }
                }
            }
            Ok(ExitCode::SUCCESS)
        }
        Command::Rays {
            board,
            from,
            pattern,
            facing,
            occupied,
            json,
        } => {
            let Some(pattern) = Pattern::parse(&pattern) else {
                bail!("unknown pattern '{pattern}' (use orthogonal, diagonal, knight or king)");
            };
            if let Some(t) = lib.solid(&board) {
                return solid_rays(t, &from, pattern, &occupied, json);
            }
            let geo = lib.geometry(&board)?;
            let b = geo.board();
            let start = b.parse_cell(&from)?;
            let facing = match facing {
                None => None,
                Some(f) => Some(
                    Facing::parse(&f)
                        .with_context(|| format!("unknown facing '{f}' (use up or down)"))?,
                ),
            };
            let blocked: Vec<CellId> = occupied
                .iter()
                .map(|c| b.parse_cell(c))
                .collect::<Result<_, _>>()?;
            let landings = pattern.reach(geo, start, &|c| blocked.contains(&c));
            let rows: Vec<serde_json::Value> = landings
                .iter()
                .map(|l| {
                    let mut v = serde_json::json!({
                        "cell": b.cell_name(l.cell),
                        "transport": l.transport.name(),
                    });
                    if let Some(f) = facing {
                        v["facing"] = serde_json::json!(f.transported(l.transport));
                    }
                    v
                })
                .collect();
            if json {
                println!("{}", serde_json::to_string_pretty(&rows)?);
            } else {
                for r in &rows {
                    let mut line = format!(
                        "{:<8} {}",
                        r["cell"].as_str().unwrap_or_default(),
                        r["transport"].as_str().unwrap_or_default()
                    );
                    if let Some(f) = r.get("facing").and_then(|f| f.as_str()) {
                        line.push_str(&format!("  facing {f}"));
                    }
                    println!("{line}");
                }
                println!("{} destinations", rows.len());
            }
            Ok(ExitCode::SUCCESS)
        }
        Command::Variants { json } => {
            let rows: Vec<serde_json::Value> = variant::registry()
                .iter()
                .map(|v| serde_json::json!({"name": v.name(), "rules": v.rules_version()}))
                .collect();
            if json {
                println!("{}", serde_json::to_string_pretty(&rows)?);
            } else {
                for r in rows {
                    println!(
                        "{:<14} rules {}",
                        r["name"].as_str().unwrap_or_default(),
                        r["rules"].as_str().unwrap_or_default()
                    );
                }
            }
            Ok(ExitCode::SUCCESS)
        }
        Command::Moves {
            variant,
            at,
            analysis,
            no_king_safety,
            json,
        } => {
            let v = variant::find(&variant)?;
            let position = at.position_text()?;
            let place = At {
                position: position.as_deref(),
                moves: &at.moves,
            };
            let actions = match &analysis {
                None => v.legal_actions(&place)?,
                Some(army) => {
                    let mover = match army.as_str() {
                        "first" => seams::rules::Player::First,
                        "second" => seams::rules::Player::Second,
                        other => bail!("unknown army '{other}' (use first or second)"),
                    };
                    let Some(found) = v.analysis_actions(&place, mover, !no_king_safety)? else {
                        bail!("{variant} has no analysis mode");
                    };
                    // Said on stderr so that stdout stays one action a line.
                    eprintln!(
                        "analysis mode ({army} army{}): experiments, not legal moves of a scored game",
                        if no_king_safety {
                            ", king safety off"
                        } else {
                            ""
                        }
                    );
                    found
                }
            };
            if json {
                println!("{}", serde_json::to_string_pretty(&actions)?);
            } else {
                for a in &actions {
                    println!("{a}");
                }
            }
            Ok(ExitCode::SUCCESS)
        }
        Command::Perft {
            variant,
            depth,
            at,
            divide,
            json,
        } => {
            let v = variant::find(&variant)?;
            let position = at.position_text()?;
            let place = At {
                position: position.as_deref(),
                moves: &at.moves,
            };
            let rows = if divide {
                Some(v.divide(&place, depth)?)
            } else {
                None
            };
            let total = match &rows {
                Some(r) if depth > 0 => r.iter().map(|(_, n)| n).sum(),
                _ => v.perft(&place, depth)?,
            };
            if json {
                let mut out =
                    serde_json::json!({"variant": variant, "depth": depth, "nodes": total});
                if let Some(r) = &rows {
                    out["divide"] = serde_json::json!(
                        r.iter()
                            .cloned()
                            .collect::<std::collections::BTreeMap<_, _>>()
                    );
                }
                println!("{}", serde_json::to_string_pretty(&out)?);
            } else {
                for (a, n) in rows.iter().flatten() {
                    println!("{a} {n}");
                }
                println!("{total}");
            }
            Ok(ExitCode::SUCCESS)
        }
        Command::Render {
            variant,
            at,
            moves_from,
            out,
        } => {
            let v = variant::find(&variant)?;
            let position = at.position_text()?;
            let place = At {
                position: position.as_deref(),
                moves: &at.moves,
            };
            let marks = match &moves_from {
                None => seams::render::Marks::default(),
                Some(cell) => seams::render::moves_from(v, &place, cell)?,
            };
            let svg = seams::render::render_svg(v, &place, &marks)?;
            match &out {
                None => std::io::stdout()
                    .lock()
                    .write_all(svg.as_bytes())
                    .context("writing the picture to stdout")?,
                Some(path) => conformance::write_atomically(path, &svg)
                    .with_context(|| format!("writing the picture {}", path.display()))?,
            }
            Ok(ExitCode::SUCCESS)
        }
        Command::Play { variant, at, json } => {
            let v = variant::find(&variant)?;
            let position = at.position_text()?;
            let played = v.play(&At {
                position: position.as_deref(),
                moves: &at.moves,
            })?;
            if json {
                println!("{}", serde_json::to_string_pretty(&played)?);
            } else {
                println!("position {}", played.position);
                println!("to move  {:?}", played.to_move);
                println!("check    {}", if played.in_check { "yes" } else { "no" });
                match played.result {
                    None => println!("result   none (the game goes on)"),
                    Some(r) => println!(
                        "result   {} by {}",
                        match r.winner {
                            None => "draw".to_string(),
                            Some(p) => format!("{p:?} player wins"),
                        },
                        serde_json::to_value(r.reason)?.as_str().unwrap_or_default()
                    ),
                }
            }
            Ok(ExitCode::SUCCESS)
        }
        Command::Audit {
            variant,
            at,
            plies,
            json,
        } => {
            let position = at.position_text()?;
            let report = seams::audit::audit_variant(
                &variant,
                &At {
                    position: position.as_deref(),
                    moves: &at.moves,
                },
                plies,
            )?;
            if json {
                println!("{}", serde_json::to_string_pretty(&report)?);
            } else {
                print_audit(&report);
            }
            Ok(ExitCode::SUCCESS)
        }
        Command::Bench {
            variant: only,
            depth,
            json,
        } => {
            let chosen: Vec<&dyn variant::Variant> = match &only {
                Some(name) => vec![variant::find(name)?],
                None => variant::registry().iter().map(|v| v.as_ref()).collect(),
            };
            let mut rows = Vec::new();
            for v in chosen {
                let d = depth.unwrap_or(match v.name() {
                    "chess-flat" | "kyoto" | "kyoto-repetition-loss" => 5,
                    n if n.starts_with("tetra-") => 3,
                    _ => 4,
                });
                let at = At::default();
                let started = std::time::Instant::now();
                let nodes = v.perft(&at, d)?;
                let seconds = started.elapsed().as_secs_f64();
                let rate = if seconds > 0.0 {
                    nodes as f64 / seconds
                } else {
                    0.0
                };
                if !json {
                    println!(
                        "{:<22} depth {d}  {nodes:>12} nodes  {seconds:>8.3} s  {:>8.2} Mnodes/s",
                        v.name(),
                        rate / 1e6
                    );
                }
                rows.push(serde_json::json!({
                    "variant": v.name(), "depth": d, "nodes": nodes,
                    "seconds": seconds, "nodes_per_second": rate,
                }));
            }
            if json {
                println!("{}", serde_json::to_string_pretty(&rows)?);
            }
            Ok(ExitCode::SUCCESS)
        }
        Command::Record {
            command: RecordCommand::Verify { file, json },
        } => {
            let text = std::fs::read_to_string(&file)
                .with_context(|| format!("reading the record {}", file.display()))?;
            let record: Record = serde_json::from_str(&text).map_err(|e| {
                anyhow::anyhow!(
                    "{}: line {} column {}: {e}",
                    file.display(),
                    e.line(),
                    e.column()
                )
            })?;
            let v = variant::find(&record.variant)?;
            let verdict = v.verify_record(&record);
            if json {
                println!("{}", serde_json::to_string_pretty(&verdict)?);
            } else {
                match &verdict {
                    RecordVerdict::Accepted { result, plies } => println!(
                        "accepted: {plies} plies, result {}",
                        serde_json::to_string(result)?
                    ),
                    RecordVerdict::Rejected { ply, message, .. } => {
                        println!("rejected at ply {ply}: {message}")
                    }
                }
            }
            Ok(match verdict {
                RecordVerdict::Accepted { .. } => ExitCode::SUCCESS,
                RecordVerdict::Rejected { .. } => ExitCode::from(1),
            })
        }
        Command::Spec {
            command:
                SpecCommand::Coverage {
                    corpus,
                    uncovered,
                    json,
                },
        } => {
            let corpus = match &corpus {
                None => Corpus::builtin()?,
                Some(dir) => Corpus::from_dir(dir)?,
            };
            let cov =
                seams::conformance::coverage::coverage(&seams::spec::builtin_clauses(), &corpus);
            if json {
                println!("{}", serde_json::to_string_pretty(&cov)?);
            } else {
                println!(
                    "{:<10} {:>5} {:>9} {:>7} {:>11} {:>9}  file",
                    "clause", "seed", "published", "derived", "cross-check", "reference"
                );
                for r in &cov.rows {
                    if uncovered && !r.cases.is_empty() {
                        continue;
                    }
                    let n = |k: &str| r.cases.get(k).map_or(0, Vec::len);
                    println!(
                        "{:<10} {:>5} {:>9} {:>7} {:>11} {:>9}  {}{}",
                        r.clause,
                        n("seed"),
                        n("published"),
                        n("derived"),
                        n("cross-check"),
                        n("reference"),
                        r.file,
                        if r.cases.is_empty() {
                            "  UNCOVERED"
                        } else {
                            ""
                        }
                    );
                }
                for (case, clause) in &cov.unknown {
                    println!("case {case} cites {clause}, which no spec defines");
                }
                let missing = cov.uncovered().count();
                println!(
                    "{} clauses, {} covered, {} uncovered, {} unknown citations",
                    cov.rows.len(),
                    cov.rows.len() - missing,
                    missing,
                    cov.unknown.len()
                );
            }
            Ok(if cov.complete() {
                ExitCode::SUCCESS
            } else {
                ExitCode::from(1)
            })
        }
        Command::Spec {
            command:
                SpecCommand::Check {
                    dir,
                    corpus,
                    accept,
                    version,
                    into,
                    plies,
                    json,
                },
        } => spec_check(
            &dir,
            &SpecCheckOptions {
                corpus_dir: corpus.as_deref(),
                accept,
                version: version.as_deref(),
                into: into.as_deref(),
                plies,
                json,
            },
        ),
        Command::Spec {
            command: SpecCommand::Gate { corpus, json },
        } => spec_gate(cli.spec.as_deref(), corpus.as_deref(), json),
        Command::Conform(args) => conform(lib, args),
        Command::Engine {
            mutant,
            fault,
            fault_on,
        } => serve_engine(lib, mutant, fault, fault_on),
        Command::Mutants => {
            for m in mutants::all() {
                println!("{:<20} {}", m.name, m.description);
            }
            Ok(ExitCode::SUCCESS)
        }
        Command::Corpus {
            command: CorpusCommand::Rehash { dir },
        } => {
            let changed = conformance::rehash_dir(&dir)
                .with_context(|| format!("rehashing the corpus in {}", dir.display()))?;
            for (file, old, new) in &changed {
                println!("{file}: {old} -> {new}");
            }
            println!("{} id(s) rewritten", changed.len());
            Ok(ExitCode::SUCCESS)
        }
        Command::Schema { write, check, dir } => {
            if write {
                let names = schema::write(&dir)
                    .with_context(|| format!("writing the schemas into {}", dir.display()))?;
                for n in names {
                    println!("wrote {}", dir.join(n).display());
                }
                Ok(ExitCode::SUCCESS)
            } else if check {
                let drift = schema::drift(&dir);
                if drift.is_empty() {
                    println!("the schemas in {} match the types", dir.display());
                    Ok(ExitCode::SUCCESS)
                } else {
                    println!(
                        "out of date in {}: {} (run `seams schema --write`)",
                        dir.display(),
                        drift.join(", ")
                    );
                    Ok(ExitCode::from(1))
                }
            } else {
                let all: serde_json::Map<String, serde_json::Value> = schema::all()
                    .into_iter()
                    .map(|(n, v)| (n.to_string(), v))
                    .collect();
                println!("{}", serde_json::to_string_pretty(&all)?);
                Ok(ExitCode::SUCCESS)
            }
        }
        Command::Bisect {
            engine,
            variant,
            at,
            depth,
            out,
            timeout_ms,
        } => {
            if depth == 0 {
                bail!("--depth 0 has nothing to compare; use a depth of 1 or more");
            }
            let reference = variant::find(&variant)?;
            let position = at.position_text()?;
            let mut engine = start_engine(&engine, timeout_ms)?;
            let found = bisect::bisect(
                &mut engine,
                reference,
                position.as_deref(),
                at.moves.clone(),
                depth,
            )?;
            match found {
                bisect::Bisection::Agree { nodes } => {
                    println!("the engine agrees with the reference: perft({depth}) = {nodes}");
                    Ok(ExitCode::SUCCESS)
                }
                bisect::Bisection::Inconsistent { moves, detail } => {
                    println!("after moves [{}]: {detail}", moves.join(","));
                    Ok(ExitCode::from(1))
                }
                bisect::Bisection::Found {
                    moves,
                    missing,
                    extra,
                    reference_actions,
                } => {
                    println!(
                        "first disagreement after moves [{}]{}",
                        moves.join(","),
                        position
                            .as_deref()
                            .map(|p| format!(" from position {p}"))
                            .unwrap_or_default()
                    );
                    println!("missing (the reference has them): {}", missing.join(" "));
                    println!("extra (only the engine has them): {}", extra.join(" "));
                    if let Some(path) = out {
                        let file = bisect::culprit_case(
                            &variant,
                            position.as_deref(),
                            &moves,
                            &reference_actions,
                        );
                        let mut text = serde_json::to_string_pretty(&file)?;
                        text.push('\n');
                        conformance::write_atomically(&path, &text)
                            .with_context(|| format!("writing the case to {}", path.display()))?;
                        println!(
                            "wrote {} (provenance 'reference', marked for review)",
                            path.display()
                        );
                    }
                    Ok(ExitCode::from(1))
                }
            }
        }
    }
}

fn solid_report(t: &seams::topology::tetra::TetraBoard) -> serde_json::Value {
    let mut v = serde_json::to_value(t.facts()).expect("facts serialize");
    v["board"] = serde_json::json!(t.name());
    v["title"] = serde_json::json!(t.title());
    v["shape"] = serde_json::json!("tetrahedron");
    v["side"] = serde_json::json!(t.side());
    v
}

fn solid_text(r: &serde_json::Value) -> String {
    use std::fmt::Write;
    let mut s = String::new();
    let _ = writeln!(
        s,
        "{} — {}",
        r["board"].as_str().unwrap_or_default(),
        r["title"].as_str().unwrap_or_default()
    );
    let hist = |v: &serde_json::Value| -> String {
        let mut rows: Vec<(u64, String)> = v
            .as_object()
            .map(|m| {
                m.iter()
                    .map(|(k, n)| (k.parse().unwrap_or(0), format!("{k} cells from {n}")))
                    .collect()
            })
            .unwrap_or_default();
        rows.sort_by_key(|r| std::cmp::Reverse(r.0));
        rows.into_iter().map(|r| r.1).collect::<Vec<_>>().join(", ")
    };
    let ranks: Vec<String> = r["rank_sizes"]
        .as_array()
        .map(|a| a.iter().map(|x| x.to_string()).collect())
        .unwrap_or_default();
    let bindings: Vec<String> = r["bindings"]
        .as_array()
        .map(|a| {
            a.iter()
                .map(|b| {
                    format!(
                        "{} ({} ranks)",
                        b["cells"],
                        if b["odd_ranks"] == true {
                            "odd"
                        } else {
                            "even"
                        }
                    )
                })
                .collect()
        })
        .unwrap_or_default();
    let _ = writeln!(s, "  {:<22} {}", "cells", r["cells"]);
    let _ = writeln!(s, "  {:<22} {}", "rank sizes", ranks.join(", "));
    let _ = writeln!(s, "  {:<22} {}", "rook reach", hist(&r["rook_reach"]));
    let _ = writeln!(s, "  {:<22} {}", "bishop reach", hist(&r["bishop_reach"]));
    let _ = writeln!(s, "  {:<22} {}", "bishop bindings", bindings.join(", "));
    let _ = writeln!(
        s,
        "  {:<22} {}",
        "gold directions", r["gold_open_directions"]
    );
    let _ = writeln!(
        s,
        "  {:<22} {}",
        "silver directions", r["silver_open_directions"]
    );
    s
}

fn solid_rays(
    t: &seams::topology::tetra::TetraBoard,
    from: &str,
    pattern: Pattern,
    occupied: &[String],
    json: bool,
) -> Result<ExitCode> {
    use seams::topology::tetra::TDir;
    let start = t.parse_cell(from)?;
    let blocked: Vec<CellId> = occupied
        .iter()
        .map(|c| t.parse_cell(c))
        .collect::<Result<_, _>>()?;
    let occ = |c: CellId| blocked.contains(&c);
    let cells = match pattern {
        Pattern::Orthogonal => t.reach(start, TDir::orthogonals(), true, &occ),
        Pattern::Diagonal => t.reach(start, TDir::diagonals(), true, &occ),
        Pattern::King => t.reach(start, TDir::all(), false, &occ),
        Pattern::Knight => bail!("the tetrahedral board has no knight pattern"),
    };
    let names: Vec<String> = cells.iter().map(|&c| t.cell_name(c)).collect();
    if json {
        let rows: Vec<serde_json::Value> = names
            .iter()
            .map(|n| serde_json::json!({"cell": n, "transport": "identity"}))
            .collect();
        println!("{}", serde_json::to_string_pretty(&rows)?);
    } else {
        for n in &names {
            println!("{n}");
        }
        println!("{} destinations", names.len());
    }
    Ok(ExitCode::SUCCESS)
}

/// The options of `seams conform`.
#[derive(clap::Args)]
struct ConformArgs {
    /// The engine command line, split like a shell would (quotes group
    /// words). `seams` as the program means this same binary. Default:
    /// the reference engine, in process.
    #[arg(long, value_name = "CMD")]
    engine: Option<String>,
    /// Only cases about this variant.
    #[arg(long, value_name = "V")]
    variant: Option<String>,
    /// Judge each case's `rules` range against this version instead of
    /// the version the engine declares.
    #[arg(long, value_name = "R")]
    rules: Option<String>,
    /// Only cases whose id matches this glob (`*`, `?`) or, without glob
    /// characters, contains this text.
    #[arg(long = "case", value_name = "GLOB")]
    case: Option<String>,
    /// quick: skip cases above the node budget; full: every case.
    #[arg(long, value_enum, default_value = "full")]
    tier: TierArg,
    /// The engine's expectations file (known failures).
    #[arg(long, value_name = "FILE")]
    expect: Option<PathBuf>,
    /// Write an expectations file describing this run (atomically) and
    /// exit 0. Notes from --expect are kept where a failure is unchanged.
    #[arg(long, value_name = "FILE")]
    baseline: Option<PathBuf>,
    /// Report format: text, json, junit, markdown, or html (a page that
    /// draws each failing position with the expected and actual
    /// answers marked).
    #[arg(long, value_enum, default_value = "text")]
    format: Format,
    /// Write the report to this file (atomically) instead of stdout.
    #[arg(long, value_name = "FILE")]
    out: Option<PathBuf>,
    /// Time limit for each reply, in milliseconds.
    #[arg(long, value_name = "T", default_value_t = 30_000)]
    timeout_ms: u64,
    /// Read cases from this folder instead of the built-in corpus.
    #[arg(long, value_name = "DIR")]
    corpus: Option<PathBuf>,
    /// Also list unsupported cases in the text report.
    #[arg(long)]
    verbose: bool,
}

/// Starts an outside engine; `seams` as the program means this binary.
fn start_engine(command: &str, timeout_ms: u64) -> Result<Process> {
    if timeout_ms == 0 {
        bail!("--timeout-ms must be at least 1");
    }
    let mut argv = split_command(command)?;
    if argv[0] == "seams" {
        argv[0] = std::env::current_exe()
            .context("finding this binary to run `seams` as the engine")?
            .display()
            .to_string();
    }
    Ok(Process::start(argv, Duration::from_millis(timeout_ms))?)
}

fn conform(lib: &'static Library, a: ConformArgs) -> Result<ExitCode> {
    if let Some(path) = &a.out {
        // Refuse a report path that cannot be written before the run, not
        // after minutes of cases.
        check_writable_parent(path).context("--out")?;
    }
    let corpus = match &a.corpus {
        None => Corpus::builtin()?,
        Some(dir) => Corpus::from_dir(dir)
            .with_context(|| format!("loading the corpus folder {}", dir.display()))?,
    };
    let rules = match &a.rules {
        None => None,
        Some(r) => Some(Version::parse(r).map_err(|e| anyhow::anyhow!("--rules: {e}"))?),
    };
    let ids: HashSet<&str> = corpus.cases.iter().map(|(_, c)| c.id.as_str()).collect();
    let expectations = match &a.expect {
        None => None,
        Some(p) => Some(Expectations::load(p, &ids)?),
    };
    let normalizers: Vec<&dyn variant::Variant> =
        variant::registry().iter().map(|v| v.as_ref()).collect();
    let mut engine: Box<dyn Engine> = match &a.engine {
        None => Box::new(Embedded::new(Reference::new(lib, normalizers.clone()))),
        Some(cmd) => Box::new(start_engine(cmd, a.timeout_ms)?),
    };
    let selection = Selection {
        tier: Some(match a.tier {
            TierArg::Quick => Tier::Quick,
            TierArg::Full => Tier::Full,
        }),
        variant: a.variant.clone(),
        rules,
        case: a.case.clone(),
    };
    let hello = engine.hello().clone();
    let (cases, not_applicable) = runner::select(&corpus, &selection, &hello);
    if cases.is_empty() && not_applicable == 0 {
        bail!(
            "no case in the corpus matches{}{}",
            a.case
                .as_deref()
                .map(|c| format!(" --case '{c}'"))
                .unwrap_or_default(),
            a.variant
                .as_deref()
                .map(|v| format!(" --variant '{v}'"))
                .unwrap_or_default()
        );
    }
    let progress = if std::io::stderr().is_terminal() {
        let bar = ProgressBar::new(cases.len() as u64);
        bar.set_style(
            ProgressStyle::with_template("{bar:40} {pos}/{len} {msg}")
                .unwrap_or_else(|_| ProgressStyle::default_bar()),
        );
        Some(bar)
    } else {
        None
    };
    let results = runner::run(engine.as_mut(), &cases, &normalizers, &mut |r| {
        if let Some(bar) = &progress {
            bar.set_message(r.id.clone());
            bar.inc(1);
        }
    });
    if let Some(bar) = progress {
        bar.finish_and_clear();
    }
    drop(engine);
    let verdicts = expectations
        .as_ref()
        .map(|e| expectations::judge(&results, e));
    let report = Report {
        engine: &hello,
        results: &results,
        verdicts: verdicts.as_deref(),
        not_applicable,
    };
    if let Some(path) = &a.baseline {
        let label = a.engine.clone().unwrap_or_else(|| "seams reference".into());
        let file = expectations::baseline(&results, expectations.as_ref(), &label);
        let mut text = serde_json::to_string_pretty(&file)?;
        text.push('\n');
        conformance::write_atomically(path, &text)
            .with_context(|| format!("writing the baseline {}", path.display()))?;
        eprintln!(
            "wrote {} known failure(s) to {}",
            file.known.len(),
            path.display()
        );
    }
    let out = match a.format {
        Format::Text => report.text(a.verbose),
        Format::Json => {
            let mut s = serde_json::to_string_pretty(&report.json())?;
            s.push('\n');
            s
        }
        Format::Junit => report.junit().context("writing the JUnit report")?,
        Format::Markdown => report.markdown(),
        Format::Html => {
            let figures: Vec<Option<html::Figure>> = cases
                .iter()
                .zip(&results)
                .map(|((_, case), r)| html::figure(case, &r.outcome, &normalizers))
                .collect();
            report.html(&figures)
        }
    };
    match &a.out {
        None => print!("{out}"),
        Some(path) => {
            conformance::write_atomically(path, &out)
                .with_context(|| format!("writing the report {}", path.display()))?;
            eprintln!("wrote the report to {}", path.display());
        }
    }
    Ok(if a.baseline.is_some() || report.mismatches() == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}

/// `seams engine`: the reference (or a mutant, or a faulty one) on stdio.
fn serve_engine(
    lib: &'static Library,
    mutant: Option<String>,
    fault: Option<Fault>,
    fault_on: Option<String>,
) -> Result<ExitCode> {
    let mut variants: Vec<&'static dyn variant::Variant> =
        variant::registry().iter().map(|v| v.as_ref()).collect();
    let mut lib = lib;
    let mut name = "seams-reference".to_string();
    if let Some(m) = &mutant {
        let m = mutants::find(m)?;
        name = format!("seams-mutant-{}", m.name);
        match m.kind {
            MutantKind::Geometry(g) => {
                // The broken rule reaches the rules too: every variant is
                // rebuilt on the mutated boards, so perft sees it.
                lib = Box::leak(Box::new(lib.mutated(g)));
                let made: &'static [Box<dyn variant::Variant>] = Box::leak(
                    variant::build_all(lib)
                        .map_err(|e| anyhow::anyhow!("building the mutant's variants: {e}"))?
                        .into_boxed_slice(),
                );
                variants = made.iter().map(|v| v.as_ref()).collect();
            }
            MutantKind::Variants(make) => {
                let made: &'static [Box<dyn variant::Variant>] =
                    Box::leak(make().into_boxed_slice());
                variants = made.iter().map(|v| v.as_ref()).collect();
            }
        }
    }
    if let Some(f) = &fault_on {
        let known = [
            "invariants",
            "walk",
            "reach",
            "forbidden-diagonals",
            "bishop-reach",
            "diagonal-components",
            "file-orbits",
        ];
        if !known.contains(&f.as_str()) {
            bail!(
                "--fault-on '{f}' is not a geometry check kind (use one of {})",
                known.join(", ")
            );
        }
    }
    let reference = Reference::new(lib, variants).named(name);
    let stdin = std::io::stdin().lock();
    let mut stdout = std::io::stdout().lock();
    for line in stdin.lines() {
        let line = line.context("reading a request")?;
        if line.trim().is_empty() {
            continue;
        }
        if let Some(f) = fault {
            let req: Option<serde_json::Value> = serde_json::from_str(&line).ok();
            let cmd = req.as_ref().and_then(|r| r["cmd"].as_str()).unwrap_or("");
            let kind = req
                .as_ref()
                .and_then(|r| r["question"]["kind"].as_str())
                .unwrap_or("");
            let hit = if f == Fault::BadHello {
                cmd == "hello"
            } else {
                cmd != "hello" && fault_on.as_deref().is_none_or(|k| k == kind)
            };
            if hit {
                let id = req.as_ref().and_then(|r| r["id"].as_u64()).unwrap_or(0);
                match f {
                    Fault::Crash => {
                        eprintln!("seams engine: crashing on purpose (--fault crash)");
                        return Ok(ExitCode::from(3));
                    }
                    Fault::Hang => loop {
                        std::thread::sleep(Duration::from_secs(3600));
                    },
                    Fault::Garbage => {
                        writeln!(stdout, "this is not JSON {{")?;
                        stdout.flush()?;
                        continue;
                    }
                    Fault::WrongShape => {
                        let reply = serde_json::json!({"id": id, "ok": true, "answer": 42, "actions": 42, "nodes": "many"});
                        writeln!(stdout, "{reply}")?;
                        stdout.flush()?;
                        continue;
                    }
                    Fault::BadHello => {
                        writeln!(stdout, "{}", serde_json::json!({"id": id, "ok": true}))?;
                        stdout.flush()?;
                        continue;
                    }
                    Fault::WrongId => {
                        let mut reply = reference.handle_line(&line);
                        reply["id"] = serde_json::json!(id + 1000);
                        writeln!(stdout, "{reply}")?;
                        stdout.flush()?;
                        continue;
                    }
                }
            }
        }
        let reply = reference.handle_line(&line);
        writeln!(stdout, "{reply}")?;
        stdout.flush()?;
    }
    Ok(ExitCode::SUCCESS)
}

fn geometry_report(geo: &Geometry) -> serde_json::Value {
    let inv = mesh::invariants(geo.board());
    let facts = geo.move_facts();
    let mut v = serde_json::to_value(&inv).expect("invariants serialize");
    v["board"] = serde_json::json!(geo.board().name());
    v["title"] = serde_json::json!(geo.board().title());
    v["cells"] = serde_json::json!(geo.board().cell_count());
    v["forbidden_diagonals"] = serde_json::json!(facts.forbidden_diagonals);
    v["diagonal_components"] = serde_json::json!(facts.diagonal_components);
    v["bishop_reach"] = serde_json::json!(facts.bishop_reach);
    v["file_orbits"] = serde_json::json!(facts.file_orbits);
    v
}

fn geometry_text(r: &serde_json::Value) -> String {
    use std::fmt::Write;
    let mut s = String::new();
    let yes = |b: &serde_json::Value| {
        if b.as_bool() == Some(true) {
            "yes"
        } else {
            "no"
        }
    };
    let _ = writeln!(
        s,
        "{} — {}",
        r["board"].as_str().unwrap_or_default(),
        r["title"].as_str().unwrap_or_default()
    );
    let row = |s: &mut String, k: &str, v: String| {
        let _ = writeln!(s, "  {k:<22} {v}");
    };
    row(
        &mut s,
        "surface",
        r["surface"].as_str().unwrap_or_default().to_string(),
    );
    row(&mut s, "faces F", r["faces"].to_string());
    row(&mut s, "edges E", r["edges"].to_string());
    row(&mut s, "vertices V", r["vertices"].to_string());
    row(&mut s, "Euler characteristic", r["euler"].to_string());
    row(&mut s, "orientable", yes(&r["orientable"]).into());
    row(
        &mut s,
        "boundary",
        format!(
            "{} component(s), {} edges",
            r["boundary_components"], r["boundary_edges"]
        ),
    );
    let corners: Vec<String> = r["circle_corners"]
        .as_object()
        .map(|m| {
            m.iter()
                .map(|(k, v)| format!("{v} with {k} corners"))
                .collect()
        })
        .unwrap_or_default();
    row(
        &mut s,
        "vertex links",
        format!(
            "{} circles ({}), {} intervals",
            r["link_circles"],
            corners.join(", "),
            r["link_intervals"]
        ),
    );
    let cones: Vec<String> = r["cones"]
        .as_array()
        .map(|a| {
            a.iter()
                .map(|c| {
                    let at: Vec<&str> = c["at"]
                        .as_array()
                        .map(|x| x.iter().filter_map(|y| y.as_str()).collect())
                        .unwrap_or_default();
                    format!("{} corners at {}", c["corners"], at.join(" "))
                })
                .collect()
        })
        .unwrap_or_default();
    row(
        &mut s,
        "cone points",
        if cones.is_empty() {
            "none".into()
        } else {
            format!("{}", r["cone_points"])
        },
    );
    for c in cones {
        let _ = writeln!(s, "  {:<22}   {c}", "");
    }
    row(
        &mut s,
        "alternating colouring",
        yes(&r["alternating_colouring"]).into(),
    );
    let comps: Vec<String> = r["diagonal_components"]
        .as_array()
        .map(|a| a.iter().map(|x| x.to_string()).collect())
        .unwrap_or_default();
    row(&mut s, "diagonal components", comps.join(", "));
    let mut reach: Vec<(u64, String)> = r["bishop_reach"]
        .as_object()
        .map(|m| {
            m.iter()
                .map(|(k, v)| (k.parse().unwrap_or(0), format!("{k} cells from {v}")))
                .collect()
        })
        .unwrap_or_default();
    reach.sort_by_key(|r| std::cmp::Reverse(r.0));
    let reach: Vec<String> = reach.into_iter().map(|(_, s)| s).collect();
    row(&mut s, "bishop reach", reach.join(", "));
    let forbidden: Vec<&str> = r["forbidden_diagonals"]
        .as_array()
        .map(|a| a.iter().filter_map(|x| x.as_str()).collect())
        .unwrap_or_default();
    row(
        &mut s,
        "forbidden diagonals",
        if forbidden.is_empty() {
            "none".into()
        } else {
            format!("{}: {}", forbidden.len(), forbidden.join(", "))
        },
    );
    let orbits = r["file_orbits"].as_array().cloned().unwrap_or_default();
    let mut summary: std::collections::BTreeMap<String, usize> = Default::default();
    for o in &orbits {
        let kind = if o["closed"].as_bool() == Some(true) {
            "cycles"
        } else {
            "paths"
        };
        *summary
            .entry(format!("{kind} of {}", o["cells"]))
            .or_default() += 1;
    }
    let files: Vec<String> = summary.iter().map(|(k, v)| format!("{v} {k}")).collect();
    row(&mut s, "files (north orbits)", files.join(", "));
    s
}

fn load_corpus(dir: Option<&std::path::Path>) -> Result<Corpus> {
    Ok(match dir {
        None => Corpus::builtin()?,
        Some(d) => Corpus::from_dir(d)
            .with_context(|| format!("loading the corpus folder {}", d.display()))?,
    })
}

fn print_changes(run: &seams::draft::CorpusRun) {
    println!(
        "corpus: {} cases checked, {} not applicable (rules range), {} unsupported, {} changed",
        run.checked,
        run.not_applicable,
        run.unsupported,
        run.changes.len()
    );
    for c in &run.changes {
        println!("  {}  [{}]", c.id, c.clauses.join(", "));
        let one = |t: &str| t.split_whitespace().collect::<Vec<_>>().join(" ");
        println!("    {} → {}", one(&c.old), one(&c.new));
        if !c.detail.is_empty() {
            println!("    {}", one(&c.detail));
        }
    }
}

/// The flags of `seams spec check`.
struct SpecCheckOptions<'a> {
    corpus_dir: Option<&'a std::path::Path>,
    accept: bool,
    version: Option<&'a str>,
    into: Option<&'a std::path::Path>,
    plies: u32,
    json: bool,
}

fn spec_check(dir: &std::path::Path, o: &SpecCheckOptions) -> Result<ExitCode> {
    let (accept, version, corpus_dir, json) = (o.accept, o.version, o.corpus_dir, o.json);
    if accept && corpus_dir.is_none() {
        bail!("--accept rewrites corpus files: give the corpus folder with --corpus DIR");
    }
    if o.plies == 0 || o.plies > seams::audit::MAX_PLIES {
        bail!(
            "--plies must be between 1 and {}, not {}",
            seams::audit::MAX_PLIES,
            o.plies
        );
    }
    if let Some(into) = o.into {
        // Refused before --accept writes the draft or the corpus.
        seams::draft::check_into(dir, into)?;
    }
    let corpus = load_corpus(corpus_dir)?;
    let (draft, report) = seams::draft::check_with(dir, &corpus, o.plies)
        .with_context(|| format!("loading the draft spec folder {}", dir.display()))?;
    let accepted = match (accept, version, corpus_dir) {
        (true, Some(v), Some(cd)) => Some(
            seams::draft::accept(&draft, &report, cd, v)
                .with_context(|| format!("accepting {} as rules {v}", dir.display()))?,
        ),
        _ => None,
    };
    let released = match (&accepted, o.into) {
        (Some(_), Some(into)) => Some(
            seams::draft::write_into(dir, into)
                .with_context(|| format!("writing the accepted draft into {}", into.display()))?,
        ),
        _ => None,
    };
    if json {
        let mut v = serde_json::to_value(&report)?;
        v["design_findings"] = serde_json::to_value(report.design_findings())?;
        if let Some(a) = &accepted {
            v["accepted"] = serde_json::to_value(a)?;
        }
        if let Some(r) = &released {
            v["released"] = serde_json::to_value(r)?;
        }
        println!("{}", serde_json::to_string_pretty(&v)?);
    } else {
        println!("spec check: {}", report.spec);
        print_geometry_rows(&report);
        println!("initial positions under Φ:");
        for v in &report.variants {
            println!(
                "  {:<24} {:<6} {}",
                v.variant,
                v.rules,
                match v.exchange_symmetric {
                    Some(true) => "exchange-symmetric",
                    Some(false) => "NOT exchange-symmetric",
                    None => "(the family cannot say)",
                }
            );
        }
        print_design(&report);
        print_audits(&report);
        print_changes(&report.corpus);
        if let Some(a) = accepted
            .as_ref()
            .filter(|a| a.narrowed.is_empty() && a.rewritten.is_empty() && a.removed.is_empty())
        {
            println!(
                "nothing to accept as rules {}: no case changes; nothing written",
                a.version
            );
        } else if let Some(a) = &accepted {
            println!("accepted as rules {}:", a.version);
            for f in &a.data_files {
                println!("  rules-version {} in {f}", a.version);
            }
            for f in &a.changelogs {
                println!("  changelog entry in {f}");
            }
            println!(
                "  {} cases narrowed to <{}, {} new cases (NEEDS REVIEW), {} board cases rewritten \
                 (NEEDS REVIEW), {} board cases removed (cells no longer on the board)",
                a.narrowed.len(),
                a.version,
                a.added.len(),
                a.rewritten.len(),
                a.removed.len()
            );
            for id in &a.removed {
                println!("  removed {id}");
            }
        }
        if let Some(r) = &released {
            println!(
                "written into {}: {} files written, {} data files removed",
                r.into,
                r.written.len(),
                r.removed.len()
            );
            for f in &r.written {
                println!("  wrote {f}");
            }
            for f in &r.removed {
                println!("  removed {f}");
            }
        }
    }
    Ok(if accepted.is_some() || report.corpus.changes.is_empty() {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}

fn print_geometry_rows(report: &seams::draft::CheckReport) {
    println!("boards:");
    println!(
        "  {:<14} {:>5} {:>5} {:>5} {:>3} {:<15} {:>5}  bishop reach (destinations: cells)",
        "board", "F", "E", "V", "χ", "orientable", "cones"
    );
    let hist = |h: &std::collections::BTreeMap<usize, usize>| {
        h.iter()
            .map(|(k, n)| format!("{k}: {n}"))
            .collect::<Vec<_>>()
            .join(", ")
    };
    for b in &report.boards {
        println!(
            "  {:<14} {:>5} {:>5} {:>5} {:>3} {:<15} {:>5}  {}",
            b.board,
            b.faces,
            b.edges,
            b.vertices,
            b.euler,
            if b.orientable {
                "orientable"
            } else {
                "non-orientable"
            },
            b.cone_points,
            hist(&b.bishop_reach)
        );
    }
    for t in &report.solids {
        let sizes: Vec<String> = t.facts.rank_sizes.iter().map(|n| n.to_string()).collect();
        let bindings: Vec<String> = t
            .facts
            .bindings
            .iter()
            .map(|b| {
                format!(
                    "{} ({} cells, {} ranks)",
                    b.parity,
                    b.cells,
                    if b.odd_ranks { "odd" } else { "even" }
                )
            })
            .collect();
        println!(
            "  {:<14} {} of side {}: {} cells; rank sizes {}",
            t.board,
            t.shape,
            t.side,
            t.facts.cells,
            sizes.join(" ")
        );
        println!(
            "    rook reach (destinations: cells) {}",
            hist(&t.facts.rook_reach)
        );
        println!(
            "    bishop reach (destinations: cells) {}",
            hist(&t.facts.bishop_reach)
        );
        println!("    bishop bindings {}", bindings.join(", "));
        println!(
            "    most open directions: gold {}, silver {}",
            t.facts.gold_open_directions, t.facts.silver_open_directions
        );
    }
}

fn print_design(report: &seams::draft::CheckReport) {
    use seams::design::{Colouring, DropFacts, PawnFacts};
    let side = |p: seams::rules::Player| format!("{p:?}").to_lowercase();
    println!("bishop colours (GEO-I2):");
    for d in &report.design {
        let what = match &d.bishops.colouring {
            Colouring::NotSquare => {
                "no square-cell colouring (see the bishop bindings above)".into()
            }
            Colouring::None {
                cycle_length,
                seam_steps,
            } => format!(
                "no colouring (odd cycle of {cycle_length} orthogonal steps through {})",
                seam_steps.join(", ")
            ),
            Colouring::Exists { .. }
                if d.bishops
                    .players
                    .iter()
                    .all(|p| p.dark.is_empty() && p.light.is_empty()) =>
            {
                "colourable; no bishops".into()
            }
            Colouring::Exists { .. } => {
                let players: Vec<String> = d
                    .bishops
                    .players
                    .iter()
                    .map(|p| {
                        format!(
                            "{} {} dark [{}] {} light [{}]{}",
                            side(p.owner),
                            p.dark.len(),
                            p.dark.join(" "),
                            p.light.len(),
                            p.light.join(" "),
                            if p.balanced { "" } else { " NOT BALANCED" }
                        )
                    })
                    .collect();
                players.join("; ")
            }
        };
        println!("  {:<24} {what}", d.variant);
    }
    println!("pawn paths to promotion on the empty board:");
    for d in &report.design {
        let what = match &d.pawns {
            PawnFacts::NotApplicable { reason } => format!("not applicable: {reason}"),
            PawnFacts::Paths { pawns } => {
                let stuck = d.stuck_pawns();
                let most = pawns.iter().filter_map(|p| p.moves).max();
                let fewest = pawns.iter().filter_map(|p| p.moves).min();
                if pawns.is_empty() {
                    "no pawns".into()
                } else if stuck.is_empty() {
                    format!(
                        "all {} pawns have a path ({}–{} moves)",
                        pawns.len(),
                        fewest.unwrap_or(0),
                        most.unwrap_or(0)
                    )
                } else {
                    let cells: Vec<String> = stuck
                        .iter()
                        .map(|p| format!("{} {}", side(p.owner), p.cell))
                        .collect();
                    format!(
                        "{} of {} pawns have NO path: {}",
                        stuck.len(),
                        pawns.len(),
                        cells.join(", ")
                    )
                }
            }
        };
        println!("  {:<24} {what}", d.variant);
    }
    println!("drops where the piece can never move:");
    for d in &report.design {
        let what = match &d.drops {
            DropFacts::NoDrops => "no drops".to_string(),
            DropFacts::Checked { rule, immobile } if immobile.is_empty() => {
                format!("none (drop restriction {rule})")
            }
            DropFacts::Checked { rule, immobile } => {
                let list: Vec<String> = immobile
                    .iter()
                    .map(|x| format!("{}*{}", x.piece, x.cell))
                    .collect();
                format!("{} allowed by {rule}: {}", immobile.len(), list.join(" "))
            }
        };
        println!("  {:<24} {what}", d.variant);
    }
    let findings = report.design_findings();
    println!("design findings: {}", findings.len());
    for f in &findings {
        println!("  {f}");
    }
}

fn print_audits(report: &seams::draft::CheckReport) {
    let Some(plies) = report.audits.first().map(|a| a.plies) else {
        return;
    };
    println!("opening audit of every setup ({plies} plies):");
    for r in &report.audits {
        let count = |x: Option<usize>| x.map_or("n/a".to_string(), |n| n.to_string());
        println!(
            "  {:<24} checks {}, forced mates {}, shield lines {}, attacked pieces {}",
            r.variant,
            r.checks.len(),
            r.mates.len(),
            count(r.shields.as_ref().map(Vec::len)),
            count(r.attacked.as_ref().map(Vec::len))
        );
        for line in &r.checks {
            println!(
                "    check: {}{}",
                line.moves.join(" "),
                if line.mate { "  checkmate" } else { "" }
            );
        }
        for m in &r.mates {
            println!("    mate in {}: {}", m.mate_in, m.line.join(" "));
        }
        for l in r.shields.iter().flatten() {
            println!(
                "    {} {}{} shield {}{} slider {}{}",
                match l.kind {
                    seams::audit::ShieldKind::Pin => "pin",
                    seams::audit::ShieldKind::Discovery => "discovery",
                },
                l.king.piece,
                l.king.cell,
                l.shield.piece,
                l.shield.cell,
                l.slider.piece,
                l.slider.cell
            );
        }
        for x in r.attacked.iter().flatten() {
            let by: Vec<String> =
                x.by.iter()
                    .map(|b| format!("{}{}", b.piece, b.cell))
                    .collect();
            println!(
                "    attacked {}{} by {}",
                x.target.piece,
                x.target.cell,
                by.join(" ")
            );
        }
    }
}

fn spec_gate(
    spec: Option<&std::path::Path>,
    corpus_dir: Option<&std::path::Path>,
    json: bool,
) -> Result<ExitCode> {
    let corpus = load_corpus(corpus_dir)?;
    let run = seams::draft::gate(spec, &corpus).with_context(|| match spec {
        Some(d) => format!("loading the spec folder {}", d.display()),
        None => "loading the built-in spec".into(),
    })?;
    if json {
        println!("{}", serde_json::to_string_pretty(&run)?);
    } else {
        print_changes(&run);
        println!(
            "gate: {}",
            if run.changes.is_empty() {
                "pass (every case of every released rules version is reproduced)"
            } else {
                "FAIL: cases of a released rules version change; accept the draft as a new version"
            }
        );
    }
    Ok(if run.changes.is_empty() {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}

fn print_audit(r: &seams::audit::Report) {
    use seams::audit::ShieldKind;
    let side = |p: seams::rules::Player| format!("{p:?}").to_lowercase();
    println!("audit    {} (rules {})", r.variant, r.rules);
    println!("position {}", r.position);
    println!("to move  {}", side(r.to_move));
    println!("plies    {}", r.plies);
    println!();
    println!("checks within {} plies: {}", r.plies, r.checks.len());
    for line in &r.checks {
        println!(
            "  {}{}",
            line.moves.join(" "),
            if line.mate { "  checkmate" } else { "" }
        );
    }
    println!();
    println!(
        "forced mates for {} within {} plies: {}",
        side(r.to_move),
        r.plies,
        r.mates.len()
    );
    for m in &r.mates {
        println!(
            "  mate in {} by {} ({} replies), e.g. {}",
            m.mate_in,
            m.first,
            m.replies,
            m.line.join(" ")
        );
    }
    println!();
    match &r.shields {
        None => println!(
            "shield lines: not available for {} (no family audit)",
            r.variant
        ),
        Some(s) => {
            println!("shield lines: {}", s.len());
            for l in s {
                println!(
                    "  {} {}{} {} shield {}{} slider {}{} route {}",
                    match l.kind {
                        ShieldKind::Pin => "pin      ",
                        ShieldKind::Discovery => "discovery",
                    },
                    l.king.piece,
                    l.king.cell,
                    l.direction,
                    l.shield.piece,
                    l.shield.cell,
                    l.slider.piece,
                    l.slider.cell,
                    l.route.join(" ")
                );
            }
        }
    }
    println!();
    match &r.attacked {
        None => println!(
            "attacked pieces: not available for {} (no family audit)",
            r.variant
        ),
        Some(a) => {
            println!("attacked pieces: {}", a.len());
            for x in a {
                let by: Vec<String> =
                    x.by.iter()
                        .map(|b| format!("{}{}", b.piece, b.cell))
                        .collect();
                println!("  {}{} by {}", x.target.piece, x.target.cell, by.join(" "));
            }
        }
    }
}

/// Fails unless `path` names a file that could be created: its folder
/// exists and it is not itself a folder. Checked before long work so that a
/// typo in an output path is reported at once.
fn check_writable_parent(path: &Path) -> Result<()> {
    if path.is_dir() {
        bail!("{} is a folder, not a file", path.display());
    }
    let parent = match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    };
    if !parent.is_dir() {
        bail!(
            "cannot write {}: the folder {} does not exist",
            path.display(),
            parent.display()
        );
    }
    Ok(())
}
