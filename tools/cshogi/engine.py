#!/usr/bin/env python3
"""cshogi (PyPI `cshogi`) as a seams engine for shogi-flat.

    seams conform --engine ".venv/bin/python tools/cshogi/engine.py" \
        --expect tools/cshogi/known.json

in a Python with cshogi and the kit installed (pip install cshogi ./tools/python).

The rules are cshogi's: its legal moves, SFEN reader and writer, game end
(no legal move, `is_draw()`) and position hash. This file translates
between USI and the spec's notation (SS-9.2: files a-i from the left,
ranks 1-9 from the first player's side, so USI `7g` is `c3`) and reads
texts with seams_notation, which refuses them in the order of
conformance/PROTOCOL.md, asking cshogi what only its rules know;
known.json lists where its rules differ from the spec's, and why.
"""

import sys
from importlib import metadata

import cshogi  # without it, the runner's handshake error shows this import failing

try:
    import seams_engine as se
    import seams_notation as sn
except ImportError as e:
    # The kit is a package, installed beside the engine's own; the
    # runner's handshake error shows this line.
    sys.exit(f"{e}: install the seams kit into this Python: pip install ./tools/python")

HAND = "PLNSGBR"  # cshogi's hand order
SIDES = {"A": "b", "B": "w", "b": "b", "w": "w"}


def usi_square(file, rank):
    return f"{9 - (ord(file) - ord('a'))}{chr(ord('a') + 9 - int(rank))}"


def cell(usi):
    return f"{chr(ord('a') + 9 - int(usi[0]))}{9 - (ord(usi[1]) - ord('a'))}"


def index(usi):  # cshogi's square number: 9 per file from 1a
    return (int(usi[0]) - 1) * 9 + ord(usi[1]) - ord("a")


def usi(cell):  # a seams_notation Cell
    return usi_square(cell.file, cell.rank)


class Ask(sn.Ask):
    """seams_notation's questions (the refusal table's rows), answered by
    cshogi for the flat board and the player to move. In check, cshogi's
    pseudo-legal moves are evasions only; routes are then looked up on a
    copy whose king is set aside as a gold of the mover (same cell, so it
    blocks alike), and the king's own routes are its steps."""

    def __init__(self, board):
        self.board = board
        self.black = board.turn == cshogi.BLACK
        self.check = board.is_check()
        self._legal = None

    def legal(self):
        if self._legal is None:
            self._legal = {cshogi.move_to_usi(m) for m in self.board.legal_moves}
        return self._legal

    def board_with(self, king=None, hand=""):
        """A copy of the board with the mover's king replaced and a piece added to its hand."""
        placement, side, hands, number = self.board.sfen().split(" ")
        if king is not None:
            mine = ("K", king) if self.black else ("k", king.lower())
            placement = placement.replace(*mine)
        if hand:
            hands = (hand if self.black else hand.lower()) + ("" if hands == "-" else hands)
        return cshogi.Board(" ".join((placement, side, hands, number)))

    def cell_exists(self, cell):
        return cell.chart is None and cell.file <= "i" and int(cell.rank) <= 9

    def piece_at(self, cell):
        p = self.board.piece(index(usi(cell)))
        return None if p == 0 or (p >= 16) == self.black else cshogi.PIECE_SYMBOLS[p % 16].upper()

    def in_hand(self, letter):
        return letter in HAND and self.board.pieces_in_hand[self.board.turn][HAND.index(letter)] > 0

    def routes(self, origin, target):
        """The pseudo-legal moves from origin to target, as USI texts."""
        base = usi(origin) + usi(target)
        if not self.check:
            free = self.board
        elif self.piece_at(origin) == "K":
            files = abs(ord(origin.file) - ord(target.file))
            step = max(files, abs(int(origin.rank) - int(target.rank)))
            return [base] if step == 1 and self.piece_at(target) is None else []
        else:
            free = self.board_with(king="G")
        return [u for u in map(cshogi.move_to_usi, free.pseudo_legal_moves) if u[:4] == base]

    def reachable(self, origin, target):
        return bool(self.routes(origin, target))

    def drop_allowed(self, letter, cell):
        if self.board.piece(index(usi(cell))):
            return False  # occupied
        ahead = 9 - int(cell.rank) if self.black else int(cell.rank) - 1
        if ahead < {"P": 1, "L": 1, "N": 2}.get(letter, 0):
            return False  # it could never move again
        pawn = cshogi.BPAWN if self.black else cshogi.WPAWN
        return letter != "P" or all(self.board.piece(index(usi_square(cell.file, r))) != pawn
                                    for r in range(1, 10))  # nifu

    def outcomes(self, origin, target):
        return {"+" if u.endswith("+") else None for u in self.routes(origin, target)}

    def arrives_facing(self, origin, target, choice, facing):
        # On the flat board every piece that carries facing faces its
        # owner's way (up for A); kings, rooks and bishops carry none.
        kind = self.piece_at(origin).lstrip("+")
        return kind not in ("K", "R", "B") and facing == ("^" if self.black else "v")

    def fitting(self, origin, target, choice, facing):
        return int(usi(origin) + usi(target) + ("+" if choice == "+" else "") in self.legal())

    def drop_safe(self, letter, cell):
        if not self.check:
            return True  # a drop moves nothing, so it opens no line to the king
        # In check a drop is safe where it blocks: where a gold drop is an evasion.
        gold = self.board_with(hand="G")
        return gold.is_pseudo_legal(gold.drop_move(index(usi(cell)), cshogi.GOLD))

    def drop_mates(self, letter, cell):
        return f"{letter}*{usi(cell)}" not in self.legal()  # the one rule left: pawn-drop mate


class Cshogi(se.Engine):
    name = "cshogi"
    version = metadata.version("cshogi")  # cshogi has no __version__
    variants = {"shogi-flat": "0.2"}
    capabilities = ["legal-actions", "perft", "play", "keys", "records", "drops", "promotion"]

    def start(self, variant, position):
        if position is None:
            return cshogi.Board()
        if sn.read_position("shogi", position) is None:
            raise ValueError(f"not a position text of spec/shogi/notation.abnf: '{position}'")
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
        # Other spellings: a compulsory promotion without its `+` (SS-9.2),
        # a facing mark that names the facing a piece arrives with (NT-I2).
        verdict = sn.judge("shogi", text, Ask(board))
        if verdict.reason is not None:
            return None
        a = verdict.action
        if a.kind == "drop":
            move = f"{a.piece}*{usi(a.target)}"
        else:
            move = usi(a.origin) + usi(a.target) + ("+" if verdict.choice == "+" else "")
        return {cshogi.move_to_usi(m): m for m in board.legal_moves}.get(move)

    def reason(self, board, text):
        return sn.rank("shogi", text, Ask(board))

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
