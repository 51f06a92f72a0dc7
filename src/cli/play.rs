//! `seams play`: a game as a list of actions, or played line by line in
//! the terminal (`--interactive`), for two people or against the practice
//! opponent, with records written and read back.
//!
//! The loop reads standard input a line at a time and needs no terminal,
//! so scripts and tests drive it exactly as a person does. It prints a
//! prompt only when standard input is a terminal.

use std::io::{BufRead, IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

use anyhow::{Context, Result, bail};
use seams::files::{self, MAX_RECORD_BYTES};
use seams::opponent::{Budget, MAX_LEVEL, Settings};
use seams::record::{Record, RecordVerdict};
use seams::rules::{GameResult, Player};
use seams::session::Session;
use seams::variant::Variant;

use super::Rulebook;
use super::position::PositionArgs;

#[derive(clap::Args)]
pub struct PlayArgs {
    /// A variant name from `seams variants`.
    variant: String,
    #[command(flatten)]
    at: PositionArgs,
    /// Play line by line: read one action or command per line from
    /// standard input (type `help` for the commands).
    #[arg(long)]
    interactive: bool,
    /// Play against the practice opponent at this level: 0 plays a random
    /// legal action, 1 the best action one ply deep, 2 and up search
    /// deeper (alpha-beta).
    #[arg(long, value_name = "LEVEL", requires = "interactive")]
    opponent: Option<u8>,
    /// The side you play against the opponent.
    #[arg(
        long = "as",
        value_enum,
        default_value = "first",
        requires = "opponent"
    )]
    side: Side,
    /// The opponent's thinking time per move, in milliseconds.
    #[arg(
        long,
        value_name = "MS",
        default_value_t = 1000,
        conflicts_with = "nodes"
    )]
    think_ms: u64,
    /// A fixed number of search nodes per opponent move instead of a time:
    /// the same position then always gets the same answer.
    #[arg(long, value_name = "N")]
    nodes: Option<u64>,
    /// The seed of the level-0 opponent's random choices.
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// Write the game as a JSON record to this file (replaced atomically;
    /// in the interactive loop, after every action).
    #[arg(long, value_name = "FILE")]
    record: Option<PathBuf>,
    /// Go on with a saved game: its record is replayed and checked first.
    #[arg(
        long,
        value_name = "FILE",
        conflicts_with = "position",
        conflicts_with = "moves"
    )]
    load: Option<PathBuf>,
    /// Print JSON instead of text (not with --interactive).
    #[arg(long, conflicts_with = "interactive")]
    json: bool,
}

#[derive(Clone, Copy, clap::ValueEnum)]
enum Side {
    First,
    Second,
}

/// `seams play`.
pub fn play(book: &Rulebook, a: PlayArgs) -> Result<ExitCode> {
    let v = book.variant(&a.variant)?;
    if let Some(path) = &a.record {
        super::check_writable_parent(path)?;
    }
    let opponent = match a.opponent {
        None => None,
        Some(level) => Some(Opponent {
            side: match a.side {
                Side::First => Player::Second,
                Side::Second => Player::First,
            },
            settings: Settings::new(
                level,
                match a.nodes {
                    Some(n) => Budget::Nodes(n),
                    None => Budget::Time(Duration::from_millis(a.think_ms)),
                },
                a.seed,
            )
            .with_context(|| format!("--opponent {level} (levels are 0 to {MAX_LEVEL})"))?,
        }),
    };
    let mut session = match &a.load {
        Some(path) => load(v, path)?,
        None => {
            let place = a.at.resolve()?;
            seams::variant::session_at(v, &place.at())?
        }
    };
    if a.interactive {
        let stdin = std::io::stdin();
        let prompt = stdin.is_terminal();
        let mut game = Interactive {
            session: session.as_mut(),
            opponent,
            record: a.record,
            prompt,
        };
        return game.run(&mut stdin.lock(), &mut std::io::stdout().lock());
    }
    if let Some(path) = &a.record {
        save(session.as_ref(), path)?;
    }
    let status = session.status();
    if a.json {
        outln!("{}", serde_json::to_string_pretty(&status)?);
        return Ok(ExitCode::SUCCESS);
    }
    outln!("position {}", status.position);
    outln!("to move  {}", session.player_name(status.to_move));
    outln!("check    {}", if status.in_check { "yes" } else { "no" });
    outln!("result   {}", describe(session.as_ref(), status.result));
    Ok(ExitCode::SUCCESS)
}

/// A result in the family's player names: `White wins by checkmate`.
fn describe(session: &dyn Session, result: Option<GameResult>) -> String {
    match result {
        None => "none (the game goes on)".into(),
        Some(r) => format!(
            "{} by {}",
            match r.winner {
                None => "draw".to_string(),
                Some(p) => format!("{} wins", session.player_name(p)),
            },
            r.reason
        ),
    }
}

/// Reads and replays a saved game.
fn load<'v>(v: &'v dyn Variant, path: &Path) -> Result<Box<dyn Session + 'v>> {
    let text = files::read_text(path, MAX_RECORD_BYTES)
        .with_context(|| format!("reading the record {}", path.display()))?;
    let record: Record = serde_json::from_str(&text)
        .with_context(|| format!("{} is not a game record", path.display()))?;
    if record.variant != v.name() {
        bail!(
            "{} is a game of {}, not {}",
            path.display(),
            record.variant,
            v.name()
        );
    }
    v.resume(&record).map_err(|verdict| match verdict {
        RecordVerdict::Rejected { ply, message, .. } => {
            anyhow::anyhow!("{}: rejected at ply {ply}: {message}", path.display())
        }
        RecordVerdict::Accepted { .. } => anyhow::anyhow!("{}: not resumable", path.display()),
    })
}

/// Writes the session's record to `path`, replacing it atomically.
fn save(session: &dyn Session, path: &Path) -> Result<()> {
    let text = serde_json::to_string_pretty(&session.record())? + "\n";
    seams::files::write_atomically(path, &text)
        .with_context(|| format!("writing the record {}", path.display()))
}

/// The practice opponent and the side it plays.
struct Opponent {
    side: Player,
    settings: Settings,
}

/// The line-by-line game.
struct Interactive<'s, 'v> {
    session: &'s mut (dyn Session + 'v),
    opponent: Option<Opponent>,
    record: Option<PathBuf>,
    prompt: bool,
}

const HELP: &str = "\
Type an action in the variant's notation (as `moves` lists them), or:
  moves        list the legal actions
  board        show the position again
  undo         take back your last move (and the opponent's answer)
  resign       resign the game
  draw         offer a draw (two players: agreed; the opponent accepts or declines)
  save FILE    write the game as a JSON record
  help         this text
  quit         leave (an unfinished game stays unfinished)";

impl Interactive<'_, '_> {
    fn run(&mut self, input: &mut dyn BufRead, out: &mut dyn Write) -> Result<ExitCode> {
        writeln!(
            out,
            "{}: type an action, or `help` for the commands.",
            self.session.variant()
        )?;
        self.show(out)?;
        self.answer(out)?;
        let mut line = String::new();
        loop {
            if self.prompt {
                write!(out, "> ")?;
                out.flush()?;
            }
            line.clear();
            if input.read_line(&mut line)? == 0 {
                break;
            }
            let words: Vec<&str> = line.split_whitespace().collect();
            match words.as_slice() {
                [] => {}
                ["quit" | "exit"] => break,
                ["help"] => writeln!(out, "{HELP}")?,
                ["board"] => self.show(out)?,
                ["moves"] => {
                    let moves = self.session.legal_actions();
                    if moves.is_empty() {
                        writeln!(out, "no legal action")?;
                    } else {
                        writeln!(out, "{} legal: {}", moves.len(), moves.join(" "))?;
                    }
                }
                ["undo"] => self.undo(out)?,
                ["save", file] => {
                    let path = Path::new(file);
                    match save(self.session, path) {
                        Ok(()) => writeln!(out, "saved {}", path.display())?,
                        Err(e) => writeln!(out, "error: {e:#}")?,
                    }
                }
                ["draw"] if self.opponent.is_some() => self.offer_draw(out)?,
                [action] => self.act(action, out)?,
                _ => writeln!(
                    out,
                    "error: '{}' is not an action or a command (type `help`)",
                    seams::quote::excerpt(line.trim())
                )?,
            }
        }
        self.write_record()?;
        let status = self.session.status();
        writeln!(out, "result: {}", describe(&*self.session, status.result))?;
        Ok(ExitCode::SUCCESS)
    }

    /// Plays the player's action, then the opponent's answer.
    fn act(&mut self, text: &str, out: &mut dyn Write) -> Result<()> {
        if self.opponent_to_move() {
            writeln!(out, "error: it is the opponent's turn")?;
            return Ok(());
        }
        match self.session.play(text) {
            Ok(played) => {
                writeln!(out, "played {played}")?;
                self.write_record()?;
                // Against the opponent the board is shown once, after its
                // answer, as chess and shogi programs do.
                if !self.opponent_to_move() {
                    self.show(out)?;
                }
                self.answer(out)
            }
            Err(e) => {
                writeln!(out, "error: {e}")?;
                Ok(())
            }
        }
    }

    fn opponent_to_move(&self) -> bool {
        let status = self.session.status();
        status.result.is_none()
            && self
                .opponent
                .as_ref()
                .is_some_and(|o| o.side == status.to_move)
    }

    /// The opponent moves when it is its turn.
    fn answer(&mut self, out: &mut dyn Write) -> Result<()> {
        if !self.opponent_to_move() {
            return Ok(());
        }
        let Some(opponent) = &self.opponent else {
            return Ok(());
        };
        let stop = AtomicBool::new(false);
        let Some(choice) = self.session.opponent_choice(&opponent.settings, &stop) else {
            return Ok(());
        };
        let played = self
            .session
            .play(&choice.action)
            .map_err(|e| anyhow::anyhow!("the opponent chose '{}': {e}", choice.action))?;
        writeln!(
            out,
            "opponent plays {played} (depth {}, {} nodes)",
            choice.depth, choice.nodes
        )?;
        self.write_record()?;
        self.show(out)
    }

    /// Takes back to the player's previous turn.
    fn undo(&mut self, out: &mut dyn Write) -> Result<()> {
        let Some(first) = self.session.undo() else {
            writeln!(out, "error: nothing to take back")?;
            return Ok(());
        };
        let mut undone = vec![first];
        // Against the opponent, one's own move goes back with its answer.
        while self.opponent_to_move() {
            match self.session.undo() {
                Some(a) => undone.push(a),
                None => break,
            }
        }
        writeln!(out, "took back {}", undone.join(", "))?;
        self.write_record()?;
        self.show(out)?;
        // At the very start the opponent may have the first move.
        self.answer(out)
    }

    /// The opponent accepts a draw when its search sees itself behind.
    fn offer_draw(&mut self, out: &mut dyn Write) -> Result<()> {
        let Some(opponent) = &self.opponent else {
            return Ok(());
        };
        if self.session.status().result.is_some() {
            writeln!(out, "error: the game is already over")?;
            return Ok(());
        }
        // The opponent searches the position for the player to move, the
        // one offering: a score above zero for them is one below zero for
        // the opponent.
        let stop = AtomicBool::new(false);
        let accepts = self
            .session
            .opponent_choice(&opponent.settings, &stop)
            .is_some_and(|choice| choice.score > 0);
        if accepts {
            self.session
                .play("draw")
                .map_err(|e| anyhow::anyhow!("{e}"))?;
            writeln!(out, "the opponent accepts the draw")?;
            self.write_record()?;
            self.show(out)
        } else {
            writeln!(out, "the opponent declines the draw")?;
            Ok(())
        }
    }

    fn write_record(&self) -> Result<()> {
        match &self.record {
            Some(path) => save(self.session, path),
            None => Ok(()),
        }
    }

    fn show(&self, out: &mut dyn Write) -> Result<()> {
        let status = self.session.status();
        match self.session.diagram() {
            Some(d) => write!(out, "{}", seams::render::text::board_text(&d))?,
            None => writeln!(out, "{} to move", self.session.player_name(status.to_move))?,
        }
        writeln!(out, "position {}", status.position)?;
        if status.result.is_some() {
            writeln!(
                out,
                "game over: {}",
                describe(&*self.session, status.result)
            )?;
        }
        Ok(())
    }
}
