//! `seams fuzz`'s library half (`conformance::fuzz`) with engines
//! in process: the reference against itself, determinism, shrinking a
//! difference injected at ply 37, keys judged by grouping, documented
//! differences, errors and unsupported questions, made-up starts shrunk
//! over their pieces, and stopping.

use std::sync::atomic::{AtomicBool, Ordering};

use seams::conformance::case::Check;
use seams::conformance::engine::{AskError, Embedded, Engine};
use seams::conformance::expectations::KnownDifference;
use seams::conformance::fuzz::{self, Options, Progress, Question, Run, StartKind, Stop};
use seams::conformance::protocol::{Command, Hello};
use seams::conformance::reference::Reference;
use seams::conformance::runner::OutcomeKind;
use seams::variant::{At, Variant};
use serde_json::{Value, json};

fn variants() -> Vec<&'static dyn Variant> {
    seams::registry::variants()
        .iter()
        .map(|v| v.as_ref())
        .collect()
}

fn options(games: u32, plies: u32, seed: u64) -> Options<'static> {
    Options {
        games,
        plies,
        seed,
        edited: false,
        keep_going: false,
        deadline: None,
        stop: None,
        differences: &[],
        engine_label: "a test engine".into(),
        shard: None,
    }
}

fn fuzz(engine: &mut dyn Engine, wanted: &[&str], opts: &Options) -> Run {
    let wanted: Vec<String> = wanted.iter().map(|s| s.to_string()).collect();
    let all = variants();
    let plan = fuzz::plan(engine.hello(), &all, &wanted, opts).expect("a plan");
    fuzz::run(engine, &plan, opts, &mut |_| {})
}

/// The reference in process, its replies changed by `edit` (which sees
/// the command and the reply's fields) or replaced by an error.
struct Tampered<F> {
    inner: Embedded<'static>,
    edit: F,
    /// Every command asked, as JSON, in order.
    asked: Vec<String>,
}

fn tampered<F>(edit: F) -> Tampered<F>
where
    F: FnMut(&Command, &mut Value) -> Result<(), AskError>,
{
    Tampered {
        inner: Embedded::new(Reference::builtin()),
        edit,
        asked: Vec::new(),
    }
}

impl<F> Engine for Tampered<F>
where
    F: FnMut(&Command, &mut Value) -> Result<(), AskError>,
{
    fn hello(&self) -> &Hello {
        self.inner.hello()
    }
    fn ask(&mut self, command: &Command) -> Result<Value, AskError> {
        self.asked
            .push(serde_json::to_string(command).unwrap_or_default());
        let mut reply = self.inner.ask(command)?;
        (self.edit)(command, &mut reply)?;
        Ok(reply)
    }
}

fn untouched(_: &Command, _: &mut Value) -> Result<(), AskError> {
    Ok(())
}

#[test]
fn the_reference_agrees_with_itself_in_every_variant() {
    let mut engine = Embedded::new(Reference::builtin());
    let mut opts = options(5, 60, 3);
    opts.edited = true;
    let run = fuzz(&mut engine, &[], &opts);
    assert_eq!(run.stopped, Stop::Completed);
    assert!(run.findings.is_empty(), "{:#?}", run.findings.first());
    assert_eq!(run.variants.len(), variants().len());
    for v in &run.variants {
        assert_eq!(v.games, 5, "{}", v.variant);
        assert!(v.positions > 5, "{}", v.variant);
        for q in [
            Question::LegalActions,
            Question::Apply,
            Question::Status,
            Question::Key,
        ] {
            assert!(
                v.asked.get(&q).copied().unwrap_or(0) > 0,
                "{} {q:?}",
                v.variant
            );
        }
    }
    assert_eq!(
        run.positions,
        run.variants.iter().map(|v| v.positions).sum::<u64>()
    );
}

#[test]
fn a_seed_plays_the_same_games_and_another_seed_other_ones() {
    let asked = |seed: u64| {
        let mut engine = tampered(untouched);
        let run = fuzz(
            &mut engine,
            &["chess-mobius", "kyoto", "shogi-klein"],
            &options(6, 50, seed),
        );
        assert!(run.findings.is_empty());
        engine.asked
    };
    let first = asked(11);
    assert!(first.len() > 100);
    assert_eq!(first, asked(11), "the same seed asks the same questions");
    assert_ne!(first, asked(12));
}

#[test]
fn one_variant_alone_replays_the_games_it_plays_among_all() {
    // A finding's game is replayed by --variant and --games: a variant's
    // games do not depend on the other variants of the run.
    let mut all = tampered(untouched);
    fuzz(&mut all, &["chess-flat", "kyoto"], &options(3, 40, 5));
    let mut alone = tampered(untouched);
    fuzz(&mut alone, &["kyoto"], &options(3, 40, 5));
    let kyoto: Vec<&String> = all
        .asked
        .iter()
        .filter(|c| c.contains("\"kyoto\""))
        .collect();
    assert_eq!(kyoto, alone.asked.iter().collect::<Vec<_>>());
}

/// The text of every position the first game of `variant` passes, in
/// order, as the engine is asked about it.
fn game_positions(variant: &str, seed: u64) -> Vec<Option<String>> {
    let mut engine = tampered(untouched);
    fuzz(&mut engine, &[variant], &options(1, 120, seed));
    engine
        .asked
        .iter()
        .filter_map(|c| serde_json::from_str::<Value>(c).ok())
        .filter(|c| c["cmd"] == "legal_actions")
        .map(|c| c["position"].as_str().map(String::from))
        .collect()
}

#[test]
fn a_difference_injected_at_ply_37_shrinks_to_a_few_actions() {
    let v = seams::registry::find("chess-flat").unwrap();
    let legal = |p: &Option<String>| {
        v.legal_actions(&At {
            position: p.as_deref(),
            moves: &[],
        })
        .unwrap()
    };
    // An action text no position before ply 37 has: an engine that never
    // generates it first differs there.
    let (seed, missing) = (1..40)
        .find_map(|seed| {
            let positions = game_positions("chess-flat", seed);
            let at = positions.get(37)?;
            let before: std::collections::HashSet<String> =
                positions[..37].iter().flat_map(legal).collect();
            let new = legal(at).into_iter().find(|a| !before.contains(a))?;
            Some((seed, new))
        })
        .expect("a game with a new action at ply 37");
    let dropped = missing.clone();
    let mut engine = tampered(move |c: &Command, reply: &mut Value| {
        if let (Command::LegalActions { .. }, Some(list)) = (c, reply["actions"].as_array_mut()) {
            list.retain(|a| a != dropped.as_str());
        }
        Ok(())
    });
    let run = fuzz(&mut engine, &["chess-flat"], &options(1, 120, seed));
    assert_eq!(run.stopped, Stop::Found);
    let f = &run.findings[0];
    assert_eq!(f.question, Question::LegalActions);
    assert_eq!(f.found_after, 37, "injected at ply 37");
    assert_eq!(f.difference.missing, vec![missing.clone()]);
    assert!(
        f.actions.len() <= 6,
        "{missing} is reached in {} actions: {:?}",
        f.actions.len(),
        f.actions
    );
    assert_eq!(
        f.case_reproduces,
        Some(true),
        "the written case shows the difference"
    );
    match &f.case.check {
        Check::LegalActions { expect, at, .. } => {
            assert!(expect.contains(&missing));
            assert_eq!(at.moves, f.actions);
        }
        other => panic!("a legal-actions case, not {other:?}"),
    }
    assert!(f.case.provenance.is_unreviewed());
}

/// The position text's first field: the placement alone.
fn placement(text: &str) -> &str {
    text.split_whitespace().next().unwrap_or_default()
}

#[test]
fn keys_are_judged_by_how_they_group_positions() {
    // An engine's own key format is fine…
    let mut own = tampered(|c: &Command, reply: &mut Value| {
        if let (Command::Key { .. }, Some(k)) = (c, reply["key"].as_str()) {
            reply["key"] = json!(format!("mine:{}", k.chars().rev().collect::<String>()));
        }
        Ok(())
    });
    let run = fuzz(
        &mut own,
        &["shogi-mobius", "chess-flat"],
        &options(4, 60, 2),
    );
    assert!(run.findings.is_empty(), "{:#?}", run.findings.first());
    // …but a key that looks at only the top of the board groups positions
    // the reference tells apart.
    let mut forgetful = tampered(|c: &Command, reply: &mut Value| {
        if let Command::Key { at, .. } = c {
            let text = at.position.clone().unwrap_or_default();
            reply["key"] = json!(text.chars().take(12).collect::<String>());
        }
        Ok(())
    });
    let run = fuzz(&mut forgetful, &["kyoto"], &options(20, 60, 2));
    let f = run.findings.first().expect("a key finding");
    assert_eq!(f.question, Question::Key);
    match &f.case.check {
        Check::Keys { a, b, .. } => assert_ne!(a.position, b.position),
        other => panic!("a keys case, not {other:?}"),
    }
    assert_eq!(f.case_reproduces, Some(true));
}

/// An engine that ends a game by repetition at its first repeated
/// position (as a search engine's draw rule would).
fn early_repetition(c: &Command, reply: &mut Value) -> Result<(), AskError> {
    if let Command::Status { at, .. } = c
        && !at.moves.is_empty()
        && reply["result"].is_null()
    {
        reply["result"] = json!({"winner": null, "reason": "repetition"});
    }
    Ok(())
}

#[test]
fn a_documented_difference_ends_its_game_and_is_counted() {
    let mut engine = tampered(early_repetition);
    let run = fuzz(&mut engine, &["shogi-flat"], &options(30, 80, 4));
    let f = run.findings.first().expect("undocumented, it is a finding");
    assert_eq!(f.question, Question::Status);

    let known = [KnownDifference {
        question: "status".into(),
        variant: Some("shogi-flat".into()),
        reference: Some(json!({"result": null})),
        engine: Some(json!({"result": {"reason": "repetition"}})),
        case: None,
        note: "draws at the second occurrence".into(),
    }];
    let mut opts = options(30, 80, 4);
    opts.differences = &known;
    let mut engine = tampered(early_repetition);
    let run = fuzz(&mut engine, &["shogi-flat"], &opts);
    assert!(run.findings.is_empty(), "{:#?}", run.findings.first());
    let documented = &run.variants[0].documented;
    assert_eq!(documented.len(), 1);
    assert!(documented[0].count > 0);
    assert_eq!(run.variants[0].games, 30, "the other games go on");
}

#[test]
fn an_error_is_a_finding_and_unsupported_is_not_asked_again_in_its_game() {
    let mut engine = tampered(|c: &Command, _: &mut Value| match c {
        Command::Key { .. } => Err(AskError::Unsupported),
        _ => Ok(()),
    });
    let run = fuzz(&mut engine, &["kyoto", "chess-flat"], &options(3, 40, 1));
    assert!(run.findings.is_empty());
    for v in &run.variants {
        assert_eq!(v.unsupported, vec![Question::Key]);
        // Once per game: no game depends on what another was answered.
        assert_eq!(v.asked[&Question::Key], 3, "{}", v.variant);
    }

    let mut engine = tampered(|c: &Command, _: &mut Value| match c {
        Command::Apply { .. } => Err(AskError::Failed {
            kind: seams::conformance::ErrorKind::Engine,
            message: "no apply here".into(),
        }),
        _ => Ok(()),
    });
    let run = fuzz(&mut engine, &["tetra-shogi"], &options(3, 40, 1));
    let f = &run.findings[0];
    assert_eq!(f.difference.kind, OutcomeKind::EngineError);
    assert_eq!(f.question, Question::Apply);
    assert_eq!(f.actions.len(), 1, "any single action shows it");
}

#[test]
fn a_made_up_start_is_shrunk_over_its_pieces() {
    // The engine refuses any surface-shogi position without A's king,
    // which only a made-up or thinned start has.
    let mut engine = tampered(|c: &Command, _: &mut Value| {
        if let Command::LegalActions { at, .. } = c
            && let Some(text) = &at.position
            && !placement(text).contains('K')
        {
            return Err(AskError::Failed {
                kind: seams::conformance::ErrorKind::Engine,
                message: "where is the king?".into(),
            });
        }
        Ok(())
    });
    let mut opts = options(40, 40, 8);
    opts.edited = true;
    let run = fuzz(&mut engine, &["shogi-mobius"], &opts);
    let f = run.findings.first().expect("a finding");
    let start = f.start.as_deref().expect("from a made-up start");
    let pieces = placement(start)
        .chars()
        .filter(|c| c.is_ascii_alphabetic())
        .count();
    assert!(f.pieces_removed > 0, "{start}");
    assert!(pieces <= 1, "only what the refusal needs is left: {start}");
    assert!(f.actions.is_empty(), "{:?}", f.actions);
}

#[test]
fn a_run_stops_when_asked_and_at_its_deadline() {
    let stop = AtomicBool::new(false);
    let mut opts = options(50, 40, 1);
    opts.stop = Some(&stop);
    let mut engine = Embedded::new(Reference::builtin());
    let all = variants();
    let plan = fuzz::plan(engine.hello(), &all, &["kyoto".into()], &opts).unwrap();
    let run = fuzz::run(&mut engine, &plan, &opts, &mut |p: &Progress| {
        if p.games_done == 3 {
            stop.store(true, Ordering::Relaxed);
        }
    });
    assert_eq!(run.stopped, Stop::Interrupted);
    assert_eq!(
        run.variants[0].games, 4,
        "stopped in the game after the third"
    );
    assert!(run.positions > 0);

    let mut opts = options(50, 40, 1);
    opts.deadline = Some(std::time::Instant::now());
    let run = fuzz(&mut engine, &["kyoto"], &opts);
    assert_eq!(run.stopped, Stop::MaxTime);
    assert_eq!(run.positions, 0);
}

#[test]
fn plans_refuse_what_cannot_be_played() {
    let engine = Embedded::new(Reference::builtin());
    let all = variants();
    let plan = |wanted: &[&str], opts: &Options| {
        let wanted: Vec<String> = wanted.iter().map(|s| s.to_string()).collect();
        fuzz::plan(engine.hello(), &all, &wanted, opts).map(|p| p.variants.len())
    };
    assert_eq!(plan(&[], &options(1, 1, 1)).unwrap(), all.len());
    let e = plan(&["chess-klien"], &options(1, 1, 1))
        .unwrap_err()
        .to_string();
    assert!(e.contains("chess-klein"), "{e}");
    assert!(plan(&[], &options(0, 1, 1)).is_err());
    assert!(plan(&[], &options(1, fuzz::MAX_PLIES + 1, 1)).is_err());
    // A hello without any of the questions.
    let mut bare = engine.hello().clone();
    bare.commands.retain(|c| c == "hello" || c == "geometry");
    let e = fuzz::plan(&bare, &all, &[], &options(1, 1, 1))
        .err()
        .expect("no question");
    assert!(e.to_string().contains("declares none"), "{e}");
    // Another rules version of a variant is left out, and said so.
    let mut older = engine.hello().clone();
    older.variants.retain(|v| v.name.starts_with("kyoto"));
    older.variants[0].rules = "0.9".into();
    let p = fuzz::plan(&older, &all, &[], &options(1, 1, 1)).unwrap();
    assert_eq!(p.variants.len(), 1);
    assert_eq!(p.skipped.len(), 1);
    assert!(p.skipped[0].reason.contains("0.9"));
}

#[test]
fn starts_come_in_every_kind() {
    let mut engine = Embedded::new(Reference::builtin());
    let mut opts = options(40, 30, 6);
    opts.edited = true;
    let run = fuzz(&mut engine, &["chess-klein"], &opts);
    assert!(run.findings.is_empty());
    let starts = &run.variants[0].starts;
    for kind in [
        StartKind::Initial,
        StartKind::Thinned,
        StartKind::Hunting,
        StartKind::Seeded,
        StartKind::Edited,
    ] {
        assert!(
            starts.get(&kind).copied().unwrap_or(0) > 0,
            "{kind:?}: {starts:?}"
        );
    }
}

#[test]
fn a_run_stopped_while_shrinking_reports_what_it_has() {
    // The engine forgets castling, and Ctrl-C comes as it is first caught.
    let stop = AtomicBool::new(false);
    let mut engine = tampered(|c: &Command, reply: &mut Value| {
        if let (Command::LegalActions { .. }, Some(list)) = (c, reply["actions"].as_array_mut()) {
            let before = list.len();
            list.retain(|a| !a.as_str().unwrap_or_default().starts_with("O-O"));
            if list.len() < before {
                stop.store(true, Ordering::Relaxed);
            }
        }
        Ok(())
    });
    let mut opts = options(20, 120, 1);
    opts.stop = Some(&stop);
    let run = fuzz(&mut engine, &["chess-flat"], &opts);
    assert_eq!(run.stopped, Stop::Found);
    let f = &run.findings[0];
    assert!(f.difference.missing.iter().all(|a| a.starts_with("O-O")));
    assert_eq!(f.actions.len(), f.found_after, "not shrunk");
    assert_eq!(f.shrink_tests, 0);
    assert_eq!(f.case_reproduces, None, "not asked after the stop");
}

/// The walk random play goes through (`Variant::walk`) follows the game
/// its texts play and describes each action.
#[test]
fn the_walk_follows_the_game() {
    let v = seams::registry::find("chess-flat").unwrap();
    let mut w = v.walk(None).unwrap();
    assert_eq!(w.actions().len(), 20);
    w.play_text("e2-e4").unwrap();
    w.play_text("f7-f5").unwrap();
    w.play_text("d1-h5").unwrap();
    assert!(w.in_check());
    assert_eq!(w.plies(), 3);
    assert!(w.refusal("g7-g6").is_none());
    let refused = w.refusal("e8-f7").expect("the queen on h5 sees f7");
    assert_eq!(refused.code, seams::rules::IllegalReason::KingInCheck);
    let capture = w.actions().iter().position(|a| a == "g7-g6").unwrap();
    assert!(!w.board(capture).capture);
    w.play(capture);
    let takes = w.actions().iter().position(|a| a == "h5-g6").unwrap();
    assert!(w.board(takes).capture);
    assert!(w.gives_check(takes));
}
