//! The family's rules data: one TOML file per variant in `spec/chess/`.
//!
//! A variant file names its board, its rules version, White's setup as
//! rank diagrams (Black is the exchange image, SC-6.1), each kind's
//! movement (in the language of `spec/movement/rules.md`), the promotion rule
//! and pieces, the castling geometry (Möbius and the flat control only), and
//! the automatic-draw thresholds. [`VariantFile`] is the serde form;
//! [`VariantData::resolve_all`] checks it against the board and turns every
//! coordinate into a [`CellId`], section by section: a section that loops
//! over entries (rows, promotion pieces, castlings) checks each on its own,
//! so that one run names every broken entry. Every rejection names the
//! file and field.

use serde::{Deserialize, Serialize};

use super::pieces::{Kind, Piece};
use crate::checks::Checks;
use crate::geometry::Geometry;
use crate::movement::square::{self, Form};
use crate::rules::Player;
use crate::rules::roster::{Ordered, Roster};
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
    /// The kinds, in the file's order (SC-3.8, MV-6): letter, movement
    /// and the special rules each takes part in.
    pub pieces: Ordered<PieceFile>,
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
    /// One token per file, separated by spaces: `.` empty, or the letter
    /// of a kind (K Q R B N P in the shipped files).
    pub row: String,
}

/// `[pieces.<kind>]`: one kind: its letter, how it moves, and the special
/// rules it takes part in. The pawn's double step, en passant and
/// promotion are rules of their own (SC-4); they read the pawn's
/// move-only and capture-only steps from here.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct PieceFile {
    /// One upper-case letter; Black's pieces are written in lower case.
    pub letter: String,
    pub moves: String,
    /// The king (SC-7): exactly one kind is royal.
    #[serde(default, skip_serializing_if = "is_false")]
    pub royal: bool,
    /// The pawn (SC-4): at most one kind; it carries a facing and a
    /// double-step flag, captures en passant and promotes.
    #[serde(default, skip_serializing_if = "is_false")]
    pub pawn: bool,
}

fn is_false(b: &bool) -> bool {
    !*b
}

/// Every kind's data, its movement compiled for the variant's board; each
/// vector is indexed by [`Kind::index`].
#[derive(Clone, Debug)]
pub struct PieceTable {
    /// The kinds' names and letters, in the file's order.
    pub roster: Roster,
    /// `forms[kind][facing]`: only the pawn's differ by facing.
    pub forms: Vec<[Form; 2]>,
    /// Some form has a term outside the masks, so attack detection also
    /// looks forwards and every candidate is tested for king safety.
    pub has_other: bool,
    /// The movement texts as written, by kind.
    pub texts: Vec<String>,
    /// The royal kind.
    pub royal: Kind,
    /// The pawn, if the variant has one.
    pub pawn: Option<Kind>,
    /// The kind keeps the colour of a cell (GEO-I2): the designer's
    /// bishop check counts it.
    pub keeps_colour: Vec<bool>,
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

/// One castling, resolved: every cell it names, the cells strictly
/// between king and rook on the drawn home rank, and the kinds of the two
/// pieces the setup has there.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CastleSpec {
    pub king: CellId,
    pub king_to: CellId,
    pub transit: CellId,
    pub rook: CellId,
    pub rook_to: CellId,
    pub between: Vec<CellId>,
    /// The kind of the king (the royal kind).
    pub king_kind: Kind,
    /// The kind standing on `rook` in the setup: the rook in the shipped
    /// files.
    pub rook_kind: Kind,
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
    /// The kinds a pawn may become, in the file's order of choice.
    pub promotion_pieces: Vec<Kind>,
    /// Every kind's compiled movement.
    pub pieces: PieceTable,
    /// White's castlings, east then west; `None` without castling.
    pub castling: Option<[CastleSpec; 2]>,
    pub repetition: u32,
    pub move_rule_halfmoves: u32,
    /// What each kind is worth to the practice opponent, by kind; a
    /// promoted pawn is worth what its new kind is.
    pub values: Vec<i32>,
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
    /// Checks a variant file against its board's geometry: the first error
    /// of [`VariantData::resolve_all`].
    pub fn resolve(file: &str, vf: &VariantFile, geo: &Geometry) -> Result<VariantData, DataError> {
        crate::checks::first(VariantData::resolve_all(file, vf, geo))
    }

    /// Checks a variant file against its board's geometry, naming every
    /// independent mistake in the order of the sections: the exchange, the
    /// kinds, each setup row's rank and row, White's king, each promotion piece,
    /// each promotion rank, each castling, each ending threshold and each
    /// `[values]` entry.
    pub fn resolve_all(
        file: &str,
        vf: &VariantFile,
        geo: &Geometry,
    ) -> Result<VariantData, Vec<DataError>> {
        let mut checks = Checks::new();
        match VariantData::check(file, vf, Some(geo), &mut checks) {
            Some(data) => Ok(data),
            None => Err(checks.into_errors()),
        }
    }

    /// The sections of [`VariantData::resolve_all`], their errors kept in
    /// `checks`: the data when every section passed. Without a geometry
    /// (the board is unknown) only the sections that do not read the board
    /// are checked, and there is no data.
    pub(super) fn check(
        file: &str,
        vf: &VariantFile,
        geo: Option<&Geometry>,
        checks: &mut Checks<DataError>,
    ) -> Option<VariantData> {
        let err = |field: String, message: String| DataError {
            file: file.to_string(),
            field,
            message,
        };
        let board = geo.map(Geometry::board);
        let exchange = board.and_then(|b| {
            checks.take(exchange(vf.exchange, b).map_err(|m| err("exchange".into(), m)))
        });
        // The movement needs the board's name only (for its messages), so
        // the kinds are checked even when the board is unknown.
        let pieces = checks.take_all(piece_table(&err, &vf.pieces, &vf.board));
        let white_setup = board
            .zip(pieces.as_ref())
            .and_then(|(b, p)| checks.take_all(white_setup(&err, &vf.setup, b, p)));
        let promotion_pieces = pieces
            .as_ref()
            .and_then(|p| checks.take_all(promotion_pieces(&err, &vf.promotion.pieces, p)));
        let promotion = board.and_then(|b| checks.take_all(promotion(&err, &vf.promotion, b)));
        let castling = match (&vf.castling, board, pieces.as_ref()) {
            (None, _, _) => Some(None),
            (Some(c), Some(b), Some(p)) => checks
                .take_all(castling(&err, c, b, p, white_setup.as_deref()))
                .map(Some),
            (Some(_), _, _) => None,
        };
        let endings = checks.take_all(endings(&err, &vf.endings));
        let values = pieces.as_ref().and_then(|p| {
            checks.take_all(read_values(vf.values.as_ref(), p).map_err(|errors| {
                errors
                    .into_iter()
                    .map(|e| err(e.field, e.message))
                    .collect()
            }))
        });
        match (
            exchange,
            white_setup,
            pieces,
            promotion_pieces,
            promotion,
            castling,
            endings,
            values,
        ) {
            (
                Some(()),
                Some(white_setup),
                Some(pieces),
                Some(promotion_pieces),
                Some(promotion),
                Some(castling),
                Some((repetition, move_rule_halfmoves)),
                Some(values),
            ) => Some(VariantData {
                variant: vf.variant.clone(),
                board: vf.board.clone(),
                rules_version: vf.rules_version.clone(),
                exchange: vf.exchange,
                standard_fen: vf.standard_fen,
                white_setup,
                promotion,
                promotion_pieces,
                pieces,
                castling,
                repetition,
                move_rule_halfmoves,
                values,
            }),
            _ => None,
        }
    }
}

/// A data error of one file: its field and message.
type Fail<'a> = dyn Fn(String, String) -> DataError + 'a;

/// The exchange map needs the charts it swaps.
fn exchange(map: ExchangeMap, board: &Board) -> Result<(), String> {
    if map == ExchangeMap::SwapChartsHalfTurn && board.chart_count() != 2 {
        return Err("swap-charts-half-turn needs a board with two charts".into());
    }
    Ok(())
}

/// White's setup: each row's rank and its pieces are checked on their
/// own; then, with every row read, that White has one king.
fn white_setup(
    err: &Fail,
    rows: &[SetupRow],
    board: &Board,
    pieces: &PieceTable,
) -> Result<Vec<(CellId, Piece)>, Vec<DataError>> {
    let mut checks = Checks::new();
    let mut white_setup = Vec::new();
    let mut seen_ranks = std::collections::HashSet::new();
    for (i, row) in rows.iter().enumerate() {
        let field = format!("setup[{i}]");
        let rank = checks.take(
            parse_rank(board, &row.rank)
                .and_then(|r| {
                    if seen_ranks.insert(r) {
                        Ok(r)
                    } else {
                        Err(format!("rank {} is listed twice", row.rank))
                    }
                })
                .map_err(|m| err(format!("{field}.rank"), m)),
        );
        let kinds = checks.take(
            row_kinds(&row.row, board, &pieces.roster).map_err(|m| err(format!("{field}.row"), m)),
        );
        let (Some((chart, y)), Some(kinds)) = (rank, kinds) else {
            continue;
        };
        for (x, kind) in kinds {
            let cell = board.cell(Square { chart, x, y });
            let piece = if pieces.pawn == Some(kind) {
                // Every pawn of the setup has its double step (SC-4.2).
                Piece {
                    double_step: true,
                    ..Piece::new(Player::First, kind)
                }
            } else {
                Piece::new(Player::First, kind)
            };
            white_setup.push((cell, piece));
        }
    }
    // A row that was not read may hold the king.
    if checks.passed() {
        let kings = white_setup
            .iter()
            .filter(|(_, p)| p.kind == pieces.royal)
            .count();
        if kings != 1 {
            checks.push(err(
                "setup".into(),
                format!("White needs exactly one king, found {kings}"),
            ));
        }
    }
    checks.finish(white_setup)
}

/// The pieces of one setup row by file index, empty cells left out.
fn row_kinds(row: &str, board: &Board, roster: &Roster) -> Result<Vec<(u8, Kind)>, String> {
    let tokens: Vec<&str> = row.split_whitespace().collect();
    if tokens.len() != board.width() as usize {
        return Err(format!(
            "{} tokens, but the board has {} files",
            tokens.len(),
            board.width()
        ));
    }
    let mut kinds = Vec::new();
    for (x, t) in tokens.iter().enumerate() {
        if *t == "." {
            continue;
        }
        let kind = match t.chars().collect::<Vec<_>>().as_slice() {
            [c] if c.is_ascii_uppercase() => roster.by_letter(*c),
            _ => None,
        }
        .ok_or_else(|| {
            format!(
                "'{t}' at file {} is not one of . {}",
                Board::file_letter(x as u8),
                roster.letter_list()
            )
        })?;
        kinds.push((x as u8, kind));
    }
    Ok(kinds)
}

/// `[pieces]`: the kinds in the file's order, each read and its movement
/// compiled for the board (MV) on its own. Exactly one kind is royal and
/// at most one is the pawn. Only the pawn carries a facing (SC-3.1), so
/// every other kind must move alike in both facings, and the pawn moves
/// by single steps (MV-I5). No letter is `V`, the pawn's facing mark in
/// position texts (NT-I12).
fn piece_table(
    err: &Fail,
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
            .map(|e| err(e.field, e.message))
            .collect()
    }));
    for (name, p) in pieces.iter() {
        if p.letter == "V" {
            checks.push(err(
                format!("pieces.{name}.letter"),
                "'V' names no kind: a lower-case v after a piece is a pawn's facing mark in \
                 position texts (NT-I12)"
                    .into(),
            ));
        }
        if p.royal && p.pawn {
            checks.push(err(
                format!("pieces.{name}"),
                "one kind cannot be both the king and the pawn".into(),
            ));
        }
    }
    let named = |flag: fn(&PieceFile) -> bool| -> Vec<&str> {
        pieces
            .iter()
            .filter(|(_, p)| flag(p))
            .map(|(n, _)| n)
            .collect()
    };
    let royals = named(|p| p.royal);
    if royals.len() != 1 && !pieces.0.is_empty() {
        checks.push(err(
            "pieces".into(),
            format!(
                "exactly one kind is royal (royal = true), found {}{}",
                royals.len(),
                listed(&royals)
            ),
        ));
    }
    let pawns = named(|p| p.pawn);
    if pawns.len() > 1 {
        checks.push(err(
            "pieces".into(),
            format!(
                "at most one kind is the pawn (pawn = true), found {}{}",
                pawns.len(),
                listed(&pawns)
            ),
        ));
    }
    let n = pieces.0.len();
    let mut table = PieceTable {
        roster: Roster::default(),
        forms: vec![Default::default(); n],
        has_other: false,
        texts: vec![String::new(); n],
        royal: Kind::default(),
        pawn: None,
        keeps_colour: vec![false; n],
    };
    for (k, (name, entry)) in pieces.iter().enumerate() {
        let compiled = crate::movement::lang::parse(&entry.moves)
            .and_then(|m| Ok((m.keeps_colour(), square::compile(&m, board)?)))
            .map_err(|e| e.to_string())
            .and_then(|(keeps_colour, c)| {
                let steps_only = c
                    .forms
                    .iter()
                    .all(|f| f.rays == [0; 3] && f.knights == [0; 3] && f.other.is_empty());
                if entry.pawn && !steps_only {
                    Err(
                        "a pawn moves by single steps (SC-4.1): its double step and en \
                         passant are rules built on those steps"
                            .to_string(),
                    )
                } else if !entry.pawn && c.depends_on_facing() {
                    Err(format!(
                        "only a pawn carries a facing (SC-3.1), so a {name} must move alike \
                         whichever way it faces: 'f', 'b' and 'v' choose nothing for it"
                    ))
                } else {
                    Ok((keeps_colour, c))
                }
            });
        let field = format!("pieces.{name}.moves");
        let Some((keeps_colour, c)) = checks.take(compiled.map_err(|m| err(field, m))) else {
            continue;
        };
        table.has_other |= c.forms.iter().any(|f| !f.other.is_empty());
        table.texts[k] = entry.moves.clone();
        table.forms[k] = c.forms;
        table.keeps_colour[k] = keeps_colour;
        if entry.royal {
            table.royal = Kind::at(k);
        }
        if entry.pawn {
            table.pawn = Some(Kind::at(k));
        }
    }
    if let Some(roster) = roster {
        table.roster = roster;
    }
    checks.finish(table)
}

/// `: a, b` after a count of names, or nothing when there are none.
fn listed(names: &[&str]) -> String {
    if names.is_empty() {
        String::new()
    } else {
        format!(": {}", names.join(", "))
    }
}

/// The promotion choices, as letters of kinds other than the king and the
/// pawn: each entry is checked on its own.
fn promotion_pieces(
    err: &Fail,
    letters: &[String],
    pieces: &PieceTable,
) -> Result<Vec<Kind>, Vec<DataError>> {
    if letters.is_empty() {
        return Err(vec![err(
            "promotion.pieces".into(),
            "at least one choice is needed".into(),
        )]);
    }
    let roster = &pieces.roster;
    let mut checks = Checks::new();
    let mut kinds = Vec::new();
    for (i, p) in letters.iter().enumerate() {
        let mut chars = p.chars();
        let kind = match (chars.next(), chars.next()) {
            (Some(c), None) if c.is_ascii_uppercase() => roster.by_letter(c),
            _ => None,
        }
        .filter(|&k| k != pieces.royal && Some(k) != pieces.pawn)
        .ok_or_else(|| {
            let choices: Vec<String> = roster
                .kinds()
                .filter(|&k| k != pieces.royal && Some(k) != pieces.pawn)
                .map(|k| roster.letter(k).to_string())
                .collect();
            format!(
                "'{}' is not one of {}: a pawn becomes a kind of the variant other than \
                 the king and the pawn",
                crate::quote::excerpt(p),
                choices.join(" ")
            )
        })
        .and_then(|kind| {
            if kinds.contains(&kind) {
                Err(format!("'{p}' is listed twice"))
            } else {
                Ok(kind)
            }
        });
        if let Some(kind) = checks.take(kind.map_err(|m| err(format!("promotion.pieces[{i}]"), m)))
        {
            kinds.push(kind);
        }
    }
    checks.finish(kinds)
}

/// Where pawns promote: for `owner-ranks`, each player's rank is checked on
/// its own.
fn promotion(
    err: &Fail,
    promotion: &PromotionFile,
    board: &Board,
) -> Result<Promotion, Vec<DataError>> {
    if promotion.rule == PromotionRule::FacingLastRank {
        return Ok(Promotion::FacingLastRank);
    }
    let rank = |name: &str, v: &Option<String>| -> Result<(u8, u8), DataError> {
        let text = v.as_ref().ok_or_else(|| {
            err(
                format!("promotion.{name}"),
                "owner-ranks needs this rank".into(),
            )
        })?;
        parse_rank(board, text).map_err(|m| err(format!("promotion.{name}"), m))
    };
    let mut checks = Checks::new();
    let first = checks.take(rank("first", &promotion.first));
    let second = checks.take(rank("second", &promotion.second));
    match (first, second) {
        (Some(first), Some(second)) => Ok(Promotion::OwnerRanks([first, second])),
        _ => Err(checks.into_errors()),
    }
}

/// White's two castlings, each checked on its own, then that they name one
/// king. Without White's setup (a setup row failed) the king and rook
/// cells are not looked up in it.
fn castling(
    err: &Fail,
    c: &CastlingFile,
    board: &Board,
    pieces: &PieceTable,
    white_setup: Option<&[(CellId, Piece)]>,
) -> Result<[CastleSpec; 2], Vec<DataError>> {
    let mut checks = Checks::new();
    let east = checks.take_all(castle(err, "east", &c.east, board, pieces, white_setup));
    let west = checks.take_all(castle(err, "west", &c.west, board, pieces, white_setup));
    let (Some(east), Some(west)) = (east, west) else {
        return Err(checks.into_errors());
    };
    if east.king != west.king {
        return Err(vec![err(
            "castling".into(),
            "east and west name different kings".into(),
        )]);
    }
    Ok([east, west])
}

/// One castling: each cell named, then the drawn rank they stand on, then
/// the setup's king and rook: the castling's rook is whatever kind stands
/// on its cell, so long as it is neither the king nor the pawn.
fn castle(
    err: &Fail,
    name: &str,
    cf: &CastleFile,
    board: &Board,
    pieces: &PieceTable,
    white_setup: Option<&[(CellId, Piece)]>,
) -> Result<CastleSpec, Vec<DataError>> {
    let mut checks = Checks::new();
    let mut cell = |f: &str, t: &str| {
        checks.take(
            board
                .parse_cell(t)
                .map_err(|e| err(format!("castling.{name}.{f}"), e.to_string())),
        )
    };
    let cells = (
        cell("king", &cf.king),
        cell("king-to", &cf.king_to),
        cell("transit", &cf.transit),
        cell("rook", &cf.rook),
        cell("rook-to", &cf.rook_to),
    );
    let (Some(king), Some(king_to), Some(transit), Some(rook), Some(rook_to)) = cells else {
        return Err(checks.into_errors());
    };
    let (k, r) = (board.square(king), board.square(rook));
    if (k.chart, k.y) != (r.chart, r.y) || k.x == r.x {
        return Err(vec![err(
            format!("castling.{name}"),
            "king and rook must stand on one drawn rank, on different files".into(),
        )]);
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
        ("king-to", king_to),
        ("rook-to", rook_to),
        ("transit", transit),
    ] {
        if !between.contains(&c) && c != king && c != rook {
            checks.push(err(
                format!("castling.{name}.{f}"),
                "must lie on the segment between king and rook".into(),
            ));
        }
    }
    let mut rook_kind = Kind::default();
    if let Some(setup) = white_setup {
        let at = |c: CellId| setup.iter().find(|(x, _)| *x == c).map(|(_, p)| p.kind);
        if at(king) != Some(pieces.royal) {
            checks.push(err(
                format!("castling.{name}.king"),
                "the setup has no king there".into(),
            ));
        }
        match at(rook) {
            Some(k) if k != pieces.royal && Some(k) != pieces.pawn => rook_kind = k,
            _ => checks.push(err(
                format!("castling.{name}.rook"),
                "the setup has no rook there (a piece other than the king and the pawn)".into(),
            )),
        }
    }
    checks.finish(CastleSpec {
        king,
        king_to,
        transit,
        rook,
        rook_to,
        between,
        king_kind: pieces.royal,
        rook_kind,
    })
}

/// The automatic-draw thresholds: (repetition, move-rule halfmoves), each
/// checked on its own.
fn endings(err: &Fail, endings: &EndingsFile) -> Result<(u32, u32), Vec<DataError>> {
    let mut checks = Checks::new();
    if endings.repetition < 2 {
        checks.push(err(
            "endings.repetition".into(),
            "must be at least 2".into(),
        ));
    }
    if endings.move_rule_halfmoves == 0 {
        checks.push(err(
            "endings.move-rule-halfmoves".into(),
            "must be positive".into(),
        ));
    }
    checks.finish((endings.repetition, endings.move_rule_halfmoves))
}

/// The `[values]` table, keyed by the letters the setup rows use.
fn read_values(
    table: Option<&toml::Value>,
    pieces: &PieceTable,
) -> Result<Vec<i32>, Vec<crate::values::ValueError>> {
    let roster = &pieces.roster;
    let letters: Vec<String> = roster
        .kinds()
        .map(|k| roster.letter(k).to_string())
        .collect();
    let kinds: Vec<&str> = letters.iter().map(String::as_str).collect();
    let royal = roster.letter(pieces.royal).to_string();
    let names = crate::values::Names {
        kinds: &kinds,
        royal: &royal,
        promoted: &[],
    };
    let read = crate::values::read_all(table, &names)?;
    Ok(letters.iter().map(|l| read.of(l, false)).collect())
}
