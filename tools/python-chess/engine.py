#!/usr/bin/env python3
"""python-chess (PyPI `chess`) as a seams engine for chess-flat.

    seams conform --engine ".venv/bin/python tools/python-chess/engine.py" \
        --expect tools/python-chess/known.json

The rules are python-chess's (moves, FEN, `outcome()` without claims,
repetition identity); this file translates notation and names reasons.
"""

import os
import re
import sys

import chess  # without it, the runner's handshake error shows this import failing

# The kit lives in tools/python; engines run from anywhere.
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "python"))
import seams_engine as se  # noqa: E402

# SC-9.2: an optional piece letter, `-`, `x` or `–`, a promotion letter.
MOVE = re.compile(r"([KQRBNP]?)([a-z])([0-9]+)[-x–]([a-z])([0-9]+)(?:=([A-Za-z]))?")
PROMOTIONS = {"Q": chess.QUEEN, "R": chess.ROOK, "B": chess.BISHOP, "N": chess.KNIGHT}
T = chess.Termination
# Insufficient material is python-chess's dead position; SC-7.5's is bare kings.
ENDS = {T.CHECKMATE: "checkmate", T.STALEMATE: "stalemate", T.INSUFFICIENT_MATERIAL: "bare-kings",
        T.SEVENTYFIVE_MOVES: "move-rule", T.FIVEFOLD_REPETITION: "repetition"}


class PythonChess(se.Engine):
    name = "python-chess"
    version = chess.__version__
    variants = {"chess-flat": "0.1"}
    capabilities = ["legal-actions", "perft", "play", "keys", "records",
                    "castling", "en-passant", "promotion"]

    def start(self, variant, position):
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

    def read(self, board, text):
        """(origin, destination, castles, promotes, promotion letter) of a
        move of the side to move, or the reason why the text names none."""
        m = MOVE.fullmatch(text)
        if m is None:
            return "castling" if text in ("O-O", "O-O-O") else "syntax"
        if max(m[2], m[4]) > "h" or not all(1 <= int(r) <= 8 for r in (m[3], m[5])):
            return "no-such-cell"
        frm, to = chess.parse_square(m[2] + m[3]), chess.parse_square(m[4] + m[5])
        piece = board.piece_at(frm)
        if piece is None or piece.color != board.turn or m[1] not in ("", piece.symbol().upper()):
            return "no-piece"
        castles = board.king(board.turn) == frm and abs(frm - to) == 2 and frm // 8 == to // 8
        if board.color_at(to) == board.turn:  # not python-chess's king-takes-rook castling
            return "castling" if castles else "unreachable"
        promotes = piece.piece_type == chess.PAWN and chess.square_rank(to) in (0, 7)
        return frm, to, castles, promotes, (m[6] or "").upper()

    def alias(self, board, text):
        # Other spellings of SC-9.2, and castling as the king's move
        # (`e1-g1`, SC-9.3), which python-chess reads as its castling move.
        read = self.read(board, text)
        if isinstance(read, str) or read[3] != (read[4] in PROMOTIONS):
            return None
        move = chess.Move(read[0], read[1], PROMOTIONS.get(read[4]))
        return move if board.is_legal(move) else None

    def reason(self, board, text):
        read = self.read(board, text)
        if isinstance(read, str):
            return read
        frm, to, castles, promotes, _ = read
        if castles:
            return "castling"
        move = chess.Move(frm, to, chess.QUEEN if promotes else None)
        if not board.is_pseudo_legal(move):
            return "unreachable"
        if not board.is_legal(move):
            return "king-in-check"  # the piece moves so, but python-chess forbids it
        return "promotion"  # legal with the right promotion part, so that part is wrong

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
