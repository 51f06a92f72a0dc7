//! Engines as the runner sees them: something that answers protocol
//! requests, in process ([`Embedded`]) or as an outside program
//! ([`Process`]).
//!
//! Every reply, wherever it comes from, is read by [`read_reply`], which
//! sorts it into an answer, `unsupported`, the engine's own error, a
//! malformed line or a wrong id. A [`Process`] that exits or stops
//! answering is killed and restarted on the next request, so one bad case
//! never ends a run.

use std::time::Duration;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::protocol::{Command, EXTENSION_PREFIX, Hello, PROTOCOL_VERSION, Request, reply_fields};
use super::reference::Reference;

mod lines;
mod process;
mod replies;

pub use lines::{CappedLines, Line};
pub use process::{DEFAULT_MAX_REPLY_BYTES, Limits, Process, STDERR_TAIL_BYTES};

/// The least time an engine gets to answer `hello`.
pub const HANDSHAKE_TIMEOUT: Duration = Duration::from_secs(10);

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
