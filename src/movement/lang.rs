//! The movement language (`spec/movement/rules.md`, clauses `MV-…`): a
//! piece's movement written as text, read into terms that name no board.
//!
//! The notation derives from Betza's: an atom letter (`W`, `F`, `N`, …)
//! says what one step is, lower-case letters before it choose among its
//! directions in the piece's own frame (`f` forward, `l` left, …), a
//! doubled atom or a count after it makes a rider, `m` and `c` restrict a
//! term to moves or captures, and `[leg-leg]` is a move of two stages
//! (`n[...]` when the cell between must be empty). `spec/movement/movement.abnf`
//! is the grammar; `tests/it/movement.rs` holds this reader against it.
//!
//! What a term means on a board — which directions exist, which atoms a
//! board defines — is the compiler's question (`super::square`,
//! `super::lattice`); this module only reads text, and every error names
//! the character where reading stopped.

use std::fmt;

/// The longest movement text read, in bytes (a data file field).
pub const MAX_MOVEMENT_BYTES: usize = 256;

/// A movement as read: its terms in order, and the text they came from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Movement {
    pub text: String,
    pub terms: Vec<Term>,
}

/// One term: what it may do on landing, and the route it takes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Term {
    /// Where the term starts in the text (a character index), for errors.
    pub at: usize,
    pub mode: Mode,
    pub body: Body,
}

/// MV-3: a term may land on an empty cell, an enemy piece, or either.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Ord, PartialOrd)]
pub enum Mode {
    /// Empty cell or enemy piece (no letter).
    Any,
    /// Only an empty cell (`m`).
    Move,
    /// Only an enemy piece (`c`).
    Capture,
}

impl Mode {
    pub const ALL: [Mode; 3] = [Mode::Any, Mode::Move, Mode::Capture];

    pub fn index(self) -> usize {
        self as usize
    }

    /// Whether a landing on an empty cell (`capture` false) or on an enemy
    /// piece (`capture` true) is allowed.
    pub fn allows(self, capture: bool) -> bool {
        match self {
            Mode::Any => true,
            Mode::Move => !capture,
            Mode::Capture => capture,
        }
    }
}

/// What a term moves by.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Body {
    /// One atom's directions, as a leap or a ride (MV-2, MV-4).
    Ride {
        dirs: Vec<Selector>,
        atom: Atom,
        /// Where the atom letter stands, for errors.
        atom_at: usize,
        range: Range,
    },
    /// Two single steps, the second chosen in the frame the first leaves
    /// (MV-5). `lame`: the cell between must be empty.
    Chain { lame: bool, first: Leg, second: Leg },
}

/// One stage of a two-stage move: a single step of `W` or `F`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Leg {
    pub at: usize,
    pub dirs: Vec<Selector>,
    pub atom: Atom,
}

/// How far a term goes: one step of its atom, up to `n` steps, or any
/// number (MV-4).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Ord, PartialOrd)]
pub enum Range {
    One,
    UpTo(u8),
    Unlimited,
}

impl Range {
    /// The most steps of the atom, `None` without a bound.
    pub fn limit(self) -> Option<u8> {
        match self {
            Range::One => Some(1),
            Range::UpTo(n) => Some(n),
            Range::Unlimited => None,
        }
    }
}

/// The atoms (MV-2). `K`, `R`, `B` and `Q` are written for `WF`, `WW`,
/// `FF` and `WWFF`; [`Atom::parts`] expands them.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Ord, PartialOrd)]
pub enum Atom {
    /// One orthogonal step.
    W,
    /// One diagonal step (the two-order rule on square boards).
    F,
    /// The knight: the edge word long, short, long.
    N,
    /// Two orthogonal steps in one line, jumping the first cell.
    D,
    /// Two diagonal steps in one line, jumping the first cell.
    A,
    /// Three orthogonal steps in one line, jumping.
    H,
    /// Three diagonal steps in one line, jumping.
    G,
    K,
    R,
    B,
    Q,
}

impl Atom {
    pub const ALL: [Atom; 11] = [
        Atom::W,
        Atom::F,
        Atom::N,
        Atom::D,
        Atom::A,
        Atom::H,
        Atom::G,
        Atom::K,
        Atom::R,
        Atom::B,
        Atom::Q,
    ];

    pub fn letter(self) -> char {
        match self {
            Atom::W => 'W',
            Atom::F => 'F',
            Atom::N => 'N',
            Atom::D => 'D',
            Atom::A => 'A',
            Atom::H => 'H',
            Atom::G => 'G',
            Atom::K => 'K',
            Atom::R => 'R',
            Atom::B => 'B',
            Atom::Q => 'Q',
        }
    }

    fn from_letter(c: char) -> Option<Atom> {
        Atom::ALL.into_iter().find(|a| a.letter() == c)
    }

    /// The simple atoms a shorthand stands for (`Q` = `W` and `F`); a
    /// simple atom stands for itself. `R`, `B` and `Q` ride because their
    /// range reads as unlimited when no count is written.
    pub fn parts(self) -> &'static [Atom] {
        match self {
            Atom::K | Atom::Q => &[Atom::W, Atom::F],
            Atom::R => &[Atom::W],
            Atom::B => &[Atom::F],
            Atom::W => &[Atom::W],
            Atom::F => &[Atom::F],
            Atom::N => &[Atom::N],
            Atom::D => &[Atom::D],
            Atom::A => &[Atom::A],
            Atom::H => &[Atom::H],
            Atom::G => &[Atom::G],
        }
    }

    /// Whether the atom is a compound of others (`K R B Q`).
    fn is_shorthand(self) -> bool {
        matches!(self, Atom::K | Atom::R | Atom::B | Atom::Q)
    }
}

/// The sign a selector asks of one component of a direction.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Want {
    Positive,
    Negative,
    Zero,
    NonZero,
}

impl Want {
    fn holds(self, v: i8) -> bool {
        match self {
            Want::Positive => v > 0,
            Want::Negative => v < 0,
            Want::Zero => v == 0,
            Want::NonZero => v != 0,
        }
    }
}

/// The three axes of a piece's frame.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Axis {
    Forward,
    Right,
    Up,
}

/// One direction selector (MV-3.2): conditions on the components of a
/// direction in the piece's frame, all of which must hold; or, doubled,
/// the axis and sign of an oblique atom's long leg.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Selector {
    pub at: usize,
    pub text: String,
    pub forward: Option<Want>,
    pub right: Option<Want>,
    pub up: Option<Want>,
    /// `ff`, `bb`, `ll`, `rr`: the long leg points along this axis, this way.
    pub long: Option<(Axis, bool)>,
}

/// A direction's components in the piece's frame, each −1, 0 or +1, and
/// for an oblique atom the axis and sign of its long leg.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Components {
    pub forward: i8,
    pub right: i8,
    pub up: i8,
    pub long: Option<(Axis, bool)>,
}

impl Selector {
    /// Whether a direction with these components is chosen.
    pub fn selects(&self, c: Components) -> bool {
        if let Some(long) = self.long {
            return c.long == Some(long);
        }
        self.forward.is_none_or(|w| w.holds(c.forward))
            && self.right.is_none_or(|w| w.holds(c.right))
            && self.up.is_none_or(|w| w.holds(c.up))
    }

    /// Whether the selector names the up–down axis, which only a board
    /// with three axes has.
    pub fn names_up(&self) -> bool {
        self.up.is_some()
    }
}

/// Whether a set of selectors chooses a direction: every direction when
/// there are none, otherwise those any selector chooses.
pub fn chosen(dirs: &[Selector], c: Components) -> bool {
    dirs.is_empty() || dirs.iter().any(|s| s.selects(c))
}

/// Why a movement text was refused, with the character index where the
/// reader stopped or the term begins.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum MovementError {
    #[error("{}: expected {expected}", at_or_end(*.at, *.found))]
    Syntax {
        at: usize,
        found: Option<char>,
        expected: &'static str,
    },
    #[error("the text is {len} bytes; a movement has at most {MAX_MOVEMENT_BYTES}")]
    TooLong { len: usize },
    #[error(
        "{}: a doubled direction letter picks an oblique atom's long leg, and {atom} has none (only N does): expected one direction letter before {atom}",
        where_(*.at, Some(*.letter))
    )]
    Doubled { at: usize, letter: char, atom: char },
    #[error("{}: the board {board} does not define the atom {atom} ({why}): expected an atom it defines", where_(*.at, Some(*.atom)))]
    Unsupported {
        at: usize,
        atom: char,
        board: String,
        why: &'static str,
    },
    #[error(
        "{}: the board {board} has no up–down axis, so '{letter}' names no direction: expected f, b, s, v, l or r",
        where_(*.at, Some(*.letter))
    )]
    NoAxis {
        at: usize,
        letter: char,
        board: String,
    },
    #[error("{}: the term '{term}' chooses no direction of its atom: expected letters that choose at least one", where_(*.at, None))]
    NoDirection { at: usize, term: String },
    #[error(
        "{}: the term '{term}' is not its own mirror image; on a board of square charts a piece keeps a facing but no handedness: expected its left–right partner too (MV-I2)",
        where_(*.at, None)
    )]
    Asymmetric { at: usize, term: String },
}

impl MovementError {
    /// The character index the error points at.
    pub fn at(&self) -> usize {
        match self {
            MovementError::Syntax { at, .. }
            | MovementError::Doubled { at, .. }
            | MovementError::Unsupported { at, .. }
            | MovementError::NoAxis { at, .. }
            | MovementError::NoDirection { at, .. }
            | MovementError::Asymmetric { at, .. } => *at,
            MovementError::TooLong { .. } => 0,
        }
    }
}

/// Where a syntax error stands: a character, or the end of the text
/// (where something more was expected).
fn at_or_end(at: usize, found: Option<char>) -> String {
    match found {
        Some(_) => where_(at, found),
        None => format!("at the end (character {})", at + 1),
    }
}

fn where_(at: usize, found: Option<char>) -> String {
    match found {
        Some(c) => format!("at character {} ('{c}')", at + 1),
        None => format!("at character {}", at + 1),
    }
}

const TERM_START: &str =
    "m, c, n, '[', a direction letter (f b s v l r u d) or an atom (W F N D A H G K R B Q)";

/// Reads a movement text (MV-1). The text is the whole field: no spaces.
pub fn parse(text: &str) -> Result<Movement, MovementError> {
    if text.len() > MAX_MOVEMENT_BYTES {
        return Err(MovementError::TooLong { len: text.len() });
    }
    let chars: Vec<char> = text.chars().collect();
    let mut r = Reader { chars, i: 0 };
    let mut terms = Vec::new();
    loop {
        terms.push(r.term()?);
        if r.peek().is_none() {
            break;
        }
    }
    // Checked once the whole text reads, so that a syntax error anywhere
    // is reported as one (the grammar's verdict comes first).
    for t in &terms {
        match &t.body {
            Body::Ride { dirs, atom, .. } => check_doubled(dirs, *atom)?,
            Body::Chain { first, second, .. } => {
                check_doubled(&first.dirs, first.atom)?;
                check_doubled(&second.dirs, second.atom)?;
            }
        }
    }
    Ok(Movement {
        text: text.to_string(),
        terms,
    })
}

struct Reader {
    chars: Vec<char>,
    i: usize,
}

impl Reader {
    fn peek(&self) -> Option<char> {
        self.chars.get(self.i).copied()
    }

    fn peek_at(&self, k: usize) -> Option<char> {
        self.chars.get(self.i + k).copied()
    }

    fn fail<T>(&self, expected: &'static str) -> Result<T, MovementError> {
        Err(MovementError::Syntax {
            at: self.i,
            found: self.peek(),
            expected,
        })
    }

    fn eat(&mut self, c: char) -> bool {
        if self.peek() == Some(c) {
            self.i += 1;
            true
        } else {
            false
        }
    }

    fn term(&mut self) -> Result<Term, MovementError> {
        let at = self.i;
        let mode = if self.eat('m') {
            Mode::Move
        } else if self.eat('c') {
            Mode::Capture
        } else {
            Mode::Any
        };
        let lame = self.eat('n');
        if self.peek() == Some('[') || lame {
            if !self.eat('[') {
                return self.fail("'[' (n makes a two-stage move lame)");
            }
            let first = self.leg()?;
            if !self.eat('-') {
                return self.fail("'-' between the two stages");
            }
            let second = self.leg()?;
            if !self.eat(']') {
                return self.fail("']' closing the two-stage move");
            }
            return Ok(Term {
                at,
                mode,
                body: Body::Chain {
                    lame,
                    first,
                    second,
                },
            });
        }
        let dirs = self.selectors()?;
        let Some(atom) = self.peek().and_then(Atom::from_letter) else {
            return if dirs.is_empty() && mode == Mode::Any {
                self.fail(TERM_START)
            } else {
                self.fail("an atom (W F N D A H G K R B Q)")
            };
        };
        let atom_at = self.i;
        self.i += 1;
        // A doubled atom rides, unless a count follows the second letter:
        // then that letter begins a counted term of its own (MV-4.1), as
        // the grammar reads it.
        let doubled = !atom.is_shorthand()
            && self.peek() == Some(atom.letter())
            && !self.peek_at(1).is_some_and(|c| c.is_ascii_digit());
        let range = if doubled {
            self.i += 1;
            Range::Unlimited
        } else if let Some(n) = self.count()? {
            if n == 1 { Range::One } else { Range::UpTo(n) }
        } else if atom.is_shorthand() && atom != Atom::K {
            Range::Unlimited
        } else {
            Range::One
        };
        Ok(Term {
            at,
            mode,
            body: Body::Ride {
                dirs,
                atom,
                atom_at,
                range,
            },
        })
    }

    fn leg(&mut self) -> Result<Leg, MovementError> {
        let at = self.i;
        let dirs = self.selectors()?;
        let atom = match self.peek() {
            Some('W') => Atom::W,
            Some('F') => Atom::F,
            _ => return self.fail("W or F (a stage is one orthogonal or diagonal step)"),
        };
        self.i += 1;
        Ok(Leg { at, dirs, atom })
    }

    /// A count of 1 to 99 after an atom, written without a leading zero.
    fn count(&mut self) -> Result<Option<u8>, MovementError> {
        let Some(d) = self.peek().filter(char::is_ascii_digit) else {
            return Ok(None);
        };
        if d == '0' {
            return self.fail("a count from 1 to 99 (no leading zero)");
        }
        self.i += 1;
        let mut n = d as u8 - b'0';
        if let Some(e) = self.peek().filter(char::is_ascii_digit) {
            self.i += 1;
            n = n * 10 + (e as u8 - b'0');
            if self.peek().is_some_and(|c| c.is_ascii_digit()) {
                return self.fail("at most two digits (a count is 1 to 99)");
            }
        }
        Ok(Some(n))
    }

    /// The direction letters before an atom, split into selectors from
    /// left to right, each as long as it can be (MV-3.2).
    fn selectors(&mut self) -> Result<Vec<Selector>, MovementError> {
        let mut out = Vec::new();
        while let Some(c) = self.peek() {
            let at = self.i;
            let mut s = Selector {
                at,
                text: String::new(),
                forward: None,
                right: None,
                up: None,
                long: None,
            };
            if matches!(c, 'f' | 'b' | 'l' | 'r') && self.peek_at(1) == Some(c) {
                s.long = Some(match c {
                    'f' => (Axis::Forward, true),
                    'b' => (Axis::Forward, false),
                    'r' => (Axis::Right, true),
                    _ => (Axis::Right, false),
                });
                self.i += 2;
            } else {
                match c {
                    'f' | 'b' | 's' | 'v' => {
                        s.forward = Some(match c {
                            'f' => Want::Positive,
                            'b' => Want::Negative,
                            's' => Want::Zero,
                            _ => Want::NonZero,
                        });
                        self.i += 1;
                        self.side(&mut s);
                        self.height(&mut s);
                    }
                    'l' | 'r' => {
                        self.side(&mut s);
                        self.height(&mut s);
                    }
                    'u' | 'd' => self.height(&mut s),
                    _ => break,
                }
            }
            s.text = self.chars[at..self.i].iter().collect();
            out.push(s);
        }
        Ok(out)
    }

    fn side(&mut self, s: &mut Selector) {
        match self.peek() {
            Some('l') => s.right = Some(Want::Negative),
            Some('r') => s.right = Some(Want::Positive),
            _ => return,
        }
        self.i += 1;
    }

    fn height(&mut self, s: &mut Selector) {
        match self.peek() {
            Some('u') => s.up = Some(Want::Positive),
            Some('d') => s.up = Some(Want::Negative),
            _ => return,
        }
        self.i += 1;
    }
}

/// A doubled letter is meaningful only before `N` (MV-3.3).
fn check_doubled(dirs: &[Selector], atom: Atom) -> Result<(), MovementError> {
    if atom == Atom::N {
        return Ok(());
    }
    match dirs.iter().find(|s| s.long.is_some()) {
        Some(s) => Err(MovementError::Doubled {
            at: s.at,
            letter: s.text.chars().next().unwrap_or('?'),
            atom: atom.letter(),
        }),
        None => Ok(()),
    }
}

impl fmt::Display for Movement {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.text)
    }
}

impl Movement {
    /// Whether every move keeps the colour of an alternating colouring of
    /// the cells (GEO-I2): each term's unit crosses an even number of cell
    /// edges (`F` two, `A` four, `D` two, `G` six; `W` one, `H` and `N`
    /// three), so its every landing does; a ride whose unit crosses an
    /// odd number lands on both colours. A piece that moves so is bound to
    /// the colour it starts on, as the bishop is (the designer's bishop
    /// check counts such pieces).
    pub fn keeps_colour(&self) -> bool {
        let even = |atom: Atom| {
            atom.parts().iter().all(|a| match a {
                Atom::F | Atom::A | Atom::D | Atom::G => true,
                Atom::W | Atom::N | Atom::H => false,
                // Shorthands are expanded by `parts`.
                Atom::K | Atom::R | Atom::B | Atom::Q => false,
            })
        };
        self.terms.iter().all(|t| match &t.body {
            Body::Ride { atom, .. } => even(*atom),
            // A leg is one W (one crossing) or one F (two).
            Body::Chain { first, second, .. } => {
                (first.atom == Atom::W) == (second.atom == Atom::W)
            }
        })
    }
}

impl Term {
    /// The term's own text within `movement`.
    pub fn text(&self, movement: &Movement, next: Option<&Term>) -> String {
        let end = next.map_or(movement.text.chars().count(), |t| t.at);
        movement
            .text
            .chars()
            .skip(self.at)
            .take(end - self.at)
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A term in brief: mode, selectors, atom or stages, range.
    fn brief(t: &Term) -> String {
        let sel = |d: &[Selector]| {
            d.iter()
                .map(|s| s.text.clone())
                .collect::<Vec<_>>()
                .join(",")
        };
        let mode = format!("{:?}", t.mode);
        match &t.body {
            Body::Ride {
                dirs, atom, range, ..
            } => format!("{mode} {{{}}}{} {range:?}", sel(dirs), atom.letter()),
            Body::Chain {
                lame,
                first,
                second,
            } => format!(
                "{mode} {}[{{{}}}{}-{{{}}}{}]",
                if *lame { "lame" } else { "jump" },
                sel(&first.dirs),
                first.atom.letter(),
                sel(&second.dirs),
                second.atom.letter()
            ),
        }
    }

    fn check(text: &str, expect: &str) {
        let got = match parse(text) {
            Ok(m) => m.terms.iter().map(brief).collect::<Vec<_>>().join(" | "),
            Err(e) => format!("error: {e}"),
        };
        assert!(
            got.contains(expect),
            "{text}: expected to contain\n  {expect}\ngot\n  {got}"
        );
    }

    #[test]
    fn reads_terms_and_refuses_with_the_place() {
        check("WfF", "Any {}W One | Any {f}F One");
        check("WW3", "Any {}W One | Any {}W UpTo(3)");
        check("fR", "Any {f}R Unlimited");
        check("K", "Any {}K One");
        check("W3", "Any {}W UpTo(3)");
        check("WW", "Any {}W Unlimited");
        check("mfWcfF", "Move {f}W One | Capture {f}F One");
        check("ffN", "Any {ff}N One");
        check("rslW", "Any {r,sl}W One");
        check("flu", "error: at the end (character 4): expected an atom");
        check("[fF-sW]", "Any jump[{f}F-{s}W]");
        check("n[W-fF]", "Any lame[{}W-{f}F]");
        check("", "error: at the end (character 1): expected m, c, n");
        check("Wx", "error: at character 2 ('x')");
        check(
            "ffW",
            "error: at character 1 ('f'): a doubled direction letter",
        );
        check(
            "W0",
            "error: at character 2 ('0'): expected a count from 1 to 99",
        );
        check("W100", "at most two digits");
        check("[fF-N]", "expected W or F");
        check("[fF sW]", "expected '-'");
        check("n W", "expected '['");
        check("mf", "error: at the end (character 3): expected an atom");
    }
}
