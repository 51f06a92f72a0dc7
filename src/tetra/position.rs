//! Positions: the validated [`Position`], the open [`Setup`] it is built
//! from, and the one-line position text (clause TS-7.3).
//!
//! A [`Setup`] has public fields and may say anything; turning it into a
//! [`Position`] checks it against the variant and names the offending
//! field or cell in a [`SetupError`].

use std::collections::BTreeMap;

use crate::rules::roster::MAX_KINDS;
use crate::rules::{Player, PositionError, push_count};
use crate::topology::CellId;

use super::TetraRules;
use super::pieces::{Kind, Piece};

/// A legal-looking position of one variant: every piece on a cell, both
/// hands, the side to move, and (cached) each royal piece's cell.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub struct Position {
    pub(crate) board: Vec<Option<Piece>>,
    /// `hands[player][kind]`, indexed by hand class; the places past the
    /// variant's kinds stay 0. Fixed size, as many as any variant has
    /// kinds: make and unmake touch it on every capture and drop.
    pub(crate) hands: [[u8; MAX_KINDS]; 2],
    pub(crate) to_move: Player,
    pub(crate) royals: [CellId; 2],
}

impl Position {
    pub fn piece_at(&self, c: CellId) -> Option<Piece> {
        self.board.get(c.index()).copied().flatten()
    }
    /// How many of `kind`'s hand class the player holds.
    pub fn in_hand(&self, player: Player, kind: Kind) -> u8 {
        self.hands[player.index()]
            .get(kind.index())
            .copied()
            .unwrap_or(0)
    }
    pub fn to_move(&self) -> Player {
        self.to_move
    }
    /// The cell of the player's royal piece.
    pub fn royal(&self, player: Player) -> CellId {
        self.royals[player.index()]
    }
    /// Every piece on the board with its cell.
    pub fn pieces(&self) -> impl Iterator<Item = (CellId, Piece)> + '_ {
        self.board
            .iter()
            .enumerate()
            .filter_map(|(i, p)| p.map(|p| (CellId(i as u16), p)))
    }
}

/// A position as plain data, before validation.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Setup {
    /// (cell name, piece) pairs, e.g. `("e1.1", White king)`.
    pub board: Vec<(String, Piece)>,
    /// Pieces in hand per player (`[first, second]`), by kind; a switching
    /// pair may be listed under either kind.
    pub hands: [BTreeMap<Kind, u8>; 2],
    pub to_move: Option<Player>,
}

/// A setup that is not a position of the variant.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SetupError {
    #[error("'{cell}' is not a cell: {reason}")]
    BadCell { cell: String, reason: String },
    #[error("{cell} holds two pieces")]
    TwoPieces { cell: String },
    #[error("{cell}: {variant} has no {kind}")]
    NotInArmy {
        cell: String,
        kind: String,
        variant: String,
    },
    #[error("{cell}: a {kind} does not promote in this variant")]
    NotPromotable { cell: String, kind: String },
    #[error("{cell}: an unpromoted {kind} could never move from here")]
    Immobile { cell: String, kind: String },
    #[error("{} has {count} royal pieces on the board; exactly one is needed", super::player_name(*.player))]
    Royals { player: Player, count: usize },
    #[error("{}'s hand: {kind} cannot be held in hand in this variant", super::player_name(*.player))]
    BadHand { player: Player, kind: String },
    #[error("{have} {kind} pieces on the board and in hand; the game has {set} (TS-I10)")]
    TooMany { kind: String, have: u32, set: u32 },
    #[error("the side to move is missing")]
    NoSideToMove,
    #[error("the side not to move ({}) is in check", super::player_name(*.player))]
    OpponentInCheck { player: Player },
}

impl SetupError {
    /// The part of a position text the error is about.
    pub fn field(&self) -> String {
        match self {
            SetupError::BadCell { cell, .. }
            | SetupError::TwoPieces { cell }
            | SetupError::NotInArmy { cell, .. }
            | SetupError::NotPromotable { cell, .. }
            | SetupError::Immobile { cell, .. } => format!("placement {cell}"),
            SetupError::Royals { .. } | SetupError::OpponentInCheck { .. } => "placement".into(),
            SetupError::BadHand { .. } | SetupError::TooMany { .. } => "hand".into(),
            SetupError::NoSideToMove => "side".into(),
        }
    }
}

impl From<SetupError> for PositionError {
    fn from(e: SetupError) -> PositionError {
        PositionError {
            field: e.field(),
            message: e.to_string(),
        }
    }
}

fn perr(field: impl Into<String>, message: impl Into<String>) -> PositionError {
    PositionError {
        field: field.into(),
        message: message.into(),
    }
}

impl TetraRules {
    /// Non-royal pieces on the board and in both hands, by hand class (a
    /// captured piece enters the hand as its class).
    pub(super) fn piece_counts(&self, pos: &Position) -> [u32; MAX_KINDS] {
        let mut counts = [0u32; MAX_KINDS];
        for (_, p) in pos.pieces() {
            if p.kind != self.data.royal {
                counts[self.data.hand_class(p.kind).index()] += 1;
            }
        }
        for hand in &pos.hands {
            for (i, &n) in hand.iter().enumerate() {
                counts[i] += u32::from(n);
            }
        }
        counts
    }

    /// TS-I10: no class outnumbers the game's set, since play only moves
    /// pieces between the board and the hands.
    fn check_piece_set(&self, pos: &Position) -> Result<(), SetupError> {
        let Some(set) = self.piece_set else {
            return Ok(());
        };
        let have = self.piece_counts(pos);
        match self
            .data
            .kinds
            .iter()
            .find(|k| have[k.index()] > set[k.index()])
        {
            Some(&k) => Err(SetupError::TooMany {
                kind: self.data.kind_name(k),
                have: have[k.index()],
                set: set[k.index()],
            }),
            None => Ok(()),
        }
    }

    /// Validates a setup (TS-7.3): cells exist and hold one piece each, every
    /// kind belongs to the army, only promotable kinds are promoted, no
    /// unpromoted piece stands where it could never move, each player has
    /// exactly one royal piece on the board and none in hand, and the player
    /// who just moved is not in check.
    pub fn position(&self, s: &Setup) -> Result<Position, SetupError> {
        let d = &self.data;
        let mut board = vec![None; self.board.cell_count()];
        let mut royals: [Vec<CellId>; 2] = [vec![], vec![]];
        for (name, p) in &s.board {
            let c = self
                .board
                .parse_cell(name)
                .map_err(|e| SetupError::BadCell {
                    cell: name.clone(),
                    reason: e.reason,
                })?;
            if !d.has(p.kind) {
                return Err(SetupError::NotInArmy {
                    cell: name.clone(),
                    kind: d.kind_name(p.kind),
                    variant: d.name.clone(),
                });
            }
            if p.promoted && d.promotes_to[p.kind.index()].is_none() {
                return Err(SetupError::NotPromotable {
                    cell: name.clone(),
                    kind: d.kind_name(p.kind),
                });
            }
            if !p.promoted && self.t.is_immobile(p.owner, p.kind, c) {
                return Err(SetupError::Immobile {
                    cell: name.clone(),
                    kind: d.kind_name(p.kind),
                });
            }
            if board[c.index()].replace(*p).is_some() {
                return Err(SetupError::TwoPieces { cell: name.clone() });
            }
            if p.kind == d.royal {
                royals[p.owner.index()].push(c);
            }
        }
        let mut found = [CellId(0); 2];
        for p in [Player::First, Player::Second] {
            match royals[p.index()].as_slice() {
                [c] => found[p.index()] = *c,
                other => {
                    return Err(SetupError::Royals {
                        player: p,
                        count: other.len(),
                    });
                }
            }
        }
        let mut hands = [[0u8; MAX_KINDS]; 2];
        for p in [Player::First, Player::Second] {
            for (&k, &n) in &s.hands[p.index()] {
                if n == 0 {
                    continue;
                }
                if k == d.royal || !d.has(k) {
                    return Err(SetupError::BadHand {
                        player: p,
                        kind: d.kind_name(k),
                    });
                }
                let slot = &mut hands[p.index()][d.hand_class(k).index()];
                *slot = slot.saturating_add(n);
            }
        }
        let to_move = s.to_move.ok_or(SetupError::NoSideToMove)?;
        let pos = Position {
            board,
            hands,
            to_move,
            royals: found,
        };
        self.check_piece_set(&pos)?;
        let waiting = to_move.other();
        if self.t.attacked(&pos, pos.royals[waiting.index()], to_move) {
            return Err(SetupError::OpponentInCheck { player: waiting });
        }
        Ok(pos)
    }

    /// The setup a position was built from (canonical: board order, hand
    /// classes).
    pub fn setup(&self, pos: &Position) -> Setup {
        let mut hands: [BTreeMap<Kind, u8>; 2] = Default::default();
        for p in [Player::First, Player::Second] {
            for &k in &self.data.kinds {
                let n = pos.hands[p.index()][k.index()];
                if n > 0 {
                    hands[p.index()].insert(k, n);
                }
            }
        }
        Setup {
            board: pos
                .pieces()
                .map(|(c, p)| (self.board.cell_name(c).to_string(), p))
                .collect(),
            hands,
            to_move: Some(pos.to_move),
        }
    }

    pub(super) fn piece_text(&self, p: Piece) -> String {
        let mut s = String::new();
        self.push_piece_text(&mut s, p);
        s
    }

    /// [`TetraRules::piece_text`], written onto `out`.
    pub(crate) fn push_piece_text(&self, out: &mut String, p: Piece) {
        let l = self.data.letter_of(p.kind);
        if p.promoted {
            out.push('+');
        }
        out.push(match p.owner {
            Player::First => l,
            Player::Second => l.to_ascii_lowercase(),
        });
    }

    /// The position text: ranks 1 to n separated by `/`, each rank's cells
    /// in file-then-level order with runs of empty cells as numbers; then
    /// `w` or `b`; then the hands (`-` if both are empty), White's in upper
    /// case then Black's in lower case, each as optional count and letter.
    pub fn position_text(&self, pos: &Position) -> String {
        let mut out = String::new();
        for (r, cells) in self.t.rank_cells.iter().enumerate() {
            if r > 0 {
                out.push('/');
            }
            let mut empty = 0;
            for &c in cells {
                match pos.board[c.index()] {
                    None => empty += 1,
                    Some(p) => {
                        push_count(&mut out, empty);
                        empty = 0;
                        self.push_piece_text(&mut out, p);
                    }
                }
            }
            push_count(&mut out, empty);
        }
        out.push(' ');
        out.push(match pos.to_move {
            Player::First => 'w',
            Player::Second => 'b',
        });
        out.push(' ');
        let before = out.len();
        for p in [Player::First, Player::Second] {
            for &k in &self.data.kinds {
                let n = pos.hands[p.index()][k.index()];
                if n == 0 {
                    continue;
                }
                if n > 1 {
                    push_count(&mut out, n as usize);
                }
                let l = self.data.letter_of(k);
                out.push(match p {
                    Player::First => l,
                    Player::Second => l.to_ascii_lowercase(),
                });
            }
        }
        if out.len() == before {
            out.push('-');
        }
        out
    }

    /// Parses a position text into a setup (no validation beyond syntax).
    pub fn parse_setup(&self, text: &str) -> Result<Setup, PositionError> {
        let parts: Vec<&str> = text.split_whitespace().collect();
        let [placement, side, hand] = parts.as_slice() else {
            return Err(perr(
                "text",
                format!(
                    "a position is placement, side and hand separated by spaces; found {} parts",
                    parts.len()
                ),
            ));
        };
        let ranks: Vec<&str> = placement.split('/').collect();
        if ranks.len() != self.t.rank_cells.len() {
            return Err(perr(
                "placement",
                format!(
                    "{} ranks separated by '/' are needed, found {}",
                    self.t.rank_cells.len(),
                    ranks.len()
                ),
            ));
        }
        let mut setup = Setup::default();
        for (r, text) in ranks.iter().enumerate() {
            let field = format!("rank {}", r + 1);
            let cells = &self.t.rank_cells[r];
            let mut i = 0usize;
            let mut chars = text.chars().peekable();
            while let Some(ch) = chars.next() {
                if ch.is_ascii_digit() {
                    let mut n = ch.to_digit(10).unwrap_or(0) as usize;
                    while let Some(d) = chars.peek().and_then(|c| c.to_digit(10)) {
                        n = n.saturating_mul(10).saturating_add(d as usize);
                        chars.next();
                    }
                    if n == 0 {
                        return Err(perr(field, "a run of empty cells is at least 1"));
                    }
                    i = i.saturating_add(n);
                    continue;
                }
                let promoted = ch == '+';
                let l = if promoted {
                    chars
                        .next()
                        .ok_or_else(|| perr(&field, "'+' must be followed by a piece letter"))?
                } else {
                    ch
                };
                let kind = self
                    .data
                    .kind_of_letter(l)
                    .filter(|_| l.is_ascii_alphabetic())
                    .ok_or_else(|| perr(&field, format!("'{l}' is not a piece letter here")))?;
                let owner = if l.is_ascii_uppercase() {
                    Player::First
                } else {
                    Player::Second
                };
                let Some(&c) = cells.get(i) else {
                    return Err(perr(
                        field,
                        format!("more than the rank's {} cells are described", cells.len()),
                    ));
                };
                setup.board.push((
                    self.board.cell_name(c).to_string(),
                    Piece {
                        owner,
                        kind,
                        promoted,
                    },
                ));
                i += 1;
            }
            if i != cells.len() {
                return Err(perr(
                    field,
                    format!("the rank has {} cells, {} are described", cells.len(), i),
                ));
            }
        }
        setup.to_move = Some(match *side {
            "w" => Player::First,
            "b" => Player::Second,
            other => return Err(perr("side", format!("'{other}' is not 'w' or 'b'"))),
        });
        if *hand != "-" {
            let mut chars = hand.chars().peekable();
            while let Some(ch) = chars.next() {
                let mut n: u32 = 1;
                let mut l = ch;
                if ch.is_ascii_digit() {
                    n = ch.to_digit(10).unwrap_or(0);
                    while let Some(d) = chars.peek().and_then(|c| c.to_digit(10)) {
                        n = n.saturating_mul(10).saturating_add(d);
                        chars.next();
                    }
                    l = chars
                        .next()
                        .ok_or_else(|| perr("hand", "a count must be followed by a letter"))?;
                }
                if n == 0 || n > u8::MAX as u32 {
                    return Err(perr("hand", format!("count {n} is not 1–255")));
                }
                let kind = self
                    .data
                    .kind_of_letter(l)
                    .filter(|_| l.is_ascii_alphabetic())
                    .ok_or_else(|| perr("hand", format!("'{l}' is not a piece letter here")))?;
                let p = if l.is_ascii_uppercase() {
                    Player::First
                } else {
                    Player::Second
                };
                let slot = setup.hands[p.index()].entry(kind).or_insert(0);
                *slot = slot.saturating_add(n as u8);
            }
        }
        Ok(setup)
    }
}
