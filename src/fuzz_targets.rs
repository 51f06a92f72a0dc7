//! Fuzz targets: one function over bytes for every parser of outside input.
//!
//! Each target takes arbitrary bytes, feeds them to one parser the way the
//! crate's own callers do, and asserts (by panicking, as fuzzers expect):
//!
//! - nothing panics;
//! - every error is a typed error that names its place (a file label and
//!   entry, a position field, a ply) and whose message stays below
//!   [`MAX_MESSAGE_CHARS`], whatever the input's size: an error quotes at
//!   most a short stretch of what it rejects;
//! - parse → print → parse gives the same value wherever a printer exists
//!   (position texts, action notation, records, case and expectations
//!   files, protocol replies).
//!
//! Two drivers run them: `fuzz/` (cargo-fuzz, libFuzzer, nightly) and
//! `tests/fuzz_targets.rs` (stable, in process, seeded from the corpus, the records
//! and the spec, with structure-aware mutations), which also replays every
//! input saved under `tests/fuzz-regressions/<target>/`.
//!
//! Every target returns a fingerprint of the path the input took (which
//! outcome, which error shape without the quoted text), so the stable driver
//! can keep inputs that reach something new; libFuzzer ignores it.
//! Inputs are text: bytes that are not UTF-8 are read lossily, as a file
//! reader that replaced them would.

use std::collections::{BTreeSet, HashSet};
use std::sync::OnceLock;

use serde_json::Value;

use crate::conformance::engine::{self, AskError, CappedLines, Line};
use crate::conformance::expectations::Expectations;
use crate::conformance::protocol::{Command, Request};
use crate::conformance::reference::Reference;
use crate::conformance::{Check, Corpus};
use crate::record::{Record, RecordStart, RecordVerdict};
use crate::spec::Library;
use crate::variant::{At, Played, Variant, VariantError};

/// The longest error message a target accepts. A message names its place
/// and quotes at most about 200 characters of the input, so a bound a few
/// times that catches any message that grows with its input.
pub const MAX_MESSAGE_CHARS: usize = 1000;

/// A fuzz target: bytes in, a fingerprint of the path taken out.
pub type Target = fn(&[u8]) -> u64;

/// Every target by name; `fuzz/fuzz_targets/<name>.rs` and the trials of
/// `tests/fuzz_targets.rs` are one per entry.
pub const TARGETS: [(&str, Target); 15] = [
    ("position", position),
    ("action", action),
    ("record", record),
    ("board_file", board_file),
    ("shogi_data", shogi_data),
    ("chess_data", chess_data),
    ("tetra_data", tetra_data),
    ("kyoto_data", kyoto_data),
    ("clauses", clauses),
    ("cases", cases),
    ("expectations", expectations),
    ("request", request),
    ("reply", reply),
    ("capped_lines", capped_lines),
    ("edit", edit),
];

/// A position editor's request: `<variant>\n<edit>\n<position text>`,
/// the edit being `place <cell> <token or ->`, `side first|second` or
/// `hand first|second <label> <count>`. A first line that names no variant
/// picks one by its hash.
///
/// Asserts: nothing panics; an error is bounded; an edited text is either
/// a position (whose canonical text validates as itself) or refused with a
/// position error naming its field; an edit keeps the board's cells.
pub fn edit(data: &[u8]) -> u64 {
    let input = String::from_utf8_lossy(data);
    let (v, rest) = pick_variant(&input);
    let (op, text) = rest.split_once('\n').unwrap_or((rest, ""));
    let words: Vec<&str> = op.split_whitespace().collect();
    let player = |w: Option<&&str>| match w {
        Some(&"second") => crate::rules::Player::Second,
        _ => crate::rules::Player::First,
    };
    let (kind, result) = match words.first().copied() {
        Some("side") => ("side", v.edit_side(text, player(words.get(1)))),
        Some("hand") => (
            "hand",
            v.edit_hand(
                text,
                player(words.get(1)),
                words.get(2).copied().unwrap_or(""),
                words.get(3).and_then(|n| n.parse().ok()).unwrap_or(1),
            ),
        ),
        _ => {
            let cell = words.get(1).copied().unwrap_or("");
            let token = words.get(2).copied().filter(|t| *t != "-");
            let placed = v.edit_place(text, cell, token);
            if let Ok(edited) = &placed {
                // Still this board's cells (which token a stray mark joins
                // may change: `P+` then `N` reads back as `P`, `+N` where
                // pieces may be promoted).
                let cells = v.edit_cells().len();
                let plus = v.edit_palette().iter().any(|e| e.token.starts_with('+'));
                let layout = crate::placement::Layout::read(edited, plus, cells)
                    .unwrap_or_else(|e| panic!("{}: an edited text is unreadable: {e}", v.name()));
                assert_eq!(
                    layout.cell_count(),
                    cells,
                    "{}: cells after an edit",
                    v.name()
                );
            }
            ("place", placed)
        }
    };
    let edited = match result {
        Ok(t) => t,
        Err(e) => {
            let message = e.to_string();
            bounded(&format!("{}: edit", v.name()), &message);
            return fingerprint(&[v.name(), kind, "refused", &message]);
        }
    };
    match v.validate(&edited) {
        Ok(canonical) => {
            assert_eq!(
                v.validate(&canonical).as_ref(),
                Ok(&canonical),
                "{}: a canonical text validates as itself",
                v.name()
            );
            fingerprint(&[v.name(), kind, "position"])
        }
        Err(e) => position_error(v, &e),
    }
}

/// The deepest perft the `request` target lets through: deeper requests are
/// asked at this depth, since their cost, not their parsing, grows.
pub const REQUEST_MAX_PERFT_DEPTH: u32 = 1;

/// A position text for one variant: `<variant>\n<position text>`. A first
/// line that names no variant picks one by its hash (so every input is
/// parsed by some family); without a newline the whole input is the text.
///
/// Asserts: an error is a [`crate::rules::PositionError`] naming its field;
/// a parsed position prints as a text that parses to the same position
/// (same text, key, side, check and result); the legal actions of it, and
/// a few of them played, round-trip the same way.
pub fn position(data: &[u8]) -> u64 {
    let input = String::from_utf8_lossy(data);
    let (v, text) = pick_variant(&input);
    let played = match v.play(&at(Some(text))) {
        Ok(p) => p,
        Err(e) => return position_error(v, &e),
    };
    let again = replay(v, &played.position, "its printed position");
    assert_eq!(
        again,
        played,
        "{}: the printed position reads back differently",
        v.name()
    );
    let here = at(Some(&played.position));
    let actions = v
        .legal_actions(&here)
        .unwrap_or_else(|e| panic!("{}: legal actions of a parsed position: {e}", v.name()));
    for a in spread(&actions, 4) {
        action_round_trip(v, &played.position, a, &actions);
    }
    fingerprint(&[v.name(), "ok", &actions.len().min(1).to_string()])
}

/// An action text against a known position: `<variant> <k>\n<action>`, the
/// position being the variant's `k`-th of its start, corpus positions and
/// positions along a fixed game (see [`spots`]). A first line that names no
/// variant picks one by its hash.
///
/// Asserts: an error is a typed [`crate::rules::ActionError`] with a
/// bounded message; an accepted action is one of the legal actions, its
/// canonical text is accepted as itself, and playing it reaches a position
/// whose text reads back the same; every legal action's text is accepted.
pub fn action(data: &[u8]) -> u64 {
    let input = String::from_utf8_lossy(data);
    let (head, text) = input.split_once('\n').unwrap_or(("", &input));
    let mut words = head.split_whitespace();
    let name = words.next().unwrap_or("");
    let index: usize = words.next().and_then(|k| k.parse().ok()).unwrap_or(0);
    let variants = crate::registry::variants();
    let vi = variants
        .iter()
        .position(|v| v.name() == name)
        .unwrap_or_else(|| hash(head.as_bytes()) as usize % variants.len());
    let v = variants[vi].as_ref();
    let table = &spots()[vi];
    let spot = &table[index % table.len()];
    let checked = v
        .check_action(&at(Some(&spot.position)), text)
        .unwrap_or_else(|e| panic!("{}: a known position is refused: {e}", v.name()));
    match checked {
        Ok(canonical) => {
            action_round_trip(v, &spot.position, &canonical, &spot.legal);
            fingerprint(&[v.name(), "legal"])
        }
        Err(e) => {
            bounded(&format!("{}: action", v.name()), &e.to_string());
            assert!(
                !spot.legal.iter().any(|a| a == text),
                "{}: the legal action '{text}' is refused: {e}",
                v.name()
            );
            fingerprint(&[v.name(), &e.code.to_string(), &e.message])
        }
    }
}

/// A game record as JSON (what `seams record` reads), replayed by its
/// variant when it names a shipped one.
///
/// Asserts: the record survives a serde round trip; a rejection names its
/// ply (0 for the header, one past the last action for the final data)
/// with a bounded message; an accepted record replays to the same result
/// through [`Variant::play`].
pub fn record(data: &[u8]) -> u64 {
    let text = String::from_utf8_lossy(data);
    let Ok(record) = serde_json::from_str::<Record>(&text) else {
        return fingerprint(&["unreadable"]);
    };
    let printed = serde_json::to_string(&record).expect("a record serializes");
    let back: Record = serde_json::from_str(&printed)
        .unwrap_or_else(|e| panic!("the printed record does not read back ({e}): {printed}"));
    assert_eq!(back, record, "the record changes in a serde round trip");
    let Some(v) = crate::registry::variants()
        .iter()
        .find(|v| v.name() == record.variant)
    else {
        return fingerprint(&["unknown variant"]);
    };
    match v.verify_record(&record) {
        RecordVerdict::Accepted { result, plies } => {
            assert!(plies <= record.actions.len(), "more plies than actions");
            let start = match &record.start {
                RecordStart::Initial => None,
                RecordStart::Edited { position } => Some(position.as_str()),
            };
            let replayed = v
                .play(&At {
                    position: start,
                    moves: &record.actions,
                })
                .unwrap_or_else(|e| panic!("an accepted record does not replay: {e}"));
            assert_eq!(replayed.result, result, "the replayed result differs");
            fingerprint(&[v.name(), "accepted"])
        }
        RecordVerdict::Rejected {
            ply,
            reason,
            illegal,
            message,
        } => {
            assert!(
                ply <= record.actions.len() + 1,
                "rejected at ply {ply} of {} actions",
                record.actions.len()
            );
            bounded("record verdict", &message);
            // The message names cells and plies of this game; the reason
            // and the illegal-action code say which path it took.
            fingerprint(&[v.name(), &format!("{reason:?} {illegal:?}")])
        }
    }
}

/// A board file (`spec/boards/*.toml`) loaded as the only file of a
/// library; a loaded chart board's invariants are computed too.
///
/// Asserts: an error names the file and an entry, with a bounded message.
pub fn board_file(data: &[u8]) -> u64 {
    const LABEL: &str = "spec/boards/fuzz.toml";
    let text = String::from_utf8_lossy(data).into_owned();
    match Library::from_files(vec![(LABEL.to_string(), text)]) {
        Ok(lib) => {
            for name in lib.board_names() {
                let geo = lib.geometry(name).expect("a loaded board has geometry");
                crate::topology::mesh::invariants(geo.board());
            }
            for name in lib.solid_names() {
                lib.solid(name).expect("a loaded solid").facts();
            }
            fingerprint(&["ok"])
        }
        Err(e) => {
            let message = e.to_string();
            labelled(LABEL, &message);
            if let crate::spec::SpecError::Board(b) = &e {
                assert!(!b.entry.trim().is_empty(), "no entry named: {message}");
                return fingerprint(&["board", &format!("{:?}", b.kind), &b.message]);
            }
            fingerprint(&["spec", &message])
        }
    }
}

/// A surface shogi variant file (`spec/shogi/*.toml`) on the built-in
/// boards. See [`check_family_data`] for what is asserted.
pub fn shogi_data(data: &[u8]) -> u64 {
    const LABEL: &str = "spec/shogi/fuzz.toml";
    let files = [(
        LABEL.to_string(),
        String::from_utf8_lossy(data).into_owned(),
    )];
    let built = crate::shogi::variants_from_files(&files, Library::builtin());
    check_family_data(LABEL, built.map(boxed).map_err(|e| e.to_string()))
}

/// A surface chess variant file (`spec/chess/*.toml`) on the built-in
/// boards. See [`check_family_data`].
pub fn chess_data(data: &[u8]) -> u64 {
    const LABEL: &str = "spec/chess/fuzz.toml";
    let text = String::from_utf8_lossy(data);
    let built = crate::chess::ChessRules::from_file(LABEL, &text, Library::builtin());
    check_family_data(
        LABEL,
        built.map(|v| boxed(vec![v])).map_err(|e| e.to_string()),
    )
}

/// A tetrahedral variant file (`spec/tetra/*.toml`) on the built-in
/// boards. See [`check_family_data`].
pub fn tetra_data(data: &[u8]) -> u64 {
    const LABEL: &str = "spec/tetra/fuzz.toml";
    let files = [(
        LABEL.to_string(),
        String::from_utf8_lossy(data).into_owned(),
    )];
    let built = crate::tetra::variants_from_files(&files, Library::builtin());
    check_family_data(LABEL, built.map(boxed).map_err(|e| e.to_string()))
}

/// A Kyoto variant file (`spec/kyoto/*.toml`) on the built-in boards. See
/// [`check_family_data`].
pub fn kyoto_data(data: &[u8]) -> u64 {
    const LABEL: &str = "spec/kyoto/fuzz.toml";
    let files = [(
        LABEL.to_string(),
        String::from_utf8_lossy(data).into_owned(),
    )];
    let built = crate::kyoto::variants_from_files(&files, Library::builtin());
    check_family_data(LABEL, built.map(boxed).map_err(|e| e.to_string()))
}

/// A rules text (`spec/*/rules.md`) read for its clauses.
///
/// Asserts: every clause found has a clause number as its id; a clause
/// printed as `**id** summary` reads back as itself; [`crate::spec::clause_order`]
/// is antisymmetric on the ids found.
pub fn clauses(data: &[u8]) -> u64 {
    const LABEL: &str = "spec/fuzz/rules.md";
    let text = String::from_utf8_lossy(data);
    let found = crate::spec::parse_clauses(LABEL, &text);
    for c in &found {
        assert!(
            crate::spec::is_clause_id(&c.id),
            "'{}' is not a clause id",
            c.id
        );
        let line = format!("**{}** {}", c.id, c.summary);
        let back = crate::spec::parse_clauses(LABEL, &line);
        assert_eq!(
            back.as_slice(),
            std::slice::from_ref(c),
            "printed as {line:?}"
        );
    }
    for pair in found.windows(2) {
        let (a, b) = (&pair[0].id, &pair[1].id);
        assert_eq!(
            crate::spec::clause_order(a, b),
            crate::spec::clause_order(b, a).reverse(),
            "clause order of '{a}' and '{b}'"
        );
    }
    fingerprint(&["clauses", &found.len().min(3).to_string()])
}

/// A corpus file (`conformance/cases/**/*.json`) loaded as the only file
/// of a corpus.
///
/// Asserts: an error names the file (and the case id for a bad case) with
/// a bounded message; a file whose cases are valid survives a serde round
/// trip with the same case ids, and loads once its ids are rehashed
/// (unless a slug repeats).
pub fn cases(data: &[u8]) -> u64 {
    const LABEL: &str = "conformance/cases/fuzz.json";
    let text = String::from_utf8_lossy(data).into_owned();
    let loaded = Corpus::from_files(vec![(LABEL.to_string(), text.clone())]);
    let print = match &loaded {
        Ok(_) => fingerprint(&["ok"]),
        Err(e) => {
            let message = e.to_string();
            labelled(LABEL, &message);
            fingerprint(&["error", &message])
        }
    };
    // Below the id check: the file's cases as the loader validates them.
    let Ok(mut file) = crate::conformance::parse_file(LABEL, &text) else {
        return print;
    };
    let printed = serde_json::to_string_pretty(&file).expect("a case file serializes");
    let back = crate::conformance::parse_file(LABEL, &printed)
        .unwrap_or_else(|e| panic!("the printed case file does not read back: {e}"));
    let value = |f: &crate::conformance::CaseFile| serde_json::to_value(f).expect("serializes");
    assert_eq!(
        value(&back),
        value(&file),
        "the case file changes in a round trip"
    );
    for (a, b) in file.cases.iter().zip(&back.cases) {
        assert_eq!(
            crate::conformance::id::expected_id(a),
            crate::conformance::id::expected_id(b),
            "a case's hash changes in a round trip"
        );
    }
    let mut slugs = HashSet::new();
    let unique = file
        .cases
        .iter()
        .all(|c| slugs.insert(c.slug().to_string()));
    for c in &mut file.cases {
        c.id = crate::conformance::id::expected_id(c);
    }
    let rehashed = serde_json::to_string_pretty(&file).expect("a case file serializes");
    match Corpus::from_files(vec![(LABEL.to_string(), rehashed)]) {
        Ok(corpus) => assert_eq!(corpus.cases.len(), file.cases.len()),
        Err(e) => assert!(!unique, "a rehashed file with unique slugs is refused: {e}"),
    }
    // Valid cases: their kinds are the interesting part of the path.
    let kinds: Vec<&str> = file.cases.iter().map(|c| c.check.kind()).collect();
    print ^ fingerprint(&kinds)
}

/// An expectations file (`seams conform --expect FILE`) checked against
/// the built-in corpus's ids.
///
/// Asserts: an error names the file (and the entry's index for a bad
/// entry) with a bounded message; an accepted file survives a serde round
/// trip.
pub fn expectations(data: &[u8]) -> u64 {
    const LABEL: &str = "expectations.json";
    let text = String::from_utf8_lossy(data);
    let ids: HashSet<&str> = corpus_ids().iter().map(String::as_str).collect();
    match Expectations::parse(LABEL, &text, &ids) {
        Ok(e) => {
            let printed = serde_json::to_string_pretty(&e).expect("serializes");
            let back = Expectations::parse(LABEL, &printed, &ids)
                .unwrap_or_else(|err| panic!("the printed file does not read back: {err}"));
            assert_eq!(back, e, "the expectations change in a round trip");
            fingerprint(&["ok", &e.known.len().min(2).to_string()])
        }
        Err(e) => {
            let message = e.to_string();
            labelled(LABEL, &message);
            fingerprint(&["error", &message])
        }
    }
}

/// A request line as `seams engine` reads it, answered by the reference
/// (perft deeper than [`REQUEST_MAX_PERFT_DEPTH`] is asked at that depth).
///
/// Asserts: the reply is one JSON object; a readable request's reply
/// carries its id and is read by the runner's [`engine::read_reply`] as an
/// answer, `unsupported` or the engine's error, never as malformed; an
/// error message is bounded.
pub fn request(data: &[u8]) -> u64 {
    let line = String::from_utf8_lossy(data);
    let reference = Reference::builtin();
    let parsed = serde_json::from_str::<Request>(&line).ok();
    let reply = match parsed.clone() {
        Some(mut req) => {
            if let Command::Perft { depth, .. } = &mut req.command {
                *depth = (*depth).min(REQUEST_MAX_PERFT_DEPTH);
            }
            reference.handle(&req)
        }
        None => reference.handle_line(&line),
    };
    let Value::Object(map) = &reply else {
        panic!("the reply is not an object: {reply}");
    };
    if let Some(e) = map.get("error") {
        let message = e.as_str().expect("an error reply's message is a string");
        bounded("error reply", message);
    }
    let Some(req) = parsed else {
        assert!(
            map.contains_key("error") || map.contains_key("unsupported"),
            "an unreadable request got an answer: {reply}"
        );
        return fingerprint(&["unreadable", &reply.to_string()]);
    };
    let shown = reply.to_string();
    match engine::read_reply(&shown, req.id, req.command.name()) {
        Ok(_) => fingerprint(&[req.command.name(), "ok"]),
        Err(AskError::Unsupported) => fingerprint(&[req.command.name(), "unsupported"]),
        Err(AskError::Failed { kind, message }) => {
            assert_eq!(
                kind,
                crate::conformance::ErrorKind::Engine,
                "the runner cannot read the reference's reply {shown}: {message}"
            );
            fingerprint(&[req.command.name(), "error", &message])
        }
    }
}

/// A reply line as the runner reads it, to a `perft` request with id 1
/// (its reply has the most fields of any command but `geometry`).
///
/// Asserts: an answer is an object carrying id 1 and `"ok": true`; a
/// failure's message is bounded; the line and its JSON rewritten compactly
/// are read alike.
pub fn reply(data: &[u8]) -> u64 {
    let line = String::from_utf8_lossy(data);
    let read = engine::read_reply(&line, 1, "perft");
    if let Ok(v) = serde_json::from_str::<Value>(&line) {
        // The same JSON written compactly is the same reply.
        let again = engine::read_reply(&v.to_string(), 1, "perft");
        assert_eq!(
            again.is_ok(),
            read.is_ok(),
            "the line and its JSON rewritten are read differently"
        );
    }
    match read {
        Ok(v) => {
            assert_eq!(
                v.get("id").and_then(Value::as_u64),
                Some(1),
                "answer id: {v}"
            );
            assert_eq!(
                v.get("ok"),
                Some(&Value::Bool(true)),
                "answer without ok: {v}"
            );
            fingerprint(&["ok"])
        }
        Err(AskError::Unsupported) => fingerprint(&["unsupported"]),
        Err(AskError::Failed { kind, message }) => {
            bounded("reply", &message);
            // The message goes on to show the line, or is the engine's own
            // text; the runner's first words say what.
            let what: Vec<&str> = match kind {
                crate::conformance::ErrorKind::Engine => Vec::new(),
                _ => message.split_whitespace().take(4).collect(),
            };
            fingerprint(&[kind.name(), &what.join(" ")])
        }
    }
}

/// Arbitrary bytes read by [`CappedLines`]: the first byte sets the cap
/// (0 to 63 bytes), the second how many bytes each read returns (1 to 16),
/// the rest is the stream.
///
/// Asserts: the lines read are exactly the stream's newline-separated
/// lines (a last line without a newline included), each within the cap
/// with trailing whitespace removed, or counted as too long with its full
/// length; after the end, every read says closed.
pub fn capped_lines(data: &[u8]) -> u64 {
    let (cap, chunk, stream) = match data {
        [a, b, rest @ ..] => (usize::from(*a % 64), usize::from(*b % 16) + 1, rest),
        _ => (8, 1, data),
    };
    let mut lines = CappedLines::new(
        Trickle {
            data: stream,
            chunk,
        },
        cap,
    );
    let mut segments: Vec<&[u8]> = stream.split(|&b| b == b'\n').collect();
    if segments.last().is_some_and(|s| s.is_empty()) {
        segments.pop();
    }
    let mut too_long = 0;
    for (i, segment) in segments.iter().enumerate() {
        let want = if segment.len() > cap {
            too_long += 1;
            Line::TooLong(segment.len())
        } else {
            let end = segment
                .iter()
                .rposition(|b| !b.is_ascii_whitespace())
                .map_or(0, |p| p + 1);
            Line::Text(segment[..end].to_vec())
        };
        assert_eq!(lines.next_line(), want, "line {} (cap {cap})", i + 1);
    }
    assert_eq!(lines.next_line(), Line::Closed, "after the last line");
    assert_eq!(lines.next_line(), Line::Closed, "after the end");
    fingerprint(&[
        &segments.len().min(3).to_string(),
        &too_long.min(2).to_string(),
    ])
}

/// A reader that hands out at most `chunk` bytes per read, so lines cross
/// buffer refills at every possible place.
struct Trickle<'a> {
    data: &'a [u8],
    chunk: usize,
}

impl std::io::Read for Trickle<'_> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = self.chunk.min(buf.len()).min(self.data.len());
        buf[..n].copy_from_slice(&self.data[..n]);
        self.data = &self.data[n..];
        Ok(n)
    }
}

/// A position of the `action` target with its legal actions.
pub struct Spot {
    pub position: String,
    pub legal: Vec<String>,
}

/// Per registry variant (same order): the start, every corpus position of
/// that variant, and the positions along a fixed game of 12 plies, each
/// as canonical text with its legal actions. Built once.
pub fn spots() -> &'static [Vec<Spot>] {
    static SPOTS: OnceLock<Vec<Vec<Spot>>> = OnceLock::new();
    SPOTS.get_or_init(|| {
        let corpus = Corpus::builtin().expect("the built-in corpus loads");
        crate::registry::variants()
            .iter()
            .map(|v| {
                let v = v.as_ref();
                let mut texts = vec![v.start_position()];
                for (_, case) in &corpus.cases {
                    texts.extend(case_positions(&case.check, v.name()));
                }
                let mut moves = Vec::new();
                for ply in 0..12 {
                    let Ok(legal) = v.legal_actions(&At {
                        position: None,
                        moves: &moves,
                    }) else {
                        break;
                    };
                    if legal.is_empty() {
                        break;
                    }
                    moves.push(legal[(ply * 7 + 3) % legal.len()].clone());
                    if let Ok((text, _)) = v.reached(&At {
                        position: None,
                        moves: &moves,
                    }) {
                        texts.push(text);
                    }
                }
                let mut seen = BTreeSet::new();
                texts
                    .into_iter()
                    .filter_map(|t| v.reached(&at(Some(&t))).ok().map(|(t, _)| t))
                    .filter(|t| seen.insert(t.clone()))
                    .map(|position| Spot {
                        legal: v.legal_actions(&at(Some(&position))).unwrap_or_default(),
                        position,
                    })
                    .collect()
            })
            .collect()
    })
}

/// The position texts a corpus check names for `variant`.
pub fn case_positions(check: &Check, variant: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut take = |v: &str, p: &Option<String>| {
        if v == variant
            && let Some(p) = p
        {
            out.push(p.clone());
        }
    };
    match check {
        Check::LegalActions { variant: v, at, .. }
        | Check::Action { variant: v, at, .. }
        | Check::Perft { variant: v, at, .. } => take(v, &at.position),
        Check::Play {
            variant: v,
            at,
            expect,
        } => {
            take(v, &at.position);
            take(v, &expect.position);
        }
        Check::Keys {
            variant: v, a, b, ..
        } => {
            take(v, &a.position);
            take(v, &b.position);
        }
        Check::Record { record, .. } => {
            if let RecordStart::Edited { position } = &record.start {
                take(&record.variant, &Some(position.clone()));
            }
            take(&record.variant, &record.final_position);
        }
        _ => {}
    }
    out
}

/// The ids of the built-in corpus, for the `expectations` target.
fn corpus_ids() -> &'static [String] {
    static IDS: OnceLock<Vec<String>> = OnceLock::new();
    IDS.get_or_init(|| {
        Corpus::builtin()
            .expect("the built-in corpus loads")
            .cases
            .into_iter()
            .map(|(_, c)| c.id)
            .collect()
    })
}

/// Up to `n` items spread evenly over `items`.
fn spread<T>(items: &[T], n: usize) -> impl Iterator<Item = &T> {
    let step = items.len().div_ceil(n).max(1);
    items.iter().step_by(step)
}

fn at(position: Option<&str>) -> At<'_> {
    At {
        position,
        moves: &[],
    }
}

/// The variant named by the first line, or one picked by its hash, and the
/// text after it.
fn pick_variant(input: &str) -> (&'static dyn Variant, &str) {
    let variants = crate::registry::variants();
    let (head, text) = input.split_once('\n').unwrap_or(("", input));
    let v = variants
        .iter()
        .find(|v| v.name() == head)
        .unwrap_or_else(|| &variants[hash(head.as_bytes()) as usize % variants.len()]);
    (v.as_ref(), text)
}

/// Plays a printed position text, which must parse.
fn replay(v: &dyn Variant, text: &str, what: &str) -> Played {
    v.play(&at(Some(text)))
        .unwrap_or_else(|e| panic!("{}: {what} '{text}' does not parse: {e}", v.name()))
}

/// A parsed action at `position`: it is legal, its canonical text is
/// itself, and the position it reaches prints as a text that reads back.
fn action_round_trip(v: &dyn Variant, position: &str, canonical: &str, legal: &[String]) {
    let name = v.name();
    assert!(
        legal.iter().any(|a| a == canonical),
        "{name}: '{canonical}' is accepted at '{position}' but is not a legal action"
    );
    let here = at(Some(position));
    match v.check_action(&here, canonical) {
        Ok(Ok(again)) => assert_eq!(again, canonical, "{name}: canonical text changes"),
        other => panic!("{name}: canonical '{canonical}' at '{position}' gives {other:?}"),
    }
    let moves = [canonical.to_string()];
    let (after, key) = v
        .reached(&At {
            position: Some(position),
            moves: &moves,
        })
        .unwrap_or_else(|e| panic!("{name}: playing '{canonical}' at '{position}': {e}"));
    let (again, key_again) = v
        .reached(&at(Some(&after)))
        .unwrap_or_else(|e| panic!("{name}: '{after}' after '{canonical}' does not parse: {e}"));
    assert_eq!(
        again, after,
        "{name}: the position after '{canonical}' reads back differently"
    );
    assert_eq!(
        key_again, key,
        "{name}: the key after '{canonical}' changes when read back"
    );
}

fn position_error(v: &dyn Variant, e: &VariantError) -> u64 {
    let message = e.to_string();
    bounded(&format!("{}: position", v.name()), &message);
    match e {
        VariantError::Position(p) => {
            assert!(!p.field.trim().is_empty(), "no field named: {message}");
            fingerprint(&[v.name(), &p.field, &p.message])
        }
        other => panic!(
            "{}: a position text gives a non-position error: {other}",
            v.name()
        ),
    }
}

fn boxed<V: Variant + 'static>(vs: Vec<V>) -> Vec<Box<dyn Variant>> {
    vs.into_iter()
        .map(|v| Box::new(v) as Box<dyn Variant>)
        .collect()
}

/// What every family data target asserts: an error names the file, with a
/// bounded message; a built variant's start position prints as a text
/// that reads back the same, and its legal actions can be listed.
fn check_family_data(label: &str, built: Result<Vec<Box<dyn Variant>>, String>) -> u64 {
    match built {
        Ok(variants) => {
            for v in &variants {
                let start = v.start_position();
                let played = replay(v.as_ref(), &start, "the start position");
                assert_eq!(
                    played.position,
                    start,
                    "{}: the start reads back differently",
                    v.name()
                );
                v.legal_actions(&at(None))
                    .unwrap_or_else(|e| panic!("{}: legal actions at the start: {e}", v.name()));
            }
            fingerprint(&["ok", &variants.len().to_string()])
        }
        Err(message) => {
            labelled(label, &message);
            fingerprint(&["error", &message])
        }
    }
}

/// An error message that begins with the file it is about, and is bounded.
fn labelled(label: &str, message: &str) {
    bounded(label, message);
    assert!(
        message.starts_with(label),
        "the error does not name the file {label}: {}",
        clip(message)
    );
}

/// Asserts that an error message stays below [`MAX_MESSAGE_CHARS`].
fn bounded(what: &str, message: &str) {
    let n = message.chars().count();
    assert!(
        n <= MAX_MESSAGE_CHARS,
        "{what}: an error message of {n} characters (the bound is {MAX_MESSAGE_CHARS}): {}",
        clip(message)
    );
}

/// A long message shown by its start and end (see [`crate::quote::bounded`]).
fn clip(s: &str) -> std::borrow::Cow<'_, str> {
    crate::quote::bounded(s)
}

/// A fingerprint of the outcome: the parts with quoted text (from the
/// first quote mark to the last, since the input quoted may hold quote
/// marks itself), quoted source lines and numbers left out, so the same error about other input
/// gives the same fingerprint.
fn fingerprint(parts: &[&str]) -> u64 {
    let mut h = 0xcbf2_9ce4_8422_2325u64;
    let mut eat = |b: u8| {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    };
    let is_quote = |b: u8| matches!(b, b'\'' | b'`' | b'"');
    for part in parts {
        // The source lines a TOML error shows (`12 | text`) are input too.
        let kept: Vec<&str> = part.lines().filter(|l| !l.contains(" |")).collect();
        let joined = kept.join("\n");
        let bytes = joined.as_bytes();
        let first = bytes.iter().position(|&b| is_quote(b));
        let last = bytes.iter().rposition(|&b| is_quote(b));
        let mut digits = false;
        for (i, &b) in bytes.iter().enumerate() {
            if first.is_some_and(|f| i > f) && last.is_some_and(|l| i <= l) {
                continue;
            }
            if b.is_ascii_digit() {
                if !digits {
                    eat(b'#');
                }
                digits = true;
                continue;
            }
            digits = false;
            eat(b);
        }
        eat(0);
    }
    h
}

/// FNV-1a 64 of bytes.
pub fn hash(bytes: &[u8]) -> u64 {
    crate::conformance::id::fnv1a64(bytes)
}
