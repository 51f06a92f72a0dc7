//! The compact one-line position text (`SS-9.1`).
//!
//! `<placement> <side> <hands> <move number>`, for example the Klein start
//! `9/9/9/pppppppp1/...`. The placement lists each sheet (joined by `|`,
//! in the board's sheet order), each sheet's ranks from the highest down
//! (joined by `/`), each rank's files from `a`; a run of empty cells is its
//! length in digits. A piece is an optional `+` (promoted), its letter
//! (upper case for A, lower case for B) and, for a piece whose movement
//! depends on facing, `^` (up) or `v` (down) when it faces against its
//! owner's drop facing. The side is `A` or `B`; on `shogi-flat` the USI
//! letters `b` (A) and `w` (B) are also read, so a USI SFEN is accepted.
//! Hands are `-` or counted letters in the order of the variant's hand
//! kinds (R B G S N L P in the shipped files), A first.

use crate::movement::Facing;
use crate::rules::{Player, PositionError, push_count};
use crate::topology::{CellId, Square};

use super::ShogiRules;
use super::pieces::{Piece, player_letter};
use super::position::{Position, Setup};

fn err(field: impl Into<String>, message: impl Into<String>) -> PositionError {
    PositionError {
        field: field.into(),
        message: message.into(),
    }
}

impl ShogiRules {
    /// Placement, side and hands: the text without the move number.
    pub fn text_fields(&self, pos: &Position) -> String {
        format!(
            "{} {} {}",
            self.placement_text(&pos.board),
            player_letter(pos.to_move),
            self.hands_text(&pos.hands)
        )
    }

    /// The full one-line text.
    pub fn position_text(&self, pos: &Position) -> String {
        format!("{} {}", self.text_fields(pos), pos.move_number)
    }

    pub fn placement_text(&self, board: &[Option<Piece>]) -> String {
        let b = self.geo.board();
        let mut out = String::new();
        for chart in 0..b.chart_count() as u8 {
            if chart > 0 {
                out.push('|');
            }
            for y in (0..b.height()).rev() {
                if y + 1 < b.height() {
                    out.push('/');
                }
                let mut empty = 0;
                for x in 0..b.width() {
                    let c = b.cell(Square { chart, x, y });
                    match board[c.index()] {
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
        }
        out
    }

    /// One piece: `+`, letter, and a facing mark when it faces against its
    /// owner's drop facing.
    pub fn piece_text(&self, p: Piece) -> String {
        let mut s = String::new();
        self.push_piece_text(&mut s, p);
        s
    }

    /// [`ShogiRules::piece_text`], written onto `out` (position texts are
    /// made for every position of a game: they are its repetition keys).
    pub fn push_piece_text(&self, out: &mut String, p: Piece) {
        self.push_piece_letter(out, p);
        if self.has_facing(p.kind) && p.facing != self.drop_facing[p.owner.index()] {
            out.push(facing_mark(p.facing));
        }
    }

    /// `+` when promoted and the kind's letter, upper case for A: the
    /// piece without its facing mark.
    pub fn push_piece_letter(&self, out: &mut String, p: Piece) {
        if p.promoted {
            out.push('+');
        }
        let c = self.letter(p.kind);
        out.push(match p.owner {
            Player::First => c,
            Player::Second => c.to_ascii_lowercase(),
        });
    }

    /// Parses the one-line text (or, on `shogi-flat`, a USI SFEN).
    pub fn read_position(&self, text: &str) -> Result<Position, PositionError> {
        let fields: Vec<&str> = text.split_whitespace().collect();
        if fields.len() < 3 || fields.len() > 4 {
            return Err(err(
                "text",
                format!(
                    "expected '<placement> <side> <hands> [<move number>]', got {} fields in '{text}'",
                    fields.len()
                ),
            ));
        }
        let board = self.read_placement(fields[0])?;
        let to_move = match fields[1] {
            "A" => Player::First,
            "B" => Player::Second,
            "b" if self.usi_sfen => Player::First,
            "w" if self.usi_sfen => Player::Second,
            other => {
                return Err(err(
                    "side",
                    format!(
                        "'{other}' is not a side: write A or B{}",
                        if self.usi_sfen { " (or USI b / w)" } else { "" }
                    ),
                ));
            }
        };
        let hands = self.read_hands(fields[2])?;
        let move_number = match fields.get(3) {
            None => 1,
            Some(t) => t
                .parse::<u32>()
                .ok()
                .filter(|&n| n >= 1)
                .ok_or_else(|| err("move number", format!("'{t}' is not a number from 1")))?,
        };
        self.validate(Setup {
            board,
            hands,
            to_move,
            move_number,
        })
    }

    fn read_placement(&self, text: &str) -> Result<Vec<Option<Piece>>, PositionError> {
        let b = self.geo.board();
        let mut board = vec![None; b.cell_count()];
        let sheets: Vec<&str> = text.split('|').collect();
        if sheets.len() != b.chart_count() {
            return Err(err(
                "placement",
                format!(
                    "{} sheets given (separated by '|'), board {} has {}",
                    sheets.len(),
                    b.name(),
                    b.chart_count()
                ),
            ));
        }
        for (chart, sheet) in sheets.iter().enumerate() {
            let ranks: Vec<&str> = sheet.split('/').collect();
            let sheet_name = |y: u8| {
                if b.chart_count() > 1 {
                    format!("placement {}:{}", b.chart_names()[chart], y as u32 + 1)
                } else {
                    format!("placement rank {}", y as u32 + 1)
                }
            };
            if ranks.len() != b.height() as usize {
                return Err(err(
                    if b.chart_count() > 1 {
                        format!("placement sheet {}", b.chart_names()[chart])
                    } else {
                        "placement".to_string()
                    },
                    format!("{} ranks given, the board has {}", ranks.len(), b.height()),
                ));
            }
            for (ri, rank) in ranks.iter().enumerate() {
                let y = b.height() - 1 - ri as u8;
                let field = sheet_name(y);
                let mut x: usize = 0;
                let chars: Vec<char> = rank.chars().collect();
                let mut i = 0;
                while i < chars.len() {
                    let c = chars[i];
                    if c.is_ascii_digit() {
                        let start = i;
                        while i < chars.len() && chars[i].is_ascii_digit() {
                            i += 1;
                        }
                        let run: String = chars[start..i].iter().collect();
                        let n: usize = run.parse().unwrap_or(usize::MAX);
                        if n == 0 {
                            return Err(err(field, "an empty run has length at least 1"));
                        }
                        x = x.saturating_add(n);
                        if x > b.width() as usize {
                            return Err(err(
                                field,
                                format!("'{rank}' is longer than {} files", b.width()),
                            ));
                        }
                        continue;
                    }
                    let promoted = c == '+';
                    if promoted {
                        i += 1;
                    }
                    let Some(&letter) = chars.get(i) else {
                        return Err(err(field, format!("'{rank}' ends with '+'")));
                    };
                    let kind = self.kinds().by_letter(letter).ok_or_else(|| {
                        err(
                            field.clone(),
                            format!(
                                "'{letter}' is not a piece letter ({})",
                                self.kinds().letter_list()
                            ),
                        )
                    })?;
                    i += 1;
                    let owner = if letter.is_ascii_uppercase() {
                        Player::First
                    } else {
                        Player::Second
                    };
                    let mut facing = self.drop_facing[owner.index()];
                    if let Some(&m) = chars.get(i)
                        && let Some(f) = parse_mark(m)
                    {
                        if !self.has_facing(kind) {
                            return Err(err(
                                field,
                                format!(
                                    "a {} carries no facing, so it takes no '{m}' mark",
                                    self.kind_name(kind)
                                ),
                            ));
                        }
                        facing = f;
                        i += 1;
                    }
                    if x >= b.width() as usize {
                        return Err(err(
                            field,
                            format!("'{rank}' is longer than {} files", b.width()),
                        ));
                    }
                    let cell = b.cell(Square {
                        chart: chart as u8,
                        x: x as u8,
                        y,
                    });
                    board[cell.index()] = Some(Piece {
                        owner,
                        kind,
                        promoted,
                        facing,
                    });
                    x += 1;
                }
                if x != b.width() as usize {
                    return Err(err(
                        field,
                        format!("'{rank}' covers {x} files, the board has {}", b.width()),
                    ));
                }
            }
        }
        Ok(board)
    }

    /// The name of a cell.
    pub fn cell_name(&self, c: CellId) -> &str {
        self.geo.board().cell_name(c)
    }
}

pub fn facing_mark(f: Facing) -> char {
    match f {
        Facing::Up => '^',
        Facing::Down => 'v',
    }
}

pub fn parse_mark(c: char) -> Option<Facing> {
    match c {
        '^' => Some(Facing::Up),
        'v' => Some(Facing::Down),
        _ => None,
    }
}

impl ShogiRules {
    /// `-`, or counted letters in the order of the variant's hand kinds
    /// (R B G S N L P in the shipped files), A's first.
    pub fn hands_text(&self, hands: &super::position::Hands) -> String {
        let mut s = String::new();
        for p in [Player::First, Player::Second] {
            for &k in self.hand_kinds() {
                let n = hands[p.index()][k.index()];
                if n == 0 {
                    continue;
                }
                if n > 1 {
                    s += &n.to_string();
                }
                let c = self.letter(k);
                s.push(match p {
                    Player::First => c,
                    Player::Second => c.to_ascii_lowercase(),
                });
            }
        }
        if s.is_empty() { "-".into() } else { s }
    }

    fn read_hands(&self, text: &str) -> Result<super::position::Hands, PositionError> {
        let mut hands = super::position::NO_HANDS;
        if text == "-" {
            return Ok(hands);
        }
        let chars: Vec<char> = text.chars().collect();
        let mut i = 0;
        while i < chars.len() {
            let start = i;
            while i < chars.len() && chars[i].is_ascii_digit() {
                i += 1;
            }
            let count: u32 = if i > start {
                let run: String = chars[start..i].iter().collect();
                run.parse()
                    .ok()
                    .filter(|&n| (1..=255).contains(&n))
                    .ok_or_else(|| err("hand", format!("count '{run}' is not 1–255")))?
            } else {
                1
            };
            let Some(&letter) = chars.get(i) else {
                return Err(err("hand", format!("'{text}' ends with a count")));
            };
            let kind = self
                .kinds()
                .by_letter(letter)
                .ok_or_else(|| err("hand", format!("'{letter}' is not a piece letter")))?;
            if self.is_royal(kind) {
                return Err(err(
                    "hand",
                    format!("a {} is never in hand", self.kind_name(kind)),
                ));
            }
            let owner = if letter.is_ascii_uppercase() {
                Player::First
            } else {
                Player::Second
            };
            let slot = &mut hands[owner.index()][kind.index()];
            *slot = (*slot as u32 + count)
                .try_into()
                .map_err(|_| err("hand", format!("too many '{letter}' in hand")))?;
            i += 1;
        }
        Ok(hands)
    }
}
