//! Running the corpus against an engine: the one entry point that `seams
//! conform`, the Rust kit, `seams fuzz`'s start and the corpus tests go
//! through.
//!
//! A [`Run`] is what to check (the corpus, the cases selected, the known
//! failures, when to stop) and the reference's variants, which compare
//! position texts by meaning and draw failing positions. The engine is an
//! [`EngineChoice`]: the reference in process, an outside program, or an
//! engine already started. [`Run::execute`] starts it, selects the cases
//! its hello makes applicable, asks each in turn and returns a [`Finished`]
//! run, which gives every report. [`Run::plan`] and [`Run::check`] are the
//! same steps one at a time, for a harness that runs each case as a trial
//! of its own (the Rust kit).

use std::time::Instant;

use super::case::{Case, Subject};
use super::corpus::Corpus;
use super::engine::{Embedded, Engine, Limits, Process, StartError, split_command};
use super::expectations::{self, Expectations, Verdict};
use super::html::{self, Figure};
use super::protocol::Hello;
use super::reference::Reference;
use super::report::{Report, RunFacts};
use super::runner::{self, CaseResult, Outcome, Selection};
use crate::names::Known;
use crate::registry;
use crate::shard::Shard;
use crate::spec::Library;
use crate::variant::Variant;

/// Where the engine of a run comes from.
pub enum EngineChoice<'a> {
    /// The reference in process (the built-in one, an edited spec's, or
    /// a mutant's).
    Reference(Reference<'a>),
    /// An outside program: its command line, split like a shell would
    /// (quotes group words); `seams` as the program is this binary.
    Command { command: String, limits: Limits },
    /// An engine already started, such as the Rust kit's in-process one.
    Started(Box<dyn Engine + 'a>),
}

/// What a run checks, and the reference it compares with.
pub struct Run<'v> {
    pub corpus: Corpus,
    /// Tier, variant, rules version and id filters.
    pub selection: Selection,
    /// Known failures: a listed case passes while it fails as listed.
    pub expectations: Option<Expectations>,
    /// When the whole run stops; cases not reached by then are reported
    /// as not run.
    pub deadline: Option<Instant>,
    /// The reference's variants (the built-in ones or an edited spec's):
    /// position texts are compared by meaning through them, the reference
    /// engine serves them, and the HTML report draws with them.
    pub reference: Vec<&'v dyn Variant>,
}

/// The cases a run asks an engine, given its hello.
pub struct Plan<'r> {
    pub cases: Vec<&'r (String, Case)>,
    /// Cases left out because their `rules` range excludes the version.
    pub not_applicable: usize,
}

/// A run that has asked every selected case.
pub struct Finished<'r> {
    pub hello: Hello,
    pub cases: Vec<&'r (String, Case)>,
    pub results: Vec<CaseResult>,
    /// One per result when the run has expectations.
    pub verdicts: Option<Vec<Verdict>>,
    pub not_applicable: usize,
    /// The run as its report states it.
    pub facts: RunFacts,
}

/// What a caller sees of a run while it goes (a progress bar).
pub trait Progress {
    /// The cases are selected: this many will be asked.
    fn planned(&mut self, _cases: usize) {}
    /// One case is answered (or not run).
    fn done(&mut self, _result: &CaseResult) {}
}

/// No progress shown.
impl Progress for () {}

/// Why a run could not be made.
#[derive(Debug, thiserror::Error)]
pub enum RunError {
    #[error(transparent)]
    Start(#[from] StartError),
    /// The selection names a variant neither the reference nor the corpus
    /// knows.
    #[error("unknown variant '{}' ({known})", crate::quote::excerpt(.name))]
    UnknownVariant { name: String, known: Known },
    /// The selection keeps no case at all.
    #[error("no case in the corpus matches")]
    NothingSelected,
}

impl<'v> Run<'v> {
    /// A run of every case of `corpus` against the reference's `variants`,
    /// with no expectations and no time limit.
    pub fn new(corpus: Corpus, reference: Vec<&'v dyn Variant>) -> Run<'v> {
        Run {
            corpus,
            selection: Selection::default(),
            expectations: None,
            deadline: None,
            reference,
        }
    }

    /// A run against the built-in variants.
    pub fn builtin(corpus: Corpus) -> Run<'static> {
        Run::new(
            corpus,
            registry::variants().iter().map(|v| v.as_ref()).collect(),
        )
    }

    /// The whole run: starts the engine, selects the cases its hello makes
    /// applicable, and asks each, telling `progress` as it goes.
    pub fn execute<'a>(
        &'a self,
        engine: EngineChoice<'a>,
        progress: &mut dyn Progress,
    ) -> Result<Finished<'a>, RunError>
    where
        'v: 'a,
    {
        self.check_variant()?;
        let started = Instant::now();
        let mut engine = self.start(engine)?;
        let hello = engine.hello().clone();
        let plan = self.plan(&hello);
        if plan.cases.is_empty() && plan.not_applicable == 0 && self.selects_nothing(&hello) {
            return Err(RunError::NothingSelected);
        }
        progress.planned(plan.cases.len());
        let results = runner::run_until(
            engine.as_mut(),
            &plan.cases,
            &self.reference,
            self.deadline,
            &mut |r| progress.done(r),
        );
        // The engine stops before the report is written.
        drop(engine);
        let wall_seconds = started.elapsed().as_secs_f64();
        let verdicts = self
            .expectations
            .as_ref()
            .map(|e| expectations::judge(&results, e));
        Ok(Finished {
            hello,
            cases: plan.cases,
            results,
            verdicts,
            not_applicable: plan.not_applicable,
            facts: self.facts(wall_seconds),
        })
    }

    /// The run as a report states it, having taken `wall_seconds`.
    pub fn facts(&self, wall_seconds: f64) -> RunFacts {
        RunFacts {
            seams: env!("CARGO_PKG_VERSION").to_string(),
            shard: self.selection.shard,
            // Milliseconds are all a report needs, and fewer digits read
            // better.
            wall_seconds: (wall_seconds * 1000.0).round() / 1000.0,
            merged_from: None,
            wall_seconds_max: None,
            corpus_digest: self.corpus.digest(),
            corpus_cases: self.corpus.cases.len(),
            selection: self.selection.facts(),
            expectations_digest: self.expectations.as_ref().map(Expectations::digest),
        }
    }

    /// Starts the engine of this run.
    pub fn start<'a>(&self, engine: EngineChoice<'a>) -> Result<Box<dyn Engine + 'a>, StartError> {
        start(engine, self.deadline)
    }

    /// The cases selected and applicable to an engine with this hello.
    pub fn plan(&self, hello: &Hello) -> Plan<'_> {
        let (cases, not_applicable) = runner::select(&self.corpus, &self.selection, hello);
        Plan {
            cases,
            not_applicable,
        }
    }

    /// Whether the selection keeps no case in any shard: an empty shard of
    /// a selection that keeps cases is a run like any other (a split into
    /// more parts than cases leaves some empty), not a mistyped filter.
    fn selects_nothing(&self, hello: &Hello) -> bool {
        let whole = Selection {
            shard: Shard::WHOLE,
            ..self.selection.clone()
        };
        let (cases, not_applicable) = runner::select(&self.corpus, &whole, hello);
        cases.is_empty() && not_applicable == 0
    }

    /// One case asked of `engine`, and its verdict against the run's
    /// expectations (a plain pass or failure without them).
    pub fn check(&self, engine: &mut dyn Engine, case: &Case) -> (Outcome, Verdict) {
        let outcome = runner::check_case(engine, case, &self.reference);
        let listed = self
            .expectations
            .as_ref()
            .and_then(|e| e.known.iter().find(|k| k.id == case.id));
        let verdict = expectations::verdict(outcome.kind(), listed);
        (outcome, verdict)
    }

    /// A selected variant must be one the reference or the corpus knows:
    /// an unknown one is refused with the nearest name, instead of a run
    /// that selects nothing.
    fn check_variant(&self) -> Result<(), RunError> {
        let Some(name) = &self.selection.variant else {
            return Ok(());
        };
        let mut known: Vec<&str> = self.reference.iter().map(|v| v.name()).collect();
        for (_, case) in &self.corpus.cases {
            if let Subject::Variant(v) = case.check.subject() {
                known.push(v);
            }
        }
        known.sort_unstable();
        known.dedup();
        if known.contains(&name.as_str()) {
            return Ok(());
        }
        Err(RunError::UnknownVariant {
            name: name.clone(),
            known: Known::new(name, known),
        })
    }
}

impl Finished<'_> {
    /// The report of this run, in every format [`Report`] writes.
    pub fn report(&self) -> Report<'_> {
        Report {
            engine: &self.hello,
            results: &self.results,
            verdicts: self.verdicts.as_deref(),
            not_applicable: self.not_applicable,
            run: Some(&self.facts),
        }
    }

    /// How many cases fail (against the expectations, when there are any):
    /// the run passes when there are none.
    pub fn mismatches(&self) -> usize {
        self.report().mismatches()
    }

    /// An expectations file listing this run's failures, keeping the notes
    /// of `previous` where a failure is unchanged. The engine is named as
    /// its hello names it, which stays the same however it is started.
    pub fn baseline(&self, previous: Option<&Expectations>) -> Expectations {
        expectations::baseline(&self.results, previous, &self.hello.name)
    }

    /// The picture of each failing case's position, for the HTML report.
    pub fn figures(&self, reference: &[&dyn Variant]) -> Vec<Option<Figure>> {
        self.cases
            .iter()
            .zip(&self.results)
            .map(|((_, case), r)| html::figure(case, &r.outcome, reference))
            .collect()
    }
}

/// Starts an outside engine (or returns one already started). With a
/// deadline, the handshake counts against the run's time too.
pub fn start<'a>(
    engine: EngineChoice<'a>,
    deadline: Option<Instant>,
) -> Result<Box<dyn Engine + 'a>, StartError> {
    match engine {
        EngineChoice::Started(e) => Ok(e),
        EngineChoice::Reference(reference) => Ok(Box::new(Embedded::new(reference))),
        EngineChoice::Command {
            command,
            mut limits,
        } => {
            if let Some(d) = deadline {
                limits.hello_timeout = limits
                    .hello_timeout
                    .min(d.saturating_duration_since(Instant::now()));
            }
            Ok(Box::new(start_command(&command, limits)?))
        }
    }
}

/// Starts an outside program as the engine; `seams` as the program is this
/// binary.
pub fn start_command(command: &str, limits: Limits) -> Result<Process, StartError> {
    let mut argv = split_command(command)?;
    if argv[0] == "seams" {
        argv[0] = std::env::current_exe()
            .map_err(|e| StartError::Spawn {
                command: command.to_string(),
                message: format!("finding this binary to run `seams` as the engine: {e}"),
            })?
            .display()
            .to_string();
    }
    Process::start_with(argv, limits)
}

/// Checks one case against the built-in reference (library `lib` and the
/// registry), through the same run every engine goes through. Position
/// texts are compared by meaning, as `seams conform` does, so an
/// equivalent spelling in a case (`[-]` for an empty hand) passes.
pub fn check_on_reference(case: &Case, lib: &Library) -> Outcome {
    let run = Run::builtin(Corpus::default());
    let mut engine = Embedded::new(Reference::new(lib, run.reference.clone()));
    run.check(&mut engine, case).0
}
