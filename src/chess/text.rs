//! The one-line position text and the long coordinate notation (SC-9).
//!
//! Position text has six space-separated fields, extending FEN:
//! `placement side castling en-passant halfmove move`.
//!
//! - placement: ranks from the top of each chart, `/` between ranks, `|`
//!   between charts (in the board's chart order). Letters KQRBNP for White,
//!   kqrbnp for Black, a decimal number for a run of empty cells. A pawn
//!   may carry marks: `^` or `v` when it faces up or down against its
//!   owner's home facing, `+` or `-` when its unused-double-step flag differs
//!   from the default (set exactly on the owner's initial pawn cells when
//!   the pawn has its home facing).
//! - side: `w` or `b`.
//! - castling: `-` or letters from `KQkq` (K/k east, Q/q west).
//! - en passant: `-`, or the trace `source-middle-destination` followed by
//!   the pawn's facing mark `^`/`v`; the standard-FEN variant (the flat
//!   control) writes and reads the middle cell alone.
//! - halfmove: consecutive halfmoves without pawn move or capture.
//! - move: the FEN move number (ply = 2·(n−1) + 1 if Black is to move); when
//!   the ply's parity disagrees with the side (exchanged or edited
//!   positions) it is written `p<ply>`. The last two fields are optional
//!   when reading (0 and 1).
//!
//! Notation: `from-to` with board cell names, `=Q` for a promotion choice,
//! a facing mark `^`/`v` after the destination when two legal routes differ
//! only in the pawn's final facing; castling `O-O-east`/`O-O-west`, on the
//! flat control `O-O`/`O-O-O` (the king's `e1-g1` is also read).

use super::ChessRules;
use super::movegen::{Action, Special};
use super::pieces::{Piece, Side, home_facing};
use super::position::{CastlingRights, Position, Setup, Trace};
use crate::movement::Facing;
use crate::rules::{ActionError, IllegalReason, Player, PositionError, push_count};
use crate::topology::{CellId, Dir, Square};

fn perr(field: impl Into<String>, message: impl Into<String>) -> PositionError {
    PositionError {
        field: field.into(),
        message: message.into(),
    }
}

fn aerr(code: IllegalReason, message: impl Into<String>) -> ActionError {
    ActionError {
        code,
        message: message.into(),
    }
}

fn facing_mark(f: Facing) -> char {
    match f {
        Facing::Up => '^',
        Facing::Down => 'v',
    }
}

impl ChessRules {
    /// The flag a pawn has by default on `c`: set on its owner's initial
    /// pawn cells when it has its home facing.
    fn default_flag(&self, c: CellId, p: Piece) -> bool {
        p.facing == home_facing(p.owner)
            && self.start.board[c.index()]
                .is_some_and(|s| self.is_pawn(s.kind) && s.owner == p.owner)
    }

    pub fn placement_text(&self, pos: &Position) -> String {
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
                    match pos.board[c.index()] {
                        None => empty += 1,
                        Some(p) => {
                            push_count(&mut out, empty);
                            empty = 0;
                            out.push(self.piece_letter(p));
                            if self.is_pawn(p.kind) {
                                if p.facing != home_facing(p.owner) {
                                    out.push(facing_mark(p.facing));
                                }
                                let d = self.default_flag(c, p);
                                if p.double_step != d {
                                    out.push(if p.double_step { '+' } else { '-' });
                                }
                            }
                        }
                    }
                }
                push_count(&mut out, empty);
            }
        }
        out
    }

    pub(crate) fn side_text(&self, pos: &Position) -> &'static str {
        match pos.to_move {
            Player::First => "w",
            Player::Second => "b",
        }
    }

    pub(crate) fn castling_text(&self, pos: &Position) -> String {
        let mut s = String::new();
        for (p, side, c) in [
            (Player::First, Side::East, 'K'),
            (Player::First, Side::West, 'Q'),
            (Player::Second, Side::East, 'k'),
            (Player::Second, Side::West, 'q'),
        ] {
            if pos.castling.get(p, side) {
                s.push(c);
            }
        }
        if s.is_empty() { "-".into() } else { s }
    }

    /// The rights SC-7.1 lists beside the placement, for game records.
    pub(crate) fn position_rights(&self, pos: &Position) -> crate::rules::Rights {
        let b = self.geo.board();
        let mut double_step: Vec<String> = pos
            .board
            .iter()
            .enumerate()
            .filter(|(_, p)| p.is_some_and(|p| p.double_step))
            .map(|(i, _)| b.cell_name(CellId(i as u16)).to_string())
            .collect();
        double_step.sort();
        crate::rules::Rights {
            castling: Some(self.castling_text(pos)),
            en_passant: pos.en_passant.map(|_| self.ep_text(pos)),
            double_step: Some(double_step),
            halfmove_clock: Some(pos.halfmove),
        }
    }

    fn ep_text(&self, pos: &Position) -> String {
        let b = self.geo.board();
        match pos.en_passant {
            None => "-".into(),
            Some(t) if self.data.standard_fen => b.cell_name(t.middle).to_string(),
            Some(t) => format!(
                "{}-{}-{}{}",
                b.cell_name(t.source),
                b.cell_name(t.middle),
                b.cell_name(t.destination),
                facing_mark(t.facing)
            ),
        }
    }

    pub fn position_text(&self, pos: &Position) -> String {
        let mv = if pos.ply % 2 == pos.to_move.index() as u32 {
            (pos.ply / 2 + 1).to_string()
        } else {
            format!("p{}", pos.ply)
        };
        format!(
            "{} {} {} {} {} {}",
            self.placement_text(pos),
            self.side_text(pos),
            self.castling_text(pos),
            self.ep_text(pos),
            pos.halfmove,
            mv
        )
    }

    fn read_placement(&self, text: &str) -> Result<Vec<Option<Piece>>, PositionError> {
        let b = self.geo.board();
        let mut cells = vec![None; b.cell_count()];
        let charts: Vec<&str> = text.split('|').collect();
        if charts.len() != b.chart_count() {
            return Err(perr(
                "placement",
                format!(
                    "{} chart(s) separated by '|' expected, found {}",
                    b.chart_count(),
                    charts.len()
                ),
            ));
        }
        for (ci, chart_text) in charts.iter().enumerate() {
            let ranks: Vec<&str> = chart_text.split('/').collect();
            let chart_label = if b.chart_count() > 1 {
                format!("chart {} ", b.chart_names()[ci])
            } else {
                String::new()
            };
            if ranks.len() != b.height() as usize {
                return Err(perr(
                    "placement",
                    format!(
                        "{chart_label}has {} ranks separated by '/', expected {}",
                        ranks.len(),
                        b.height()
                    ),
                ));
            }
            for (ri, rank_text) in ranks.iter().enumerate() {
                let y = b.height() - 1 - ri as u8;
                let place = format!("placement {chart_label}rank {}", y + 1);
                let mut x: usize = 0;
                let chars: Vec<char> = rank_text.chars().collect();
                let mut i = 0;
                while i < chars.len() {
                    let ch = chars[i];
                    if ch.is_ascii_digit() {
                        let start = i;
                        while i < chars.len() && chars[i].is_ascii_digit() {
                            i += 1;
                        }
                        let run: String = chars[start..i].iter().collect();
                        let n: usize = run
                            .parse()
                            .map_err(|_| perr(&place, format!("bad empty run '{run}'")))?;
                        if n == 0 {
                            return Err(perr(&place, "an empty run of 0 cells"));
                        }
                        x = x.saturating_add(n);
                        if x > b.width() as usize {
                            return Err(perr(&place, format!("more than {} files", b.width())));
                        }
                        continue;
                    }
                    let kind = self.kinds().by_letter(ch).ok_or_else(|| {
                        perr(
                            &place,
                            format!(
                                "'{ch}' is not a piece letter ({}), digit or pawn mark",
                                self.kinds().letter_list()
                            ),
                        )
                    })?;
                    let owner = if ch.is_ascii_uppercase() {
                        Player::First
                    } else {
                        Player::Second
                    };
                    i += 1;
                    if x >= b.width() as usize {
                        return Err(perr(&place, format!("more than {} files", b.width())));
                    }
                    let c = b.cell(Square {
                        chart: ci as u8,
                        x: x as u8,
                        y,
                    });
                    let mut facing = None;
                    let mut flag = None;
                    while i < chars.len() && matches!(chars[i], '^' | 'v' | '+' | '-') {
                        let m = chars[i];
                        if !self.is_pawn(kind) {
                            return Err(perr(
                                &place,
                                format!("mark '{m}' after a non-pawn on {}", b.cell_name(c)),
                            ));
                        }
                        let slot_taken = match m {
                            '^' | 'v' => facing
                                .replace(if m == '^' { Facing::Up } else { Facing::Down })
                                .is_some(),
                            _ => flag.replace(m == '+').is_some(),
                        };
                        if slot_taken {
                            return Err(perr(
                                &place,
                                format!("repeated pawn mark '{m}' on {}", b.cell_name(c)),
                            ));
                        }
                        i += 1;
                    }
                    let facing = facing.unwrap_or(home_facing(owner));
                    let mut p = self.piece(owner, kind, facing, false);
                    if self.is_pawn(kind) {
                        p.double_step = flag.unwrap_or_else(|| self.default_flag(c, p));
                    }
                    cells[c.index()] = Some(p);
                    x += 1;
                }
                if x != b.width() as usize {
                    return Err(perr(
                        &place,
                        format!("describes {x} files, expected {}", b.width()),
                    ));
                }
            }
        }
        Ok(cells)
    }

    fn read_trace(&self, text: &str, to_move: Player) -> Result<Option<Trace>, PositionError> {
        if text == "-" {
            return Ok(None);
        }
        let b = self.geo.board();
        let owner = to_move.other();
        let cell = |t: &str| {
            b.parse_cell(t)
                .map_err(|e| perr("en-passant", e.to_string()))
        };
        let parts: Vec<&str> = text.split('-').collect();
        match parts.as_slice() {
            [middle] if self.data.standard_fen => {
                let middle = cell(middle)?;
                let facing = home_facing(owner);
                let (Some(dest), Some(src)) = (
                    self.geo.step(middle, facing.absolute(Dir::N)),
                    self.geo.step(middle, facing.absolute(Dir::S)),
                ) else {
                    return Err(perr("en-passant", "no double step passes over that cell"));
                };
                Ok(Some(Trace {
                    owner,
                    source: src.to,
                    middle,
                    destination: dest.to,
                    facing,
                }))
            }
            [source, middle, dest] => {
                let (dest, facing) = match dest.char_indices().last() {
                    Some((i, '^')) => (&dest[..i], Facing::Up),
                    Some((i, 'v')) => (&dest[..i], Facing::Down),
                    _ => {
                        return Err(perr(
                            "en-passant",
                            "the destination needs the pawn's facing mark ^ or v",
                        ));
                    }
                };
                Ok(Some(Trace {
                    owner,
                    source: cell(source)?,
                    middle: cell(middle)?,
                    destination: cell(dest)?,
                    facing,
                }))
            }
            _ => Err(perr(
                "en-passant",
                if self.data.standard_fen {
                    format!("'{text}' is neither '-', a cell, nor source-middle-destination^")
                } else {
                    format!("'{text}' is neither '-' nor source-middle-destination^")
                },
            )),
        }
    }

    pub fn read_position(&self, text: &str) -> Result<Position, PositionError> {
        let fields: Vec<&str> = text.split_whitespace().collect();
        if fields.len() < 4 || fields.len() > 6 {
            return Err(perr(
                "text",
                format!(
                    "expected 4 to 6 space-separated fields (placement side castling en-passant [halfmove move]), found {}",
                    fields.len()
                ),
            ));
        }
        let cells = self.read_placement(fields[0])?;
        let to_move = match fields[1] {
            "w" => Player::First,
            "b" => Player::Second,
            other => return Err(perr("side", format!("'{other}' is neither w nor b"))),
        };
        let mut castling = CastlingRights::NONE;
        if fields[2] != "-" {
            for ch in fields[2].chars() {
                let (p, s) = match ch {
                    'K' => (Player::First, Side::East),
                    'Q' => (Player::First, Side::West),
                    'k' => (Player::Second, Side::East),
                    'q' => (Player::Second, Side::West),
                    _ => return Err(perr("castling", format!("'{ch}' is not one of K Q k q"))),
                };
                if castling.get(p, s) {
                    return Err(perr("castling", format!("'{ch}' appears twice")));
                }
                castling.set(p, s, true);
            }
        }
        let en_passant = self.read_trace(fields[3], to_move)?;
        let halfmove = match fields.get(4) {
            None => 0,
            Some(t) => t
                .parse()
                .map_err(|_| perr("halfmove", format!("'{t}' is not a number")))?,
        };
        let ply = match fields.get(5) {
            None => to_move.index() as u32,
            Some(t) => {
                if let Some(p) = t.strip_prefix('p') {
                    p.parse()
                        .map_err(|_| perr("move", format!("'{t}' is not p<ply>")))?
                } else {
                    let n: u32 = t
                        .parse()
                        .map_err(|_| perr("move", format!("'{t}' is not a number")))?;
                    if n == 0 {
                        return Err(perr("move", "move numbers start at 1"));
                    }
                    (n - 1)
                        .checked_mul(2)
                        .and_then(|v| v.checked_add(to_move.index() as u32))
                        .ok_or_else(|| perr("move", format!("'{t}' is too large")))?
                }
            }
        };
        let setup = Setup {
            cells,
            to_move,
            castling,
            en_passant,
            halfmove,
            ply,
        };
        self.validate(setup).map_err(PositionError::from)
    }

    fn castle_text(&self, side: Side) -> &'static str {
        match (self.data.standard_fen, side) {
            (true, Side::East) => "O-O",
            (true, Side::West) => "O-O-O",
            (false, Side::East) => "O-O-east",
            (false, Side::West) => "O-O-west",
        }
    }

    pub fn action_text(&self, pos: &Position, a: &Action) -> String {
        let pawn = pos.piece(a.from).is_some_and(|p| self.is_pawn(p.kind));
        // Only a pawn's text can depend on the other legal actions.
        if pawn && a.promotion.is_none() && self.may_repeat {
            self.action_text_in(pos, &self.legal(pos), a)
        } else {
            self.action_text_in(pos, &[], a)
        }
    }

    /// [`Self::action_text`] with the position's legal actions given.
    pub fn action_text_in(&self, pos: &Position, legal: &[Action], a: &Action) -> String {
        let b = self.geo.board();
        if let Special::Castle(side) = a.special {
            return self.castle_text(side).into();
        }
        // Pushed rather than `format!`ed: every legal action of every
        // position `seams fuzz` plays is written, on both sides.
        let (from, to) = (b.cell_name(a.from), b.cell_name(a.to));
        let mut s = String::with_capacity(from.len() + to.len() + 3);
        s.push_str(from);
        s.push('-');
        s.push_str(to);
        let pawn = pos.piece(a.from).is_some_and(|p| self.is_pawn(p.kind));
        if pawn && a.promotion.is_none() && self.may_repeat {
            let twin = legal.iter().any(|o| {
                o.from == a.from && o.to == a.to && o.promotion.is_none() && o.facing != a.facing
            });
            if twin {
                s.push(facing_mark(a.facing));
            }
        }
        if let Some(k) = a.promotion {
            s.push('=');
            s.push(self.letter(k));
        }
        s
    }

    fn castle_by_text(&self, pos: &Position, side: Side) -> Result<Action, ActionError> {
        if self.castle(pos.to_move, side).is_none() {
            return Err(aerr(
                IllegalReason::Castling,
                "this variant has no castling",
            ));
        }
        match self.castling_refusal(pos, side) {
            None => Ok(self.castling_action(pos, side).expect("not refused")),
            Some(why) => Err(aerr(IllegalReason::Castling, why)),
        }
    }

    pub fn read_action(&self, pos: &Position, text: &str) -> Result<Action, ActionError> {
        let b = self.geo.board();
        // The grammar reads the en and em dash as separators (SC-9.2).
        let t: String = text
            .chars()
            .map(|c| if c == '–' || c == '—' { '-' } else { c })
            .collect();
        if t.is_empty() {
            return Err(aerr(IllegalReason::Syntax, "empty action text"));
        }
        let has_castling = Side::BOTH
            .iter()
            .any(|s| self.castle(pos.to_move, *s).is_some());
        match (t.as_str(), self.data.standard_fen) {
            ("O-O-east", _) | ("O-O", true) => return self.castle_by_text(pos, Side::East),
            ("O-O-west", _) | ("O-O-O", true) => return self.castle_by_text(pos, Side::West),
            ("O-O" | "O-O-O", false) if has_castling => {
                return Err(aerr(
                    IllegalReason::Ambiguous,
                    "on this board write O-O-east or O-O-west",
                ));
            }
            // Without castling no side is named or needed: castle_by_text
            // refuses either side the same way (NT-I6).
            ("O-O" | "O-O-O", false) => return self.castle_by_text(pos, Side::East),
            _ => {}
        }
        let (body, promotion) = match t.split_once('=') {
            None => (t.as_str(), None),
            Some((body, p)) => {
                let mut cs = p.chars();
                let (Some(c), None) = (cs.next(), cs.next()) else {
                    return Err(aerr(
                        IllegalReason::Syntax,
                        format!("'={p}' is not '=' and one piece letter, as in =Q"),
                    ));
                };
                // A letter of no kind is a piece the pawn cannot become,
                // judged with the other promotion choices (NT-I9).
                (body, Some(self.kinds().by_letter(c).ok_or(c)))
            }
        };
        let (body, facing) = match body.chars().last() {
            Some('^') => (&body[..body.len() - 1], Some(Facing::Up)),
            Some('v') => (&body[..body.len() - 1], Some(Facing::Down)),
            _ => (body, None),
        };
        let sep = body.find(['-', 'x']).ok_or_else(|| {
            aerr(
                IllegalReason::Syntax,
                format!(
                    "'{text}' is not origin-destination: a move is two cells with a hyphen, \
                     as in e2-e4 (e7-e8=Q promotes, O-O castles)"
                ),
            )
        })?;
        let (from_text, to_text) = (&body[..sep], &body[sep + 1..]);
        // An optional piece letter before the origin, as in Bd1-g4.
        let (letter, from) = match b.parse_cell(from_text) {
            Ok(c) => (None, c),
            Err(e) => {
                let mut rest = from_text.chars();
                let letter = rest.next().filter(char::is_ascii_uppercase);
                match (letter, b.parse_cell(rest.as_str())) {
                    // The letter is judged with the piece it names (order 5).
                    (Some(l), Ok(c)) => (Some(l), c),
                    _ => return Err(aerr(IllegalReason::NoSuchCell, e.to_string())),
                }
            }
        };
        let to = b
            .parse_cell(to_text)
            .map_err(|e| aerr(IllegalReason::NoSuchCell, e.to_string()))?;
        let me = pos.to_move;
        let mover = match pos.piece(from) {
            Some(p) if p.owner == me => p,
            _ => {
                return Err(aerr(
                    IllegalReason::NoPiece,
                    format!("no piece of the side to move on {}", b.cell_name(from)),
                ));
            }
        };
        if letter.is_some_and(|l| self.kinds().by_letter(l) != Some(mover.kind)) {
            return Err(aerr(
                IllegalReason::NoPiece,
                format!(
                    "the piece on {} is a {}",
                    b.cell_name(from),
                    self.kind_name(mover.kind)
                ),
            ));
        }
        // The text is judged against the pseudo-legal moves first, so that
        // a missing or wrong promotion choice is reported as such even when
        // the move would also expose the king (PROTOCOL.md: `promotion`
        // before `king-in-check`); king safety decides last.
        let on_route =
            |a: &Action| a.from == from && a.to == to && !matches!(a.special, Special::Castle(_));
        let mut pseudo = Vec::new();
        self.pseudo_moves(pos, &mut pseudo);
        let mut cands: Vec<Action> = pseudo.iter().filter(|a| on_route(a)).copied().collect();
        if cands.is_empty() {
            if self.is_royal(mover.kind) {
                for side in Side::BOTH {
                    if let Some(spec) = self.castle(me, side)
                        && spec.king == from
                        && spec.king_to == to
                    {
                        // The king carries no facing, so a marked castling
                        // names no route (NT-I4), once the castling itself
                        // is allowed (order 6 before order 8).
                        let castling = self.castle_by_text(pos, side)?;
                        if promotion.is_some() {
                            return Err(aerr(
                                IllegalReason::Promotion,
                                "castling promotes nothing: write it without '='",
                            ));
                        }
                        if let Some(f) = facing {
                            return Err(aerr(
                                IllegalReason::Unreachable,
                                format!(
                                    "a castling king carries no facing, so no route ends facing {f}"
                                ),
                            ));
                        }
                        return Ok(castling);
                    }
                }
            }
            return Err(aerr(
                IllegalReason::Unreachable,
                format!(
                    "the {} on {} cannot reach {}",
                    self.kind_name(mover.kind),
                    b.cell_name(from),
                    b.cell_name(to)
                ),
            ));
        }
        let promoting = cands.iter().any(|a| a.promotion.is_some());
        match (promoting, promotion) {
            (true, None) => {
                let choices: Vec<String> = self
                    .data
                    .promotion_pieces
                    .iter()
                    .map(|&k| format!("={}", self.letter(k)))
                    .collect();
                return Err(aerr(
                    IllegalReason::Promotion,
                    format!("the pawn must promote: add {}", choices.join(", ")),
                ));
            }
            (false, Some(_)) => {
                return Err(aerr(IllegalReason::Promotion, "this move does not promote"));
            }
            (true, Some(Err(c))) => {
                return Err(aerr(
                    IllegalReason::Promotion,
                    format!("'{c}' is the letter of no piece of {}", self.data.variant),
                ));
            }
            (true, Some(Ok(k))) => {
                cands.retain(|a| a.promotion == Some(k));
                if cands.is_empty() {
                    return Err(aerr(
                        IllegalReason::Promotion,
                        format!("a pawn cannot become a {} here", self.kind_name(k)),
                    ));
                }
            }
            (false, None) => {}
        }
        if let Some(f) = facing {
            // Only a pawn that stays a pawn has a facing to arrive with
            // (SC-I9); for any other piece no route ends with the mark
            // (NT-I4).
            if !self.is_pawn(mover.kind) || promoting {
                return Err(aerr(
                    IllegalReason::Unreachable,
                    format!(
                        "no route to {} ends facing {f}: only a pawn that stays a pawn has a facing",
                        b.cell_name(to)
                    ),
                ));
            }
            cands.retain(|a| a.facing == f);
            if cands.is_empty() {
                return Err(aerr(
                    IllegalReason::Unreachable,
                    format!("no route to {} ends facing {f}", b.cell_name(to)),
                ));
            }
        }
        // The legal actions that fit the text: routes with one outcome are
        // merged there, so two of them differ in their final facing.
        let fitting: Vec<Action> = self
            .legal(pos)
            .into_iter()
            .filter(|a| {
                on_route(a)
                    && cands
                        .iter()
                        .any(|c| c.promotion == a.promotion && c.facing == a.facing)
            })
            .collect();
        match fitting.as_slice() {
            [] => Err(aerr(
                IllegalReason::KingInCheck,
                "that move leaves the king attacked",
            )),
            [a] => Ok(*a),
            _ => Err(aerr(
                IllegalReason::Ambiguous,
                "several outcomes match; add the final facing ^ or v",
            )),
        }
    }
}
