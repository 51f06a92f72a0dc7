//! The grammar gate every action and position text passes (NT-2).
//!
//! PROTOCOL.md's refusal order starts with the grammar: a text the
//! family's grammar (`spec/<family>/notation.abnf`) does not derive is
//! `syntax`, whatever else could be said of it. Only derived texts reach
//! the family's reader, which judges the remaining orders. Keeping the gate
//! here, once, means no family can read a text its grammar refuses.

use super::{ActionError, IllegalReason, PositionError, Rules};
use crate::grammar::Mismatch;
use crate::quote;

/// [`Rules::parse_action`]: the grammar, then the family's reader.
pub fn read_action<R: Rules + ?Sized>(
    rules: &R,
    pos: &R::Position,
    text: &str,
) -> Result<R::Action, ActionError> {
    let Some(notation) = rules.notation() else {
        return rules.read_derived_action(pos, text);
    };
    match notation.grammar().derives("action", text) {
        Ok(()) => rules.read_derived_action(pos, text),
        Err(mismatch) => {
            // The reader's own `syntax` message names the usual mistakes
            // (`e2e4`, a space-separated list); the grammar's says where.
            let message = match rules.read_derived_action(pos, text) {
                Err(e) if e.code == IllegalReason::Syntax => e.message,
                _ => not_derived(notation.file(), "action", text, &mismatch),
            };
            Err(ActionError {
                code: IllegalReason::Syntax,
                message,
            })
        }
    }
}

/// [`Rules::parse_position`]: the grammar, then the family's reader.
pub fn read_position<R: Rules + ?Sized>(
    rules: &R,
    text: &str,
) -> Result<R::Position, PositionError> {
    let Some(notation) = rules.notation() else {
        return rules.read_derived_position(text);
    };
    match notation.grammar().derives("position", text) {
        Ok(()) => rules.read_derived_position(text),
        Err(mismatch) => {
            // Where the grammar stops says little about why; the reader's
            // own complaint, if it has one, names the field in its words.
            let mut message = not_derived(notation.file(), "position", text, &mismatch);
            if let Err(e) = rules.read_derived_position(text) {
                message = format!("{message}; read further: {}: {}", e.field, e.message);
            }
            Err(PositionError {
                field: "syntax".into(),
                message,
            })
        }
    }
}

/// Where a text leaves its grammar, in words: the character that no
/// derivation accepts, or the end that came too early.
pub fn not_derived(file: &str, rule: &str, text: &str, mismatch: &Mismatch) -> String {
    let shown = quote::excerpt(text);
    match text.chars().nth(mismatch.at) {
        Some(c) => format!(
            "'{shown}' is not {} {rule} text ({file}): character {} {} fits no rule there",
            article(rule),
            mismatch.at + 1,
            describe(c)
        ),
        None if text.is_empty() => {
            format!("an empty text is not {} {rule} ({file})", article(rule))
        }
        None => format!(
            "'{shown}' ends where {} {rule} text ({file}) goes on",
            article(rule)
        ),
    }
}

fn article(rule: &str) -> &'static str {
    if rule.starts_with(['a', 'e', 'i', 'o', 'u']) {
        "an"
    } else {
        "a"
    }
}

/// A character as a reader can see it: spaces and controls by name.
fn describe(c: char) -> String {
    match c {
        ' ' => "(a space)".into(),
        '\t' => "(a tab)".into(),
        c if c.is_control() || c.is_whitespace() => format!("(U+{:04X})", c as u32),
        c => format!("'{c}'"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check(text: &str, at: usize, expect: &str) {
        assert_eq!(
            not_derived("spec/chess/notation.abnf", "action", text, &Mismatch { at }),
            expect
        );
    }

    #[test]
    fn the_message_points_at_the_character() {
        check(
            "e2-e4 ",
            5,
            "'e2-e4 ' is not an action text (spec/chess/notation.abnf): character 6 (a space) fits no rule there",
        );
        check(
            "e2-",
            3,
            "'e2-' ends where an action text (spec/chess/notation.abnf) goes on",
        );
        check(
            "",
            0,
            "an empty text is not an action (spec/chess/notation.abnf)",
        );
    }
}
