"""seams_notation: the notation of spec/notation/rules.md (NT), standard library only.

An optional part of the Python kit (seams_engine.py). It reads the texts
of the four rule families exactly as their grammars derive them

    spec/shogi/notation.abnf   spec/chess/notation.abnf
    spec/kyoto/notation.abnf   spec/tetra/notation.abnf   (+ spec/notation/cells.abnf)

and refuses a derived action in the one order of conformance/PROTOCOL.md
("Illegal-action reasons"), asking the engine only what its rules know:

    import seams_notation as sn

    action = sn.read_action("chess", "Ng1-f3")   # an Action, or None: syntax
    position = sn.read_position("chess", fen)      # a Position, or None: syntax
    code = sn.rank("chess", action, MyAsk(board))  # a reason code, or None: legal

`read_action`, `read_game_action` and `read_position` give None exactly
when the family grammar's `action`, `game-action` or `position` rule does
not derive the text (NT-2.1); nothing is trimmed or case-folded (NT-I1,
NT-I3). Everything else they return is plain data: `Action`, `Cell`,
`Position`, `Piece`.

`rank` (and `judge`, which also says which reading, promotion choice and
castling side it settled on) decides orders 3 to 10 of the refusal table.
Order 3 is judged from the text alone, apart from two questions on
castling; the other orders put questions to an `ask` object, in the
table's order and only as far as needed, so a text is refused for the
first row it fails and nothing after that row is asked. The questions are
the methods of `Ask`, each documented with the row it serves; an adapter
implements those its family needs (see ASKED).
"""

from __future__ import annotations

import dataclasses
import re
from dataclasses import dataclass
from typing import Optional

FAMILIES = ("shogi", "chess", "kyoto", "tetra")

# Every shipped variant and the family grammar that reads its texts (NT-1.3).
VARIANTS = {
    "shogi-flat": "shogi", "shogi-mobius": "shogi", "shogi-klein": "shogi",
    "shogi-genus2": "shogi",
    "chess-flat": "chess", "chess-mobius": "chess", "chess-klein": "chess",
    "chess-genus2": "chess",
    "kyoto": "kyoto",
    "tetra-shogi": "tetra", "tetra-hexgi": "tetra",
}


def family_of(variant):
    """The family ("shogi", "chess", "kyoto", "tetra") of a variant name,
    or None for a name that is not a shipped variant."""
    return VARIANTS.get(variant)


# ---------------------------------------------------------------- data


@dataclass(frozen=True)
class Cell:
    """A cell name as written (NT-3.1): `text` is the whole name, the parts
    are its texts. `chart` is None without a chart prefix; `level` is set
    on the tetrahedron only (c5.3)."""
    text: str
    file: str
    rank: str
    chart: Optional[str] = None
    level: Optional[str] = None

    def __str__(self):
        return self.text


@dataclass(frozen=True)
class Action:
    """An action text the grammar derives.

    kind       "move", "drop", "castling", or (read_game_action only)
               "resign" / "draw"
    text       the text read
    origin     a move's first cell (None for drops and castling)
    target     a move's or drop's destination cell
    piece      chess: the optional piece letter of a move (Bd1-g4);
               a drop's letter (shogi, Kyoto face, tetrahedral letter)
    separator  "-" for moves ("x", "\u2013" or "\u2014" too in chess), "*" for drops
    promotion  the promotion mark after the cells: "+" or "=" (shogi,
               Kyoto, a tetrahedral "+"), "=Q" (chess), "=X" (a tetrahedral
               switch into X); None without one
    promoted   a "+" before a drop's letter (+S*e5), which no drop takes
    facing     "^" or "v" (shogi and chess), None without one
    castling   the castling word (O-O, O-O-O, O-O-east, O-O-west)
    other      chess only: the second reading of a lettered origin whose
               chart begins with a piece letter (NI:d1-I:c3 is a knight on
               I:d1, or a move from chart NI); `rank` takes the first
               whose origin exists
    """
    kind: str
    text: str
    origin: Optional[Cell] = None
    target: Optional[Cell] = None
    piece: Optional[str] = None
    separator: Optional[str] = None
    promotion: Optional[str] = None
    promoted: bool = False
    facing: Optional[str] = None
    castling: Optional[str] = None
    other: Optional["Action"] = None

    @property
    def cells(self):
        """The cell names of the text, in order."""
        return tuple(c for c in (self.origin, self.target) if c is not None)


@dataclass(frozen=True)
class Piece:
    """A piece of a placement: its letter (case gives the owner), '+' for
    promoted (shogi, Kyoto, tetrahedral), and the marks of shogi and chess
    (`facing` "^"/"v"; `flag` "+"/"-" on a chess piece)."""
    text: str
    letter: str
    promoted: bool = False
    facing: Optional[str] = None
    flag: Optional[str] = None


@dataclass(frozen=True)
class Position:
    """A position text the grammar derives, in fields.

    placement   sheets (charts; Kyoto and the tetrahedron have one), each
                a tuple of ranks as written (first rank text first), each a
                tuple of items: an int (a run of empty cells, as written;
                Kyoto writes runs digit by digit) or a Piece
    side        the side letter as written (A/B/b/w in shogi, w/b elsewhere)
    hands       shogi and tetrahedral hands, Kyoto's hand: (count, letter)
                pairs in order ((1, letter) when no count is written); ()
                for "-" or an empty Kyoto hand; None in chess
    rights      chess: the castling field ("-" or K/Q/k/q letters)
    en_passant  chess: () for "-", (cell,) for the FEN middle cell, or
                (source, middle, destination, facing) for a trace
    halfmoves   chess and Kyoto: the first counter, when written
    move_number shogi, chess, Kyoto: the move number, when written as one
    ply         chess: the count of a move number written p<ply>
    placeholders Kyoto: whether the two '-' fields are written
    """
    family: str
    text: str
    placement: tuple
    side: str
    hands: Optional[tuple] = None
    rights: Optional[str] = None
    en_passant: Optional[tuple] = None
    halfmoves: Optional[int] = None
    move_number: Optional[int] = None
    ply: Optional[int] = None
    placeholders: bool = False


# ---------------------------------------------------------------- the grammars
#
# Each pattern derives what its ABNF rule derives; quoted strings of the
# grammars are %s"..." (case-sensitive), and ALPHA / DIGIT are ASCII only, so
# no pattern uses \d, \w, IGNORECASE or `$`, and every match is a fullmatch.
# A run of digits in a placement is matched whole ((?![0-9])): the grammar
# may split "12" into 1 and 2 or read it as 12, and reading it whole derives
# the same texts while keeping the match linear.

POSITIVE = r"[1-9][0-9]*"
COUNT = r"(?:0|[1-9][0-9]*)"
SHEET_CELL = r"(?:([A-Za-z0-9]+):)?([a-z])([1-9][0-9]*)"   # chart, file, rank
TETRA_CELL = r"([a-z])([1-9][0-9]*)\.([1-9][0-9]*)"        # file, rank, level

ACTIONS = {
    "shogi": {
        "move": re.compile(SHEET_CELL + "(-)" + SHEET_CELL + r"([+=])?([\^v])?"),
        # Any upper-case letter: which are kind letters is the variant's
        # data (SS-3.4), judged after the grammar (NT-I9).
        "drop": re.compile(r"(\+)?([A-Z])\*" + SHEET_CELL + r"([+=])?([\^v])?"),
    },
    "chess": {
        # Any upper-case piece and promotion letter (SC-3.8, NT-I9).
        "move": re.compile("([A-Z])?" + SHEET_CELL + "([-x\u2013\u2014])" + SHEET_CELL
                           + r"([\^v])?(=[A-Z])?"),
        "castling": re.compile(r"O-O(?:-O|-east|-west)?"),
    },
    "kyoto": {
        "move": re.compile(SHEET_CELL + "(-)" + SHEET_CELL + r"([+=])?"),
        # Any upper-case letter: which are face letters is the variant's
        # data (KY-1.4), judged after the grammar (NT-I9).
        "drop": re.compile(r"(\+)?([A-Z])\*" + SHEET_CELL + r"([+=])?"),
    },
    "tetra": {
        "move": re.compile(TETRA_CELL + "(-)" + TETRA_CELL + r"(\+|=[A-Z])?"),
        "drop": re.compile(r"(\+)?([A-Z])\*" + TETRA_CELL + r"(\+|=[A-Z])?"),
    },
}


def _placement(piece, run="[0-9]+(?![0-9])", sheets=True):
    rank = f"(?:{run}|{piece})+"
    sheet = f"{rank}(?:/{rank})*"
    return f"{sheet}(?:\\|{sheet})*" if sheets else sheet


SHOGI_LETTER = "[A-Za-z]"  # any letter: the variant's kinds judge it (NT-I9)
SHOGI_PIECE = rf"\+?{SHOGI_LETTER}[\^v]?"
CHESS_PIECE = r"[A-Za-z](?:[\^v][+-]?|[+-][\^v]?)?"  # any letter (NT-I9)
KYOTO_PIECE = r"\+?[A-Za-z]"  # any letter: the variant's faces judge it (NT-I9)
TETRA_PIECE = r"\+?[A-Za-z]"
EN_PASSANT = f"-|{SHEET_CELL}|{SHEET_CELL}-{SHEET_CELL}-{SHEET_CELL}[\\^v]"

POSITIONS = {
    "shogi": re.compile(f"({_placement(SHOGI_PIECE)}) ([ABbw]) "
                        f"(-|(?:(?:{POSITIVE})?{SHOGI_LETTER})+)(?: ({POSITIVE}))?"),
    "chess": re.compile(f"({_placement(CHESS_PIECE)}) ([wb]) (-|[KQkq]{{1,4}}) "
                        f"({EN_PASSANT})(?: ({COUNT})(?: ({POSITIVE}|p{COUNT}))?)?"),
    "kyoto": re.compile(f"({_placement(KYOTO_PIECE, '[1-9]', sheets=False)})"
                        r"\[(-|[A-Za-z]*)\] ([wb])( - -)?"
                        f"(?: ({COUNT}) ({COUNT}))?"),
    "tetra": re.compile(f"({_placement(TETRA_PIECE, sheets=False)}) ([wb]) "
                        f"(-|(?:(?:{POSITIVE})?[A-Za-z])+)"),
}

# One item of a rank, for splitting a derived rank into runs and pieces.
ITEMS = {
    "shogi": re.compile(f"([0-9]+)|({SHOGI_PIECE})"),
    "chess": re.compile(f"([0-9]+)|({CHESS_PIECE})"),
    "kyoto": re.compile(f"([1-9])|({KYOTO_PIECE})"),
    "tetra": re.compile(f"([0-9]+)|({TETRA_PIECE})"),
}
HAND_ITEM = re.compile(f"({POSITIVE})?([A-Za-z])")
CELL = re.compile(SHEET_CELL)


def _family(family):
    if family not in FAMILIES:
        raise ValueError(f"unknown family {family!r} (one of {', '.join(FAMILIES)})")
    return family


def _sheet_cell(chart, file, rank):
    return Cell(f"{chart}:{file}{rank}" if chart is not None else f"{file}{rank}",
                file, rank, chart)


def _tetra_cell(file, rank, level):
    return Cell(f"{file}{rank}.{level}", file, rank, level=level)


# ---------------------------------------------------------------- reading


def read_action(family, text):
    """The Action the family grammar's `action` rule derives from `text`,
    or None when it derives none (the text is refused as `syntax`)."""
    grammar = ACTIONS[_family(family)]
    if not isinstance(text, str):
        return None
    if family == "chess":
        if grammar["castling"].fullmatch(text):
            return Action("castling", text, castling=text)
        m = grammar["move"].fullmatch(text)
        if m is None:
            return None
        letter, c1, f1, r1, sep, c2, f2, r2, facing, promotion = m.groups()
        action = Action("move", text, _sheet_cell(c1, f1, r1), _sheet_cell(c2, f2, r2),
                        letter, sep, promotion, facing=facing)
        if letter is not None and c1 is not None:
            # The letter may also begin the chart's name (NI:d1).
            other = Action("move", text, _sheet_cell(letter + c1, f1, r1), action.target,
                           None, sep, promotion, facing=facing)
            action = dataclasses.replace(action, other=other)
        return action
    cell = _tetra_cell if family == "tetra" else _sheet_cell
    m = grammar["move"].fullmatch(text)
    if m is not None:
        g = m.groups()
        facing = g[8] if family == "shogi" else None
        return Action("move", text, cell(*g[0:3]), cell(*g[4:7]), separator="-",
                      promotion=g[7], facing=facing)
    m = grammar["drop"].fullmatch(text)
    if m is not None:
        g = m.groups()
        facing = g[6] if family == "shogi" else None
        return Action("drop", text, None, cell(*g[2:5]), g[1], "*", g[5],
                      promoted=g[0] is not None, facing=facing)
    return None


def read_game_action(family, text):
    """The Action of the `game-action` rule: an action, or `resign` or
    `draw` (kind "resign" / "draw"); None when the rule derives no such text."""
    _family(family)
    if text in ("resign", "draw"):
        return Action(text, text)
    return read_action(family, text)


def _rank_items(family, rank):
    items = []
    for m in ITEMS[family].finditer(rank):
        if m[1] is not None:
            items.append(int(m[1]))
        else:
            items.append(_piece(family, m[2]))
    return tuple(items)


def _piece(family, text):
    promoted = text.startswith("+")
    body = text[1:] if promoted else text
    letter, marks = body[0], body[1:]
    facing = next((c for c in marks if c in "^v"), None)
    flag = next((c for c in marks if c in "+-"), None)
    return Piece(text, letter, promoted, facing, flag)


def _hands(text):
    if text in ("-", ""):
        return ()
    return tuple((int(m[1]) if m[1] else 1, m[2]) for m in HAND_ITEM.finditer(text))


def read_position(family, text):
    """The Position the family grammar's `position` rule derives from
    `text`, or None when it derives none (refused with the field `syntax`)."""
    pattern = POSITIONS[_family(family)]
    if not isinstance(text, str):
        return None
    m = pattern.fullmatch(text)
    if m is None:
        return None
    placement = tuple(tuple(_rank_items(family, r) for r in sheet.split("/"))
                      for sheet in m[1].split("|"))
    if family == "shogi":
        return Position(family, text, placement, m[2], _hands(m[3]),
                        move_number=int(m[4]) if m[4] else None)
    if family == "tetra":
        return Position(family, text, placement, m[2], _hands(m[3]))
    if family == "kyoto":
        hand = tuple((1, c) for c in m[2] if c != "-")
        return Position(family, text, placement, m[3], hand,
                        halfmoves=int(m[5]) if m[5] else None,
                        move_number=int(m[6]) if m[6] else None,
                        placeholders=m[4] is not None)
    fields = text.split(" ")
    ep = fields[3]
    if ep == "-":
        trace = ()
    else:
        cells = tuple(_sheet_cell(*c.groups()) for c in CELL.finditer(ep))
        trace = cells if len(cells) == 1 else cells + (ep[-1],)
    number, ply = None, None
    if len(fields) > 5:
        if fields[5].startswith("p"):
            ply = int(fields[5][1:])
        else:
            number = int(fields[5])
    return Position(family, text, placement, fields[1], None, fields[2], trace,
                    int(fields[4]) if len(fields) > 4 else None, number, ply)


# ---------------------------------------------------------------- refusing


class Ask:
    """The questions `rank` puts to an engine, with the refusal row each
    serves (conformance/PROTOCOL.md, "Illegal-action reasons"). Subclass
    it (or give any object these methods) and answer from the engine's own
    rules, for the position and the player to move. Cells are `Cell`s;
    `choice` is the promotion outcome `rank` settled on at order 7 (None,
    "+", "=Q", "=X"); `facing` is "^" or "v". Only the questions of the
    family are asked (ASKED), and none after the row that decides."""

    # Order 3 (chess): castling words.
    def has_castling(self):
        """Row 3 `castling`: whether the board castles at all (NT-I6)."""
        raise NotImplementedError

    def castling_names_side(self):
        """Row 3 `ambiguous`: whether castling must name its side
        (O-O-east, O-O-west), so that O-O and O-O-O fit two castlings."""
        raise NotImplementedError

    # Order 4.
    def cell_exists(self, cell):
        """Row 4 `no-such-cell`: whether the board has a cell of this name
        (file, rank and level within its edges, a chart it has, a chart
        prefix exactly when it has several charts)."""
        raise NotImplementedError

    # Order 5.
    def piece_at(self, cell):
        """Row 5 `no-piece`: the upper-case letter of the piece of the
        player to move on `cell` (in chess its kind, which a move's piece
        letter must name), or None when no piece of theirs stands there."""
        raise NotImplementedError

    def in_hand(self, letter):
        """Row 5 `no-piece`: whether the player to move holds a piece to
        drop as `letter` (a Kyoto face letter: a token that shows it; a
        letter the variant does not use: False, NT-I9)."""
        raise NotImplementedError

    # Order 6.
    def reachable(self, origin, target):
        """Row 6 `unreachable`: whether the piece on `origin` has a route to
        `target`, king safety aside (castling is not such a route)."""
        raise NotImplementedError

    def castling_of(self, origin, target):
        """Row 6 `castling` (chess; asked of a king's move that is not
        reachable): the side ("east" or "west") of the castling whose
        king's move this is (e1-g1: "east" on the flat board), or None."""
        raise NotImplementedError

    def castling_allowed(self, side):
        """Row 6 `castling`: whether the castling to `side` ("east" or
        "west"; O-O is "east" and O-O-O "west" where castling names no
        side) is legal now: rights, blockers, attacked cells."""
        raise NotImplementedError

    def drop_allowed(self, letter, cell):
        """Row 6 `drop-restriction`: whether `letter` may be dropped on
        `cell` as far as the drop rules go: the cell is empty, the piece
        could move again from it, no nifu (king safety and pawn-drop mate
        are asked later)."""
        raise NotImplementedError

    # Order 7.
    def outcomes(self, origin, target):
        """Row 7 `promotion`: the promotion outcomes of the routes from
        `origin` to `target`, king safety aside, as a set of marks: None
        (no change), "+" (promotes), "=Q"/"=R"/"=B"/"=N" (chess), "=X"
        (a tetrahedral switch into X). Shogi's "=" is judged from it (it
        needs both None and "+"); so is a missing mark (a choice is
        required where both exist, SS-9.2)."""
        raise NotImplementedError

    # Order 8.
    def arrives_facing(self, origin, target, choice, facing):
        """Row 8 `unreachable`: whether some route from `origin` to
        `target` with promotion outcome `choice` ends with `facing`.
        False for a piece that carries no facing (NT-I4): a chess
        non-pawn or promoting pawn, a shogi king, rook or bishop."""
        raise NotImplementedError

    # Order 9.
    def fitting(self, origin, target, choice, facing):
        """Row 9 `king-in-check` (0) and `ambiguous` (2 or more): how many
        legal actions (king safety included) move from `origin` to `target`
        with outcome `choice` and, when `facing` is not None, that facing."""
        raise NotImplementedError

    def drop_safe(self, letter, cell):
        """Row 9 `king-in-check`: whether the drop leaves the mover's king
        (royal piece) unattacked."""
        raise NotImplementedError

    # Order 10.
    def drop_mates(self, letter, cell):
        """Row 10 `drop-restriction` (shogi, asked of pawn drops only):
        whether the drop gives mate."""
        raise NotImplementedError


# The questions each family's texts can lead to.
ASKED = {
    "chess": ("has_castling", "castling_names_side", "cell_exists", "piece_at", "reachable",
              "castling_of", "castling_allowed", "outcomes", "arrives_facing", "fitting"),
    "shogi": ("cell_exists", "piece_at", "in_hand", "reachable", "drop_allowed", "outcomes",
              "arrives_facing", "fitting", "drop_safe", "drop_mates"),
    "kyoto": ("cell_exists", "piece_at", "in_hand", "reachable", "drop_allowed", "fitting",
              "drop_safe"),
    "tetra": ("cell_exists", "piece_at", "in_hand", "reachable", "drop_allowed", "outcomes",
              "fitting", "drop_safe"),
}


@dataclass(frozen=True)
class Verdict:
    """What `judge` settled: `reason` (None: legal), the reading of the
    text it judged (`action`; see Action.other), the promotion outcome
    `choice` it settled on (order 7), and `castle`, the side of a castling
    ("east"/"west"), written as a word or as the king's move."""
    reason: Optional[str]
    action: Optional[Action]
    choice: Optional[str] = None
    castle: Optional[str] = None


def judge(family, action, ask):
    """The refusal of `action` (an Action of the `action` rule, or a text,
    read with read_action) by the table's orders 3 to 10, as a Verdict.
    A text the grammar does not derive is `syntax` (order 2); resign and
    draw (read_game_action) are legal game actions here."""
    _family(family)
    if isinstance(action, str) or action is None:
        action = read_action(family, action) if isinstance(action, str) else None
        if action is None:
            return Verdict("syntax", None)
    if action.kind in ("resign", "draw"):
        return Verdict(None, action)

    def refuse(code, choice=None, castle=None):
        return Verdict(code, action, choice, castle)

    # Order 3: the text alone, and whether the board castles.
    if action.kind == "castling":
        if not ask.has_castling():
            return refuse("castling")
        if action.castling in ("O-O", "O-O-O") and ask.castling_names_side():
            return refuse("ambiguous")
        side = "east" if action.castling in ("O-O", "O-O-east") else "west"
        return refuse(None if ask.castling_allowed(side) else "castling", castle=side)
    drop = action.kind == "drop"
    if (drop and (action.promoted or action.promotion)) or (
            family == "kyoto" and action.promotion):
        return refuse("promotion")
    if drop and action.facing:
        return refuse("drop-restriction")

    # Order 4: every cell name names a cell. A chess origin may be read
    # two ways (Action.other): the first whose origin exists is judged.
    for reading in (action, action.other):
        if reading is not None and (drop or ask.cell_exists(reading.origin)):
            action = reading
            break
    else:
        return refuse("no-such-cell")
    if not ask.cell_exists(action.target):
        return refuse("no-such-cell")

    letter, to = action.piece, action.target
    if drop:
        # Orders 5, 6, 9, 10 of a drop.
        if not ask.in_hand(letter):
            return refuse("no-piece")
        if not ask.drop_allowed(letter, to):
            return refuse("drop-restriction")
        if not ask.drop_safe(letter, to):
            return refuse("king-in-check")
        if family == "shogi" and letter == "P" and ask.drop_mates(letter, to):
            return refuse("drop-restriction")
        return refuse(None)

    # Order 5: a piece of the mover (of the kind a chess letter names).
    frm = action.origin
    kind = ask.piece_at(frm)
    if kind is None or (letter is not None and letter != kind):
        return refuse("no-piece")

    # Order 6: a route, or (chess) the king's move of a castling.
    if not ask.reachable(frm, to):
        side = ask.castling_of(frm, to) if family == "chess" and kind == "K" else None
        if side is None:
            return refuse("unreachable")
        if not ask.castling_allowed(side):
            return refuse("castling", castle=side)
        if action.promotion:
            return refuse("promotion", castle=side)  # castling takes no promotion
        if action.facing:
            return refuse("unreachable", castle=side)  # a castling king has no facing
        return refuse(None, castle=side)

    # Order 7: the promotion choice the text makes.
    mark, choice = action.promotion, None
    if family != "kyoto":
        outcomes = set(ask.outcomes(frm, to))
        if family == "shogi" and mark == "=":
            ok = None in outcomes and "+" in outcomes  # declines an available promotion
        elif family == "shogi" and mark is None:
            ok = len(outcomes) == 1  # a choice is required where there is one
            mark = next(iter(outcomes)) if ok else None
        else:
            ok = mark in outcomes
        if not ok:
            return refuse("promotion")
        choice = None if mark == "=" else mark

    # Order 8: the facing mark names how a route ends.
    if action.facing and not ask.arrives_facing(frm, to, choice, action.facing):
        return refuse("unreachable", choice)

    # Order 9: king safety, and texts that fit several legal actions.
    n = ask.fitting(frm, to, choice, action.facing)
    if n == 0:
        return refuse("king-in-check", choice)
    if n > 1:
        return refuse("ambiguous", choice)
    return refuse(None, choice)


def rank(family, action, ask):
    """The reason code `action` (an Action or a text) is refused for, by
    the refusal table's order (PROTOCOL.md), or None when it is legal."""
    return judge(family, action, ask).reason
