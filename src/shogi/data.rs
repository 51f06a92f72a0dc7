//! The family's spec data: one TOML file per variant in `spec/shogi/`.
//!
//! A file names the variant, its board and rules version, the drop facing,
//! the initial rows, the promotion bands and the dead ranks. Nothing about a
//! variant is written in code: changing a number here changes behaviour.
//! These are the serde types, and each section's validation against the
//! board: [`super::ShogiRules::load`] runs them in the file's order. A
//! section that loops over entries (ranges, kinds, rows) checks each entry
//! on its own, so that one run names every broken entry; every rejection
//! names the file and the field.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::facing_index;
use super::pieces::{Kind, Piece};
use crate::checks::Checks;
use crate::movement::Facing;
use crate::movement::square::{self, Form};
use crate::rules::Player;
use crate::rules::roster::{Ordered, Roster};
use crate::topology::{Board, CellId};

/// The serde form of `spec/shogi/<variant>.toml`.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct VariantFile {
    pub variant: String,
    pub board: String,
    pub rules_version: String,
    /// Whether the position text also reads the USI side letters `b`/`w`.
    #[serde(default)]
    pub usi_sfen: bool,
    pub drop_facing: DropFacing,
    pub setup: SetupFile,
    pub promotion: PromotionFile,
    /// The kinds, in the file's order (SS-4, MV-6): name, letter,
    /// movement, promotion and the special rules each takes part in.
    pub pieces: Ordered<PieceFile>,
    #[serde(default)]
    pub dead_ranks: BTreeMap<String, DeadRanksFile>,
    /// Piece values by kind name, read only by the practice opponent (see
    /// [`crate::values`]); absent, every piece but the king is worth 100.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub values: Option<toml::Value>,
}

#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DropFacing {
    pub first: Facing,
    pub second: Facing,
}

#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SetupFile {
    pub rows: Vec<RowFile>,
}

/// One row of the army table: player A's pieces from file a, `.` for empty;
/// player B gets the file-reversed row.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RowFile {
    pub pieces: String,
    /// Player A's rank for this row, with a sheet prefix on multi-sheet
    /// boards (`"I:1"`).
    pub first: String,
    /// Player B's rank for this row.
    pub second: String,
}

/// Promotion bands per owner as rank ranges (`"7-9"`, `"II:7-9"`).
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PromotionFile {
    pub first: Vec<String>,
    pub second: Vec<String>,
}

/// `[pieces.<kind>]`: one kind: its letter, how it moves in the movement
/// language of `spec/movement/rules.md`, how it moves promoted when it
/// promotes, and the special rules it takes part in (SS-4 to SS-7).
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct PieceFile {
    /// One upper-case letter; the second player's pieces are written in
    /// lower case.
    pub letter: String,
    pub moves: String,
    /// The promoted movement; absent, the kind never promotes.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub promoted: Option<String>,
    /// The king (SS-7): exactly one kind is royal. It is never captured,
    /// never in hand, and its owner must keep it unattacked.
    #[serde(default, skip_serializing_if = "is_false")]
    pub royal: bool,
    /// Nifu (SS-6.2): a piece of this kind is not dropped on a file that
    /// holds an unpromoted piece of the kind of the same owner.
    #[serde(default, skip_serializing_if = "is_false")]
    pub nifu: bool,
    /// Whether a drop of this kind may give mate; `false` for the pawn
    /// (SS-6.3).
    #[serde(default = "yes", skip_serializing_if = "is_true")]
    pub drop_mate: bool,
}

fn is_false(b: &bool) -> bool {
    !*b
}

fn is_true(b: &bool) -> bool {
    *b
}

fn yes() -> bool {
    true
}

/// Every kind's data, its movement compiled for the variant's board: the
/// forms by kind, promotion and facing, the special rules, and what
/// follows from them. Every vector is indexed by [`Kind::index`].
#[derive(Clone, Debug)]
pub struct PieceTable {
    /// The kinds' names and letters, in the file's order.
    pub roster: Roster,
    /// `forms[kind][promoted][facing]`; a kind that never promotes has its
    /// own movement in both promotion slots.
    pub forms: Vec<[[Form; 2]; 2]>,
    /// The kind has a promoted movement.
    pub can_promote: Vec<bool>,
    /// Some form of the kind moves differently in the two facings, so its
    /// facing is part of its state (SS-I1).
    pub has_facing: Vec<bool>,
    /// Some form has a term outside the masks, so attack detection must
    /// also look forwards.
    pub has_other: bool,
    /// The movement texts as written: `moves` and `promoted`, by kind.
    pub texts: Vec<(String, Option<String>)>,
    /// The royal kind.
    pub royal: Kind,
    /// The kinds nifu applies to (SS-6.2).
    pub nifu: Vec<bool>,
    /// Whether a drop of the kind may give mate (SS-6.3).
    pub drop_mate: Vec<bool>,
    /// The unpromoted kind keeps the colour of a cell (GEO-I2): the
    /// designer's bishop check counts it.
    pub keeps_colour: Vec<bool>,
    /// The kinds a hand holds, in the file's order: every kind but the
    /// royal one (SS-6.1). Hands are written in this order.
    pub hand: Vec<Kind>,
}

impl PieceTable {
    /// Whether `kind` is the royal one.
    #[inline]
    pub fn is_royal(&self, kind: Kind) -> bool {
        kind == self.royal
    }
}

/// `[pieces]`: the kinds in the file's order, each read and its movement
/// compiled for a board of square charts named `board` (MV; the compiled
/// forms name no cell, so the board's own data is not needed and its
/// mistakes do not hide these); every entry is checked on its own, and a
/// movement error names the character it stopped at. Exactly one kind is
/// royal; nifu and the drop-mate rule apply to kinds that can be dropped.
pub(super) fn piece_table(
    file: &str,
    pieces: &Ordered<PieceFile>,
    board: &str,
) -> Result<PieceTable, Vec<DataError>> {
    let mut checks = Checks::new();
    let letters: Vec<(&str, &str)> = pieces
        .iter()
        .map(|(name, p)| (name, p.letter.as_str()))
        .collect();
    let roster = checks.take_all(Roster::read(&letters).map_err(|errors| {
        errors
            .into_iter()
            .map(|e| error(file, &e.field, e.message))
            .collect()
    }));
    for (name, p) in pieces.iter() {
        if p.letter == "V" {
            checks.push(error(
                file,
                &format!("pieces.{name}.letter"),
                "'V' names no kind: a lower-case v after a piece is its facing mark in \
                 position texts (NT-I12)"
                    .into(),
            ));
        }
    }
    let royals: Vec<&str> = pieces
        .iter()
        .filter(|(_, p)| p.royal)
        .map(|(n, _)| n)
        .collect();
    if royals.len() != 1 && !pieces.0.is_empty() {
        checks.push(error(
            file,
            "pieces",
            format!(
                "exactly one kind is royal (royal = true), found {}{}",
                royals.len(),
                if royals.is_empty() {
                    String::new()
                } else {
                    format!(": {}", royals.join(", "))
                }
            ),
        ));
    }
    let n = pieces.0.len();
    let mut table = PieceTable {
        roster: Roster::default(),
        forms: vec![Default::default(); n],
        can_promote: vec![false; n],
        has_facing: vec![false; n],
        has_other: false,
        texts: vec![Default::default(); n],
        royal: Kind::default(),
        nifu: vec![false; n],
        drop_mate: vec![true; n],
        keeps_colour: vec![false; n],
        hand: Vec::new(),
    };
    for (k, (name, entry)) in pieces.iter().enumerate() {
        let field = format!("pieces.{name}");
        if entry.royal && (entry.nifu || !entry.drop_mate) {
            checks.push(error(
                file,
                &field,
                "the royal kind is never dropped, so nifu and drop-mate say nothing of it".into(),
            ));
        }
        let read = |key: &str, text: &str| {
            crate::movement::lang::parse(text)
                .and_then(|m| Ok((m.keeps_colour(), square::compile(&m, board)?)))
                .map_err(|x| error(file, &format!("{field}.{key}"), x.to_string()))
        };
        let own = checks.take(read("moves", &entry.moves));
        let promoted = match &entry.promoted {
            Some(text) => checks.take(read("promoted", text)).map(|(_, c)| Some(c)),
            None => Some(None),
        };
        let (Some((keeps_colour, own)), Some(promoted)) = (own, promoted) else {
            continue;
        };
        table.texts[k] = (entry.moves.clone(), entry.promoted.clone());
        table.can_promote[k] = promoted.is_some();
        table.has_facing[k] =
            own.depends_on_facing() || promoted.as_ref().is_some_and(|p| p.depends_on_facing());
        let up = promoted.as_ref().unwrap_or(&own);
        table.has_other |= [&own, up]
            .iter()
            .any(|c| c.forms.iter().any(|f| !f.other.is_empty()));
        table.forms[k] = [own.forms.clone(), up.forms.clone()];
        table.nifu[k] = entry.nifu;
        table.drop_mate[k] = entry.drop_mate;
        table.keeps_colour[k] = keeps_colour;
        if entry.royal {
            table.royal = Kind::at(k);
        } else {
            table.hand.push(Kind::at(k));
        }
    }
    if let Some(roster) = roster {
        table.roster = roster;
    }
    checks.finish(table)
}

/// Dead ranks of one kind, per facing.
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DeadRanksFile {
    #[serde(default)]
    pub up: Vec<u8>,
    #[serde(default)]
    pub down: Vec<u8>,
}

/// A rejected data file, naming the file and field.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
// The message may quote the file's text: shown bounded (see crate::quote).
#[error("{file}: {}: {}", crate::quote::excerpt(.field), crate::quote::bounded(.message))]
pub struct DataError {
    pub file: String,
    pub field: String,
    pub message: String,
}

fn error(file: &str, field: &str, message: String) -> DataError {
    DataError {
        file: file.to_string(),
        field: field.to_string(),
        message,
    }
}

/// Parses one variant file. Cross-checks against the board (coordinates,
/// ranks) happen when the variant is built, in the section checks below.
pub fn parse(file: &str, text: &str) -> Result<VariantFile, DataError> {
    let parsed: VariantFile = toml::from_str(text).map_err(|e| DataError {
        file: file.to_string(),
        field: "toml".into(),
        message: e.to_string(),
    })?;
    if parsed.rules_version.trim().is_empty() {
        return Err(DataError {
            file: file.to_string(),
            field: "rules-version".into(),
            message: "empty".into(),
        });
    }
    Ok(parsed)
}

/// A rank range `"7-9"`, `"9"`, or with a sheet `"II:7-9"`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RankRange {
    pub chart: Option<String>,
    pub low: u8,
    pub high: u8,
}

pub fn parse_rank_range(text: &str) -> Option<RankRange> {
    let (chart, ranks) = match text.split_once(':') {
        Some((c, r)) => (Some(c.to_string()), r),
        None => (None, text),
    };
    let (lo, hi) = match ranks.split_once('-') {
        Some((a, b)) => (a, b),
        None => (ranks, ranks),
    };
    let low: u8 = lo.trim().parse().ok()?;
    let high: u8 = hi.trim().parse().ok()?;
    (low >= 1 && low <= high).then_some(RankRange { chart, low, high })
}

/// Splits `"I:1"` into sheet and rank text.
pub fn split_rank(text: &str) -> (Option<&str>, &str) {
    match text.split_once(':') {
        Some((c, r)) => (Some(c), r),
        None => (None, text),
    }
}

/// SS-6.1: the facing a dropped piece takes, per player. The player
/// exchange reverses facing, so the two must be opposite.
pub(super) fn drop_facings(file: &str, d: &DropFacing) -> Result<[Facing; 2], DataError> {
    if d.second != d.first.reversed() {
        return Err(error(
            file,
            "drop-facing",
            "the two players' drop facings must be opposite (the player exchange reverses facing)"
                .into(),
        ));
    }
    Ok([d.first, d.second])
}

/// The promotion band of each player, `band[player][cell]`: every rank
/// range is checked on its own.
pub(super) fn promotion_bands(
    file: &str,
    promotion: &PromotionFile,
    board: &Board,
) -> Result<[Vec<bool>; 2], Vec<DataError>> {
    let n = board.cell_count();
    let mut band = [vec![false; n], vec![false; n]];
    let mut checks = Checks::new();
    let lists = [
        ("promotion.first", &promotion.first),
        ("promotion.second", &promotion.second),
    ];
    for (in_band, (field, list)) in band.iter_mut().zip(lists) {
        for item in list {
            for c in checks
                .take(band_cells(file, field, item, board))
                .into_iter()
                .flatten()
            {
                in_band[c.index()] = true;
            }
        }
    }
    checks.finish(band)
}

/// The cells of one rank range of a promotion band.
fn band_cells(
    file: &str,
    field: &str,
    item: &str,
    board: &Board,
) -> Result<Vec<CellId>, DataError> {
    let e = |message: String| error(file, field, message);
    let r = parse_rank_range(item)
        .ok_or_else(|| e(format!("'{item}' is not a rank range like 7-9 or II:7-9")))?;
    if r.high > board.height() {
        return Err(e(format!(
            "'{item}': the board has {} ranks",
            board.height()
        )));
    }
    let chart = match &r.chart {
        Some(name) => Some(
            board
                .chart_names()
                .iter()
                .position(|c| c == name)
                .ok_or_else(|| e(format!("'{item}': unknown sheet '{name}'")))?,
        ),
        None if board.chart_count() > 1 => {
            return Err(e(format!("'{item}': name the sheet, as in I:1-3")));
        }
        None => None,
    };
    Ok(board
        .cells()
        .filter(|&c| {
            let sq = board.square(c);
            chart.is_none_or(|ch| ch == sq.chart as usize) && (r.low..=r.high).contains(&(sq.y + 1))
        })
        .collect())
}

/// The dead ranks, `dead[kind][facing]` with bit `r` set when rank `r`
/// (1-based) is dead: every kind is checked on its own.
pub(super) fn dead_ranks(
    file: &str,
    dead_ranks: &BTreeMap<String, DeadRanksFile>,
    board: &Board,
    pieces: &PieceTable,
) -> Result<Vec<[u128; 2]>, Vec<DataError>> {
    let mut dead = vec![[0u128; 2]; pieces.roster.len()];
    let mut checks = Checks::new();
    for (name, ranks) in dead_ranks {
        if let Some((kind, bits)) = checks.take(dead_ranks_of(file, name, ranks, board, pieces)) {
            dead[kind.index()] = bits;
        }
    }
    checks.finish(dead)
}

/// One kind's dead ranks, per facing.
fn dead_ranks_of(
    file: &str,
    name: &str,
    ranks: &DeadRanksFile,
    board: &Board,
    pieces: &PieceTable,
) -> Result<(Kind, [u128; 2]), DataError> {
    let field = format!("dead-ranks.{name}");
    let e = |message: String| error(file, &field, message);
    let kind = pieces
        .roster
        .by_name(name)
        .ok_or_else(|| e(pieces.roster.unknown_name(name)))?;
    if !pieces.can_promote[kind.index()] {
        return Err(e("only a piece that can promote can be forced to".into()));
    }
    let mut bits = [0u128; 2];
    for (f, list) in [(Facing::Up, &ranks.up), (Facing::Down, &ranks.down)] {
        for &r in list {
            if r == 0 || r > board.height() {
                return Err(e(format!("rank {r} is outside 1–{}", board.height())));
            }
            bits[facing_index(f)] |= 1u128 << r;
        }
    }
    Ok((kind, bits))
}

/// The pieces of the initial rows, one entry per cell: every row is
/// checked on its own. Pieces face their owner's drop facing as written;
/// whether those facings are valid is [`drop_facings`]' question.
pub(super) fn setup_cells(
    file: &str,
    setup: &SetupFile,
    board: &Board,
    roster: &Roster,
    facing: [Facing; 2],
) -> Result<Vec<Option<Piece>>, Vec<DataError>> {
    let mut cells = vec![None; board.cell_count()];
    let mut checks = Checks::new();
    for (ri, row) in setup.rows.iter().enumerate() {
        let place = Place {
            file,
            board,
            roster,
            facing,
        };
        checks.take_all(place_row(&place, ri, row, &mut cells));
    }
    checks.finish(cells)
}

/// What placing the setup rows reads: the file (for errors), the board,
/// the kinds and each player's facing.
struct Place<'a> {
    file: &'a str,
    board: &'a Board,
    roster: &'a Roster,
    facing: [Facing; 2],
}

/// Places one row for both players: a row of the wrong length, or else
/// each player's first mistake (the same bad letter once).
fn place_row(
    place: &Place,
    ri: usize,
    row: &RowFile,
    cells: &mut [Option<Piece>],
) -> Result<(), Vec<DataError>> {
    let (file, board) = (place.file, place.board);
    let chars: Vec<char> = row.pieces.chars().collect();
    if chars.len() != board.width() as usize {
        return Err(vec![error(
            file,
            &format!("setup.rows[{ri}].pieces"),
            format!(
                "'{}' has {} entries, the board has {} files",
                row.pieces,
                chars.len(),
                board.width()
            ),
        )]);
    }
    let mut errors = Vec::new();
    for (player, rank) in [(Player::First, &row.first), (Player::Second, &row.second)] {
        let side = Side {
            player,
            rank,
            facing: place.facing[player.index()],
        };
        if let Err(e) = place_side(place, ri, &chars, side, cells)
            && !errors.contains(&e)
        {
            errors.push(e);
        }
    }
    if errors.is_empty() {
        Ok(())
    } else {
        Err(errors)
    }
}

/// One player's half of a setup row.
struct Side<'a> {
    player: Player,
    /// The rank as written, with its sheet prefix.
    rank: &'a str,
    facing: Facing,
}

/// Places one player's pieces of a row; player B's row is the
/// file-reversed row.
fn place_side(
    place: &Place,
    ri: usize,
    chars: &[char],
    side: Side,
    cells: &mut [Option<Piece>],
) -> Result<(), DataError> {
    let (file, board) = (place.file, place.board);
    let field = format!(
        "setup.rows[{ri}].{}",
        match side.player {
            Player::First => "first",
            Player::Second => "second",
        }
    );
    let (chart, rank) = split_rank(side.rank);
    for (x, &ch) in chars.iter().enumerate() {
        if ch == '.' {
            continue;
        }
        let kind = place
            .roster
            .by_letter(ch)
            .filter(|_| ch.is_ascii_uppercase())
            .ok_or_else(|| {
                error(
                    file,
                    &format!("setup.rows[{ri}].pieces"),
                    format!(
                        "'{ch}' is not a piece letter ({} or .)",
                        place.roster.letter_list()
                    ),
                )
            })?;
        let x = match side.player {
            Player::First => x,
            Player::Second => chars.len() - 1 - x,
        };
        let letter = Board::file_letter(x as u8);
        let name = match chart {
            Some(c) => format!("{c}:{letter}{rank}"),
            None => format!("{letter}{rank}"),
        };
        let c = board
            .parse_cell(&name)
            .map_err(|x| error(file, &field, x.to_string()))?;
        if cells[c.index()].is_some() {
            return Err(error(file, &field, format!("{name} is filled twice")));
        }
        cells[c.index()] = Some(Piece {
            owner: side.player,
            kind,
            promoted: false,
            facing: side.facing,
        });
    }
    Ok(())
}
