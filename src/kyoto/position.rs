//! Kyoto positions and their text, which is the exchange FEN.
//!
//! The text is `<placement>[<hand>] <side> [- -] <halfmoves> <move>`:
//! ranks from 5 down to 1 joined by `/`, files a–e, digits for runs of empty
//! cells, upper case for the first player. A face is its token's base
//! letter or `+` and the base letter, as the variant's faces say (KY-1.4:
//! `+L` tokin, `+S` bishop, `+N` gold, `+P` rook in the shipped files), the
//! king its own letter. The hand lists tokens by base letter (`[Pn]`), the
//! side is `w` (first) or `b`. The two `-` placeholders are optional on
//! input and always printed, so positions pass unchanged between this
//! engine and others using the form. Reading and writing need the faces,
//! so both are methods of [`KyotoRules`].

use std::fmt::Write;

use crate::rules::{Player, PositionError};

use super::KyotoRules;
use super::pieces::{MAX_TOKENS, Piece};

/// Cells per side of the board.
pub const SIZE: usize = 5;

/// Tokens in hand: `hands[player][token.index()]`.
pub type Hands = [[u8; MAX_TOKENS]; 2];

/// Both hands empty.
pub const NO_HANDS: Hands = [[0; MAX_TOKENS]; 2];

/// A Kyoto position. Counters are kept for the text but never enter the key.
#[derive(Clone, Eq, PartialEq, Hash, Debug)]
pub struct Position {
    /// `board[y * 5 + x]`, rank 1 first.
    pub board: [Option<Piece>; SIZE * SIZE],
    /// Tokens in hand per player, indexed by
    /// [`Token::index`](super::pieces::Token::index); a variant's tokens
    /// are the first places.
    pub hands: Hands,
    pub to_move: Player,
    /// Halfmove and move counters, carried through the text.
    pub halfmoves: u32,
    pub move_number: u32,
}

fn err(field: &str, message: impl Into<String>) -> PositionError {
    PositionError {
        field: field.to_string(),
        message: message.into(),
    }
}

impl Position {
    /// Tokens on the board and in both hands, kings included.
    pub fn token_count(&self) -> usize {
        self.board.iter().flatten().count()
            + self
                .hands
                .iter()
                .flatten()
                .map(|&n| n as usize)
                .sum::<usize>()
    }
}

impl KyotoRules {
    /// How many of each token (by its index) are on the board or in either
    /// hand, whatever face they show.
    pub fn tokens_by_kind(&self, pos: &Position) -> [usize; MAX_TOKENS] {
        let mut n = [0; MAX_TOKENS];
        for piece in pos.board.iter().flatten() {
            if let Some(t) = self.faces.token(piece.face) {
                n[t.index()] += 1;
            }
        }
        for hand in &pos.hands {
            for (count, &k) in n.iter_mut().zip(hand) {
                *count += k as usize;
            }
        }
        n
    }

    /// The position text (exchange FEN), written in one string: texts are
    /// the repetition keys of every position of a game.
    pub fn position_text(&self, pos: &Position) -> String {
        let mut out = String::with_capacity(48);
        for y in (0..SIZE).rev() {
            if y + 1 < SIZE {
                out.push('/');
            }
            let mut empty = 0u8;
            for x in 0..SIZE {
                match pos.board[y * SIZE + x] {
                    None => empty += 1,
                    Some(p) => {
                        if empty > 0 {
                            out.push(char::from(b'0' + empty));
                            empty = 0;
                        }
                        self.faces.push_text(&mut out, p);
                    }
                }
            }
            if empty > 0 {
                out.push(char::from(b'0' + empty));
            }
        }
        out.push('[');
        for p in [Player::First, Player::Second] {
            for t in self.faces.tokens() {
                let c = self.faces.base_letter(t);
                let c = match p {
                    Player::First => c,
                    Player::Second => c.to_ascii_lowercase(),
                };
                for _ in 0..pos.hands[p.index()][t.index()] {
                    out.push(c);
                }
            }
        }
        let side = match pos.to_move {
            Player::First => 'w',
            Player::Second => 'b',
        };
        // Writing to a String cannot fail.
        let _ = write!(out, "] {side} - - {} {}", pos.halfmoves, pos.move_number);
        out
    }

    /// Reads a position text; errors name the field and place. A letter of
    /// no face of the variant is read by the grammar (NT-I9) and refused
    /// here, in the field it stands in.
    pub fn read_text(&self, text: &str) -> Result<Position, PositionError> {
        let (placement, rest) = text.split_once('[').ok_or_else(|| {
            err(
                "hand",
                "expected '[hand]' after the placement, as in '…[-] w 0 1'",
            )
        })?;
        let (hand, rest) = rest
            .split_once(']')
            .ok_or_else(|| err("hand", "the hand has no closing ']'"))?;
        let mut pos = Position {
            board: [None; SIZE * SIZE],
            hands: NO_HANDS,
            to_move: Player::First,
            halfmoves: 0,
            move_number: 1,
        };
        let rows: Vec<&str> = placement.split('/').collect();
        if rows.len() != SIZE {
            return Err(err(
                "placement",
                format!("{} ranks; the board has {SIZE}", rows.len()),
            ));
        }
        for (i, row) in rows.iter().enumerate() {
            let y = SIZE - 1 - i;
            let field = format!("rank {}", y + 1);
            let mut x = 0;
            let mut plus = false;
            for c in row.chars() {
                if let Some(d) = c.to_digit(10) {
                    if plus {
                        return Err(err(&field, "'+' must precede a letter"));
                    }
                    x += d as usize;
                    continue;
                }
                if c == '+' {
                    plus = true;
                    continue;
                }
                let face = self
                    .faces
                    .from_text(plus, c.to_ascii_uppercase())
                    .ok_or_else(|| {
                        err(
                            &field,
                            format!(
                                "'{}{c}' is not a face of {}",
                                if plus { "+" } else { "" },
                                self.name
                            ),
                        )
                    })?;
                plus = false;
                if x >= SIZE {
                    return Err(err(&field, format!("more than {SIZE} cells")));
                }
                let owner = if c.is_ascii_uppercase() {
                    Player::First
                } else {
                    Player::Second
                };
                pos.board[y * SIZE + x] = Some(Piece { owner, face });
                x += 1;
            }
            if plus {
                return Err(err(&field, "a trailing '+' has no letter"));
            }
            if x != SIZE {
                return Err(err(&field, format!("{x} cells; a rank has {SIZE}")));
            }
        }
        for c in hand.chars().filter(|c| *c != '-') {
            let token = self
                .faces
                .token_by_base(c.to_ascii_uppercase())
                .ok_or_else(|| {
                    err(
                        "hand",
                        format!("'{c}' is not a token letter ({})", self.faces.base_list()),
                    )
                })?;
            let owner = if c.is_ascii_uppercase() {
                Player::First
            } else {
                Player::Second
            };
            // Counted without overflow: the rules check in `KyotoRules`
            // then refuses more tokens than the game has.
            let slot = &mut pos.hands[owner.index()][token.index()];
            *slot = slot.checked_add(1).ok_or_else(|| {
                err(
                    "hand",
                    format!("more than 255 '{}' in hand", self.faces.base_letter(token)),
                )
            })?;
        }
        let fields: Vec<&str> = rest.split_whitespace().collect();
        let side = fields
            .first()
            .ok_or_else(|| err("side", "missing the side to move (w or b)"))?;
        pos.to_move = match *side {
            "w" => Player::First,
            "b" => Player::Second,
            other => return Err(err("side", format!("'{other}' is not w or b"))),
        };
        // Optional placeholders, then optional counters.
        let counters: Vec<&str> = fields[1..].iter().copied().filter(|f| *f != "-").collect();
        let number = |s: &str, field: &str| {
            s.parse::<u32>()
                .map_err(|_| err(field, format!("'{s}' is not a number")))
        };
        match counters.as_slice() {
            [] => {}
            [h, m] => {
                pos.halfmoves = number(h, "halfmoves")?;
                pos.move_number = number(m, "move number")?;
            }
            other => {
                return Err(err(
                    "counters",
                    format!("expected a halfmove count and a move number, found {other:?}"),
                ));
            }
        }
        for p in [Player::First, Player::Second] {
            let kings = pos
                .board
                .iter()
                .flatten()
                .filter(|q| q.owner == p && self.faces.is_royal(q.face))
                .count();
            if kings != 1 {
                return Err(err(
                    "placement",
                    format!(
                        "the {} player has {kings} kings; a position has exactly one each",
                        if p == Player::First {
                            "first"
                        } else {
                            "second"
                        }
                    ),
                ));
            }
        }
        Ok(pos)
    }
}
