//! A game being played, seen through text: the state behind `seams play
//! --interactive` and anything else that plays a game a move at a time.
//!
//! A [`Session`] keeps the start (initial, or an edited setup labelled as
//! such), every action in canonical notation and every position reached,
//! so it can take moves back, list the legal actions, and write the
//! [`Record`] that `record verify` accepts: the actions, the final
//! position, its special rights and the repetition counts. It is built for
//! every family by [`crate::variant::Variant::session`] and
//! [`crate::variant::Variant::resume`].
//!
//! Taking a move back replays the game from its start. That keeps one
//! source of truth for every count the endings read (occurrences, checks,
//! movers) at a cost linear in the game's length, which is nothing next to
//! a player's thinking time.

use std::collections::HashMap;

use serde::Serialize;

use crate::record::{RECORD_FORMAT, Record, RecordStart, Repetition};
use crate::rules::{ActionError, Game, GameResult, IllegalReason, Player, Rules};

/// Where a game stands.
#[derive(Clone, Debug, Serialize, PartialEq, Eq)]
pub struct Status {
    pub position: String,
    pub to_move: Player,
    pub in_check: bool,
    pub result: Option<GameResult>,
    /// How often the current position has occurred, this time included.
    pub occurrences: u32,
    /// Board actions played (decisions not counted).
    pub plies: usize,
}

/// A game in progress, whatever its family.
pub trait Session {
    fn variant(&self) -> &str;
    /// A player's name as the family's rules give it.
    fn player_name(&self, p: Player) -> &'static str;
    fn status(&self) -> Status;
    /// The legal actions in canonical notation, sorted; none once the game
    /// is over.
    fn legal_actions(&self) -> Vec<String>;
    /// Plays an action (notation, or `resign` / `draw`) and returns its
    /// canonical text.
    fn play(&mut self, text: &str) -> Result<String, ActionError>;
    /// Takes the last action back (a decision too) and returns it; `None`
    /// at the start.
    fn undo(&mut self) -> Option<String>;
    /// Every action so far, canonical.
    fn actions(&self) -> &[String];
    /// The game as a record of the current format.
    fn record(&self) -> Record;
    /// The current position as a picture, when the family has one, with
    /// the display arrows the game's history gives.
    fn diagram(&self) -> Option<crate::rules::drawing::Diagram>;
    /// The practice opponent's choice for the side to move, as canonical
    /// text; `None` when the game is over or there is no legal action.
    fn opponent_choice(
        &self,
        settings: &crate::opponent::Settings,
        stop: &std::sync::atomic::AtomicBool,
    ) -> Option<crate::opponent::Choice<String>>;
}

/// The [`Session`] of every family.
pub(crate) struct Live<'r, R: Rules> {
    rules: &'r R,
    /// The position text of an edited start, as the rules print it.
    edited: Option<String>,
    actions: Vec<String>,
    /// The board actions among `actions`, for what reads the game's
    /// history (display arrows).
    played: Vec<R::Action>,
    /// `positions[0]` is the start; one more per board action.
    positions: Vec<R::Position>,
    game: Game<'r, R>,
}

impl<'r, R: Rules> Live<'r, R> {
    /// A new game from `start`; `edited` says whether it is an edited
    /// setup rather than the variant's initial position.
    pub(crate) fn new(rules: &'r R, start: R::Position, edited: bool) -> Live<'r, R> {
        Live {
            rules,
            edited: edited.then(|| rules.format_position(&start)),
            actions: Vec::new(),
            played: Vec::new(),
            positions: vec![start.clone()],
            game: Game::new(rules, start),
        }
    }

    /// The canonical text of `text` in the current position, and the
    /// action it denotes (`None` for a decision).
    fn parse(&self, text: &str) -> Result<(String, Option<R::Action>), ActionError> {
        if self.game.result().is_some() {
            return Err(ActionError {
                code: IllegalReason::GameOver,
                message: "the game is already over".into(),
            });
        }
        // Read exactly as written: `game-action` of the family's grammar
        // derives `resign` and `draw` with no space around them (NT-I1).
        match text {
            t @ ("resign" | "draw") => Ok((t.to_string(), None)),
            t => {
                let pos = self.game.position();
                // Bounded: the text may be as long as its input.
                let action = self.rules.parse_action(pos, t).map_err(|e| ActionError {
                    code: e.code,
                    message: crate::quote::bounded(&e.message).into_owned(),
                })?;
                Ok((self.rules.format_action(pos, &action), Some(action)))
            }
        }
    }

    /// Every position that occurred more than once, in order of first
    /// occurrence.
    fn repetitions(&self) -> Vec<Repetition> {
        let mut seen: HashMap<String, (usize, u32)> = HashMap::new();
        for (i, p) in self.positions.iter().enumerate() {
            seen.entry(self.rules.key(p)).or_insert((i, 0)).1 += 1;
        }
        let mut repeated: Vec<(usize, u32)> = seen.into_values().filter(|&(_, n)| n > 1).collect();
        repeated.sort();
        repeated
            .into_iter()
            .map(|(first, count)| Repetition {
                position: self.rules.format_position(&self.positions[first]),
                count,
            })
            .collect()
    }
}

impl<R: Rules> Session for Live<'_, R> {
    fn player_name(&self, p: Player) -> &'static str {
        self.rules.player_name(p)
    }

    fn variant(&self) -> &str {
        self.rules.variant()
    }

    fn status(&self) -> Status {
        let pos = self.game.position();
        Status {
            position: self.rules.format_position(pos),
            to_move: self.rules.to_move(pos),
            in_check: self.rules.in_check(pos),
            result: self.game.result(),
            occurrences: self.game.history().occurrences_of_current(),
            plies: self.game.plies(),
        }
    }

    fn legal_actions(&self) -> Vec<String> {
        if self.game.result().is_some() {
            return Vec::new();
        }
        let pos = self.game.position();
        let mut out: Vec<String> = self
            .rules
            .legal_actions(pos)
            .iter()
            .map(|a| self.rules.format_action(pos, a))
            .collect();
        out.sort();
        out
    }

    fn play(&mut self, text: &str) -> Result<String, ActionError> {
        let (canonical, action) = self.parse(text)?;
        match action {
            Some(a) => {
                self.game.play(a.clone());
                self.played.push(a);
                self.positions.push(self.game.position().clone());
            }
            None => self.game.play_text(&canonical)?,
        }
        self.actions.push(canonical.clone());
        Ok(canonical)
    }

    fn undo(&mut self) -> Option<String> {
        let last = self.actions.pop()?;
        // A decision (resign, draw) ends the game, so only the last action
        // can be one: every action left is a board action in `played`.
        if last != "resign" && last != "draw" {
            self.played.pop();
            self.positions.pop();
        }
        let mut game = Game::new(self.rules, self.positions[0].clone());
        for a in &self.played {
            game.play(a.clone());
        }
        self.game = game;
        Some(last)
    }

    fn actions(&self) -> &[String] {
        &self.actions
    }

    fn record(&self) -> Record {
        let pos = self.game.position();
        Record {
            format: Some(RECORD_FORMAT),
            variant: self.rules.variant().to_string(),
            rules: self.rules.rules_version().to_string(),
            start: match &self.edited {
                None => RecordStart::Initial,
                Some(position) => RecordStart::Edited {
                    position: position.clone(),
                },
            },
            actions: self.actions.clone(),
            result: self.game.result(),
            final_position: Some(self.rules.format_position(pos)),
            rights: Some(self.rules.rights(pos)),
            repetitions: Some(self.repetitions()),
        }
    }

    fn diagram(&self) -> Option<crate::rules::drawing::Diagram> {
        let mut d = self.rules.drawing()?.diagram(self.game.position());
        // The history gives what the position alone cannot: the arrows of
        // pieces whose facing no rule reads (SS-A2).
        d.set_arrows(&self.rules.display_arrows(&self.positions[0], &self.played));
        Some(d)
    }

    fn opponent_choice(
        &self,
        settings: &crate::opponent::Settings,
        stop: &std::sync::atomic::AtomicBool,
    ) -> Option<crate::opponent::Choice<String>> {
        if self.game.result().is_some() {
            return None;
        }
        let pos = self.game.position();
        // The game's history, so that the opponent sees repetitions.
        let c = crate::opponent::choose_in_game(self.rules, self.game.history(), settings, stop)?;
        Some(crate::opponent::Choice {
            action: self.rules.format_action(pos, &c.action),
            score: c.score,
            depth: c.depth,
            nodes: c.nodes,
        })
    }
}
