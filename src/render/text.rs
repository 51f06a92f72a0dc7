//! Positions as plain text for a terminal: an ASCII board per chart (rank
//! 1 at the bottom, as players of chess and shogi read a diagram) and the
//! tetrahedron rank by rank, each rank a grid of files by levels.
//!
//! A piece is its label, upper case for the first player and lower case
//! for the second, with `+` before a promoted piece and `^`/`v` after it
//! where its facing matters; `.` is an empty cell. The hands and the side
//! to move follow the board. Built from the same [`Diagram`] as the SVG
//! pictures, so the two never disagree.

use std::collections::HashMap;
use std::fmt::Write;

use crate::movement::Facing;
use crate::rules::Player;
use crate::rules::drawing::{Diagram, PieceMark};
use crate::topology::file::AnyBoard;
use crate::topology::tetra::TetraBoard;
use crate::topology::{Board, CellId, Square};

/// The picture of `d` as lines of text.
pub fn board_text(d: &Diagram) -> String {
    let pieces: HashMap<&str, &PieceMark> = d.pieces.iter().map(|p| (p.cell.as_str(), p)).collect();
    let mut out = match &d.board {
        AnyBoard::Charts(b) => charts(b, &pieces),
        AnyBoard::Tetrahedron(t) => tetrahedron(t, &pieces),
    };
    for (side, player) in d.sides.iter().zip([Player::First, Player::Second]) {
        let hand: Vec<String> = side
            .hand
            .iter()
            .filter(|h| h.count > 0)
            .map(|h| match h.count {
                1 => cased(&h.label, player),
                n => format!("{n}{}", cased(&h.label, player)),
            })
            .collect();
        if !hand.is_empty() {
            let _ = writeln!(out, "hand of {}: {}", side.name, hand.join(" "));
        }
    }
    let mover = &d.sides[d.to_move.index()].name;
    let check = if d.in_check { ", in check" } else { "" };
    let _ = writeln!(out, "{mover} to move{check}");
    out
}

/// One cell's text, three characters wide.
fn cell(p: Option<&&PieceMark>) -> String {
    let Some(p) = p else {
        return " . ".into();
    };
    let promoted = if p.promoted { "+" } else { " " };
    // A display arrow is left out: the one character after a letter says
    // how the piece moves, which an arrow never changes.
    let facing = match p.facing.filter(|_| !p.arrow) {
        Some(Facing::Up) => "^",
        Some(Facing::Down) => "v",
        None => " ",
    };
    // Labels are one letter in every shipped family; a longer one is cut
    // so the grid stays aligned.
    let label: String = cased(&p.label, p.owner).chars().take(1).collect();
    format!("{promoted}{label}{facing}")
}

fn cased(label: &str, owner: Player) -> String {
    match owner {
        Player::First => label.to_uppercase(),
        Player::Second => label.to_lowercase(),
    }
}

fn charts(b: &Board, pieces: &HashMap<&str, &PieceMark>) -> String {
    let mut out = String::new();
    let files: String = (0..b.width())
        .map(|x| format!(" {} ", Board::file_letter(x)))
        .collect();
    for chart in 0..b.chart_count() {
        if b.chart_count() > 1 {
            let _ = writeln!(out, "chart {}", b.chart_names()[chart]);
        }
        for y in (0..b.height()).rev() {
            let row: String = (0..b.width())
                .map(|x| {
                    let c = b.cell(Square {
                        chart: chart as u8,
                        x,
                        y,
                    });
                    cell(pieces.get(b.cell_name(c)))
                })
                .collect();
            let _ = writeln!(out, "{:>3} {row}", y as u32 + 1);
        }
        let _ = writeln!(out, "    {files}");
    }
    out
}

fn tetrahedron(t: &TetraBoard, pieces: &HashMap<&str, &PieceMark>) -> String {
    let mut out = String::new();
    let mut by_rank: Vec<Vec<CellId>> = vec![Vec::new(); t.side() as usize];
    for c in t.cells() {
        if let Some(rank) = by_rank.get_mut(t.rank(c) as usize) {
            rank.push(c);
        }
    }
    for (r, cells) in by_rank.iter().enumerate().rev() {
        let _ = writeln!(out, "rank {}", r + 1);
        let levels = cells
            .iter()
            .map(|&c| t.in_rank(c).1)
            .max()
            .map_or(0, |l| l + 1);
        let files = cells
            .iter()
            .map(|&c| t.in_rank(c).0)
            .max()
            .map_or(0, |f| f + 1);
        for level in (0..levels).rev() {
            let row: String = (0..files)
                .map(
                    |file| match cells.iter().find(|&&c| t.in_rank(c) == (file, level)) {
                        Some(&c) => cell(pieces.get(t.cell_name(c))),
                        None => "   ".into(),
                    },
                )
                .collect();
            let _ = writeln!(out, "{:>3} {}", format!(".{}", level + 1), row.trim_end());
        }
        let letters: String = (0..files)
            .map(|f| format!(" {} ", (b'a' + f) as char))
            .collect();
        let _ = writeln!(out, "    {letters}");
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::registry::find;
    use crate::variant::At;

    fn check(variant: &str, expect: &[&str]) {
        let d = find(variant).unwrap().diagram(&At::default()).unwrap();
        let text = board_text(&d);
        for line in expect {
            assert!(text.contains(line), "{variant}: no '{line}' in\n{text}");
        }
    }

    #[test]
    fn flat_chess_reads_like_a_diagram() {
        check(
            "chess-flat",
            &[
                "  8  r  n  b  q  k  b  n  r ",
                "  1  R  N  B  Q  K  B  N  R ",
                "     a  b  c  d  e  f  g  h ",
                "White to move",
            ],
        );
    }

    #[test]
    fn genus_two_shows_each_chart() {
        check("shogi-genus2", &["chart I", "chart II"]);
    }

    #[test]
    fn empty_hands_are_not_listed() {
        let d = find("shogi-flat").unwrap().diagram(&At::default()).unwrap();
        assert!(!board_text(&d).contains("hand of"));
        let moves = ["c3-c4", "g7-g6", "b2-h8+", "b8-h8"].map(String::from);
        let at = At {
            position: None,
            moves: &moves,
        };
        let d = find("shogi-flat").unwrap().diagram(&at).unwrap();
        let text = board_text(&d);
        assert!(text.contains("hand of A: B"), "{text}");
        assert!(text.contains("hand of B: b"), "{text}");
    }

    #[test]
    fn the_tetrahedron_goes_rank_by_rank() {
        check("tetra-shogi", &["rank 1", "rank 9", "White to move"]);
    }
}
