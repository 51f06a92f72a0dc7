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
    /// Each kind's movement, by kind name (SS-3, MV).
    pub pieces: BTreeMap<String, PieceFile>,
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

/// `[pieces.<kind>]`: how one kind moves, in the movement language of
/// `spec/movement/rules.md`, and how it moves promoted when it promotes.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PieceFile {
    pub moves: String,
    /// The promoted movement; absent, the kind never promotes.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub promoted: Option<String>,
}

/// Every kind's movement compiled for the variant's board: the forms by
/// kind, promotion and facing, and what follows from them.
#[derive(Clone, Debug)]
pub struct PieceTable {
    /// `forms[kind][promoted][facing]`; a kind that never promotes has its
    /// own movement in both promotion slots.
    pub forms: [[[Form; 2]; 2]; 8],
    /// The kind has a promoted movement.
    pub can_promote: [bool; 8],
    /// Some form of the kind moves differently in the two facings, so its
    /// facing is part of its state (SS-I1).
    pub has_facing: [bool; 8],
    /// Some form has a term outside the masks, so attack detection must
    /// also look forwards.
    pub has_other: bool,
    /// The movement texts as written: `moves` and `promoted`, by kind.
    pub texts: [(String, Option<String>); 8],
}

/// `[pieces]`: every kind once, each movement read and compiled for a
/// board of square charts named `board` (MV; the compiled forms name no
/// cell, so the board's own data is not needed and its mistakes do not
/// hide these); every entry is checked on its own, and a movement error
/// names the character it stopped at.
pub(super) fn piece_table(
    file: &str,
    pieces: &BTreeMap<String, PieceFile>,
    board: &str,
) -> Result<PieceTable, Vec<DataError>> {
    let mut checks = Checks::new();
    for name in pieces.keys() {
        if Kind::ALL.iter().all(|k| k.name() != name) {
            let known = crate::names::Known::new(name, Kind::ALL.iter().map(|k| k.name()));
            checks.push(error(
                file,
                &format!("pieces.{name}"),
                format!("unknown piece kind '{name}' ({known})"),
            ));
        }
    }
    let mut table = PieceTable {
        forms: Default::default(),
        can_promote: [false; 8],
        has_facing: [false; 8],
        has_other: false,
        texts: Default::default(),
    };
    for kind in Kind::ALL {
        let field = format!("pieces.{}", kind.name());
        let Some(entry) = pieces.get(kind.name()) else {
            checks.push(error(
                file,
                &field,
                "missing: every kind needs its movement".into(),
            ));
            continue;
        };
        let read = |key: &str, text: &str| {
            square::compile_text(text, board)
                .map_err(|x| error(file, &format!("{field}.{key}"), x.to_string()))
        };
        let own = checks.take(read("moves", &entry.moves));
        let promoted = match &entry.promoted {
            Some(text) => checks.take(read("promoted", text)).map(Some),
            None => Some(None),
        };
        let (Some(own), Some(promoted)) = (own, promoted) else {
            continue;
        };
        let k = kind as usize;
        table.texts[k] = (entry.moves.clone(), entry.promoted.clone());
        table.can_promote[k] = promoted.is_some();
        table.has_facing[k] =
            own.depends_on_facing() || promoted.as_ref().is_some_and(|p| p.depends_on_facing());
        let up = promoted.as_ref().unwrap_or(&own);
        table.has_other |= [&own, up]
            .iter()
            .any(|c| c.forms.iter().any(|f| !f.other.is_empty()));
        table.forms[k] = [own.forms.clone(), up.forms.clone()];
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
    can_promote: &[bool; 8],
) -> Result<[[u128; 2]; 8], Vec<DataError>> {
    let mut dead = [[0u128; 2]; 8];
    let mut checks = Checks::new();
    for (name, ranks) in dead_ranks {
        if let Some((kind, bits)) =
            checks.take(dead_ranks_of(file, name, ranks, board, can_promote))
        {
            dead[kind as usize] = bits;
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
    can_promote: &[bool; 8],
) -> Result<(Kind, [u128; 2]), DataError> {
    let field = format!("dead-ranks.{name}");
    let e = |message: String| error(file, &field, message);
    let kind = Kind::ALL
        .into_iter()
        .find(|k| k.name() == name)
        .ok_or_else(|| e(format!("unknown piece kind '{name}'")))?;
    if !can_promote[kind as usize] {
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
    facing: [Facing; 2],
) -> Result<Vec<Option<Piece>>, Vec<DataError>> {
    let mut cells = vec![None; board.cell_count()];
    let mut checks = Checks::new();
    for (ri, row) in setup.rows.iter().enumerate() {
        checks.take_all(place_row(file, ri, row, board, facing, &mut cells));
    }
    checks.finish(cells)
}

/// Places one row for both players: a row of the wrong length, or else
/// each player's first mistake (the same bad letter once).
fn place_row(
    file: &str,
    ri: usize,
    row: &RowFile,
    board: &Board,
    facing: [Facing; 2],
    cells: &mut [Option<Piece>],
) -> Result<(), Vec<DataError>> {
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
            facing: facing[player.index()],
        };
        if let Err(e) = place_side(file, ri, &chars, side, board, cells)
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
    file: &str,
    ri: usize,
    chars: &[char],
    side: Side,
    board: &Board,
    cells: &mut [Option<Piece>],
) -> Result<(), DataError> {
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
        let kind = Kind::from_letter(ch)
            .filter(|_| ch.is_ascii_uppercase())
            .ok_or_else(|| {
                error(
                    file,
                    &format!("setup.rows[{ri}].pieces"),
                    format!("'{ch}' is not a piece letter (P L N S G B R K or .)"),
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
