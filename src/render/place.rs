//! Action texts placed on a picture by the cells they name, without asking
//! the rules whether they are legal: an engine's wrong answer is drawn
//! where it claims to go.

use crate::movement::Facing;
use crate::rules::drawing::ActionMark;
use crate::topology::CoordError;
use crate::topology::file::AnyBoard;

/// The board's own name for a cell written `text`, or why it is no cell.
pub fn canonical_cell(board: &AnyBoard, text: &str) -> Result<String, CoordError> {
    match board {
        AnyBoard::Charts(b) => b
            .parse_cell(text.trim())
            .map(|c| b.cell_name(c).to_string()),
        AnyBoard::Tetrahedron(t) => t
            .parse_cell(text.trim())
            .map(|c| t.cell_name(c).to_string()),
    }
}

/// The longest start of `text` that names a cell, with what follows it.
fn leading_cell<'t>(board: &AnyBoard, text: &'t str) -> Option<(String, &'t str)> {
    (1..=text.len())
        .rev()
        .filter(|&end| text.is_char_boundary(end))
        .find_map(|end| {
            canonical_cell(board, &text[..end])
                .ok()
                .map(|c| (c, &text[end..]))
        })
}

/// Places an action text by the cells it names, without asking whether it
/// is legal: `from-to` with optional promotion and facing marks after it,
/// or `X*to` for a drop. An engine's wrong answer is drawn where it claims
/// to go this way; `None` when the text names no cells.
pub fn loose_mark(board: &AnyBoard, text: &str) -> Option<ActionMark> {
    let t = text.trim();
    if let Some((piece, rest)) = t.split_once('*') {
        let (to, _) = leading_cell(board, rest)?;
        return Some(ActionMark {
            from: None,
            to,
            facing: None,
            drop: Some(piece.to_string()),
            promote: false,
        });
    }
    let (from, rest) = leading_cell(board, t)?;
    let rest = rest.strip_prefix('-').or_else(|| rest.strip_prefix('x'))?;
    let (to, suffix) = leading_cell(board, rest)?;
    let facing = if suffix.contains('^') {
        Some(Facing::Up)
    } else if suffix.contains('v') {
        Some(Facing::Down)
    } else {
        None
    };
    Some(ActionMark {
        from: Some(from),
        to,
        facing,
        drop: None,
        // `=` alone declines a promotion; `=Q` or `=X` changes the piece.
        promote: suffix.contains('+')
            || suffix
                .split_once('=')
                .is_some_and(|(_, r)| r.starts_with(|c: char| c.is_ascii_alphabetic())),
    })
}
