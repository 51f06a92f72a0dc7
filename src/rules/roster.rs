//! A variant's kinds of piece, as its data file lists them.
//!
//! Pieces are data (MV-6): each family's variant file lists its kinds in
//! `[pieces.<name>]` tables, and a [`Kind`] is an index into that list.
//! The [`Roster`] keeps what every family asks of a kind whatever its
//! rules: its name (the key of its table, used by the file's other
//! sections: dead ranks, values, promotions) and its letter (how texts and
//! pictures write it). The list keeps the file's order, which is the order
//! kinds are listed in everywhere else: hands, legends, palettes and
//! sorted actions (MV-6.3).
//!
//! What a kind does (its movement, promotion, and the special rules a
//! family attaches to it: the royal piece, the pawn's nifu or double
//! step) is the family's data, read beside the roster and indexed by the
//! same [`Kind`].

use serde::de::{Deserialize, Deserializer, MapAccess, Visitor};
use serde::ser::{Serialize, SerializeMap, Serializer};

use crate::checks::Checks;

/// The most kinds a variant may have: one per letter `A`–`Z`, since each
/// kind has a letter of its own.
pub const MAX_KINDS: usize = 26;

/// The longest kind name, in bytes.
pub const MAX_NAME: usize = 32;

/// A kind of piece: its place in its variant's [`Roster`]. Two kinds of
/// different variants are not comparable; a family only ever compares
/// kinds of one variant.
#[derive(Copy, Clone, Eq, PartialEq, Hash, Ord, PartialOrd, Debug, Default)]
pub struct Kind(u8);

impl Kind {
    /// The kind's place in its roster (`0..roster.len()`).
    #[inline]
    pub fn index(self) -> usize {
        usize::from(self.0)
    }

    /// The kind at place `i` of a roster, for tables indexed by kind.
    /// Within [`MAX_KINDS`]; a larger `i` is a bug of the caller.
    #[inline]
    pub fn at(i: usize) -> Kind {
        debug_assert!(i < MAX_KINDS);
        Kind(i as u8)
    }
}

/// The kinds of one variant: names and letters, in the file's order.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct Roster {
    names: Vec<String>,
    letters: Vec<char>,
}

/// A `[pieces]` entry the roster cannot take. The family adds the file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RosterError {
    /// `pieces`, `pieces.silver.letter`, …
    pub field: String,
    pub message: String,
}

impl Roster {
    /// Reads the kinds' names and letters, `(name, letter)` in the file's
    /// order, each entry checked on its own: a name of lower-case letters,
    /// digits and hyphens starting with a letter (at most [`MAX_NAME`]
    /// bytes), one upper-case letter `A`–`Z` used by no other kind, and
    /// from one to [`MAX_KINDS`] kinds in all.
    pub fn read(entries: &[(&str, &str)]) -> Result<Roster, Vec<RosterError>> {
        let mut checks = Checks::new();
        if entries.is_empty() {
            checks.push(RosterError {
                field: "pieces".into(),
                message: "no kinds: a variant needs at least its royal piece".into(),
            });
        }
        if entries.len() > MAX_KINDS {
            checks.push(RosterError {
                field: "pieces".into(),
                message: format!(
                    "{} kinds; at most {MAX_KINDS}, one per letter A–Z",
                    entries.len()
                ),
            });
        }
        let mut roster = Roster::default();
        for &(name, letter) in entries {
            if let Err(message) = check_name(name) {
                checks.push(RosterError {
                    field: format!("pieces.{name}"),
                    message,
                });
            }
            let field = format!("pieces.{name}.letter");
            let mut chars = letter.chars();
            let c = match (chars.next(), chars.next()) {
                (Some(c), None) if c.is_ascii_uppercase() => c,
                _ => {
                    checks.push(RosterError {
                        field,
                        message: format!(
                            "'{}' is not one upper-case letter A–Z",
                            crate::quote::excerpt(letter)
                        ),
                    });
                    continue;
                }
            };
            if let Some(other) = roster.letters.iter().position(|&l| l == c) {
                checks.push(RosterError {
                    field,
                    message: format!("'{c}' is already the letter of {}", roster.names[other]),
                });
                continue;
            }
            roster.names.push(name.to_string());
            roster.letters.push(c);
        }
        checks.finish(roster)
    }

    /// How many kinds there are.
    pub fn len(&self) -> usize {
        self.names.len()
    }

    /// Whether there are none (only a roster that failed to read).
    pub fn is_empty(&self) -> bool {
        self.names.is_empty()
    }

    /// Every kind, in the file's order.
    pub fn kinds(&self) -> impl DoubleEndedIterator<Item = Kind> + Clone + use<> {
        (0..self.names.len()).map(Kind::at)
    }

    /// The kind's name, the key of its `[pieces]` table (`silver`).
    pub fn name(&self, k: Kind) -> &str {
        &self.names[k.index()]
    }

    /// The kind's upper-case letter (`S`).
    pub fn letter(&self, k: Kind) -> char {
        self.letters[k.index()]
    }

    /// The kind written with `c`, in either case.
    pub fn by_letter(&self, c: char) -> Option<Kind> {
        let c = c.to_ascii_uppercase();
        self.letters.iter().position(|&l| l == c).map(Kind::at)
    }

    /// The kind named `name`.
    pub fn by_name(&self, name: &str) -> Option<Kind> {
        self.names.iter().position(|n| n == name).map(Kind::at)
    }

    /// Every name, in the file's order.
    pub fn names(&self) -> impl Iterator<Item = &str> {
        self.names.iter().map(String::as_str)
    }

    /// Every letter, in the file's order, as `"K R B G"`: for messages.
    pub fn letter_list(&self) -> String {
        let letters: Vec<String> = self.letters.iter().map(char::to_string).collect();
        letters.join(" ")
    }

    /// `name` unknown: the message, with the nearest name the roster has.
    pub fn unknown_name(&self, name: &str) -> String {
        let known = crate::names::Known::new(name, self.names());
        format!(
            "unknown piece kind '{}' ({known})",
            crate::quote::excerpt(name)
        )
    }
}

/// A kind name: lower-case ASCII letters, digits and hyphens, starting
/// with a letter, at most [`MAX_NAME`] bytes.
fn check_name(name: &str) -> Result<(), String> {
    let shown = crate::quote::excerpt(name);
    if name.len() > MAX_NAME {
        return Err(format!(
            "the name '{shown}' is {} bytes long; at most {MAX_NAME}",
            name.len()
        ));
    }
    let mut chars = name.chars();
    let starts = chars.next().is_some_and(|c| c.is_ascii_lowercase());
    let rest = chars.all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-');
    if starts && rest {
        Ok(())
    } else {
        Err(format!(
            "the name '{shown}' is not lower-case letters, digits and hyphens starting \
             with a letter"
        ))
    }
}

/// A TOML table read in the file's order, as `(key, value)` pairs: the
/// `[pieces]` tables, whose order is the kinds' order. (The `toml` crate
/// is built with `preserve_order`, so its maps visit keys as written.)
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ordered<T>(pub Vec<(String, T)>);

impl<T> Default for Ordered<T> {
    fn default() -> Self {
        Ordered(Vec::new())
    }
}

impl<T> Ordered<T> {
    /// The value under `key`.
    pub fn get(&self, key: &str) -> Option<&T> {
        self.0.iter().find(|(k, _)| k == key).map(|(_, v)| v)
    }

    /// The keys, in order.
    pub fn keys(&self) -> impl Iterator<Item = &str> {
        self.0.iter().map(|(k, _)| k.as_str())
    }

    /// The entries, in order.
    pub fn iter(&self) -> impl Iterator<Item = (&str, &T)> {
        self.0.iter().map(|(k, v)| (k.as_str(), v))
    }
}

impl<'de, T: Deserialize<'de>> Deserialize<'de> for Ordered<T> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct Entries<T>(std::marker::PhantomData<T>);
        impl<'de, T: Deserialize<'de>> Visitor<'de> for Entries<T> {
            type Value = Ordered<T>;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("a table of tables")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Ordered<T>, A::Error> {
                let mut out: Vec<(String, T)> = Vec::new();
                while let Some((key, value)) = map.next_entry::<String, T>()? {
                    // TOML itself refuses a table defined twice; this
                    // keeps any other source of maps as strict.
                    if out.iter().any(|(k, _)| *k == key) {
                        return Err(serde::de::Error::custom(format!("'{key}' given twice")));
                    }
                    out.push((key, value));
                }
                Ok(Ordered(out))
            }
        }
        d.deserialize_map(Entries(std::marker::PhantomData))
    }
}

impl<T: Serialize> Serialize for Ordered<T> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut map = s.serialize_map(Some(self.0.len()))?;
        for (k, v) in &self.0 {
            map.serialize_entry(k, v)?;
        }
        map.end()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check(entries: &[(&str, &str)], expect: &str) {
        let got = match Roster::read(entries) {
            Ok(r) => format!(
                "ok: {}",
                r.kinds()
                    .map(|k| format!("{}={}", r.name(k), r.letter(k)))
                    .collect::<Vec<_>>()
                    .join(" ")
            ),
            Err(errors) => errors
                .iter()
                .map(|e| format!("{}: {}", e.field, e.message))
                .collect::<Vec<_>>()
                .join("\n"),
        };
        assert_eq!(got, expect);
    }

    #[test]
    fn kinds_keep_the_files_order() {
        check(
            &[("king", "K"), ("rook", "R"), ("pawn", "P")],
            "ok: king=K rook=R pawn=P",
        );
    }

    #[test]
    fn every_bad_entry_is_named() {
        check(
            &[
                ("king", "K"),
                ("Rook", "R"),
                ("pawn", "p"),
                ("lance", "K"),
                ("silver", "SS"),
            ],
            "pieces.Rook: the name 'Rook' is not lower-case letters, digits and hyphens \
             starting with a letter\n\
             pieces.pawn.letter: 'p' is not one upper-case letter A–Z\n\
             pieces.lance.letter: 'K' is already the letter of king\n\
             pieces.silver.letter: 'SS' is not one upper-case letter A–Z",
        );
        check(
            &[],
            "pieces: no kinds: a variant needs at least its royal piece",
        );
        let long = "a".repeat(MAX_NAME + 1);
        check(
            &[(&long, "A")],
            &format!("pieces.{long}: the name '{long}' is 33 bytes long; at most 32"),
        );
    }

    #[test]
    fn at_most_one_kind_per_letter() {
        let names: Vec<String> = (0..27).map(|i| format!("k{i}")).collect();
        let entries: Vec<(&str, &str)> = names.iter().map(|n| (n.as_str(), "A")).collect();
        let errors = Roster::read(&entries).unwrap_err();
        assert_eq!(
            errors[0].message,
            "27 kinds; at most 26, one per letter A–Z"
        );
    }

    #[test]
    fn letters_are_found_in_either_case() {
        let r = Roster::read(&[("king", "K"), ("pawn", "P")]).unwrap();
        assert_eq!(r.by_letter('p'), Some(Kind::at(1)));
        assert_eq!(r.by_letter('P'), Some(Kind::at(1)));
        assert_eq!(r.by_letter('Q'), None);
        assert_eq!(r.by_name("king"), Some(Kind::at(0)));
        assert_eq!(
            r.unknown_name("kign"),
            "unknown piece kind 'kign' (known: king, pawn; did you mean 'king'?)"
        );
    }

    #[test]
    fn ordered_tables_read_as_written() {
        #[derive(serde::Deserialize)]
        struct File {
            pieces: Ordered<toml::Value>,
        }
        let f: File = toml::from_str("[pieces.zeta]\na = 1\n[pieces.alpha]\na = 2\n").unwrap();
        assert_eq!(f.pieces.keys().collect::<Vec<_>>(), ["zeta", "alpha"]);
    }
}
