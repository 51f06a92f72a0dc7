//! The targets of what the conformance tools read: corpus case files,
//! expectations files, protocol requests (answered by the reference) and
//! replies (read by the runner), the engine's line reader
//! [`CappedLines`], and the conform reports `seams merge` joins.
//!
//! Apart because these meet the corpus and the engine protocol rather than
//! a variant's texts: they need the built-in corpus's ids and the
//! reference engine.

use std::collections::HashSet;
use std::sync::OnceLock;

use serde_json::Value;

use super::{bounded, fingerprint, labelled};
use crate::conformance::Corpus;
use crate::conformance::engine::{self, AskError, CappedLines, Line};
use crate::conformance::expectations::Expectations;
use crate::conformance::merge::{Part, merge};
use crate::conformance::protocol::{Command, Request};
use crate::conformance::reference::Reference;

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

/// A conform report as `seams merge` reads it, merged alone (as the one
/// part of its run) on the built-in corpus.
///
/// Asserts: an error is bounded, and names the file when it is about the
/// file alone; a merged report, written as JSON and merged again, gives
/// the same JSON.
pub fn merge_report(data: &[u8]) -> u64 {
    const LABEL: &str = "report.json";
    let text = String::from_utf8_lossy(data);
    let part = match Part::parse(LABEL, &text) {
        Ok(p) => p,
        Err(e) => {
            let message = e.to_string();
            labelled(LABEL, &message);
            return fingerprint(&["unread", &message]);
        }
    };
    if part.kind != crate::conformance::report::KIND {
        return fingerprint(&["kind"]);
    }
    let corpus = builtin_corpus();
    match merge(std::slice::from_ref(&part), corpus) {
        Ok(merged) => {
            let json = merged.report().json();
            let again = Part::parse(LABEL, &json.to_string()).expect("a merged report is JSON");
            let back = merge(&[again], corpus)
                .unwrap_or_else(|e| panic!("a merged report does not merge again: {e}"));
            assert_eq!(
                back.report().json(),
                json,
                "the report changes when merged again"
            );
            fingerprint(&["ok", &merged.results.len().min(2).to_string()])
        }
        Err(e) => {
            let message = e.to_string();
            bounded(LABEL, &message);
            fingerprint(&["error", &message])
        }
    }
}

/// The deepest perft the `request` target lets through: deeper requests are
/// asked at this depth, since their cost, not their parsing, grows.
pub const REQUEST_MAX_PERFT_DEPTH: u32 = 1;

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

/// The ids of the built-in corpus, for the `expectations` target.
fn builtin_corpus() -> &'static Corpus {
    static CORPUS: OnceLock<Corpus> = OnceLock::new();
    CORPUS.get_or_init(|| Corpus::builtin().expect("the built-in corpus loads"))
}

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
