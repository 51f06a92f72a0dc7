//! Outside input quoted in error messages: a bounded excerpt, never all of
//! it.
//!
//! An error names its place and shows what it rejects, but a position text,
//! action or file line of megabytes must not become a message of
//! megabytes: messages travel in protocol replies, reports and terminals.
//! [`excerpt`] cuts one quoted value; [`bounded`] cuts a message assembled
//! elsewhere (a TOML or JSON parser's, a family parser's) in its middle,
//! where a long quote sits, keeping the start (what is wrong) and the end
//! (what was expected). `seams::fuzz_targets` checks every parser's errors
//! against [`crate::fuzz_targets::MAX_MESSAGE_CHARS`].

use std::borrow::Cow;

/// The most characters of one input value an error message quotes.
pub const MAX_QUOTE_CHARS: usize = 200;

/// At most [`MAX_QUOTE_CHARS`] characters of `s`; a longer value is cut,
/// with `…` and the number of characters left out.
pub fn excerpt(s: &str) -> Cow<'_, str> {
    match s.char_indices().nth(MAX_QUOTE_CHARS) {
        None => Cow::Borrowed(s),
        Some((cut, _)) => {
            let left = s[cut..].chars().count();
            Cow::Owned(format!("{}… ({left} more characters)", &s[..cut]))
        }
    }
}

/// `message` if it has at most twice [`MAX_QUOTE_CHARS`] characters;
/// otherwise its first and last [`MAX_QUOTE_CHARS`] characters around
/// `…` and the number left out.
pub fn bounded(message: &str) -> Cow<'_, str> {
    let n = message.chars().count();
    if n <= 2 * MAX_QUOTE_CHARS {
        return Cow::Borrowed(message);
    }
    let head_end = message
        .char_indices()
        .nth(MAX_QUOTE_CHARS)
        .map_or(message.len(), |(i, _)| i);
    let tail_start = message
        .char_indices()
        .nth(n - MAX_QUOTE_CHARS)
        .map_or(message.len(), |(i, _)| i);
    Cow::Owned(format!(
        "{} … ({} characters left out) … {}",
        &message[..head_end],
        n - 2 * MAX_QUOTE_CHARS,
        &message[tail_start..]
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn short_text_is_kept_whole() {
        assert_eq!(excerpt("e2-e4"), "e2-e4");
        assert_eq!(
            bounded("bad position (side): 'x'"),
            "bad position (side): 'x'"
        );
    }

    #[test]
    fn long_text_is_cut_on_a_character_boundary() {
        let long = "é".repeat(1000);
        let e = excerpt(&long);
        assert!(e.starts_with(&"é".repeat(MAX_QUOTE_CHARS)));
        assert!(e.ends_with("… (800 more characters)"), "{e}");
        let message = format!("'{long}' is not a cell, expected a1");
        let b = bounded(&message);
        assert!(b.starts_with("'éé"), "{b}");
        assert!(b.ends_with("is not a cell, expected a1"), "{b}");
        assert!(b.chars().count() < 2 * MAX_QUOTE_CHARS + 60, "{b}");
    }
}
