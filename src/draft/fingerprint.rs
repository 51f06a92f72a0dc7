//! A variant's fingerprint: perft of its start to depth 3 and the divide
//! there (each first action with the leaves below it). `seams spec check`
//! compares the draft's with the base's, so that an edit to a setup or to
//! what can move where shows even when no corpus case pins it.

use std::collections::BTreeMap;

use serde::Serialize;

use crate::variant::{At, Variant, VariantError};

/// How deep the fingerprint counts: deep enough that a swapped pair of
/// pieces or a changed move changes some count, shallow enough to cost
/// well under a second per variant.
pub const FINGERPRINT_DEPTH: u32 = 3;

/// Perft of a start to [`FINGERPRINT_DEPTH`], with the divide at the last
/// depth.
#[derive(Clone, Debug, Serialize, PartialEq, Eq, schemars::JsonSchema)]
pub struct Fingerprint {
    pub variant: String,
    /// Perft at depths 1, 2, 3.
    pub perft: Vec<u64>,
    /// Each first action, by its text, with the leaves below it at depth 3.
    pub divide: BTreeMap<String, u64>,
}

/// The fingerprint of a variant's initial position.
pub fn fingerprint(v: &dyn Variant) -> Result<Fingerprint, VariantError> {
    let at = At {
        position: None,
        moves: &[],
    };
    let divide: BTreeMap<String, u64> = v.divide(&at, FINGERPRINT_DEPTH)?.into_iter().collect();
    // The divide already holds the first and last depths: one entry per
    // first action, and the leaves below them summed. Only the depths in
    // between are counted again.
    let mut perft = vec![divide.len() as u64];
    for d in 2..FINGERPRINT_DEPTH {
        perft.push(v.perft(&at, d)?);
    }
    perft.push(divide.values().sum());
    Ok(Fingerprint {
        variant: v.name().to_string(),
        perft,
        divide,
    })
}

/// How one variant's fingerprint changed from the base to the draft.
#[derive(Clone, Debug, Serialize, PartialEq, Eq, schemars::JsonSchema)]
pub struct FingerprintChange {
    pub variant: String,
    /// The base's perft, then the draft's (absent where the variant is new
    /// or gone).
    pub perft: (Option<Vec<u64>>, Option<Vec<u64>>),
    /// The first actions whose counts differ: (action, base, draft), with
    /// `None` for an action only one side has.
    pub divide: Vec<(String, Option<u64>, Option<u64>)>,
}

impl FingerprintChange {
    /// `perft 25 630 18710 → 31 929 31284`, `absent` for a side without
    /// the variant.
    pub fn perft_line(&self) -> String {
        let counts = |p: &Option<Vec<u64>>| match p {
            None => "absent".to_string(),
            Some(p) => p.iter().map(u64::to_string).collect::<Vec<_>>().join(" "),
        };
        format!(
            "perft {} → {}",
            counts(&self.perft.0),
            counts(&self.perft.1)
        )
    }

    /// One `a1-a2: 707 → 1025` line per first action whose count differs.
    pub fn divide_lines(&self) -> Vec<String> {
        let count = |n: &Option<u64>| n.map_or("absent".to_string(), |n| n.to_string());
        self.divide
            .iter()
            .map(|(action, old, new)| format!("{action}: {} → {}", count(old), count(new)))
            .collect()
    }
}

/// The variants whose fingerprints differ, by name; variants only one
/// side has count as changed.
pub fn compare(base: &[Fingerprint], draft: &[Fingerprint]) -> Vec<FingerprintChange> {
    let by_name = |fs: &[Fingerprint]| -> BTreeMap<String, Fingerprint> {
        fs.iter().map(|f| (f.variant.clone(), f.clone())).collect()
    };
    let (base, draft) = (by_name(base), by_name(draft));
    let names: std::collections::BTreeSet<&String> = base.keys().chain(draft.keys()).collect();
    names
        .into_iter()
        .filter_map(|name| {
            let (b, d) = (base.get(name), draft.get(name));
            if b == d {
                return None;
            }
            let empty = BTreeMap::new();
            let bd = b.map_or(&empty, |f| &f.divide);
            let dd = d.map_or(&empty, |f| &f.divide);
            let actions: std::collections::BTreeSet<&String> = bd.keys().chain(dd.keys()).collect();
            let divide = actions
                .into_iter()
                .filter(|a| bd.get(*a) != dd.get(*a))
                .map(|a| (a.clone(), bd.get(a).copied(), dd.get(a).copied()))
                .collect();
            Some(FingerprintChange {
                variant: name.clone(),
                perft: (b.map(|f| f.perft.clone()), d.map(|f| f.perft.clone())),
                divide,
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn print(v: &str, perft: &[u64], divide: &[(&str, u64)]) -> Fingerprint {
        Fingerprint {
            variant: v.into(),
            perft: perft.to_vec(),
            divide: divide.iter().map(|(a, n)| (a.to_string(), *n)).collect(),
        }
    }

    #[test]
    fn only_differences_are_listed() {
        let base = [
            print("a", &[2, 4, 8], &[("x", 4), ("y", 4)]),
            print("b", &[1, 1, 1], &[("z", 1)]),
        ];
        let draft = [
            print("a", &[2, 4, 9], &[("x", 4), ("y", 5)]),
            print("b", &[1, 1, 1], &[("z", 1)]),
            print("c", &[1, 1, 1], &[("w", 1)]),
        ];
        let changes = compare(&base, &draft);
        assert_eq!(changes.len(), 2, "{changes:?}");
        assert_eq!(changes[0].variant, "a");
        assert_eq!(changes[0].divide, vec![("y".to_string(), Some(4), Some(5))]);
        assert_eq!(changes[1].variant, "c");
        assert_eq!(changes[1].perft.0, None);
        assert!(compare(&base, &base).is_empty());
    }
}
