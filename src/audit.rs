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

use crate::rules::{Player, Rules};

/// The largest `--plies` the audit accepts: mate search grows with the
/// branching factor to the power of the plies.
pub const MAX_PLIES: u32 = 4;

/// One piece on one cell, as the family writes it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Placed {
    pub cell: String,
    /// The piece in the family's position-text letters (upper case for the
    /// first player in chess; the shogi piece text).
    pub piece: String,
    pub owner: Player,
}

/// Whose piece stands in between.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum ShieldKind {
    /// The shield belongs to the king's owner: it is pinned.
    Pin,
    /// The shield belongs to the slider's owner: moving it off the line
    /// gives discovered check.
    Discovery,
}

/// A line from a king through exactly one piece to an enemy slider that
/// moves along it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Shield {
    pub kind: ShieldKind,
    pub king: Placed,
    pub shield: Placed,
    pub slider: Placed,
    /// The direction the line leaves the king, in the king's local frame
    /// (`n`, `ne`, …).
    pub direction: String,
    /// Every cell from the king (excluded) to the slider (included), in order.
    pub route: Vec<String>,
}

/// A piece that an enemy piece could capture (or, for a king, attacks).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Attacked {
    pub target: Placed,
    /// The attacking pieces, sorted by cell.
    pub by: Vec<Placed>,
}

/// The family-specific half of the audit (parts 3 and 4).
pub trait Audit<P> {
    /// Every king–shield–slider line, sorted.
    fn shields(&self, pos: &P) -> Vec<Shield>;
    /// Every attacked piece of either side, sorted by cell.
    fn attacked_pieces(&self, pos: &P) -> Vec<Attacked>;
}

/// A sequence of actions whose last one gives check.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize)]
pub struct CheckLine {
    pub moves: Vec<String>,
    /// The check is checkmate (no legal reply). Such a line is a mate the
    /// two sides reach together, not necessarily a forced one.
    pub mate: bool,
}

/// A first action of the side to move that forces mate.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
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
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
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

/// Why an audit cannot be asked.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum AuditError {
    #[error("--plies must be between 1 and {MAX_PLIES}, not {0}")]
    Plies(u32),
    #[error(transparent)]
    Variant(#[from] crate::variant::VariantError),
}

/// Audits a shipped variant by name, at a position text (default: the
/// initial position) after some moves.
pub fn audit_variant(
    name: &str,
    at: &crate::variant::At,
    plies: u32,
) -> Result<Report, AuditError> {
    audit_of(crate::variant::find(name)?, at, plies)
}

/// The opening audit of a position of `variant` (any variant, those of an
/// edited spec included), with `plies` checked.
pub fn audit_of(
    variant: &dyn crate::variant::Variant,
    at: &crate::variant::At,
    plies: u32,
) -> Result<Report, AuditError> {
    if plies == 0 || plies > MAX_PLIES {
        return Err(AuditError::Plies(plies));
    }
    Ok(variant.audit(at, plies)?)
}

/// A line traced outward from a king: the first piece it meets (the
/// candidate shield) and the next piece beyond it, through seams and wraps.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Line {
    pub shield: crate::topology::CellId,
    pub far: crate::topology::CellId,
    /// The direction of travel on arriving at `far`, in its local frame.
    pub arrival: crate::topology::Dir,
    /// The cells after the king up to `far`, in order.
    pub route: Vec<crate::topology::CellId>,
}

/// Traces from `king` in `dir` with [`crate::movement::for_each_on_ray`],
/// transporting the direction at every crossing, and returns the line when
/// it meets two pieces. A ray that winds back to the king ends there.
pub fn trace_line(
    geo: &crate::geometry::Geometry,
    occupied: &dyn Fn(crate::topology::CellId) -> bool,
    king: crate::topology::CellId,
    dir: crate::topology::Dir,
) -> Option<Line> {
    use crate::movement::{Landing, for_each_on_ray};
    let mut route = Vec::new();
    let mut last: Option<Landing> = None;
    for_each_on_ray(geo, king, dir, occupied, |l| {
        route.push(l.cell);
        last = Some(l);
    });
    let first = last.filter(|l| occupied(l.cell))?;
    let on = first.transport.apply(dir);
    let mut beyond: Option<Landing> = None;
    for_each_on_ray(geo, first.cell, on, occupied, |l| {
        route.push(l.cell);
        beyond = Some(l);
    });
    let far = beyond.filter(|l| occupied(l.cell) && l.cell != king)?;
    Some(Line {
        shield: first.cell,
        far: far.cell,
        arrival: far.transport.apply(on),
        route,
    })
}

/// The shield lines around both kings, shared by the families: trace every
/// direction from each king with [`trace_line`] and keep the lines whose
/// far piece is an enemy slider moving along them back to the king.
/// `slides(line, dir, far)` is the family's answer to "does the piece on
/// `far` move along this line toward the king?"; `owner` and `placed`
/// describe the pieces.
pub fn shields_around(
    geo: &crate::geometry::Geometry,
    occupied: &dyn Fn(crate::topology::CellId) -> bool,
    kings: [Option<crate::topology::CellId>; 2],
    owner: &dyn Fn(crate::topology::CellId) -> Option<Player>,
    slides: &dyn Fn(&Line, crate::topology::Dir) -> bool,
    placed: &dyn Fn(crate::topology::CellId) -> Option<Placed>,
) -> Vec<Shield> {
    let mut out = vec![];
    for (king_owner, king) in [Player::First, Player::Second].into_iter().zip(kings) {
        let Some(king) = king else { continue };
        for d in crate::topology::Dir::ALL {
            let Some(line) = trace_line(geo, occupied, king, d) else {
                continue;
            };
            let (Some(shield_owner), Some(slider_owner)) = (owner(line.shield), owner(line.far))
            else {
                continue;
            };
            if slider_owner == king_owner || !slides(&line, d) {
                continue;
            }
            let (Some(k), Some(s), Some(f)) = (placed(king), placed(line.shield), placed(line.far))
            else {
                continue;
            };
            out.push(Shield {
                kind: if shield_owner == king_owner {
                    ShieldKind::Pin
                } else {
                    ShieldKind::Discovery
                },
                king: k,
                shield: s,
                slider: f,
                direction: d.name().to_string(),
                route: line
                    .route
                    .iter()
                    .map(|&c| geo.board().cell_name(c).to_string())
                    .collect(),
            });
        }
    }
    out
}

/// Every piece some enemy piece attacks, shared by the families:
/// `pieces` lists (cell, owner) of every piece, `attackers(cell, by)` the
/// cells of `by`'s pieces attacking `cell`.
pub fn attacked_pieces(
    pieces: impl Iterator<Item = (crate::topology::CellId, Player)>,
    attackers: &dyn Fn(crate::topology::CellId, Player) -> Vec<crate::topology::CellId>,
    placed: &dyn Fn(crate::topology::CellId) -> Option<Placed>,
) -> Vec<Attacked> {
    let mut out = vec![];
    for (c, owner) in pieces {
        let by: Vec<Placed> = attackers(c, owner.other())
            .into_iter()
            .filter_map(placed)
            .collect();
        if let (false, Some(target)) = (by.is_empty(), placed(c)) {
            out.push(Attacked { target, by });
        }
    }
    out
}
