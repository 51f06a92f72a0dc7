//! Joining the JSON reports of a run's shards (`seams fuzz --shard K/N`)
//! into the report one run would have made (`seams merge`).
//!
//! Why the result is exact: a game is played alike in a run and in any
//! shard of it (its random streams come from the seed, the variant and its
//! number; keys and `unsupported` are remembered within the game only),
//! and an engine is expected to answer a question the same way whenever
//! it is asked. One run plays games in the order game 0 of every variant,
//! game 1 of every variant, …, and stops at its first finding (with
//! `--keep-going`, each variant at its own first). A shard plays its own
//! games in that order and stops at *its* first finding, so it may play
//! games one run never reaches; but it has played every game of its share
//! that comes before the earliest finding of all the shards. The merge
//! therefore takes that earliest finding (for `--keep-going`, the earliest
//! per variant), keeps the games one run would have played up to it, and
//! sums their [`GameFacts`] as a run does. A finding is shrunk with its
//! own random stream, so the shard's shrunk case is the run's.
//!
//! What cannot be made exact is refused, naming the file: a shard that
//! stopped (`--max-time`, Ctrl-C, a dead engine) before a game one run
//! would have played, and a finding shrunk when its shard's time was up.
//! The times are not one run's: `elapsed_seconds` is the shards' sum,
//! `wall_seconds` the longest shard's.
//!
//! No I/O: the reports come as `(name, text)` pairs.

use std::collections::BTreeMap;

use super::report::{EngineId, KIND, Report, ReportJson, whole_command};
use super::tally::{GameEnd, GameFacts, Totals};
use super::{Finding, Run, Stop, game_key, per_second};
use crate::quote::excerpt;
use crate::shard::{self, Shard, ShardSetError};

/// Why shard reports were not merged.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum MergeError {
    #[error("{file}: not JSON: {reason}")]
    Json { file: String, reason: String },
    #[error("{file} is a '{}' report, not a fuzz report", excerpt(.kind))]
    Kind { file: String, kind: String },
    #[error("{file}: not a fuzz report seams can merge: {reason}")]
    Malformed { file: String, reason: String },
    #[error(
        "{file} is the report of a run without --shard, which lists no games: only the JSON \
         reports of `seams fuzz --shard K/N` merge"
    )]
    NotShard { file: String },
    #[error(
        "{file} was written by seams {}, and this is seams {ours}: merge the shards of one \
         version with that version",
        excerpt(.version)
    )]
    Version {
        file: String,
        version: String,
        ours: String,
    },
    #[error(transparent)]
    Shards(#[from] ShardSetError),
    #[error(
        "{file} tested the engine {}, {first} the engine {}: the shards of one run test one engine",
        excerpt(.engine), excerpt(.first_engine)
    )]
    Engines {
        file: String,
        engine: String,
        first: String,
        first_engine: String,
    },
    #[error(
        "{file} ran with {option} {}, {first} with {}: the shards of one run share every option",
        excerpt(.value), excerpt(.first_value)
    )]
    Options {
        option: &'static str,
        file: String,
        value: String,
        first: String,
        first_value: String,
    },
    #[error("game {game} of {} is in both {first} and {other}: the shards overlap", excerpt(.variant))]
    Overlap {
        variant: String,
        game: u32,
        first: String,
        other: String,
    },
    #[error(
        "{file} is shard {shard} but holds game {game} of {}, which shard {holder}/{} holds",
        excerpt(.variant), .shard.count()
    )]
    Foreign {
        file: String,
        shard: Shard,
        variant: String,
        game: u32,
        holder: u32,
    },
    #[error(
        "{file} (shard {shard}) {why} before game {game} of {}, which one run would have played: \
         run that shard again",
        excerpt(.variant)
    )]
    Stopped {
        file: String,
        shard: Shard,
        why: String,
        variant: String,
        game: u32,
    },
    #[error(
        "{file} (shard {shard}) has no record of game {game} of {}, which one run would have played",
        excerpt(.variant)
    )]
    Missing {
        file: String,
        shard: Shard,
        variant: String,
        game: u32,
    },
    #[error(
        "{file}: the finding in game {game} of {} was shrunk when the shard's time was up, so it \
         may not be the one one run would shrink: run that shard again with more time",
        excerpt(.variant)
    )]
    OutOfTime {
        file: String,
        variant: String,
        game: u32,
    },
}

/// The run one process would have made, rebuilt from its shards.
pub struct Merged {
    pub run: Run,
    pub engine: EngineId,
    /// The command that reproduces the whole run.
    pub command: String,
    /// The longest shard's wall time.
    pub wall_seconds: f64,
    /// How many shard reports were joined.
    pub shards: u32,
}

impl Merged {
    /// The report of the merged run.
    pub fn report(&self, stats: bool) -> Report<'_> {
        Report {
            run: &self.run,
            engine: self.engine.clone(),
            command: self.command.clone(),
            stats,
            wall_seconds: self.wall_seconds,
            merged_shards: Some(self.shards),
        }
    }
}

/// One shard's report, read.
struct Part {
    file: String,
    json: ReportJson<Run>,
    /// The whole run's command.
    command: String,
}

impl Part {
    fn run(&self) -> &Run {
        &self.json.run
    }
}

/// Merges the JSON reports of every shard of one run, each given with a
/// name for messages (its file), into the report one run would have made.
pub fn merge(reports: &[(String, String)]) -> Result<Merged, MergeError> {
    let parts = reports
        .iter()
        .map(|(file, text)| read(file, text))
        .collect::<Result<Vec<Part>, MergeError>>()?;
    shard::check_whole(parts.iter().map(|p| (p.file.as_str(), p.run().shard)))?;
    check_alike(&parts)?;
    let games = Games::collect(&parts)?;
    let cut = Cut::new(&parts[0], &games.findings);
    games.check_complete(&parts, &cut)?;
    Ok(build(&parts, &games, &cut))
}

/// Reads one report: JSON, of the fuzz kind, written by this version of
/// seams (whose shape it then must have), with its games.
fn read(file: &str, text: &str) -> Result<Part, MergeError> {
    check_head(file, text)?;
    let malformed = |reason: String| MergeError::Malformed {
        file: file.to_string(),
        reason,
    };
    let json: ReportJson<Run> = serde_json::from_str(text).map_err(|e| malformed(e.to_string()))?;
    if json.run.variants.iter().any(|v| v.per_game.is_none()) {
        return Err(MergeError::NotShard {
            file: file.to_string(),
        });
    }
    let command = whole_command(&json.command, json.run.shard)
        .ok_or_else(|| {
            malformed(format!(
                "its command does not end with --shard {}",
                json.run.shard
            ))
        })?
        .to_string();
    Ok(Part {
        file: file.to_string(),
        json,
        command,
    })
}

/// Checks that a report is JSON, says it is a fuzz report, and was written
/// by this version of seams; read without building the whole report, so
/// that these are said before any complaint about its shape.
fn check_head(file: &str, text: &str) -> Result<(), MergeError> {
    #[derive(serde::Deserialize)]
    struct Head {
        report: Option<serde_json::Value>,
        seams: Option<serde_json::Value>,
    }
    let head: Head = serde_json::from_str(text).map_err(|e| MergeError::Json {
        file: file.to_string(),
        reason: e.to_string(),
    })?;
    let kind = head.report.as_ref().and_then(|k| k.as_str());
    if kind != Some(KIND) {
        return Err(MergeError::Kind {
            file: file.to_string(),
            kind: kind.unwrap_or("(no kind)").to_string(),
        });
    }
    let ours = env!("CARGO_PKG_VERSION");
    let version = head.seams.as_ref().and_then(|v| v.as_str());
    if version != Some(ours) {
        return Err(MergeError::Version {
            file: file.to_string(),
            version: version.unwrap_or("(none)").to_string(),
            ours: ours.to_string(),
        });
    }
    Ok(())
}

/// Every report of the same engine, options and command.
fn check_alike(parts: &[Part]) -> Result<(), MergeError> {
    let first = &parts[0];
    let named = |e: &EngineId| format!("{} {}", e.name, e.version);
    for p in parts {
        if p.json.engine != first.json.engine {
            return Err(MergeError::Engines {
                file: p.file.clone(),
                engine: named(&p.json.engine),
                first: first.file.clone(),
                first_engine: named(&first.json.engine),
            });
        }
        for ((option, value), (_, first_value)) in options(p).into_iter().zip(options(first)) {
            if value != first_value {
                return Err(MergeError::Options {
                    option,
                    file: p.file.clone(),
                    value,
                    first: first.file.clone(),
                    first_value,
                });
            }
        }
    }
    Ok(())
}

/// The options that decide which games are played and how, as shown.
/// The command comes last: it also holds the engine's command line and
/// `--spec`.
fn options(p: &Part) -> Vec<(&'static str, String)> {
    let r = p.run();
    let names = |v: Vec<&str>| v.join(" ");
    vec![
        ("--seed", r.seed.to_string()),
        ("--games", r.games.to_string()),
        ("--plies", r.plies.to_string()),
        ("--edited", r.edited.to_string()),
        ("--keep-going", r.keep_going.to_string()),
        (
            "--expect (its differences' digest)",
            r.expectations.clone().unwrap_or_else(|| "none".into()),
        ),
        (
            "the variants",
            names(r.variants.iter().map(|v| v.variant.as_str()).collect()),
        ),
        (
            "the questions",
            names(r.questions.iter().map(|q| q.command()).collect()),
        ),
        ("the command", p.command.clone()),
    ]
}

/// A finding and where it is: its game, its variant's place in the run,
/// and the report it comes from.
struct Found<'p> {
    game: u32,
    variant: usize,
    part: usize,
    finding: &'p Finding,
}

/// Every shard's games, by variant (in the run's order) and number, with
/// the report each comes from; and every shard's findings.
struct Games<'p> {
    by_variant: Vec<BTreeMap<u32, (usize, &'p GameFacts)>>,
    findings: Vec<Found<'p>>,
}

impl<'p> Games<'p> {
    fn collect(parts: &'p [Part]) -> Result<Games<'p>, MergeError> {
        let variants = &parts[0].run().variants;
        let mut by_variant = vec![BTreeMap::new(); variants.len()];
        for (pi, p) in parts.iter().enumerate() {
            for (vi, v) in p.run().variants.iter().enumerate() {
                for g in v.per_game.iter().flatten() {
                    if let Some((other, _)) = by_variant[vi].insert(g.game, (pi, g)) {
                        return Err(MergeError::Overlap {
                            variant: v.variant.clone(),
                            game: g.game,
                            first: parts[other].file.clone(),
                            other: p.file.clone(),
                        });
                    }
                    check_held(parts, pi, &v.variant, g.game)?;
                }
            }
        }
        let mut games = Games {
            by_variant,
            findings: Vec::new(),
        };
        for (pi, p) in parts.iter().enumerate() {
            for f in &p.run().findings {
                let found = games.found(parts, pi, f)?;
                games.findings.push(found);
            }
        }
        Ok(games)
    }

    /// A finding, with its game's record in the same report.
    fn found(&self, parts: &[Part], pi: usize, f: &'p Finding) -> Result<Found<'p>, MergeError> {
        let malformed = |reason: String| MergeError::Malformed {
            file: parts[pi].file.clone(),
            reason,
        };
        let variants = &parts[0].run().variants;
        let vi = variants
            .iter()
            .position(|v| v.variant == f.variant)
            .ok_or_else(|| {
                malformed(format!(
                    "a finding in '{}', which the run does not play",
                    excerpt(&f.variant)
                ))
            })?;
        match self.by_variant[vi].get(&f.game) {
            Some(&(p, g)) if p == pi && g.ended == GameEnd::Found => Ok(Found {
                game: f.game,
                variant: vi,
                part: pi,
                finding: f,
            }),
            _ => Err(malformed(format!(
                "a finding in game {} of {} without that game's record",
                f.game,
                excerpt(&f.variant)
            ))),
        }
    }

    /// Checks that every game one run would have played up to the cut is
    /// here and played to its end (a game with a finding only where one
    /// run makes it), and that the findings kept were shrunk to the end.
    fn check_complete(&self, parts: &[Part], cut: &Cut) -> Result<(), MergeError> {
        let kept = cut.kept(&self.findings);
        for (vi, games) in self.by_variant.iter().enumerate() {
            let name = &parts[0].run().variants[vi].variant;
            let end = cut.end(vi);
            let mut next = 0;
            for (&g, &(pi, facts)) in games.range(..end) {
                if g != next {
                    return Err(absent(parts, name, next));
                }
                match facts.ended {
                    GameEnd::Played => {}
                    GameEnd::Stopped => return Err(stopped(&parts[pi], name, g)),
                    GameEnd::Found if kept.iter().any(|f| (f.variant, f.game) == (vi, g)) => {}
                    GameEnd::Found => {
                        return Err(MergeError::Malformed {
                            file: parts[pi].file.clone(),
                            reason: format!(
                                "game {g} of {} ended on a finding the report does not list",
                                excerpt(name)
                            ),
                        });
                    }
                }
                next += 1;
            }
            if next < end {
                return Err(absent(parts, name, next));
            }
        }
        match kept.iter().find(|f| f.finding.case_reproduces.is_none()) {
            Some(f) => Err(MergeError::OutOfTime {
                file: parts[f.part].file.clone(),
                variant: f.finding.variant.clone(),
                game: f.game,
            }),
            None => Ok(()),
        }
    }
}

/// Checks that the report `pi` is the shard that holds the game.
fn check_held(parts: &[Part], pi: usize, variant: &str, game: u32) -> Result<(), MergeError> {
    let shard = parts[pi].run().shard;
    let games = parts[pi].run().games;
    if game >= games {
        return Err(MergeError::Malformed {
            file: parts[pi].file.clone(),
            reason: format!(
                "game {game} of {} is past the run's {games} games",
                excerpt(variant)
            ),
        });
    }
    let key = game_key(variant, game);
    if shard.holds(&key) {
        return Ok(());
    }
    Err(MergeError::Foreign {
        file: parts[pi].file.clone(),
        shard,
        variant: variant.to_string(),
        game,
        holder: shard::part_of(&key, shard.count()),
    })
}

/// The error for a game one run would have played that its shard lacks.
fn absent(parts: &[Part], variant: &str, game: u32) -> MergeError {
    let count = parts[0].run().shard.count();
    let holder = shard::part_of(&game_key(variant, game), count);
    let Some(p) = parts.iter().find(|p| p.run().shard.index() == holder) else {
        unreachable!("check_whole found every shard");
    };
    match p.run().stopped {
        Stop::Completed | Stop::Found => MergeError::Missing {
            file: p.file.clone(),
            shard: p.run().shard,
            variant: variant.to_string(),
            game,
        },
        _ => stopped(p, variant, game),
    }
}

/// The error for a shard that stopped before a game one run would have
/// played.
fn stopped(p: &Part, variant: &str, game: u32) -> MergeError {
    let why = match &p.run().stopped {
        Stop::MaxTime => "stopped by --max-time".to_string(),
        Stop::Interrupted => "was interrupted".to_string(),
        Stop::EngineDead { reason } => format!("stopped: the engine is dead ({reason})"),
        Stop::Completed | Stop::Found => "stopped".to_string(),
    };
    MergeError::Stopped {
        file: p.file.clone(),
        shard: p.run().shard,
        why,
        variant: variant.to_string(),
        game,
    }
}

/// Where one run would have stopped: at the earliest finding, or with
/// `--keep-going` at each variant's earliest.
struct Cut {
    keep_going: bool,
    games: u32,
    /// The earliest finding of all: its game and its variant's place.
    first: Option<(u32, usize)>,
    /// Per variant, its earliest finding's game.
    per_variant: BTreeMap<usize, u32>,
}

impl Cut {
    fn new(first_part: &Part, findings: &[Found]) -> Cut {
        let mut per_variant = BTreeMap::new();
        for f in findings {
            let g = per_variant.entry(f.variant).or_insert(f.game);
            *g = (*g).min(f.game);
        }
        Cut {
            keep_going: first_part.run().keep_going,
            games: first_part.run().games,
            first: findings.iter().map(|f| (f.game, f.variant)).min(),
            per_variant,
        }
    }

    /// The games of variant `vi` one run plays: `0..end`.
    fn end(&self, vi: usize) -> u32 {
        if self.keep_going {
            return self.per_variant.get(&vi).map_or(self.games, |g| g + 1);
        }
        match self.first {
            None => self.games,
            // Game `g` of the variants before the finding's, and its own,
            // are played; the variants after it stop at game `g - 1`.
            Some((g, v)) if vi <= v => g + 1,
            Some((g, _)) => g,
        }
    }

    /// The findings one run makes, in the order it makes them.
    fn kept<'f, 'p>(&self, findings: &'f [Found<'p>]) -> Vec<&'f Found<'p>> {
        let mut kept: Vec<&Found> = findings
            .iter()
            .filter(|f| {
                if self.keep_going {
                    self.per_variant.get(&f.variant) == Some(&f.game)
                } else {
                    self.first == Some((f.game, f.variant))
                }
            })
            .collect();
        kept.sort_by_key(|f| (f.game, f.variant));
        kept
    }

    /// Why one run would have stopped.
    fn stop(&self) -> Stop {
        if !self.keep_going && self.first.is_some() {
            Stop::Found
        } else {
            Stop::Completed
        }
    }
}

/// The merged run: the games up to the cut summed per variant, the
/// findings one run makes, the shards' times.
fn build(parts: &[Part], games: &Games, cut: &Cut) -> Merged {
    let first = parts[0].run();
    let variants: Vec<_> = games
        .by_variant
        .iter()
        .enumerate()
        .map(|(vi, by_game)| {
            let mut totals = Totals::default();
            for (_, (_, g)) in by_game.range(..cut.end(vi)) {
                totals.add(g);
            }
            // One run keeps no per-game facts: neither does its merge.
            totals.summary(&first.variants[vi].variant, None)
        })
        .collect();
    let findings: Vec<Finding> = cut
        .kept(&games.findings)
        .into_iter()
        .map(|f| f.finding.clone())
        .collect();
    let positions = variants.iter().map(|v| v.positions).sum();
    let elapsed: f64 = parts.iter().map(|p| p.run().elapsed_seconds).sum();
    let run = Run {
        shard: Shard::WHOLE,
        seed: first.seed,
        games: first.games,
        plies: first.plies,
        edited: first.edited,
        keep_going: first.keep_going,
        expectations: first.expectations.clone(),
        questions: first.questions.clone(),
        variants,
        skipped: first.skipped.clone(),
        findings,
        stopped: cut.stop(),
        elapsed_seconds: elapsed,
        positions,
        positions_per_second: per_second(positions, elapsed),
    };
    Merged {
        run,
        engine: parts[0].json.engine.clone(),
        command: parts[0].command.clone(),
        wall_seconds: parts
            .iter()
            .map(|p| p.json.wall_seconds)
            .fold(0.0, f64::max),
        shards: parts.len() as u32,
    }
}
