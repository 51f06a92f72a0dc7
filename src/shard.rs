//! One run split into N independent parts: `--shard K/N` on `seams
//! conform`, `seams fuzz` and `seams perft`, and the check that a set of
//! parts is whole before `seams merge` joins them.
//!
//! A part is chosen by a stable hash of a key that names one unit of work
//! (a case id, a game, a root action), never by position in a list, so
//! the same unit lands in the same shard whatever else is selected, on
//! every machine and in every version of seams. The hash is 64-bit FNV-1a
//! over the key's UTF-8 bytes: simple enough to reimplement in a CI script
//! that wants to predict a shard's work.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

/// The most shards a run may be split into. A CI matrix has at most a few
/// hundred jobs; far more shards than units of work only leaves shards
/// empty.
pub const MAX_SHARDS: u32 = 10_000;

/// Which part of a run this is: the `index`-th of `count`, counted from 1.
#[derive(
    Copy,
    Clone,
    Debug,
    PartialEq,
    Eq,
    Hash,
    PartialOrd,
    Ord,
    Serialize,
    Deserialize,
    schemars::JsonSchema,
)]
#[serde(try_from = "ShardFields", into = "ShardFields")]
pub struct Shard {
    index: u32,
    count: u32,
}

/// The JSON form of a [`Shard`], checked on reading.
#[derive(Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
struct ShardFields {
    /// Which part, from 1 to `count`.
    index: u32,
    /// How many parts the run is split into, 1 to 10 000.
    count: u32,
}

/// Why a shard was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ShardError {
    #[error("'{}' is not a shard: write K/N, such as 2/7 (the second of seven parts)", crate::quote::excerpt(.0))]
    Syntax(String),
    #[error("shard {index}/{count}: the count must be 1 to {MAX_SHARDS}")]
    Count { index: u32, count: u32 },
    #[error("shard {index}/{count}: the index must be 1 to {count}")]
    Index { index: u32, count: u32 },
}

impl Shard {
    /// The whole run as one part: `1/1`.
    pub const WHOLE: Shard = Shard { index: 1, count: 1 };

    /// The `index`-th of `count` parts, counted from 1.
    pub fn new(index: u32, count: u32) -> Result<Shard, ShardError> {
        if count == 0 || count > MAX_SHARDS {
            return Err(ShardError::Count { index, count });
        }
        if index == 0 || index > count {
            return Err(ShardError::Index { index, count });
        }
        Ok(Shard { index, count })
    }

    /// Which part this is, from 1.
    pub fn index(self) -> u32 {
        self.index
    }

    /// How many parts there are.
    pub fn count(self) -> u32 {
        self.count
    }

    /// Whether this is the whole run (`1/1`).
    pub fn is_whole(self) -> bool {
        self.count == 1
    }

    /// Whether the unit of work named `key` belongs to this part. Exactly
    /// one of the `count` parts holds each key.
    pub fn holds(self, key: &str) -> bool {
        self.count == 1 || part_of(key, self.count) == self.index
    }
}

/// The part, from 1 to `count`, that holds `key`.
pub fn part_of(key: &str, count: u32) -> u32 {
    (fnv1a(key.as_bytes()) % u64::from(count.max(1))) as u32 + 1
}

/// 64-bit FNV-1a: the shard hash, and a stable digest wherever one is
/// compared across runs and machines (unlike `std`'s hasher, whose
/// algorithm may change between Rust versions).
pub fn fnv1a(bytes: &[u8]) -> u64 {
    const OFFSET: u64 = 0xcbf2_9ce4_8422_2325;
    const PRIME: u64 = 0x0000_0100_0000_01b3;
    bytes
        .iter()
        .fold(OFFSET, |h, &b| (h ^ u64::from(b)).wrapping_mul(PRIME))
}

/// The whole run, as a selection that does not split is.
impl Default for Shard {
    fn default() -> Shard {
        Shard::WHOLE
    }
}

impl fmt::Display for Shard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

impl FromStr for Shard {
    type Err = ShardError;

    fn from_str(text: &str) -> Result<Shard, ShardError> {
        let syntax = || ShardError::Syntax(text.to_string());
        let (k, n) = text.split_once('/').ok_or_else(syntax)?;
        // Digits only: `+2/3` and ` 2/3` are not shards.
        let number = |s: &str| {
            if s.is_empty() || !s.bytes().all(|b| b.is_ascii_digit()) {
                return Err(syntax());
            }
            // A number too large for u32 is still a number, only out of range.
            Ok(s.parse::<u32>().unwrap_or(u32::MAX))
        };
        Shard::new(number(k)?, number(n)?)
    }
}

impl TryFrom<ShardFields> for Shard {
    type Error = ShardError;
    fn try_from(f: ShardFields) -> Result<Shard, ShardError> {
        Shard::new(f.index, f.count)
    }
}

impl From<Shard> for ShardFields {
    fn from(s: Shard) -> ShardFields {
        ShardFields {
            index: s.index,
            count: s.count,
        }
    }
}

/// What is wrong with a set of parts that should make one whole run.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ShardSetError {
    #[error("no shard reports were given")]
    Empty,
    #[error(
        "{first} is shard {first_shard} but {other} is shard {other_shard}: the reports split the run differently"
    )]
    Counts {
        first: String,
        first_shard: Shard,
        other: String,
        other_shard: Shard,
    },
    #[error("{} of {count} shard(s) missing: {}", .missing.len(), list(.missing))]
    Missing { count: u32, missing: Vec<u32> },
    #[error("shard {shard} is given twice: {first} and {other}")]
    Twice {
        shard: Shard,
        first: String,
        other: String,
    },
}

fn list(indices: &[u32]) -> String {
    const SHOWN: usize = 20;
    let mut s: Vec<String> = indices.iter().take(SHOWN).map(|i| i.to_string()).collect();
    if indices.len() > SHOWN {
        s.push(format!("… and {} more", indices.len() - SHOWN));
    }
    s.join(", ")
}

/// Checks that `parts` (a name for each, such as its file, and its shard)
/// are every shard of one split exactly once: the same count, no index
/// twice, none missing.
pub fn check_whole<'a>(
    parts: impl IntoIterator<Item = (&'a str, Shard)>,
) -> Result<(), ShardSetError> {
    let parts: Vec<(&str, Shard)> = parts.into_iter().collect();
    let Some(&(first, first_shard)) = parts.first() else {
        return Err(ShardSetError::Empty);
    };
    let mut seen: Vec<Option<&str>> = vec![None; first_shard.count as usize];
    for &(name, shard) in &parts {
        if shard.count != first_shard.count {
            return Err(ShardSetError::Counts {
                first: first.to_string(),
                first_shard,
                other: name.to_string(),
                other_shard: shard,
            });
        }
        let slot = &mut seen[shard.index as usize - 1];
        if let Some(earlier) = slot {
            return Err(ShardSetError::Twice {
                shard,
                first: earlier.to_string(),
                other: name.to_string(),
            });
        }
        *slot = Some(name);
    }
    let missing: Vec<u32> = (1..=first_shard.count)
        .filter(|i| seen[*i as usize - 1].is_none())
        .collect();
    if !missing.is_empty() {
        return Err(ShardSetError::Missing {
            count: first_shard.count,
            missing,
        });
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check(text: &str, expect: Result<(u32, u32), &str>) {
        let got = text.parse::<Shard>().map(|s| (s.index(), s.count()));
        assert_eq!(
            got.map_err(|e| e.to_string()),
            expect.map_err(String::from),
            "{text}"
        );
    }

    #[test]
    fn reads_k_of_n() {
        check("1/1", Ok((1, 1)));
        check("3/7", Ok((3, 7)));
        check("10000/10000", Ok((10_000, 10_000)));
        check("0/3", Err("shard 0/3: the index must be 1 to 3"));
        check("4/3", Err("shard 4/3: the index must be 1 to 3"));
        check("1/0", Err("shard 1/0: the count must be 1 to 10000"));
        check(
            "1/10001",
            Err("shard 1/10001: the count must be 1 to 10000"),
        );
        check(
            "1/99999999999",
            Err("shard 1/4294967295: the count must be 1 to 10000"),
        );
        for bad in ["", "3", "1/", "/2", "a/b", "+1/2", " 1/2", "1/2/3", "-1/2"] {
            let e = bad.parse::<Shard>().unwrap_err();
            assert!(matches!(e, ShardError::Syntax(_)), "{bad}: {e}");
        }
    }

    #[test]
    fn every_key_is_in_exactly_one_part() {
        for n in [1, 2, 3, 7, 64] {
            for key in ["a", "chess/flat/perft-1#1a2b3c4d", "", "e2-e4", "P*5e"] {
                let holders: Vec<u32> = (1..=n)
                    .filter(|&k| Shard::new(k, n).unwrap().holds(key))
                    .collect();
                assert_eq!(holders, vec![part_of(key, n)], "{key} in {n}");
            }
        }
    }

    #[test]
    fn the_hash_is_fnv1a_64() {
        // The published FNV-1a test vectors: a script that predicts a
        // shard's work must get these.
        assert_eq!(fnv1a(b""), 0xcbf2_9ce4_8422_2325);
        assert_eq!(fnv1a(b"a"), 0xaf63_dc4c_8601_ec8c);
        assert_eq!(fnv1a(b"foobar"), 0x8594_4171_f739_67e8);
    }

    #[test]
    fn json_is_checked_on_reading() {
        let s: Shard = serde_json::from_str(r#"{"index": 2, "count": 3}"#).unwrap();
        assert_eq!(s.to_string(), "2/3");
        assert_eq!(
            serde_json::to_string(&s).unwrap(),
            r#"{"index":2,"count":3}"#
        );
        let e = serde_json::from_str::<Shard>(r#"{"index": 4, "count": 3}"#).unwrap_err();
        assert!(e.to_string().contains("the index must be 1 to 3"), "{e}");
    }

    fn whole(parts: &[(&str, &str)]) -> Result<(), String> {
        check_whole(parts.iter().map(|(n, s)| (*n, s.parse().unwrap()))).map_err(|e| e.to_string())
    }

    #[test]
    fn a_set_of_parts_is_whole_or_says_why_not() {
        assert_eq!(whole(&[("a", "2/2"), ("b", "1/2")]), Ok(()));
        assert_eq!(whole(&[]), Err("no shard reports were given".into()));
        assert_eq!(
            whole(&[("a", "1/3"), ("b", "3/3")]),
            Err("1 of 3 shard(s) missing: 2".into())
        );
        assert_eq!(
            whole(&[("a", "1/2"), ("b", "1/2")]),
            Err("shard 1/2 is given twice: a and b".into())
        );
        assert_eq!(
            whole(&[("a", "1/2"), ("b", "2/3")]),
            Err("a is shard 1/2 but b is shard 2/3: the reports split the run differently".into())
        );
    }
}
