//! The JSON report of `seams perft --json`, and the merge of a split
//! count's shard reports into the count one run would give.
//!
//! A shard counts below the root actions it holds ([`Shard::holds`] on the
//! action's text), so the shards of one split hold every root action
//! exactly once, and the whole count is the sum of theirs. A merge
//! refuses anything that would make that sum wrong: reports of another
//! question (variant, rules version, position, moves, depth, path),
//! another split, a missing or repeated shard, a root action in a report
//! whose shard does not hold it (so no action is counted twice), or a
//! report whose divide does not add up to its own total.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::Counter;
use crate::shard::{Shard, ShardSetError, check_whole};

/// What `report` says in a perft report.
pub const KIND: &str = "perft";

/// One perft count: the whole or one shard of it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct PerftReport {
    /// Always `perft`: which kind of report this is, for `seams merge`.
    pub report: String,
    /// The seams version that counted.
    pub seams: String,
    pub variant: String,
    /// The variant's rules version.
    pub rules: String,
    /// The start position's text; absent for the initial position.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub position: Option<String>,
    /// Actions played from the start before counting.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub moves: Vec<String>,
    pub depth: u32,
    /// Which path counted: `perft` or `independent`.
    pub counter: Counter,
    /// Which part of the root actions this report counts (`1/1`: all).
    pub shard: Shard,
    /// How many legal root actions the position has in all.
    pub roots: usize,
    /// Leaves below the root actions this report counts.
    pub nodes: u64,
    /// The count below each root action this report counts, by action
    /// text. Always present in a shard's report and a merged one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub divide: Option<BTreeMap<String, u64>>,
    /// Worker threads sharing the root actions.
    pub threads: usize,
    /// The transposition table's bound in MiB, when one was used
    /// (`--hash`); the count is the same without. In a merged report, the
    /// largest any shard used.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hash_mib: Option<u32>,
    /// Wall-clock seconds of the count; in a merged report, the shards'
    /// seconds added up (the machine time the split cost).
    pub wall_seconds: f64,
    /// In a merged report: how many shard reports it was made from.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub merged_from: Option<u32>,
}

/// Why shard reports could not be merged. Each names the report (its
/// file) and the value it rejects.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum MergeError {
    #[error("{file}: not a perft report: {message}")]
    Read { file: String, message: String },
    #[error(
        "{first} and {other} count different questions: {what} {first_value} against {other_value}"
    )]
    Differ {
        what: &'static str,
        first: String,
        first_value: String,
        other: String,
        other_value: String,
    },
    #[error(transparent)]
    Shards(#[from] ShardSetError),
    #[error("{file} has no divide; a shard's report must list it (seams perft --shard … --json)")]
    NoDivide { file: String },
    #[error("{file}: its divide adds up to {sum}, but it says {nodes} nodes")]
    Sum { file: String, sum: u64, nodes: u64 },
    #[error("{file}: root action '{action}' does not belong to shard {shard}")]
    Foreign {
        file: String,
        action: String,
        shard: Shard,
    },
    #[error("the shards count {counted} root actions, but the position has {roots}")]
    Incomplete { counted: usize, roots: usize },
}

/// Reads a perft report, whole or a shard.
pub fn parse(file: &str, text: &str) -> Result<PerftReport, MergeError> {
    let read = |message: String| MergeError::Read {
        file: file.to_string(),
        message: crate::quote::bounded(&message).into_owned(),
    };
    let r: PerftReport = serde_json::from_str(text).map_err(|e| read(e.to_string()))?;
    if r.report != KIND {
        return Err(read(format!(
            "its report is '{}'",
            crate::quote::excerpt(&r.report)
        )));
    }
    Ok(r)
}

/// Merges the shard reports `parts` (a file name and its text each) into
/// the report of the whole count, with the full divide.
pub fn merge(parts: &[(String, String)]) -> Result<PerftReport, MergeError> {
    let reports: Vec<(&str, PerftReport)> = parts
        .iter()
        .map(|(file, text)| Ok((file.as_str(), parse(file, text)?)))
        .collect::<Result<_, MergeError>>()?;
    check_whole(reports.iter().map(|(f, r)| (*f, r.shard)))?;
    let (first, head) = &reports[0];
    let mut divide: BTreeMap<String, u64> = BTreeMap::new();
    for (file, r) in &reports {
        same_question(first, head, file, r)?;
        let rows = r.divide.as_ref().ok_or_else(|| MergeError::NoDivide {
            file: file.to_string(),
        })?;
        let sum: u64 = rows.values().sum();
        if sum != r.nodes {
            return Err(MergeError::Sum {
                file: file.to_string(),
                sum,
                nodes: r.nodes,
            });
        }
        for (action, n) in rows {
            if !r.shard.holds(action) {
                return Err(MergeError::Foreign {
                    file: file.to_string(),
                    action: action.clone(),
                    shard: r.shard,
                });
            }
            divide.insert(action.clone(), *n);
        }
    }
    if divide.len() != head.roots {
        return Err(MergeError::Incomplete {
            counted: divide.len(),
            roots: head.roots,
        });
    }
    Ok(PerftReport {
        shard: Shard::WHOLE,
        nodes: divide.values().sum(),
        divide: Some(divide),
        threads: reports.iter().map(|(_, r)| r.threads).max().unwrap_or(1),
        hash_mib: reports.iter().filter_map(|(_, r)| r.hash_mib).max(),
        wall_seconds: reports.iter().map(|(_, r)| r.wall_seconds).sum(),
        merged_from: Some(head.shard.count()),
        ..head.clone()
    })
}

/// Refuses `r` unless it asks what `head` asks.
fn same_question(
    first: &str,
    head: &PerftReport,
    file: &str,
    r: &PerftReport,
) -> Result<(), MergeError> {
    let fields: [(&'static str, String, String); 8] = [
        ("seams version", head.seams.clone(), r.seams.clone()),
        ("variant", head.variant.clone(), r.variant.clone()),
        ("rules version", head.rules.clone(), r.rules.clone()),
        ("position", show(&head.position), show(&r.position)),
        ("moves", head.moves.join(","), r.moves.join(",")),
        ("depth", head.depth.to_string(), r.depth.to_string()),
        (
            "path",
            format!("{:?}", head.counter),
            format!("{:?}", r.counter),
        ),
        ("root actions", head.roots.to_string(), r.roots.to_string()),
    ];
    for (what, a, b) in fields {
        if a != b {
            return Err(MergeError::Differ {
                what,
                first: first.to_string(),
                first_value: format!("'{}'", crate::quote::excerpt(&a)),
                other: file.to_string(),
                other_value: format!("'{}'", crate::quote::excerpt(&b)),
            });
        }
    }
    Ok(())
}

fn show(position: &Option<String>) -> String {
    position.clone().unwrap_or_else(|| "(initial)".into())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A shard's report of a made-up count whose root actions are `a`…`e`,
    /// each with 10 + its index leaves below.
    fn shard(k: u32, n: u32) -> (String, String) {
        let shard = Shard::new(k, n).unwrap();
        let divide: BTreeMap<String, u64> = ["a", "b", "c", "d", "e"]
            .iter()
            .enumerate()
            .filter(|(_, a)| shard.holds(a))
            .map(|(i, a)| (a.to_string(), 10 + i as u64))
            .collect();
        let r = PerftReport {
            report: KIND.into(),
            seams: "0.1.0".into(),
            variant: "chess-flat".into(),
            rules: "1.0".into(),
            position: None,
            moves: vec![],
            depth: 3,
            counter: Counter::Perft,
            shard,
            roots: 5,
            nodes: divide.values().sum(),
            divide: Some(divide),
            threads: 1,
            hash_mib: None,
            wall_seconds: 1.0,
            merged_from: None,
        };
        (format!("s{k}.json"), serde_json::to_string(&r).unwrap())
    }

    fn check(parts: &[(String, String)], expect: Result<u64, &str>) {
        let got = merge(parts).map(|r| r.nodes).map_err(|e| e.to_string());
        assert_eq!(got, expect.map_err(String::from));
    }

    #[test]
    fn shards_add_up_to_the_whole() {
        for n in [1, 2, 3, 7] {
            let parts: Vec<_> = (1..=n).rev().map(|k| shard(k, n)).collect();
            check(&parts, Ok(60));
            let merged = merge(&parts).unwrap();
            assert_eq!(merged.divide.unwrap().len(), 5);
            assert_eq!(merged.merged_from, Some(n));
            assert_eq!(merged.wall_seconds, f64::from(n));
        }
    }

    #[test]
    fn refusals_name_the_problem() {
        check(&[shard(1, 2)], Err("1 of 2 shard(s) missing: 2"));
        check(
            &[shard(1, 2), shard(1, 2)],
            Err("shard 1/2 is given twice: s1.json and s1.json"),
        );
        let mut deeper = shard(2, 2);
        deeper.1 = deeper.1.replace("\"depth\":3", "\"depth\":4");
        check(
            &[shard(1, 2), deeper],
            Err("s1.json and s2.json count different questions: depth '3' against '4'"),
        );
        let mut lying = shard(1, 1);
        lying.1 = lying.1.replace("\"nodes\":60", "\"nodes\":61");
        check(
            &[lying],
            Err("s1.json: its divide adds up to 60, but it says 61 nodes"),
        );
        let mut moved = shard(1, 2);
        let foreign = ["a", "b", "c", "d", "e"]
            .into_iter()
            .find(|a| !Shard::new(1, 2).unwrap().holds(a))
            .unwrap();
        moved.1 = moved
            .1
            .replace("\"divide\":{", &format!("\"divide\":{{\"{foreign}\":0,"));
        let e = merge(&[moved, shard(2, 2)]).unwrap_err().to_string();
        assert!(e.contains("does not belong to shard 1/2"), "{e}");
        check(
            &[("x.json".into(), "{\"report\": \"fuzz\"}".into())],
            Err("x.json: not a perft report: missing field `seams` at line 1 column 18"),
        );
    }
}
