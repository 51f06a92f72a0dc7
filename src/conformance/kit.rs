//! The Rust kit: an engine written in Rust, checked against the corpus as
//! named trials of its own `cargo test`, in process, with no protocol
//! plumbing beyond one method.
//!
//! The engine implements [`Protocol`]: given a request, the JSON reply it
//! would write as one line over stdio. [`run_as_trials`] turns every
//! corpus case the engine's hello makes applicable into a
//! [`libtest_mimic::Trial`] named by the case id; [`main`] runs them as a
//! test binary. A test target with `harness = false`:
//!
//! ```no_run
//! use seams::conformance::kit::{self, Options, Protocol};
//! use seams::conformance::protocol::Request;
//!
//! struct MyEngine;
//! impl Protocol for MyEngine {
//!     fn reply(&mut self, request: &Request) -> serde_json::Value {
//!         // Answer `hello` and the commands the engine supports.
//!         serde_json::json!({"id": request.id, "unsupported": true})
//!     }
//! }
//!
//! fn main() {
//!     kit::main(MyEngine, Options::default());
//! }
//! ```
//!
//! Replies are read by the same [`read_reply`](super::engine) code and
//! judged by the same run ([`Run::plan`] and [`Run::check`]) as `seams
//! conform --engine`, so a case passes here exactly when it would pass over
//! the protocol.

use std::path::PathBuf;
use std::sync::{Arc, Mutex};

use libtest_mimic::{Arguments, Failed, Trial};
use serde_json::Value;

use super::engine::{AskError, Engine, StartError, read_hello, read_reply_value};
use super::expectations::{self, Expectations};
use super::protocol::{Command, Hello, PROTOCOL_VERSION, Request};
use super::run::Run;
use super::runner::{self, Selection};
use super::{Case, Corpus, CorpusError};

/// What a Rust engine implements: the reply to one request, the same JSON
/// object it would write as a line (`{"id":…,"ok":true,…}`,
/// `{"id":…,"unsupported":true}` or `{"id":…,"error":"…"}`).
pub trait Protocol: Send + 'static {
    fn reply(&mut self, request: &Request) -> Value;
}

/// A [`Protocol`] engine seen as the runner sees any engine.
pub struct InProcess<P> {
    engine: P,
    hello: Hello,
    next: u64,
}

impl<P: Protocol> InProcess<P> {
    /// Completes the handshake.
    pub fn start(mut engine: P) -> Result<InProcess<P>, StartError> {
        let handshake = |message: String| StartError::Handshake {
            command: "(in process)".into(),
            message,
        };
        let reply = engine.reply(&Request {
            id: 0,
            command: Command::Hello {
                protocol: PROTOCOL_VERSION,
            },
        });
        let fields = read_reply_value(reply, 0, "hello", "(hello reply)").map_err(|e| match e {
            AskError::Unsupported => handshake("it answered hello with unsupported".into()),
            AskError::Failed { message, .. } => handshake(message),
        })?;
        let hello = read_hello(fields).map_err(handshake)?;
        Ok(InProcess {
            engine,
            hello,
            next: 1,
        })
    }
}

impl<P: Protocol> Engine for InProcess<P> {
    fn hello(&self) -> &Hello {
        &self.hello
    }

    fn ask(&mut self, command: &Command) -> Result<Value, AskError> {
        let id = self.next;
        self.next += 1;
        let reply = self.engine.reply(&Request {
            id,
            command: command.clone(),
        });
        read_reply_value(reply, id, command.name(), "(in-process reply)")
    }
}

/// Which cases to run, and the engine's known differences.
#[derive(Default)]
pub struct Options {
    /// Tier, variant, rules version and id filters, as `seams conform`
    /// takes them.
    pub selection: Selection,
    /// A corpus folder instead of the corpus built into this crate.
    pub corpus: Option<PathBuf>,
    /// An expectations file (known failures): a listed case passes while it
    /// fails as listed, and fails once it passes or fails differently.
    pub expect: Option<PathBuf>,
}

/// Why the trials could not be made.
#[derive(Debug, thiserror::Error)]
pub enum KitError {
    #[error(transparent)]
    Start(#[from] StartError),
    #[error(transparent)]
    Corpus(#[from] CorpusError),
    #[error(transparent)]
    Expectations(#[from] expectations::ExpectationsError),
}

/// The engine and the run, shared by the trials, and the cases asked.
type Prepared<P> = (Arc<Mutex<InProcess<P>>>, Arc<Run<'static>>, Vec<Case>);

/// Starts the engine and picks the cases: those the selection keeps and
/// the engine's hello makes applicable (its variants, boards and
/// capabilities).
fn prepare<P: Protocol>(engine: P, options: &Options) -> Result<Prepared<P>, KitError> {
    let engine = InProcess::start(engine)?;
    let corpus = match &options.corpus {
        None => Corpus::builtin()?,
        Some(dir) => Corpus::from_dir(dir)?,
    };
    let expectations = match &options.expect {
        None => None,
        Some(path) => {
            let ids = corpus.cases.iter().map(|(_, c)| c.id.as_str()).collect();
            Some(Expectations::load(path, &ids)?)
        }
    };
    let mut run = Run::builtin(corpus);
    run.selection = options.selection.clone();
    run.expectations = expectations;
    let cases = run
        .plan(engine.hello())
        .cases
        .into_iter()
        .map(|(_, case)| case)
        .filter(|case| runner::unsupported_reason(engine.hello(), case).is_none())
        .cloned()
        .collect();
    Ok((Arc::new(Mutex::new(engine)), Arc::new(run), cases))
}

/// One trial per applicable case, named by the case id (its check kind as
/// the trial's kind). Trials share the one engine, one request at a time.
pub fn run_as_trials<P: Protocol>(engine: P, options: &Options) -> Result<Vec<Trial>, KitError> {
    let (engine, run, cases) = prepare(engine, options)?;
    Ok(cases
        .into_iter()
        .map(|case| {
            let engine = Arc::clone(&engine);
            let run = Arc::clone(&run);
            let name = case.id.clone();
            let kind = case.check.kind();
            Trial::test(name, move || {
                run_one(&engine, &run, &case).map_err(Failed::from)
            })
            .with_kind(kind)
        })
        .collect())
}

/// A case id with `Ok` or the failure message its trial would show.
pub type CaseCheck = (String, Result<(), String>);

/// The same cases run one after another without a test harness: each id
/// with `Ok` or the failure message a trial would show.
pub fn check_all<P: Protocol>(engine: P, options: &Options) -> Result<Vec<CaseCheck>, KitError> {
    let (engine, run, cases) = prepare(engine, options)?;
    Ok(cases
        .into_iter()
        .map(|case| {
            let result = run_one(&engine, &run, &case);
            (case.id, result)
        })
        .collect())
}

/// One case through the run, judged against its listing if any.
fn run_one<P: Protocol>(
    engine: &Mutex<InProcess<P>>,
    run: &Run,
    case: &Case,
) -> Result<(), String> {
    // A panic in another trial poisons the lock; the engine itself is
    // still usable for the cases after it.
    let mut engine = engine.lock().unwrap_or_else(|e| e.into_inner());
    let (outcome, verdict) = run.check(&mut *engine, case);
    if verdict.is_mismatch() {
        return Err(format!(
            "{} [{}]\n{}",
            outcome.kind().name(),
            verdict.name(),
            outcome.message()
        ));
    }
    Ok(())
}

/// Runs the trials as a test binary (libtest's arguments and output) and
/// exits with its status.
pub fn main<P: Protocol>(engine: P, options: Options) -> ! {
    let args = Arguments::from_args();
    match run_as_trials(engine, &options) {
        Ok(trials) => libtest_mimic::run(&args, trials).exit(),
        Err(e) => {
            eprintln!("seams kit: {e}");
            std::process::exit(2);
        }
    }
}
