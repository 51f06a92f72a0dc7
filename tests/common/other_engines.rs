//! Move counting by the independent engines used as dev-dependencies:
//! cozy-chess for the chess control and haitaka for the shogi control.

/// Every legal move of a cozy-chess board.
pub fn cozy_moves(board: &cozy_chess::Board) -> Vec<cozy_chess::Move> {
    let mut out = Vec::new();
    board.generate_moves(|ms| {
        out.extend(ms);
        false
    });
    out
}

/// Perft over any board type: `moves` lists a board's legal moves and
/// `play` makes one on a copy.
fn perft_with<B: Clone, M>(
    board: &B,
    depth: u32,
    moves: &dyn Fn(&B) -> Vec<M>,
    play: &dyn Fn(&mut B, M),
) -> u64 {
    if depth == 0 {
        return 1;
    }
    let list = moves(board);
    if depth == 1 {
        return list.len() as u64;
    }
    list.into_iter()
        .map(|m| {
            let mut b = board.clone();
            play(&mut b, m);
            perft_with(&b, depth - 1, moves, play)
        })
        .sum()
}

/// Perft by cozy-chess.
pub fn cozy_perft(board: &cozy_chess::Board, depth: u32) -> u64 {
    perft_with(board, depth, &cozy_moves, &|b, m| b.play_unchecked(m))
}

/// haitaka's legal moves of a board. Its own pawn-drop-mate test can
/// accept a mating pawn drop (it treats any reported piece as mobile), so
/// each checking pawn drop is re-tested here by counting the replies.
pub fn haitaka_moves(board: &haitaka::Board) -> Vec<haitaka::Move> {
    let replies = |b: &haitaka::Board| {
        let mut n = 0;
        b.generate_board_moves(|moves| {
            n += moves.into_iter().len();
            false
        });
        n
    };
    let mut out = Vec::new();
    board.generate_board_moves(|moves| {
        out.extend(moves);
        false
    });
    board.generate_drops(|moves| {
        for mv in moves {
            if let haitaka::Move::Drop {
                piece: haitaka::Piece::Pawn,
                ..
            } = mv
            {
                let mut after = board.clone();
                after.play_unchecked(mv);
                if !after.checkers().is_empty() && replies(&after) == 0 {
                    continue;
                }
            }
            out.push(mv);
        }
        false
    });
    out
}

/// Perft by haitaka, with the pawn-drop-mate correction above.
pub fn haitaka_perft(board: &haitaka::Board, depth: u32) -> u64 {
    perft_with(board, depth, &haitaka_moves, &|b, m| b.play_unchecked(m))
}

/// A shogi position text as USI SFEN: placement and hands are already in
/// that form; only the side field differs (`b` when the first player moves).
pub fn sfen(text: &str, first_to_move: bool) -> String {
    let mut f: Vec<&str> = text.split(' ').collect();
    if f.len() > 1 {
        f[1] = if first_to_move { "b" } else { "w" };
    }
    f.join(" ")
}
