//! An outside program as an engine: started in its own process group,
//! handshaken, asked under the [`Limits`], killed whole on a timeout or a
//! crash and restarted on the next request, so one bad case never ends a
//! run.

use std::io::Write;
use std::process::{Child, ChildStdin, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use serde_json::Value;

use super::replies::{Replies, drain_stderr};
use super::{
    AskError, Engine, ErrorKind, HANDSHAKE_TIMEOUT, Line, MAX_AHEAD_BYTES, Posted, StartError,
    read_hello, read_reply,
};
use crate::conformance::protocol::{Command, Hello, PIPELINING, PROTOCOL_VERSION, Request};

/// How long a crash report waits for the engine's stderr to be read.
const STDERR_DRAIN: Duration = Duration::from_secs(2);

/// How many bytes of requests written ahead gather before they are sent.
const FLUSH_BYTES: usize = 4 << 10;

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
