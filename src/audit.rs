//! The opening audit: what a position offers within a few plies.
//!
//! The surface chess rules reject a deployment that "failed the opening
//! audit"; this module makes that audit a computation. From a position it
//! reports
//!
//! 1. every check available within N plies: the action sequences of length
//!    at most N whose last action leaves the player to move in check;
//! 2. every forced mate within N plies: the first actions of the side to
//!    move after which it mates in k of its own moves (k ≤ ⌈N/2⌉) whatever
//!    the defence, by plain minimax over legal actions (mate means: no legal
//!    action while in check; the other endings are not consulted);
//! 3. every line on which exactly one piece shields a king from an enemy
//!    slider, traced outward from each king through seams and wraps;
//! 4. every piece that is attacked, and by which pieces.
//!
//! Parts 1 and 2 are written once here against [`Rules`]; parts 3 and 4
//! need piece kinds and are provided by a family through [`Audit`]
//! ([`Rules::audit_facts`]). Families without it report them as not
//! available. Rule code does no I/O: the report is data the CLI prints.

use serde::Serialize;

use crate::rules::audit_facts::{Attacked, Shield};
use crate::rules::{Player, Rules};

/// The largest `--plies` the audit accepts: mate search grows with the
/// branching factor to the power of the plies.
pub const MAX_PLIES: u32 = 4;

/// A sequence of actions whose last one gives check.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, schemars::JsonSchema)]
pub struct CheckLine {
    pub moves: Vec<String>,
    /// The check is checkmate (no legal reply). Such a line is a mate the
    /// two sides reach together, not necessarily a forced one.
    pub mate: bool,
}

/// A first action of the side to move that forces mate.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, schemars::JsonSchema)]
pub struct ForcedMate {
    /// The mating side's moves needed, this one included.
    pub mate_in: u32,
    pub first: String,
    /// How many replies the defender has after `first` (0 for mate in one).
    pub replies: usize,
    /// One line to mate: at each defender turn the first reply in sorted
    /// order among those that hold out longest, and the mating side's
    /// first (sorted) move that keeps the mate.
    pub line: Vec<String>,
}

/// The full report.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, schemars::JsonSchema)]
pub struct Report {
    pub variant: String,
    pub rules: String,
    pub position: String,
    pub to_move: Player,
    pub plies: u32,
    /// Action sequences (length ≤ `plies`) whose last action gives check,
    /// sorted.
    pub checks: Vec<CheckLine>,
    /// Forced mates for the side to move within `plies`, fastest first.
    pub mates: Vec<ForcedMate>,
    /// `None` when the family does not provide parts 3 and 4.
    pub shields: Option<Vec<Shield>>,
    pub attacked: Option<Vec<Attacked>>,
}

/// Runs the audit on a position (plies already validated by the caller).
pub fn audit<R: Rules>(rules: &R, pos: &R::Position, plies: u32) -> Report {
    let mut checks = Vec::new();
    let mut line = Vec::new();
    collect_checks(rules, pos, plies, &mut line, &mut checks);
    checks.sort();
    let facts = rules.audit_facts();
    Report {
        variant: rules.variant().to_string(),
        rules: rules.rules_version().to_string(),
        position: rules.format_position(pos),
        to_move: rules.to_move(pos),
        plies,
        checks,
        mates: forced_mates(rules, pos, plies.div_ceil(2)),
        shields: facts.map(|f| f.shields(pos)),
        attacked: facts.map(|f| f.attacked_pieces(pos)),
    }
}

fn collect_checks<R: Rules>(
    rules: &R,
    pos: &R::Position,
    depth: u32,
    line: &mut Vec<String>,
    out: &mut Vec<CheckLine>,
) {
    if depth == 0 {
        return;
    }
    for a in rules.legal_actions(pos) {
        line.push(rules.format_action(pos, &a));
        let next = rules.apply(pos, &a);
        if rules.in_check(&next) {
            out.push(CheckLine {
                moves: line.clone(),
                mate: rules.legal_actions(&next).is_empty(),
            });
        }
        collect_checks(rules, &next, depth - 1, line, out);
        line.pop();
    }
}

/// Sorted legal actions with their texts, so that reports are stable.
fn sorted<R: Rules>(rules: &R, pos: &R::Position) -> Vec<(String, R::Action)> {
    let mut v: Vec<(String, R::Action)> = rules
        .legal_actions(pos)
        .into_iter()
        .map(|a| (rules.format_action(pos, &a), a))
        .collect();
    v.sort_by(|a, b| a.0.cmp(&b.0));
    v
}

/// Whether the side that just moved into `after` mates within `k` of its
/// moves (the one just played counting as the first).
fn mates_after<R: Rules>(rules: &R, after: &R::Position, k: u32) -> bool {
    if k == 1 {
        // Only a check can be mate; test that first, it is cheap.
        return rules.in_check(after) && rules.legal_actions(after).is_empty();
    }
    let replies = rules.legal_actions(after);
    if replies.is_empty() {
        return rules.in_check(after);
    }
    replies.iter().all(|r| {
        let pos = rules.apply(after, r);
        rules
            .legal_actions(&pos)
            .iter()
            .any(|m| mates_after(rules, &rules.apply(&pos, m), k - 1))
    })
}

fn forced_mates<R: Rules>(rules: &R, pos: &R::Position, max: u32) -> Vec<ForcedMate> {
    let mut out = Vec::new();
    for (text, a) in sorted(rules, pos) {
        let after = rules.apply(pos, &a);
        if let Some(k) = (1..=max).find(|&k| mates_after(rules, &after, k)) {
            let mut line = vec![text.clone()];
            principal_line(rules, &after, k, &mut line);
            out.push(ForcedMate {
                mate_in: k,
                first: text,
                replies: rules.legal_actions(&after).len(),
                line,
            });
        }
    }
    out.sort_by(|a, b| a.mate_in.cmp(&b.mate_in).then(a.first.cmp(&b.first)));
    out
}

/// Extends `line` from `after` (defender to move, mate in `k` known).
fn principal_line<R: Rules>(rules: &R, after: &R::Position, k: u32, line: &mut Vec<String>) {
    if k <= 1 {
        return;
    }
    // The reply that holds out longest (first in sorted order among them).
    let mut best: Option<(u32, String, R::Position)> = None;
    for (rt, r) in sorted(rules, after) {
        let pos = rules.apply(after, &r);
        let need = (1..k)
            .find(|&j| {
                rules
                    .legal_actions(&pos)
                    .iter()
                    .any(|m| mates_after(rules, &rules.apply(&pos, m), j))
            })
            .unwrap_or(k - 1);
        if best.as_ref().is_none_or(|(b, _, _)| need > *b) {
            best = Some((need, rt, pos));
        }
    }
    let Some((need, rt, pos)) = best else { return };
    line.push(rt);
    for (mt, m) in sorted(rules, &pos) {
        let next = rules.apply(&pos, &m);
        if mates_after(rules, &next, need) {
            line.push(mt);
            principal_line(rules, &next, need, line);
            return;
        }
    }
}
