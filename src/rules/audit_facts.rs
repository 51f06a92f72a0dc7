//! The family's half of the opening audit (`seams audit`): what it alone
//! can say about a position, because it needs piece kinds. A family hands
//! it out through [`Rules::audit_facts`](super::Rules::audit_facts): every
//! line on which one piece shields a king from an enemy slider, and every
//! attacked piece. The tracing helpers here are shared by the families;
//! the audit itself, written once over [`Rules`](super::Rules), is
//! [`crate::audit`].

use serde::Serialize;

use super::Player;

/// One piece on one cell, as the family writes it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, schemars::JsonSchema)]
pub struct Placed {
    pub cell: String,
    /// The piece in the family's position-text letters (upper case for the
    /// first player in chess; the shogi piece text).
    pub piece: String,
    pub owner: Player,
}

/// Whose piece stands in between.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, schemars::JsonSchema)]
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
#[derive(Clone, Debug, PartialEq, Eq, Serialize, schemars::JsonSchema)]
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
#[derive(Clone, Debug, PartialEq, Eq, Serialize, schemars::JsonSchema)]
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
