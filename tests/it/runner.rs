//! The conformance runner in process: a tiny race game stands in for a rule
//! family, so rules questions (legal actions, perft with divide, play,
//! keys, records) go through the protocol, the runner, expectations and
//! bisection without depending on shogi or chess.

use std::collections::HashSet;
use std::io::Cursor;

use seams::conformance::bisect::{self, Bisection};
use seams::conformance::engine::{AskError, Embedded, Engine};
use seams::conformance::expectations::{self, Expectations, Verdict};
use seams::conformance::protocol::{Command, Hello, Request};
use seams::conformance::reference::Reference;
use seams::conformance::report::Report;
use seams::conformance::runner::{self, OutcomeKind, Selection};
use seams::conformance::version::Version;
use seams::conformance::{Corpus, Outcome, Tier, id, schema};
use seams::rules::{
    ActionError, EndReason, GameResult, History, IllegalReason, Key, Player, PositionError, Rules,
};
use seams::spec::Library;
use seams::variant::Variant;

/// Two tokens race along a track of `LEN` cells; each turn the mover steps
/// its token 1 or 2 cells forward (not past the end). Reaching the end
/// wins. `bug_at`: a wrong engine that forbids `+2` when the mover's token
/// is on that cell.
struct Race {
    bug_at: Option<u8>,
}

const LEN: u8 = 6;

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
struct Pos {
    tokens: [u8; 2],
    first_to_move: bool,
}

impl Pos {
    fn mover(&self) -> usize {
        if self.first_to_move { 0 } else { 1 }
    }
}

impl Rules for Race {
    type Position = Pos;
    type Action = u8;
    fn variant(&self) -> &str {
        "race"
    }
    fn rules_version(&self) -> &str {
        "0.1"
    }
    fn start(&self) -> Pos {
        Pos {
            tokens: [0, 0],
            first_to_move: true,
        }
    }
    fn player_name(&self, p: Player) -> &'static str {
        match p {
            Player::First => "first racer",
            Player::Second => "second racer",
        }
    }
    fn to_move(&self, p: &Pos) -> Player {
        if p.first_to_move {
            Player::First
        } else {
            Player::Second
        }
    }
    fn legal_actions(&self, p: &Pos) -> Vec<u8> {
        if p.tokens.contains(&LEN) {
            return vec![];
        }
        let here = p.tokens[p.mover()];
        (1..=2)
            .filter(|s| here + s <= LEN)
            .filter(|s| !(*s == 2 && self.bug_at == Some(here)))
            .collect()
    }
    fn apply(&self, p: &Pos, a: &u8) -> Pos {
        let mut n = p.clone();
        n.tokens[p.mover()] += a;
        n.first_to_move = !p.first_to_move;
        n
    }
    fn in_check(&self, _: &Pos) -> bool {
        false
    }
    fn key(&self, p: &Pos) -> Key {
        self.format_position(p)
    }
    fn material(&self, _: &Pos) -> [i32; 2] {
        // Tokens are never captured: there is no material to count.
        [0, 0]
    }
    fn adjudicate(&self, game: &History<Pos>, _empty: bool) -> Option<GameResult> {
        let p = game.current();
        [Player::First, Player::Second]
            .into_iter()
            .find(|w| p.tokens[w.index()] == LEN)
            .map(|w| GameResult {
                winner: Some(w),
                reason: EndReason::NoLegalAction,
            })
    }
    fn format_action(&self, _: &Pos, a: &u8) -> String {
        format!("+{a}")
    }
    fn notation(&self) -> Option<seams::rules::Notation> {
        None
    }
    fn read_derived_action(&self, p: &Pos, text: &str) -> Result<u8, ActionError> {
        let step: u8 = text
            .strip_prefix('+')
            .and_then(|t| t.parse().ok())
            .ok_or_else(|| ActionError {
                code: IllegalReason::Syntax,
                message: format!("'{text}' is not +1 or +2"),
            })?;
        if Rules::legal_actions(self, p).contains(&step) {
            Ok(step)
        } else {
            Err(ActionError {
                code: IllegalReason::Unreachable,
                message: format!("+{step} is not possible here"),
            })
        }
    }
    fn format_position(&self, p: &Pos) -> String {
        format!(
            "{}-{} {}",
            p.tokens[0],
            p.tokens[1],
            if p.first_to_move { "a" } else { "b" }
        )
    }
    fn read_derived_position(&self, text: &str) -> Result<Pos, PositionError> {
        let bad = |m: &str| PositionError {
            field: "placement".into(),
            message: m.into(),
        };
        let (tokens, side) = text
            .trim()
            .split_once(' ')
            .ok_or_else(|| bad("write 'A-B side'"))?;
        let (a, b) = tokens.split_once('-').ok_or_else(|| bad("write 'A-B'"))?;
        let cell = |t: &str| {
            t.trim()
                .parse::<u8>()
                .ok()
                .filter(|x| *x <= LEN)
                .ok_or_else(|| bad("a token is on 0..=6"))
        };
        Ok(Pos {
            tokens: [cell(a)?, cell(b)?],
            first_to_move: match side.trim() {
                "a" => true,
                "b" => false,
                _ => return Err(bad("the side is a or b")),
            },
        })
    }
    fn exchange(&self, p: &Pos) -> Pos {
        Pos {
            tokens: [p.tokens[1], p.tokens[0]],
            first_to_move: !p.first_to_move,
        }
    }
    fn exchange_action(&self, _: &Pos, a: &u8) -> u8 {
        *a
    }
    fn capabilities(&self) -> &'static [&'static str] {
        &["tokens"]
    }
}

static GOOD: Race = Race { bug_at: None };
static BUGGY: Race = Race { bug_at: Some(2) };

fn engine(v: &'static Race) -> Embedded<'static> {
    Embedded::new(Reference::new(Library::builtin(), vec![v as &dyn Variant]))
}

/// A corpus of rules cases about the race game, with ids rehashed.
const RACE_CASES: &str = r#"{"cases": [
 {"id": "race/start-actions", "title": "Both steps from the start", "clauses": ["RACE-1"],
  "capabilities": ["legal-actions"],
  "provenance": {"kind": "derived", "reasoning": "a token on 0 may step 1 or 2"},
  "check": {"kind": "legal-actions", "variant": "race", "expect": ["+1", "+2"]}},
 {"id": "race/from-two", "title": "Both steps from cell 2", "clauses": ["RACE-1"],
  "capabilities": ["legal-actions"],
  "provenance": {"kind": "derived", "reasoning": "2 + 2 = 4 is on the track"},
  "check": {"kind": "legal-actions", "variant": "race", "position": "2-0 a", "expect": ["+1", "+2"]}},
 {"id": "race/no-overshoot", "title": "Cannot step past the end", "clauses": ["RACE-2"],
  "capabilities": ["legal-actions"],
  "provenance": {"kind": "derived", "reasoning": "5 + 2 > 6"},
  "check": {"kind": "action", "variant": "race", "position": "5-0 a", "action": "+2",
            "expect": {"legal": false, "reason": "unreachable"}}},
 {"id": "race/perft-3", "title": "Perft 3 with divide", "clauses": ["RACE-1", "RACE-3"],
  "capabilities": ["perft"],
  "provenance": {"kind": "derived", "reasoning": "two choices per ply, nothing reaches the end in three plies"},
  "check": {"kind": "perft", "variant": "race", "depth": 3, "expect": 8, "divide": {"+1": 4, "+2": 4}}},
 {"id": "race/perft-big", "title": "A deep perft, full tier only", "clauses": ["RACE-3"],
  "capabilities": ["perft"],
  "provenance": {"kind": "derived", "reasoning": "a stand-in for an expensive count"},
  "check": {"kind": "perft", "variant": "race", "depth": 1, "expect": 999999999}},
 {"id": "race/win", "title": "Reaching the end wins", "clauses": ["RACE-4"],
  "capabilities": ["play"],
  "provenance": {"kind": "derived", "reasoning": "the first player reaches 6"},
  "check": {"kind": "play", "variant": "race", "position": "4-0 a", "moves": ["+2"],
            "expect": {"position": "6-0 b", "in_check": false,
                       "result": {"winner": "first", "reason": "no-legal-action"}}}},
 {"id": "race/keys", "title": "Transposed move orders give one key", "clauses": ["RACE-5"],
  "capabilities": ["keys"],
  "provenance": {"kind": "derived", "reasoning": "only token cells and the side count"},
  "check": {"kind": "keys", "variant": "race", "a": {"moves": ["+1", "+2", "+2"]},
            "b": {"moves": ["+2", "+2", "+1"]}, "expect": "equal"}},
 {"id": "race/record", "title": "An overshooting record is rejected at its ply", "clauses": ["RACE-2"],
  "capabilities": ["records"],
  "provenance": {"kind": "derived", "reasoning": "ply 3 steps from 4 to past 6"},
  "check": {"kind": "record", "variant": "race",
            "record": {"variant": "race", "rules": "0.1", "start": {"kind": "edited", "position": "4-0 a"},
                       "actions": ["+1", "+1", "+2"], "result": null},
            "expect": {"verdict": "rejected", "ply": 3, "reason": "illegal-action", "illegal": "unreachable"}}},
 {"id": "race/future-rules", "title": "Only for rules 0.3 and later", "clauses": ["RACE-9"],
  "rules": ">=0.3", "capabilities": ["legal-actions", "drops"],
  "provenance": {"kind": "derived", "reasoning": "a later rules version"},
  "check": {"kind": "legal-actions", "variant": "race", "expect": []}}
]}"#;

fn race_corpus() -> Corpus {
    let dir = tempdir("race-corpus");
    std::fs::write(dir.join("race.json"), RACE_CASES).unwrap();
    seams::conformance::rehash_dir(&dir).expect("the race cases are valid");
    let c = Corpus::from_dir(&dir).expect("rehashed cases load");
    let _ = std::fs::remove_dir_all(&dir);
    c
}

/// A fresh folder per call: tests run in parallel threads of one process.
fn tempdir(tag: &str) -> std::path::PathBuf {
    static NEXT: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let n = NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let d = std::env::temp_dir().join(format!("seams-runner-{tag}-{}-{n}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn run_all(e: &mut dyn Engine, corpus: &Corpus, sel: &Selection) -> Vec<runner::CaseResult> {
    let hello = e.hello().clone();
    let (cases, _) = runner::select(corpus, sel, &hello);
    runner::run(e, &cases, &[&GOOD as &dyn Variant], &mut |_| {})
}

fn outcome<'a>(results: &'a [runner::CaseResult], slug: &str) -> &'a Outcome {
    &results
        .iter()
        .find(|r| r.id.starts_with(&format!("{slug}#")))
        .unwrap_or_else(|| panic!("no result for {slug}"))
        .outcome
}

#[test]
fn the_reference_passes_every_quick_rules_case() {
    let corpus = race_corpus();
    let quick = Selection {
        tier: Some(Tier::Quick),
        ..Default::default()
    };
    let results = run_all(&mut engine(&GOOD), &corpus, &quick);
    for r in &results {
        assert_eq!(r.outcome, Outcome::Pass, "{}", r.id);
    }
    // The full-tier perft is left out, and the rules range of
    // future-rules excludes 0.1, so that case is not even asked.
    assert_eq!(results.len(), 7);
}

#[test]
fn a_wrong_engine_fails_with_missing_actions_and_divide_detail() {
    let corpus = race_corpus();
    let results = run_all(&mut engine(&BUGGY), &corpus, &Selection::default());
    match outcome(&results, "race/from-two") {
        Outcome::Fail { detail, .. } => {
            assert!(detail.contains(r#"missing ["+2"]; extra []"#), "{detail}")
        }
        o => panic!("{o:?}"),
    }
    // Perft 3 from the start reaches cell 2 for the first player, so the
    // counts below "+1" and "+2" differ.
    assert_eq!(outcome(&results, "race/perft-3").kind(), OutcomeKind::Fail);
    assert_eq!(outcome(&results, "race/start-actions"), &Outcome::Pass);
}

#[test]
fn tiers_rules_versions_and_variants_select_cases() {
    let corpus = race_corpus();
    let hello = engine(&GOOD).hello().clone();
    let quick = Selection {
        tier: Some(Tier::Quick),
        ..Default::default()
    };
    let (cases, not_applicable) = runner::select(&corpus, &quick, &hello);
    assert!(
        cases
            .iter()
            .all(|(_, c)| !c.id.starts_with("race/perft-big#"))
    );
    assert_eq!(not_applicable, 1);
    let later = Selection {
        rules: Some(Version::parse("0.3").unwrap()),
        ..Default::default()
    };
    let (cases, not_applicable) = runner::select(&corpus, &later, &hello);
    assert_eq!((cases.len(), not_applicable), (9, 0));
    let other = Selection {
        variant: Some("chess-klein".into()),
        ..Default::default()
    };
    assert!(runner::select(&corpus, &other, &hello).0.is_empty());
    let glob = Selection {
        case: Some("race/perft-*".into()),
        ..Default::default()
    };
    assert_eq!(runner::select(&corpus, &glob, &hello).0.len(), 2);
}

#[test]
fn missing_capabilities_make_cases_unsupported() {
    let corpus = race_corpus();
    let mut e = engine(&GOOD);
    let hello = e.hello().clone();
    let later = Selection {
        rules: Some(Version::parse("0.3").unwrap()),
        case: Some("future".into()),
        ..Default::default()
    };
    let (cases, _) = runner::select(&corpus, &later, &hello);
    let r = runner::run(&mut e, &cases, &[], &mut |_| {});
    assert_eq!(
        r[0].outcome,
        Outcome::Unsupported("the engine does not declare the capability 'drops'".into())
    );
    // With the capability declared, the case is asked (and fails: the
    // race has moves at the start).
    let mut e = Embedded::new(
        Reference::new(Library::builtin(), vec![&GOOD as &dyn Variant])
            .with_capabilities(&["drops"]),
    );
    let r = runner::run(&mut e, &cases, &[], &mut |_| {});
    assert_eq!(r[0].outcome.kind(), OutcomeKind::Fail);
}

#[test]
fn engines_without_the_variant_are_unsupported() {
    let corpus = race_corpus();
    let mut e = Embedded::new(Reference::new(Library::builtin(), vec![]));
    let results = run_all(&mut e, &corpus, &Selection::default());
    assert!(
        results
            .iter()
            .all(|r| r.outcome.kind() == OutcomeKind::Unsupported)
    );
}

#[test]
fn the_protocol_round_trips_every_command() {
    let reference = Reference::new(Library::builtin(), vec![&GOOD as &dyn Variant]);
    let requests = [
        r#"{"id":0,"cmd":"hello","protocol":1}"#,
        r#"{"id":1,"cmd":"legal_actions","variant":"race","moves":["+2"]}"#,
        r#"{"id":2,"cmd":"check_action","variant":"race","position":"5-0 a","action":"+1"}"#,
        r#"{"id":3,"cmd":"perft","variant":"race","depth":2,"divide":true}"#,
        r#"{"id":4,"cmd":"apply","variant":"race","moves":["+1","+2"]}"#,
        r#"{"id":5,"cmd":"status","variant":"race","position":"5-5 a","moves":["+1"]}"#,
        r#"{"id":6,"cmd":"key","variant":"race"}"#,
        r#"{"id":7,"cmd":"verify_record","record":{"variant":"race","rules":"0.1","start":{"kind":"initial"},"actions":["+2","resign"],"result":{"winner":"first","reason":"resignation"}}}"#,
        r#"{"id":8,"cmd":"geometry","board":"flat-8x8","question":{"kind":"walk","board":"flat-8x8","from":"a1","steps":["NE"]}}"#,
        r#"{"id":9,"cmd":"legal_actions","variant":"shogi-nowhere"}"#,
        r#"{"id":10,"cmd":"teleport"}"#,
        r#"{"id":11,"cmd":"legal_actions","variant":"race","position":"9-9 z"}"#,
        r#"not json"#,
        r#"{"id":12,"cmd":"hello","protocol":7}"#,
        r#"{"id":13,"cmd":"geometry","board":"torus-1x1","question":{"kind":"walk"}}"#,
        r#"{"id":14,"cmd":"geometry","board":"flat-8x8","question":{"kind":"perft","board":"flat-8x8"}}"#,
    ];
    let mut out = Vec::new();
    reference
        .serve(Cursor::new(requests.join("\n")), &mut out)
        .unwrap();
    let replies: Vec<serde_json::Value> = String::from_utf8(out)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).expect("every reply is JSON"))
        .collect();
    assert_eq!(replies.len(), requests.len());
    assert_eq!(replies[0]["ok"], true);
    // The integer `1` of runners before protocol 1.0 is still served; the
    // reply names the version the engine speaks.
    assert_eq!(replies[0]["protocol"], "1.1");
    assert_eq!(replies[0]["variants"][0]["name"], "race");
    // The family's own feature is declared after the basic capabilities.
    assert_eq!(
        replies[0]["capabilities"],
        serde_json::json!([
            "geometry",
            "board-files",
            "pipelining",
            "legal-actions",
            "perft",
            "play",
            "keys",
            "records",
            "tokens"
        ])
    );
    assert_eq!(replies[1]["actions"], serde_json::json!(["+1", "+2"]));
    assert_eq!(replies[2]["legal"], true);
    assert_eq!(replies[2]["canonical"], "+1");
    assert_eq!(replies[3]["nodes"], 4);
    assert_eq!(replies[3]["divide"]["+1"], 2);
    assert_eq!(replies[4]["position"], "1-2 a");
    assert_eq!(replies[5]["result"]["winner"], "first");
    assert_eq!(replies[5]["to_move"], "second");
    assert_eq!(replies[6]["key"], "0-0 a");
    assert_eq!(replies[7]["verdict"], "accepted");
    assert_eq!(replies[8]["answer"]["cell"], "b2");
    assert_eq!(replies[9]["unsupported"], true);
    assert_eq!(replies[10]["unsupported"], true);
    assert_eq!(replies[10]["id"], 10);
    assert!(
        replies[11]["error"]
            .as_str()
            .unwrap()
            .contains("bad position")
    );
    assert_eq!(replies[12]["id"], serde_json::Value::Null);
    assert!(
        replies[12]["error"]
            .as_str()
            .unwrap()
            .contains("unreadable request")
    );
    assert!(
        replies[13]["error"]
            .as_str()
            .unwrap()
            .contains("protocol 7")
    );
    assert_eq!(replies[14]["unsupported"], true);
    assert!(
        replies[15]["error"]
            .as_str()
            .unwrap()
            .contains("not a geometry question")
    );
    for (i, r) in replies.iter().enumerate().filter(|(i, _)| *i != 12) {
        let id = if i < 12 { i } else { i - 1 };
        assert_eq!(r["id"], id as u64, "reply {i} repeats its id");
    }
}

#[test]
fn requests_serialize_as_documented() {
    let r = Request {
        id: 4,
        command: Command::Perft {
            variant: "race".into(),
            at: Default::default(),
            depth: 2,
            divide: true,
        },
    };
    assert_eq!(
        serde_json::to_string(&r).unwrap(),
        r#"{"id":4,"cmd":"perft","variant":"race","depth":2,"divide":true}"#
    );
}

#[test]
fn bisect_walks_to_the_first_wrong_position_and_writes_a_case() {
    let mut e = engine(&BUGGY);
    let found = bisect::bisect(&mut e, &GOOD, None, vec![], 4).unwrap();
    let Bisection::Found {
        moves,
        missing,
        extra,
        reference_actions,
    } = found
    else {
        panic!("{found:?}")
    };
    // Following the first differing action each time: the first player
    // to 1, the second to 2, the first to 2; now the second player stands
    // on cell 2 with the move, where the bug drops "+2".
    assert_eq!(moves, vec!["+1", "+2", "+1"]);
    assert_eq!(missing, vec!["+2"]);
    assert!(extra.is_empty());
    let file = bisect::culprit_case("race", None, &moves, &reference_actions);
    let case = &file.cases[0];
    assert_eq!(case.id, id::expected_id(case));
    case.validate().unwrap();
    // The written case passes against the reference and fails the bug.
    assert_eq!(
        runner::check_case(&mut engine(&GOOD), case, &[]),
        Outcome::Pass
    );
    assert_eq!(
        runner::check_case(&mut engine(&BUGGY), case, &[]).kind(),
        OutcomeKind::Fail
    );
    // Agreement is reported as such.
    assert_eq!(
        bisect::bisect(&mut engine(&GOOD), &GOOD, None, vec![], 3).unwrap(),
        Bisection::Agree { nodes: 8 }
    );
    assert!(bisect::bisect(&mut engine(&GOOD), &GOOD, None, vec![], 0).is_err());
    assert!(bisect::bisect(&mut engine(&GOOD), &GOOD, Some("bad"), vec![], 2).is_err());
}

#[test]
fn expectations_classify_every_change() {
    let corpus = race_corpus();
    let results = run_all(&mut engine(&BUGGY), &corpus, &Selection::default());
    let base = expectations::baseline(&results, None, "buggy race");
    assert!(!base.known.is_empty());
    assert!(
        expectations::judge(&results, &base)
            .iter()
            .all(|v| *v == Verdict::Expected)
    );
    // The fixed engine now passes the listed cases.
    let fixed = run_all(&mut engine(&GOOD), &corpus, &Selection::default());
    assert!(expectations::judge(&fixed, &base).contains(&Verdict::NowPasses));
    // An empty file makes every failure new.
    let empty = Expectations::default();
    assert!(expectations::judge(&results, &empty).contains(&Verdict::NewFailure));
    // A different kind is a change.
    let mut changed = base.clone();
    changed.known[0].kind = OutcomeKind::Timeout;
    assert!(expectations::judge(&results, &changed).contains(&Verdict::Changed));
    // Notes survive a new baseline when the failure is unchanged.
    let mut noted = base.clone();
    noted.known[0].note = Some("known bug".into());
    let again = expectations::baseline(&results, Some(&noted), "buggy race");
    assert_eq!(again.known[0].note.as_deref(), Some("known bug"));
    // Loading checks ids against the corpus, duplicates and 'pass'.
    let ids: HashSet<&str> = corpus.cases.iter().map(|(_, c)| c.id.as_str()).collect();
    let text = serde_json::to_string(&base).unwrap();
    assert_eq!(Expectations::parse("x.json", &text, &ids).unwrap(), base);
    let err = |t: &str| {
        Expectations::parse("x.json", t, &ids)
            .unwrap_err()
            .to_string()
    };
    assert!(
        err(r#"{"known":[{"id":"nope#00000000","kind":"fail"}]}"#)
            .contains("no case in the corpus")
    );
    let id0 = &base.known[0].id;
    assert!(
        err(&format!(r#"{{"known":[{{"id":"{id0}","kind":"pass"}}]}}"#))
            .contains("not a failure kind")
    );
    assert!(
        err(&format!(
            r#"{{"known":[{{"id":"{id0}","kind":"fail"}},{{"id":"{id0}","kind":"fail"}}]}}"#
        ))
        .contains("listed twice")
    );
    assert!(err(r#"{"known":[{"id":"x","kind":"flaky"}]}"#).contains("x.json: line 1"));
}

#[test]
fn reports_in_every_format() {
    let corpus = race_corpus();
    let mut e = engine(&BUGGY);
    let hello = e.hello().clone();
    let results = run_all(&mut e, &corpus, &Selection::default());
    let report = Report {
        engine: &hello,
        results: &results,
        verdicts: None,
        not_applicable: 1,
        run: None,
    };
    let text = report.text(false);
    assert!(text.contains("clauses broken: RACE-1"), "{text}");
    assert!(text.contains("variant:race"), "{text}");
    assert!(text.contains("1 not applicable"), "{text}");
    let json = report.json();
    assert_eq!(json["summary"]["fail"], report.total().fail);
    assert!(
        json["cases"]
            .as_array()
            .unwrap()
            .iter()
            .any(|c| c["outcome"] == "fail")
    );
    let xml = report.junit().unwrap();
    assert!(xml.contains("<testsuite name=\"variant:race\""), "{xml}");
    assert!(xml.contains("<failure"), "{xml}");
    let md = report.markdown();
    assert!(md.contains("| board / variant | pass |"), "{md}");
    assert!(md.contains("### Problems"), "{md}");
}

#[test]
fn checked_in_schemas_match_the_types() {
    let dir = std::path::Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/conformance/schema"));
    if std::env::var_os("SEAMS_WRITE_SCHEMA").is_some() {
        schema::write(dir, &seams::draft::schemas()).expect("writing the schemas");
    }
    let drift = schema::drift(dir, &seams::draft::schemas());
    assert!(
        drift.is_empty(),
        "out of date: {drift:?}; regenerate with `seams schema --write` or \
         SEAMS_WRITE_SCHEMA=1 cargo test --test it -- runner::"
    );
}

#[test]
fn corpus_ids_are_checked_when_loading() {
    let good = race_corpus();
    let (_, case) = &good.cases[0];
    let mut edited = case.clone();
    edited.title.push_str(" (edited)");
    let text = serde_json::to_string(&seams::conformance::CaseFile {
        schema: None,
        cases: vec![edited],
    })
    .unwrap();
    let err = Corpus::from_files(vec![("a.json".into(), text)])
        .unwrap_err()
        .to_string();
    assert!(err.contains("hash does not match"), "{err}");
    assert!(err.contains("seams corpus rehash"), "{err}");
    let twice = serde_json::to_string(&seams::conformance::CaseFile {
        schema: None,
        cases: vec![case.clone()],
    })
    .unwrap();
    let err = Corpus::from_files(vec![
        ("a.json".into(), twice.clone()),
        ("b.json".into(), twice),
    ])
    .unwrap_err()
    .to_string();
    assert!(err.contains("used twice (also in a.json)"), "{err}");
}

#[test]
fn the_hash_ignores_formatting_and_key_order() {
    let corpus = race_corpus();
    let (_, case) = &corpus.cases[0];
    let mut v = serde_json::to_value(case).unwrap();
    // Reordering keys and re-parsing gives the same id.
    let text = serde_json::to_string_pretty(&v).unwrap();
    let again: seams::conformance::Case = serde_json::from_str(&text).unwrap();
    assert_eq!(id::expected_id(&again), case.id);
    v["title"] = serde_json::json!("another title");
    let other: seams::conformance::Case = serde_json::from_value(v).unwrap();
    assert_ne!(id::expected_id(&other), case.id);
}

#[test]
fn an_engine_error_reply_is_its_own_outcome() {
    let text = r#"{"cases": [{"id": "geometry/bad-cell", "title": "A coordinate off the board",
      "clauses": ["GEO-1.5"], "capabilities": ["geometry"],
      "provenance": {"kind": "derived", "reasoning": "z99 is not on flat-8x8"},
      "check": {"kind": "walk", "board": "flat-8x8", "from": "z99", "steps": ["N"], "expect": null}}]}"#;
    let dir = tempdir("engine-error");
    std::fs::write(dir.join("bad.json"), text).unwrap();
    seams::conformance::rehash_dir(&dir).unwrap();
    let corpus = Corpus::from_dir(&dir).unwrap();
    let _ = std::fs::remove_dir_all(&dir);
    let results = run_all(&mut engine(&GOOD), &corpus, &Selection::default());
    match &results[0].outcome {
        Outcome::Error { kind, message } => {
            assert_eq!(kind.name(), "engine-error");
            assert!(message.contains("bad coordinate 'z99'"), "{message}");
        }
        o => panic!("{o:?}"),
    }
}

/// An engine that gives one fixed answer to every geometry question: a
/// stand-in for an outside engine with its own (wrong) geometry.
struct FixedAnswer {
    hello: Hello,
    answer: serde_json::Value,
}

impl Engine for FixedAnswer {
    fn hello(&self) -> &Hello {
        &self.hello
    }
    fn ask(&mut self, _: &Command) -> Result<serde_json::Value, AskError> {
        Ok(serde_json::json!({ "answer": self.answer }))
    }
}

/// The outcome of a walk case on the flat board (a1, four steps north and
/// four east, facing up) expecting `expect`, against an engine answering
/// `actual`.
fn walk_outcome(expect: serde_json::Value, actual: serde_json::Value) -> Outcome {
    let case: seams::conformance::Case = serde_json::from_value(serde_json::json!({
        "id": "walk", "title": "t", "clauses": ["GEO-1.1"],
        "provenance": {"kind": "derived", "reasoning": "a test"},
        "check": {"kind": "walk", "board": "flat-8x8", "from": "a1",
                  "steps": ["N", "N", "N", "N", "E", "E", "E", "E"], "facing": "up",
                  "expect": expect}
    }))
    .expect("a walk case");
    let mut e = FixedAnswer {
        hello: engine(&GOOD).hello().clone(),
        answer: actual,
    };
    runner::check_case(&mut e, &case, &[])
}

/// The failure detail when the walk should end on e5 with the identity
/// transport, facing up, and the engine answers `actual`.
fn walk_detail(actual: serde_json::Value) -> String {
    let expect = serde_json::json!({"cell": "e5", "transport": "identity", "facing": "up"});
    match walk_outcome(expect, actual) {
        Outcome::Fail { detail, .. } => detail,
        o => panic!("expected a failure, got {o:?}"),
    }
}

#[test]
fn a_walk_on_the_right_cell_names_the_wrong_transport_or_facing() {
    use serde_json::json;
    assert_eq!(
        walk_detail(json!({"cell": "e5", "transport": "flip-h", "facing": "up"})),
        "the walk ends on the right cell e5 but with transport flip-h, expected identity"
    );
    assert_eq!(
        walk_detail(json!({"cell": "e5", "transport": "identity", "facing": "down"})),
        "the walk ends on the right cell e5 but with facing down, expected up"
    );
    assert_eq!(
        walk_detail(json!({"cell": "e5", "transport": "half-turn", "facing": "down"})),
        "the walk ends on the right cell e5 but with transport half-turn, expected identity, \
         and facing down, expected up"
    );
    // An engine that forgets the facing it was given.
    assert_eq!(
        walk_detail(json!({"cell": "e5", "transport": "identity"})),
        "the walk ends on the right cell e5 but with facing none, expected up"
    );
}

#[test]
fn a_walk_that_ends_elsewhere_or_nowhere_says_where() {
    use serde_json::json;
    assert_eq!(
        walk_detail(json!({"cell": "e6", "transport": "identity", "facing": "up"})),
        "the walk ends on e6, expected e5"
    );
    assert_eq!(
        walk_detail(json!(null)),
        "the walk has no end (the engine found a step that does not exist), \
         expected it to end on e5"
    );
    match walk_outcome(
        json!(null),
        json!({"cell": "e5", "transport": "identity", "facing": "up"}),
    ) {
        Outcome::Fail { detail, .. } => assert_eq!(
            detail,
            "the walk ends on e5, expected no end (a step that does not exist)"
        ),
        o => panic!("{o:?}"),
    }
    // Agreeing answers pass, with or without an end.
    let e5 = json!({"cell": "e5", "transport": "identity", "facing": "up"});
    assert_eq!(walk_outcome(e5.clone(), e5), Outcome::Pass);
    assert_eq!(walk_outcome(json!(null), json!(null)), Outcome::Pass);
}

/// A made-up result in group `subject` citing `clauses`, passing or failing.
fn result(subject: &str, clauses: &[&str], pass: bool) -> runner::CaseResult {
    runner::CaseResult {
        id: format!("{subject}/{}#00000000", clauses.join("+")),
        file: "made-up.json".into(),
        title: "t".into(),
        subject: subject.into(),
        check: "walk",
        clauses: clauses.iter().map(|c| c.to_string()).collect(),
        provenance: "derived",
        outcome: if pass {
            Outcome::Pass
        } else {
            Outcome::Fail {
                expected: "1".into(),
                actual: "2".into(),
                detail: "differs".into(),
                missing: vec![],
                extra: vec![],
            }
        },
    }
}

/// The text report of `results`, as lines.
fn text_report(results: &[runner::CaseResult], verbose: bool) -> Vec<String> {
    let hello = engine(&GOOD).hello().clone();
    let report = Report {
        engine: &hello,
        results,
        verdicts: None,
        not_applicable: 0,
        run: None,
    };
    report.text(verbose).lines().map(String::from).collect()
}

/// The first words of the rows of a text-report section (`by clause:`…).
fn section(lines: &[String], title: &str) -> Vec<String> {
    lines
        .iter()
        .skip_while(|l| *l != title)
        .skip(1)
        .take_while(|l| l.starts_with("  "))
        .map(|l| l.split_whitespace().next().unwrap_or_default().to_string())
        .collect()
}

#[test]
fn the_text_report_starts_and_ends_with_the_headline() {
    let results = [result("board:flat-8x8", &["GEO-1.1"], false)];
    let lines = text_report(&results, false);
    let headline = "1 cases: 0 passed, 1 failed, 0 unsupported, 0 errors";
    assert_eq!(lines.first().map(String::as_str), Some(headline));
    assert_eq!(lines.last().map(String::as_str), Some(headline));
}

#[test]
fn text_report_clause_rows_are_in_numeric_order() {
    let results: Vec<_> = ["SC-I10", "SC-10.1", "SC-I2", "SC-2.10", "SC-2.1", "GEO-3.1"]
        .iter()
        .map(|c| result("variant:race", &[c], false))
        .collect();
    assert_eq!(
        section(&text_report(&results, false), "by clause:"),
        ["GEO-3.1", "SC-2.1", "SC-2.10", "SC-10.1", "SC-I2", "SC-I10"]
    );
}

#[test]
fn rows_where_every_case_passed_are_hidden_unless_verbose() {
    // An unsupported case is something to say: the engine skipped it.
    let mut unsupported = result("variant:other", &["RACE-3"], true);
    unsupported.outcome = Outcome::Unsupported("not offered".into());
    let results = [
        result("board:flat-8x8", &["GEO-1.1"], true),
        result("board:flat-8x8", &["GEO-1.2"], true),
        result("variant:race", &["GEO-1.2", "RACE-1"], false),
        result("board:klein-9x18", &["RACE-2"], true),
        unsupported,
    ];
    let quiet = text_report(&results, false);
    // Only the rows with a failure or an unsupported case are left, and
    // one line per section counts the rest.
    assert_eq!(
        section(&quiet, "by board or variant:"),
        ["variant:other", "variant:race", "(2"]
    );
    assert_eq!(
        section(&quiet, "by clause:"),
        ["GEO-1.2", "RACE-1", "RACE-3", "(2"]
    );
    assert!(quiet.contains(
        &"  (2 rows where every case passed are hidden; --verbose shows them)".to_string()
    ));
    let verbose = text_report(&results, true);
    assert_eq!(
        section(&verbose, "by board or variant:"),
        [
            "board:flat-8x8",
            "board:klein-9x18",
            "variant:other",
            "variant:race"
        ]
    );
    assert_eq!(
        section(&verbose, "by clause:"),
        ["GEO-1.1", "GEO-1.2", "RACE-1", "RACE-2", "RACE-3"]
    );
    assert!(!verbose.iter().any(|l| l.contains("hidden")));
    // One hidden row is counted in the singular.
    let one = text_report(&results[1..3], false);
    assert!(one.contains(
        &"  (1 row where every case passed is hidden; --verbose shows them)".to_string()
    ));
}

#[test]
fn the_board_files_row_says_what_it_groups() {
    let results = [
        result(runner::BOARD_FILES, &["GEO-1.5"], false),
        result("board:flat-8x8", &["GEO-1.1"], false),
    ];
    let lines = text_report(&results, false);
    let row = |group: &str| {
        lines
            .iter()
            .find(|l| l.trim_start().starts_with(group))
            .unwrap_or_else(|| panic!("no {group} row: {lines:?}"))
            .clone()
    };
    assert!(
        row("board-files ").ends_with(
            "errors  (board-file checks: is a board file accepted, or which entry is rejected)"
        ),
        "{lines:?}"
    );
    // Named boards need no explanation.
    assert!(row("board:flat-8x8").ends_with("errors"), "{lines:?}");
}

/// The runner compares a `play` case's position as written and normalises
/// only the engine's text, so every expected position in the corpus must
/// be in the reference's canonical form.
#[test]
fn every_expected_position_is_canonical() {
    use seams::conformance::case::{Check, PlayExpect};
    use seams::variant::{At, Variant};
    let corpus = seams::conformance::Corpus::builtin().expect("the corpus loads");
    let mut checked = 0;
    for (file, case) in &corpus.cases {
        let Check::Play {
            variant,
            expect:
                PlayExpect {
                    position: Some(text),
                    ..
                },
            ..
        } = &case.check
        else {
            continue;
        };
        let v: &dyn Variant = seams::registry::find(variant).expect("a shipped variant");
        let at = At {
            position: Some(text),
            moves: &[],
        };
        let (canonical, _) = v
            .reached(&at)
            .unwrap_or_else(|e| panic!("{file}: {}: {e}", case.id));
        assert_eq!(canonical, text.trim(), "{file}: {}", case.id);
        checked += 1;
    }
    assert!(checked > 50, "only {checked} expected positions");
}

/// A `play` case whose expected position the reference does not write back
/// as it is fails with that said, even when the engine's text means the
/// same position: the judge checks its own reading and writing first.
#[test]
fn an_expected_position_not_in_canonical_form_is_reported() {
    let text = r#"{"cases": [{
      "id": "kyoto/test/hand-written-as-dash#8b805780",
      "title": "t", "clauses": ["KY-1.1"], "capabilities": ["play"],
      "provenance": {"kind": "derived", "reasoning": "a1-a2 turns the tokin into a lance"},
      "check": {"kind": "play", "variant": "kyoto", "position": "p+nks+l/5/5/5/+LSK+NP[-] w 0 1",
                "moves": ["a1-a2"], "expect": {"position": "p+nks+l/5/5/L4/1SK+NP[-] b - - 1 1"}}
    }]}"#;
    let corpus = seams::conformance::Corpus::from_files(vec![("t.json".into(), text.into())])
        .expect("the case loads");
    let (_, case) = &corpus.cases[0];
    match seams::conformance::check_on_reference(case, seams::spec::Library::builtin()) {
        seams::conformance::Outcome::Fail { detail, actual, .. } => {
            assert!(
                detail.contains("does not write the case's expected position back"),
                "{detail}"
            );
            assert!(actual.contains("[]"), "{actual}");
        }
        other => panic!("expected a failure, got {other:?}"),
    }
}
