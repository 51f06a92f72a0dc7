//! Protocol 1.1 pipelining, end to end: `seams engine` declares it, the
//! runner's `Process` writes requests ahead and reads their replies later,
//! and every reply reaches the request it answers, whether collected in
//! order, given up, read early to make room in the pipe, or lost with an
//! engine that crashed.

use std::time::Duration;

use seams::conformance::case::Place;
use seams::conformance::engine::ErrorKind;
use seams::conformance::engine::{AskError, Embedded, Engine, MAX_AHEAD_BYTES, Posted, Process};
use seams::conformance::protocol::Command;
use seams::conformance::protocol::PIPELINING;
use seams::conformance::reference::Reference;
use serde_json::Value;

fn seams_engine(extra: &[&str]) -> Process {
    let mut argv = vec![env!("CARGO_BIN_EXE_seams").to_string(), "engine".into()];
    argv.extend(extra.iter().map(|s| s.to_string()));
    Process::start(argv, Duration::from_secs(20)).expect("seams engine starts")
}

fn legal(variant: &str, moves: &[&str]) -> Command {
    Command::LegalActions {
        variant: variant.into(),
        at: Place {
            position: None,
            moves: moves.iter().map(|m| m.to_string()).collect(),
        },
    }
}

/// The questions: the start of several variants, and a few actions in.
fn questions() -> Vec<Command> {
    vec![
        legal("chess-flat", &[]),
        legal("shogi-klein", &[]),
        legal("kyoto", &["a1-a2"]),
        legal("chess-mobius", &[]),
        Command::Perft {
            variant: "chess-flat".into(),
            at: Place::default(),
            depth: 2,
            divide: true,
        },
        legal("tetra-hexgi", &[]),
    ]
}

/// What the reference answers in process, one question at a time.
fn expected(commands: &[Command]) -> Vec<Result<Value, AskError>> {
    let reference = Reference::builtin();
    let mut engine = Embedded::new(reference);
    commands.iter().map(|c| unnumbered(engine.ask(c))).collect()
}

/// A reply without its id, which counts requests and so differs between
/// engines asked different sequences.
fn unnumbered(reply: Result<Value, AskError>) -> Result<Value, AskError> {
    reply.map(|mut v| {
        if let Some(fields) = v.as_object_mut() {
            fields.remove("id");
        }
        v
    })
}

/// Posts every command, then collects the replies of `wanted` (indices,
/// ascending) only.
fn post_then_collect(
    engine: &mut Process,
    commands: &[Command],
    wanted: &[usize],
) -> Vec<Result<Value, AskError>> {
    let mut posted: Vec<Option<Posted>> = commands
        .iter()
        .map(|c| Some(engine.post(c.clone())))
        .collect();
    wanted
        .iter()
        .map(|&i| unnumbered(engine.collect(posted[i].take().expect("collected once"))))
        .collect()
}

#[test]
fn seams_engine_declares_pipelining() {
    let engine = seams_engine(&[]);
    assert!(
        engine.hello().capabilities.iter().any(|c| c == PIPELINING),
        "{:?}",
        engine.hello().capabilities
    );
}

#[test]
fn replies_posted_together_come_back_in_order() {
    let commands = questions();
    let mut engine = seams_engine(&[]);
    let all: Vec<usize> = (0..commands.len()).collect();
    let got = post_then_collect(&mut engine, &commands, &all);
    assert_eq!(got, expected(&commands));
    assert_eq!(engine.starts, 1, "no restart was needed");
}

#[test]
fn replies_given_up_are_skipped() {
    let commands = questions();
    let mut engine = seams_engine(&[]);
    // Only the third and the last are collected: the others' replies are
    // read past, never handed to the wrong request.
    let got = post_then_collect(&mut engine, &commands, &[2, 5]);
    let want = expected(&commands);
    assert_eq!(got, vec![want[2].clone(), want[5].clone()]);
    // A question asked one at a time afterwards gets its own reply.
    assert_eq!(unnumbered(engine.ask(&commands[0])), want[0]);
    assert_eq!(engine.starts, 1);
}

#[test]
fn a_question_asked_alone_keeps_earlier_replies_for_their_callers() {
    let commands = questions();
    let mut engine = seams_engine(&[]);
    let first = engine.post(commands[0].clone());
    let second = engine.post(commands[1].clone());
    let want = expected(&commands);
    // Asked between posting and collecting: the replies already on their
    // way are kept, not dropped.
    assert_eq!(unnumbered(engine.ask(&commands[3])), want[3]);
    assert_eq!(unnumbered(engine.collect(first)), want[0]);
    assert_eq!(unnumbered(engine.collect(second)), want[1]);
}

#[test]
fn more_than_the_pipe_holds_is_read_early_and_kept() {
    // Long requests: every position is given as the moves of a short game,
    // repeated so that the requests in flight pass the limit many times.
    let moves = ["g1-f3", "g8-f6", "f3-g1", "f6-g8"];
    let commands: Vec<Command> = (0..40)
        .map(|k| {
            let game: Vec<&str> = moves.iter().copied().cycle().take(4 * (k % 20)).collect();
            legal("chess-flat", &game)
        })
        .collect();
    let bytes: usize = commands
        .iter()
        .map(|c| serde_json::to_string(c).unwrap().len())
        .sum();
    assert!(
        bytes > MAX_AHEAD_BYTES / 4,
        "the requests are long enough to need room: {bytes} bytes"
    );
    let repeated: Vec<Command> = commands.iter().cycle().take(200).cloned().collect();
    let mut engine = seams_engine(&[]);
    let all: Vec<usize> = (0..repeated.len()).collect();
    let got = post_then_collect(&mut engine, &repeated, &all);
    assert_eq!(got, expected(&repeated));
}

#[test]
fn an_engine_that_crashes_mid_batch_is_restarted_for_the_rest() {
    let commands = questions();
    let mut engine = seams_engine(&["--fault", "crash"]);
    let got = post_then_collect(&mut engine, &commands, &[0, 1]);
    for reply in &got {
        match reply {
            Err(AskError::Failed {
                kind: ErrorKind::Crash,
                message,
            }) => assert!(message.contains("legal_actions"), "{message}"),
            other => panic!("a crash is reported as one: {other:?}"),
        }
    }
    assert_eq!(engine.starts, 2, "the second question went to a new engine");
}
