//! The optional `[values]` table of a variant data file: what each piece is
//! worth, in centipawn-like units (a pawn is about 100).
//!
//! Only the practice opponent ([`crate::opponent`]) reads these numbers,
//! through [`crate::rules::Rules::material`]; no rule depends on them, so
//! a draft may leave the table out. Every family names its kinds the way
//! its data file already does (letters in chess, names elsewhere), and
//! lists promoted forms in a `[values.promoted]` sub-table under the name
//! of the kind that promotes:
//!
//! ```toml
//! [values]
//! pawn = 100
//! rook = 1000
//! king = 0
//!
//! [values.promoted]
//! pawn = 600
//! rook = 1300
//! ```
//!
//! [`read`] checks the table against the names a variant has and returns
//! the values, or a [`ValueError`] naming the field ([`read_all`]: one for
//! each mistaken entry); each family wraps it in its own data error, which
//! adds the file. A present table lists every kind and promoted form (a
//! forgotten entry is a mistake, not a default); the royal kind may be
//! left out and is then worth nothing.

use std::collections::BTreeMap;

use crate::checks::{self, Checks};
use crate::quote;

/// The largest value a piece may have. Far above any real piece, it keeps
/// every sum of a position's material, and every difference of two, well
/// inside an `i32` with room left for the opponent's mate scores.
pub const MAX_VALUE: i64 = 100_000;

/// What a non-royal piece is worth when the data file has no `[values]`
/// table (an edited draft): every piece alike, so the opponent still
/// counts material.
pub const DEFAULT_VALUE: i32 = 100;

/// A `[values]` table that cannot be read. The family adds the file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ValueError {
    /// `values`, `values.lance`, `values.promoted.pawn`, …
    pub field: String,
    pub message: String,
}

/// The names a variant accepts in its table.
#[derive(Copy, Clone, Debug)]
pub struct Names<'a> {
    /// Every kind of the variant, in the family's spelling.
    pub kinds: &'a [&'a str],
    /// The royal kind (one of `kinds`), which may be left out.
    pub royal: &'a str,
    /// The kinds that have a promoted form: exactly these are listed in
    /// `[values.promoted]`.
    pub promoted: &'a [&'a str],
}

/// A table read by [`read`]: a value for every name of [`Names`] (the
/// royal kind's defaulting to 0).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Values {
    pub base: BTreeMap<String, i32>,
    pub promoted: BTreeMap<String, i32>,
}

impl Values {
    /// The values of a file without a table: [`DEFAULT_VALUE`] for every
    /// kind and promoted form but the royal one.
    pub fn uniform(names: &Names) -> Values {
        let value = |k: &&str| {
            (
                k.to_string(),
                if *k == names.royal { 0 } else { DEFAULT_VALUE },
            )
        };
        Values {
            base: names.kinds.iter().map(value).collect(),
            promoted: names.promoted.iter().map(value).collect(),
        }
    }

    /// The value of a kind, promoted or not (0 for a name the table was
    /// not read with).
    pub fn of(&self, kind: &str, promoted: bool) -> i32 {
        let map = if promoted { &self.promoted } else { &self.base };
        map.get(kind).copied().unwrap_or(0)
    }
}

/// Reads the `[values]` table of a data file (`None`: the file has none)
/// against the names of its variant: the first error of [`read_all`].
pub fn read(table: Option<&toml::Value>, names: &Names) -> Result<Values, ValueError> {
    checks::first(read_all(table, names))
}

/// As [`read`], with every mistaken entry of the table: each unknown or
/// unreadable value and each missing kind, base table first, then
/// `[values.promoted]`.
pub fn read_all(table: Option<&toml::Value>, names: &Names) -> Result<Values, Vec<ValueError>> {
    let Some(table) = table else {
        return Ok(Values::uniform(names));
    };
    let table = table.as_table().ok_or_else(|| {
        vec![fail(
            "values".into(),
            format!("must be a table of piece values, not {}", table.type_str()),
        )]
    })?;
    let mut checks = Checks::new();
    let mut values = Values::default();
    for (key, value) in table {
        if key == "promoted" {
            continue;
        }
        if let Some(v) = checks.take(entry(key, value, "values", names.kinds, || {
            unknown(key, names.kinds)
        })) {
            values.base.insert(key.clone(), v);
        }
    }
    // Missing means absent from the file: an entry with an unreadable
    // value was reported above.
    for &kind in names.kinds {
        if table.contains_key(kind) {
            continue;
        }
        if kind == names.royal {
            values.base.insert(kind.to_string(), 0);
        } else {
            checks.push(fail(
                format!("values.{kind}"),
                "missing: list every kind, or leave the [values] table out".into(),
            ));
        }
    }
    checks.take_all(read_promoted(table.get("promoted"), names, &mut values));
    checks.finish(values)
}

fn fail(field: String, message: String) -> ValueError {
    ValueError { field, message }
}

/// One entry of a table: its key is among `known` (else the message of
/// `unknown`), its value a valid number.
fn entry(
    key: &str,
    value: &toml::Value,
    table: &str,
    known: &[&str],
    unknown: impl FnOnce() -> String,
) -> Result<i32, ValueError> {
    let field = format!("{table}.{}", quote::excerpt(key));
    if !known.contains(&key) {
        return Err(fail(field, unknown()));
    }
    number(value).map_err(|m| fail(field, m))
}

/// The `[values.promoted]` sub-table into `values.promoted`.
fn read_promoted(
    sub: Option<&toml::Value>,
    names: &Names,
    values: &mut Values,
) -> Result<(), Vec<ValueError>> {
    let empty = toml::Table::new();
    let sub = match sub {
        None => &empty,
        Some(v) => v.as_table().ok_or_else(|| {
            vec![fail(
                "values.promoted".into(),
                format!(
                    "must be a table of promoted forms' values, not {}",
                    v.type_str()
                ),
            )]
        })?,
    };
    let mut checks = Checks::new();
    for (key, value) in sub {
        let unknown = || {
            if names.promoted.is_empty() {
                format!(
                    "'{}': no kind of this variant promotes",
                    quote::excerpt(key)
                )
            } else {
                unknown(key, names.promoted)
            }
        };
        if let Some(v) = checks.take(entry(
            key,
            value,
            "values.promoted",
            names.promoted,
            unknown,
        )) {
            values.promoted.insert(key.clone(), v);
        }
    }
    for kind in names.promoted.iter().filter(|k| !sub.contains_key(**k)) {
        checks.push(fail(
            format!("values.promoted.{kind}"),
            "missing: every kind that promotes needs the value of its promoted form".into(),
        ));
    }
    checks.finish(())
}

fn unknown(key: &str, known: &[&str]) -> String {
    format!(
        "'{}' is not a piece of this variant (one of: {})",
        quote::excerpt(key),
        known.join(", ")
    )
}

/// One value: an integer in `0..=MAX_VALUE`.
fn number(value: &toml::Value) -> Result<i32, String> {
    let n = value.as_integer().ok_or_else(|| {
        format!(
            "{} is not an integer (a value is a whole number of centipawns)",
            value.type_str()
        )
    })?;
    if n < 0 {
        return Err(format!("{n} is negative"));
    }
    if n > MAX_VALUE {
        return Err(format!("{n} is above the largest value, {MAX_VALUE}"));
    }
    Ok(n as i32)
}
