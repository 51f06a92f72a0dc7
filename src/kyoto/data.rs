//! The family's spec data: one TOML file per variant in `spec/kyoto/`
//! (board, setup, flip table, each face's movement, repetition rule,
//! optional `[values]`), its
//! serde form and its validation into a [`KyotoRules`]. Apart from the
//! rules because reading a file happens once, when a variant is built, and
//! every rejection names the file and the entry; no rule reads the TOML.
//! Each entry is checked on its own, so that one run names every broken
//! entry.

use std::collections::BTreeMap;

use serde::Deserialize;

use crate::checks::Checks;
use crate::geometry::Geometry;
use crate::movement::square::{self, Form};
use crate::spec::Library;

use super::KyotoRules;
use super::pieces::{Face, Token};
use super::position::SIZE;

/// What ends a game on repetition (`KY-6`).
#[derive(Copy, Clone, Eq, PartialEq, Debug, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum RepetitionRule {
    /// The original rule: a draw.
    Draw,
    /// The alternative: the player completing the repetition loses, except
    /// that a player who checked on every move since the first occurrence
    /// loses instead.
    Loss,
}

#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
struct RepetitionFile {
    occurrence: u32,
    rule: RepetitionRule,
}

/// The serde form of `spec/kyoto/*.toml`.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
struct VariantFile {
    variant: String,
    board: String,
    rules_version: String,
    setup: Vec<Face>,
    flips: BTreeMap<Face, Face>,
    /// Each face's movement (KY-3, MV), by face name.
    pieces: BTreeMap<Face, PieceFile>,
    repetition: RepetitionFile,
    /// Face values, read only by the practice opponent (see
    /// [`crate::values`]); absent, every face but the king's is worth 100.
    #[serde(default)]
    values: Option<toml::Value>,
}

/// `[pieces.<face>]`: how one face moves, in the movement language of
/// `spec/movement/rules.md`.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct PieceFile {
    moves: String,
}

/// A variant file that does not describe a Kyoto variant.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
// The message may quote the file's text: shown bounded (see crate::quote).
#[error("{file}: {}: {}", crate::quote::excerpt(.entry), crate::quote::bounded(.message))]
pub struct DataError {
    pub file: String,
    pub entry: String,
    pub message: String,
}

impl KyotoRules {
    /// Builds a variant from its data file and the boards of `lib`: the
    /// first error of [`KyotoRules::load`].
    pub fn from_toml(file: &str, text: &str, lib: &Library) -> Result<KyotoRules, DataError> {
        crate::checks::first(KyotoRules::load(file, text, lib))
    }

    /// Builds a variant from its data file and the boards of `lib`, or
    /// names every independent mistake of the file in the order the
    /// entries are checked: the board, the setup, each face's flip, the
    /// repetition count and each `[values]` entry. Only a file that is not
    /// valid TOML of the schema stops at once: no other entry reads the
    /// board, whose size is the family's.
    pub fn load(file: &str, text: &str, lib: &Library) -> Result<KyotoRules, Vec<DataError>> {
        let fail = |entry: &str, message: String| DataError {
            file: file.to_string(),
            entry: entry.to_string(),
            message,
        };
        let data: VariantFile = toml::from_str(text).map_err(|e| {
            // Where the file says it, as the chess files do: the bytes
            // of the entry that does not read (`seams spec check`
            // turns them into a line).
            let entry = e.span().map_or_else(
                || "document".into(),
                |s| format!("bytes {}..{}", s.start, s.end),
            );
            vec![fail(&entry, e.message().trim().to_string())]
        })?;
        let mut checks = Checks::new();
        let geo = checks.take(board(lib, &data.board).map_err(|m| fail("board", m)));
        let setup = checks.take(setup(&data.setup).map_err(|m| fail("setup", m)));
        for face in Face::ALL {
            checks.take(
                flip(face, &data.flips).map_err(|m| fail(&format!("flips.{}", face.name()), m)),
            );
        }
        let forms = checks.take_all(
            geo.as_ref()
                .map_or(Ok(Default::default()), |g| {
                    face_forms(&data.pieces, g.board())
                })
                .map_err(|errors| {
                    errors
                        .into_iter()
                        .map(|(entry, m)| fail(&entry, m))
                        .collect()
                }),
        );
        if data.repetition.occurrence < 2 {
            checks.push(fail(
                "repetition.occurrence",
                "a repetition needs at least the second occurrence".into(),
            ));
        }
        let values = checks.take_all(read_values(data.values.as_ref()).map_err(|errors| {
            errors
                .into_iter()
                .map(|e| fail(&e.field, e.message))
                .collect()
        }));
        let (Some(geo), Some(setup), Some(forms), Some(values)) = (geo, setup, forms, values)
        else {
            return Err(checks.into_errors());
        };
        let hand_values = Token::ALL.map(|t| {
            let [a, b] = t.faces();
            values[a as usize].max(values[b as usize])
        });
        checks.finish(KyotoRules {
            name: data.variant,
            rules_version: data.rules_version,
            geo,
            setup,
            flips: data.flips,
            forms,
            repetition_at: data.repetition.occurrence,
            repetition: data.repetition.rule,
            values,
            hand_values,
            mutant_flip_on_drop: false,
        })
    }
}

/// `[pieces]`: every face once, its movement compiled for the board in
/// both facings (the first player's pieces face up, the second's down);
/// each entry is checked on its own.
fn face_forms(
    pieces: &BTreeMap<Face, PieceFile>,
    board: &crate::topology::Board,
) -> Result<[[Form; 2]; 9], Vec<(String, String)>> {
    let mut forms: [[Form; 2]; 9] = Default::default();
    let mut errors = Vec::new();
    for face in Face::ALL {
        let entry = format!("pieces.{}", face.name());
        let Some(piece) = pieces.get(&face) else {
            errors.push((entry, "missing: every face needs its movement".into()));
            continue;
        };
        match square::compile_text(&piece.moves, board.name()) {
            Ok(c) => forms[face as usize] = c.forms,
            Err(e) => errors.push((format!("{entry}.moves"), e.to_string())),
        }
    }
    if errors.is_empty() {
        Ok(forms)
    } else {
        Err(errors)
    }
}

/// The board: one chart of the family's size.
fn board(lib: &Library, name: &str) -> Result<Geometry, String> {
    let geo = lib.geometry(name).map_err(|e| e.to_string())?;
    let b = geo.board();
    if b.chart_count() != 1 || b.width() as usize != SIZE || b.height() as usize != SIZE {
        return Err(format!("'{name}' is not a single {SIZE}×{SIZE} chart"));
    }
    Ok(geo.clone())
}

/// Each player's first rank, with exactly one king.
fn setup(faces: &[Face]) -> Result<[Face; SIZE], String> {
    let setup: [Face; SIZE] = faces
        .try_into()
        .map_err(|_| format!("{} faces; the first rank has {SIZE}", faces.len()))?;
    if setup.iter().filter(|f| **f == Face::King).count() != 1 {
        return Err("the first rank needs exactly one king".into());
    }
    Ok(setup)
}

/// KY-3.1: every face but the king's turns into the other face of its
/// token; the king never flips.
fn flip(face: Face, flips: &BTreeMap<Face, Face>) -> Result<(), String> {
    let Some(token) = face.token() else {
        if flips.contains_key(&face) {
            return Err("the king never flips".into());
        }
        return Ok(());
    };
    let to = flips
        .get(&face)
        .ok_or_else(|| "every face but the king's needs a flip".to_string())?;
    if to.token() != Some(token) || *to == face {
        return Err(format!(
            "a {} turns into the other face of its token",
            face.name()
        ));
    }
    Ok(())
}

/// The `[values]` table, keyed by the face names `flips` uses:
/// `values[face as usize]`.
fn read_values(table: Option<&toml::Value>) -> Result<[i32; 9], Vec<crate::values::ValueError>> {
    let faces = Face::ALL.map(Face::name);
    let names = crate::values::Names {
        kinds: &faces,
        royal: Face::King.name(),
        promoted: &[],
    };
    let read = crate::values::read_all(table, &names)?;
    Ok(Face::ALL.map(|f| read.of(f.name(), false)))
}
