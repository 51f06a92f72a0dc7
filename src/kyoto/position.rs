//! Kyoto positions and their text, which is the exchange FEN.
//!
//! The text is `<placement>[<hand>] <side> [- -] <halfmoves> <move>`:
//! ranks from 5 down to 1 joined by `/`, files a–e, digits for runs of empty
//! cells, upper case for the first player. A face is its base letter or `+`
//! and the base letter (`+L` tokin, `+S` bishop, `+N` gold, `+P` rook). The
//! hand lists tokens by base letter (`[Pn]`), the side is `w` (first) or `b`.
//! The two `-` placeholders are optional on input and always printed, so
//! positions pass unchanged between this engine and others using the form.

use crate::rules::{Player, PositionError};

use super::pieces::{Face, Piece, Token};

/// Cells per side of the board.
pub const SIZE: usize = 5;

/// A Kyoto position. Counters are kept for the text but never enter the key.
#[derive(Clone, Eq, PartialEq, Hash, Debug)]
pub struct Position {
    /// `board[y * 5 + x]`, rank 1 first.
    pub board: [Option<Piece>; SIZE * SIZE],
    /// Tokens in hand per player, indexed by [`Token::index`].
    pub hands: [[u8; 4]; 2],
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
    pub fn king(&self, p: Player) -> Option<usize> {
        self.board
            .iter()
            .position(|c| matches!(c, Some(Piece { owner, face: Face::King }) if *owner == p))
    }

    /// How many of each token (by [`Token::index`]) are on the board or in
    /// either hand, whatever face they show.
    pub fn tokens_by_kind(&self) -> [usize; 4] {
        let mut n = [0; 4];
        for piece in self.board.iter().flatten() {
            if let Some(t) = piece.face.token() {
                n[t.index()] += 1;
            }
        }
        for hand in &self.hands {
            for (i, &k) in hand.iter().enumerate() {
                n[i] += k as usize;
            }
        }
        n
    }

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

    /// The position text (exchange FEN).
    pub fn text(&self) -> String {
        let mut rows = Vec::new();
        for y in (0..SIZE).rev() {
            let mut row = String::new();
            let mut empty = 0;
            for x in 0..SIZE {
                match self.board[y * SIZE + x] {
                    None => empty += 1,
                    Some(p) => {
                        if empty > 0 {
                            row.push_str(&empty.to_string());
                            empty = 0;
                        }
                        row.push_str(&p.text());
                    }
                }
            }
            if empty > 0 {
                row.push_str(&empty.to_string());
            }
            rows.push(row);
        }
        let mut hand = String::new();
        for p in [Player::First, Player::Second] {
            for t in Token::ALL {
                for _ in 0..self.hands[p.index()][t.index()] {
                    let c = t.hand_letter();
                    hand.push(if p == Player::First {
                        c
                    } else {
                        c.to_ascii_lowercase()
                    });
                }
            }
        }
        let side = if self.to_move == Player::First {
            'w'
        } else {
            'b'
        };
        format!(
            "{}[{}] {side} - - {} {}",
            rows.join("/"),
            hand,
            self.halfmoves,
            self.move_number
        )
    }

    /// Reads a position text; errors name the field and place.
    pub fn parse(text: &str) -> Result<Position, PositionError> {
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
            hands: [[0; 4]; 2],
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
                let face = Face::from_fen(plus, c.to_ascii_uppercase()).ok_or_else(|| {
                    err(
                        &field,
                        format!("'{}{c}' is not a Kyoto face", if plus { "+" } else { "" }),
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
            let token = Token::ALL
                .into_iter()
                .find(|t| t.hand_letter() == c.to_ascii_uppercase())
                .ok_or_else(|| err("hand", format!("'{c}' is not a token letter (L S N P)")))?;
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
                    format!("more than 255 '{}' in hand", token.hand_letter()),
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
                .filter(|q| q.owner == p && q.face == Face::King)
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
