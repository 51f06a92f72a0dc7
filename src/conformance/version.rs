//! Rules version ranges on cases: `>=0.2`, `>=0.2,<0.3`, `=0.2` or `0.2`.
//!
//! A version is dotted non-negative integers (`0.2`, `1.0.3`); missing
//! trailing parts count as zero, so `0.2` equals `0.2.0`. A range is a
//! comma-separated list of comparisons that must all hold.

use std::cmp::Ordering;
use std::fmt;

/// A parsed rules version.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Version(Vec<u64>);

impl Version {
    pub fn parse(text: &str) -> Result<Version, String> {
        let t = text.trim();
        if t.is_empty() {
            return Err("an empty version".into());
        }
        t.split('.')
            .map(|p| {
                p.parse::<u64>()
                    .map_err(|_| format!("'{t}' is not a version like 0.2 or 1.0.3"))
            })
            .collect::<Result<Vec<_>, _>>()
            .map(Version)
    }

    fn compare(&self, other: &Version) -> Ordering {
        let n = self.0.len().max(other.0.len());
        (0..n)
            .map(|i| {
                let a = self.0.get(i).copied().unwrap_or(0);
                let b = other.0.get(i).copied().unwrap_or(0);
                a.cmp(&b)
            })
            .find(|o| *o != Ordering::Equal)
            .unwrap_or(Ordering::Equal)
    }
}

/// The version as it was written: `0.2` stays `0.2`, `0.2.0` stays `0.2.0`.
impl fmt::Display for Version {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let parts: Vec<String> = self.0.iter().map(u64::to_string).collect();
        f.write_str(&parts.join("."))
    }
}

#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Op {
    Ge,
    Gt,
    Le,
    Lt,
    Eq,
}

/// A conjunction of comparisons against versions.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Range(Vec<(Op, Version)>);

impl Range {
    pub fn parse(text: &str) -> Result<Range, String> {
        let mut out = Vec::new();
        for part in text.split(',') {
            let p = part.trim();
            let (op, rest) = if let Some(r) = p.strip_prefix(">=") {
                (Op::Ge, r)
            } else if let Some(r) = p.strip_prefix("<=") {
                (Op::Le, r)
            } else if let Some(r) = p.strip_prefix('>') {
                (Op::Gt, r)
            } else if let Some(r) = p.strip_prefix('<') {
                (Op::Lt, r)
            } else if let Some(r) = p.strip_prefix('=') {
                (Op::Eq, r)
            } else {
                (Op::Eq, p)
            };
            let v = Version::parse(rest).map_err(|e| {
                format!("'{text}' is not a version range (such as '>=0.2,<0.3'): {e}")
            })?;
            out.push((op, v));
        }
        Ok(Range(out))
    }

    pub fn admits(&self, v: &Version) -> bool {
        self.0.iter().all(|(op, bound)| {
            let o = v.compare(bound);
            match op {
                Op::Ge => o != Ordering::Less,
                Op::Gt => o == Ordering::Greater,
                Op::Le => o != Ordering::Greater,
                Op::Lt => o == Ordering::Less,
                Op::Eq => o == Ordering::Equal,
            }
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranges() {
        let r = Range::parse(">=0.2, <0.3").unwrap();
        assert!(r.admits(&Version::parse("0.2").unwrap()));
        assert!(r.admits(&Version::parse("0.2.9").unwrap()));
        assert!(!r.admits(&Version::parse("0.3").unwrap()));
        assert!(!r.admits(&Version::parse("0.1").unwrap()));
        assert!(
            Range::parse("0.2")
                .unwrap()
                .admits(&Version::parse("0.2.0").unwrap())
        );
        assert!(
            Range::parse(">0.2")
                .unwrap()
                .admits(&Version::parse("1").unwrap())
        );
        assert!(
            Range::parse("<=1")
                .unwrap()
                .admits(&Version::parse("1.0").unwrap())
        );
        assert!(Range::parse(">=x").is_err());
        assert!(Range::parse("").is_err());
        assert!(Version::parse("0..2").is_err());
    }
}
