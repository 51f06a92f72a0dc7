//! Choosing the next action: random, but biased toward what breaks
//! engines.
//!
//! Every legal action has weight 1 plus a weight for each interesting
//! thing it does (capture, drop, promotion, castling, en passant, check,
//! a seam that turns the piece, a chart crossing, a pawn move that may
//! leave an en-passant trace). Now and then a game enters a phase in which
//! both players take back their last move, so that positions repeat and
//! the repetition rules are reached. Hunting games also look four plies
//! ahead for a perpetual check (a checking move, a reply, the checking
//! move taken back with check, the reply taken back) and play it until the
//! game ends.

use super::rng::Rng;
use crate::rules::Player;
use crate::walk::{BoardFacts, EnPassant, Facts, Walk, cells};

const BASE: u32 = 1;
const CAPTURE: u32 = 6;
const DROP: u32 = 4;
const PROMOTION: u32 = 6;
const CASTLING: u32 = 12;
const EN_PASSANT: u32 = 30;
const CHECK: u32 = 4;
const CHECK_HUNTING: u32 = 16;
const TURNS: u32 = 5;
const AGAINST_OWNER: u32 = 3;
const CHART: u32 = 3;
const PAWN: u32 = 2;
/// Taking back one's own last move, outside and inside a repetition phase.
const REVERSE: u32 = 3;
const REVERSE_REPEATING: u32 = 400;
/// An action from or to a focused cell.
const FOCUS: u32 = 40;

/// How many actions are looked at on the board each ply (captures, pawn
/// moves, turning seams: each costs a look at the family's picture); the
/// text's own facts (drops, promotions, castling, charts) count for all.
const BOARD_PROBES: usize = 12;
/// How many of those are tested for check outside hunting games (testing
/// costs an application per action).
const CHECK_PROBES: usize = 6;
/// A repetition phase starts with probability 1 in this each ply.
const REPEAT_ONE_IN: u32 = 30;
/// How many positions a hunting game may look at ahead, in all: each
/// look costs about two move generations, so a hunt that finds nothing
/// costs the time of a few hundred positions of play.
const HUNT_BUDGET: usize = 300;

/// One game's choices.
pub struct Policy {
    hunting: bool,
    /// The ply from which a hunting game looks for perpetual checks.
    hunt_from: usize,
    budget: usize,
    /// A perpetual-check cycle being played, or a seeded start's plan,
    /// and the next action in it.
    cycle: Vec<String>,
    cycle_at: usize,
    /// The actions in `cycle` are played once, not round and round.
    once: bool,
    /// Plies left in a repetition phase.
    repeating: u32,
    /// Each player's last move (origin, destination).
    last: [Option<(String, String)>; 2],
    /// Whether the last action was a pawn step that did not capture, so
    /// that an en-passant capture may follow.
    pawn_stepped: bool,
    /// Cells whose actions are strongly preferred (shrinking aims short
    /// games at the cells a difference is about).
    focus: Vec<String>,
}

impl Policy {
    pub fn new(hunting: bool, rng: &mut Rng) -> Policy {
        Policy {
            hunting,
            hunt_from: rng.between(2, 30),
            budget: HUNT_BUDGET,
            cycle: Vec::new(),
            cycle_at: 0,
            once: false,
            repeating: 0,
            last: [None, None],
            pawn_stepped: true,
            focus: Vec::new(),
        }
    }

    /// Strongly prefers actions from or to these cells.
    pub fn focused(mut self, cells: Vec<String>) -> Policy {
        self.focus = cells;
        self
    }

    /// Actions to play first, in order, as long as they are legal.
    pub fn planned(mut self, plan: Vec<String>) -> Policy {
        if !plan.is_empty() {
            self.cycle = plan;
            self.cycle_at = 0;
            self.once = true;
        }
        self
    }

    /// Whether en-passant captures are worth looking for now.
    pub fn en_passant_possible(&self) -> bool {
        self.pawn_stepped
    }

    /// The index of the next action (the walk has at least one).
    pub fn choose(
        &mut self,
        walk: &dyn Walk,
        rng: &mut Rng,
        en_passant: &[(usize, EnPassant)],
    ) -> usize {
        let i = self
            .next_in_cycle(walk)
            .or_else(|| self.hunt(walk))
            .unwrap_or_else(|| self.weighted(walk, rng, en_passant));
        self.played(
            &walk.actions()[i],
            walk.facts(i),
            walk.board(i),
            walk.to_move(),
        );
        i
    }

    fn next_in_cycle(&mut self, walk: &dyn Walk) -> Option<usize> {
        if self.once && self.cycle_at >= self.cycle.len() {
            self.cycle.clear();
            self.once = false;
        }
        if self.cycle.is_empty() {
            return None;
        }
        let text = &self.cycle[self.cycle_at % self.cycle.len()];
        match walk.actions().binary_search(text) {
            Ok(i) => {
                self.cycle_at += 1;
                Some(i)
            }
            Err(_) => {
                self.cycle.clear();
                None
            }
        }
    }

    fn hunt(&mut self, walk: &dyn Walk) -> Option<usize> {
        if !self.hunting || walk.plies() < self.hunt_from || self.budget == 0 {
            return None;
        }
        let cycle = find_cycle(walk, &mut self.budget)?;
        let first = walk.actions().binary_search(&cycle[0]).ok()?;
        self.cycle = cycle;
        self.cycle_at = 1;
        Some(first)
    }

    fn weighted(
        &mut self,
        walk: &dyn Walk,
        rng: &mut Rng,
        en_passant: &[(usize, EnPassant)],
    ) -> usize {
        if self.repeating == 0 && rng.one_in(REPEAT_ONE_IN) {
            self.repeating = rng.between(8, 16) as u32;
        }
        let n = walk.actions().len();
        let mine = self.last[walk.to_move().index()].clone();
        let mut weights: Vec<u32> = (0..n)
            .map(|i| self.weight(&walk.actions()[i], walk.facts(i), mine.as_ref()))
            .collect();
        for &(i, _) in en_passant {
            weights[i] += EN_PASSANT;
        }
        let check = if self.hunting { CHECK_HUNTING } else { CHECK };
        // The board is looked at every other ply (a look costs a picture of
        // the position); hunting games look at every action every ply.
        let probes = match (self.hunting, rng.one_in(2)) {
            (true, _) => n,
            (false, true) => BOARD_PROBES,
            (false, false) => 0,
        };
        let looked = sample(n, probes, rng);
        for (k, &i) in looked.iter().enumerate() {
            weights[i] += board_weight(walk.board(i));
            if (self.hunting || k < CHECK_PROBES) && walk.gives_check(i) {
                weights[i] += check;
            }
        }
        self.repeating = self.repeating.saturating_sub(1);
        rng.weighted(&weights).unwrap_or(0)
    }

    fn weight(&self, text: &str, f: Facts, mine: Option<&(String, String)>) -> u32 {
        let add = |on: bool, by: u32| if on { by } else { 0 };
        let mut w = BASE
            + add(f.drop, DROP)
            + add(f.promotion, PROMOTION)
            + add(f.castling, CASTLING)
            + add(f.changes_chart, CHART);
        if !self.focus.is_empty() {
            let (from, to) = cells(text);
            let near = |c: &str| self.focus.iter().any(|f| f == c);
            w += add(from.is_some_and(near) || near(to), FOCUS);
        }
        if let Some((from, to)) = mine
            && takes_back(text, from, to)
        {
            w += if self.repeating > 0 {
                REVERSE_REPEATING
            } else {
                REVERSE
            };
        }
        w
    }

    fn played(&mut self, text: &str, f: Facts, b: &BoardFacts, mover: Player) {
        let (from, to) = cells(text);
        self.last[mover.index()] = from.map(|from| (from.to_string(), to.to_string()));
        self.pawn_stepped = !f.drop && !b.capture && !f.promotes && b.mover.as_deref() == Some("P");
    }
}

/// The weight of what an action does on the board.
fn board_weight(b: &BoardFacts) -> u32 {
    let add = |on: bool, by: u32| if on { by } else { 0 };
    add(b.capture, CAPTURE)
        + add(b.turns, TURNS)
        + add(b.against_owner, AGAINST_OWNER)
        + add(b.mover.as_deref() == Some("P"), PAWN)
}

/// Up to `k` distinct indices below `n`, in random order.
fn sample(n: usize, k: usize, rng: &mut Rng) -> Vec<usize> {
    let mut all: Vec<usize> = (0..n).collect();
    let k = k.min(n);
    for j in 0..k {
        let pick = j + rng.below(n - j);
        all.swap(j, pick);
    }
    all.truncate(k);
    all
}

/// Whether the action `text` moves a piece from `to` back to `from`.
fn takes_back(text: &str, from: &str, to: &str) -> bool {
    cells(text) == (Some(to), from)
}

/// The action that takes back the move `text` (the same piece moved back,
/// not promoting), if legal.
fn reverse_of(walk: &dyn Walk, text: &str) -> Option<usize> {
    let (Some(from), to) = cells(text) else {
        return None;
    };
    (0..walk.actions().len())
        .find(|&i| takes_back(&walk.actions()[i], from, to) && !walk.facts(i).promotes)
}

/// A perpetual check from the walk's position: four actions that give
/// check, reply, give check again by taking the first back, and take the
/// reply back, returning to the position. `budget` counts positions looked
/// at and bounds the search.
fn find_cycle(walk: &dyn Walk, budget: &mut usize) -> Option<Vec<String>> {
    let home = walk.key().to_string();
    for i in 0..walk.actions().len() {
        let a = walk.facts(i);
        if a.drop || a.castling || a.promotes || !walk.gives_check(i) {
            continue;
        }
        let mut spend = |n: usize| {
            let ok = *budget >= n;
            *budget = budget.saturating_sub(n);
            ok
        };
        if !spend(1) {
            return None;
        }
        let mut w1 = walk.peek();
        w1.play(i);
        for j in 0..w1.actions().len() {
            let b = w1.facts(j);
            if b.drop || b.castling || b.promotes {
                continue;
            }
            if !spend(1) {
                return None;
            }
            let mut w2 = w1.peek();
            w2.play(j);
            let Some(r) = reverse_of(&*w2, &walk.actions()[i]) else {
                continue;
            };
            if !w2.gives_check(r) || !spend(2) {
                continue;
            }
            let mut w3 = w2.peek();
            w3.play(r);
            let Some(s) = reverse_of(&*w3, &w1.actions()[j]) else {
                continue;
            };
            let mut w4 = w3.peek();
            w4.play(s);
            if w4.key() == home {
                return Some(vec![
                    walk.actions()[i].clone(),
                    w1.actions()[j].clone(),
                    w2.actions()[r].clone(),
                    w3.actions()[s].clone(),
                ]);
            }
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_perpetual_check_is_found_and_played_to_the_end() {
        // Shogi on the flat board, A without a king (SS-9.1 allows it):
        // the rook on a8 checks from a9 along rank 9, the king steps to
        // e8, the rook steps back and checks along rank 8, the king steps
        // back, and so on.
        let v = crate::registry::find("shogi-flat").unwrap();
        let start = "4k4/R8/9/9/9/9/9/9/9 A - 1";
        let mut walk = v.walk(Some(start)).unwrap();
        let mut budget = HUNT_BUDGET;
        let cycle = find_cycle(&*walk, &mut budget).expect("a cycle");
        assert_eq!(cycle.len(), 4);
        for _ in 0..3 {
            for text in &cycle {
                walk.play_text(text).unwrap();
            }
        }
        let result = walk.result().expect("the fourth occurrence ends the game");
        assert_eq!(result.reason, crate::rules::EndReason::PerpetualCheck);
        assert_eq!(walk.perpetual_checker(), Some(Player::First));
    }
}
