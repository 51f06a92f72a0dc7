#!/usr/bin/env python3
"""python-chess (PyPI `chess`) as a seams engine for chess-flat.

    seams conform --engine ".venv/bin/python tools/python-chess/engine.py" \
        --expect tools/python-chess/known.json

in a Python with python-chess and the kit installed (pip install chess ./tools/python).

The rules are python-chess's (moves, FEN, `outcome()` without claims,
repetition identity); this file writes its moves in the spec's notation
and reads texts with seams_notation, which refuses them in the order of
conformance/PROTOCOL.md, asking python-chess what only its rules know.
"""

import sys

import chess  # without it, the runner's handshake error shows this import failing

try:
    import seams_engine as se
    import seams_notation as sn
except ImportError as e:
    # The kit is a package, installed beside the engine's own; the
    # runner's handshake error shows this line.
    sys.exit(f"{e}: install the seams kit into this Python: pip install ./tools/python")

PROMOTIONS = {"=Q": chess.QUEEN, "=R": chess.ROOK, "=B": chess.BISHOP, "=N": chess.KNIGHT}
T = chess.Termination
# Insufficient material is python-chess's dead position; SC-7.5's is bare kings.
ENDS = {T.CHECKMATE: "checkmate", T.STALEMATE: "stalemate", T.INSUFFICIENT_MATERIAL: "bare-kings",
        T.SEVENTYFIVE_MOVES: "move-rule", T.FIVEFOLD_REPETITION: "repetition"}


def square(cell):
    return chess.parse_square(cell.text)


class Ask(sn.Ask):
    """seams_notation's questions (the refusal table's rows), answered by
    python-chess for the flat board, where the player to move is `turn`."""

    def __init__(self, board):
        self.board = board

    def has_castling(self):
        return True

    def castling_names_side(self):
        return False  # O-O and O-O-O name the sides on the flat board

    def cell_exists(self, cell):
        return cell.chart is None and cell.file <= "h" and int(cell.rank) <= 8

    def piece_at(self, cell):
        piece = self.board.piece_at(square(cell))
        return piece.symbol().upper() if piece and piece.color == self.board.turn else None

    def routes(self, origin, target):
        """python-chess's pseudo-legal moves from origin to target, castling aside."""
        moves = self.board.generate_pseudo_legal_moves(chess.BB_SQUARES[square(origin)],
                                                       chess.BB_SQUARES[square(target)])
        return [m for m in moves if not self.board.is_castling(m)]

    def reachable(self, origin, target):
        return bool(self.routes(origin, target))

    def castling_of(self, origin, target):
        home = "e1" if self.board.turn == chess.WHITE else "e8"
        if origin.text == home and target.rank == origin.rank and target.file in "cg":
            return "east" if target.file == "g" else "west"
        return None

    def castling_allowed(self, side):
        east = side == "east"
        return any(self.board.is_castling(m) and self.board.is_kingside_castling(m) == east
                   for m in self.board.legal_moves)

    def outcomes(self, origin, target):
        return {"=" + chess.piece_symbol(m.promotion).upper() if m.promotion else None
                for m in self.routes(origin, target)}

    def arrives_facing(self, origin, target, choice, facing):
        # On the flat board a pawn that stays a pawn faces its owner's way
        # (up for White); no other piece carries a facing.
        up = self.board.turn == chess.WHITE
        return self.piece_at(origin) == "P" and choice is None and facing == ("^" if up else "v")

    def fitting(self, origin, target, choice, facing):
        move = chess.Move(square(origin), square(target), PROMOTIONS.get(choice))
        return int(self.board.is_legal(move))


class PythonChess(se.Engine):
    name = "python-chess"
    version = chess.__version__
    variants = {"chess-flat": "0.1"}
    capabilities = ["legal-actions", "perft", "play", "keys", "records",
                    "castling", "en-passant", "promotion"]

    def start(self, variant, position):
        if position is not None and sn.read_position("chess", position) is None:
            raise ValueError(f"not a position text of spec/chess/notation.abnf: '{position}'")
        board = chess.Board(position) if position is not None else chess.Board()
        if not board.is_valid():  # python-chess's own position check
            raise ValueError(f"python-chess refuses the position: {board.status()!r}")
        return board

    def text(self, board, move):
        if board.is_castling(move):
            return "O-O" if board.is_kingside_castling(move) else "O-O-O"
        uci = move.uci()
        return f"{uci[:2]}-{uci[2:4]}" + (f"={uci[4].upper()}" if move.promotion else "")

    def actions(self, board):
        return {self.text(board, m): m for m in board.legal_moves}

    def moves(self, board):  # perft counts without writing texts
        return board.legal_moves

    def alias(self, board, text):
        # Other spellings (Pe2xe4, e2–e4, e2-e4^, O-O-east) and castling as
        # the king's move (e1-g1, SC-9.3), which python-chess reads as castling.
        verdict = sn.judge("chess", text, Ask(board))
        if verdict.reason is not None:
            return None
        if verdict.castle is not None:
            east = verdict.castle == "east"
            return next(m for m in board.legal_moves
                        if board.is_castling(m) and board.is_kingside_castling(m) == east)
        action = verdict.action
        promotion = PROMOTIONS.get(verdict.choice)
        return chess.Move(square(action.origin), square(action.target), promotion)

    def reason(self, board, text):
        return sn.rank("chess", text, Ask(board))

    def position(self, board):
        return board.fen(en_passant="fen")  # the square after every double step, as FEN has it

    def to_move(self, board):
        return "first" if board.turn == chess.WHITE else "second"

    def in_check(self, board):
        return board.is_check()

    def result(self, board):
        outcome = board.outcome(claim_draw=False)
        if outcome is None:
            return None
        winner = {True: "first", False: "second", None: None}[outcome.winner]
        return winner, ENDS[outcome.termination]

    def repetition_key(self, board):
        # python-chess's repetition identity: placement, side, castling
        # rights, and the en-passant square only when a capture there is legal.
        return " ".join(board.fen(en_passant="legal").split()[:4])


if __name__ == "__main__":
    se.serve(PythonChess())
