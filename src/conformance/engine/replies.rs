//! What an outside engine writes: its reply lines, read by waiting in
//! `poll(2)` on Unix and by a reader thread elsewhere, and its stderr,
//! drained whatever its bytes with the last part kept for crash reports.

use std::sync::{Arc, Mutex};
use std::time::Duration;

#[cfg(not(unix))]
use std::sync::mpsc::Receiver;
use std::sync::mpsc::{self, RecvTimeoutError};

use super::{CappedLines, Line, STDERR_TAIL_BYTES};

/// The engine's reply lines. On Unix the runner reads them itself, waiting
/// with `poll(2)`: a reply then costs one wake-up, where a reader thread
/// handing lines over a channel cost two, and the handover was the larger
/// part of the runner's time per question with a fast engine. Elsewhere a
/// reader thread does the reading.
pub(super) struct Replies {
    #[cfg(unix)]
    lines: CappedLines<std::process::ChildStdout>,
    #[cfg(unix)]
    closed: bool,
    #[cfg(not(unix))]
    lines: Receiver<Line>,
}

impl Replies {
    #[cfg(unix)]
    pub(super) fn new(stdout: std::process::ChildStdout, cap: usize) -> Replies {
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
    pub(super) fn new(stdout: std::process::ChildStdout, cap: usize) -> Replies {
        let (tx, lines) = mpsc::channel();
        std::thread::spawn(move || read_lines(stdout, cap, tx));
        Replies { lines }
    }

    /// The next line, waiting at most `wait`; `Closed` once, then
    /// `Disconnected`, when the engine's stdout is closed.
    #[cfg(unix)]
    pub(super) fn recv_timeout(&mut self, wait: Duration) -> Result<Line, RecvTimeoutError> {
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
    pub(super) fn recv_timeout(&mut self, wait: Duration) -> Result<Line, RecvTimeoutError> {
        self.lines.recv_timeout(wait)
    }
}

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
pub(super) fn drain_stderr(
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
