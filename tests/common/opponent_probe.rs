//! Probes of positions for the practice opponent, shared by
//! `tests/it/opponent.rs` and `examples/opponent_strength.rs` (each includes
//! this file by path): mates in one, captures that win material, and games
//! between two settings. Written over `Rules` alone, like the opponent, so
//! they judge every family the same way.

#![allow(dead_code)] // the test and the example use different subsets

use std::sync::atomic::AtomicBool;

use seams::opponent::{Settings, choose_in_game};
use seams::rules::{Game, GameResult, History, Player, Rules};

/// The family's own verdict on a position with no legal action.
pub fn verdict<R: Rules>(rules: &R, pos: &R::Position) -> Option<GameResult> {
    rules.adjudicate(&History::single(pos.clone(), rules.key(pos)), true)
}

/// Whether playing `action` in `pos` wins at once: the opponent is left
/// without a legal action and the family gives the mover the game.
pub fn wins_at_once<R: Rules>(rules: &R, pos: &R::Position, action: &R::Action) -> bool {
    let next = rules.apply(pos, action);
    rules.legal_actions(&next).is_empty()
        && verdict(rules, &next).and_then(|r| r.winner) == Some(rules.to_move(pos))
}

/// Every action of the player to move that wins at once.
pub fn mates_in_one<R: Rules>(rules: &R, pos: &R::Position) -> Vec<R::Action> {
    rules
        .legal_actions(pos)
        .into_iter()
        .filter(|a| wins_at_once(rules, pos, a))
        .collect()
}

/// The material lead of `player`.
fn lead<R: Rules>(rules: &R, pos: &R::Position, player: Player) -> i32 {
    let m = rules.material(pos);
    m[player.index()] - m[player.other().index()]
}

/// How deep [`winning_capture`] follows an exchange: captures answering
/// captures, this many in all.
const EXCHANGE_PLIES: u32 = 8;

/// The material lead the player to move can reach by captures alone,
/// either side free to stop capturing (to "stand pat") whenever that
/// suits it, looking `plies` captures deep; an alpha-beta search between
/// `alpha` and `beta`, since only whether a capture gains matters. A
/// position with no legal action scores as the family's verdict on it.
fn exchange<R: Rules>(rules: &R, pos: &R::Position, plies: u32, mut alpha: i32, beta: i32) -> i32 {
    let me = rules.to_move(pos);
    let actions = rules.legal_actions(pos);
    if actions.is_empty() {
        return match verdict(rules, pos).and_then(|r| r.winner) {
            Some(w) if w == me => WON,
            Some(_) => -WON,
            None => 0,
        };
    }
    let stand = lead(rules, pos, me);
    if plies == 0 || stand >= beta {
        return stand;
    }
    alpha = alpha.max(stand);
    let their = rules.material(pos)[me.other().index()];
    for a in &actions {
        let next = rules.apply(pos, a);
        if rules.material(&next)[me.other().index()] >= their {
            continue;
        }
        let value = -exchange(rules, &next, plies - 1, -beta, -alpha);
        if value >= beta {
            return value;
        }
        alpha = alpha.max(value);
    }
    alpha
}

/// A score beyond any material lead: the game won.
const WON: i32 = 1_000_000;

/// A capture by the player to move that wins material: one after which
/// the exchange it starts (captures answering captures, each side free to
/// stop) leaves the capturer's lead larger than before. A capture that
/// leaves the opponent no legal action and wins the game counts too.
pub fn winning_capture<R: Rules>(rules: &R, pos: &R::Position) -> Option<R::Action> {
    let me = rules.to_move(pos);
    let before = lead(rules, pos, me);
    let their = |p: &R::Position| rules.material(p)[me.other().index()];
    rules.legal_actions(pos).into_iter().find(|a| {
        let next = rules.apply(pos, a);
        their(&next) < their(pos)
            && -exchange(rules, &next, EXCHANGE_PLIES - 1, -WON, -before) > before
    })
}

/// Whether the player to move has a piece hanging: if the opponent were
/// to move instead, it would have a winning capture.
pub fn hangs<R: Rules>(rules: &R, pos: &R::Position) -> bool {
    rules
        .other_to_move(pos)
        .is_some_and(|passed| winning_capture(rules, &passed).is_some())
}

/// The actions after which the opponent has no winning capture.
pub fn safe_actions<R: Rules>(rules: &R, pos: &R::Position) -> Vec<R::Action> {
    rules
        .legal_actions(pos)
        .into_iter()
        .filter(|a| winning_capture(rules, &rules.apply(pos, a)).is_none())
        .collect()
}

/// How a game between two settings went.
pub struct Played<P> {
    /// `None` when it reached the ply limit unfinished.
    pub result: Option<GameResult>,
    pub plies: usize,
    pub last: P,
}

impl<P> Played<P> {
    /// The winner: by the game's result, or by material lead at the ply
    /// limit (`None` for a draw either way).
    pub fn winner<R: Rules<Position = P>>(&self, rules: &R) -> Option<Player> {
        match self.result {
            Some(r) => r.winner,
            None => {
                let m = rules.material(&self.last);
                match m[0].cmp(&m[1]) {
                    std::cmp::Ordering::Greater => Some(Player::First),
                    std::cmp::Ordering::Less => Some(Player::Second),
                    std::cmp::Ordering::Equal => None,
                }
            }
        }
    }
}

/// A game from the initial position, `settings[0]` playing first, until
/// it ends or reaches `max_plies`. Each ply adds its number to the seeds:
/// the opponent sees positions, not games, so with one seed both sides
/// would replay the same actions whenever a position came back, and a
/// random player would walk into repetitions. Panics if the opponent ever
/// returns an action the reference does not list, or none while the game
/// goes on.
pub fn play_game<R: Rules>(
    rules: &R,
    settings: &[Settings; 2],
    max_plies: usize,
) -> Played<R::Position> {
    let stop = AtomicBool::new(false);
    let mut game = Game::new(rules, rules.start());
    while game.result().is_none() && game.plies() < max_plies {
        let pos = game.position();
        let mover = rules.to_move(pos);
        let mut these = settings[mover.index()];
        these.seed = these.seed.wrapping_add(game.plies() as u64);
        let choice = choose_in_game(rules, game.history(), &these, &stop).unwrap_or_else(|| {
            panic!(
                "{}: no choice in a game that goes on: {}",
                rules.variant(),
                rules.format_position(pos)
            )
        });
        assert!(
            rules.legal_actions(pos).contains(&choice.action),
            "{}: {:?} is not legal in {}",
            rules.variant(),
            choice.action,
            rules.format_position(pos)
        );
        game.play(choice.action);
    }
    Played {
        result: game.result(),
        plies: game.plies(),
        last: game.position().clone(),
    }
}
