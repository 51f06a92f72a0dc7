#!/usr/bin/env python3
"""An engine-protocol adapter over Fairy-Stockfish's Python binding, pyffish.

It lets `seams conform --engine` check the corpus's flat controls and Kyoto
shogi against an independent engine, run by a Python with pyffish and the
kit installed (pip install pyffish ./tools/python):

    seams conform --engine ".venv/bin/python tools/ffish-engine/engine.py"

Variants: chess-flat (pyffish "chess"), shogi-flat ("shogi") and kyoto
("kyotoshogi"). The protocol (and perft by recursion, check_action, status
with recorded decisions) is the Python kit's, seams_engine (tools/python);
this file gives it pyffish's moves, positions and game ends, translating
moves between pyffish's coordinate notation and the canonical notation of
conformance/README.md, positions between our position texts and pyffish's
FEN.

Where the rules of a variant here differ from pyffish's on purpose (for
example repetition thresholds), the difference is listed with its reason in
tools/ffish-engine/known.json, the expectations file for this engine.
"""

import re
import sys

import pyffish as sf  # without it, the runner's handshake error shows this import failing

try:
    import seams_engine as se
    import seams_notation as sn
except ImportError as e:
    # The kit is a package, installed beside the engine's own; the
    # runner's handshake error shows this line.
    sys.exit(f"{e}: install the seams kit into this Python: pip install ./tools/python")

FSF = {"chess-flat": "chess", "shogi-flat": "shogi", "kyoto": "kyotoshogi"}
RULES = {"chess-flat": "0.1", "shogi-flat": "0.2", "kyoto": "1.0"}


# ---------------------------------------------------------------- positions

def shogi_to_fen(text):
    """Our shogi text (or a USI SFEN) to pyffish's shogi FEN."""
    parts = text.split()
    if len(parts) < 3:
        raise ValueError(f"bad position '{text}'")
    placement, side, hands = parts[0], parts[1], parts[2]
    # Our (and USI's) move number counts plies from 1; pyffish counts full
    # moves like chess.
    ply = int(parts[3]) if len(parts) > 3 else 1
    move = (ply + 1) // 2
    first = side in ("A", "b")
    hand = ""
    if hands != "-":
        count = ""
        for ch in hands:
            if ch.isdigit():
                count += ch
            else:
                hand += ch * (int(count) if count else 1)
                count = ""
    return f"{placement}[{hand}] {'w' if first else 'b'} 0 {move}"


def shogi_from_fen(fen):
    """pyffish's shogi FEN to our shogi text."""
    board, rest = fen.split("[", 1)
    hand, rest = rest.split("]", 1)
    fields = rest.split()
    side = "A" if fields[0] == "w" else "B"
    move = 2 * (int(fields[-1]) - 1) + (1 if side == "A" else 2)
    order = "RBGSNLP"
    out = ""
    for upper in (True, False):
        for letter in order:
            c = letter if upper else letter.lower()
            n = hand.count(c)
            if n:
                out += (str(n) if n > 1 else "") + c
    return f"{board} {side} {out or '-'} {move}"


def to_fen(variant, text):
    if text is None:
        return sf.start_fen(FSF[variant])
    if variant == "shogi-flat":
        return shogi_to_fen(text)
    if variant == "kyoto":
        # Our Kyoto text is pyffish's FEN, with or without the two
        # placeholder fields pyffish prints after the side to move.
        return text
    return text


def from_fen(variant, fen):
    if variant == "shogi-flat":
        return shogi_from_fen(fen)
    return fen


# ---------------------------------------------------------------- moves

def square(s):
    return s[0], int(s[1:])


def ours(variant, fen, m, legal):
    """pyffish's move text to our canonical text, given the legal list."""
    if "@" in m:
        piece, to = m.split("@")
        if variant == "kyoto":
            return f"{KYOTO_DROP[piece]}*{to}"
        return f"{piece}*{to}"
    if variant == "kyoto":
        # Every Kyoto move flips the piece; the flip is not a choice, so
        # our notation leaves it out.
        return _split(m)
    if variant == "chess-flat":
        frm, to = m[:2], m[2:4]
        promo = m[4:]
        board = fen.split()[0]
        king_start = frm in ("e1", "e8")
        if king_start and to[0] in "gc" and frm[1] == to[1] and is_king(board, frm):
            return "O-O" if to[0] == "g" else "O-O-O"
        return f"{frm}-{to}" + (f"={promo.upper()}" if promo else "")
    # shogi-flat: "+" promotes; a declined optional promotion is "=".
    frm, to, promo = _parts(m)
    if promo == "+":
        return f"{frm}-{to}+"
    if (m + "+") in legal:
        return f"{frm}-{to}="
    return f"{frm}-{to}"


def _parts(m):
    i = 1
    while m[i].isdigit():
        i += 1
    frm = m[:i]
    j = i + 1
    while j < len(m) and m[j].isdigit():
        j += 1
    return frm, m[i:j], m[j:]


def _split(m):
    frm, to, _ = _parts(m)
    return f"{frm}-{to}"


def is_king(board, sq):
    return piece_on(board, sq) in ("K", "k")


def piece_on(fen, cell):
    """The piece on `cell` of a FEN's placement ("K", "+p", ...), or None."""
    rows = fen.split("[")[0].split()[0].split("/")
    row, file = rows[len(rows) - int(cell[1:])], ord(cell[0]) - ord("a")
    x = 0
    for token in re.findall(r"[0-9]+|\+?[A-Za-z]", row):
        x += int(token) if token.isdigit() else 1
        if x > file:
            return None if token.isdigit() else token
    return None


# Kyoto drop faces: our letters for pyffish's drop pieces.
KYOTO_DROP = {"L": "L", "+L": "T", "S": "S", "+S": "B", "N": "N", "+N": "G", "P": "P", "+P": "R"}


class Game:
    """pyffish keeps no state: a position is its start FEN and the moves
    played since, which push and pop extend and shorten."""

    def __init__(self, variant, fen):
        self.variant = variant
        self.fsf = FSF[variant]
        self.fen = fen
        self.moves = []

    def push(self, move):
        self.moves.append(move)

    def pop(self):
        self.moves.pop()

    def legal(self):
        return sf.legal_moves(self.fsf, self.fen, self.moves)

    def current_fen(self):
        return sf.get_fen(self.fsf, self.fen, self.moves)


def side_to_move(fen):
    """The side letter of a FEN, with or without a bracketed hand."""
    return fen.split("]")[1].split()[0] if "[" in fen else fen.split()[1]


def result(variant, game):
    """pyffish's verdict on the current position, as (winner, reason)."""
    fsf = game.fsf
    mover_first = side_to_move(game.current_fen()) == "w"
    legal = game.legal()
    checked = sf.gives_check(fsf, game.fen, game.moves)
    if not legal:
        winner = "second" if mover_first else "first"
        if checked:
            return winner, "checkmate"
        if variant == "chess-flat":
            return None, "stalemate"
        return winner, "no-legal-action"
    if variant == "chess-flat" and bare_kings(game):
        return None, "bare-kings"
    # Repetition as pyffish itself adjudicates it (its own thresholds).
    ended, value = sf.is_immediate_game_end(fsf, game.fen, game.moves)
    if not ended and variant != "chess-flat":
        # pyffish reports shogi-style repetition (sennichite) as an
        # "optional" end; in these variants it ends the game. In chess the
        # optional ends are claims (threefold, fifty moves), not results.
        ended, value = sf.is_optional_game_end(fsf, game.fen, game.moves)
    if not ended:
        return None
    if value == 0:
        return None, "repetition"
    loser_first = mover_first if value < 0 else not mover_first
    return ("second" if loser_first else "first"), "perpetual-check"


def bare_kings(game):
    """Only the two kings are left, which FIDE's laws (a dead position,
    Article 5.2.2) and SC-7.5 both draw at once. pyffish reports it only as
    insufficient material on both sides, not as a game end, so the adapter
    asks that. Other positions pyffish calls insufficient (a lone minor
    piece) are FIDE draws but play on under SC-I2; no case asks about one,
    and the adapter does not report them rather than mislabel them."""
    white_short, black_short = sf.has_insufficient_material(game.fsf, game.fen, game.moves)
    placement = game.current_fen().split()[0]
    pieces = [c for c in placement if c.isalpha()]
    return white_short and black_short and len(pieces) == 2


def kyoto_letters(position):
    """Refuses a Kyoto position whose letters write no face (NT-I9): the
    grammar reads any letter, pyffish would take one it does not know for
    a piece of its own. Faces are their FEN spellings (KYOTO_DROP and the
    king), hands hold tokens by base letter."""
    faces = set(KYOTO_DROP) | {"K"}
    for sheet in position.placement:
        for rank in sheet:
            for item in rank:
                if isinstance(item, sn.Piece) and item.text.upper() not in faces:
                    raise ValueError(f"'{item.text}' is not a Kyoto face")
    for _, letter in position.hands:
        if letter.upper() not in "LSNP":
            raise ValueError(f"'{letter}' is not a Kyoto token letter (L S N P)")


SIZE = {"chess-flat": 8, "shogi-flat": 9, "kyoto": 5}
FAMILY = {"chess-flat": "chess", "shogi-flat": "shogi", "kyoto": "kyoto"}
# Kyoto faces to the pyffish drop piece that shows them (and its token).
KYOTO_FACE = {face: piece for piece, face in KYOTO_DROP.items()}


class Ask(sn.Ask):
    """seams_notation's questions (the refusal table's rows), answered from
    pyffish's legal moves and FEN. pyffish has no pseudo-legal moves, so a
    route that only king safety forbids counts as no route: such a text is
    `unreachable` here where the spec says `king-in-check` (known.json)."""

    def __init__(self, game):
        self.game, self.fen, self.legal = game, game.current_fen(), game.legal()
        self.variant, self.first = game.variant, side_to_move(self.fen) == "w"

    def has_castling(self):
        return True  # asked in chess only

    def castling_names_side(self):
        return False

    def cell_exists(self, cell):
        n = SIZE[self.variant]
        return cell.chart is None and ord(cell.file) - ord("a") < n and int(cell.rank) <= n

    def piece_at(self, cell):
        piece = piece_on(self.fen, cell.text)
        return piece.upper() if piece and piece[-1].isupper() == self.first else None

    def in_hand(self, letter):
        hand = self.fen.split("[")[1].split("]")[0] if "[" in self.fen else ""
        if self.variant == "kyoto":
            # The grammar reads any upper-case letter (NT-I9); one of no
            # token face (the king's included) names no token in hand.
            if letter not in KYOTO_FACE:
                return False
            letter = KYOTO_FACE[letter][-1]
        return (letter if self.first else letter.lower()) in hand

    def routes(self, origin, target):
        """(pyffish move, promotion mark) of the legal moves origin-target,
        castling aside."""
        castles = (self.castle("east"), self.castle("west")) if self.variant == "chess-flat" else ()
        parts = (_parts(m) + (m,) for m in self.legal if "@" not in m and m not in castles)
        return [(m, self.mark(p)) for f, t, p, m in parts if (f, t) == (origin.text, target.text)]

    def mark(self, promo):
        if self.variant == "chess-flat":
            return "=" + promo.upper() if promo else None
        return "+" if self.variant == "shogi-flat" and promo == "+" else None

    def reachable(self, origin, target):
        return bool(self.routes(origin, target))

    def castling_of(self, origin, target):
        home = "e1" if self.first else "e8"
        if origin.text == home and target.rank == origin.rank and target.file in "cg":
            return "east" if target.file == "g" else "west"
        return None

    def castle(self, side):
        """The legal pyffish move of the castling to `side`, or None."""
        home = "e1" if self.first else "e8"
        move = home + ("g" if side == "east" else "c") + home[1]
        return move if move in self.legal and is_king(self.fen, home) else None

    def castling_allowed(self, side):
        return self.castle(side) is not None

    def drop_allowed(self, letter, cell):
        if piece_on(self.fen, cell.text):
            return False  # occupied
        if self.variant == "kyoto":
            return True
        ahead = 9 - int(cell.rank) if self.first else int(cell.rank) - 1
        if ahead < {"P": 1, "L": 1, "N": 2}.get(letter, 0):
            return False  # it could never move again
        pawn = "P" if self.first else "p"
        return letter != "P" or all(piece_on(self.fen, f"{cell.file}{r}") != pawn
                                    for r in range(1, 10))  # nifu

    def drop(self, letter, cell):
        piece = KYOTO_FACE[letter] if self.variant == "kyoto" else letter
        return f"{piece}@{cell.text}"

    def outcomes(self, origin, target):
        return {mark for _, mark in self.routes(origin, target)}

    def arrives_facing(self, origin, target, choice, facing):
        # On the flat boards a piece that carries facing faces its owner's
        # way (up for the first player): a chess pawn that stays a pawn, a
        # shogi piece other than a king, rook or bishop.
        kind = self.piece_at(origin).lstrip("+")
        if self.variant == "chess-flat":
            carries = kind == "P" and choice is None
        else:
            carries = kind not in ("K", "R", "B")
        return carries and facing == ("^" if self.first else "v")

    def fitting(self, origin, target, choice, facing):
        return sum(1 for _, mark in self.routes(origin, target) if mark == choice)

    def drop_safe(self, letter, cell):
        # A drop moves nothing, so it is unsafe only in check, where pyffish
        # lists the drops that block.
        in_check = sf.gives_check(self.game.fsf, self.game.fen, self.game.moves)
        return not in_check or self.drop(letter, cell) in self.legal

    def drop_mates(self, letter, cell):
        return self.drop(letter, cell) not in self.legal


class Ffish(se.Engine):
    name = "fairy-stockfish (pyffish)"
    version = ".".join(str(x) for x in sf.version())
    variants = RULES
    capabilities = ["legal-actions", "perft", "play", "drops", "promotion", "castling",
                    "en-passant"]
    boards = []

    def start(self, variant, position):
        read = None if position is None else sn.read_position(FAMILY[variant], position)
        if position is not None and read is None:
            raise ValueError(f"not a position text of the {FAMILY[variant]} grammar: '{position}'")
        if variant == "kyoto" and read is not None:
            kyoto_letters(read)
        return Game(variant, to_fen(variant, position))

    def actions(self, game):
        legal = game.legal()
        fen = game.current_fen()
        return {ours(game.variant, fen, m, legal): m for m in legal}

    def moves(self, game):  # perft counts without translating
        return game.legal()

    def alias(self, game, text):
        # Other spellings (Pe2xe4, e1-g1 for castling, a compulsory promotion
        # without its '+', a true facing mark): pyffish's own move.
        ask = Ask(game)
        verdict = sn.judge(FAMILY[game.variant], text, ask)
        if verdict.reason is not None:
            return None
        action = verdict.action
        if verdict.castle is not None:
            return ask.castle(verdict.castle)
        if action.kind == "drop":
            return ask.drop(action.piece, action.target)
        routes = ask.routes(action.origin, action.target)
        return next(m for m, mark in routes if mark == verdict.choice)

    def reason(self, game, text):
        return sn.rank(FAMILY[game.variant], text, Ask(game))

    def position(self, game):
        return from_fen(game.variant, game.current_fen())

    def to_move(self, game):
        return "first" if side_to_move(game.current_fen()) == "w" else "second"

    def in_check(self, game):
        return bool(sf.gives_check(game.fsf, game.fen, game.moves))

    def result(self, game):
        return result(game.variant, game)


if __name__ == "__main__":
    se.serve(Ffish())
