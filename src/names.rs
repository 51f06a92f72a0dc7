//! Unknown names in error messages: the known ones, listed, and the
//! nearest one as a suggestion ("did you mean chess-mobius?").
//!
//! Every place that accepts a name from a user (variants, boards, mutants,
//! move patterns, check kinds) builds its error with [`Known`], so they all
//! read the same way.

use std::fmt;

/// The names a lookup knew, and the one nearest the name it was given.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Known {
    pub names: Vec<String>,
    pub nearest: Option<String>,
}

/// How alike two names must be for the nearest to be suggested: the
/// normalized Damerau–Levenshtein similarity, 1 minus the edits (a swap of
/// two neighbours is one edit) per letter of the longer name. One or two
/// slips in a name score 0.65 or more (`wakl` for `walk` 0.75); names that
/// only share a family prefix, such as `shogi-nowhere` and `shogi-klein`,
/// score below, as do unrelated ones such as `go` and `kyoto`.
const SUGGEST_FROM: f64 = 0.65;

impl Known {
    /// The known `names` as given to a lookup of `asked`.
    pub fn new<'a>(asked: &str, names: impl IntoIterator<Item = &'a str>) -> Known {
        let names: Vec<String> = names.into_iter().map(String::from).collect();
        Known {
            nearest: nearest(asked, names.iter().map(String::as_str)).map(String::from),
            names,
        }
    }
}

/// `known: a, b, c; did you mean 'b'?` (the suggestion only when one is
/// near enough).
impl fmt::Display for Known {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "known: {}", self.names.join(", "))?;
        if let Some(n) = &self.nearest {
            write!(f, "; did you mean '{n}'?")?;
        }
        Ok(())
    }
}

/// The candidate most like `asked`, when it is alike enough. A candidate
/// that contains `asked` (or is contained in it), ignoring case, wins when
/// it is the only one that does: `mobius` alone is ambiguous, `klein9x18`
/// is not.
pub fn nearest<'a>(asked: &str, candidates: impl IntoIterator<Item = &'a str>) -> Option<&'a str> {
    let asked_l = asked.to_lowercase();
    let candidates: Vec<&str> = candidates.into_iter().collect();
    let mut best: Option<(f64, &str)> = None;
    for &c in &candidates {
        let score = strsim::normalized_damerau_levenshtein(&asked_l, &c.to_lowercase());
        if best.is_none_or(|(s, _)| score > s) {
            best = Some((score, c));
        }
    }
    if let Some((score, c)) = best
        && score >= SUGGEST_FROM
    {
        return Some(c);
    }
    let containing: Vec<&str> = candidates
        .iter()
        .copied()
        .filter(|c| {
            let c = c.to_lowercase();
            asked_l.len() >= 3 && (c.contains(&asked_l) || asked_l.contains(&c))
        })
        .collect();
    match containing.as_slice() {
        [one] => Some(one),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check(asked: &str, expect: Option<&str>) {
        let names = [
            "chess-flat",
            "chess-genus2",
            "chess-klein",
            "chess-mobius",
            "kyoto",
            "kyoto-repetition-loss",
            "shogi-mobius",
        ];
        assert_eq!(nearest(asked, names), expect, "for '{asked}'");
    }

    #[test]
    fn typos_are_suggested() {
        check("chess-mobus", Some("chess-mobius"));
        check("chess-moebius", Some("chess-mobius"));
        check("Chess-Klein", Some("chess-klein"));
        check("kyoto-repetition", Some("kyoto-repetition-loss"));
    }

    #[test]
    fn unrelated_or_ambiguous_names_are_not() {
        check("go", None);
        check("shogi-nowhere", None);
        check("checkers", None);
        check("mobius", None);
    }

    #[test]
    fn the_message_lists_and_suggests() {
        let k = Known::new("knigt", ["king", "knight", "orthogonal"]);
        assert_eq!(
            k.to_string(),
            "known: king, knight, orthogonal; did you mean 'knight'?"
        );
        let k = Known::new("zzz", ["king"]);
        assert_eq!(k.to_string(), "known: king");
    }
}
