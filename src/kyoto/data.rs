//! The family's spec data: one TOML file per variant in `spec/kyoto/`
//! (board, setup, flip table, the faces with their letters, movements and
//! flags, repetition rule, optional `[values]`), its serde form and its
//! validation into a [`KyotoRules`] and its [`Faces`]. Apart from the
//! rules because reading a file happens once, when a variant is built, and
//! every rejection names the file and the entry; no rule reads the TOML.
//! Each entry is checked on its own, so that one run names every broken
//! entry.

use serde::Deserialize;

use crate::checks::Checks;
use crate::geometry::Geometry;
use crate::movement::square::{self, Form};
use crate::rules::roster::{Ordered, Roster};
use crate::spec::Library;

use super::KyotoRules;
use super::pieces::{Face, Faces, Token};
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
    /// The first rank, by face name.
    setup: Vec<String>,
    /// The face each face turns into (KY-3.1), by face name: the pairs
    /// are the tokens.
    flips: Ordered<String>,
    /// The faces, in the file's order (KY-1.4).
    pieces: Ordered<PieceFile>,
    repetition: RepetitionFile,
    /// Face values, read only by the practice opponent (see
    /// [`crate::values`]); absent, every face but the king's is worth 100.
    #[serde(default)]
    values: Option<toml::Value>,
}

/// `[pieces.<face>]`: one face (KY-1.4): its letter, how it moves in the
/// movement language of `spec/movement/rules.md`, and the two flags.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct PieceFile {
    /// One upper-case letter: the drop letter, and the face's letter in
    /// texts when it is its token's plain face or the king.
    letter: String,
    moves: String,
    /// The king: the one face that never turns over and is never in hand.
    #[serde(default)]
    royal: bool,
    /// The position text writes the face `+` and the letter of its
    /// token's other face (the exchange FEN's "promoted" face, KY-I4).
    #[serde(default)]
    promoted: bool,
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
    /// faces (names and letters, the royal face, each movement, the face of
    /// each token written with `+`), the repetition count and each
    /// `[values]` entry. Only a file that is not valid TOML of the schema
    /// stops at once: no other entry reads the board, whose size is the
    /// family's, and an entry that reads a broken one (the flips read the
    /// royal face, the tokens the flips) is skipped rather than repeat its
    /// mistake.
    pub fn load(file: &str, text: &str, lib: &Library) -> Result<KyotoRules, Vec<DataError>> {
        let fail = |entry: &str, message: String| DataError {
            file: file.to_string(),
            entry: entry.to_string(),
            message,
        };
        let fail_all = |errors: Vec<(String, String)>| -> Vec<DataError> {
            errors.into_iter().map(|(e, m)| fail(&e, m)).collect()
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
        // The faces' names are the keys of their tables, known even where
        // a table is broken; a face is its place among them.
        let names: Vec<&str> = data.pieces.keys().collect();
        let royals: Vec<usize> = data
            .pieces
            .iter()
            .enumerate()
            .filter(|(_, (_, p))| p.royal)
            .map(|(i, _)| i)
            .collect();
        let royal = match royals.as_slice() {
            [k] => Some(*k),
            _ => None,
        };
        let setup = checks.take(setup(&names, royal, &data.setup).map_err(|m| fail("setup", m)));
        let flip = checks
            .take_all(flips(&names, royal, &data.flips).map_err(fail_all))
            .flatten();
        let table = checks
            .take_all(
                face_table(&data.pieces, &royals, flip.as_deref(), &data.board).map_err(fail_all),
            )
            .flatten();
        if data.repetition.occurrence < 2 {
            checks.push(fail(
                "repetition.occurrence",
                "a repetition needs at least the second occurrence".into(),
            ));
        }
        // The values name the royal face, which may be left out.
        let values = royal.and_then(|r| {
            checks.take_all(
                read_values(data.values.as_ref(), &names, names[r]).map_err(|errors| {
                    errors
                        .into_iter()
                        .map(|e| fail(&e.field, e.message))
                        .collect()
                }),
            )
        });
        let (Some(geo), Some(setup), Some(table), Some(values)) = (geo, setup, table, values)
        else {
            return Err(checks.into_errors());
        };
        let faces = table.faces;
        let hand_values = faces
            .tokens()
            .map(|t| {
                let [a, b] = faces.faces_of(t);
                values[a.index()].max(values[b.index()])
            })
            .collect();
        checks.finish(KyotoRules {
            name: data.variant,
            rules_version: data.rules_version,
            geo,
            setup: setup.map(Face::at),
            faces,
            forms: table.forms,
            keeps_colour: table.keeps_colour,
            moves: table.moves,
            repetition_at: data.repetition.occurrence,
            repetition: data.repetition.rule,
            values,
            hand_values,
            mutant_flip_on_drop: false,
        })
    }
}

/// `unknown face 'x' (known: …)`: a face name no `[pieces]` table has.
fn unknown_face(names: &[&str], name: &str) -> String {
    let known = crate::names::Known::new(name, names.iter().copied());
    format!("unknown face '{}' ({known})", crate::quote::excerpt(name))
}

/// What `[pieces]` and `[flips]` make together: the faces and tokens, and
/// each face's movement compiled for the board in both facings (the first
/// player's pieces face up, the second's down). Vectors are indexed by
/// [`Face::index`].
struct FaceTable {
    faces: Faces,
    forms: Vec<[Form; 2]>,
    /// The face's every move keeps the colour of its cell (GEO-I2): the
    /// designer's bishop check counts it.
    keeps_colour: Vec<bool>,
    /// The movement texts as written.
    moves: Vec<String>,
}

/// `[pieces]` (KY-1.4), each entry checked on its own: the names and
/// letters (the roster's rules: 1 to 26 faces, one upper-case letter
/// each), exactly one royal face, written by its own letter, each movement
/// compiled for a board of square charts named `board` (the compiled forms
/// name no cell, so the board's own mistakes hide none of these), and,
/// once the flips pair the faces (`flip[face]`, the royal face's own), one
/// face of each token written with `+`. `Ok(None)` when the flips are
/// broken: the tokens are not known, and the flips' errors say why.
fn face_table(
    pieces: &Ordered<PieceFile>,
    royals: &[usize],
    flip: Option<&[usize]>,
    board: &str,
) -> Result<Option<FaceTable>, Vec<(String, String)>> {
    let mut errors: Vec<(String, String)> = Vec::new();
    let letters: Vec<(&str, &str)> = pieces
        .iter()
        .map(|(name, p)| (name, p.letter.as_str()))
        .collect();
    let roster = Roster::read(&letters)
        .map_err(|es| errors.extend(es.into_iter().map(|e| (e.field, e.message))))
        .ok();
    if royals.len() != 1 && !pieces.0.is_empty() {
        let found: Vec<&str> = royals.iter().map(|&i| pieces.0[i].0.as_str()).collect();
        errors.push((
            "pieces".into(),
            format!(
                "exactly one face is royal (royal = true), found {}{}",
                found.len(),
                if found.is_empty() {
                    String::new()
                } else {
                    format!(": {}", found.join(", "))
                }
            ),
        ));
    }
    let n = pieces.0.len();
    let mut forms: Vec<[Form; 2]> = vec![Default::default(); n];
    let mut keeps_colour = vec![false; n];
    for (i, (name, p)) in pieces.iter().enumerate() {
        if p.royal && p.promoted {
            errors.push((
                format!("pieces.{name}.promoted"),
                "the royal face never turns over: it is written by its own letter, never \
                 with '+'"
                    .into(),
            ));
        }
        let compiled = crate::movement::lang::parse(&p.moves)
            .and_then(|m| Ok((m.keeps_colour(), square::compile(&m, board)?)));
        match compiled {
            Ok((keeps, c)) => {
                forms[i] = c.forms;
                keeps_colour[i] = keeps;
            }
            Err(e) => errors.push((format!("pieces.{name}.moves"), e.to_string())),
        }
    }
    // The tokens: the pairs of the flips, in the order of their first
    // face. The face without `promoted` is the plain one, whose letter is
    // the token's base letter (KY-8.1).
    let mut pairs: Vec<[usize; 2]> = Vec::new();
    if let (Some(flip), [royal]) = (flip, royals) {
        for (i, &j) in flip.iter().enumerate() {
            if i == *royal || j < i {
                continue;
            }
            let ((a, pa), (b, pb)) = (&pieces.0[i], &pieces.0[j]);
            match (pa.promoted, pb.promoted) {
                (true, false) => pairs.push([j, i]),
                (false, true) => pairs.push([i, j]),
                (true, true) => errors.push((
                    format!("pieces.{b}.promoted"),
                    format!(
                        "{a} and {b} are both written with '+' (promoted = true): one face of \
                         a token is its plain face, whose letter writes the other after '+'"
                    ),
                )),
                (false, false) => errors.push((
                    format!("pieces.{a}"),
                    format!(
                        "neither {a} nor {b} has promoted = true: one face of each token is \
                         written '+' and the letter of its other, plain face"
                    ),
                )),
            }
        }
    }
    let (Some(roster), Some(flip), [royal]) = (roster, flip, royals) else {
        return if errors.is_empty() {
            Ok(None)
        } else {
            Err(errors)
        };
    };
    if !errors.is_empty() {
        return Err(errors);
    }
    // Every check passed: at most 26 faces, so places fit a Face and,
    // one face being royal and the others paired, at most 12 tokens.
    let mut faces = Faces {
        royal: Face::at(*royal),
        flip: flip.iter().map(|&j| Face::at(j)).collect(),
        token: vec![None; n],
        plus: pieces.iter().map(|(_, p)| p.promoted).collect(),
        tokens: Vec::new(),
        base: Vec::new(),
        roster,
    };
    // `pairs` holds [plain, plus]; a token lists its faces in the file's
    // order.
    for [plain, plus] in pairs {
        let t = Token::at(faces.tokens.len());
        faces.token[plain] = Some(t);
        faces.token[plus] = Some(t);
        let (a, b) = (plain.min(plus), plain.max(plus));
        faces.tokens.push([Face::at(a), Face::at(b)]);
        faces.base.push(faces.roster.letter(Face::at(plain)));
    }
    Ok(Some(FaceTable {
        faces,
        forms,
        keeps_colour,
        moves: pieces.iter().map(|(_, p)| p.moves.clone()).collect(),
    }))
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

/// Each player's first rank, by face name, with exactly one royal face
/// (when the faces say which one it is).
fn setup(names: &[&str], royal: Option<usize>, faces: &[String]) -> Result<[usize; SIZE], String> {
    if faces.len() != SIZE {
        return Err(format!("{} faces; the first rank has {SIZE}", faces.len()));
    }
    let mut setup = [0; SIZE];
    for (slot, name) in setup.iter_mut().zip(faces) {
        *slot = names
            .iter()
            .position(|n| n == name)
            .ok_or_else(|| unknown_face(names, name))?;
    }
    if let Some(r) = royal
        && setup.iter().filter(|&&f| f == r).count() != 1
    {
        return Err(format!("the first rank needs exactly one {}", names[r]));
    }
    Ok(setup)
}

/// KY-3.1: every face but the royal one turns into the other face of its
/// token, and the royal face never flips. Each face's entry is checked on
/// its own (it names another face, not the royal one), then the pairs: a
/// face turns into one that turns back into it. A face is blamed for a
/// pair that does not close unless the face it names is blamed already
/// (`lance = "tokin"` is not at fault when `tokin` names a silver). The
/// result is `flip[face]` by place, the royal face's its own. Without a
/// royal face a missing entry is not blamed (it may be the king's) and
/// the result is `None`.
fn flips(
    names: &[&str],
    royal: Option<usize>,
    flips: &Ordered<String>,
) -> Result<Option<Vec<usize>>, Vec<(String, String)>> {
    let index = |name: &str| names.iter().position(|n| *n == name);
    // `error[face]`: the face's mistake, reported in the faces' order.
    let mut error: Vec<Option<String>> = vec![None; names.len()];
    let mut target: Vec<Option<usize>> = vec![None; names.len()];
    let mut blamed = vec![false; names.len()];
    for (i, &name) in names.iter().enumerate() {
        let entry = flips.get(name);
        if Some(i) == royal {
            target[i] = Some(i);
            if entry.is_some() {
                error[i] = Some(format!("the {name} never flips"));
                blamed[i] = true;
            }
            continue;
        }
        blamed[i] = true;
        let Some(to) = entry else {
            if let Some(r) = royal {
                error[i] = Some(format!("every face but the {}'s needs a flip", names[r]));
            }
            continue;
        };
        let message = match index(to) {
            None => unknown_face(names, to),
            Some(j) if j == i => {
                format!("a {name} turns into a {name}: a token's two faces are different faces")
            }
            Some(j) if Some(j) == royal => {
                format!("a {name} cannot turn into the {to}, which never flips")
            }
            Some(j) => {
                target[i] = Some(j);
                blamed[i] = false;
                continue;
            }
        };
        error[i] = Some(message);
    }
    for i in 0..names.len() {
        let Some(j) = target[i] else { continue };
        if Some(i) == royal || blamed[j] {
            continue;
        }
        if let Some(k) = target[j].filter(|&k| k != i) {
            error[i] = Some(format!(
                "a {} turns into a {}, which turns into a {}: the two faces of a token turn \
                 into each other",
                names[i], names[j], names[k]
            ));
            blamed[i] = true;
        }
    }
    let mut errors: Vec<(String, String)> = names
        .iter()
        .zip(error)
        .filter_map(|(name, e)| Some((format!("flips.{name}"), e?)))
        .collect();
    for key in flips.keys() {
        if index(key).is_none() {
            errors.push((
                format!("flips.{}", crate::quote::excerpt(key)),
                unknown_face(names, key),
            ));
        }
    }
    if errors.is_empty() {
        // Without a royal face a face may lack its flip unblamed.
        Ok(target.into_iter().collect())
    } else {
        Err(errors)
    }
}

/// The `[values]` table, keyed by the face names: `values[face]`.
fn read_values(
    table: Option<&toml::Value>,
    names: &[&str],
    royal: &str,
) -> Result<Vec<i32>, Vec<crate::values::ValueError>> {
    let names_of = crate::values::Names {
        kinds: names,
        royal,
        promoted: &[],
    };
    let read = crate::values::read_all(table, &names_of)?;
    Ok(names.iter().map(|n| read.of(n, false)).collect())
}
