#!/usr/bin/env python3
"""cshogi (PyPI `cshogi`) as a seams engine for shogi-flat.

    seams conform --engine ".venv/bin/python tools/cshogi/engine.py" \
        --expect tools/cshogi/known.json

The rules are cshogi's: its legal moves, SFEN reader and writer, game end
(no legal move, `is_draw()`) and position hash. This file translates
between USI and the spec's notation (SS-9.2: files a-i from the left,
ranks 1-9 from the first player's side, so USI `7g` is `c3`) and names the
reasons cshogi has no code for; known.json lists where its rules differ
from the spec's, and why.
"""

import os
import re
import sys
from importlib import metadata

import cshogi  # without it, the runner's handshake error shows this import failing

# The kit lives in tools/python; engines run from anywhere.
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "python"))
import seams_engine as se  # noqa: E402

MOVE = re.compile(r"([a-z])([0-9]+)-([a-z])([0-9]+)([+=]?)")
DROP = re.compile(r"(\+?)([A-Z])\*([a-z])([0-9]+)")
HAND = "PLNSGBR"  # cshogi's hand order
SIDES = {"A": "b", "B": "w", "b": "b", "w": "w"}


def usi_square(file, rank):
    return f"{9 - (ord(file) - ord('a'))}{chr(ord('a') + 9 - int(rank))}"


def cell(usi):
    return f"{chr(ord('a') + 9 - int(usi[0]))}{9 - (ord(usi[1]) - ord('a'))}"


def index(usi):  # cshogi's square number: 9 per file from 1a
    return (int(usi[0]) - 1) * 9 + ord(usi[1]) - ord("a")


class Cshogi(se.Engine):
    name = "cshogi"
    version = metadata.version("cshogi")  # cshogi has no __version__
    variants = {"shogi-flat": "0.2"}
    capabilities = ["legal-actions", "perft", "play", "keys", "records", "drops", "promotion"]

    def start(self, variant, position):
        if position is None:
            return cshogi.Board()
        fields = position.split()
        if len(fields) not in (3, 4) or fields[1] not in SIDES:
            raise ValueError(f"not a shogi position text: '{position}'")
        fields[1] = SIDES[fields[1]]
        if len(fields) == 3:
            fields.append("1")  # the move number is optional (SS-9.1)
        try:
            return cshogi.Board(" ".join(fields))
        except RuntimeError as e:  # cshogi's reader refuses it
            raise ValueError(f"cshogi refuses the position: {e}") from None

    def actions(self, board):
        usi = {cshogi.move_to_usi(m): m for m in board.legal_moves}
        out = {}
        for u, m in usi.items():
            if "*" in u:
                out[f"{u[0]}*{cell(u[2:4])}"] = m
                continue
            # `=` declines a promotion cshogi also offers; `+` promotes.
            mark = "+" if u.endswith("+") else "=" if u + "+" in usi else ""
            out[f"{cell(u[0:2])}-{cell(u[2:4])}{mark}"] = m
        return out

    def moves(self, board):  # perft counts without writing texts
        return board.legal_moves

    def alias(self, board, text):
        # SS-9.2: a compulsory promotion may be written without its `+`.
        move = MOVE.fullmatch(text)
        if move is None or move[5]:
            return None
        usi = {cshogi.move_to_usi(m): m for m in board.legal_moves}
        base = usi_square(move[1], move[2]) + usi_square(move[3], move[4])
        return usi.get(base + "+") if base not in usi else None

    def reason(self, board, text):
        move, drop = MOVE.fullmatch(text), DROP.fullmatch(text)
        if move is None and drop is None:
            return "syntax"
        files = (move[1], move[3]) if move else (drop[3],)
        ranks = (move[2], move[4]) if move else (drop[4],)
        if max(files) > "i" or not all(1 <= int(r) <= 9 for r in ranks):
            return "no-such-cell"
        if drop:
            if drop[1]:
                return "promotion"  # a drop is never promoted
            if drop[2] not in HAND or board.pieces_in_hand[board.turn][HAND.index(drop[2])] == 0:
                return "no-piece"
            if board.piece(index(usi_square(drop[3], drop[4]))) != 0:
                return "drop-restriction"  # an occupied cell
            # A drop moves nothing, so it can only leave the king attacked
            # when the king already is; otherwise a drop rule (nifu, dead
            # rank, pawn-drop mate) forbids it. In check, cshogi cannot say
            # which, and the check is named.
            return "king-in-check" if board.is_check() else "drop-restriction"
        frm, to = usi_square(move[1], move[2]), usi_square(move[3], move[4])
        piece = board.piece(index(frm))
        if piece == 0 or (piece >= 16) != (board.turn == cshogi.WHITE):
            return "no-piece"
        legal = {cshogi.move_to_usi(m) for m in board.legal_moves}
        if frm + to in legal or frm + to + "+" in legal:
            return "promotion"  # legal with another promotion mark
        if board.is_pseudo_legal(board.move(index(frm), index(to), False)):
            return "king-in-check"  # cshogi: the piece moves so, but not legally
        # In check, cshogi's pseudo-legality already asks for an evasion,
        # so there a move that would leave the king attacked lands here too.
        return "unreachable"

    def position(self, board):
        fields = board.sfen().split()
        return " ".join([fields[0], "A" if fields[1] == "b" else "B"] + fields[2:])

    def to_move(self, board):
        return "first" if board.turn == cshogi.BLACK else "second"

    def in_check(self, board):
        return board.is_check()

    def result(self, board):
        mover, other = self.to_move(board), "second" if board.turn == cshogi.BLACK else "first"
        if board.is_game_over():  # no legal move: the player to move loses
            return other, "checkmate" if board.is_check() else "no-legal-action"
        draw = board.is_draw()
        if draw == cshogi.REPETITION_DRAW:
            return None, "repetition"
        if draw in (cshogi.REPETITION_WIN, cshogi.REPETITION_LOSE):  # a perpetual check
            return (mover if draw == cshogi.REPETITION_WIN else other), "perpetual-check"
        # REPETITION_SUPERIOR and _INFERIOR (one hand dominates the other
        # over the same board) are search verdicts, not game ends.
        return None

    def repetition_key(self, board):
        return board.zobrist_hash()  # cshogi's position hash: board, hands, side


if __name__ == "__main__":
    se.serve(Cshogi())
