//! Actions and their generation: piece moves, pawn steps with transported
//! facing, double steps, en passant by trace, mandatory promotion, castling.
//!
//! Generation is pseudo-legal per piece; then every candidate that could
//! expose the mover's king (king moves, en passant, moves in check, moves of
//! possibly pinned pieces) is made on a scratch board and kept only if the
//! king is not attacked (SC-7.2). `legal_by_definition` tests every
//! candidate and is the reference the fast path is checked against.
//! Castling is tested separately by its own three-part test (SC-5.4). On
//! boards whose seams let two routes reach the same outcome, the list is
//! sorted and deduplicated so that one outcome is one action (SC-3.4).

use super::ChessRules;
use super::pieces::{Kind, Piece, Side};
use super::position::{Position, Trace};
use crate::movement::lang::Mode;
use crate::movement::square;
use crate::movement::{Facing, Landing};
use crate::rules::Player;
use crate::topology::{CellId, Dir};

/// SC-5.4 (a): castling refused because the king is attacked.
pub const CASTLING_OUT_OF_CHECK: &str = "the king is in check";
/// SC-5.4 (b): castling refused because the transit cell is attacked.
pub const CASTLING_THROUGH_CHECK: &str = "the king's transit cell is attacked";
/// SC-5.4 (b): castling refused because the destination is attacked.
pub const CASTLING_INTO_CHECK: &str = "the king's destination is attacked";
/// SC-5.4 (c): castling refused because the king is attacked after both
/// pieces moved.
pub const CASTLING_ENDS_IN_CHECK: &str = "the king is attacked after castling";

/// The refusals of SC-5.4 (a) to (c), the conditions about attacks on
/// the king, which analysis without king safety drops (SC-A1).
const CASTLING_ATTACK_REFUSALS: [&str; 4] = [
    CASTLING_OUT_OF_CHECK,
    CASTLING_THROUGH_CHECK,
    CASTLING_INTO_CHECK,
    CASTLING_ENDS_IN_CHECK,
];

/// What kind of move an action is, beyond its origin and destination.
#[derive(Copy, Clone, Eq, PartialEq, Hash, Ord, PartialOrd, Debug)]
pub enum Special {
    Plain,
    /// A pawn's two-step first move.
    DoubleStep,
    /// A pawn lands on the trace's middle and removes the traced pawn.
    EnPassant,
    /// King and rook move together; `from`/`to` are the king's cells.
    Castle(Side),
}

/// One legal board action.
#[derive(Copy, Clone, Eq, PartialEq, Hash, Ord, PartialOrd, Debug)]
pub struct Action {
    pub from: CellId,
    pub to: CellId,
    pub special: Special,
    /// The promotion choice when the pawn reaches its target.
    pub promotion: Option<Kind>,
    /// The pawn's facing after the move; `Up` when the mover is not a pawn
    /// afterwards (other pieces, promotions), so that outcomes that do not
    /// differ compare equal.
    pub facing: Facing,
}

impl ChessRules {
    /// Every legal action for the side to move.
    ///
    /// Only the candidates that could matter are made on a scratch board:
    /// king moves, en passant, moves while in check, and moves of the
    /// pieces that may be pinned (`pin_candidates`). Every other move keeps
    /// the king safe: moving a piece that stands on no line between the king
    /// and an enemy slider opens no line, and its landing cell can only
    /// block one. [`ChessRules::legal_by_definition`] tests every candidate
    /// and the test suite compares the two.
    pub fn legal(&self, pos: &Position) -> Vec<Action> {
        let mut out = Vec::with_capacity(64);
        self.pseudo_moves(pos, &mut out);
        let me = pos.to_move;
        let king = pos.kings[me.index()];
        let in_check = self.attacked(&pos.board, king, me.other());
        let (pins, n) = self.pin_candidates(pos);
        let pins = &pins[..n];
        // Terms outside the masks (limited rides, long leapers, two-stage
        // moves) can pin or discover in ways the ray scan does not see, so
        // with any of them every candidate is tested.
        let every = self.data.pieces.has_other;
        let needs_test = |a: &Action| {
            every
                || in_check
                || a.from == king
                || a.special == Special::EnPassant
                || pins.contains(&a.from)
        };
        if out.iter().any(needs_test) {
            let mut scratch = pos.board.clone();
            out.retain(|a| !needs_test(a) || self.safe_after(pos, &mut scratch, a));
        }
        self.finish(pos, out)
    }

    /// The legal actions by the definition alone: every pseudo-legal move is
    /// made and the king tested. Slower than [`ChessRules::legal`]; kept as
    /// the reference it is checked against.
    pub fn legal_by_definition(&self, pos: &Position) -> Vec<Action> {
        let mut out = Vec::with_capacity(64);
        self.pseudo_moves(pos, &mut out);
        let mut scratch = pos.board.clone();
        out.retain(|a| self.safe_after(pos, &mut scratch, a));
        self.finish(pos, out)
    }

    /// Analysis mode (`SC-A1` to `SC-A3` in `spec/chess/rules.md`): the
    /// actions `mover` could take in `pos` whoever is to move, as seen in
    /// the position with `mover` to move (returned too, for notation).
    /// With `king_safety` these are that position's legal actions. Without
    /// it, the final king test of SC-7.2 is skipped and castling needs only
    /// its right, its home cells and the empty cells between (SC-A1);
    /// every other rule of SC-3 to SC-5 stays, so no action captures a king.
    pub fn analysis(
        &self,
        pos: &Position,
        mover: Player,
        king_safety: bool,
    ) -> (Position, Vec<Action>) {
        let mut seen = pos.clone();
        seen.to_move = mover;
        if king_safety {
            let legal = self.legal(&seen);
            return (seen, legal);
        }
        let mut out = Vec::with_capacity(64);
        self.pseudo_moves(&seen, &mut out);
        for side in Side::BOTH {
            // The refusals about attacks are tested after every other
            // condition, so a castling refused only for one of them meets
            // all the conditions that stay in analysis.
            let allowed = match self.castling_refusal(&seen, side) {
                None => true,
                Some(reason) => CASTLING_ATTACK_REFUSALS.contains(&reason),
            };
            if allowed && let Some(spec) = self.castle(mover, side) {
                out.push(Action {
                    from: spec.king,
                    to: spec.king_to,
                    special: Special::Castle(side),
                    promotion: None,
                    facing: Facing::Up,
                });
            }
        }
        if self.may_repeat {
            out.sort_unstable();
            out.dedup();
        }
        (seen, out)
    }

    /// Adds castling and merges actions with identical outcomes.
    fn finish(&self, pos: &Position, mut out: Vec<Action>) -> Vec<Action> {
        for side in Side::BOTH {
            if let Some(a) = self.castling_action(pos, side) {
                out.push(a);
            }
        }
        if self.may_repeat {
            out.sort_unstable();
            out.dedup();
        }
        out
    }

    /// The mover's pieces that may be pinned: for each ray leaving the
    /// king, the one own piece it passes before meeting an enemy slider
    /// that moves along that kind of ray. At most one per ray.
    fn pin_candidates(&self, pos: &Position) -> ([CellId; 8], usize) {
        let me = pos.to_move;
        let king = pos.kings[me.index()];
        let mut found = [king; 8];
        let mut n = 0;
        let bound = pos.board.len() * 8;
        for d in Dir::ALL {
            let (mut here, mut dir) = (king, d);
            let mut blocker: Option<CellId> = None;
            for _ in 0..bound {
                let Some(s) = self.geo.step(here, dir) else {
                    break;
                };
                if s.to == king {
                    break;
                }
                dir = s.transport.apply(dir);
                here = s.to;
                let Some(p) = pos.board[here.index()] else {
                    continue;
                };
                if p.owner == me {
                    match blocker {
                        None => blocker = Some(here),
                        // A ray may wind back over the same piece.
                        Some(b) if b == here => {}
                        Some(_) => break,
                    }
                    continue;
                }
                // A slider whose ray runs back along this one to the king.
                let slider = self.form(p).capture_rays() & (1 << dir.opposite().index()) != 0;
                if slider && let Some(b) = blocker {
                    found[n] = b;
                    n += 1;
                }
                break;
            }
        }
        (found, n)
    }

    /// The mutant's guess at an en-passant cell: the cell one rank behind
    /// `to` in its own chart, by plain coordinates.
    fn neighbour_behind(&self, to: CellId, facing: crate::movement::Facing) -> Option<CellId> {
        let b = self.geo.board();
        let sq = b.square(to);
        let y = sq.y as i16 - facing.sign() as i16;
        (0..b.height() as i16)
            .contains(&y)
            .then(|| b.cell(crate::topology::Square { y: y as u8, ..sq }))
    }

    /// Pseudo-legal moves (king safety unchecked, castling excluded):
    /// every piece by its compiled movement, the pawn by its rules as
    /// well.
    pub(crate) fn pseudo_moves(&self, pos: &Position, out: &mut Vec<Action>) {
        let me = pos.to_move;
        for (i, sq) in pos.board.iter().enumerate() {
            let Some(p) = *sq else { continue };
            if p.owner != me {
                continue;
            }
            let from = CellId(i as u16);
            if self.is_pawn(p.kind) {
                self.pawn_moves(pos, from, p, out);
                continue;
            }
            self.piece_moves(pos, from, p, out);
        }
    }

    /// The actions of a piece other than a pawn, by its compiled
    /// movement: its single steps and knight leaps from the table found
    /// for the board ([`square::Leaps`]), then its rays. Inlined into the
    /// board scan: measured by instruction counts (callgrind, chess-flat
    /// perft 5), a call per piece cost 4% of the whole count.
    #[inline]
    fn piece_moves(&self, pos: &Position, from: CellId, p: Piece, out: &mut Vec<Action>) {
        let me = pos.to_move;
        let royal = self.royal();
        let board = &pos.board;
        let occupied = |c: CellId| board[c.index()].is_some();
        // One look at each landing's cell decides the action and
        // whether a ride goes on.
        let mut land = |l: Landing, mode: Mode| match board[l.cell.index()] {
            None => {
                if mode.allows(false) {
                    out.push(plain(from, l.cell));
                }
                false
            }
            Some(q) => {
                if q.owner != me && q.kind != royal && mode.allows(true) {
                    out.push(plain(from, l.cell));
                }
                true
            }
        };
        let form = self.form(p);
        // A piece other than the pawn has no facing (SC-3.1): its routes'
        // transports are never read.
        square::walk_leaps_and_rays(&self.geo, from, self.leaps(p), &mut land);
        if !form.other.is_empty() {
            square::walk_others(&self.geo, from, form, &occupied, &mut |l, mode| {
                land(l, mode);
            });
        }
    }

    /// A pawn's actions (SC-4): its move-only steps onto empty cells, each
    /// continued once more in the transported direction while its double
    /// step is unused (SC-4.2); its capture steps onto enemies, or onto the
    /// middle of an enemy trace (en passant, SC-4.3); a promotion choice
    /// for each arrival on a target (SC-4.5). A pawn's movement is masks
    /// only: the data check refuses other terms for it.
    fn pawn_moves(&self, pos: &Position, from: CellId, p: Piece, out: &mut Vec<Action>) {
        let me = p.owner;
        let form = self.form(p);
        let quiet = form.steps[Mode::Any.index()] | form.steps[Mode::Move.index()];
        let captures = form.capture_steps();
        let mut bits = quiet;
        while bits != 0 {
            let d = Dir::ALL[bits.trailing_zeros() as usize];
            bits &= bits - 1;
            if let Some(s1) = self.geo.step(from, d)
                && s1.to != from
                && pos.board[s1.to.index()].is_none()
            {
                let f1 = p.facing.transported(s1.transport);
                self.push_pawn(me, from, s1.to, f1, Special::Plain, out);
                if p.double_step {
                    let d2 = s1.transport.apply(d);
                    if let Some(s2) = self.geo.step(s1.to, d2)
                        && s2.to != from
                        && pos.board[s2.to.index()].is_none()
                    {
                        let f2 = f1.transported(s2.transport);
                        self.push_pawn(me, from, s2.to, f2, Special::DoubleStep, out);
                    }
                }
            }
        }
        let mut bits = captures;
        while bits != 0 {
            let d = Dir::ALL[bits.trailing_zeros() as usize];
            bits &= bits - 1;
            let Some(s) = self.geo.step(from, d) else {
                continue;
            };
            if s.to == from {
                continue;
            }
            let f = p.facing.transported(s.transport);
            match pos.board[s.to.index()] {
                Some(q) if q.owner != me && !self.is_royal(q.kind) => {
                    self.push_pawn(me, from, s.to, f, Special::Plain, out)
                }
                None => {
                    if let Some(t) = pos.en_passant
                        && t.owner != me
                        && t.middle == s.to
                        && matches!(pos.board[t.destination.index()],
                            Some(v) if self.is_pawn(v.kind) && v.owner == t.owner)
                    {
                        self.push_pawn(me, from, s.to, f, Special::EnPassant, out);
                    }
                }
                _ => {}
            }
        }
    }

    /// The first cell of a pawn's double step from `from` to `to`: the
    /// move-only step of its movement whose continuation lands on `to`.
    pub(crate) fn double_step_middle(
        &self,
        from: CellId,
        facing: Facing,
        to: CellId,
    ) -> Option<CellId> {
        let quiet = self.advance_steps(facing);
        Dir::ALL
            .into_iter()
            .filter(|d| quiet & (1 << d.index()) != 0)
            .find_map(|d| {
                let s1 = self.geo.step(from, d)?;
                let s2 = self.geo.step(s1.to, s1.transport.apply(d))?;
                (s2.to == to).then_some(s1.to)
            })
    }

    /// A pawn arrival: one action per promotion choice on a target,
    /// otherwise one action keeping the facing.
    fn push_pawn(
        &self,
        me: Player,
        from: CellId,
        to: CellId,
        facing: Facing,
        special: Special,
        out: &mut Vec<Action>,
    ) {
        if self.promotes(me, facing, to) {
            for &k in &self.data.promotion_pieces {
                out.push(Action {
                    from,
                    to,
                    special,
                    promotion: Some(k),
                    facing: Facing::Up,
                });
            }
        } else {
            out.push(Action {
                from,
                to,
                special,
                promotion: None,
                facing,
            });
        }
    }

    /// Makes `a` on `scratch` (a copy of `pos.board`), tests the mover's
    /// king, and restores `scratch`.
    fn safe_after(&self, pos: &Position, scratch: &mut [Option<Piece>], a: &Action) -> bool {
        let me = pos.to_move;
        let mover = scratch[a.from.index()];
        let captured = scratch[a.to.index()];
        let mut ep_removed = None;
        if a.special == Special::EnPassant
            && let Some(t) = pos.en_passant
        {
            ep_removed = Some((t.destination, scratch[t.destination.index()]));
            scratch[t.destination.index()] = None;
        }
        scratch[a.from.index()] = None;
        scratch[a.to.index()] = mover;
        let king = if mover.is_some_and(|m| self.is_royal(m.kind)) {
            a.to
        } else {
            pos.kings[me.index()]
        };
        let safe = !self.attacked(scratch, king, me.other());
        scratch[a.to.index()] = captured;
        scratch[a.from.index()] = mover;
        if let Some((c, p)) = ep_removed {
            scratch[c.index()] = p;
        }
        safe
    }

    /// Castling on one side if every condition of SC-5 holds.
    pub(crate) fn castling_action(&self, pos: &Position, side: Side) -> Option<Action> {
        self.castling_refusal(pos, side).is_none().then(|| {
            let spec = self.castle(pos.to_move, side).expect("checked");
            Action {
                from: spec.king,
                to: spec.king_to,
                special: Special::Castle(side),
                promotion: None,
                facing: Facing::Up,
            }
        })
    }

    /// Why castling on `side` is not legal now, or `None` when it is; the
    /// conditions of SC-5.4 that concern attacks give the messages
    /// [`CASTLING_OUT_OF_CHECK`], [`CASTLING_THROUGH_CHECK`],
    /// [`CASTLING_INTO_CHECK`] and [`CASTLING_ENDS_IN_CHECK`].
    pub fn castling_refusal(&self, pos: &Position, side: Side) -> Option<&'static str> {
        let me = pos.to_move;
        let them = me.other();
        let Some(spec) = self.castle(me, side) else {
            return Some("this variant has no castling");
        };
        if !pos.castling.get(me, side) {
            return Some("the castling right is gone");
        }
        if pos.board[spec.king.index()] != Some(Piece::new(me, spec.king_kind))
            || pos.board[spec.rook.index()] != Some(Piece::new(me, spec.rook_kind))
        {
            return Some("king or rook is not on its home cell");
        }
        if spec.between.iter().any(|c| pos.board[c.index()].is_some()) {
            return Some("a cell between king and rook is occupied");
        }
        if self.attacked(&pos.board, spec.king, them) {
            return Some(CASTLING_OUT_OF_CHECK);
        }
        let mut b = pos.board.clone();
        b[spec.king.index()] = None;
        if self.attacked(&b, spec.transit, them) {
            return Some(CASTLING_THROUGH_CHECK);
        }
        if self.attacked(&b, spec.king_to, them) {
            return Some(CASTLING_INTO_CHECK);
        }
        b[spec.rook.index()] = None;
        b[spec.king_to.index()] = Some(Piece::new(me, spec.king_kind));
        b[spec.rook_to.index()] = Some(Piece::new(me, spec.rook_kind));
        if self.attacked(&b, spec.king_to, them) {
            return Some(CASTLING_ENDS_IN_CHECK);
        }
        None
    }

    /// Plays a legal action (callers guarantee legality).
    pub fn make(&self, pos: &Position, a: &Action) -> Position {
        let me = pos.to_move;
        let mut next = pos.clone();
        let b = &mut next.board;
        let mover = b[a.from.index()].expect("a legal action moves a piece");
        let mut capture = b[a.to.index()].is_some();
        next.en_passant = None;
        match a.special {
            Special::Castle(side) => {
                let spec = self.castle(me, side).expect("legal castling has data");
                b[spec.king.index()] = None;
                b[spec.rook.index()] = None;
                b[spec.king_to.index()] = Some(Piece::new(me, spec.king_kind));
                b[spec.rook_to.index()] = Some(Piece::new(me, spec.rook_kind));
                next.kings[me.index()] = spec.king_to;
            }
            _ => {
                if a.special == Special::EnPassant
                    && let Some(t) = pos.en_passant
                {
                    b[t.destination.index()] = None;
                    capture = true;
                }
                let placed = match a.promotion {
                    Some(k) => Piece::new(me, k),
                    None if self.is_pawn(mover.kind) => self.piece(me, mover.kind, a.facing, false),
                    None => mover,
                };
                b[a.from.index()] = None;
                b[a.to.index()] = Some(placed);
                if self.is_royal(mover.kind) {
                    next.kings[me.index()] = a.to;
                }
                if a.special == Special::DoubleStep && a.promotion.is_none() {
                    let middle = self
                        .double_step_middle(a.from, mover.facing, a.to)
                        .expect("a double step has a first step");
                    let middle = if self.mutant_ep_by_neighbour {
                        self.neighbour_behind(a.to, a.facing)
                    } else {
                        Some(middle)
                    };
                    next.en_passant = middle.map(|middle| Trace {
                        owner: me,
                        source: a.from,
                        middle,
                        destination: a.to,
                        facing: a.facing,
                    });
                }
            }
        }
        // Rights: a king leaving its home loses both; a move from or to a
        // rook's home loses that side.
        for p in [Player::First, Player::Second] {
            for side in Side::BOTH {
                if let Some(spec) = self.castle(p, side)
                    && (a.from == spec.king || a.from == spec.rook || a.to == spec.rook)
                {
                    next.castling.set(p, side, false);
                }
            }
        }
        next.halfmove = if self.is_pawn(mover.kind) || capture {
            0
        } else {
            pos.halfmove.saturating_add(1)
        };
        next.ply = pos.ply.saturating_add(1);
        next.to_move = me.other();
        next
    }

    /// Counts leaves of the legal-action tree (endings ignored).
    pub fn perft_count(&self, pos: &Position, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        let actions = self.legal(pos);
        if depth == 1 {
            return actions.len() as u64;
        }
        actions
            .iter()
            .map(|a| self.perft_count(&self.make(pos, a), depth - 1))
            .sum()
    }
}

fn plain(from: CellId, to: CellId) -> Action {
    Action {
        from,
        to,
        special: Special::Plain,
        promotion: None,
        facing: Facing::Up,
    }
}
