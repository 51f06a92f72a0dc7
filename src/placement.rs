//! Position texts as cells and fields, and edits of them that know no
//! family's rules.
//!
//! Every family writes its placement the same way: ranks separated by `/`,
//! charts by `|`, a decimal number for a run of empty cells, and a piece
//! as an optional `+`, one letter and marks after it (`^`, `v`, `-`, a
//! chess pawn's `+`). Kyoto adds its hand in brackets after the placement;
//! side to move, hands, rights and counters follow as fields. [`Layout`]
//! cuts a text into that common shape, so that a position can be edited
//! while it is not (yet) a position of its variant: a chess setup with one
//! king while the user carries the other, a shogi pawn on its dead rank.
//! Whether the result is a position is a separate verdict, the variant's
//! own reading (`Variant::validate`).
//!
//! What an editor needs from each family besides the shape — the cells in
//! the order the placement writes them, the pieces that may be placed, how
//! the hands are written — comes through [`crate::rules::drawing::Draw`]; the
//! editing itself is written once here and in `variant.rs`.

use crate::quote;
use crate::rules::Player;
use crate::rules::drawing::{HandPlace, HandShape};

/// The longest run of empty cells read: a run is never longer than a
/// board's rank, and the bound keeps a corrupt text from asking for a huge
/// layout.
const MAX_RUN: usize = 1000;

/// A position text cut into cells and fields.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Layout {
    /// Every cell in text order: a piece token or empty.
    pub(crate) cells: Vec<Option<String>>,
    /// Each rank: the separator written before it (`/`, `|`, none for the
    /// first) and its number of cells.
    ranks: Vec<(Option<char>, usize)>,
    /// A hand written in brackets after the placement (Kyoto), without
    /// the brackets.
    pub(crate) bracket: Option<String>,
    /// The fields after the placement.
    pub(crate) fields: Vec<String>,
}

/// Why a text cannot be cut into a [`Layout`].
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum LayoutError {
    #[error("the text is empty")]
    Empty,
    #[error("the hand after the placement has no closing ']'")]
    OpenBracket,
    #[error("character {index} of the placement, '{found}', starts no piece or run")]
    Character { index: usize, found: char },
    #[error("a run of {run} empty cells; a run is at most {MAX_RUN}")]
    Run { run: String },
    #[error("the placement has more than {max} cells")]
    TooManyCells { max: usize },
}

impl Layout {
    /// Reads a position text; `None` when the placement has a character
    /// outside the common shape. A `+` before a letter starts a promoted
    /// piece (see [`Layout::read`] for chess, which has none).
    pub fn parse(text: &str) -> Option<Layout> {
        Layout::read(text, true, usize::MAX).ok()
    }

    /// Reads a position text. `plus_prefix` says whether a `+` may start a
    /// piece (promoted shogi pieces, Kyoto faces); without it every `+` is
    /// a mark of the piece before (a chess pawn's flag), so `P+N` is a pawn
    /// and a knight. More than `max_cells` cells is an error, so a text of
    /// long runs costs no more than the board it claims to be.
    pub fn read(text: &str, plus_prefix: bool, max_cells: usize) -> Result<Layout, LayoutError> {
        let mut words = text.split_whitespace();
        let placement = words.next().ok_or(LayoutError::Empty)?;
        let fields = words.map(String::from).collect();
        let (grid, bracket) = match placement.split_once('[') {
            None => (placement, None),
            Some((grid, rest)) => (
                grid,
                Some(
                    rest.strip_suffix(']')
                        .ok_or(LayoutError::OpenBracket)?
                        .to_string(),
                ),
            ),
        };
        let mut cells = Vec::new();
        let mut ranks = Vec::new();
        let mut separator = None;
        let mut count = 0;
        let chars: Vec<char> = grid.chars().collect();
        let mut i = 0;
        while i < chars.len() {
            let c = chars[i];
            if c == '/' || c == '|' {
                ranks.push((separator, count));
                separator = Some(c);
                count = 0;
                i += 1;
            } else if c.is_ascii_digit() {
                let start = i;
                while i < chars.len() && chars[i].is_ascii_digit() {
                    i += 1;
                }
                let digits: String = chars[start..i].iter().collect();
                let n = digits
                    .parse::<usize>()
                    .ok()
                    .filter(|&n| n <= MAX_RUN)
                    .ok_or_else(|| LayoutError::Run {
                        run: quote::excerpt(&digits).into_owned(),
                    })?;
                if cells.len() + n > max_cells {
                    return Err(LayoutError::TooManyCells { max: max_cells });
                }
                cells.extend(std::iter::repeat_n(None, n));
                count += n;
            } else {
                let (token, next) = token_at(&chars, i, plus_prefix)
                    .ok_or(LayoutError::Character { index: i, found: c })?;
                if cells.len() + 1 > max_cells {
                    return Err(LayoutError::TooManyCells { max: max_cells });
                }
                cells.push(Some(token));
                count += 1;
                i = next;
            }
        }
        ranks.push((separator, count));
        Ok(Layout {
            cells,
            ranks,
            bracket,
            fields,
        })
    }

    /// The text back, with runs of empty cells counted again.
    pub fn write(&self) -> String {
        let mut out = String::new();
        let mut cell = 0;
        for &(separator, n) in &self.ranks {
            if let Some(s) = separator {
                out.push(s);
            }
            let mut empty = 0;
            for c in &self.cells[cell..cell + n] {
                match c {
                    None => empty += 1,
                    Some(t) => {
                        crate::rules::push_count(&mut out, empty);
                        empty = 0;
                        out.push_str(t);
                    }
                }
            }
            crate::rules::push_count(&mut out, empty);
            cell += n;
        }
        if let Some(hand) = &self.bracket {
            out.push('[');
            out.push_str(hand);
            out.push(']');
        }
        for f in &self.fields {
            out.push(' ');
            out.push_str(f);
        }
        out
    }

    /// How many cells the placement lists.
    pub fn cell_count(&self) -> usize {
        self.cells.len()
    }

    /// The token on the `index`-th cell in text order, if any.
    pub fn cell(&self, index: usize) -> Option<&str> {
        self.cells.get(index).and_then(|c| c.as_deref())
    }

    /// Puts `token` on the `index`-th cell (or empties it); an index past
    /// the last cell changes nothing.
    pub fn set_cell(&mut self, index: usize, token: Option<&str>) {
        if let Some(c) = self.cells.get_mut(index) {
            *c = token.map(String::from);
        }
    }

    /// The fields after the placement (side to move, hands, rights, …).
    pub fn fields(&self) -> &[String] {
        &self.fields
    }

    /// The bracketed hand after the placement (Kyoto), without brackets.
    pub fn bracket(&self) -> Option<&str> {
        self.bracket.as_deref()
    }

    /// The indices of the occupied cells.
    pub fn occupied(&self) -> Vec<usize> {
        (0..self.cells.len())
            .filter(|&i| self.cells[i].is_some())
            .collect()
    }

    /// The same position with the pieces on `cells` removed.
    pub fn without(&self, cells: &[usize]) -> Layout {
        let mut out = self.clone();
        for &i in cells {
            if let Some(c) = out.cells.get_mut(i) {
                *c = None;
            }
        }
        out
    }
}

/// The piece token starting at `i` and the index after it.
fn token_at(chars: &[char], mut i: usize, plus_prefix: bool) -> Option<(String, usize)> {
    let mut token = String::new();
    if plus_prefix && chars[i] == '+' {
        token.push('+');
        i += 1;
    }
    let letter = *chars.get(i)?;
    if !letter.is_ascii_alphabetic() {
        return None;
    }
    token.push(letter);
    i += 1;
    while let Some(&m) = chars.get(i) {
        // A `+` before a letter starts the next (promoted) piece where
        // pieces may be promoted; any other `+` is a mark of this one.
        let mark = matches!(m, '^' | 'v' | '-')
            || (m == '+'
                && !(plus_prefix && chars.get(i + 1).is_some_and(|n| n.is_ascii_alphabetic())));
        if !mark {
            break;
        }
        token.push(m);
        i += 1;
    }
    Some((token, i))
}

/// The most pieces of one kind an edit puts in a hand: the hand parsers
/// read counts up to 255.
pub const MAX_HAND_COUNT: u32 = 255;

/// Why an edit cannot be made. Each error carries the rejected value
/// (quoted at most a little of it, see [`crate::quote`]).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum EditError {
    #[error("'{}' cannot be cut into cells and fields: {error}", quote::excerpt(.text))]
    Layout { text: String, error: LayoutError },
    #[error("the placement lists {found} cells; the board has {expected}")]
    CellCount { found: usize, expected: usize },
    // A board's cell list is long (165 names on the tetrahedron): the
    // message keeps the start and end of it.
    #[error("unknown cell '{}' ({})", quote::excerpt(.cell), quote::bounded(&.known.to_string()))]
    UnknownCell {
        cell: String,
        known: crate::names::Known,
    },
    #[error("'{}' is not a piece of this variant's palette ({})", quote::excerpt(.token), quote::bounded(&.known.to_string()))]
    UnknownToken {
        token: String,
        known: crate::names::Known,
    },
    #[error("the position text has no {field} field")]
    MissingField { field: &'static str },
    #[error("variant '{variant}' has no hands")]
    NoHands { variant: String },
    #[error("'{}' is not a kind a hand holds ({known})", quote::excerpt(.label))]
    UnknownHandPiece {
        label: String,
        known: crate::names::Known,
    },
    #[error("the hands '{}' cannot be read: {reason}", quote::excerpt(.text))]
    Hands { text: String, reason: String },
    #[error("{count} in hand; an edit puts at most {MAX_HAND_COUNT}")]
    HandCount { count: u32 },
}

/// Reads `text` as a layout of exactly `cells` cells.
pub fn layout_of(text: &str, plus_prefix: bool, cells: usize) -> Result<Layout, EditError> {
    let layout = Layout::read(text, plus_prefix, cells).map_err(|error| EditError::Layout {
        text: quote::excerpt(text).into_owned(),
        error,
    })?;
    if layout.cell_count() != cells {
        return Err(EditError::CellCount {
            found: layout.cell_count(),
            expected: cells,
        });
    }
    Ok(layout)
}

/// Each player's count of each entry, read from a hand text written by
/// letters with optional counts before them (`-` or nothing when empty).
fn read_hands(shape: &HandShape, text: &str) -> Result<Vec<[u32; 2]>, EditError> {
    let fail = |reason: String| EditError::Hands {
        text: quote::excerpt(text).into_owned(),
        reason,
    };
    let mut counts = vec![[0u32; 2]; shape.entries.len()];
    let mut run = String::new();
    for c in text.chars().filter(|&c| c != '-') {
        if c.is_ascii_digit() {
            run.push(c);
            continue;
        }
        let n = match run.as_str() {
            "" => 1,
            digits => digits
                .parse::<u32>()
                .ok()
                .filter(|&n| n <= MAX_HAND_COUNT)
                .ok_or_else(|| fail(format!("count '{}' is too large", quote::excerpt(digits))))?,
        };
        run.clear();
        let owner = if c.is_ascii_uppercase() { 0 } else { 1 };
        let i = shape
            .entries
            .iter()
            .position(|e| e.letter == c.to_ascii_uppercase())
            .ok_or_else(|| fail(format!("'{c}' is not a hand letter")))?;
        counts[i][owner] = (counts[i][owner] + n).min(MAX_HAND_COUNT);
    }
    if !run.is_empty() {
        return Err(fail("it ends with a count".into()));
    }
    Ok(counts)
}

/// The hands written as the family writes them: the first player's in
/// the entries' order, then the second player's.
fn write_hands(shape: &HandShape, counts: &[[u32; 2]]) -> String {
    let mut out = String::new();
    for owner in 0..2 {
        for (e, n) in shape.entries.iter().zip(counts) {
            let n = n[owner];
            let letter = if owner == 0 {
                e.letter
            } else {
                e.letter.to_ascii_lowercase()
            };
            if n == 0 {
                continue;
            }
            if shape.counted {
                if n > 1 {
                    crate::rules::push_count(&mut out, n as usize);
                }
                out.push(letter);
            } else {
                out.extend(std::iter::repeat_n(letter, n as usize));
            }
        }
    }
    if out.is_empty() {
        shape.empty.clone()
    } else {
        out
    }
}

/// How many of each hand kind (in `shape`'s order) the first and the
/// second player hold in `layout`, read as written and not checked by the
/// rules.
pub fn hand_counts(layout: &Layout, shape: &HandShape) -> Result<Vec<[u32; 2]>, EditError> {
    let text = match shape.place {
        HandPlace::Bracket => layout.bracket.as_deref(),
        HandPlace::Field(i) => layout.fields.get(i).map(String::as_str),
    };
    read_hands(
        shape,
        text.ok_or(EditError::MissingField { field: "hand" })?,
    )
}

/// `layout` with `player` holding `count` of the hand kind `label` (its
/// text letter or its picture label).
pub fn set_hand(
    layout: &mut Layout,
    shape: &HandShape,
    player: Player,
    label: &str,
    count: u32,
) -> Result<(), EditError> {
    if count > MAX_HAND_COUNT {
        return Err(EditError::HandCount { count });
    }
    let entry = shape
        .entries
        .iter()
        .position(|e| e.label == label || label.chars().eq([e.letter]))
        .ok_or_else(|| EditError::UnknownHandPiece {
            label: quote::excerpt(label).into_owned(),
            known: crate::names::Known::new(label, shape.entries.iter().map(|e| e.label.as_str())),
        })?;
    let text = match shape.place {
        HandPlace::Bracket => layout
            .bracket
            .as_mut()
            .ok_or(EditError::MissingField { field: "hand" })?,
        HandPlace::Field(i) => layout
            .fields
            .get_mut(i)
            .ok_or(EditError::MissingField { field: "hand" })?,
    };
    let mut counts = read_hands(shape, text)?;
    counts[entry][player.index()] = count;
    *text = write_hands(shape, &counts);
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::drawing::HandEntry;

    #[test]
    fn tokens_keep_their_marks() {
        let l = Layout::parse("+Pv1p^P+/p- w - - 0 1").unwrap();
        let tokens: Vec<&str> = l.cells.iter().flatten().map(String::as_str).collect();
        assert_eq!(tokens, ["+Pv", "p^", "P+", "p-"]);
        assert_eq!(l.write(), "+Pv1p^P+/p- w - - 0 1");
        let l = Layout::parse("p+nks+l/5[Lp] b").unwrap();
        assert_eq!(l.cells.iter().flatten().count(), 5);
        assert_eq!(l.bracket.as_deref(), Some("Lp"));
        assert_eq!(l.write(), "p+nks+l/5[Lp] b");
        assert_eq!(l.without(&l.occupied()[..2]).write(), "2ks+l/5[Lp] b");
        assert!(Layout::parse("p?k/5 w").is_none());
        assert!(Layout::parse("99999999999999999999999/5 w").is_none());
    }

    #[test]
    fn without_promoted_pieces_a_plus_is_a_flag() {
        let l = Layout::read("P+N/8 w", false, 100).unwrap();
        let tokens: Vec<&str> = l.cells.iter().flatten().map(String::as_str).collect();
        assert_eq!(tokens, ["P+", "N"]);
        let l = Layout::read("P+N/8 w", true, 100).unwrap();
        let tokens: Vec<&str> = l.cells.iter().flatten().map(String::as_str).collect();
        assert_eq!(tokens, ["P", "+N"]);
    }

    #[test]
    fn reading_errors_name_the_place() {
        assert_eq!(Layout::read("", true, 9), Err(LayoutError::Empty));
        assert_eq!(
            Layout::read("3[P w", true, 9),
            Err(LayoutError::OpenBracket)
        );
        assert_eq!(
            Layout::read("2?/3 w", true, 9),
            Err(LayoutError::Character {
                index: 1,
                found: '?'
            })
        );
        assert_eq!(
            Layout::read("9/9/9 w", true, 20),
            Err(LayoutError::TooManyCells { max: 20 })
        );
        assert!(matches!(
            Layout::read("1001 w", true, 5000),
            Err(LayoutError::Run { .. })
        ));
    }

    #[test]
    fn hands_are_written_in_the_family_order() {
        let shape = HandShape {
            place: HandPlace::Field(1),
            entries: ["R", "P"]
                .iter()
                .map(|l| HandEntry {
                    letter: l.chars().next().unwrap(),
                    label: l.to_string(),
                })
                .collect(),
            counted: true,
            empty: "-".into(),
        };
        let mut l = Layout::parse("9 A 2Pr 1").unwrap();
        set_hand(&mut l, &shape, Player::First, "R", 1).unwrap();
        assert_eq!(l.write(), "9 A R2Pr 1");
        set_hand(&mut l, &shape, Player::Second, "R", 0).unwrap();
        set_hand(&mut l, &shape, Player::First, "P", 0).unwrap();
        set_hand(&mut l, &shape, Player::First, "R", 0).unwrap();
        assert_eq!(l.write(), "9 A - 1");
        assert!(matches!(
            set_hand(&mut l, &shape, Player::First, "Q", 1),
            Err(EditError::UnknownHandPiece { .. })
        ));
        assert_eq!(
            set_hand(&mut l, &shape, Player::First, "R", 256),
            Err(EditError::HandCount { count: 256 })
        );
        let repeated = HandShape {
            counted: false,
            place: HandPlace::Bracket,
            empty: String::new(),
            ..shape
        };
        let mut l = Layout::parse("5[p] w").unwrap();
        set_hand(&mut l, &repeated, Player::First, "P", 2).unwrap();
        assert_eq!(l.write(), "5[PPp] w");
    }
}
