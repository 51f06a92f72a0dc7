//! Kyoto pieces: two-faced tokens whose face decides how they move.
//!
//! Faces are data (`KY-1.4`): the `[pieces.<face>]` tables of the variant
//! file give each face's name, letter and movement (in the movement
//! language of `spec/movement/rules.md`), mark the one royal face (the
//! king, which has one face and never turns over) and the faces the
//! exchange FEN writes with `+`; the `[flips]` table pairs the other faces
//! into tokens, whose face turns over after every move (`KY-3.1`). A
//! [`Face`] is a place in the `[pieces]` list, a [`Token`] a place in the
//! list of tokens, which follows the first face of each; [`Faces`] holds
//! what the rules ask of both, read once by [`super::data`].

use crate::rules::Player;
pub use crate::rules::roster::Kind as Face;
use crate::rules::roster::{MAX_KINDS, Roster};

/// The most tokens a variant may have: every face but the royal one
/// belongs to a token of two, and a variant has at most [`MAX_KINDS`]
/// faces.
pub const MAX_TOKENS: usize = (MAX_KINDS - 1) / 2;

/// A two-faced token: its place in its variant's list of tokens, the order
/// hands are written in. A token in hand is a token, not a face: it may be
/// dropped either face up.
#[derive(Copy, Clone, Eq, PartialEq, Hash, Ord, PartialOrd, Debug)]
pub struct Token(u8);

impl Token {
    /// The token's place in its variant's list (`0..MAX_TOKENS`), the index
    /// of its count in a hand.
    #[inline]
    pub fn index(self) -> usize {
        usize::from(self.0)
    }

    /// The token at place `i`. Within [`MAX_TOKENS`]; a larger `i` is a
    /// bug of the caller.
    #[inline]
    pub(super) fn at(i: usize) -> Token {
        debug_assert!(i < MAX_TOKENS);
        Token(i as u8)
    }
}

/// A variant's faces and tokens, as its file lists them. Every vector is
/// indexed by [`Face::index`] or [`Token::index`].
#[derive(Clone, Debug)]
pub struct Faces {
    /// The faces' names and letters, in the file's order.
    pub(super) roster: Roster,
    /// The king: the one face that never turns over and is never in hand.
    pub(super) royal: Face,
    /// `flip[face]`: the face a token shows after it moves; the royal
    /// face's own.
    pub(super) flip: Vec<Face>,
    /// `token[face]`: the token that shows the face; `None` for the royal
    /// face.
    pub(super) token: Vec<Option<Token>>,
    /// `plus[face]`: the position text writes the face `+` and its token's
    /// base letter (`promoted = true`).
    pub(super) plus: Vec<bool>,
    /// `tokens[token]`: the token's two faces, in the file's order.
    pub(super) tokens: Vec<[Face; 2]>,
    /// `base[token]`: the token's base letter, the letter of its plain
    /// face, which writes it in hands and (after `+`) its other face.
    pub(super) base: Vec<char>,
}

impl Faces {
    /// The faces' names and letters.
    pub fn roster(&self) -> &Roster {
        &self.roster
    }

    /// Every face, in the file's order.
    pub fn faces(&self) -> impl DoubleEndedIterator<Item = Face> + Clone + use<> {
        self.roster.kinds()
    }

    /// Every token, in the order hands list them.
    pub fn tokens(&self) -> impl DoubleEndedIterator<Item = Token> + Clone + use<> {
        (0..self.tokens.len()).map(Token::at)
    }

    /// The royal face (the king).
    #[inline]
    pub fn royal(&self) -> Face {
        self.royal
    }

    /// Whether `face` is the royal one.
    #[inline]
    pub fn is_royal(&self, face: Face) -> bool {
        face == self.royal
    }

    /// The face a piece shows after it moves (KY-3.1).
    #[inline]
    pub fn flipped(&self, face: Face) -> Face {
        self.flip[face.index()]
    }

    /// The token showing `face`; `None` for the royal face.
    #[inline]
    pub fn token(&self, face: Face) -> Option<Token> {
        self.token[face.index()]
    }

    /// The two faces of `token`, in the file's order.
    #[inline]
    pub fn faces_of(&self, token: Token) -> [Face; 2] {
        self.tokens[token.index()]
    }

    /// The face's upper-case letter, the letter a drop is written with
    /// (`T*c3`).
    pub fn letter(&self, face: Face) -> char {
        self.roster.letter(face)
    }

    /// The face's name in the data file (`tokin`).
    pub fn name(&self, face: Face) -> &str {
        self.roster.name(face)
    }

    /// The face whose upper-case letter is `c`.
    pub fn by_letter(&self, c: char) -> Option<Face> {
        self.roster.by_letter(c).filter(|_| c.is_ascii_uppercase())
    }

    /// The token's base letter (`L` for the tokin/lance token).
    pub fn base_letter(&self, token: Token) -> char {
        self.base[token.index()]
    }

    /// The token whose base letter is `c` (upper case).
    pub fn token_by_base(&self, c: char) -> Option<Token> {
        self.base.iter().position(|&b| b == c).map(Token::at)
    }

    /// The base letters, as `"L S N P"`: for messages.
    pub fn base_list(&self) -> String {
        let letters: Vec<String> = self.base.iter().map(char::to_string).collect();
        letters.join(" ")
    }

    /// The letters of the faces a drop may show (every face but the royal
    /// one), as `"T L S B G N P R"`: for messages.
    pub fn drop_list(&self) -> String {
        let letters: Vec<String> = self
            .faces()
            .filter(|&f| !self.is_royal(f))
            .map(|f| self.letter(f).to_string())
            .collect();
        letters.join(" ")
    }

    /// Writes `piece` as the position text does: `+` and the base letter
    /// for a face written so (`+L` is the tokin), else the face's own
    /// letter, upper case for the first player.
    pub fn push_text(&self, out: &mut String, piece: Piece) {
        let f = piece.face;
        let c = match self.token(f) {
            Some(t) if self.plus[f.index()] => {
                out.push('+');
                self.base_letter(t)
            }
            _ => self.letter(f),
        };
        out.push(match piece.owner {
            Player::First => c,
            Player::Second => c.to_ascii_lowercase(),
        });
    }

    /// The piece as the position text writes it (`+S`, `k`).
    pub fn text(&self, piece: Piece) -> String {
        let mut s = String::with_capacity(2);
        self.push_text(&mut s, piece);
        s
    }

    /// The face a position text writes as `+` (when `plus`) and the
    /// upper-case letter `c`: a token's plain face by its base letter, the
    /// royal face by its letter, the other face of a token by `+` and the
    /// base letter. Any other spelling names no face.
    pub fn from_text(&self, plus: bool, c: char) -> Option<Face> {
        match self.token_by_base(c) {
            Some(t) => self
                .faces_of(t)
                .into_iter()
                .find(|f| self.plus[f.index()] == plus),
            None => Some(self.royal).filter(|&k| !plus && self.letter(k) == c),
        }
    }
}

/// A token on the board: its owner and the face it shows.
#[derive(Copy, Clone, Eq, PartialEq, Hash, Debug)]
pub struct Piece {
    pub owner: Player,
    pub face: Face,
}
