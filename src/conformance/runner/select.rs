//! Which cases a run asks: the shard, the tier, variant, rules-version and
//! id filters, and the cases whose `rules` range leaves out the engine's
//! version.

use serde::{Deserialize, Serialize};

use crate::conformance::case::{Case, Subject, Tier};
use crate::conformance::corpus::Corpus;
use crate::conformance::protocol::Hello;
use crate::conformance::version::{Range, Version};
use crate::shard::Shard;

/// Which cases a run asks.
#[derive(Clone, Debug, Default)]
pub struct Selection {
    /// `Some(Tier::Quick)` runs only quick cases; `None` or `Full` runs all.
    pub tier: Option<Tier>,
    /// Only cases about this variant.
    pub variant: Option<String>,
    /// Judge `rules` ranges against this version instead of the version the
    /// engine declares for the case's variant.
    pub rules: Option<Version>,
    /// A glob (`*`, `?`) matched against the whole id, or, without glob
    /// characters, text the id must contain.
    pub case: Option<String>,
    /// Only the cases this part of a split run holds (by a hash of the
    /// case id); [`Shard::WHOLE`] by default.
    pub shard: Shard,
}

/// A selection as a report states it: every filter but the shard, which
/// a report states on its own. Parts of one split run have equal ones.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SelectionFacts {
    /// `quick` or `full`.
    pub tier: Tier,
    pub variant: Option<String>,
    /// The `--rules` version, as written.
    pub rules: Option<String>,
    pub case: Option<String>,
}

impl Selection {
    /// The filters of this selection, as a report states them.
    pub fn facts(&self) -> SelectionFacts {
        SelectionFacts {
            // No tier and the full tier select alike.
            tier: self.tier.unwrap_or(Tier::Full),
            variant: self.variant.clone(),
            rules: self.rules.as_ref().map(Version::to_string),
            case: self.case.clone(),
        }
    }

    /// Whether the shard, the id filter, the tier and the variant keep
    /// `case`: everything but the rules range, which needs the engine's
    /// hello. The shard comes first, so that the cases a rules range
    /// leaves out are split among the shards like the others, and the
    /// parts' `not_applicable` counts add up to the whole run's.
    pub fn picks(&self, case: &Case) -> bool {
        if !self.shard.holds(&case.id) {
            return false;
        }
        if let Some(pattern) = &self.case {
            let hit = if pattern.contains(['*', '?']) {
                glob_match(pattern, &case.id)
            } else {
                case.id.contains(pattern.as_str())
            };
            if !hit {
                return false;
            }
        }
        if self.tier == Some(Tier::Quick) && case.tier() != Tier::Quick {
            return false;
        }
        self.variant
            .as_ref()
            .is_none_or(|v| case.check.subject() == Subject::Variant(v))
    }
}

/// Whether `text` matches the glob `pattern` (`*` any run, `?` one char).
pub fn glob_match(pattern: &str, text: &str) -> bool {
    let p: Vec<char> = pattern.chars().collect();
    let t: Vec<char> = text.chars().collect();
    let (mut pi, mut ti) = (0, 0);
    let (mut star, mut mark) = (None, 0);
    while ti < t.len() {
        if pi < p.len() && (p[pi] == '?' || p[pi] == t[ti]) {
            pi += 1;
            ti += 1;
        } else if pi < p.len() && p[pi] == '*' {
            star = Some(pi);
            mark = ti;
            pi += 1;
        } else if let Some(s) = star {
            pi = s + 1;
            mark += 1;
            ti = mark;
        } else {
            return false;
        }
    }
    p[pi..].iter().all(|c| *c == '*')
}

/// The cases a run asks, and how many were left out because their `rules`
/// range excludes the version being checked.
pub fn select<'c>(
    corpus: &'c Corpus,
    sel: &Selection,
    hello: &Hello,
) -> (Vec<&'c (String, Case)>, usize) {
    let mut out = Vec::new();
    let mut not_applicable = 0;
    for entry in &corpus.cases {
        let case = &entry.1;
        if !sel.picks(case) {
            continue;
        }
        if let Some(range) = case.rules.as_deref().and_then(|r| Range::parse(r).ok()) {
            let version = sel.rules.clone().or_else(|| match case.check.subject() {
                Subject::Variant(v) => hello
                    .variants
                    .iter()
                    .find(|x| x.name == v)
                    .and_then(|x| Version::parse(&x.rules).ok()),
                Subject::Board(_) | Subject::BoardFile => None,
            });
            if version.is_some_and(|v| !range.admits(&v)) {
                not_applicable += 1;
                continue;
            }
        }
        out.push(entry);
    }
    (out, not_applicable)
}

#[cfg(test)]
mod tests {
    use super::glob_match;

    #[test]
    fn globs() {
        assert!(glob_match("geometry/*", "geometry/klein/x#1"));
        assert!(glob_match("*klein*", "geometry/klein/x#1"));
        assert!(glob_match("a?c", "abc"));
        assert!(!glob_match("a?c", "abbc"));
        assert!(!glob_match("geometry/*", "shogi/x"));
        assert!(glob_match("*", ""));
    }
}
