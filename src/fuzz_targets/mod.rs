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
//!   files, protocol replies, merged conform reports).
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
//!
//! The targets live in files by what they parse (`positions.rs`: what a
//! variant reads; `spec_files.rs`: the files of `spec/`;
//! `corpus_protocol.rs`: what the conformance tools read), so each file
//! stays readable on its own; this file keeps the list every driver walks
//! and the checks and fingerprint all targets share, so that every target
//! judges errors alike.

mod corpus_protocol;
mod positions;
mod spec_files;

pub use corpus_protocol::{
    REQUEST_MAX_PERFT_DEPTH, capped_lines, cases, expectations, merge_report, reply, request,
};
pub use positions::{Spot, action, case_positions, edit, position, record, spots};
pub use spec_files::{board_file, chess_data, clauses, kyoto_data, shogi_data, tetra_data};

use crate::variant::{At, Played, Variant};

/// The longest error message a target accepts. A message names its place
/// and quotes at most about 200 characters of the input, so a bound a few
/// times that catches any message that grows with its input.
pub const MAX_MESSAGE_CHARS: usize = 1000;

/// A fuzz target: bytes in, a fingerprint of the path taken out.
pub type Target = fn(&[u8]) -> u64;

/// Every target by name; `fuzz/fuzz_targets/<name>.rs` and the trials of
/// `tests/fuzz_targets.rs` are one per entry.
pub const TARGETS: [(&str, Target); 16] = [
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
    ("merge_report", merge_report),
];

fn at(position: Option<&str>) -> At<'_> {
    At {
        position,
        moves: &[],
    }
}

/// Plays a printed position text, which must parse.
fn replay(v: &dyn Variant, text: &str, what: &str) -> Played {
    v.play(&at(Some(text)))
        .unwrap_or_else(|e| panic!("{}: {what} '{text}' does not parse: {e}", v.name()))
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
