#!/usr/bin/env python3
"""An engine-protocol adapter over Fairy-Stockfish's Python binding, pyffish.

It lets `seams conform --engine` check the corpus's flat controls and Kyoto
shogi against an independent engine:

    seams conform --engine "python3 tools/ffish-engine/engine.py"

Variants: chess-flat (pyffish "chess"), shogi-flat ("shogi") and kyoto
("kyotoshogi"). It answers legal_actions, check_action, perft (by
recursion over legal moves, with divide), apply and status; everything else
is unsupported. Moves are translated between pyffish's coordinate notation
and the canonical notation of conformance/README.md, positions between our
position texts and pyffish's FEN.

Where the rules of a variant here differ from pyffish's on purpose (for
example repetition thresholds), the difference is listed with its reason in
tools/ffish-engine/known.json, the expectations file for this engine.
"""

import json
import re
import sys

try:
    import pyffish as sf
except ImportError:  # The runner shows stderr when the handshake fails.
    sys.stderr.write("pyffish is not installed: pip install pyffish\n")
    sys.exit(3)

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


def ours(variant, fen, moves, m, legal):
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
    rows = board.split("[")[0].split("/")
    file = ord(sq[0]) - ord("a")
    rank = int(sq[1:])
    row = rows[len(rows) - rank]
    x = 0
    i = 0
    while i < len(row):
        ch = row[i]
        if ch.isdigit():
            j = i
            while j < len(row) and row[j].isdigit():
                j += 1
            x += int(row[i:j])
            i = j
            continue
        if ch == "+":
            i += 1
            ch = row[i]
        if x == file:
            return ch in "Kk"
        x += 1
        i += 1
    return False


# Kyoto drop faces: our letters for pyffish's drop pieces.
KYOTO_DROP = {"L": "L", "+L": "T", "S": "S", "+S": "B", "N": "N", "+N": "G", "P": "P", "+P": "R"}


class Place:
    def __init__(self, variant, request):
        self.variant = variant
        self.fen = to_fen(variant, request.get("position"))
        self.fsf = FSF[variant]
        self.moves = []
        # `resign` and `draw` are recorded decisions that end a game; they
        # are game-level, not moves pyffish knows.
        self.decision = None
        for text in request.get("moves") or []:
            if self.decision is not None:
                raise ValueError(f"move '{text}' comes after the game ended")
            if text in ("resign", "draw"):
                self.decision = text
                continue
            m = self.lookup(text)
            if m is None:
                raise ValueError(f"move '{text}' is not legal here")
            self.moves.append(m)

    def legal(self):
        return sf.legal_moves(self.fsf, self.fen, self.moves)

    def table(self):
        """Our text -> pyffish move, for every legal move."""
        legal = self.legal()
        return {ours(self.variant, self.current_fen(), self.moves, m, legal): m for m in legal}

    def lookup(self, text):
        legal = sf.legal_moves(self.fsf, self.fen, self.moves)
        cur = sf.get_fen(self.fsf, self.fen, self.moves)
        for m in legal:
            if ours(self.variant, cur, self.moves, m, legal) == text:
                return m
        return None

    def current_fen(self):
        return sf.get_fen(self.fsf, self.fen, self.moves)

    def perft(self, depth):
        if depth == 0:
            return 1
        legal = self.legal()
        if depth == 1:
            return len(legal)
        total = 0
        for m in legal:
            self.moves.append(m)
            total += self.perft(depth - 1)
            self.moves.pop()
        return total


def side_to_move(fen):
    """The side letter of a FEN, with or without a bracketed hand."""
    return fen.split("]")[1].split()[0] if "[" in fen else fen.split()[1]


def result(variant, place):
    """pyffish's verdict on the current position, in our terms."""
    fsf = place.fsf
    mover_first = side_to_move(place.current_fen()) == "w"
    if place.decision == "resign":
        return {"winner": "second" if mover_first else "first", "reason": "resignation"}
    if place.decision == "draw":
        return {"winner": None, "reason": "agreement"}
    legal = place.legal()
    checked = sf.gives_check(fsf, place.fen, place.moves)
    if not legal:
        winner = "second" if side_to_move(place.current_fen()) == "w" else "first"
        if checked:
            return {"winner": winner, "reason": "checkmate"}
        if variant == "chess-flat":
            return {"winner": None, "reason": "stalemate"}
        return {"winner": winner, "reason": "no-legal-action"}
    if variant == "chess-flat" and bare_kings(place):
        return {"winner": None, "reason": "bare-kings"}
    # Repetition as pyffish itself adjudicates it (its own thresholds).
    ended, value = sf.is_immediate_game_end(fsf, place.fen, place.moves)
    if not ended and variant != "chess-flat":
        # pyffish reports shogi-style repetition (sennichite) as an
        # "optional" end; in these variants it ends the game. In chess the
        # optional ends are claims (threefold, fifty moves), not results.
        ended, value = sf.is_optional_game_end(fsf, place.fen, place.moves)
    if not ended:
        return None
    if value == 0:
        return {"winner": None, "reason": "repetition"}
    loser_first = mover_first if value < 0 else not mover_first
    return {"winner": "second" if loser_first else "first", "reason": "perpetual-check"}


def bare_kings(place):
    """Only the two kings are left, which FIDE's laws (a dead position,
    Article 5.2.2) and SC-7.5 both draw at once. pyffish reports it only as
    insufficient material on both sides, not as a game end, so the adapter
    asks that. Other positions pyffish calls insufficient (a lone minor
    piece) are FIDE draws but play on under SC-I2; no case asks about one,
    and the adapter does not report them rather than mislabel them."""
    white_short, black_short = sf.has_insufficient_material(place.fsf, place.fen, place.moves)
    placement = place.current_fen().split()[0]
    pieces = [c for c in placement if c.isalpha()]
    return white_short and black_short and len(pieces) == 2


def occupied(fen, cell):
    """Whether `cell` holds a piece in a FEN's placement."""
    rows = fen.split("[")[0].split()[0].split("/")
    file = ord(cell[0]) - ord("a")
    row = rows[len(rows) - int(cell[1:])]
    x = 0
    i = 0
    while i < len(row):
        if row[i].isdigit():
            j = i
            while j < len(row) and row[j].isdigit():
                j += 1
            x += int(row[i:j])
            i = j
            continue
        if row[i] == "+":
            i += 1
        if x == file:
            return True
        x += 1
        i += 1
    return False


SIZE = {"chess-flat": 8, "shogi-flat": 9, "kyoto": 5}
MOVE = re.compile(r"^[A-Z]?([a-z])(\d+)[-x]([a-z])(\d+)(=[QRBN]|[+=])?$")
DROP = re.compile(r"^\+?[A-Z]\*([a-z])(\d+)$")


def illegal_reason(place, action):
    """pyffish only says whether a move is legal, not why; the reasons this
    adapter can tell from the text and the position are given, the rest are
    `unreachable` (see known.json)."""
    if place.variant == "chess-flat" and action in ("O-O", "O-O-O"):
        return "castling"
    m = MOVE.match(action) or DROP.match(action)
    if m is None:
        return "syntax"
    n = SIZE[place.variant]
    coords = m.groups()[:4] if m.re is MOVE else m.groups()
    cells = [(coords[i], coords[i + 1]) for i in range(0, len(coords), 2)]
    for file, rank in cells:
        if ord(file) - ord("a") >= n or not 1 <= int(rank) <= n:
            return "no-such-cell"
    if m.re is DROP and occupied(place.current_fen(), action.split("*", 1)[1]):
        return "drop-restriction"
    return "unreachable"


def handle(req):
    cmd = req.get("cmd")
    rid = req.get("id")
    if cmd == "hello":
        return {
            "id": rid, "ok": True, "protocol": "1.0", "name": "fairy-stockfish (pyffish)",
            "version": ".".join(str(x) for x in sf.version()),
            "variants": [{"name": v, "rules": RULES[v]} for v in FSF],
            "capabilities": ["legal-actions", "perft", "play", "drops", "promotion",
                             "castling", "en-passant"],
            "commands": ["hello", "legal_actions", "check_action", "perft", "apply", "status"],
            "boards": [],
        }
    variant = req.get("variant")
    if cmd not in ("legal_actions", "check_action", "perft", "apply", "status") or variant not in FSF:
        return {"id": rid, "unsupported": True}
    try:
        place = Place(variant, req)
    except ValueError as e:
        return {"id": rid, "error": str(e)}
    if cmd == "legal_actions":
        return {"id": rid, "ok": True, "actions": sorted(place.table())}
    if cmd == "check_action":
        table = place.table()
        action = req.get("action", "")
        if action in table:
            return {"id": rid, "ok": True, "legal": True, "canonical": action}
        # Other spellings our reader accepts (a castling king move written
        # as `e1-g1`, a piece letter in front): try pyffish's own form.
        # Only chess has such alternative spellings; shogi requires its `=`.
        if variant == "chess-flat":
            guess = action.lstrip("KQRBNP").replace("-", "").replace("=", "")
            guess = guess[:4] + guess[4:].lower()
            for text, m in table.items():
                if m == guess:
                    return {"id": rid, "ok": True, "legal": True, "canonical": text}
        return {"id": rid, "ok": True, "legal": False, "reason": illegal_reason(place, action)}
    if cmd == "perft":
        depth = int(req.get("depth", 0))
        if req.get("divide") and depth > 0:
            rows = {}
            for text, m in place.table().items():
                place.moves.append(m)
                rows[text] = place.perft(depth - 1)
                place.moves.pop()
            return {"id": rid, "ok": True, "nodes": sum(rows.values()), "divide": rows}
        return {"id": rid, "ok": True, "nodes": place.perft(depth)}
    fen = place.current_fen()
    if cmd == "apply":
        return {"id": rid, "ok": True, "position": from_fen(variant, fen)}
    side_field = side_to_move(fen)
    return {
        "id": rid, "ok": True, "position": from_fen(variant, fen),
        "to_move": "first" if side_field == "w" else "second",
        "in_check": bool(sf.gives_check(place.fsf, place.fen, place.moves)),
        "result": result(variant, place),
    }


def main():
    for line in sys.stdin:
        line = line.strip()
        if not line:
            continue
        try:
            req = json.loads(line)
        except ValueError as e:
            reply = {"id": None, "error": f"unreadable request: {e}"}
        else:
            reply = handle(req)
        sys.stdout.write(json.dumps(reply) + "\n")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
