//! Games walked one action at a time, for random play that looks for
//! trouble.
//!
//! `seams fuzz` plays seeded random games with the reference and asks an
//! engine about every position on the way. It has to prefer the actions
//! that break engines (captures, drops, promotions, seam crossings, checks,
//! en passant, castling), which action texts alone do not show, and it has
//! to be fast: the harness must never be the slow side of the comparison.
//! A [`Walk`] keeps one family's typed position and game history behind a
//! text interface, so that a ply costs a move generation rather than a
//! re-parse per question, and describes each legal action by [`Facts`]
//! read from the family's picture ([`crate::rules::drawing`]). Costly facts
//! (check, en passant) are computed only for the actions asked about.
//! [`crate::variant::Variant::walk`] starts one for any family.

use std::cell::OnceCell;

use crate::movement::Facing;
use crate::rules::drawing::{ActionMark, PieceMark, Pieces};
use crate::rules::{ActionError, Game, GameResult, Player, Rules};

/// What an action's text says about it: every legal action has these,
/// read from its canonical notation without allocating (the cells are
/// found by [`cells`] where needed).
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct Facts {
    pub drop: bool,
    /// Carries a promotion choice: promotes, or declines a promotion.
    pub promotion: bool,
    /// Promotes (the piece changes).
    pub promotes: bool,
    pub castling: bool,
    /// Origin and destination lie on different charts (`I:` and `II:`).
    pub changes_chart: bool,
}

/// What an action does on the board, read from the family's picture:
/// computed for an action only when asked for.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct BoardFacts {
    /// The moving piece's label (`P`, `K`, …) or the dropped kind's.
    pub mover: Option<String>,
    /// Lands on an enemy piece (en passant is found by [`Walk::en_passant`]).
    pub capture: bool,
    /// The mover ends with another facing than it had: a reversing seam.
    pub turns: bool,
    /// The mover ends facing against its owner.
    pub against_owner: bool,
}

/// An en-passant capture, and whether a pawn facing against its owner
/// takes part: the capturing one, the captured one.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct EnPassant {
    pub by_reversed: bool,
    pub against_reversed: bool,
}

/// A game played one action at a time; see the module documentation.
/// Game-end rules are judged after every action, as in a real game, but
/// never stop the walk: the caller decides when a game is over.
pub trait Walk {
    /// The current position's text, as the reference writes it.
    fn position(&self) -> &str;
    /// The current position's repetition key.
    fn key(&self) -> &str;
    fn to_move(&self) -> Player;
    fn in_check(&self) -> bool;
    /// The game's result, judged with its whole history.
    fn result(&self) -> Option<GameResult>;
    /// The result of the current position set up on its own, without the
    /// history that led to it (what `status` answers for a position text).
    fn result_alone(&self) -> Option<GameResult>;
    /// How often the current position has occurred in this game.
    fn occurrences(&self) -> u32;
    /// The player who gave check with every action since the current
    /// position first occurred, when exactly one did: a perpetual check,
    /// whatever the rules make of it. `None` unless it repeats.
    fn perpetual_checker(&self) -> Option<Player>;
    /// Actions played since the start.
    fn plies(&self) -> usize;
    /// How many actions in the current position first occurred (0: the
    /// start): every occurrence the repetition rules count lies after it.
    fn first_occurrence(&self) -> usize;
    /// The legal actions in canonical notation, sorted.
    fn actions(&self) -> &[String];
    /// What the text of action `i` of [`Walk::actions`] says.
    fn facts(&self, i: usize) -> Facts;
    /// What action `i` does on the board.
    fn board(&self, i: usize) -> &BoardFacts;
    /// Whether action `i` leaves the opponent in check.
    fn gives_check(&self, i: usize) -> bool;
    /// Whether action `i` captures en passant (a pawn's move onto an empty
    /// cell that removes a piece), and with which facings.
    fn en_passant(&self, i: usize) -> Option<EnPassant>;
    /// Why `text` is not a legal action here, or `None` when it is.
    fn refusal(&self, text: &str) -> Option<ActionError>;
    /// Plays action `i`.
    fn play(&mut self, i: usize);
    /// Plays an action given as text, if it is legal here.
    fn play_text(&mut self, text: &str) -> Result<(), ActionError>;
    /// A new walk from the current position, without its history: for
    /// looking ahead.
    fn peek(&self) -> Box<dyn Walk + '_>;
    /// Perft below each legal action, sorted by action text.
    fn divide(&self, depth: u32) -> Vec<(String, u64)>;
}

/// The [`Walk`] of every family.
pub struct Walker<'r, R: Rules> {
    rules: &'r R,
    game: Game<'r, R>,
    here: Here<R>,
}

/// What is known about the current position, each part computed on first
/// use; rebuilt after every action.
struct Here<R: Rules> {
    actions: Vec<R::Action>,
    texts: Vec<String>,
    board: Vec<OnceCell<BoardFacts>>,
    position: OnceCell<String>,
    key: OnceCell<String>,
    in_check: OnceCell<bool>,
    /// The picture and a cell → piece index.
    picture: OnceCell<Option<Picture>>,
}

struct Picture {
    pieces: Pieces,
    /// Indices into `pieces.pieces`, in the order of their cell names.
    by_cell: Vec<usize>,
}

impl Picture {
    fn piece(&self, cell: &str) -> Option<&PieceMark> {
        let all = &self.pieces.pieces;
        self.by_cell
            .binary_search_by(|&i| all[i].cell.as_str().cmp(cell))
            .ok()
            .map(|k| &all[self.by_cell[k]])
    }

    /// The facing a player's pieces have at home: its drop facing where
    /// drops exist, else up for the first player and down for the second.
    fn home(&self, p: Player) -> Facing {
        self.pieces.drop_facing[p.index()].unwrap_or(match p {
            Player::First => Facing::Up,
            Player::Second => Facing::Down,
        })
    }

    fn reversed(&self, piece: &PieceMark) -> bool {
        piece.facing.is_some_and(|f| f != self.home(piece.owner))
    }
}

impl<'r, R: Rules> Walker<'r, R> {
    /// A walk from `start`.
    pub fn new(rules: &'r R, start: R::Position) -> Walker<'r, R> {
        let (game, legal) = Game::new_listing(rules, start);
        let here = Here::of(rules, game.position(), legal);
        Walker { rules, game, here }
    }

    fn picture(&self) -> Option<&Picture> {
        self.here
            .picture
            .get_or_init(|| picture(self.rules, self.game.position()))
            .as_ref()
    }

    fn mark(&self, i: usize) -> Option<ActionMark> {
        let draw = self.rules.drawing()?;
        Some(draw.action_mark(self.game.position(), &self.here.actions[i]))
    }

    fn played(&mut self, legal: Vec<R::Action>) {
        self.here = Here::of(self.rules, self.game.position(), legal);
    }
}

impl<R: Rules> Here<R> {
    /// The same actions and texts, with nothing else computed yet.
    fn fresh(&self) -> Here<R> {
        Here {
            actions: self.actions.clone(),
            texts: self.texts.clone(),
            board: (0..self.actions.len()).map(|_| OnceCell::new()).collect(),
            position: self.position.clone(),
            key: self.key.clone(),
            in_check: self.in_check.clone(),
            picture: OnceCell::new(),
        }
    }

    fn of(rules: &R, pos: &R::Position, legal: Vec<R::Action>) -> Here<R> {
        let mut unsorted = rules.format_legal(pos, &legal);
        let order = sorted_order(&unsorted);
        let texts = order
            .iter()
            .map(|&i| std::mem::take(&mut unsorted[i]))
            .collect();
        let actions = order.iter().map(|&i| legal[i].clone()).collect();
        let n = order.len();
        Here {
            actions,
            texts,
            board: (0..n).map(|_| OnceCell::new()).collect(),
            position: OnceCell::new(),
            key: OnceCell::new(),
            in_check: OnceCell::new(),
            picture: OnceCell::new(),
        }
    }
}

/// The order that sorts `texts` as strings. Action texts are short, so
/// their first 16 bytes read as one big-endian number (zeros after the
/// end) order them; only texts that share those bytes are compared whole.
/// A comparison is then an integer comparison instead of a call to
/// `memcmp`, and sorting was a large part of a walk's step. Canonical
/// texts are distinct, so an unstable sort gives the one order.
fn sorted_order(texts: &[String]) -> Vec<usize> {
    let head = |t: &str| {
        let mut b = [0u8; 16];
        let n = t.len().min(16);
        b[..n].copy_from_slice(&t.as_bytes()[..n]);
        u128::from_be_bytes(b)
    };
    let mut keyed: Vec<(u128, usize)> = texts
        .iter()
        .enumerate()
        .map(|(i, t)| (head(t), i))
        .collect();
    keyed.sort_unstable_by(|a, b| a.0.cmp(&b.0).then_with(|| texts[a.1].cmp(&texts[b.1])));
    keyed.into_iter().map(|(_, i)| i).collect()
}

fn picture<R: Rules>(rules: &R, pos: &R::Position) -> Option<Picture> {
    let pieces = rules.drawing()?.pieces(pos);
    // An index rather than a map keyed by cell name: a picture is made for
    // most positions of every game `seams fuzz` plays, and cloning every
    // name into a map was most of its cost.
    let mut by_cell: Vec<usize> = (0..pieces.pieces.len()).collect();
    by_cell.sort_unstable_by(|&a, &b| pieces.pieces[a].cell.cmp(&pieces.pieces[b].cell));
    Some(Picture { pieces, by_cell })
}

/// The cell name at the start of `text` (`e5`, `I:e5`, `c5.3`), without
/// the marks after it.
fn leading_cell(text: &str) -> &str {
    let b = text.as_bytes();
    let mut i = 0;
    while i < b.len() && (b[i].is_ascii_uppercase() || b[i] == b':') {
        i += 1;
    }
    while i < b.len() && b[i].is_ascii_lowercase() {
        i += 1;
    }
    while i < b.len() && b[i].is_ascii_digit() {
        i += 1;
    }
    if i + 1 < b.len() && b[i] == b'.' && b[i + 1].is_ascii_digit() {
        i += 1;
        while i < b.len() && b[i].is_ascii_digit() {
            i += 1;
        }
    }
    &text[..i]
}

fn chart(cell: &str) -> Option<&str> {
    cell.split_once(':').map(|(c, _)| c)
}

/// The origin (`None` for a drop or castling) and destination (empty
/// for castling) of an action's canonical text: `from-to` with marks after
/// it (`+`, `=`, `=Q`, `^`, `v`), `X*to` for a drop, `O-O…` for castling.
pub fn cells(text: &str) -> (Option<&str>, &str) {
    if text.starts_with("O-O") {
        return (None, "");
    }
    if let Some((_, rest)) = text.split_once('*') {
        return (None, leading_cell(rest));
    }
    let (from, rest) = text.split_once('-').unwrap_or((text, ""));
    (Some(from), leading_cell(rest))
}

/// The facts of an action's canonical text (see [`cells`]).
fn text_facts(text: &str) -> Facts {
    if text.starts_with("O-O") {
        return Facts {
            castling: true,
            ..Facts::default()
        };
    }
    let (from, to) = cells(text);
    let Some(from) = from else {
        return Facts {
            drop: true,
            ..Facts::default()
        };
    };
    let marks = text.get(from.len() + 1 + to.len()..).unwrap_or("");
    let promotes = marks.contains('+')
        || marks
            .split_once('=')
            .is_some_and(|(_, r)| r.starts_with(|c: char| c.is_ascii_alphabetic()));
    Facts {
        drop: false,
        promotion: promotes || marks.contains('='),
        promotes,
        castling: false,
        changes_chart: chart(from) != chart(to),
    }
}

fn board_facts(text: &str, mark: Option<&ActionMark>, pic: Option<&Picture>) -> BoardFacts {
    let (Some(mark), Some(pic)) = (mark, pic) else {
        return BoardFacts::default();
    };
    let mover = mark.from.as_deref().and_then(|from| pic.piece(from));
    let owner = pic.pieces.to_move;
    // A facing is given only where it matters (a piece that moves by its
    // facing, on a board whose seams can reverse it).
    let turns = match (mover.and_then(|m| m.facing), mark.facing) {
        (Some(before), Some(after)) => before != after,
        _ => false,
    };
    BoardFacts {
        mover: mover.map(|m| m.label.clone()).or_else(|| mark.drop.clone()),
        capture: !text.starts_with("O-O") && pic.piece(&mark.to).is_some_and(|t| t.owner != owner),
        turns,
        against_owner: mark.facing.is_some_and(|f| f != pic.home(owner)),
    }
}

impl<R: Rules> Walk for Walker<'_, R> {
    fn position(&self) -> &str {
        self.here
            .position
            .get_or_init(|| self.rules.format_position(self.game.position()))
    }

    fn key(&self) -> &str {
        self.here
            .key
            .get_or_init(|| self.rules.key(self.game.position()))
    }

    fn to_move(&self) -> Player {
        self.rules.to_move(self.game.position())
    }

    fn in_check(&self) -> bool {
        *self
            .here
            .in_check
            .get_or_init(|| self.rules.in_check(self.game.position()))
    }

    fn result(&self) -> Option<GameResult> {
        self.game.result()
    }

    fn result_alone(&self) -> Option<GameResult> {
        // A position's own endings (no legal action, bare kings, the move
        // rule) are judged alike with or without history (SC-I10, SS-I8,
        // KY-I5, TS-I9); only repetitions need history. So while the game
        // goes on the position alone goes on too, and the judgment is
        // redone only when the game has ended.
        self.game.result()?;
        Game::new(self.rules, self.game.position().clone()).result()
    }

    fn occurrences(&self) -> u32 {
        self.game.history().occurrences_of_current()
    }

    fn perpetual_checker(&self) -> Option<Player> {
        let history = self.game.history();
        if history.occurrences_of_current() < 2 {
            return None;
        }
        let first = *history.current_occurrences().first()?;
        let checked_every = |p: Player| {
            (first..history.plies())
                .filter(|&j| history.movers[j] == p)
                .all(|j| history.gave_check[j])
        };
        match (checked_every(Player::First), checked_every(Player::Second)) {
            (true, false) => Some(Player::First),
            (false, true) => Some(Player::Second),
            _ => None,
        }
    }

    fn plies(&self) -> usize {
        self.game.history().plies()
    }

    fn first_occurrence(&self) -> usize {
        let history = self.game.history();
        match history.occurrences_of_current() {
            0 | 1 => history.plies(),
            _ => history.current_occurrences().first().copied().unwrap_or(0),
        }
    }

    fn actions(&self) -> &[String] {
        &self.here.texts
    }

    fn facts(&self, i: usize) -> Facts {
        text_facts(&self.here.texts[i])
    }

    fn board(&self, i: usize) -> &BoardFacts {
        self.here.board[i]
            .get_or_init(|| board_facts(&self.here.texts[i], self.mark(i).as_ref(), self.picture()))
    }

    fn gives_check(&self, i: usize) -> bool {
        let after = self
            .rules
            .apply(self.game.position(), &self.here.actions[i]);
        self.rules.in_check(&after)
    }

    fn en_passant(&self, i: usize) -> Option<EnPassant> {
        let f = self.facts(i);
        if f.drop || f.castling {
            return None;
        }
        let b = self.board(i);
        if b.capture || b.mover.as_deref() != Some("P") {
            return None;
        }
        let before = self.picture()?;
        let from = cells(&self.here.texts[i]).0?;
        let after = picture(
            self.rules,
            &self
                .rules
                .apply(self.game.position(), &self.here.actions[i]),
        )?;
        if after.pieces.pieces.len() >= before.pieces.pieces.len() {
            return None;
        }
        // The captured pawn: a cell that held a piece and no longer does,
        // other than the one the capturer left.
        let victim = before
            .pieces
            .pieces
            .iter()
            .find(|p| p.cell != from && after.piece(&p.cell).is_none())?;
        Some(EnPassant {
            by_reversed: before.piece(from).is_some_and(|m| before.reversed(m)),
            against_reversed: before.reversed(victim),
        })
    }

    fn refusal(&self, text: &str) -> Option<ActionError> {
        self.rules.parse_action(self.game.position(), text).err()
    }

    fn play(&mut self, i: usize) {
        let action = self.here.actions[i].clone();
        let legal = self.game.play_listing(action);
        self.played(legal);
    }

    fn play_text(&mut self, text: &str) -> Result<(), ActionError> {
        let action = self.rules.parse_action(self.game.position(), text)?;
        let legal = self.game.play_listing(action);
        self.played(legal);
        Ok(())
    }

    fn peek(&self) -> Box<dyn Walk + '_> {
        // The same as a walk started from the position, without listing
        // and writing its actions again (a hunt for perpetual checks peeks
        // at thousands of positions).
        Box::new(Walker {
            rules: self.rules,
            game: self.game.fresh(!self.here.actions.is_empty()),
            here: self.here.fresh(),
        })
    }

    fn divide(&self, depth: u32) -> Vec<(String, u64)> {
        let pos = self.game.position();
        let mut out: Vec<(String, u64)> = self
            .here
            .actions
            .iter()
            .zip(&self.here.texts)
            .map(|(a, text)| {
                let below = self.rules.apply(pos, a);
                (
                    text.clone(),
                    self.rules.perft(&below, depth.saturating_sub(1)),
                )
            })
            .collect();
        out.sort();
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn texts_are_sorted_as_strings() {
        let texts: Vec<String> = [
            "II:e6-II:e7+",
            "II:e6-II:e7",
            "e2-e4",
            "II:e6-II:e7=",
            "e2-e3",
            "P*e5",
            "O-O-east",
            "O-O",
            "a",
            "",
            "II:e6-II:e7=Q",
            "II:e6-II:e77",
            "ab\0",
            "ab",
        ]
        .map(String::from)
        .to_vec();
        let order: Vec<&String> = sorted_order(&texts).iter().map(|&i| &texts[i]).collect();
        let mut expected: Vec<&String> = texts.iter().collect();
        expected.sort();
        assert_eq!(order, expected);
    }

    #[test]
    fn texts_tell_their_facts() {
        assert_eq!(cells("II:e6-II:e7+"), (Some("II:e6"), "II:e7"));
        let f = text_facts("II:e6-II:e7+");
        assert!(f.promotes && f.promotion && !f.changes_chart);
        let f = text_facts("e12-e13=");
        assert!(f.promotion && !f.promotes);
        let f = text_facts("e7-e8=Q");
        assert!(f.promotes && cells("e7-e8=Q").1 == "e8");
        let f = text_facts("I:e1-II:e9v");
        assert!(f.changes_chart && cells("I:e1-II:e9v").1 == "II:e9" && !f.promotion);
        assert_eq!(cells("c3.2-c4.2"), (Some("c3.2"), "c4.2"));
        assert!(!text_facts("c3.2-c4.2").promotion);
        assert!(text_facts("P*e5").drop && cells("P*e5") == (None, "e5"));
        assert!(text_facts("O-O-east").castling && !text_facts("O-O-east").promotion);
    }
}
