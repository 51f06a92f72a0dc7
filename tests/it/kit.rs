//! The Rust kit: engines in process, every applicable case a named trial,
//! judged as `seams conform` judges them.

use seams::conformance::kit::{Options, Protocol, check_all, run_as_trials};
use seams::conformance::protocol::{Command, Request};
use seams::conformance::reference::Reference;
use seams::conformance::runner::Selection;
use seams::spec::Library;
use serde_json::Value;

/// The reference, optionally with one deliberate mistake: the first legal
/// action of every list dropped.
struct Wrapped {
    reference: Reference<'static>,
    drop_first_action: bool,
}

impl Wrapped {
    fn new(drop_first_action: bool) -> Wrapped {
        let variants = seams::registry::variants()
            .iter()
            .map(|v| v.as_ref())
            .collect();
        Wrapped {
            reference: Reference::new(Library::builtin(), variants),
            drop_first_action,
        }
    }
}

impl Protocol for Wrapped {
    fn reply(&mut self, request: &Request) -> Value {
        let mut reply = self.reference.handle(request);
        if self.drop_first_action
            && matches!(request.command, Command::LegalActions { .. })
            && let Some(actions) = reply["actions"].as_array_mut()
            && !actions.is_empty()
        {
            actions.remove(0);
        }
        reply
    }
}

fn options(case: &str, expect: Option<std::path::PathBuf>) -> Options {
    Options {
        selection: Selection {
            case: Some(case.into()),
            ..Selection::default()
        },
        expect,
        ..Options::default()
    }
}

/// Passed and failed counts of every applicable case, run without a
/// harness (a nested libtest run would print its own summary lines).
struct Conclusion {
    num_passed: u64,
    num_failed: u64,
}

fn run(engine: Wrapped, options: &Options) -> Conclusion {
    let results = check_all(engine, options).expect("the engine starts");
    assert!(!results.is_empty());
    let failed = results.iter().filter(|(_, r)| r.is_err()).count() as u64;
    Conclusion {
        num_passed: results.len() as u64 - failed,
        num_failed: failed,
    }
}

fn check(conclusion: &Conclusion, passed: impl Fn(u64) -> bool, failed: u64) {
    assert!(
        passed(conclusion.num_passed),
        "{} passed",
        conclusion.num_passed
    );
    assert_eq!(conclusion.num_failed, failed);
}

#[test]
fn trials_are_named_by_case_id_and_kind() {
    let trials = run_as_trials(Wrapped::new(false), &options("kyoto/", None)).unwrap();
    let names: Vec<&str> = trials.iter().map(|t| t.name()).collect();
    // The filter matches ids containing it: the Kyoto cases and the
    // Kyoto notation cases.
    assert!(
        names
            .iter()
            .all(|n| n.starts_with("kyoto/") || n.starts_with("notation/kyoto/")),
        "{names:?}"
    );
    assert!(trials.iter().any(|t| t.kind() == "perft"));
}

#[test]
fn a_correct_engine_passes_every_trial() {
    let c = run(Wrapped::new(false), &options("kyoto/", None));
    check(&c, |n| n > 20, 0);
}

#[test]
fn a_wrong_engine_fails_the_cases_that_see_it() {
    let c = run(Wrapped::new(true), &options("kyoto/", None));
    assert!(c.num_failed > 0, "{} failed", c.num_failed);
    assert!(c.num_passed > 0, "perft and play cases still pass");
}

#[test]
fn known_failures_pass_while_they_fail_as_listed() {
    let dir = std::env::temp_dir().join(format!("seams-kit-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    // Every Kyoto legal-actions case, listed as failing.
    let corpus = seams::conformance::Corpus::builtin().unwrap();
    let listed: Vec<Value> = corpus
        .cases
        .iter()
        .filter(|(_, c)| c.id.starts_with("kyoto/") && c.check.kind() == "legal-actions")
        .map(|(_, c)| serde_json::json!({"id": c.id, "kind": "fail", "note": "drops an action"}))
        .collect();
    assert!(!listed.is_empty());
    let file = dir.join("known.json");
    std::fs::write(&file, serde_json::json!({"known": listed}).to_string()).unwrap();
    let wrong = run(Wrapped::new(true), &options("kyoto/", Some(file.clone())));
    check(&wrong, |n| n > 0, 0);
    // The same listing against a correct engine: each listed case now
    // passes, which is a mismatch.
    let right = run(Wrapped::new(false), &options("kyoto/", Some(file)));
    assert_eq!(right.num_failed, listed.len() as u64);
}
