//! Which variants and questions a run plays: the options checked, the
//! questions the engine's `hello` declares, and the variants both sides
//! play under the same rules version.
//!
//! Apart from the run because it only reads the `hello` and the options
//! and asks the engine nothing.

use super::{FuzzError, Options, Plan, Skipped, ask, check_counts};
use crate::conformance::protocol::Hello;
use crate::variant::Variant;

/// Checks the options and picks the variants: `wanted` (every name must be
/// one the reference knows and the engine plays under the same rules
/// version), or every variant the engine plays that way.
pub fn plan<'v>(
    hello: &Hello,
    reference: &[&'v dyn Variant],
    wanted: &[String],
    opts: &Options,
) -> Result<Plan<'v>, FuzzError> {
    check_counts(opts.games, opts.plies)?;
    let questions = ask::declared(hello);
    if questions.is_empty() {
        return Err(FuzzError::NoQuestion(hello.name.clone()));
    }
    let why_not = |v: &dyn Variant| match hello.variants.iter().find(|x| x.name == v.name()) {
        None => Some("it is not in the engine's hello".to_string()),
        Some(x) if x.rules != v.rules_version() => Some(format!(
            "the engine implements rules {}, the reference {}",
            x.rules,
            v.rules_version()
        )),
        Some(_) => None,
    };
    let mut variants = Vec::new();
    let mut skipped = Vec::new();
    if wanted.is_empty() {
        for &v in reference {
            match why_not(v) {
                None => variants.push(v),
                Some(reason) if hello.variants.iter().any(|x| x.name == v.name()) => {
                    skipped.push(Skipped {
                        variant: v.name().to_string(),
                        reason,
                    })
                }
                Some(_) => {}
            }
        }
        if variants.is_empty() {
            let list: Vec<String> = skipped
                .iter()
                .map(|s| format!("{}: {}", s.variant, s.reason))
                .collect();
            return Err(FuzzError::NothingToPlay(if list.is_empty() {
                String::new()
            } else {
                format!(" ({})", list.join("; "))
            }));
        }
    } else {
        for name in wanted {
            let v = crate::variant::find_in(reference, name)?;
            if let Some(reason) = why_not(v) {
                return Err(FuzzError::NotPlayed {
                    variant: name.clone(),
                    reason,
                });
            }
            if !variants.iter().any(|x: &&dyn Variant| x.name() == v.name()) {
                variants.push(v);
            }
        }
    }
    Ok(Plan {
        variants,
        questions,
        skipped,
    })
}
