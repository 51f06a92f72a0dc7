//! Made-up positions, edited as text and judged by the reference.
//!
//! Every family writes its placement in one shape, which
//! [`crate::placement::Layout`] cuts into cells and fields. The edits
//! here work on that common shape only: they move, drop, flip, promote and
//! turn pieces and trim fields, without knowing any family's rules. The
//! result is just a candidate: the reference reads it, and a text it
//! refuses is thrown away. A token split wrongly (a chess `P+` before a
//! piece reads as `P`, `+…`) only changes which candidate is tried.

use super::rng::Rng;
use crate::placement::Layout;

/// How many candidates are tried for one made-up position before giving
/// up (most are refused for a missing king or an impossible pawn).
pub const ATTEMPTS: usize = 64;

/// `percent` of the pieces taken off, a king (`K`) with even odds at
/// most, so that positions without kings come up where the rules allow
/// them and chess positions, which need their kings, are still accepted
/// often.
fn thin(layout: &Layout, percent: u32, rng: &mut Rng) -> Layout {
    let gone: Vec<usize> = layout
        .occupied()
        .into_iter()
        .filter(|&c| {
            let king = layout.cells[c]
                .as_deref()
                .is_some_and(|t| t.eq_ignore_ascii_case("k"));
            rng.percent(if king { percent.min(50) } else { percent })
        })
        .collect();
    layout.without(&gone)
}

/// The start position with some of its pieces taken off: a sparser game
/// that reaches endgames (lone kings, open castling paths) within a
/// game's length; two in five are very sparse.
pub fn thinned(start: &str, rng: &mut Rng) -> Option<String> {
    let layout = Layout::parse(start)?;
    let percent = if rng.percent(40) {
        rng.between(85, 97)
    } else {
        rng.between(20, 70)
    };
    Some(thin(&layout, percent as u32, rng).write())
}

/// The start position with all but a few pieces taken off and those put
/// on random cells: a side may run out of actions, or lose its last piece
/// to a capture.
pub fn sparse(start: &str, rng: &mut Rng) -> Option<String> {
    let mut layout = Layout::parse(start)?;
    let all: Vec<String> = layout.cells.iter_mut().filter_map(Option::take).collect();
    let (kings, mut others): (Vec<String>, Vec<String>) =
        all.into_iter().partition(|t| t.eq_ignore_ascii_case("k"));
    // Each king kept with odds of 7 in 10 (families that need kings
    // still get both often; others get sides without one), and two to
    // five pieces in all, whatever the army.
    let mut pieces: Vec<String> = kings.into_iter().filter(|_| rng.percent(70)).collect();
    let more = rng
        .between(2, 5)
        .saturating_sub(pieces.len())
        .min(others.len());
    for j in 0..more {
        let pick = j + rng.below(others.len() - j);
        others.swap(j, pick);
    }
    pieces.extend(others.into_iter().take(more));
    place_randomly(&mut layout, pieces, rng);
    Some(layout.write())
}

/// The start position thinned, with every pawn put on a random cell with
/// its double-step flag set, half of them turned against their owner
/// (SC-4.1 lets an edited setup set a flag anywhere): where no seam can
/// turn a pawn that may still double-step, only such a setup brings en
/// passant by and against reversed pawns.
pub fn with_turned_pawns(start: &str, rng: &mut Rng) -> Option<String> {
    let mut layout = thin(&Layout::parse(start)?, rng.between(20, 70) as u32, rng);
    let mut pawns = Vec::new();
    for cell in layout.cells.iter_mut() {
        if let Some(p) = cell.take_if(|t| t == "P" || t == "p") {
            // Against the owner: the first player's pawns face up at home.
            let turned = match (rng.percent(50), p.as_str()) {
                (false, _) => "",
                (true, "P") => "v",
                (true, _) => "^",
            };
            pawns.push(format!("{p}{turned}+"));
        }
    }
    place_randomly(&mut layout, pawns, rng);
    Some(layout.write())
}

/// Puts `pieces` on random empty cells (as many as there are).
fn place_randomly(layout: &mut Layout, pieces: Vec<String>, rng: &mut Rng) {
    let mut free: Vec<usize> = (0..layout.cells.len())
        .filter(|&i| layout.cells[i].is_none())
        .collect();
    for piece in pieces {
        if free.is_empty() {
            return;
        }
        let cell = free.swap_remove(rng.below(free.len()));
        layout.cells[cell] = Some(piece);
    }
}

/// A made-up position from `base`: some of its pieces kept, some of those
/// moved to random cells, some promoted, turned, or given to the other
/// player; the side to move, rights, hands and the en-passant trace
/// changed at random. Most pieces stay where they stood, so that pawns
/// stay on ranks where they may stand and more candidates are accepted.
pub fn made_up(base: &str, rng: &mut Rng) -> Option<String> {
    let mut layout = Layout::parse(base)?;
    let keep = rng.between(30, 95) as u32;
    let moving = rng.between(0, 40) as u32;
    let mut movers = Vec::new();
    for cell in layout.cells.iter_mut() {
        let Some(piece) = cell.take() else {
            continue;
        };
        if !rng.percent(keep) {
            continue;
        }
        if rng.percent(moving) {
            movers.push(piece);
        } else {
            *cell = Some(piece);
        }
    }
    place_randomly(&mut layout, movers, rng);
    edit_pieces(&mut layout, rng);
    if let Some(side) = layout.fields.first_mut()
        && rng.percent(50)
    {
        *side = other_side(side);
    }
    for field in layout.fields.iter_mut().skip(1) {
        edit_field(field, rng);
    }
    if let Some(hand) = &mut layout.bracket
        && rng.percent(40)
    {
        *hand = subsequence(hand, rng);
    }
    Some(layout.write())
}

/// A few pieces promoted, turned, given to the other player or
/// re-flagged. Each kind of edit touches one or two pieces at most, so
/// that a family which has no such thing (chess has no promoted pieces on
/// the board) still accepts the other edits often.
fn edit_pieces(layout: &mut Layout, rng: &mut Rng) {
    let edits: [fn(&str, &mut Rng) -> String; 4] = [promote, turn, give, flag];
    for edit in edits {
        if !rng.percent(40) {
            continue;
        }
        for _ in 0..rng.between(1, 2) {
            let occupied = layout.occupied();
            if occupied.is_empty() {
                return;
            }
            let cell = occupied[rng.below(occupied.len())];
            if let Some(token) = &mut layout.cells[cell] {
                *token = edit(token, rng);
            }
        }
    }
}

/// The token's `+` prefix, the letter and the marks after it.
fn split(token: &str) -> (bool, char, String) {
    let promoted = token.starts_with('+');
    let body = token.trim_start_matches('+');
    let letter = body.chars().next().unwrap_or('P');
    (promoted, letter, body.chars().skip(1).collect())
}

fn join(promoted: bool, letter: char, marks: &str) -> String {
    format!("{}{letter}{marks}", if promoted { "+" } else { "" })
}

/// Promoted, or no longer.
fn promote(token: &str, _: &mut Rng) -> String {
    let (promoted, letter, marks) = split(token);
    join(!promoted, letter, &marks)
}

/// Facing up, down, or its owner's way.
fn turn(token: &str, rng: &mut Rng) -> String {
    let (promoted, letter, mut marks) = split(token);
    marks.retain(|m| m != '^' && m != 'v');
    match rng.below(3) {
        0 => marks.insert(0, '^'),
        1 => marks.insert(0, 'v'),
        _ => {}
    }
    join(promoted, letter, &marks)
}

/// The other player's.
fn give(token: &str, _: &mut Rng) -> String {
    let (promoted, letter, marks) = split(token);
    let other = if letter.is_ascii_uppercase() {
        letter.to_ascii_lowercase()
    } else {
        letter.to_ascii_uppercase()
    };
    join(promoted, other, &marks)
}

/// A chess pawn's double-step flag set (`+`) or cleared (`-`).
fn flag(token: &str, rng: &mut Rng) -> String {
    let (promoted, letter, mut marks) = split(token);
    marks.retain(|m| m != '-' && m != '+');
    marks.push(if rng.percent(50) { '-' } else { '+' });
    join(promoted, letter, &marks)
}

fn other_side(side: &str) -> String {
    match side {
        "w" => "b",
        "b" => "w",
        "A" => "B",
        "B" => "A",
        other => other,
    }
    .to_string()
}

/// Rights and hands lose some letters; an en-passant trace is dropped now
/// and then; counters stay.
fn edit_field(field: &mut String, rng: &mut Rng) {
    let letters = field.chars().any(|c| c.is_ascii_alphabetic());
    if field.contains('-') && field.len() > 1 {
        if rng.percent(50) {
            *field = "-".into();
        }
    } else if letters && !field.contains('/') {
        // Rights often no longer fit moved kings and rooks: drop them all
        // half the time.
        match rng.below(4) {
            0 | 1 => *field = "-".into(),
            2 => *field = subsequence(field, rng),
            _ => {}
        }
    }
}

/// A random subsequence of the characters, `-` when none is kept.
fn subsequence(text: &str, rng: &mut Rng) -> String {
    let kept: String = text.chars().filter(|_| rng.percent(60)).collect();
    if kept.is_empty() { "-".into() } else { kept }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn made_up_positions_are_often_accepted() {
        for v in crate::registry::variants() {
            let mut rng = Rng::new(5);
            let mut accepted = 0;
            for _ in 0..200 {
                let text = made_up(&v.start_position(), &mut rng).unwrap();
                accepted += usize::from(v.walk(Some(&text)).is_ok());
            }
            assert!(accepted >= 5, "{}: {accepted} of 200", v.name());
        }
    }
}
