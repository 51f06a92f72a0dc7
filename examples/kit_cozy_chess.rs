//! The Rust kit in use: cozy-chess, an independent chess move generator,
//! checked against the corpus for `chess-flat` as named trials.
//!
//! `cargo test` runs this example (it is declared with `test = true` and
//! `harness = false`); `cargo run --example kit_cozy_chess -- --list`
//! lists the trials, and any libtest filter works as usual.
//!
//! The wrapper is the whole cost of the kit to an implementer: answer
//! `hello`, and translate positions and actions between the protocol's
//! text and the engine's types. Everything else (selection, comparison,
//! reports) is the kit's.

use cozy_chess::{Board, Move, Piece};
use seams::conformance::kit::{self, Options, Protocol};
use seams::conformance::protocol::{Command, PROTOCOL_VERSION, Request};
use serde_json::{Value, json};

struct CozyChess;

/// The standard start, which `chess-flat` uses.
const START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

fn legal_moves(board: &Board) -> Vec<Move> {
    let mut out = Vec::new();
    board.generate_moves(|ms| {
        out.extend(ms);
        false
    });
    out
}

/// A move in `chess-flat` notation: `e2-e4`, `e7-e8=Q`, `O-O`, `O-O-O`.
/// cozy-chess writes castling as the king taking its own rook.
fn notation(board: &Board, mv: Move) -> String {
    let king_moves = board.piece_on(mv.from) == Some(Piece::King);
    if king_moves && board.color_on(mv.to) == Some(board.side_to_move()) {
        return if mv.to.file() > mv.from.file() {
            "O-O".into()
        } else {
            "O-O-O".into()
        };
    }
    let promotion = match mv.promotion {
        None => "",
        Some(Piece::Queen) => "=Q",
        Some(Piece::Rook) => "=R",
        Some(Piece::Bishop) => "=B",
        Some(_) => "=N",
    };
    format!("{}-{}{promotion}", mv.from, mv.to)
}

/// The board after `moves` from `position`, or why not.
fn board_at(position: Option<&str>, moves: &[String]) -> Result<Board, String> {
    let fen = position.unwrap_or(START);
    // The protocol's chess-flat text may leave out the two counters;
    // cozy-chess wants all six FEN fields.
    let full = match fen.split_whitespace().count() {
        4 => format!("{fen} 0 1"),
        5 => format!("{fen} 1"),
        _ => fen.to_string(),
    };
    let mut board = Board::from_fen(&full, false).map_err(|e| format!("bad FEN '{fen}': {e:?}"))?;
    for text in moves {
        let mv = legal_moves(&board)
            .into_iter()
            .find(|&m| notation(&board, m) == *text)
            .ok_or_else(|| format!("'{text}' is not legal"))?;
        board.play_unchecked(mv);
    }
    Ok(board)
}

fn perft(board: &Board, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let moves = legal_moves(board);
    if depth == 1 {
        return moves.len() as u64;
    }
    moves
        .into_iter()
        .map(|m| {
            let mut next = board.clone();
            next.play_unchecked(m);
            perft(&next, depth - 1)
        })
        .sum()
}

fn sorted_actions(board: &Board) -> Vec<String> {
    let mut actions: Vec<String> = legal_moves(board)
        .into_iter()
        .map(|m| notation(board, m))
        .collect();
    actions.sort();
    actions
}

impl CozyChess {
    fn answer(&self, command: &Command) -> Result<Value, String> {
        match command {
            Command::Hello { .. } => Ok(json!({
                "protocol": PROTOCOL_VERSION,
                "name": "cozy-chess (seams kit example)",
                "version": "0.3",
                "variants": [{"name": "chess-flat", "rules": "0.1"}],
                "capabilities": ["legal-actions", "perft", "castling", "en-passant", "promotion"],
                "commands": ["hello", "legal_actions", "perft"],
                "boards": [],
            })),
            Command::LegalActions { at, .. } => {
                let board = board_at(at.position.as_deref(), &at.moves)?;
                Ok(json!({"actions": sorted_actions(&board)}))
            }
            Command::Perft {
                at, depth, divide, ..
            } => {
                let board = board_at(at.position.as_deref(), &at.moves)?;
                let mut reply = json!({"nodes": perft(&board, *depth)});
                if *divide {
                    let below: serde_json::Map<String, Value> = legal_moves(&board)
                        .into_iter()
                        .map(|m| {
                            let mut next = board.clone();
                            next.play_unchecked(m);
                            let n = perft(&next, depth.saturating_sub(1));
                            (notation(&board, m), json!(n))
                        })
                        .collect();
                    reply["divide"] = Value::Object(below);
                }
                Ok(reply)
            }
            _ => Err("unsupported".into()),
        }
    }
}

impl Protocol for CozyChess {
    fn reply(&mut self, request: &Request) -> Value {
        let id = request.id;
        if let Some(variant) = request_variant(&request.command)
            && variant != "chess-flat"
        {
            return json!({"id": id, "unsupported": true});
        }
        match self.answer(&request.command) {
            Ok(mut fields) => {
                fields["id"] = json!(id);
                fields["ok"] = json!(true);
                fields
            }
            Err(e) if e == "unsupported" => json!({"id": id, "unsupported": true}),
            Err(e) => json!({"id": id, "error": e}),
        }
    }
}

fn request_variant(command: &Command) -> Option<&str> {
    match command {
        Command::LegalActions { variant, .. } | Command::Perft { variant, .. } => Some(variant),
        _ => None,
    }
}

fn main() {
    kit::main(CozyChess, Options::default());
}
