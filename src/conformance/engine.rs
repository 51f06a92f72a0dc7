//! Engines as the runner sees them: something that answers protocol
//! requests, in process ([`Embedded`]) or as an outside program
//! ([`Process`]).
//!
//! Every reply, wherever it comes from, is read by [`read_reply`], which
//! sorts it into an answer, `unsupported`, the engine's own error, a
//! malformed line or a wrong id. A [`Process`] that exits or stops
//! answering is killed and restarted on the next request, so one bad case
//! never ends a run.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use serde_json::Value;

use super::protocol::{Command, Hello, PROTOCOL_VERSION, Request};
use super::reference::Reference;
use super::runner::ErrorKind;

/// The least time an engine gets to answer `hello`.
pub const HANDSHAKE_TIMEOUT: Duration = Duration::from_secs(10);

/// Why a request got no usable answer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum AskError {
    /// The engine said `unsupported`.
    Unsupported,
    /// Crash, timeout, malformed reply, wrong id or the engine's own error.
    Failed { kind: ErrorKind, message: String },
}

impl AskError {
    fn failed(kind: ErrorKind, message: impl Into<String>) -> AskError {
        AskError::Failed {
            kind,
            message: message.into(),
        }
    }
}

/// Something that answers protocol requests.
pub trait Engine {
    /// The engine's `hello` reply.
    fn hello(&self) -> &Hello;
    /// Sends one command; returns the `ok` reply's fields.
    fn ask(&mut self, command: &Command) -> Result<Value, AskError>;
}

/// The engine could not be started or did not complete the handshake.
#[derive(Debug, thiserror::Error)]
pub enum StartError {
    #[error("the engine command is empty")]
    Empty,
    #[error("the engine command '{command}' has an unclosed quote")]
    Quote { command: String },
    #[error("cannot start the engine '{command}': {message}")]
    Spawn { command: String, message: String },
    #[error("the engine '{command}' failed the hello handshake: {message}")]
    Handshake { command: String, message: String },
}

/// Sorts one reply line into an answer or an [`AskError`].
pub fn read_reply(line: &str, id: u64) -> Result<Value, AskError> {
    let shown = shorten(line.trim());
    let v: Value = serde_json::from_str(line).map_err(|e| {
        AskError::failed(
            ErrorKind::Malformed,
            format!("the reply is not JSON ({e}): {shown}"),
        )
    })?;
    read_reply_value(v, id, &shown)
}

fn read_reply_value(v: Value, id: u64, shown: &str) -> Result<Value, AskError> {
    let Value::Object(map) = &v else {
        return Err(AskError::failed(
            ErrorKind::Malformed,
            format!("the reply is not a JSON object: {shown}"),
        ));
    };
    match map.get("id") {
        Some(Value::Number(n)) if n.as_u64() == Some(id) => {}
        Some(Value::Number(n)) => {
            return Err(AskError::failed(
                ErrorKind::WrongId,
                format!("asked with id {id}, the reply carries id {n}"),
            ));
        }
        Some(other) => {
            return Err(AskError::failed(
                ErrorKind::WrongId,
                format!("asked with id {id}, the reply carries id {other}"),
            ));
        }
        None => {
            return Err(AskError::failed(
                ErrorKind::Malformed,
                format!("the reply has no 'id': {shown}"),
            ));
        }
    }
    if map.get("unsupported") == Some(&Value::Bool(true)) {
        return Err(AskError::Unsupported);
    }
    if let Some(e) = map.get("error") {
        let message = e
            .as_str()
            .map(String::from)
            .unwrap_or_else(|| e.to_string());
        return Err(AskError::failed(ErrorKind::Engine, message));
    }
    if map.get("ok") == Some(&Value::Bool(true)) {
        return Ok(v);
    }
    Err(AskError::failed(
        ErrorKind::Malformed,
        format!("a reply says \"ok\": true, \"unsupported\": true or \"error\": …, not: {shown}"),
    ))
}

fn shorten(s: &str) -> String {
    const MAX: usize = 200;
    if s.chars().count() <= MAX {
        s.to_string()
    } else {
        format!("{}…", s.chars().take(MAX).collect::<String>())
    }
}

/// The reference engine in process, through the same reply reading.
pub struct Embedded<'a> {
    reference: Reference<'a>,
    hello: Hello,
    next: u64,
}

impl<'a> Embedded<'a> {
    pub fn new(reference: Reference<'a>) -> Embedded<'a> {
        Embedded {
            hello: reference.hello(),
            reference,
            next: 1,
        }
    }
}

impl Engine for Embedded<'_> {
    fn hello(&self) -> &Hello {
        &self.hello
    }
    fn ask(&mut self, command: &Command) -> Result<Value, AskError> {
        let id = self.next;
        self.next += 1;
        let reply = self.reference.handle(&Request {
            id,
            command: command.clone(),
        });
        read_reply_value(reply, id, "(embedded reply)")
    }
}

/// Splits a command line into words: whitespace separates, single and
/// double quotes group, backslash escapes the next character outside
/// single quotes.
pub fn split_command(command: &str) -> Result<Vec<String>, StartError> {
    let mut words = Vec::new();
    let mut cur = String::new();
    let mut in_word = false;
    let mut chars = command.chars();
    while let Some(c) = chars.next() {
        match c {
            '\'' => {
                in_word = true;
                loop {
                    match chars.next() {
                        Some('\'') => break,
                        Some(x) => cur.push(x),
                        None => {
                            return Err(StartError::Quote {
                                command: command.into(),
                            });
                        }
                    }
                }
            }
            '"' => {
                in_word = true;
                loop {
                    match chars.next() {
                        Some('"') => break,
                        Some('\\') => match chars.next() {
                            Some(x) => cur.push(x),
                            None => {
                                return Err(StartError::Quote {
                                    command: command.into(),
                                });
                            }
                        },
                        Some(x) => cur.push(x),
                        None => {
                            return Err(StartError::Quote {
                                command: command.into(),
                            });
                        }
                    }
                }
            }
            '\\' => {
                in_word = true;
                if let Some(x) = chars.next() {
                    cur.push(x);
                }
            }
            c if c.is_whitespace() => {
                if in_word {
                    words.push(std::mem::take(&mut cur));
                    in_word = false;
                }
            }
            c => {
                in_word = true;
                cur.push(c);
            }
        }
    }
    if in_word {
        words.push(cur);
    }
    if words.is_empty() {
        return Err(StartError::Empty);
    }
    Ok(words)
}

struct Running {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<Option<String>>,
}

/// An outside engine program, restarted whenever it crashes or hangs.
pub struct Process {
    argv: Vec<String>,
    shown: String,
    timeout: Duration,
    hello: Hello,
    running: Option<Running>,
    next: u64,
    stderr_tail: Arc<Mutex<String>>,
    /// How many times the engine was started (1 after [`Process::start`]).
    pub starts: usize,
}

impl Process {
    /// Starts the program and completes the handshake. `argv[0]` is
    /// looked up on `PATH` like a shell would.
    pub fn start(argv: Vec<String>, timeout: Duration) -> Result<Process, StartError> {
        if argv.is_empty() {
            return Err(StartError::Empty);
        }
        let shown = argv.join(" ");
        let mut p = Process {
            argv,
            shown,
            timeout,
            hello: Hello {
                name: String::new(),
                version: String::new(),
                variants: vec![],
                capabilities: vec![],
                commands: vec![],
                boards: None,
            },
            running: None,
            next: 1,
            stderr_tail: Arc::new(Mutex::new(String::new())),
            starts: 0,
        };
        p.hello = p.launch()?;
        Ok(p)
    }

    fn launch(&mut self) -> Result<Hello, StartError> {
        let mut child = std::process::Command::new(&self.argv[0])
            .args(&self.argv[1..])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .map_err(|e| StartError::Spawn {
                command: self.shown.clone(),
                message: e.to_string(),
            })?;
        self.starts += 1;
        let (stdin, stdout, stderr) =
            match (child.stdin.take(), child.stdout.take(), child.stderr.take()) {
                (Some(a), Some(b), Some(c)) => (a, b, c),
                _ => {
                    let _ = child.kill();
                    let _ = child.wait();
                    return Err(StartError::Spawn {
                        command: self.shown.clone(),
                        message: "its standard streams could not be opened".into(),
                    });
                }
            };
        let (tx, rx) = mpsc::channel();
        std::thread::spawn(move || {
            let mut reader = BufReader::new(stdout);
            loop {
                let mut buf = Vec::new();
                match reader.read_until(b'\n', &mut buf) {
                    Ok(0) | Err(_) => {
                        let _ = tx.send(None);
                        return;
                    }
                    Ok(_) => {
                        let line = String::from_utf8_lossy(&buf).trim_end().to_string();
                        if tx.send(Some(line)).is_err() {
                            return;
                        }
                    }
                }
            }
        });
        let tail = Arc::clone(&self.stderr_tail);
        std::thread::spawn(move || {
            let reader = BufReader::new(stderr);
            for line in reader.lines() {
                let Ok(line) = line else { return };
                if let Ok(mut t) = tail.lock() {
                    t.push_str(&line);
                    t.push('\n');
                    if t.len() > 2000 {
                        let cut = t.len() - 1000;
                        let cut = (cut..t.len()).find(|i| t.is_char_boundary(*i)).unwrap_or(0);
                        t.replace_range(..cut, "");
                    }
                }
            }
        });
        self.running = Some(Running {
            child,
            stdin,
            lines: rx,
        });
        let hello_cmd = Command::Hello {
            protocol: PROTOCOL_VERSION,
        };
        let shown = self.shown.clone();
        let handshake = |message: String| StartError::Handshake {
            command: shown.clone(),
            message,
        };
        // Starting can be slow (a JIT, a large table); give the handshake
        // at least ten seconds whatever the per-reply limit.
        let request_timeout = self.timeout;
        self.timeout = self.timeout.max(HANDSHAKE_TIMEOUT);
        let answered = self.exchange(0, &hello_cmd);
        self.timeout = request_timeout;
        let reply = match answered {
            Ok(r) => r,
            Err(e) => {
                self.stop();
                return Err(match e {
                    AskError::Unsupported => handshake("it answered hello with unsupported".into()),
                    AskError::Failed { message, .. } => handshake(message),
                });
            }
        };
        serde_json::from_value::<Hello>(reply).map_err(|e| {
            self.stop();
            handshake(format!(
                "its hello reply does not have the expected fields: {e}"
            ))
        })
    }

    /// Kills the engine (if running) and waits for it.
    fn stop(&mut self) {
        if let Some(mut r) = self.running.take() {
            let _ = r.child.kill();
            let _ = r.child.wait();
        }
    }

    fn stderr_note(&self) -> String {
        let t = self
            .stderr_tail
            .lock()
            .map(|t| t.clone())
            .unwrap_or_default();
        let t = t.trim();
        if t.is_empty() {
            String::new()
        } else {
            let last: Vec<&str> = t.lines().rev().take(3).collect();
            let last: Vec<&str> = last.into_iter().rev().collect();
            format!("; its stderr ends: {}", shorten(&last.join(" | ")))
        }
    }

    /// One request and its reply; any failure other than `unsupported` or
    /// the engine's own error leaves the engine stopped.
    fn exchange(&mut self, id: u64, command: &Command) -> Result<Value, AskError> {
        let line = serde_json::to_string(&Request {
            id,
            command: command.clone(),
        })
        .map_err(|e| AskError::failed(ErrorKind::Malformed, e.to_string()))?;
        let Some(r) = self.running.as_mut() else {
            return Err(AskError::failed(
                ErrorKind::Crash,
                "the engine is not running",
            ));
        };
        let sent = writeln!(r.stdin, "{line}").and_then(|_| r.stdin.flush());
        let got = match sent {
            Ok(()) => r.lines.recv_timeout(self.timeout),
            Err(_) => Ok(None),
        };
        let result = match got {
            Ok(Some(reply)) => read_reply(&reply, id),
            Ok(None) | Err(RecvTimeoutError::Disconnected) => {
                let status = r
                    .child
                    .wait()
                    .map(|s| s.to_string())
                    .unwrap_or_else(|e| e.to_string());
                self.running = None;
                let note = self.stderr_note();
                return Err(AskError::failed(
                    ErrorKind::Crash,
                    format!(
                        "the engine exited ({status}) before replying to '{}'{note}",
                        command.name()
                    ),
                ));
            }
            Err(RecvTimeoutError::Timeout) => {
                self.stop();
                return Err(AskError::failed(
                    ErrorKind::Timeout,
                    format!(
                        "no reply to '{}' within {} ms; the engine was stopped",
                        command.name(),
                        self.timeout.as_millis()
                    ),
                ));
            }
        };
        if let Err(AskError::Failed { kind, .. }) = &result {
            // After a garbled or mismatched line the stream cannot be
            // trusted: start afresh on the next request.
            if matches!(kind, ErrorKind::Malformed | ErrorKind::WrongId) {
                self.stop();
            }
        }
        result
    }
}

impl Engine for Process {
    fn hello(&self) -> &Hello {
        &self.hello
    }

    fn ask(&mut self, command: &Command) -> Result<Value, AskError> {
        if self.running.is_none() {
            match self.launch() {
                Ok(h) => self.hello = h,
                Err(e) => {
                    return Err(AskError::failed(
                        ErrorKind::Crash,
                        format!("restarting: {e}"),
                    ));
                }
            }
        }
        let id = self.next;
        self.next += 1;
        self.exchange(id, command)
    }
}

impl Drop for Process {
    fn drop(&mut self) {
        if let Some(mut r) = self.running.take() {
            // Closing stdin asks a well-behaved engine to exit; kill it if
            // it does not.
            drop(r.stdin);
            std::thread::sleep(Duration::from_millis(20));
            if let Ok(None) = r.child.try_wait() {
                let _ = r.child.kill();
            }
            let _ = r.child.wait();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splits_like_a_shell() {
        assert_eq!(
            split_command(r#"python3 'my engine.py' --x "a \"b\"" c\ d"#).unwrap(),
            vec!["python3", "my engine.py", "--x", "a \"b\"", "c d"]
        );
        assert!(matches!(split_command("  "), Err(StartError::Empty)));
        assert!(matches!(
            split_command("a 'b"),
            Err(StartError::Quote { .. })
        ));
    }

    #[test]
    fn replies_are_sorted() {
        assert!(read_reply(r#"{"id":3,"ok":true,"actions":[]}"#, 3).is_ok());
        assert_eq!(
            read_reply(r#"{"id":3,"unsupported":true}"#, 3),
            Err(AskError::Unsupported)
        );
        let kind = |line: &str| match read_reply(line, 3) {
            Err(AskError::Failed { kind, .. }) => Some(kind),
            _ => None,
        };
        assert_eq!(kind(r#"{"id":3,"error":"bad"}"#), Some(ErrorKind::Engine));
        assert_eq!(kind(r#"{"id":4,"ok":true}"#), Some(ErrorKind::WrongId));
        assert_eq!(kind(r#"{"id":"3","ok":true}"#), Some(ErrorKind::WrongId));
        assert_eq!(kind(r#"{"ok":true}"#), Some(ErrorKind::Malformed));
        assert_eq!(kind("hello?"), Some(ErrorKind::Malformed));
        assert_eq!(kind("[1]"), Some(ErrorKind::Malformed));
        assert_eq!(kind(r#"{"id":3}"#), Some(ErrorKind::Malformed));
    }
}
