//! The options that bound a run, shared by `seams conform`, `seams fuzz`
//! and `seams bisect`: what an outside engine may take, and when the whole
//! run stops.

use std::time::Duration;

use anyhow::{Result, bail};
use seams::conformance::engine::{DEFAULT_MAX_REPLY_BYTES, Limits};

/// The bounds on an outside engine (see `conformance::engine::Limits`).
#[derive(clap::Args)]
pub struct LimitArgs {
    /// Time limit for the hello reply after each start, in milliseconds.
    #[arg(long, value_name = "T", default_value_t = 10_000)]
    hello_timeout_ms: u64,
    /// The longest reply line read, in bytes; a longer one is reported as
    /// `malformed: reply too long` and skipped unread.
    #[arg(long, value_name = "BYTES", default_value_t = DEFAULT_MAX_REPLY_BYTES)]
    max_reply_bytes: usize,
    /// After this many crashes or timeouts in a row the engine is
    /// declared dead and the remaining cases are not run.
    #[arg(long, value_name = "N", default_value_t = 5)]
    max_failures: usize,
}

impl LimitArgs {
    pub(super) fn limits(&self, timeout_ms: u64) -> Result<Limits> {
        if timeout_ms == 0 {
            bail!("--timeout-ms must be at least 1");
        }
        if self.hello_timeout_ms == 0 {
            bail!("--hello-timeout-ms must be at least 1");
        }
        if self.max_reply_bytes == 0 {
            bail!("--max-reply-bytes must be at least 1");
        }
        if self.max_failures == 0 {
            bail!("--max-failures must be at least 1");
        }
        Ok(Limits {
            reply_timeout: Duration::from_millis(timeout_ms),
            hello_timeout: Duration::from_millis(self.hello_timeout_ms),
            max_reply_bytes: self.max_reply_bytes,
            max_consecutive_failures: self.max_failures,
        })
    }
}

/// When `--max-time` ends the run, counted from now.
pub(super) fn run_deadline(max_time: Option<f64>) -> Result<Option<std::time::Instant>> {
    let Some(seconds) = max_time else {
        return Ok(None);
    };
    // Up to a year: beyond that a deadline means nothing.
    if !(seconds > 0.0 && seconds <= 3.2e7) {
        bail!("--max-time must be a number of seconds above 0 (at most a year), not {seconds}");
    }
    Ok(Some(
        std::time::Instant::now() + Duration::from_secs_f64(seconds),
    ))
}
