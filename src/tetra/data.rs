//! The variant data files `spec/tetra/*.toml`: serde types and their
//! validation into [`VariantData`] (clauses TS-3, TS-4.1, TS-6.3).
//!
//! A file names its board, its promotion zone depth, the repetition count,
//! and its army: one `[pieces.<name>]` table per kind, in the order that is
//! the kinds' order (TS-3.3), each with its letter, whether it is the royal
//! kind, how many each player has, White's starting cells (Black's are
//! their image under the player exchange), how it moves (in the movement
//! language of `spec/movement/rules.md`), what it promotes to and how it
//! then moves, and which kind it may switch with. A [`Kind`] is a place in
//! that list ([`crate::rules::roster`]).
//! Editing a file changes the variant with no code change, a new kind of
//! piece included. Each kind is checked on its own, so that one run names
//! every broken entry.

use serde::{Deserialize, Serialize};

use super::pieces::Kind;
use crate::checks::Checks;
use crate::movement::lattice::{self, Move};
use crate::rules::roster::{Ordered, Roster};

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
    /// The army, one table per kind in the file's order: the kinds'
    /// order (TS-3.3).
    pub pieces: Ordered<PieceEntry>,
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
    /// One upper-case letter `A`–`Z` no other kind has (lower case for
    /// Black in position text).
    pub letter: String,
    /// The royal kind (TS-6.1): exactly one kind of the army is, it must
    /// be kept out of check, and it is never captured or held in hand.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub royal: bool,
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
    /// How the promoted piece moves; present exactly when `promotes_to`
    /// names no kind of the army.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub promoted: Option<String>,
    /// The name of the kind it may turn into after a move touching the
    /// zone (TH-4.1); that kind names this one back.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub switches_with: Option<String>,
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
/// resolve them on their board). Every per-kind list is indexed by
/// [`Kind::index`] and has one entry per kind of the roster.
#[derive(Clone, Debug)]
pub struct VariantData {
    pub file: String,
    pub name: String,
    pub title: String,
    pub rules: String,
    pub board: String,
    pub zone_ranks: u8,
    pub repetition_draw: u32,
    /// The kinds' names and letters, in the file's order (TS-3.3).
    pub roster: Roster,
    /// Every kind of the army, in the file's order.
    pub kinds: Vec<Kind>,
    pub count: Vec<u8>,
    pub cells: Vec<Vec<String>>,
    pub promotes_to: Vec<Option<String>>,
    /// `moves[kind][promoted]`: the compiled movement in the owner's
    /// frame; a kind that never promotes has its own in both slots.
    pub moves: Vec<[Vec<Move>; 2]>,
    /// The movement texts as written: `moves` and `promoted`, by kind.
    pub texts: Vec<(String, Option<String>)>,
    pub switches_with: Vec<Option<Kind>>,
    /// The one royal kind.
    pub royal: Kind,
    /// `values[promoted][kind]`: what a piece is worth to the practice
    /// opponent; a piece in hand is worth its kind unpromoted.
    pub values: [Vec<i32>; 2],
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
    /// version, the zone, the repetition count, the kinds' names and
    /// letters, each kind of the army, the one royal kind, and each
    /// `[values]` entry. The values are named by the army (its kinds, its
    /// royal kind, the kinds that promote), so they are checked only once
    /// the army passed.
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
        let letters: Vec<(&str, &str)> = f
            .pieces
            .iter()
            .map(|(name, e)| (name, e.letter.as_str()))
            .collect();
        let roster = checks.take_all(Roster::read(&letters).map_err(|errors| {
            errors
                .into_iter()
                .map(|e| field(&e.field, e.message))
                .collect()
        }));
        let army = checks.each(f.pieces.iter(), |(name, e)| check_piece(file, name, e, f));
        let royals: Vec<usize> = f
            .pieces
            .iter()
            .enumerate()
            .filter(|(_, (_, e))| e.royal)
            .map(|(i, _)| i)
            .collect();
        // The royal kind's place; a [`Kind`] only once the roster has
        // passed, which bounds the places by `MAX_KINDS`.
        let royal = match royals.as_slice() {
            [r] => Some(*r),
            // A file with no kinds is told so by the roster.
            _ if f.pieces.0.is_empty() => None,
            _ => {
                let names: Vec<&str> = royals.iter().map(|&i| f.pieces.0[i].0.as_str()).collect();
                checks.push(field(
                    "pieces",
                    format!(
                        "the army needs exactly one royal kind (royal = true), found {}{}",
                        royals.len(),
                        if names.is_empty() {
                            String::new()
                        } else {
                            format!(": {}", names.join(", "))
                        }
                    ),
                ));
                None
            }
        };
        // The values table is named by the army: judged once it passed.
        let (Some(roster), Some(_), Some(royal)) = (roster, army, royal) else {
            return Err(checks.into_errors());
        };
        let n = roster.len();
        let royal = Kind::at(royal);
        let mut d = VariantData {
            file: file.to_string(),
            name: f.name.clone(),
            title: f.title.clone(),
            rules: f.rules.clone(),
            board: f.board.clone(),
            zone_ranks: f.zone_ranks,
            repetition_draw: f.repetition_draw,
            kinds: roster.kinds().collect(),
            count: Vec::with_capacity(n),
            cells: Vec::with_capacity(n),
            promotes_to: Vec::with_capacity(n),
            moves: Vec::with_capacity(n),
            texts: Vec::with_capacity(n),
            switches_with: Vec::with_capacity(n),
            royal,
            values: [vec![0; n], vec![0; n]],
            roster,
        };
        for (_, e) in f.pieces.iter() {
            d.count.push(e.count);
            d.cells.push(e.cells.clone());
            d.promotes_to.push(e.promotes_to.clone());
            d.texts.push((e.moves.clone(), e.promoted.clone()));
            // Compiled in `check_piece`, which refused any that fail.
            let compile = |text: &str| {
                lattice::compile_text(text, &f.board)
                    .map(|c| c.moves)
                    .unwrap_or_default()
            };
            let own = compile(&e.moves);
            let into = e.promotes_to.as_deref().and_then(|m| f.pieces.get(m));
            let up = match (&e.promoted, into) {
                (Some(text), _) => compile(text),
                (None, Some(other)) => compile(&other.moves),
                (None, None) => own.clone(),
            };
            d.moves.push([own, up]);
            // `check_piece` made sure the partner is a kind of the army.
            let partner = e.switches_with.as_deref().and_then(|o| d.roster.by_name(o));
            d.switches_with.push(partner);
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
    ) -> Result<[Vec<i32>; 2], Vec<crate::values::ValueError>> {
        let kinds: Vec<&str> = self.roster.names().collect();
        let promoting: Vec<&str> = self
            .kinds
            .iter()
            .filter(|k| self.promotes_to[k.index()].is_some())
            .map(|&k| self.roster.name(k))
            .collect();
        let names = crate::values::Names {
            kinds: &kinds,
            royal: self.roster.name(self.royal),
            promoted: &promoting,
        };
        let read = crate::values::read_all(table, &names)?;
        Ok([false, true].map(|promoted| {
            self.kinds
                .iter()
                .map(|&k| read.of(self.roster.name(k), promoted))
                .collect()
        }))
    }

    /// Whether `k` is a kind of this variant's army: a [`Kind`] made by
    /// this variant always is, one built by hand may not be.
    #[inline]
    pub fn has(&self, k: Kind) -> bool {
        k.index() < self.kinds.len()
    }

    /// The kind a piece is held as in hand: a switching pair is one class,
    /// named by the earlier kind of the pair (TH-5.1).
    #[inline]
    pub fn hand_class(&self, k: Kind) -> Kind {
        match self.switches_with[k.index()] {
            Some(other) if other < k => other,
            _ => k,
        }
    }

    /// The kind whose letter is `c` (either case).
    pub fn kind_of_letter(&self, c: char) -> Option<Kind> {
        self.roster.by_letter(c)
    }

    /// The kind's letter, upper case; `?` for a kind of no army.
    pub fn letter_of(&self, k: Kind) -> char {
        if self.has(k) {
            self.roster.letter(k)
        } else {
            '?'
        }
    }

    /// The kind's name, the key of its `[pieces]` table (`saltire`); for a
    /// kind of no army, its place.
    pub fn kind_name(&self, k: Kind) -> String {
        if self.has(k) {
            self.roster.name(k).to_string()
        } else {
            format!("kind #{}", k.index())
        }
    }

    /// Whether the designer's report follows `k` as a pawn (its path to the
    /// zone): a kind that promotes and whose every move is one step
    /// forward, the point in the shipped files. Derived from the movement,
    /// so a new kind of the kind is followed too.
    pub fn is_pawn(&self, k: Kind) -> bool {
        let own = &self.moves[k.index()][0];
        self.promotes_to[k.index()].is_some()
            && !own.is_empty()
            && own.iter().all(|m| match *m {
                Move::Ride {
                    dir,
                    limit: Some(1),
                    ..
                } => lattice::components(dir).forward > 0,
                _ => false,
            })
    }
}

/// One kind of the army, named `name`: its count and cells, its
/// movements, and what a royal, promoting or switching kind may be. (Its
/// name and letter are the roster's.)
fn check_piece(file: &str, name: &str, e: &PieceEntry, f: &VariantFile) -> Result<(), DataError> {
    let piece = |message: String| DataError::Piece {
        file: file.to_string(),
        kind: name.to_string(),
        message,
    };
    if e.cells.len() != e.count as usize {
        return Err(piece(format!(
            "count is {} but {} starting cells are listed",
            e.count,
            e.cells.len()
        )));
    }
    if e.royal {
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
            field: format!("pieces.{name}.{key}"),
            message: x.to_string(),
        })
    };
    movement("moves", &e.moves)?;
    // A promotion into a kind of the army moves as that kind; into a
    // piece of its own, by its own `promoted` movement.
    let into = e.promotes_to.as_deref().and_then(|m| f.pieces.get(m));
    match (&e.promotes_to, &e.promoted) {
        (Some(m), None) if into.is_none() => {
            return Err(piece(format!(
                "promotes_to '{m}' is no kind of the army, so `promoted` must give its movement"
            )));
        }
        (Some(m), Some(_)) if into.is_some() => {
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
        if into.is_some_and(|o| o.royal) {
            return Err(piece(format!("cannot promote to royal '{m}'")));
        }
        if e.switches_with.is_some() {
            return Err(piece(
                "a piece either promotes or switches, not both".into(),
            ));
        }
    }
    if let Some(other) = &e.switches_with {
        let back = f.pieces.get(other).and_then(|o| o.switches_with.as_deref());
        if other == name || back != Some(name) {
            return Err(piece(format!(
                "switches_with '{other}' must name another kind that switches back"
            )));
        }
    }
    Ok(())
}
