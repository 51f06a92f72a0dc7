//! The reference served over a byte stream, as `seams engine` serves it on
//! standard input and output: one reply line per request line, in order.
//!
//! Replies are held while more requests already wait (a runner that
//! pipelines sends several at once) and flushed before waiting for input,
//! so a runner that waits for each reply still gets it at once. A line
//! that cannot be a request (too long, not UTF-8) still gets a reply, with
//! a null id, so a client is never left waiting.
//!
//! For testing runners, the engine can misbehave on purpose ([`Fault`]):
//! crash, hang, garble, leave a child behind. Each fault is one request's
//! alone; replies held so far go out first.

use std::io::{Read, Write};
use std::time::Duration;

use super::engine::{CappedLines, Line};
use super::protocol;
use super::reference::Reference;

/// The longest request line read; a longer one gets an error reply and is
/// skipped unread.
pub const MAX_REQUEST_BYTES: usize = 16 << 20;

/// The argument of the child [`Fault::ForkExit`] leaves behind, so tests
/// can look for it among the running processes.
pub const FORKED_SLEEP: &str = "3600.0417";

/// A deliberate misbehaviour, to test runners.
#[derive(Copy, Clone, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Fault {
    // Crash, hang, garbage and wrong-id are described in `seams engine
    // --help`'s text for --fault; clap shows a variant's doc comment too.
    Crash,
    Hang,
    Garbage,
    WrongId,
    /// Reply `ok` with fields of the wrong shape.
    WrongShape,
    /// Answer hello without the fields a hello reply has.
    BadHello,
    /// Never answer hello.
    NoHello,
    /// Start a child that keeps stdout open, then exit without replying.
    ForkExit,
    /// Close stdout and stay alive.
    CloseStdout,
    /// Write 1 MiB of bytes that are not UTF-8 to stderr, then answer.
    BadStderr,
    /// Answer with a 100 MiB line.
    HugeReply,
}

/// Where a fault applies: which fault, and only on geometry questions of
/// one check kind (`walk`, …) or on every request after hello.
#[derive(Clone, Debug)]
pub struct Faulty {
    pub fault: Fault,
    pub only_on: Option<String>,
}

/// How serving ended.
#[derive(Debug, PartialEq, Eq)]
pub enum Served {
    /// The input closed.
    Closed,
    /// A fault ended the engine on purpose (`seams engine` exits with 3).
    Crashed,
}

/// Serves `reference` on `input` and `output` until the input closes (or
/// a fault ends it).
pub fn serve(
    reference: &Reference,
    input: impl Read,
    output: impl Write,
    fault: Option<&Faulty>,
) -> std::io::Result<Served> {
    let mut requests = CappedLines::new(input, MAX_REQUEST_BYTES);
    let mut out = std::io::BufWriter::with_capacity(64 << 10, output);
    loop {
        let line = match requests.next_line() {
            Line::Closed => break,
            Line::TooLong(n) => {
                let reply = protocol::error_line(
                    None,
                    format!("request too long: {n} bytes; at most {MAX_REQUEST_BYTES} are read"),
                );
                writeln!(out, "{reply}")?;
                flush_unless_busy(&mut out, &requests)?;
                continue;
            }
            Line::Text(bytes) => match String::from_utf8(bytes) {
                Ok(line) => line,
                Err(e) => {
                    let reply = protocol::error_line(
                        None,
                        format!(
                            "the request is not UTF-8 (bad byte at offset {})",
                            e.utf8_error().valid_up_to()
                        ),
                    );
                    writeln!(out, "{reply}")?;
                    flush_unless_busy(&mut out, &requests)?;
                    continue;
                }
            },
        };
        if line.trim().is_empty() {
            continue;
        }
        match fault {
            Some(f) if faulty_here(f, &line) => {
                // Replies held so far go out first: the fault is this
                // request's alone.
                out.flush()?;
                match misbehave(f.fault, reference, &line) {
                    Some(reply) => writeln!(out, "{reply}")?,
                    None => return Ok(Served::Crashed),
                }
            }
            _ => {
                // Serialised straight onto the output: through a string
                // (`Display`), every piece of the reply also passed the
                // formatting machinery (3 % of the engine's work under
                // `seams fuzz`). The bytes are the same.
                serde_json::to_writer(&mut out, &reference.handle_line(&line))?;
                out.write_all(b"\n")?;
            }
        }
        flush_unless_busy(&mut out, &requests)?;
    }
    out.flush()?;
    Ok(Served::Closed)
}

/// Flushes the replies written so far unless another request is already
/// read and waiting to be answered.
fn flush_unless_busy<R: Read>(
    out: &mut impl Write,
    requests: &CappedLines<R>,
) -> std::io::Result<()> {
    if requests.line_waiting() {
        Ok(())
    } else {
        out.flush()
    }
}

/// Whether the fault applies to this request line.
fn faulty_here(f: &Faulty, line: &str) -> bool {
    let req: Option<serde_json::Value> = serde_json::from_str(line).ok();
    let cmd = req.as_ref().and_then(|r| r["cmd"].as_str()).unwrap_or("");
    let kind = req
        .as_ref()
        .and_then(|r| r["question"]["kind"].as_str())
        .unwrap_or("");
    if matches!(f.fault, Fault::BadHello | Fault::NoHello) {
        cmd == "hello"
    } else {
        cmd != "hello" && f.only_on.as_deref().is_none_or(|k| k == kind)
    }
}

/// The faulty reply line, or `None` to crash.
fn misbehave(f: Fault, reference: &Reference, line: &str) -> Option<String> {
    let req: Option<serde_json::Value> = serde_json::from_str(line).ok();
    let id = req.as_ref().and_then(|r| r["id"].as_u64()).unwrap_or(0);
    Some(match f {
        Fault::Crash => {
            eprintln!("seams engine: crashing on purpose (--fault crash)");
            return None;
        }
        Fault::Hang | Fault::NoHello => hang(),
        Fault::ForkExit => {
            // The child inherits stdout and outlives this process; a runner
            // must kill it with the process group.
            let _ = std::process::Command::new("sleep")
                .arg(FORKED_SLEEP)
                .stdin(std::process::Stdio::null())
                .spawn();
            return None;
        }
        Fault::CloseStdout => {
            close_stdout();
            hang()
        }
        Fault::BadStderr => {
            let _ = std::io::stderr().write_all(&vec![0xff; 1 << 20]);
            reference.handle_line(line).to_string()
        }
        Fault::HugeReply => "x".repeat(100 << 20),
        Fault::Garbage => "this is not JSON {".to_string(),
        Fault::WrongShape => {
            serde_json::json!({"id": id, "ok": true, "answer": 42, "actions": 42, "nodes": "many"})
                .to_string()
        }
        // It names its protocol, so the handshake fails on the missing
        // fields rather than on the version.
        Fault::BadHello => {
            serde_json::json!({"id": id, "ok": true, "protocol": protocol::PROTOCOL_VERSION})
                .to_string()
        }
        Fault::WrongId => {
            let mut reply = reference.handle_line(line);
            reply["id"] = serde_json::json!(id + 1000);
            reply.to_string()
        }
    })
}

fn hang() -> ! {
    loop {
        std::thread::sleep(Duration::from_secs(3600));
    }
}

#[cfg(unix)]
fn close_stdout() {
    // SAFETY: closing fd 1 has no effect on memory; nothing writes to
    // stdout afterwards, since the caller only sleeps.
    unsafe {
        libc::close(1);
    }
}

#[cfg(not(unix))]
fn close_stdout() {}
