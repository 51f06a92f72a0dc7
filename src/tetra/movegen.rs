//! Move generation and attack detection (clauses TS-4, TS-5, TS-6.1).
//!
//! Everything geometric is precomputed once per variant into [`Tables`]:
//! one-step neighbours in the eighteen absolute directions, the eight
//! saltire leaps, each (owner, kind, promoted) movement (compiled from the
//! variant data, [`crate::movement::lattice`]) as absolute bit masks with
//! the rare terms the masks do not hold beside them, the promotion zones, the player exchange Φ, and the cells where
//! an unpromoted kind has no move on the empty board. The hot path reads
//! only these tables and never allocates per ray.
//!
//! Legality is tested by playing a candidate on a scratch position and
//! asking whether the mover's royal piece is attacked; out of check, only
//! the candidates that could expose it (see [`legal`]) need the test.
//! That question is answered by tracing outward from the royal cell —
//! along each direction to the first piece, and back along each leap —
//! and asking whether the piece found moves that way, never by generating
//! the enemy's moves.

use crate::movement::lang::Mode;
use crate::movement::lattice::Move;
use crate::rules::Player;
use crate::rules::roster::MAX_KINDS;
use crate::topology::CellId;
use crate::topology::tetra::{TDir, TetraBoard};

use super::data::VariantData;
use super::pieces::{Kind, Piece};
use super::position::Position;

/// The eight saltire-shaped vectors (±1, ±1, ±2): White's four forward
/// leaps and Black's four.
const LEAP_VECTORS: [(i8, i8, i8); 8] = [
    (1, 1, 2),
    (-1, -1, 2),
    (1, -1, 2),
    (-1, 1, 2),
    (1, 1, -2),
    (-1, -1, -2),
    (1, -1, -2),
    (-1, 1, -2),
];

/// A movement's common terms as absolute directions for one owner: the
/// terms that both move and capture (mode `Any`). Every other term is an
/// [`Extra`].
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct Mask {
    /// Bit `d` set: one step in absolute direction `TDir(d)`.
    pub step: u32,
    /// Bit `d` set: any distance in absolute direction `TDir(d)`.
    pub slide: u32,
    /// Bit `i` set: the leap `LEAP_VECTORS[i]`.
    pub leap: u8,
}

/// A term the masks do not hold, in absolute directions: a move-only or
/// capture-only term, a limited ride, a leap by another vector, a lame
/// two-stage move (MV-7).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Extra {
    Ride {
        dir: TDir,
        limit: Option<u8>,
        mode: Mode,
    },
    Leap {
        vector: (i8, i8, i8),
        via: Option<TDir>,
        mode: Mode,
    },
}

/// What a move does to the moving piece besides moving it.
#[derive(Copy, Clone, Eq, PartialEq, Hash, Ord, PartialOrd, Debug)]
pub enum Change {
    None,
    /// The piece promotes (`+`).
    Promote,
    /// The piece turns into its switching partner (`=X`).
    Switch,
}

/// A board move or a drop.
#[derive(Copy, Clone, Eq, PartialEq, Hash, Ord, PartialOrd, Debug)]
pub enum TetraAction {
    Move {
        from: CellId,
        to: CellId,
        change: Change,
    },
    /// `kind` is the form dropped (a switching pair may drop as either).
    Drop { kind: Kind, to: CellId },
}

/// Per-variant lookup tables.
#[derive(Clone, Debug)]
pub struct Tables {
    pub steps: Vec<[Option<CellId>; 18]>,
    pub leaps: Vec<[Option<CellId>; 8]>,
    pub opp_dir: [usize; 18],
    pub opp_leap: [usize; 8],
    /// `[player][kind * 2 + promoted]`.
    pub masks: [Vec<Mask>; 2],
    /// The terms outside the masks, indexed as `masks`.
    pub extras: [Vec<Vec<Extra>>; 2],
    /// Some kind has an extra term: attack detection also looks forwards,
    /// and every candidate is tested for royal safety.
    pub has_extra: bool,
    /// Relative direction → absolute direction, per player.
    pub abs_dir: [[TDir; 18]; 2],
    /// The player exchange Φ on cells.
    pub phi: Vec<CellId>,
    /// `zone[player][cell]`: the cell is in that player's promotion zone.
    pub zone: [Vec<bool>; 2],
    /// `immobile[player][cell * MAX_KINDS + kind]`: the unpromoted kind
    /// has no move from the cell on the empty board. The stride is the
    /// most kinds any variant has, a constant, so the look-up in the move
    /// loop multiplies by a constant.
    pub immobile: [Vec<bool>; 2],
    /// Cells of each rank, in file-then-level order.
    pub rank_cells: Vec<Vec<CellId>>,
    /// The board, for the leaps of extra terms (by displacement).
    board: TetraBoard,
}

impl Tables {
    pub fn new(board: &TetraBoard, data: &VariantData) -> Tables {
        let n = board.cell_count();
        let m = board.side() as i8 - 1;
        let steps: Vec<[Option<CellId>; 18]> = board
            .cells()
            .map(|c| {
                let mut row = [None; 18];
                for d in TDir::all() {
                    row[d.0 as usize] = board.step(c, d);
                }
                row
            })
            .collect();
        let leaps = board
            .cells()
            .map(|c| {
                let (x, y, z) = board.point(c);
                let mut row = [None; 8];
                for (i, (dx, dy, dz)) in LEAP_VECTORS.iter().enumerate() {
                    row[i] = board.cell_at((x + dx, y + dy, z + dz));
                }
                row
            })
            .collect();
        let mut opp_dir = [0; 18];
        for d in TDir::all() {
            opp_dir[d.0 as usize] = d.opposite().0 as usize;
        }
        let mut opp_leap = [0; 8];
        for (i, (x, y, z)) in LEAP_VECTORS.iter().enumerate() {
            opp_leap[i] = leap_index((-x, -y, -z)).expect("leap vectors come in opposite pairs");
        }
        // Black's relative vector (x, y, z) is White's (x, −y, −z): the
        // linear part of Φ (TS-1.4).
        let frame = |p: Player, (x, y, z): (i8, i8, i8)| match p {
            Player::First => (x, y, z),
            Player::Second => (x, -y, -z),
        };
        let mut abs_dir = [[TDir(0); 18]; 2];
        for p in [Player::First, Player::Second] {
            for d in TDir::all() {
                abs_dir[p.index()][d.0 as usize] = TDir::from_vector(frame(p, d.vector()))
                    .expect("Φ maps directions to directions");
            }
        }
        let abs = |p: Player, d: TDir| abs_dir[p.index()][d.0 as usize];
        // One compiled movement as masks and extras for one owner.
        let split = |p: Player, moves: &[Move]| {
            let mut mask = Mask::default();
            let mut extra = Vec::new();
            for &mv in moves {
                match mv {
                    Move::Ride {
                        dir,
                        limit: Some(1),
                        mode: Mode::Any,
                    } => mask.step |= 1 << abs(p, dir).0,
                    Move::Ride {
                        dir,
                        limit: None,
                        mode: Mode::Any,
                    } => mask.slide |= 1 << abs(p, dir).0,
                    Move::Ride { dir, limit, mode } => extra.push(Extra::Ride {
                        dir: abs(p, dir),
                        limit,
                        mode,
                    }),
                    Move::Leap { vector, via, mode } => {
                        let v = frame(p, vector);
                        match (leap_index(v), via, mode) {
                            (Some(i), None, Mode::Any) => mask.leap |= 1 << i,
                            _ => extra.push(Extra::Leap {
                                vector: v,
                                via: via.map(|d| abs(p, d)),
                                mode,
                            }),
                        }
                    }
                }
            }
            (mask, extra)
        };
        let mut extras: [Vec<Vec<Extra>>; 2] = Default::default();
        let masks = [Player::First, Player::Second].map(|p| {
            let mut v = Vec::with_capacity(2 * data.kinds.len());
            for &k in &data.kinds {
                for promoted in [false, true] {
                    let (mask, extra) = split(p, &data.moves[k.index()][usize::from(promoted)]);
                    v.push(mask);
                    extras[p.index()].push(extra);
                }
            }
            v
        });
        let has_extra = extras.iter().flatten().any(|e| !e.is_empty());
        let phi = board
            .cells()
            .map(|c| {
                let (x, y, z) = board.point(c);
                board
                    .cell_at((x, m - y, m - z))
                    .expect("Φ maps the tetrahedron onto itself")
            })
            .collect();
        let depth = data.zone_ranks as i8;
        let zone: [Vec<bool>; 2] = [Player::First, Player::Second].map(|p| {
            board
                .cells()
                .map(|c| {
                    let z = board.rank(c) as i8;
                    match p {
                        Player::First => z > m - depth,
                        Player::Second => z < depth,
                    }
                })
                .collect()
        });
        let immobile = [Player::First, Player::Second].map(|p| {
            let mut v = vec![false; n * MAX_KINDS];
            for c in board.cells() {
                for &k in &data.kinds {
                    let mask = masks[p.index()][k.index() * 2];
                    let any_step = (0..18).any(|d| {
                        (mask.step | mask.slide) >> d & 1 == 1 && steps[c.index()][d].is_some()
                    });
                    let any_leap = (0..8).any(|i| {
                        mask.leap >> i & 1 == 1 && board_leap(board, c, LEAP_VECTORS[i]).is_some()
                    });
                    // On the empty board a move-only term moves; a
                    // capture-only one never does.
                    let any_extra = extras[p.index()][k.index() * 2].iter().any(|e| {
                        let mut hit = false;
                        extra_targets(board, &steps, c, *e, &|_| false, &mut |_, mode| {
                            hit |= mode.allows(false)
                        });
                        hit
                    });
                    v[c.index() * MAX_KINDS + k.index()] = !any_step && !any_leap && !any_extra;
                }
            }
            v
        });
        let mut rank_cells = vec![Vec::new(); board.side() as usize];
        for c in board.cells() {
            rank_cells[board.rank(c) as usize].push(c);
        }
        Tables {
            steps,
            leaps,
            opp_dir,
            opp_leap,
            masks,
            extras,
            has_extra,
            abs_dir,
            phi,
            zone,
            immobile,
            rank_cells,
            board: board.clone(),
        }
    }

    #[inline]
    pub fn mask(&self, p: &Piece) -> Mask {
        self.masks[p.owner.index()][p.kind.index() * 2 + p.promoted as usize]
    }

    /// The terms of `p`'s movement the masks do not hold.
    #[inline]
    pub fn extras(&self, p: &Piece) -> &[Extra] {
        &self.extras[p.owner.index()][p.kind.index() * 2 + p.promoted as usize]
    }

    /// Whether an unpromoted `kind` of `owner` has no move from `c` on the
    /// empty board (TS-4.4, TS-5.2).
    #[inline]
    pub fn is_immobile(&self, owner: Player, kind: Kind, c: CellId) -> bool {
        self.immobile[owner.index()][c.index() * MAX_KINDS + kind.index()]
    }

    /// Whether `target` is attacked by a piece of `by`.
    pub fn attacked(&self, pos: &Position, target: CellId, by: Player) -> bool {
        self.each_attacker(pos, target, by, |_| true)
    }

    /// The cells of every piece of `by` that attacks `target`.
    pub fn attackers(&self, pos: &Position, target: CellId, by: Player) -> Vec<CellId> {
        let mut out = vec![];
        self.each_attacker(pos, target, by, |c| {
            out.push(c);
            false
        });
        out
    }

    /// Traces outward from `target` and calls `found` with each piece of
    /// `by` that moves back onto it, until `found` returns `true`; returns
    /// whether it did.
    fn each_attacker(
        &self,
        pos: &Position,
        target: CellId,
        by: Player,
        mut found: impl FnMut(CellId) -> bool,
    ) -> bool {
        let here = &self.steps[target.index()];
        for (d, first) in here.iter().enumerate() {
            let Some(mut cur) = *first else { continue };
            let back = 1u32 << self.opp_dir[d];
            let mut near = true;
            loop {
                if let Some(p) = pos.board[cur.index()] {
                    if p.owner == by {
                        let m = self.mask(&p);
                        if (m.slide & back != 0 || (near && m.step & back != 0)) && found(cur) {
                            return true;
                        }
                    }
                    break;
                }
                near = false;
                match self.steps[cur.index()][d] {
                    Some(next) => cur = next,
                    None => break,
                }
            }
        }
        for i in 0..8 {
            if let Some(src) = self.leaps[target.index()][self.opp_leap[i]]
                && let Some(p) = pos.board[src.index()]
                && p.owner == by
                && self.mask(&p).leap >> i & 1 == 1
                && found(src)
            {
                return true;
            }
        }
        if self.has_extra {
            let occupied = |c: CellId| pos.board[c.index()].is_some();
            for (i, slot) in pos.board.iter().enumerate() {
                let Some(p) = slot else { continue };
                if p.owner != by {
                    continue;
                }
                let from = CellId(i as u16);
                let mut hit = false;
                for &e in self.extras(p) {
                    extra_targets(&self.board, &self.steps, from, e, &occupied, &mut |c, m| {
                        hit |= c == target && m.allows(true)
                    });
                }
                if hit && found(from) {
                    return true;
                }
            }
        }
        false
    }

    /// The cells out from `from` in direction `d`, nearest first, to the
    /// edge of the board. (The attack trace and `destinations` walk lines
    /// by hand: they are perft's inner loop.)
    fn line(&self, from: CellId, d: usize) -> impl Iterator<Item = CellId> + '_ {
        std::iter::successors(self.steps[from.index()][d], move |c| {
            self.steps[c.index()][d]
        })
    }

    /// Every cell the piece on `from` could move to, captures included,
    /// ignoring whether its own royal piece is left attacked.
    pub fn destinations(&self, pos: &Position, from: CellId, out: &mut Vec<CellId>) {
        let Some(p) = pos.board[from.index()] else {
            return;
        };
        let m = self.mask(&p);
        let free = |c: CellId| pos.board[c.index()].is_none_or(|q| q.owner != p.owner);
        let row = &self.steps[from.index()];
        for (d, first) in row.iter().enumerate() {
            let Some(mut cur) = *first else { continue };
            if m.slide >> d & 1 == 1 {
                loop {
                    match pos.board[cur.index()] {
                        None => out.push(cur),
                        Some(q) => {
                            if q.owner != p.owner {
                                out.push(cur);
                            }
                            break;
                        }
                    }
                    match self.steps[cur.index()][d] {
                        Some(next) => cur = next,
                        None => break,
                    }
                }
            } else if m.step >> d & 1 == 1 && free(cur) {
                out.push(cur);
            }
        }
        if m.leap != 0 {
            for i in 0..8 {
                if m.leap >> i & 1 == 1
                    && let Some(to) = self.leaps[from.index()][i]
                    && free(to)
                {
                    out.push(to);
                }
            }
        }
        // No shipped kind has an extra term: one test of a flag instead of
        // a table look-up per piece.
        let extras = if self.has_extra { self.extras(&p) } else { &[] };
        if !extras.is_empty() {
            let occupied = |c: CellId| pos.board[c.index()].is_some();
            for &e in extras {
                extra_targets(
                    &self.board,
                    &self.steps,
                    from,
                    e,
                    &occupied,
                    &mut |c, mode| {
                        let taken = pos.board[c.index()];
                        if taken.is_none_or(|q| q.owner != p.owner) && mode.allows(taken.is_some())
                        {
                            out.push(c);
                        }
                    },
                );
            }
        }
    }

    /// The changes a move of `p` from `from` to `to` may carry: promotion
    /// (TS-4.3, TS-4.4), switching (TH-4.1), or none; empty when the piece
    /// would be left unable to move.
    #[inline]
    pub fn changes(&self, data: &VariantData, p: Piece, from: CellId, to: CellId) -> Changes {
        let mut out = Changes {
            items: [Change::None; 3],
            len: 0,
        };
        let mut push = |c| {
            out.items[out.len] = c;
            out.len += 1;
        };
        let zone = &self.zone[p.owner.index()];
        let stuck = !p.promoted && self.is_immobile(p.owner, p.kind, to);
        if !stuck {
            push(Change::None);
        }
        // Promotion and switching need the zone; most moves miss it.
        if !zone[from.index()] && !zone[to.index()] {
            return out;
        }
        if !p.promoted && data.promotes_to[p.kind.index()].is_some() {
            push(Change::Promote);
        }
        if let Some(other) = data.switches_with[p.kind.index()]
            && !self.is_immobile(p.owner, other, to)
        {
            push(Change::Switch);
        }
        out
    }
}

/// The changes one move may carry, in the order [`Tables::changes`] finds
/// them (at most three: none, promote, switch).
#[derive(Copy, Clone, Debug)]
pub struct Changes {
    items: [Change; 3],
    len: usize,
}

impl Changes {
    pub fn as_slice(&self) -> &[Change] {
        &self.items[..self.len]
    }
}

/// The landings of one extra term from `from`: `visit(cell, mode)` for each
/// cell a ride passes up to and including the first occupied one, or the
/// cell a leap lands on (a lame leap only over an empty first stage).
fn extra_targets(
    board: &TetraBoard,
    steps: &[[Option<CellId>; 18]],
    from: CellId,
    e: Extra,
    occupied: &dyn Fn(CellId) -> bool,
    visit: &mut dyn FnMut(CellId, Mode),
) {
    match e {
        Extra::Ride { dir, limit, mode } => {
            let d = dir.0 as usize;
            let mut here = from;
            let mut n = 0u32;
            while limit.is_none_or(|l| n < u32::from(l)) {
                let Some(next) = steps[here.index()][d] else {
                    return;
                };
                visit(next, mode);
                if occupied(next) {
                    return;
                }
                here = next;
                n += 1;
            }
        }
        Extra::Leap { vector, via, mode } => {
            if let Some(v) = via {
                match steps[from.index()][v.0 as usize] {
                    Some(c) if !occupied(c) => {}
                    _ => return,
                }
            }
            if let Some(to) = board_leap(board, from, vector) {
                visit(to, mode);
            }
        }
    }
}

fn leap_index(v: (i8, i8, i8)) -> Option<usize> {
    LEAP_VECTORS.iter().position(|&w| w == v)
}

fn board_leap(board: &TetraBoard, c: CellId, (dx, dy, dz): (i8, i8, i8)) -> Option<CellId> {
    let (x, y, z) = board.point(c);
    board.cell_at((x + dx, y + dy, z + dz))
}

/// What [`make`] changed, so [`unmake`] can restore it.
#[derive(Copy, Clone, Debug)]
pub struct Undo {
    moved: Option<Piece>,
    captured: Option<Piece>,
}

/// Plays an action in place (no legality check).
pub fn make(data: &VariantData, pos: &mut Position, a: TetraAction) -> Undo {
    let me = pos.to_move;
    let undo = match a {
        TetraAction::Move { from, to, change } => {
            let p = pos.board[from.index()].expect("a move starts on a piece");
            let captured = pos.board[to.index()];
            if let Some(q) = captured {
                pos.hands[me.index()][data.hand_class(q.kind).index()] += 1;
            }
            let mut np = p;
            match change {
                Change::None => {}
                Change::Promote => np.promoted = true,
                Change::Switch => {
                    np.kind = data.switches_with[p.kind.index()].expect("only partners switch")
                }
            }
            pos.board[from.index()] = None;
            pos.board[to.index()] = Some(np);
            if p.kind == data.royal {
                pos.royals[me.index()] = to;
            }
            Undo {
                moved: Some(p),
                captured,
            }
        }
        TetraAction::Drop { kind, to } => {
            pos.hands[me.index()][data.hand_class(kind).index()] -= 1;
            pos.board[to.index()] = Some(Piece {
                owner: me,
                kind,
                promoted: false,
            });
            Undo {
                moved: None,
                captured: None,
            }
        }
    };
    pos.to_move = me.other();
    undo
}

/// Takes back an action played by [`make`].
pub fn unmake(data: &VariantData, pos: &mut Position, a: TetraAction, undo: Undo) {
    let me = pos.to_move.other();
    pos.to_move = me;
    match a {
        TetraAction::Move { from, to, .. } => {
            let p = undo.moved.expect("a move records its piece");
            pos.board[from.index()] = Some(p);
            pos.board[to.index()] = undo.captured;
            if let Some(q) = undo.captured {
                pos.hands[me.index()][data.hand_class(q.kind).index()] -= 1;
            }
            if p.kind == data.royal {
                pos.royals[me.index()] = from;
            }
        }
        TetraAction::Drop { kind, to } => {
            pos.board[to.index()] = None;
            pos.hands[me.index()][data.hand_class(kind).index()] += 1;
        }
    }
}

/// Every action of the side to move, legal or not (board moves, then drops).
pub fn pseudo_legal(t: &Tables, data: &VariantData, pos: &Position, out: &mut Vec<TetraAction>) {
    let me = pos.to_move;
    let mut dests = Vec::with_capacity(64);
    for (i, sq) in pos.board.iter().enumerate() {
        let Some(p) = *sq else { continue };
        if p.owner != me {
            continue;
        }
        let from = CellId(i as u16);
        dests.clear();
        t.destinations(pos, from, &mut dests);
        for &to in &dests {
            for &change in t.changes(data, p, from, to).as_slice() {
                out.push(TetraAction::Move { from, to, change });
            }
        }
    }
    each_drop(t, data, pos, |kind, to| {
        out.push(TetraAction::Drop { kind, to })
    });
}

/// Calls `found` with every drop of the side to move: each form of each
/// kind in its hand (a switching pair may drop as either) on each empty
/// cell where that form could move again.
fn each_drop(t: &Tables, data: &VariantData, pos: &Position, mut found: impl FnMut(Kind, CellId)) {
    let me = pos.to_move;
    for &k in &data.kinds {
        if pos.hands[me.index()][k.index()] == 0 || data.hand_class(k) != k {
            continue;
        }
        let forms = [Some(k), data.switches_with[k.index()]];
        for form in forms.into_iter().flatten() {
            for (i, sq) in pos.board.iter().enumerate() {
                let to = CellId(i as u16);
                if sq.is_none() && !t.is_immobile(me, form, to) {
                    found(form, to);
                }
            }
        }
    }
}

/// Whether playing `a` leaves the mover's royal piece unattacked.
pub fn is_legal(t: &Tables, data: &VariantData, scratch: &mut Position, a: TetraAction) -> bool {
    let me = scratch.to_move;
    let undo = make(data, scratch, a);
    let ok = !t.attacked(scratch, scratch.royals[me.index()], me.other());
    unmake(data, scratch, a, undo);
    ok
}

/// Every legal action: the pseudo-legal ones that leave the mover's royal
/// piece unattacked.
///
/// Only some need playing out to know. When the royal piece is not
/// attacked, an action can expose it only by vacating a cell on one of its
/// lines, so a drop, or a move of a piece that is not the first on any
/// line out of the royal cell, is legal as it stands: the piece it adds
/// is the mover's own, and a capture only removes an attacker. Leaps pass
/// over cells, so vacating a cell never opens one.
pub fn legal(t: &Tables, data: &VariantData, pos: &Position) -> Vec<TetraAction> {
    let mut all = Vec::with_capacity(256);
    pseudo_legal(t, data, pos, &mut all);
    let mut scratch = pos.clone();
    match Exposure::of(t, pos) {
        Exposure::InCheck => all.retain(|&a| is_legal(t, data, &mut scratch, a)),
        Exposure::Shields(shields) => all.retain(|&a| match a {
            TetraAction::Drop { .. } => true,
            TetraAction::Move { from, .. } => {
                !shields.contains(from) || is_legal(t, data, &mut scratch, a)
            }
        }),
    }
    all
}

/// Every legal action by the definition alone: each pseudo-legal action is
/// played on a scratch position and the mover's royal piece tested. The
/// second path of `seams perft --independent`, kept apart from the
/// shields that [`legal`] and [`perft`] trust.
pub fn legal_by_definition(t: &Tables, data: &VariantData, pos: &Position) -> Vec<TetraAction> {
    let mut all = Vec::with_capacity(256);
    pseudo_legal(t, data, pos, &mut all);
    let mut scratch = pos.clone();
    all.retain(|&a| is_legal(t, data, &mut scratch, a));
    all
}

/// Which of the mover's actions could leave its royal piece attacked.
enum Exposure {
    /// The royal piece is attacked already: every action must be tested.
    InCheck,
    /// It is not: only moves from these cells (the royal cell, and the
    /// first piece on each line out of it) can expose it.
    Shields(Shields),
}

/// At most one cell per direction, and the royal cell itself.
struct Shields {
    cells: [CellId; 19],
    len: usize,
}

impl Shields {
    fn contains(&self, c: CellId) -> bool {
        self.cells[..self.len].contains(&c)
    }
}

impl Exposure {
    fn of(t: &Tables, pos: &Position) -> Exposure {
        let me = pos.to_move;
        let royal = pos.royals[me.index()];
        // Extra terms (limited rides, lame leaps, other leaps) open and
        // close lines the shield scan does not follow: test everything.
        if t.has_extra || t.attacked(pos, royal, me.other()) {
            return Exposure::InCheck;
        }
        let mut s = Shields {
            cells: [royal; 19],
            len: 1,
        };
        for d in 0..t.steps[royal.index()].len() {
            if let Some(c) = t.line(royal, d).find(|c| pos.board[c.index()].is_some())
                && pos.board[c.index()].is_some_and(|p| p.owner == me)
            {
                s.cells[s.len] = c;
                s.len += 1;
            }
        }
        Exposure::Shields(s)
    }
}

/// Analysis mode for the side to move of `pos` (who may be either army,
/// see `TetraRules::analysis_actions`): the legal actions, or without
/// `king_safety` every pseudo-legal one. Either way no action captures the
/// opponent's royal piece (TS-A1): in play that cell is never attacked by
/// the side to move, but an analysis position (the other army moved while
/// the side to move is in check, or a move into check played) can make it
/// so, and a royal piece has no hand to go to (TS-5.1).
pub fn analysis(
    t: &Tables,
    data: &VariantData,
    pos: &Position,
    king_safety: bool,
) -> Vec<TetraAction> {
    let mut all = if king_safety {
        legal(t, data, pos)
    } else {
        let mut out = Vec::with_capacity(256);
        pseudo_legal(t, data, pos, &mut out);
        out
    };
    let royal = pos.royals[pos.to_move.other().index()];
    all.retain(|a| !matches!(*a, TetraAction::Move { to, .. } if to == royal));
    all
}

/// Perft by make/unmake on one position. The last ply is counted, not
/// played: see [`count_legal`].
pub fn perft(t: &Tables, data: &VariantData, pos: &mut Position, depth: u32) -> u64 {
    match depth {
        0 => return 1,
        1 => return count_legal(t, data, pos),
        _ => {}
    }
    let mut all = Vec::with_capacity(256);
    pseudo_legal(t, data, pos, &mut all);
    let mut total = 0;
    for a in all {
        let me = pos.to_move;
        let undo = make(data, pos, a);
        if !t.attacked(pos, pos.royals[me.index()], me.other()) {
            total += perft(t, data, pos, depth - 1);
        }
        unmake(data, pos, a, undo);
    }
    total
}

/// The number of legal actions, as [`legal`] would list them, without
/// listing them: out of check, only moves from the shield cells are played
/// out (once per destination: a promotion or switch changes no line), and
/// drops are counted per empty cell. `pos` is restored before returning.
fn count_legal(t: &Tables, data: &VariantData, pos: &mut Position) -> u64 {
    let shields = match Exposure::of(t, pos) {
        Exposure::InCheck => return legal_by_definition(t, data, pos).len() as u64,
        Exposure::Shields(s) => s,
    };
    let me = pos.to_move;
    let mut total = 0u64;
    let mut dests = Vec::with_capacity(64);
    for i in 0..pos.board.len() {
        let Some(p) = pos.board[i] else { continue };
        if p.owner != me {
            continue;
        }
        let from = CellId(i as u16);
        let exposes = shields.contains(from);
        dests.clear();
        t.destinations(pos, from, &mut dests);
        for &to in &dests {
            let changes = t.changes(data, p, from, to);
            let (n, change) = match changes.as_slice().first() {
                Some(&first) => (changes.as_slice().len() as u64, first),
                None => continue,
            };
            if !exposes || is_legal(t, data, pos, TetraAction::Move { from, to, change }) {
                total += n;
            }
        }
    }
    let mut drops = 0;
    each_drop(t, data, pos, |_, _| drops += 1);
    total + drops
}
