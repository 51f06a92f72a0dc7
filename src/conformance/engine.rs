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

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::protocol::{
    Command, EXTENSION_PREFIX, Hello, PIPELINING, PROTOCOL_VERSION, Request, reply_fields,
};
use super::reference::Reference;

/// The least time an engine gets to answer `hello`.
pub const HANDSHAKE_TIMEOUT: Duration = Duration::from_secs(10);

/// How long a crash report waits for the engine's stderr to be read.
const STDERR_DRAIN: Duration = Duration::from_secs(2);

/// How a request failed to produce an answer.
#[derive(
    Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize, JsonSchema,
)]
#[serde(rename_all = "kebab-case")]
pub enum ErrorKind {
    /// The engine exited (or closed its output) before replying.
    Crash,
    /// No reply within the time limit; the engine was stopped.
    Timeout,
    /// The reply is not JSON, not an object, or lacks the expected fields.
    Malformed,
    /// The reply carries another request's id.
    WrongId,
    /// The engine replied with `"error"`: it could not answer.
    #[serde(rename = "engine-error")]
    Engine,
}

impl ErrorKind {
    pub fn name(self) -> &'static str {
        match self {
            ErrorKind::Crash => "crash",
            ErrorKind::Timeout => "timeout",
            ErrorKind::Malformed => "malformed",
            ErrorKind::WrongId => "wrong-id",
            ErrorKind::Engine => "engine-error",
        }
    }
}

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
    /// Why the engine will not be asked again, if it is dead (an engine in
    /// process never is).
    fn dead(&self) -> Option<String> {
        None
    }
    /// No reply is waited for past `deadline` (the run's time limit).
    fn set_deadline(&mut self, _deadline: Option<std::time::Instant>) {}
    /// Posts a command whose reply is [`Engine::collect`]ed later, in the
    /// order posted, so that the caller can work (or post more) meanwhile.
    /// An engine that declares `pipelining` gets the request at once; any
    /// other is asked when the reply is collected.
    fn post(&mut self, command: Command) -> Posted {
        Posted {
            command,
            sent: None,
        }
    }
    /// The reply to a [`Posted`] request. A request that could not be
    /// written ahead, or went to an engine that has since been restarted,
    /// is asked now.
    fn collect(&mut self, posted: Posted) -> Result<Value, AskError> {
        self.ask(&posted.command)
    }
}

/// A request [`Engine::post`]ed and not yet collected.
#[derive(Debug)]
pub struct Posted {
    command: Command,
    /// The id it was written with, when it was written ahead.
    sent: Option<u64>,
}

/// The most request bytes written ahead and not yet answered. Below the
/// smallest pipe buffer (64 KiB on Linux), so writing ahead never blocks:
/// an engine busy writing a long reply cannot make the runner wait on a
/// full input pipe while it does not read the reply.
pub const MAX_AHEAD_BYTES: usize = 32 << 10;

/// How many bytes of requests written ahead gather before they are sent.
const FLUSH_BYTES: usize = 4 << 10;

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

/// Sorts one reply line to the request `id`, a `command`, into an answer
/// or an [`AskError`].
pub fn read_reply(line: &str, id: u64, command: &str) -> Result<Value, AskError> {
    let shown = crate::quote::excerpt(line.trim());
    let v: Value = serde_json::from_str(line).map_err(|e| {
        AskError::failed(
            ErrorKind::Malformed,
            format!("the reply is not JSON ({e}): {shown}"),
        )
    })?;
    read_reply_value(v, id, command, &shown)
}

pub fn read_reply_value(v: Value, id: u64, command: &str, shown: &str) -> Result<Value, AskError> {
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
                format!(
                    "asked with id {id}, the reply carries id {}",
                    crate::quote::excerpt(&other.to_string())
                ),
            ));
        }
        None => {
            return Err(AskError::failed(
                ErrorKind::Malformed,
                format!("the reply has no 'id': {shown}"),
            ));
        }
    }
    // An undefined field is refused by name rather than ignored: a
    // misspelt optional field (`reasn`, `divde`) would otherwise read as
    // absent and turn into a wrong answer that is hard to trace.
    let unknown = |allowed: &[&str]| {
        map.keys()
            .find(|k| !allowed.contains(&k.as_str()) && !k.starts_with(EXTENSION_PREFIX))
            .map(|k| {
                AskError::failed(
                    ErrorKind::Malformed,
                    format!(
                        "the reply to '{command}' has the unknown field '{}' \
                         (extensions start with '{EXTENSION_PREFIX}'): {shown}",
                        crate::quote::excerpt(k)
                    ),
                )
            })
    };
    if map.get("unsupported") == Some(&Value::Bool(true)) {
        return match unknown(&["id", "unsupported"]) {
            Some(e) => Err(e),
            None => Err(AskError::Unsupported),
        };
    }
    if let Some(e) = map.get("error") {
        if let Some(bad) = unknown(&["id", "error"]) {
            return Err(bad);
        }
        // The engine's own words, bounded: a report must stay readable
        // whatever an engine writes.
        let message = match e.as_str() {
            Some(text) => crate::quote::bounded(text).into_owned(),
            None => crate::quote::bounded(&e.to_string()).into_owned(),
        };
        return Err(AskError::failed(ErrorKind::Engine, message));
    }
    if map.get("ok") == Some(&Value::Bool(true)) {
        let mut allowed = vec!["id", "ok"];
        allowed.extend_from_slice(reply_fields(command));
        return match unknown(&allowed) {
            Some(e) => Err(e),
            None => Ok(v),
        };
    }
    Err(AskError::failed(
        ErrorKind::Malformed,
        format!("a reply says \"ok\": true, \"unsupported\": true or \"error\": …, not: {shown}"),
    ))
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
        read_reply_value(reply, id, command.name(), "(embedded reply)")
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

/// The checks every hello reply passes, wherever the engine runs: the
/// protocol version, the fields (unknown ones were already refused by
/// [`read_reply`], naming the field) and dotted-integer rules versions.
pub fn read_hello(reply: Value) -> Result<Hello, String> {
    check_hello_protocol(&reply)?;
    let hello = serde_json::from_value::<Hello>(reply)
        .map_err(|e| format!("its hello reply does not have the expected fields: {e}"))?;
    if let Some(v) = hello
        .variants
        .iter()
        .find(|v| super::version::Version::parse(&v.rules).is_err())
    {
        return Err(format!(
            "its hello reply declares rules '{}' for the variant '{}': a rules version \
             is dotted integers, such as \"0.2\"",
            v.rules, v.name
        ));
    }
    Ok(hello)
}

/// The bounds that keep a misbehaving engine from wedging or flooding the
/// runner. Every field has a documented default and a CLI flag.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    /// Time allowed for each reply.
    pub reply_timeout: Duration,
    /// Time allowed for the `hello` reply after each start.
    pub hello_timeout: Duration,
    /// The longest reply line read; a longer one is `malformed: reply too
    /// long`, and is skipped without being held in memory.
    pub max_reply_bytes: usize,
    /// After this many crashes or timeouts in a row the engine is declared
    /// dead and is not asked again.
    pub max_consecutive_failures: usize,
}

/// The default longest reply line: far above any legal-action list or
/// perft divide, far below what would strain the runner.
pub const DEFAULT_MAX_REPLY_BYTES: usize = 16 << 20;

/// How much of the engine's stderr is kept for crash reports.
pub const STDERR_TAIL_BYTES: usize = 64 << 10;

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            reply_timeout: Duration::from_secs(30),
            hello_timeout: HANDSHAKE_TIMEOUT,
            max_reply_bytes: DEFAULT_MAX_REPLY_BYTES,
            max_consecutive_failures: 5,
        }
    }
}

/// One line read by [`CappedLines`].
#[derive(Debug, PartialEq, Eq)]
pub enum Line {
    /// The line's bytes, without the newline.
    Text(Vec<u8>),
    /// A line longer than the cap, with its length in bytes.
    TooLong(usize),
    /// End of file or a read error: the stream is closed.
    Closed,
}

/// Reads newline-terminated lines of at most `cap` bytes from any byte
/// stream; a longer line is counted and skipped as it streams by, never
/// held whole. Both ends of the protocol read through it: the runner the
/// engine's replies, `seams engine` its requests. On a non-blocking stream
/// a line may arrive in pieces: [`CappedLines::try_line`] keeps what it
/// has read and goes on where it stopped.
pub struct CappedLines<R> {
    reader: BufReader<R>,
    cap: usize,
    /// The line read so far (empty once it is known to be too long).
    line: Vec<u8>,
    /// The length so far of a line found to be longer than the cap.
    too_long: Option<usize>,
    /// Whether any byte of the current line was read.
    read_any: bool,
}

impl<R: std::io::Read> CappedLines<R> {
    pub fn new(inner: R, cap: usize) -> CappedLines<R> {
        CappedLines {
            reader: BufReader::with_capacity(64 << 10, inner),
            cap,
            line: Vec::new(),
            too_long: None,
            read_any: false,
        }
    }

    /// Whether a whole line is already read into the buffer, so that the
    /// next [`CappedLines::next_line`] returns without waiting. An engine
    /// may hold its replies while this holds, and must flush before it
    /// waits.
    pub fn line_waiting(&self) -> bool {
        self.reader.buffer().contains(&b'\n')
    }

    /// The next line. A last line without a newline still counts. On a
    /// blocking stream this waits for it.
    pub fn next_line(&mut self) -> Line {
        loop {
            if let Some(line) = self.try_line() {
                return line;
            }
        }
    }

    /// The next line if it can be read without waiting; `None` when a
    /// non-blocking stream has nothing more for now (the part of the line
    /// read so far is kept for the next call).
    pub fn try_line(&mut self) -> Option<Line> {
        loop {
            let buf = match self.reader.fill_buf() {
                Ok(b) if !b.is_empty() => b,
                Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => return None,
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
                _ if self.read_any => break,
                _ => return Some(Line::Closed),
            };
            self.read_any = true;
            let newline = buf.iter().position(|&b| b == b'\n');
            let chunk = &buf[..newline.unwrap_or(buf.len())];
            match &mut self.too_long {
                Some(n) => *n += chunk.len(),
                None if self.line.len() + chunk.len() > self.cap => {
                    self.too_long = Some(self.line.len() + chunk.len());
                    self.line = Vec::new();
                }
                None => self.line.extend_from_slice(chunk),
            }
            let used = newline.map_or(buf.len(), |i| i + 1);
            self.reader.consume(used);
            if newline.is_some() {
                break;
            }
        }
        self.read_any = false;
        let mut line = std::mem::take(&mut self.line);
        Some(match self.too_long.take() {
            Some(n) => Line::TooLong(n),
            None => {
                while line.last().is_some_and(|b| b.is_ascii_whitespace()) {
                    line.pop();
                }
                Line::Text(line)
            }
        })
    }
}

/// The engine's reply lines. On Unix the runner reads them itself, waiting
/// with `poll(2)`: a reply then costs one wake-up, where a reader thread
/// handing lines over a channel cost two, and the handover was the larger
/// part of the runner's time per question with a fast engine. Elsewhere a
/// reader thread does the reading.
struct Replies {
    #[cfg(unix)]
    lines: CappedLines<std::process::ChildStdout>,
    #[cfg(unix)]
    closed: bool,
    #[cfg(not(unix))]
    lines: Receiver<Line>,
}

impl Replies {
    #[cfg(unix)]
    fn new(stdout: std::process::ChildStdout, cap: usize) -> Replies {
        use std::os::fd::AsRawFd;
        let fd = stdout.as_raw_fd();
        // SAFETY: fcntl on a descriptor this process owns (the pipe from the
        // engine's stdout); only its status flags change.
        unsafe {
            let flags = libc::fcntl(fd, libc::F_GETFL);
            if flags >= 0 {
                libc::fcntl(fd, libc::F_SETFL, flags | libc::O_NONBLOCK);
            }
        }
        Replies {
            lines: CappedLines::new(stdout, cap),
            closed: false,
        }
    }

    #[cfg(not(unix))]
    fn new(stdout: std::process::ChildStdout, cap: usize) -> Replies {
        let (tx, lines) = mpsc::channel();
        std::thread::spawn(move || read_lines(stdout, cap, tx));
        Replies { lines }
    }

    /// The next line, waiting at most `wait`; `Closed` once, then
    /// `Disconnected`, when the engine's stdout is closed.
    #[cfg(unix)]
    fn recv_timeout(&mut self, wait: Duration) -> Result<Line, RecvTimeoutError> {
        use std::os::fd::AsRawFd;
        if self.closed {
            return Err(RecvTimeoutError::Disconnected);
        }
        let deadline = std::time::Instant::now() + wait;
        loop {
            if let Some(line) = self.lines.try_line() {
                self.closed = line == Line::Closed;
                return Ok(line);
            }
            let left = deadline.saturating_duration_since(std::time::Instant::now());
            if left.is_zero() {
                return Err(RecvTimeoutError::Timeout);
            }
            let mut fds = libc::pollfd {
                fd: self.lines.reader.get_ref().as_raw_fd(),
                events: libc::POLLIN,
                revents: 0,
            };
            // Rounded up, so a wait never ends early and spins.
            let ms = left.as_micros().div_ceil(1000).min(i32::MAX as u128) as i32;
            // SAFETY: poll(2) on one valid pollfd for the call's duration; an
            // error (EINTR) only means looking again.
            unsafe {
                libc::poll(&mut fds, 1, ms);
            }
        }
    }

    #[cfg(not(unix))]
    fn recv_timeout(&mut self, wait: Duration) -> Result<Line, RecvTimeoutError> {
        self.lines.recv_timeout(wait)
    }
}

struct Running {
    child: Child,
    stdin: ChildStdin,
    lines: Replies,
    /// Requests written ahead and not yet answered: id, command name and
    /// length in bytes, oldest first. They die with the process.
    ahead: std::collections::VecDeque<(u64, &'static str, usize)>,
    /// Requests written ahead but still held here, sent in one write once
    /// [`FLUSH_BYTES`] gather or a reply to one of them is waited for: the
    /// engine is then woken once per batch, not once per request.
    unsent: Vec<u8>,
    /// The newest id in `unsent` (0 when it is empty).
    unsent_through: u64,
    /// Disconnects when the stderr reader has read everything.
    stderr_done: Receiver<()>,
}

impl Running {
    /// Sends the requests held in `unsent`. A failed write is found when
    /// a reply is read: the engine has closed its input, so it has exited
    /// or will not answer.
    fn send_unsent(&mut self) {
        if !self.unsent.is_empty() {
            let _ = self.stdin.write_all(&self.unsent);
            self.unsent.clear();
        }
        self.unsent_through = 0;
    }

    /// Kills the engine's whole process group (the engine and anything it
    /// started that kept the group), then reaps the engine.
    fn kill(mut self) {
        kill_group(&self.child);
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// SIGKILL to the engine's process group, so children it forked (which may
/// hold its stdout open) do not outlive it.
#[cfg(unix)]
fn kill_group(child: &Child) {
    // The engine was started as the leader of its own group
    // (`process_group(0)`), so the group id is its pid.
    if let Ok(pid) = i32::try_from(child.id()) {
        // SAFETY: kill(2) with a negative pid signals that process group;
        // it has no memory effects on this process.
        unsafe {
            libc::kill(-pid, libc::SIGKILL);
        }
    }
}

#[cfg(not(unix))]
fn kill_group(_child: &Child) {}

/// Hands the engine's reply lines to the runner until stdout closes.
#[cfg(not(unix))]
fn read_lines(stdout: std::process::ChildStdout, cap: usize, tx: mpsc::Sender<Line>) {
    let mut lines = CappedLines::new(stdout, cap);
    loop {
        let line = lines.next_line();
        let closed = line == Line::Closed;
        if tx.send(line).is_err() || closed {
            return;
        }
    }
}

/// Drains stderr whatever its bytes, keeping only the last
/// [`STDERR_TAIL_BYTES`]: an engine that writes endlessly or in no
/// encoding never blocks on a full pipe or grows the runner.
fn drain_stderr(
    stderr: std::process::ChildStderr,
    tail: Arc<Mutex<Vec<u8>>>,
    done: mpsc::Sender<()>,
) {
    // Dropping the sender on return tells a waiting crash report that
    // everything the engine wrote to stderr has been read.
    let _done = done;
    let mut stderr = stderr;
    let mut buf = [0u8; 8192];
    loop {
        let n = match std::io::Read::read(&mut stderr, &mut buf) {
            Ok(0) | Err(_) => return,
            Ok(n) => n,
        };
        if let Ok(mut t) = tail.lock() {
            t.extend_from_slice(&buf[..n]);
            if t.len() > STDERR_TAIL_BYTES {
                let cut = t.len() - STDERR_TAIL_BYTES;
                t.drain(..cut);
            }
        }
    }
}

/// An outside engine program, restarted whenever it crashes or hangs.
pub struct Process {
    argv: Vec<String>,
    shown: String,
    limits: Limits,
    hello: Hello,
    running: Option<Running>,
    next: u64,
    stderr_tail: Arc<Mutex<Vec<u8>>>,
    /// Crashes and timeouts since the last good reply.
    consecutive_failures: usize,
    /// The run's time limit, if any: replies are not waited for past it.
    deadline: Option<std::time::Instant>,
    /// How many times the engine was started (1 after [`Process::start`]).
    pub starts: usize,
    /// Replies read before their caller collected them, by id, oldest
    /// first: read to make room in the pipe, or before a request asked
    /// one at a time.
    stash: std::collections::VecDeque<(u64, Result<Value, AskError>)>,
}

/// How a wait for a reply ended.
enum Waited {
    Line(Line),
    Exited(String),
    TimedOut,
}

impl Process {
    /// Starts the program and completes the handshake, with the default
    /// [`Limits`] but for the reply timeout.
    pub fn start(argv: Vec<String>, timeout: Duration) -> Result<Process, StartError> {
        let limits = Limits {
            reply_timeout: timeout,
            hello_timeout: timeout.max(HANDSHAKE_TIMEOUT),
            ..Limits::default()
        };
        Process::start_with(argv, limits)
    }

    /// Starts the program and completes the handshake. `argv[0]` is
    /// looked up on `PATH` like a shell would.
    pub fn start_with(argv: Vec<String>, limits: Limits) -> Result<Process, StartError> {
        if argv.is_empty() {
            return Err(StartError::Empty);
        }
        let shown = argv.join(" ");
        let mut p = Process {
            argv,
            shown,
            limits,
            hello: Hello {
                protocol: PROTOCOL_VERSION,
                name: String::new(),
                version: String::new(),
                variants: vec![],
                capabilities: vec![],
                commands: vec![],
                boards: None,
            },
            running: None,
            next: 1,
            stderr_tail: Arc::new(Mutex::new(Vec::new())),
            consecutive_failures: 0,
            deadline: None,
            starts: 0,
            stash: std::collections::VecDeque::new(),
        };
        p.hello = p.launch()?;
        Ok(p)
    }

    /// Whether the engine failed too often in a row to be asked again.
    pub fn is_dead(&self) -> bool {
        self.consecutive_failures >= self.limits.max_consecutive_failures
    }

    fn spawn(&mut self) -> Result<(), StartError> {
        let mut command = std::process::Command::new(&self.argv[0]);
        command
            .args(&self.argv[1..])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        #[cfg(unix)]
        std::os::unix::process::CommandExt::process_group(&mut command, 0);
        let mut child = command.spawn().map_err(|e| StartError::Spawn {
            command: self.shown.clone(),
            message: e.to_string(),
        })?;
        self.starts += 1;
        let (Some(stdin), Some(stdout), Some(stderr)) =
            (child.stdin.take(), child.stdout.take(), child.stderr.take())
        else {
            kill_group(&child);
            let _ = child.kill();
            let _ = child.wait();
            return Err(StartError::Spawn {
                command: self.shown.clone(),
                message: "its standard streams could not be opened".into(),
            });
        };
        let lines = Replies::new(stdout, self.limits.max_reply_bytes);
        let tail = Arc::clone(&self.stderr_tail);
        let (stderr_tx, stderr_done) = mpsc::channel::<()>();
        std::thread::spawn(move || drain_stderr(stderr, tail, stderr_tx));
        self.running = Some(Running {
            child,
            stdin,
            lines,
            ahead: std::collections::VecDeque::new(),
            unsent: Vec::new(),
            unsent_through: 0,
            stderr_done,
        });
        Ok(())
    }

    fn launch(&mut self) -> Result<Hello, StartError> {
        self.spawn()?;
        let shown = self.shown.clone();
        let handshake = |message: String| StartError::Handshake {
            command: shown.clone(),
            message,
        };
        let hello_cmd = Command::Hello {
            protocol: PROTOCOL_VERSION,
        };
        let reply = match self.exchange(0, &hello_cmd, self.limits.hello_timeout) {
            Ok(r) => r,
            Err(e) => {
                self.stop();
                return Err(match e {
                    AskError::Unsupported => handshake("it answered hello with unsupported".into()),
                    AskError::Failed { message, .. } => handshake(message),
                });
            }
        };
        let hello = read_hello(reply).map_err(|message| {
            self.stop();
            handshake(message)
        })?;
        Ok(hello)
    }

    /// Kills the engine (if running) and its process group.
    fn stop(&mut self) {
        if let Some(r) = self.running.take() {
            r.kill();
        }
    }

    fn stderr_note(&self) -> String {
        let t = self
            .stderr_tail
            .lock()
            .map(|t| String::from_utf8_lossy(&t).into_owned())
            .unwrap_or_default();
        let t = t.trim();
        if t.is_empty() {
            String::new()
        } else {
            let last: Vec<&str> = t.lines().rev().take(3).collect();
            let last: Vec<&str> = last.into_iter().rev().collect();
            format!(
                "; its stderr ends: {}",
                crate::quote::bounded(&last.join(" | "))
            )
        }
    }

    /// Waits up to `timeout` for a reply line, watching the engine itself
    /// too: an engine that exits is a crash at once, even when a child of
    /// its own still holds its stdout.
    fn wait_reply(r: &mut Running, timeout: Duration) -> Waited {
        const SLICE: Duration = Duration::from_millis(25);
        let deadline = std::time::Instant::now() + timeout;
        loop {
            let now = std::time::Instant::now();
            if now >= deadline {
                return Waited::TimedOut;
            }
            match r.lines.recv_timeout(SLICE.min(deadline - now)) {
                Ok(Line::Closed) | Err(RecvTimeoutError::Disconnected) => {
                    return Process::closed_or_exited(r, SLICE);
                }
                Ok(line) => return Waited::Line(line),
                Err(RecvTimeoutError::Timeout) => {}
            }
            if let Ok(Some(status)) = r.child.try_wait() {
                // A reply written just before exiting may still be on its
                // way through the reader.
                if let Ok(line @ Line::Text(_)) = r.lines.recv_timeout(SLICE) {
                    return Waited::Line(line);
                }
                return Waited::Exited(status.to_string());
            }
        }
    }

    /// Stdout closed: an engine that exits closes it at the same moment, and
    /// which of the two the runner notices first is a race. Waiting up to
    /// `grace` for the exit makes the report say "exited" whenever the
    /// engine did, and "closed its stdout" only for one still running.
    fn closed_or_exited(r: &mut Running, grace: Duration) -> Waited {
        let until = std::time::Instant::now() + grace;
        loop {
            if let Ok(Some(status)) = r.child.try_wait() {
                return Waited::Exited(status.to_string());
            }
            if std::time::Instant::now() >= until {
                return Waited::Line(Line::Closed);
            }
            std::thread::sleep(Duration::from_millis(1));
        }
    }

    /// One request and its reply; any failure other than `unsupported` or
    /// the engine's own error leaves the engine stopped.
    fn exchange(
        &mut self,
        id: u64,
        command: &Command,
        timeout: Duration,
    ) -> Result<Value, AskError> {
        let line = request_line(id, command)?;
        let Some(r) = self.running.as_mut() else {
            return Err(AskError::failed(
                ErrorKind::Crash,
                "the engine is not running",
            ));
        };
        let sent = r
            .stdin
            .write_all(line.as_bytes())
            .and_then(|_| r.stdin.flush());
        if sent.is_err() {
            // The engine closed its input: it has exited or is about to.
            return Err(self.crashed(command.name(), "closed its stdout"));
        }
        self.receive(id, command.name(), timeout)
    }

    /// Waits for the reply to request `id`, the oldest one unanswered.
    fn receive(&mut self, id: u64, name: &str, timeout: Duration) -> Result<Value, AskError> {
        let Some(r) = self.running.as_mut() else {
            return Err(AskError::failed(
                ErrorKind::Crash,
                "the engine is not running",
            ));
        };
        let waited = Process::wait_reply(r, timeout);
        let result = match waited {
            Waited::Line(Line::Text(bytes)) => match String::from_utf8(bytes) {
                Ok(reply) => read_reply(&reply, id, name),
                Err(e) => Err(AskError::failed(
                    ErrorKind::Malformed,
                    format!(
                        "the reply to '{name}' is not UTF-8 (bad byte at offset {})",
                        e.utf8_error().valid_up_to()
                    ),
                )),
            },
            Waited::Line(Line::TooLong(n)) => Err(AskError::failed(
                ErrorKind::Malformed,
                format!(
                    "reply too long: the reply to '{name}' has {n} bytes; at most {} are read",
                    self.limits.max_reply_bytes
                ),
            )),
            Waited::Line(Line::Closed) => return Err(self.crashed(name, "closed its stdout")),
            Waited::Exited(status) => {
                return Err(self.crashed(name, &format!("exited ({status})")));
            }
            Waited::TimedOut => {
                self.stop();
                return Err(AskError::failed(
                    ErrorKind::Timeout,
                    format!(
                        "no reply to '{name}' within {} ms; the engine was stopped",
                        timeout.as_millis()
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

    /// Writes `command` ahead of reading earlier replies, when the engine
    /// declares `pipelining` and is running; the id it went with. Earlier
    /// replies are read into the stash first while the bytes in flight
    /// would pass [`MAX_AHEAD_BYTES`].
    fn write_ahead(&mut self, command: &Command) -> Option<u64> {
        if !self.hello.capabilities.iter().any(|c| c == PIPELINING) || self.is_dead() {
            return None;
        }
        let id = self.next;
        let line = request_line(id, command).ok()?;
        loop {
            let r = self.running.as_ref()?;
            let in_flight: usize = r.ahead.iter().map(|&(_, _, n)| n).sum();
            match r.ahead.front() {
                Some(&(oldest, _, _)) if in_flight + line.len() > MAX_AHEAD_BYTES => {
                    self.read_ahead_through(oldest)
                }
                _ => break,
            }
        }
        let r = self.running.as_mut()?;
        r.unsent.extend_from_slice(line.as_bytes());
        r.unsent_through = id;
        if r.unsent.len() >= FLUSH_BYTES {
            r.send_unsent();
        }
        r.ahead.push_back((id, command.name(), line.len()));
        self.next += 1;
        Some(id)
    }

    /// Reads the replies to requests written ahead, up to and including
    /// `id`, into the stash. A failure ends the engine, and with it the
    /// requests written after the failed one.
    fn read_ahead_through(&mut self, id: u64) {
        loop {
            let front = self.running.as_ref().and_then(|r| r.ahead.front().copied());
            let Some((oldest, name, _)) = front.filter(|&(oldest, _, _)| oldest <= id) else {
                return;
            };
            if let Some(r) = self.running.as_mut() {
                r.ahead.pop_front();
                if oldest <= r.unsent_through {
                    r.send_unsent();
                }
            }
            let timeout = self.reply_timeout();
            let reply = self.receive(oldest, name, timeout);
            self.stash.push_back((oldest, reply));
        }
    }

    /// The time a reply is waited for: the reply timeout, cut short by the
    /// run's deadline.
    fn reply_timeout(&self) -> Duration {
        match self.deadline {
            None => self.limits.reply_timeout,
            Some(d) => d
                .saturating_duration_since(std::time::Instant::now())
                .min(self.limits.reply_timeout),
        }
    }

    /// Counts a failure toward the engine's death, or clears the count.
    fn tally(&mut self, result: &Result<Value, AskError>) {
        match result {
            Err(AskError::Failed {
                kind: ErrorKind::Crash | ErrorKind::Timeout,
                ..
            }) => self.consecutive_failures += 1,
            _ => self.consecutive_failures = 0,
        }
    }

    /// The engine ended or closed its stdout without replying: stop its
    /// group, and report with its last words on stderr.
    fn crashed(&mut self, command: &str, what: &str) -> AskError {
        if let Some(r) = self.running.take() {
            let done = r.stderr_done;
            let mut child = r.child;
            kill_group(&child);
            let _ = child.kill();
            let _ = child.wait();
            // The group is gone, so stderr closes; wait briefly for the
            // reader to drain it so the report carries the last words.
            let _ = done.recv_timeout(STDERR_DRAIN);
        }
        let note = self.stderr_note();
        AskError::failed(
            ErrorKind::Crash,
            format!("the engine {what} before replying to '{command}'{note}"),
        )
    }
}

/// The hello reply must say which protocol it speaks, with this runner's
/// major version: an engine written for another major version reads
/// requests differently, so every answer it gave would be suspect.
fn check_hello_protocol(reply: &Value) -> Result<(), String> {
    let Some(given) = reply.get("protocol") else {
        return Err(format!(
            "its hello reply has no 'protocol'; an engine for protocol {PROTOCOL_VERSION} \
             replies \"protocol\": \"{PROTOCOL_VERSION}\""
        ));
    };
    let version = given
        .as_str()
        .and_then(super::protocol::ProtocolVersion::parse)
        .ok_or_else(|| {
            format!(
                "its hello reply has \"protocol\": {given}, not a version such as \"{PROTOCOL_VERSION}\""
            )
        })?;
    if !version.is_compatible() {
        return Err(format!(
            "its hello reply says protocol {version}; this runner speaks protocol \
             {PROTOCOL_VERSION} (major version {})",
            PROTOCOL_VERSION.major
        ));
    }
    Ok(())
}

impl Engine for Process {
    fn hello(&self) -> &Hello {
        &self.hello
    }

    fn dead(&self) -> Option<String> {
        self.is_dead().then(|| {
            format!(
                "it crashed or timed out {} times in a row",
                self.consecutive_failures
            )
        })
    }

    fn set_deadline(&mut self, deadline: Option<std::time::Instant>) {
        self.deadline = deadline;
    }

    fn ask(&mut self, command: &Command) -> Result<Value, AskError> {
        self.request(command)
    }

    fn post(&mut self, command: Command) -> Posted {
        let sent = self.write_ahead(&command);
        Posted { command, sent }
    }

    fn collect(&mut self, posted: Posted) -> Result<Value, AskError> {
        let Some(id) = posted.sent else {
            return self.ask(&posted.command);
        };
        self.read_ahead_through(id);
        // Replies are collected in the order posted: any earlier one still
        // here was given up by its caller.
        self.stash.retain(|&(i, _)| i >= id);
        match self.stash.pop_front() {
            Some((i, result)) if i == id => {
                self.tally(&result);
                result
            }
            other => {
                // Lost with an engine that failed on an earlier request:
                // ask again.
                if let Some(kept) = other {
                    self.stash.push_front(kept);
                }
                self.ask(&posted.command)
            }
        }
    }
}

/// A request as one protocol line, newline included: one write for the
/// whole line, since the pipe is not buffered and a formatted write would
/// cost a system call for the newline too.
fn request_line(id: u64, command: &Command) -> Result<String, AskError> {
    let mut line = serde_json::to_string(&Request {
        id,
        command: command.clone(),
    })
    .map_err(|e| AskError::failed(ErrorKind::Malformed, e.to_string()))?;
    line.push('\n');
    Ok(line)
}

impl Process {
    /// One request, restarting the engine first if it is not running;
    /// counts crashes and timeouts in a row.
    fn request(&mut self, command: &Command) -> Result<Value, AskError> {
        if self.is_dead() {
            return Err(AskError::failed(
                ErrorKind::Crash,
                format!(
                    "not asked: the engine crashed or timed out {} times in a row and is \
                     considered dead",
                    self.consecutive_failures
                ),
            ));
        }
        if self.running.is_none() {
            match self.launch() {
                Ok(h) => self.hello = h,
                Err(e) => {
                    self.consecutive_failures += 1;
                    return Err(AskError::failed(
                        ErrorKind::Crash,
                        format!("restarting: {e}"),
                    ));
                }
            }
        }
        // Replies still on their way are kept for their callers.
        self.read_ahead_through(u64::MAX);
        if self.running.is_none() {
            // Reading replies written ahead found the engine broken.
            return self.request(command);
        }
        let id = self.next;
        self.next += 1;
        let timeout = self.reply_timeout();
        let result = self.exchange(id, command, timeout);
        self.tally(&result);
        result
    }
}

impl Drop for Process {
    fn drop(&mut self) {
        let Some(Running {
            mut child, stdin, ..
        }) = self.running.take()
        else {
            return;
        };
        // Closing stdin asks a well-behaved engine to exit; give it a
        // moment, then kill the whole group, so nothing it started is left.
        drop(stdin);
        let deadline = std::time::Instant::now() + Duration::from_millis(200);
        while std::time::Instant::now() < deadline {
            if let Ok(Some(_)) = child.try_wait() {
                break;
            }
            std::thread::sleep(Duration::from_millis(5));
        }
        kill_group(&child);
        let _ = child.kill();
        let _ = child.wait();
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

    /// A stream that hands out its pieces one read at a time, saying
    /// "would block" between them, like a non-blocking pipe whose writer
    /// is slow.
    struct Trickle(Vec<&'static [u8]>, bool);

    impl std::io::Read for Trickle {
        fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
            self.1 = !self.1;
            if self.1 {
                return Err(std::io::ErrorKind::WouldBlock.into());
            }
            if self.0.is_empty() {
                return Ok(0);
            }
            let piece = self.0.remove(0);
            buf[..piece.len()].copy_from_slice(piece);
            Ok(piece.len())
        }
    }

    #[test]
    fn a_line_in_pieces_is_read_whole() {
        let pieces = vec![&b"{\"id\":"[..], b"1}\nlong", b"er than ten\nla", b"st"];
        let mut lines = CappedLines::new(Trickle(pieces, false), 10);
        let mut got = Vec::new();
        let mut waits = 0;
        loop {
            match lines.try_line() {
                None => waits += 1,
                Some(Line::Closed) => break,
                Some(line) => got.push(line),
            }
        }
        assert_eq!(
            got,
            vec![
                Line::Text(b"{\"id\":1}".to_vec()),
                Line::TooLong(15),
                Line::Text(b"last".to_vec()),
            ]
        );
        assert!(waits >= 4, "the stream said 'would block' {waits} times");
    }

    #[test]
    fn long_lines_are_skipped_not_held() {
        let input = format!("short\n{}\nnext\r\nlast", "x".repeat(100));
        let mut lines = CappedLines::new(input.as_bytes(), 10);
        assert_eq!(lines.next_line(), Line::Text(b"short".to_vec()));
        assert_eq!(lines.next_line(), Line::TooLong(100));
        assert_eq!(lines.next_line(), Line::Text(b"next".to_vec()));
        assert_eq!(lines.next_line(), Line::Text(b"last".to_vec()));
        assert_eq!(lines.next_line(), Line::Closed);
        let bytes: &[u8] = b"\xff\xfe\n";
        let mut lines = CappedLines::new(bytes, 10);
        assert_eq!(lines.next_line(), Line::Text(vec![0xff, 0xfe]));
    }

    #[test]
    fn replies_are_sorted() {
        let cmd = "legal_actions";
        assert!(read_reply(r#"{"id":3,"ok":true,"actions":[]}"#, 3, cmd).is_ok());
        assert!(read_reply(r#"{"id":3,"ok":true,"actions":[],"x-ms":4}"#, 3, cmd).is_ok());
        assert_eq!(
            read_reply(r#"{"id":3,"unsupported":true}"#, 3, cmd),
            Err(AskError::Unsupported)
        );
        let kind = |line: &str| match read_reply(line, 3, cmd) {
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
        // Fields the reply kind does not define are refused by name.
        for line in [
            r#"{"id":3,"ok":true,"actions":[],"action":[]}"#,
            r#"{"id":3,"unsupported":true,"why":"no"}"#,
            r#"{"id":3,"error":"bad","detail":"x"}"#,
            r#"{"id":3,"ok":true,"actions":[],"nodes":1}"#,
        ] {
            match read_reply(line, 3, cmd) {
                Err(AskError::Failed {
                    kind: ErrorKind::Malformed,
                    message,
                }) => assert!(message.contains("unknown field"), "{message}"),
                other => panic!("{line}: {other:?}"),
            }
        }
    }

    #[test]
    fn the_hello_reply_names_its_protocol() {
        let check = |reply: Value| check_hello_protocol(&reply);
        assert!(check(serde_json::json!({"protocol": "1.0"})).is_ok());
        assert!(check(serde_json::json!({"protocol": "1.7"})).is_ok());
        let no = check(serde_json::json!({})).unwrap_err();
        assert!(no.contains("no 'protocol'"), "{no}");
        let two = check(serde_json::json!({"protocol": "2.0"})).unwrap_err();
        assert!(two.contains("protocol 2.0"), "{two}");
        let int = check(serde_json::json!({"protocol": 1})).unwrap_err();
        assert!(int.contains("\"protocol\": 1"), "{int}");
    }
}
