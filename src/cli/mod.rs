//! The commands of `seams`, one module per command or group of commands.
//! Each module owns its clap arguments and a `run`-like function returning
//! the exit code; `main.rs` only parses, dispatches through [`run`], and
//! turns errors into messages and exit codes.
//!
//! Every command that reads boards or rules gets them from the
//! [`Rulebook`], so `--spec DIR` reaches all of them. Everything printed to
//! stdout goes through `outln!`/`out!`/[`out::Table`], which return write
//! errors instead of panicking, so a closed pipe ends the program quietly.

#[macro_use]
mod out;
mod audit;
mod bench;
mod bisect;
mod conform;
mod corpus;
mod engine;
mod fuzz;
mod geometry;
mod limits;
mod merge;
mod play;
mod position;
mod record;
mod render;
mod rulebook;
mod rules;
mod schema;
mod serve;
mod spec;
mod spec_report;

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::{Context, Result, bail};
use clap::Subcommand;

pub use rulebook::Rulebook;

#[derive(Subcommand)]
pub enum Command {
    /// List the boards the spec defines.
    Boards(geometry::BoardsArgs),
    /// Print a board's surface invariants, all computed from its gluing:
    /// V, E, F, χ, vertex links, boundary, orientability, cone points,
    /// colouring, diagonal components, bishop reach and file orbits.
    ///
    /// Without a board name, every board is printed.
    ///
    /// Example: seams geometry genus2-9x9 --json
    Geometry(geometry::GeometryArgs),
    /// List where a move shape lands from one cell on the empty board, with
    /// the transport each route ends with.
    ///
    /// Routes to one cell that end with different transports are listed
    /// separately: on a Möbius or Klein board they leave a piece with
    /// different facings.
    ///
    /// Example: seams rays klein-9x18 --from i18 --pattern king --facing up
    Rays(geometry::RaysArgs),
    /// List the variants and their rules versions.
    Variants(rules::VariantsArgs),
    /// Print the legal actions of a position, one per line, sorted.
    ///
    /// With --analysis, the actions of either army instead, whoever is to
    /// move, optionally without the king-safety filter (every variant;
    /// experiments, not legal moves of a scored game).
    ///
    /// Example: seams moves shogi-klein --moves e6-e7
    ///
    /// Example: seams moves chess-mobius --analysis second --no-king-safety
    Moves(rules::MovesArgs),
    /// Count the leaves of the legal-action tree at a depth (perft).
    ///
    /// Game-end rules are ignored, as is conventional; distinct facings and
    /// promotion choices are distinct actions. The count is the last line.
    ///
    /// Example: seams perft shogi-flat 3 --divide
    Perft(rules::PerftArgs),
    /// Play a game: actions given at once, or line by line in the terminal,
    /// for two people or against the practice opponent.
    ///
    /// Without --interactive the actions of --moves are played as a game
    /// and the position, check and result printed; --record writes the
    /// game as a JSON record. With --interactive one action or command is
    /// read per line from standard input (`help` lists the commands:
    /// moves, board, undo, resign, draw, save FILE, quit) and --opponent
    /// LEVEL answers each of your moves. --load goes on with a saved game.
    ///
    /// `resign` and `draw` (an agreed draw) are recorded actions. A start
    /// position with no action played is judged by the same ending rules as
    /// any other position. A game from --position is recorded as an edited
    /// setup, never as a game from the initial position.
    ///
    /// Examples:
    ///   seams play chess-mobius --moves e2-e4,e8-e6 --record game.json
    ///   seams play shogi-klein --interactive --opponent 2 --as second
    ///   seams play shogi-klein --interactive --load game.json
    Play(play::PlayArgs),
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
    Render(render::RenderArgs),
    /// The opening audit of a position: checks and forced mates within N
    /// plies, king shield lines (through seams and wraps), attacked pieces.
    ///
    /// Checks are the action sequences of at most N plies whose last action
    /// gives check; forced mates are first actions of the side to move that
    /// mate in k ≤ ⌈N/2⌉ of its moves against every defence. Shield lines
    /// and attacked pieces are reported for every family.
    ///
    /// Example: seams audit chess-mobius --plies 3
    Audit(audit::AuditArgs),
    /// Measure perft speed: nodes, seconds and nodes per second for every
    /// variant (or one), from its start position.
    ///
    /// Speed is measured here, never in tests. Build with --release.
    ///
    /// Example: cargo run --release -- bench --variant chess-flat --depth 5
    Bench(bench::BenchArgs),
    /// Work with JSON game records.
    Record {
        #[command(subcommand)]
        command: record::RecordCommand,
    },
    /// The rules spec: clause coverage, checking a draft (and accepting it as
    /// a new rules version), and the gate on released versions.
    Spec {
        #[command(subcommand)]
        command: spec::SpecCommand,
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
    /// --shard K/N runs part K of N of the selected cases, for a run split
    /// across CI jobs; each part exits as a run of its own would, and
    /// `seams merge` joins the parts' JSON reports into the report and exit
    /// status of one whole run.
    ///
    /// Examples:
    ///   seams conform
    ///   seams conform --case 'geometry/klein-*' --format markdown
    ///   seams conform --engine "python3 tools/example-engine/engine.py"
    ///   seams conform --engine "./my-engine --protocol" --expect known.json
    ///   seams conform --engine "./my-engine" --baseline known.json
    ///   seams conform --engine "seams engine --mutant knight-lls"
    ///   seams conform --engine "./my-engine" --format html --out report.html
    ///   seams conform --engine "./my-engine" --shard 2/4 --format json --out part-2.json
    #[command(verbatim_doc_comment)]
    Conform(conform::ConformArgs),
    /// Join the JSON reports of the parts of a split run into one report.
    ///
    /// A run split across CI jobs with `--shard K/N` gives one JSON report
    /// per part; merge reads every part's report and writes the report the
    /// whole run would have given, with its exit status. The parts must be
    /// every shard of one split exactly once, of one run. Otherwise merge
    /// refuses, naming the files and what differs, and writes nothing.
    ///
    /// - seams conform --shard K/N --format json: the same seams, corpus
    ///   (--corpus, as the parts were given it), engine, selection and
    ///   expectations file; formats text, json, junit, markdown, html.
    /// - seams fuzz --shard K/N --format json: the same seams, engine and
    ///   options; the findings and counts cut at the first finding one run
    ///   would have stopped at (see seams fuzz --help); formats text, json,
    ///   markdown, html.
    /// - seams perft --shard K/N --json: the same question; the whole count
    ///   and its full divide; formats text (the divide, then the count),
    ///   json, markdown.
    ///
    /// Exit status: as the whole run's (conform: 0 when it passes, 1 on a
    /// mismatch; fuzz: 1 when a disagreement is found; perft: 0), 2 when
    /// the reports cannot be read or merged.
    ///
    /// Examples:
    ///   seams conform --shard 1/2 --format json --out part-1.json
    ///   seams conform --shard 2/2 --format json --out part-2.json
    ///   seams merge part-1.json part-2.json
    ///   seams merge part-*.json --format junit --out conform.xml
    ///   seams merge --corpus my-cases/ part-*.json --format html --out report.html
    ///   seams merge shard-1/fuzz-report.json shard-2/fuzz-report.json --format markdown
    ///   seams merge perft-*.json --format json
    #[command(verbatim_doc_comment)]
    Merge(merge::MergeArgs),
    /// Serve the reference engine over the engine protocol on stdio.
    ///
    /// JSON lines on stdin and stdout; see conformance/PROTOCOL.md.
    ///
    /// Examples:
    ///   echo '{"id":0,"cmd":"hello","protocol":"1.0"}' | seams engine
    ///   seams engine --mutant seam-keeps-facing     # a deliberately wrong engine
    ///   seams conform --engine "seams engine --mutant cone-diagonals"
    #[command(verbatim_doc_comment)]
    Engine(engine::EngineArgs),
    /// List the mutants `seams engine --mutant` serves.
    Mutants,
    /// Work with corpus files.
    Corpus {
        #[command(subcommand)]
        command: corpus::CorpusCommand,
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
    Schema(schema::SchemaArgs),
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
    Bisect(bisect::BisectArgs),
    /// Play seeded random games and ask an engine about every position.
    ///
    /// The reference plays N random games per variant (--games, default
    /// 200) of up to P plies (--plies, default 120), preferring captures,
    /// drops, promotions, seam crossings, checks, en passant, castling, and
    /// moves taken back so that positions repeat. At every position the
    /// engine is asked what its hello declares: the legal actions, the
    /// status, the position after the chosen action, the repetition key
    /// (only how keys group positions counts) and now and then perft divide
    /// at depth 2. The first disagreement is shrunk to a short action
    /// sequence, printed with the missing and extra actions, and written
    /// as a corpus case marked NOT REVIEWED into --out DIR. The same --seed
    /// plays the same games; the report prints the command that does.
    ///
    /// A long run splits over CI jobs: --shard K/N plays only the games
    /// whose key "variant/game" (the game counted from 0) falls in part K
    /// of N by FNV-1a, each exactly as the whole run plays it, and writes
    /// a report of its own. seams merge joins the N shards' JSON reports
    /// into the report one run would have made: the same findings (the
    /// first one run meets, shrunk the same way), counts and exit status,
    /// though shards play past their own first finding. It refuses shards
    /// of different engines, seams versions or options, overlapping or
    /// missing games, and a shard stopped (--max-time, Ctrl-C, a dead
    /// engine) before a game one run would have played. Its times are the
    /// shards': elapsed_seconds their sum, wall_seconds the longest.
    ///
    /// Exit status: 0 when no disagreement is found, 1 when one is, 2 on a
    /// usage or input error.
    ///
    /// Examples:
    ///   seams fuzz --engine "./my-engine"
    ///   seams fuzz --engine "seams engine --mutant knight-lls" --out found
    ///   seams fuzz --engine "./my-engine" --variant chess-klein --games 1000 --seed 7 --stats
    ///   seams fuzz --engine "./my-engine" --edited --max-time 60 --format html --out found
    ///   seams fuzz --engine "python3 adapter.py" --expect known.json
    ///   seams fuzz --engine "./my-engine" --games 2000 --shard 3/8 --format json --out shard-3
    #[command(verbatim_doc_comment)]
    Fuzz(fuzz::FuzzArgs),
    /// Play, analyse and edit positions of every variant in the browser.
    ///
    /// Serves one page at http://127.0.0.1:PORT/ and prints its address:
    /// games for two at one screen or against the practice opponent,
    /// analysis (either army, king safety on or off, take-backs and
    /// branches), a position editor checked by the reference, saved games
    /// and position text. Everything is built into the binary; nothing is
    /// fetched from the network. With --spec the app plays the edited
    /// rules. Stop it with Ctrl-C.
    ///
    /// The server binds to 127.0.0.1 only. --host makes it reachable from
    /// other machines, which anyone there can then use; it warns when it
    /// does. Requests whose Host header is not the server's address, and
    /// changes asked by pages of other origins, are refused.
    ///
    /// Examples:
    ///   seams serve
    ///   seams serve --port 8080
    ///   seams --spec my-draft/ serve
    #[command(verbatim_doc_comment)]
    Serve(serve::ServeArgs),
}

/// Runs one command with the rules of `spec` (the built-in spec when
/// `None`).
pub fn run(spec: Option<PathBuf>, command: Command) -> Result<ExitCode> {
    let book = Rulebook::new(spec);
    match command {
        Command::Boards(a) => geometry::boards(&book, a),
        Command::Geometry(a) => geometry::geometry(&book, a),
        Command::Rays(a) => geometry::rays(&book, a),
        Command::Variants(a) => rules::variants(&book, a),
        Command::Moves(a) => rules::moves(&book, a),
        Command::Perft(a) => rules::perft(&book, a),
        Command::Play(a) => play::play(&book, a),
        Command::Render(a) => render::render(&book, a),
        Command::Audit(a) => audit::audit(&book, a),
        Command::Bench(a) => bench::bench(&book, a),
        Command::Record { command } => record::run(&book, command),
        Command::Spec { command } => spec::run(&book, command),
        Command::Conform(a) => conform::conform(&book, a),
        Command::Merge(a) => merge::merge(&book, a),
        Command::Engine(a) => engine::engine(&book, a),
        Command::Mutants => engine::list_mutants(),
        Command::Corpus { command } => corpus::run(command),
        Command::Schema(a) => schema::run(a),
        Command::Bisect(a) => bisect::bisect(&book, a),
        Command::Fuzz(a) => fuzz::fuzz(&book, a),
        Command::Serve(a) => serve::serve(&book, a),
    }
}

/// Prints a report made whole, or writes it to `out` atomically (the file
/// holds the whole report or is left as it was) and says so on stderr.
pub fn write_out(out: Option<&Path>, text: &str) -> Result<()> {
    match out {
        None => out!("{text}"),
        Some(path) => {
            seams::files::write_atomically(path, text)
                .with_context(|| format!("writing the report {}", path.display()))?;
            eprintln!("wrote the report to {}", path.display());
        }
    }
    Ok(())
}

/// Fails unless `path` names a file that could be created: its folder
/// exists and it is not itself a folder. Checked before long work so that a
/// typo in an output path is reported at once.
pub fn check_writable_parent(path: &Path) -> Result<()> {
    if path.is_dir() {
        bail!("{} is a folder, not a file", path.display());
    }
    let parent = match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    };
    if parent.is_file() {
        bail!(
            "cannot write {}: {} is a file, not a folder",
            path.display(),
            parent.display()
        );
    }
    if !parent.is_dir() {
        bail!(
            "cannot write {}: the folder {} does not exist",
            path.display(),
            parent.display()
        );
    }
    Ok(())
}
