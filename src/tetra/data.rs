//! The variant data files `spec/tetra/*.toml`: serde types and their
//! validation into [`VariantData`] (clauses TS-3, TS-4.1, TS-6.3).
//!
//! A file names its board, its promotion zone depth, the repetition count,
//! and for every kind in the army: its letter, how many each player has,
//! White's starting cells (Black's are their image under the player
//! exchange), how it moves (in the movement language of
//! `spec/movement/rules.md`), what it promotes to and how it then moves,
//! and which kind it may switch with.
//! Editing a file changes the variant with no code change. Each kind is
//! checked on its own, so that one run names every broken entry.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::pieces::Kind;
use crate::checks::Checks;
use crate::movement::lattice::{self, Move};

/// The serde form of one variant file.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct VariantFile {
    /// Variant name, e.g. `tetra-shogi`.
    pub name: String,
    #[serde(default)]
    pub title: String,
    /// The rules version this data implements.
    pub rules: String,
    /// A tetrahedral board of the spec library, e.g. `tetra9`.
    pub board: String,
    /// Depth of each promotion zone in ranks (the far ranks).
    pub zone_ranks: u8,
    /// The occurrence of one position that draws the game.
    pub repetition_draw: u32,
    /// The army, by kind.
    pub pieces: BTreeMap<Kind, PieceEntry>,
    /// Piece values by kind, read only by the practice opponent (see
    /// [`crate::values`]); absent, every piece but the royal one is worth
    /// 100.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub values: Option<toml::Value>,
}

/// One kind of the army.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PieceEntry {
    /// One upper-case ASCII letter (lower case for Black in position text).
    pub letter: char,
    /// How many each player starts with.
    pub count: u8,
    /// White's starting cells; Black's are their images under Φ.
    pub cells: Vec<String>,
    /// How the kind moves, in its owner's frame (TS-2, TH-2, MV-7).
    pub moves: String,
    /// The name of what the piece becomes by promotion (a kind of the
    /// army it then moves as, or a piece of its own such as the
    /// chatelaine); absent if unpromotable.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub promotes_to: Option<String>,
    /// How the promoted piece moves; present exactly when `promotes_to` is.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub promoted: Option<String>,
    /// The kind it may turn into after a move touching the zone.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub switches_with: Option<Kind>,
}

/// A variant file that is not a consistent variant. Messages, kinds and
/// cells may quote the file's text: they are shown bounded (see
/// [`crate::quote`]).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum DataError {
    #[error("{file}: {}", crate::quote::bounded(.message))]
    Parse { file: String, message: String },
    #[error("{file}: board '{}' is not a tetrahedral board of the spec library", crate::quote::excerpt(.board))]
    UnknownBoard { file: String, board: String },
    #[error("{file}: pieces.{}: {}", crate::quote::excerpt(.kind), crate::quote::bounded(.message))]
    Piece {
        file: String,
        kind: String,
        message: String,
    },
    #[error(
        "{file}: pieces.{}.cells: '{}': {}",
        crate::quote::excerpt(.kind),
        crate::quote::excerpt(.cell),
        crate::quote::bounded(.message)
    )]
    Cell {
        file: String,
        kind: String,
        cell: String,
        message: String,
    },
    #[error("{file}: {}: {}", crate::quote::excerpt(.field), crate::quote::bounded(.message))]
    Field {
        file: String,
        field: String,
        message: String,
    },
}

/// The validated data of one variant (cells still as text; the rules
/// resolve them on their board).
#[derive(Clone, Debug)]
pub struct VariantData {
    pub file: String,
    pub name: String,
    pub title: String,
    pub rules: String,
    pub board: String,
    pub zone_ranks: u8,
    pub repetition_draw: u32,
    /// The kinds of the army, in [`Kind`] order.
    pub kinds: Vec<Kind>,
    pub letter: [Option<char>; Kind::COUNT],
    pub count: [u8; Kind::COUNT],
    pub cells: [Vec<String>; Kind::COUNT],
    pub promotes_to: [Option<String>; Kind::COUNT],
    /// `moves[kind][promoted]`: the compiled movement in the owner's
    /// frame; a kind that never promotes has its own in both slots.
    pub moves: [[Vec<Move>; 2]; Kind::COUNT],
    /// The movement texts as written: `moves` and `promoted`, by kind.
    pub texts: [(String, Option<String>); Kind::COUNT],
    pub switches_with: [Option<Kind>; Kind::COUNT],
    /// The one royal kind.
    pub royal: Kind,
    /// `values[promoted][kind]`: what a piece is worth to the practice
    /// opponent; a piece in hand is worth its kind unpromoted.
    pub values: [[i32; Kind::COUNT]; 2],
}

impl VariantFile {
    /// Reads the TOML of one variant file.
    pub fn parse(file: &str, text: &str) -> Result<VariantFile, DataError> {
        toml::from_str(text).map_err(|e| DataError::Parse {
            file: file.to_string(),
            message: e.to_string(),
        })
    }
}

impl VariantData {
    /// Parses and checks everything that does not need the board: the
    /// first error of [`VariantFile::parse`] and [`VariantData::check`].
    pub fn parse(file: &str, text: &str) -> Result<VariantData, DataError> {
        let f = VariantFile::parse(file, text)?;
        crate::checks::first(VariantData::check(file, &f))
    }

    /// Checks everything that does not need the board, naming every
    /// independent mistake in the file's order: the name, the rules
    /// version, the zone, the repetition count, each kind of the army, the
    /// one royal kind, and each `[values]` entry. The values are named by
    /// the army (its kinds, its royal kind, the kinds that promote), so
    /// they are checked only once the army passed.
    pub fn check(file: &str, f: &VariantFile) -> Result<VariantData, Vec<DataError>> {
        let field = |field: &str, message: String| DataError::Field {
            file: file.to_string(),
            field: field.to_string(),
            message,
        };
        let mut checks = Checks::new();
        if f.name.trim().is_empty() {
            checks.push(field("name", "the variant needs a name".into()));
        }
        if f.rules.trim().is_empty() {
            checks.push(field("rules", "the rules version is empty".into()));
        }
        if f.zone_ranks == 0 {
            checks.push(field("zone_ranks", "a zone has at least one rank".into()));
        }
        if f.repetition_draw < 2 {
            checks.push(field(
                "repetition_draw",
                format!(
                    "{}: a repetition needs at least a second occurrence",
                    f.repetition_draw
                ),
            ));
        }
        let mut letters = BTreeMap::new();
        let army = checks.each(&f.pieces, |(&k, e)| {
            check_piece(file, k, e, f, &mut letters)
        });
        let royals: Vec<Kind> = f.pieces.keys().copied().filter(|k| k.is_royal()).collect();
        let royal = match royals.as_slice() {
            [r] => Some(*r),
            _ => {
                checks.push(field(
                    "pieces",
                    format!(
                        "the army needs exactly one royal kind (king or general), found {}",
                        royals.len()
                    ),
                ));
                None
            }
        };
        // The values table is named by the army: judged once it passed.
        let (Some(_), Some(royal)) = (army, royal) else {
            return Err(checks.into_errors());
        };
        let mut d = VariantData {
            file: file.to_string(),
            name: f.name.clone(),
            title: f.title.clone(),
            rules: f.rules.clone(),
            board: f.board.clone(),
            zone_ranks: f.zone_ranks,
            repetition_draw: f.repetition_draw,
            kinds: f.pieces.keys().copied().collect(),
            letter: [None; Kind::COUNT],
            count: [0; Kind::COUNT],
            cells: Default::default(),
            promotes_to: Default::default(),
            moves: Default::default(),
            texts: Default::default(),
            switches_with: [None; Kind::COUNT],
            royal,
            values: [[0; Kind::COUNT]; 2],
        };
        for (&k, e) in &f.pieces {
            d.letter[k.index()] = Some(e.letter);
            d.count[k.index()] = e.count;
            d.cells[k.index()] = e.cells.clone();
            d.promotes_to[k.index()] = e.promotes_to.clone();
            d.texts[k.index()] = (e.moves.clone(), e.promoted.clone());
            // Compiled in `check_piece`, which refused any that fail.
            let compile = |text: &str| {
                lattice::compile_text(text, &f.board)
                    .map(|c| c.moves)
                    .unwrap_or_default()
            };
            let own = compile(&e.moves);
            let into = e
                .promotes_to
                .as_deref()
                .and_then(|m| f.pieces.iter().find(|(o, _)| o.name() == m));
            let up = match (&e.promoted, into) {
                (Some(text), _) => compile(text),
                (None, Some((_, other))) => compile(&other.moves),
                (None, None) => own.clone(),
            };
            d.moves[k.index()] = [own, up];
            d.switches_with[k.index()] = e.switches_with;
        }
        let values = d.read_values(f.values.as_ref()).map_err(|errors| {
            errors
                .into_iter()
                .map(|e| field(&e.field, e.message))
                .collect()
        });
        if let Some(values) = checks.take_all(values) {
            d.values = values;
        }
        checks.finish(d)
    }

    /// The `[values]` table, keyed by the kind names of `[pieces]`, with
    /// the kinds that have `promotes_to` in `[values.promoted]`.
    fn read_values(
        &self,
        table: Option<&toml::Value>,
    ) -> Result<[[i32; Kind::COUNT]; 2], Vec<crate::values::ValueError>> {
        let kinds: Vec<&str> = self.kinds.iter().map(|k| k.name()).collect();
        let promoting: Vec<&str> = self
            .kinds
            .iter()
            .filter(|k| self.promotes_to[k.index()].is_some())
            .map(|k| k.name())
            .collect();
        let names = crate::values::Names {
            kinds: &kinds,
            royal: self.royal.name(),
            promoted: &promoting,
        };
        let read = crate::values::read_all(table, &names)?;
        Ok([false, true].map(|promoted| Kind::ALL.map(|k| read.of(k.name(), promoted))))
    }

    /// The kind a piece is held as in hand: a switching pair is one class,
    /// named by the earlier kind of the pair (TS-5.3).
    pub fn hand_class(&self, k: Kind) -> Kind {
        match self.switches_with[k.index()] {
            Some(other) if other < k => other,
            _ => k,
        }
    }

    /// The kind whose letter is `c` (either case).
    pub fn kind_of_letter(&self, c: char) -> Option<Kind> {
        let up = c.to_ascii_uppercase();
        self.kinds
            .iter()
            .copied()
            .find(|k| self.letter[k.index()] == Some(up))
    }

    pub fn letter_of(&self, k: Kind) -> char {
        self.letter[k.index()].unwrap_or('?')
    }
}

/// One kind of the army: its letter (unique among the kinds checked so
/// far, in `letters`), its count and cells, and what a royal, promoting or
/// switching kind may be.
fn check_piece(
    file: &str,
    k: Kind,
    e: &PieceEntry,
    f: &VariantFile,
    letters: &mut BTreeMap<char, Kind>,
) -> Result<(), DataError> {
    let piece = |message: String| DataError::Piece {
        file: file.to_string(),
        kind: k.name().to_string(),
        message,
    };
    if !e.letter.is_ascii_uppercase() {
        return Err(piece(format!(
            "letter '{}' is not an upper-case ASCII letter",
            e.letter
        )));
    }
    if let Some(other) = letters.get(&e.letter) {
        return Err(piece(format!(
            "letter '{}' is also {}'s",
            e.letter,
            other.name()
        )));
    }
    letters.insert(e.letter, k);
    if e.cells.len() != e.count as usize {
        return Err(piece(format!(
            "count is {} but {} starting cells are listed",
            e.count,
            e.cells.len()
        )));
    }
    if k.is_royal() {
        if e.count != 1 {
            return Err(piece(format!("a royal piece has count 1, not {}", e.count)));
        }
        if e.promotes_to.is_some() || e.switches_with.is_some() {
            return Err(piece("a royal piece neither promotes nor switches".into()));
        }
    }
    let movement = |key: &str, text: &str| {
        lattice::compile_text(text, &f.board).map_err(|x| DataError::Field {
            file: file.to_string(),
            field: format!("pieces.{}.{key}", k.name()),
            message: x.to_string(),
        })
    };
    movement("moves", &e.moves)?;
    // A promotion into a kind of the army moves as that kind; into a
    // piece of its own, by its own `promoted` movement.
    let army_kind = e
        .promotes_to
        .as_deref()
        .is_some_and(|m| f.pieces.keys().any(|o| o.name() == m));
    match (&e.promotes_to, &e.promoted) {
        (Some(m), None) if !army_kind => {
            return Err(piece(format!(
                "promotes_to '{m}' is no kind of the army, so `promoted` must give its movement"
            )));
        }
        (Some(m), Some(_)) if army_kind => {
            return Err(piece(format!(
                "promotes_to '{m}' is a kind of the army, which moves as its own `moves` say; \
                 drop `promoted`"
            )));
        }
        (None, Some(_)) => {
            return Err(piece(
                "`promoted` is a movement for promotion, but promotes_to is absent".into(),
            ));
        }
        (_, Some(text)) => {
            movement("promoted", text)?;
        }
        _ => {}
    }
    if let Some(m) = &e.promotes_to {
        if Kind::ALL.iter().any(|r| r.is_royal() && r.name() == m) {
            return Err(piece(format!("cannot promote to royal '{m}'")));
        }
        if e.switches_with.is_some() {
            return Err(piece(
                "a piece either promotes or switches, not both".into(),
            ));
        }
    }
    if let Some(other) = e.switches_with {
        let back = f.pieces.get(&other).and_then(|o| o.switches_with);
        if other == k || back != Some(k) {
            return Err(piece(format!(
                "switches_with '{}' must name another kind that switches back",
                other.name()
            )));
        }
    }
    Ok(())
}
