//! The family's spec data: one TOML file per variant in `spec/kyoto/`
//! (board, setup, flip table, repetition rule, optional `[values]`), its
//! serde form and its validation into a [`KyotoRules`]. Apart from the
//! rules because reading a file happens once, when a variant is built, and
//! every rejection names the file and the entry; no rule reads the TOML.

use std::collections::BTreeMap;

use serde::Deserialize;

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
    repetition: RepetitionFile,
    /// Face values, read only by the practice opponent (see
    /// [`crate::values`]); absent, every face but the king's is worth 100.
    #[serde(default)]
    values: Option<toml::Value>,
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
    /// Builds a variant from its data file and the boards of `lib`.
    pub fn from_toml(file: &str, text: &str, lib: &Library) -> Result<KyotoRules, DataError> {
        let fail = |entry: &str, message: String| DataError {
            file: file.to_string(),
            entry: entry.to_string(),
            message,
        };
        let data: VariantFile =
            toml::from_str(text).map_err(|e| fail("document", e.message().to_string()))?;
        let geo = lib
            .geometry(&data.board)
            .map_err(|e| fail("board", e.to_string()))?
            .clone();
        let b = geo.board();
        if b.chart_count() != 1 || b.width() as usize != SIZE || b.height() as usize != SIZE {
            return Err(fail(
                "board",
                format!("'{}' is not a single {SIZE}×{SIZE} chart", data.board),
            ));
        }
        let setup: [Face; SIZE] = data.setup.clone().try_into().map_err(|_| {
            fail(
                "setup",
                format!("{} faces; the first rank has {SIZE}", data.setup.len()),
            )
        })?;
        if setup.iter().filter(|f| **f == Face::King).count() != 1 {
            return Err(fail(
                "setup",
                "the first rank needs exactly one king".into(),
            ));
        }
        for face in Face::ALL {
            let Some(token) = face.token() else {
                if data.flips.contains_key(&face) {
                    return Err(fail("flips.king", "the king never flips".into()));
                }
                continue;
            };
            let to = data.flips.get(&face).ok_or_else(|| {
                fail(
                    &format!("flips.{}", face.name()),
                    "every face but the king's needs a flip".into(),
                )
            })?;
            if to.token() != Some(token) || *to == face {
                return Err(fail(
                    &format!("flips.{}", face.name()),
                    format!("a {} turns into the other face of its token", face.name()),
                ));
            }
        }
        if data.repetition.occurrence < 2 {
            return Err(fail(
                "repetition.occurrence",
                "a repetition needs at least the second occurrence".into(),
            ));
        }
        let values = read_values(data.values.as_ref()).map_err(|e| fail(&e.field, e.message))?;
        let hand_values = Token::ALL.map(|t| {
            let [a, b] = t.faces();
            values[a as usize].max(values[b as usize])
        });
        Ok(KyotoRules {
            name: data.variant,
            rules_version: data.rules_version,
            geo,
            setup,
            flips: data.flips,
            repetition_at: data.repetition.occurrence,
            repetition: data.repetition.rule,
            values,
            hand_values,
            mutant_flip_on_drop: false,
        })
    }
}

/// The `[values]` table, keyed by the face names `flips` uses:
/// `values[face as usize]`.
fn read_values(table: Option<&toml::Value>) -> Result<[i32; 9], crate::values::ValueError> {
    let faces = Face::ALL.map(Face::name);
    let names = crate::values::Names {
        kinds: &faces,
        royal: Face::King.name(),
        promoted: &[],
    };
    let read = crate::values::read(table, &names)?;
    Ok(Face::ALL.map(|f| read.of(f.name(), false)))
}
