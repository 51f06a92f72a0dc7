//! Legal actions: board moves, drops, promotion, nifu, dead ranks and
//! pawn-drop mate (`SS-4` to `SS-7`).
//!
//! Generation is two-staged. [`ShogiRules::pseudo`] lists every move and
//! drop the movement, capture, promotion and drop rules allow; the legal
//! filter then keeps those that leave the mover's king unattacked and, for
//! a pawn drop that gives check, those after which the opponent still has a
//! legal action. The filter plays each candidate on one scratch board and
//! takes it back, so no position is copied per candidate.

use crate::movement::lang::Mode;
use crate::movement::square;
use crate::movement::{Facing, Landing, for_each_on_ray};
use crate::rules::Player;
use crate::topology::{CellId, Dir, Transport};

use super::ShogiRules;
use super::pieces::{Kind, Piece};
use super::position::Position;

/// A board move or a drop.
///
/// `facing` is the mover's facing after the route (`SS-4.6`); for kings,
/// rooks and bishops it is always the owner's default (`SS-I1`), so routes
/// that differ only in their transport are one action.
#[derive(Copy, Clone, Eq, PartialEq, Hash, Ord, PartialOrd, Debug)]
pub enum Action {
    Move {
        from: CellId,
        to: CellId,
        promote: bool,
        facing: Facing,
    },
    Drop {
        kind: Kind,
        to: CellId,
    },
}

impl ShogiRules {
    /// Whether `a` drops a kind that may not give mate by its drop
    /// (SS-6.3: the pawn), the one action pawn-drop mate limits.
    #[inline]
    pub fn is_pawn_drop(&self, a: &Action) -> bool {
        matches!(*a, Action::Drop { kind, .. } if !self.drop_may_mate(kind))
    }

    /// Calls `visit(cell, transport)` for every cell `piece` on `from` can
    /// land on by its movement, occupied or not (the first occupied cell of a
    /// ray included, nothing beyond it), whatever the landing allows: every
    /// shipped kind moves and captures alike. The same cell may come more
    /// than once.
    pub fn piece_targets(
        &self,
        board: &[Option<Piece>],
        from: CellId,
        piece: Piece,
        visit: &mut dyn FnMut(CellId, Transport),
    ) {
        self.piece_landings(board, from, piece, &mut |l, _| visit(l.cell, l.transport));
    }

    /// Every landing of `piece` on `from` by its compiled movement, with
    /// the mode of the term that reached it (MV-3).
    #[inline]
    pub fn piece_landings(
        &self,
        board: &[Option<Piece>],
        from: CellId,
        piece: Piece,
        visit: &mut impl FnMut(Landing, Mode),
    ) {
        let occupied = |c: CellId| board[c.index()].is_some();
        square::targets(&self.geo, from, self.form(piece), &occupied, visit);
    }

    /// Every action the movement, capture, promotion and drop rules allow,
    /// before king safety and pawn-drop mate; sorted, without duplicates.
    pub fn pseudo(&self, pos: &Position) -> Vec<Action> {
        let mut out = Vec::with_capacity(128);
        let me = pos.to_move;
        let board = &pos.board;
        for (i, slot) in board.iter().enumerate() {
            if let Some(p) = *slot
                && p.owner == me
            {
                self.piece_pseudo(pos, CellId(i as u16), p, &mut out);
            }
        }
        let hand = &pos.hands[me.index()];
        if hand.iter().any(|&n| n > 0) {
            let facing = self.drop_facing[me.index()];
            for &kind in self.hand_kinds() {
                if hand[kind.index()] == 0 {
                    continue;
                }
                let nifu_files = if self.has_nifu(kind) {
                    self.nifu_files(pos, me, kind)
                } else {
                    Vec::new()
                };
                for (i, slot) in board.iter().enumerate() {
                    let to = CellId(i as u16);
                    if slot.is_some() || self.is_dead(kind, facing, to) {
                        continue;
                    }
                    if nifu_files.contains(&self.file_of[i]) {
                        continue;
                    }
                    out.push(Action::Drop { kind, to });
                }
            }
        }
        out.sort_unstable();
        out.dedup();
        out
    }

    /// The board moves of the mover's piece `p` on `from` that movement,
    /// capture and promotion rules allow (unsorted, maybe repeated).
    fn piece_pseudo(&self, pos: &Position, from: CellId, p: Piece, out: &mut Vec<Action>) {
        let me = pos.to_move;
        let board = &pos.board;
        let has_facing = self.has_facing(p.kind);
        let can_promote = self.can_promote(p.kind);
        let royal = self.pieces.royal;
        self.piece_landings(board, from, p, &mut |l, mode| {
            let (to, t) = (l.cell, l.transport);
            match board[to.index()] {
                Some(q) if q.owner == me || q.kind == royal || !mode.allows(true) => return,
                None if !mode.allows(false) => return,
                _ => {}
            }
            let facing = if has_facing {
                p.facing.transported(t)
            } else {
                p.facing
            };
            let mut push = |promote| {
                out.push(Action::Move {
                    from,
                    to,
                    promote,
                    facing,
                })
            };
            if p.promoted || !can_promote {
                push(false);
            } else if self.is_dead(p.kind, facing, to) {
                push(true);
            } else if self.in_band(me, from) || self.in_band(me, to) {
                push(false);
                push(true);
            } else {
                push(false);
            }
        });
    }

    /// The pseudo-legal board moves of the piece on `from`, sorted.
    pub fn pseudo_from(&self, pos: &Position, from: CellId) -> Vec<Action> {
        let mut out = vec![];
        if let Some(p) = pos.piece_at(from)
            && p.owner == pos.to_move
        {
            self.piece_pseudo(pos, from, p, &mut out);
        }
        out.sort_unstable();
        out.dedup();
        out
    }

    /// The legal board moves of the piece on `from`, sorted.
    pub fn legal_from(&self, pos: &Position, from: CellId) -> Vec<Action> {
        let mut v = self.pseudo_from(pos, from);
        let mut scratch = pos.board.clone();
        v.retain(|a| self.is_legal_with(&mut scratch, pos, a));
        v
    }

    /// The nifu files holding an unpromoted piece of `kind` of `p`
    /// (`SS-6.2`: for the pawn).
    pub fn nifu_files(&self, pos: &Position, p: Player, kind: Kind) -> Vec<u16> {
        let mut files = vec![];
        for (i, slot) in pos.board.iter().enumerate() {
            if let Some(q) = slot
                && q.owner == p
                && q.kind == kind
                && !q.promoted
            {
                files.push(self.file_of[i]);
            }
        }
        files
    }

    /// Plays `a` on a scratch board and reports whether the mover's king is
    /// safe afterwards; the board is restored.
    fn king_safe_after(&self, board: &mut [Option<Piece>], pos: &Position, a: &Action) -> bool {
        let me = pos.to_move;
        match *a {
            Action::Move { from, to, .. } => {
                let moving = board[from.index()];
                let captured = board[to.index()];
                board[to.index()] = moving;
                board[from.index()] = None;
                let king = if moving.is_some_and(|p| self.is_royal(p.kind)) {
                    Some(to)
                } else {
                    pos.kings[me.index()]
                };
                let safe = king.is_none_or(|k| !self.attacked(board, k, me.other()));
                board[from.index()] = moving;
                board[to.index()] = captured;
                safe
            }
            Action::Drop { kind, to } => {
                board[to.index()] = Some(self.piece(me, kind, false, self.drop_facing[me.index()]));
                let safe =
                    pos.kings[me.index()].is_none_or(|k| !self.attacked(board, k, me.other()));
                board[to.index()] = None;
                safe
            }
        }
    }

    /// Whether a pawn drop (already known to be king-safe) gives mate:
    /// the opponent is in check afterwards and has no legal action.
    fn is_pawn_drop_mate(&self, pos: &Position, a: &Action) -> bool {
        let next = self.play(pos, a);
        self.checked(&next) && !self.has_legal(&next)
    }

    /// Whether `a` breaks no pawn-drop-mate rule (`SS-6.5`): it is not a
    /// pawn drop, or the drop does not mate.
    fn no_pawn_drop_mate(&self, pos: &Position, a: &Action) -> bool {
        !self.is_pawn_drop(a) || !self.is_pawn_drop_mate(pos, a)
    }

    /// Whether `a` (from [`Self::pseudo`]) is legal, using `scratch` (a copy
    /// of `pos.board`) for trial moves.
    fn is_legal_with(&self, scratch: &mut [Option<Piece>], pos: &Position, a: &Action) -> bool {
        self.king_safe_after(scratch, pos, a) && self.no_pawn_drop_mate(pos, a)
    }

    /// Analysis mode (informative section of `spec/shogi/rules.md`): the actions `mover` could take whoever is
    /// to move, with or without the king-safety filter. Every other rule
    /// stays, including pawn-drop mate.
    pub fn analysis(&self, pos: &Position, mover: Player, king_safety: bool) -> Vec<Action> {
        let mut as_mover = pos.clone();
        as_mover.to_move = mover;
        let mut actions = self.pseudo(&as_mover);
        let mut scratch = as_mover.board.clone();
        actions.retain(|a| {
            if king_safety {
                self.is_legal_with(&mut scratch, &as_mover, a)
            } else {
                self.no_pawn_drop_mate(&as_mover, a)
            }
        });
        actions
    }

    /// Every legal action, sorted.
    ///
    /// Only the candidates that could uncover the mover's king are made on
    /// the scratch board: king moves, every action while in check, and moves
    /// of a piece that is the first one met on some ray leaving the king
    /// (its possible shields, found by [`Self::shield_candidates`]). Any
    /// other move opens no line to the king — every line from the king
    /// still ends at the same first piece — and its landing cell can only
    /// block one; a drop only adds a piece. Pawn-drop mate is tested as
    /// always. [`Self::legal_by_definition`] tests every candidate, and the
    /// test suite compares the two.
    pub fn legal(&self, pos: &Position) -> Vec<Action> {
        let mut actions = self.pseudo(pos);
        let me = pos.to_move;
        let king = pos.kings[me.index()];
        let in_check = self.checked(pos);
        let (shields, n) = self.shield_candidates(pos);
        let shields = &shields[..n];
        let needs_test = |a: &Action| match *a {
            Action::Move { from, .. } => in_check || Some(from) == king || shields.contains(&from),
            Action::Drop { .. } => in_check,
        };
        let mut scratch = pos.board.clone();
        actions.retain(|a| {
            (!needs_test(a) || self.king_safe_after(&mut scratch, pos, a))
                && self.no_pawn_drop_mate(pos, a)
        });
        actions
    }

    /// The legal actions by the definition alone: every pseudo-legal action
    /// is made and the king tested. Slower than [`Self::legal`]; kept as the
    /// reference it is checked against.
    pub fn legal_by_definition(&self, pos: &Position) -> Vec<Action> {
        let mut actions = self.pseudo(pos);
        let mut scratch = pos.board.clone();
        actions.retain(|a| self.is_legal_with(&mut scratch, pos, a));
        actions
    }

    /// The mover's pieces that are the first piece met on a ray leaving its
    /// king, through seams and wraps: the only pieces whose move could
    /// uncover the king. At most one per direction; none without a king.
    fn shield_candidates(&self, pos: &Position) -> ([CellId; 8], usize) {
        let me = pos.to_move;
        let mut found = [CellId(0); 8];
        let mut n = 0;
        let Some(king) = pos.kings[me.index()] else {
            return (found, 0);
        };
        let occupied = |c: CellId| pos.board[c.index()].is_some();
        for d in Dir::ALL {
            let mut first = None;
            for_each_on_ray(&self.geo, king, d, &occupied, |l| first = Some(l.cell));
            if let Some(c) = first.filter(|&c| pos.board[c.index()].is_some_and(|p| p.owner == me))
            {
                found[n] = c;
                n += 1;
            }
        }
        (found, n)
    }

    /// Whether the player to move has any legal action.
    pub fn has_legal(&self, pos: &Position) -> bool {
        let mut actions = self.pseudo(pos);
        // Pawn drops last: they may need a recursive mate test.
        actions.sort_by_key(|a| self.is_pawn_drop(a));
        let mut scratch = pos.board.clone();
        actions
            .iter()
            .any(|a| self.is_legal_with(&mut scratch, pos, a))
    }

    /// Why a pseudo-legal action is not legal: `Some(true)` king safety,
    /// `Some(false)` pawn-drop mate, `None` when it is legal.
    pub fn legality_failure(&self, pos: &Position, a: &Action) -> Option<bool> {
        let mut scratch = pos.board.clone();
        if !self.king_safe_after(&mut scratch, pos, a) {
            Some(true)
        } else if self.is_pawn_drop(a) && self.is_pawn_drop_mate(pos, a) {
            Some(false)
        } else {
            None
        }
    }

    /// Plays a legal action (`SS-4.4` captures to hand unpromoted,
    /// `SS-6.1` drops take the default facing).
    pub fn play(&self, pos: &Position, a: &Action) -> Position {
        let mut next = pos.clone();
        let me = pos.to_move;
        match *a {
            Action::Move {
                from,
                to,
                promote,
                facing,
            } => {
                if let Some(mut p) = next.board[from.index()].take() {
                    if let Some(q) = next.board[to.index()] {
                        let n = &mut next.hands[me.index()][q.kind.index()];
                        *n = n.saturating_add(1);
                    }
                    if promote {
                        p.promoted = true;
                    }
                    p.facing = if self.has_facing(p.kind) {
                        facing
                    } else {
                        self.drop_facing[me.index()]
                    };
                    if self.is_royal(p.kind) {
                        next.kings[me.index()] = Some(to);
                    }
                    next.board[to.index()] = Some(p);
                }
            }
            Action::Drop { kind, to } => {
                let n = &mut next.hands[me.index()][kind.index()];
                *n = n.saturating_sub(1);
                next.board[to.index()] =
                    Some(self.piece(me, kind, false, self.drop_facing[me.index()]));
            }
        }
        next.to_move = me.other();
        next.move_number = next.move_number.saturating_add(1);
        next
    }

    /// Perft: leaves of the legal-action tree (endings ignored).
    pub fn count_leaves(&self, pos: &Position, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        let actions = self.legal(pos);
        if depth == 1 {
            return actions.len() as u64;
        }
        actions
            .iter()
            .map(|a| self.count_leaves(&self.play(pos, a), depth - 1))
            .sum()
    }
}
