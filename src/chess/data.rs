//! The family's rules data: one TOML file per variant in `spec/chess/`.
//!
//! A variant file names its board, its rules version, White's setup as
//! rank diagrams (Black is the exchange image, SC-6.1), the promotion rule
//! and pieces, the castling geometry (Möbius and the flat control only), and
//! the automatic-draw thresholds. [`VariantFile`] is the serde form;
//! [`VariantData::resolve`] checks it against the board and turns every
//! coordinate into a [`CellId`]. Every rejection names the file and field.

use serde::{Deserialize, Serialize};

use super::pieces::{Kind, Piece};
use crate::geometry::Geometry;
use crate::movement::Facing;
use crate::rules::Player;
use crate::topology::{Board, CellId, Square};

/// The serde form of `spec/chess/<variant>.toml`.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct VariantFile {
    /// Variant name, e.g. `chess-mobius`.
    pub variant: String,
    /// A board name from `spec/boards/`.
    pub board: String,
    pub rules_version: String,
    /// The player exchange Φ on cells.
    pub exchange: ExchangeMap,
    /// Position text uses the standard FEN en-passant field (the middle
    /// cell only), as the flat control does.
    #[serde(default)]
    pub standard_fen: bool,
    /// White's initial pieces, one diagram row per rank.
    pub setup: Vec<SetupRow>,
    pub promotion: PromotionFile,
    /// Absent: the variant has no castling.
    #[serde(default)]
    pub castling: Option<CastlingFile>,
    pub endings: EndingsFile,
    /// Piece values by letter, read only by the practice opponent (see
    /// [`crate::values`]); absent, every piece but the king is worth 100.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub values: Option<toml::Value>,
}

/// The board map of the player exchange.
#[derive(Copy, Clone, Debug, Eq, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum ExchangeMap {
    /// `(s, x, y) ↦ (s, x, H−1−y)`.
    MirrorRanks,
    /// `(s, x, y) ↦ (1−s, W−1−x, H−1−y)` on a two-chart board.
    SwapChartsHalfTurn,
}

/// One rank of White's setup: `rank = "2"` (or `"I:2"`), `row = ". P N …"`.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SetupRow {
    pub rank: String,
    /// One token per file, separated by spaces: `.` empty, or K Q R B N P.
    pub row: String,
}

#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct PromotionFile {
    pub rule: PromotionRule,
    /// The promotion choices, as letters (`Q`, `R`, `B`, `N`).
    pub pieces: Vec<String>,
    /// For `owner-ranks`: White's target rank, e.g. `"15"` or `"II:9"`.
    #[serde(default)]
    pub first: Option<String>,
    /// For `owner-ranks`: Black's target rank.
    #[serde(default)]
    pub second: Option<String>,
}

#[derive(Copy, Clone, Debug, Eq, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum PromotionRule {
    /// The last rank in the pawn's facing direction: the top rank when it
    /// arrives facing up, the bottom rank when it arrives facing down.
    FacingLastRank,
    /// A fixed rank per owner, whatever the facing.
    OwnerRanks,
}

#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CastlingFile {
    pub east: CastleFile,
    pub west: CastleFile,
}

/// White's castling on one side; Black's is its exchange image.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct CastleFile {
    pub king: String,
    pub king_to: String,
    /// The king's one-step transit cell.
    pub transit: String,
    pub rook: String,
    pub rook_to: String,
}

#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct EndingsFile {
    /// Occurrences of one key that draw automatically.
    pub repetition: u32,
    /// Consecutive halfmoves without pawn move or capture that draw.
    pub move_rule_halfmoves: u32,
}

/// A variant file that does not describe a variant.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
// The message may quote the file's text: shown bounded (see crate::quote).
#[error("{file}: {}: {}", crate::quote::excerpt(.field), crate::quote::bounded(.message))]
pub struct DataError {
    pub file: String,
    pub field: String,
    pub message: String,
}

/// Where pawns promote, resolved against the board.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Promotion {
    FacingLastRank,
    /// `(chart, rank index)` per player.
    OwnerRanks([(u8, u8); 2]),
}

/// One castling, resolved: every cell it names and the cells strictly
/// between king and rook on the drawn home rank.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CastleSpec {
    pub king: CellId,
    pub king_to: CellId,
    pub transit: CellId,
    pub rook: CellId,
    pub rook_to: CellId,
    pub between: Vec<CellId>,
}

/// A variant file checked against its board.
#[derive(Clone, Debug)]
pub struct VariantData {
    pub variant: String,
    pub board: String,
    pub rules_version: String,
    pub exchange: ExchangeMap,
    pub standard_fen: bool,
    /// White's setup; Black's is derived by the exchange.
    pub white_setup: Vec<(CellId, Piece)>,
    pub promotion: Promotion,
    pub promotion_pieces: Vec<Kind>,
    /// White's castlings, east then west; `None` without castling.
    pub castling: Option<[CastleSpec; 2]>,
    pub repetition: u32,
    pub move_rule_halfmoves: u32,
    /// What each kind is worth to the practice opponent, by `Kind as
    /// usize`; a promoted pawn is worth what its new kind is.
    pub values: [i32; 6],
}

/// Parses a rank designator: `"9"` on one chart, `"II:9"` on several.
fn parse_rank(board: &Board, text: &str) -> Result<(u8, u8), String> {
    let (chart, rank) = match text.split_once(':') {
        Some((c, r)) => {
            let chart = board
                .chart_names()
                .iter()
                .position(|n| n == c)
                .ok_or_else(|| format!("unknown chart '{c}'"))?;
            if board.chart_count() == 1 {
                return Err("this board has one chart; write the rank alone".into());
            }
            (chart as u8, r)
        }
        None => {
            if board.chart_count() > 1 {
                return Err(format!(
                    "write the chart, as in {}:{text}",
                    board.chart_names()[0]
                ));
            }
            (0, text)
        }
    };
    let r: u8 = rank
        .parse()
        .map_err(|_| format!("rank '{rank}' is not a number"))?;
    if r == 0 || r > board.height() {
        return Err(format!("rank {r} is outside 1–{}", board.height()));
    }
    Ok((chart, r - 1))
}

impl VariantFile {
    pub fn parse(file: &str, text: &str) -> Result<VariantFile, DataError> {
        toml::from_str(text).map_err(|e| DataError {
            file: file.into(),
            field: e
                .span()
                .map(|s| format!("bytes {}..{}", s.start, s.end))
                .unwrap_or_else(|| "document".into()),
            message: e.message().trim().to_string(),
        })
    }
}

impl VariantData {
    /// Checks a variant file against its board's geometry.
    pub fn resolve(file: &str, vf: &VariantFile, geo: &Geometry) -> Result<VariantData, DataError> {
        let board = geo.board();
        let err = |field: String, message: String| DataError {
            file: file.to_string(),
            field,
            message,
        };
        if vf.exchange == ExchangeMap::SwapChartsHalfTurn && board.chart_count() != 2 {
            return Err(err(
                "exchange".into(),
                "swap-charts-half-turn needs a board with two charts".into(),
            ));
        }
        let mut white_setup = Vec::new();
        let mut seen_ranks = std::collections::HashSet::new();
        for (i, row) in vf.setup.iter().enumerate() {
            let field = format!("setup[{i}]");
            let (chart, y) =
                parse_rank(board, &row.rank).map_err(|m| err(format!("{field}.rank"), m))?;
            if !seen_ranks.insert((chart, y)) {
                return Err(err(
                    format!("{field}.rank"),
                    format!("rank {} is listed twice", row.rank),
                ));
            }
            let tokens: Vec<&str> = row.row.split_whitespace().collect();
            if tokens.len() != board.width() as usize {
                return Err(err(
                    format!("{field}.row"),
                    format!(
                        "{} tokens, but the board has {} files",
                        tokens.len(),
                        board.width()
                    ),
                ));
            }
            for (x, t) in tokens.iter().enumerate() {
                if *t == "." {
                    continue;
                }
                let kind = match t.chars().collect::<Vec<_>>().as_slice() {
                    [c] if c.is_ascii_uppercase() => Kind::from_letter(*c),
                    _ => None,
                }
                .ok_or_else(|| {
                    err(
                        format!("{field}.row"),
                        format!(
                            "'{t}' at file {} is not one of . K Q R B N P",
                            Board::file_letter(x as u8)
                        ),
                    )
                })?;
                let cell = board.cell(Square {
                    chart,
                    x: x as u8,
                    y,
                });
                white_setup.push((
                    cell,
                    Piece::of(Player::First, kind, Facing::Up, kind == Kind::Pawn),
                ));
            }
        }
        let kings = white_setup
            .iter()
            .filter(|(_, p)| p.kind == Kind::King)
            .count();
        if kings != 1 {
            return Err(err(
                "setup".into(),
                format!("White needs exactly one king, found {kings}"),
            ));
        }
        let mut promotion_pieces = Vec::new();
        for (i, p) in vf.promotion.pieces.iter().enumerate() {
            let kind = match p.as_str() {
                "Q" => Kind::Queen,
                "R" => Kind::Rook,
                "B" => Kind::Bishop,
                "N" => Kind::Knight,
                other => {
                    return Err(err(
                        format!("promotion.pieces[{i}]"),
                        format!("'{other}' is not one of Q R B N"),
                    ));
                }
            };
            if promotion_pieces.contains(&kind) {
                return Err(err(
                    format!("promotion.pieces[{i}]"),
                    format!("'{p}' is listed twice"),
                ));
            }
            promotion_pieces.push(kind);
        }
        if promotion_pieces.is_empty() {
            return Err(err(
                "promotion.pieces".into(),
                "at least one choice is needed".into(),
            ));
        }
        let promotion = match vf.promotion.rule {
            PromotionRule::FacingLastRank => Promotion::FacingLastRank,
            PromotionRule::OwnerRanks => {
                let get = |name: &str, v: &Option<String>| -> Result<(u8, u8), DataError> {
                    let text = v.as_ref().ok_or_else(|| {
                        err(
                            format!("promotion.{name}"),
                            "owner-ranks needs this rank".into(),
                        )
                    })?;
                    parse_rank(board, text).map_err(|m| err(format!("promotion.{name}"), m))
                };
                Promotion::OwnerRanks([
                    get("first", &vf.promotion.first)?,
                    get("second", &vf.promotion.second)?,
                ])
            }
        };
        let castling = match &vf.castling {
            None => None,
            Some(c) => {
                let one = |name: &str, cf: &CastleFile| -> Result<CastleSpec, DataError> {
                    let cell = |f: &str, t: &str| {
                        board
                            .parse_cell(t)
                            .map_err(|e| err(format!("castling.{name}.{f}"), e.to_string()))
                    };
                    let spec = CastleSpec {
                        king: cell("king", &cf.king)?,
                        king_to: cell("king-to", &cf.king_to)?,
                        transit: cell("transit", &cf.transit)?,
                        rook: cell("rook", &cf.rook)?,
                        rook_to: cell("rook-to", &cf.rook_to)?,
                        between: vec![],
                    };
                    let (k, r) = (board.square(spec.king), board.square(spec.rook));
                    if (k.chart, k.y) != (r.chart, r.y) || k.x == r.x {
                        return Err(err(
                            format!("castling.{name}"),
                            "king and rook must stand on one drawn rank, on different files".into(),
                        ));
                    }
                    let (lo, hi) = (k.x.min(r.x), k.x.max(r.x));
                    let between: Vec<CellId> = (lo + 1..hi)
                        .map(|x| {
                            board.cell(Square {
                                chart: k.chart,
                                x,
                                y: k.y,
                            })
                        })
                        .collect();
                    for (f, c) in [
                        ("king-to", spec.king_to),
                        ("rook-to", spec.rook_to),
                        ("transit", spec.transit),
                    ] {
                        if !between.contains(&c) && c != spec.king && c != spec.rook {
                            return Err(err(
                                format!("castling.{name}.{f}"),
                                "must lie on the segment between king and rook".into(),
                            ));
                        }
                    }
                    let has = |c: CellId, kind: Kind| {
                        white_setup.iter().any(|(x, p)| *x == c && p.kind == kind)
                    };
                    if !has(spec.king, Kind::King) {
                        return Err(err(
                            format!("castling.{name}.king"),
                            "the setup has no king there".into(),
                        ));
                    }
                    if !has(spec.rook, Kind::Rook) {
                        return Err(err(
                            format!("castling.{name}.rook"),
                            "the setup has no rook there".into(),
                        ));
                    }
                    Ok(CastleSpec { between, ..spec })
                };
                let east = one("east", &c.east)?;
                let west = one("west", &c.west)?;
                if east.king != west.king {
                    return Err(err(
                        "castling".into(),
                        "east and west name different kings".into(),
                    ));
                }
                Some([east, west])
            }
        };
        if vf.endings.repetition < 2 {
            return Err(err(
                "endings.repetition".into(),
                "must be at least 2".into(),
            ));
        }
        if vf.endings.move_rule_halfmoves == 0 {
            return Err(err(
                "endings.move-rule-halfmoves".into(),
                "must be positive".into(),
            ));
        }
        let values = read_values(vf.values.as_ref()).map_err(|e| err(e.field, e.message))?;
        Ok(VariantData {
            variant: vf.variant.clone(),
            board: vf.board.clone(),
            rules_version: vf.rules_version.clone(),
            exchange: vf.exchange,
            standard_fen: vf.standard_fen,
            white_setup,
            promotion,
            promotion_pieces,
            castling,
            repetition: vf.endings.repetition,
            move_rule_halfmoves: vf.endings.move_rule_halfmoves,
            values,
        })
    }
}

/// The `[values]` table, keyed by the letters the setup rows use.
fn read_values(table: Option<&toml::Value>) -> Result<[i32; 6], crate::values::ValueError> {
    let letters: Vec<String> = Kind::ALL.iter().map(|k| k.letter().to_string()).collect();
    let kinds: Vec<&str> = letters.iter().map(String::as_str).collect();
    let names = crate::values::Names {
        kinds: &kinds,
        royal: "K",
        promoted: &[],
    };
    let read = crate::values::read(table, &names)?;
    Ok(Kind::ALL.map(|k| read.of(&k.letter().to_string(), false)))
}
