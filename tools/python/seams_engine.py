"""seams_engine: the seams engine protocol in one module, standard library only.

An engine written with it is a subclass of `Engine` handed to `serve`:

    import seams_engine as se

    class MyEngine(se.Engine):
        name, version = "my-engine", "1.0"
        variants = {"chess-flat": "0.1"}        # variant -> rules version
        capabilities = ["legal-actions", "perft", "play", "castling"]

        def start(self, variant, position): ...    # position text or None
        def actions(self, state): ...             # {canonical text: move}
        def reason(self, state, text): ...        # why a text is illegal
        ...

    se.serve(MyEngine())

The kit reads one JSON request per line on stdin and writes one reply per
line on stdout, flushed; it answers `hello`, repeats ids, turns exceptions
into `error` or `unsupported` replies and keeps going. The rules commands
come from a few *hooks* on a game state the engine defines (its board
object, say):

    hook                               used by
    start(variant, position) -> state  every rules command (position None:
                                       the initial one; raise ValueError or
                                       Error for a position it refuses)
    actions(state) -> {text: move}     every rules command: the legal
                                       actions, canonical text -> move
    push(state, move)                  every rules command (default:
                                       state.push(move))
    pop(state)                         perft (default: state.pop())
    moves(state) -> iterable of moves  perft (optional: a faster actions())
    alias(state, text) -> move | None  other spellings of an action
                                       (optional)
    reason(state, text) -> code        check_action, verify_record: why an
                                       action is illegal (REASONS)
    position(state) -> text            apply, status, verify_record
    to_move(state) -> "first"|"second" status, verify_record
    in_check(state) -> bool            status
    result(state) -> None | (winner, reason)   status, verify_record: the
                                       end by the engine's own rules
                                       (winner "first", "second" or None)
    repetition_key(state) -> str       key; verify_record with `repetitions`
    rights(state) -> dict              verify_record with `rights` (the
                                       protocol's rights object; optional)

A command is announced in `hello` when its hooks are all defined, or when
the subclass defines the command's method itself (`legal_actions(variant,
position, moves)`, `check_action(..., action)`, `perft(..., depth,
divide)`, `apply`, `status`, `key`, `verify_record(record)`,
`geometry(board, question)`), which returns the fields of the `ok` reply as
a dict. Inside any of them, raise `Unsupported` for an `unsupported` reply
and `Error(message)` for an `error` reply; any other exception becomes an
`error` reply naming it (its traceback goes to stderr).

Recorded decisions (`resign`, `draw`) in the moves of `status` and in game
records are handled here, the same way for every family.
"""

import json
import os
import sys
import traceback

# The protocol version this module speaks, as hello replies say it.
PROTOCOL = "1.1"

# The transport capability of 1.1 that every engine on this module has:
# `serve` reads each request while the runner may leave earlier replies
# unread (it writes each reply and goes on), so the runner may send
# several requests at once.
PIPELINING = "pipelining"

COMMANDS = ("hello", "legal_actions", "check_action", "perft", "apply", "status",
            "key", "verify_record", "geometry")

# Why an action is illegal (conformance/README.md, "Check kinds").
REASONS = frozenset(("syntax", "no-such-cell", "no-piece", "unreachable", "ambiguous",
                     "king-in-check", "promotion", "drop-restriction", "castling",
                     "game-over"))

# Why a game ended.
END_REASONS = frozenset(("checkmate", "stalemate", "no-legal-action", "bare-kings",
                         "repetition", "perpetual-check", "move-rule", "resignation",
                         "agreement"))

# The protocol refuses deeper perft everywhere, so an engine does too.
MAX_PERFT_DEPTH = 20

# The hooks each rules command is built from.
NEEDS = {
    "legal_actions": ("start", "actions"),
    "check_action": ("start", "actions", "reason"),
    "perft": ("start", "actions"),
    "apply": ("start", "actions", "position"),
    "status": ("start", "actions", "position", "to_move", "in_check", "result"),
    "key": ("start", "actions", "repetition_key"),
    "verify_record": ("start", "actions", "reason", "position", "to_move", "result"),
}


class Unsupported(Exception):
    """The engine does not answer this request."""


class Error(Exception):
    """The question cannot be answered; the message says why."""


class Engine:
    """Subclass it, set the hello attributes and define hooks or commands."""

    name = "unnamed-engine"
    version = "0"
    variants = {}
    capabilities = []
    boards = None

    # ------------------------------------------------------------ hooks
    # A command is announced only when the subclass overrides every hook
    # it needs (see NEEDS); those raise NotImplementedError here. The
    # others have defaults: push and pop call the state's own (board
    # objects of chess and shogi libraries have them), moves are the
    # actions' moves, and no other spellings are read.

    def start(self, variant, position):
        raise NotImplementedError

    def actions(self, state):
        raise NotImplementedError

    def push(self, state, move):
        state.push(move)

    def pop(self, state):
        state.pop()

    def moves(self, state):
        return self.actions(state).values()

    def alias(self, state, text):
        return None

    def reason(self, state, text):
        raise NotImplementedError

    def position(self, state):
        raise NotImplementedError

    def to_move(self, state):
        raise NotImplementedError

    def in_check(self, state):
        raise NotImplementedError

    def result(self, state):
        raise NotImplementedError

    def repetition_key(self, state):
        raise NotImplementedError

    # ------------------------------------------------------------ hello

    def defines(self, hook):
        """Whether the subclass gives `hook` (the base class's own hooks
        only raise NotImplementedError, so having the name is not enough)."""
        mine = getattr(type(self), hook, None)
        return mine is not None and mine is not getattr(Engine, hook, None)

    def commands(self):
        """The commands this engine answers: those whose method the
        subclass defines, or whose hooks it all defines."""
        out = ["hello"]
        for cmd in COMMANDS[1:]:
            overridden = self.defines(cmd)
            hooks = NEEDS.get(cmd)
            built = hooks is not None and all(self.defines(h) for h in hooks)
            if overridden or built:
                out.append(cmd)
        return out

    def hello(self, protocol):
        # Protocol 1 was first written as the integer 1, then as "1.0";
        # any 1.x speaks the same messages.
        major = str(protocol).split(".")[0]
        if isinstance(protocol, bool) or major != "1":
            raise Error(f"protocol {protocol!r} is not spoken here (this engine speaks {PROTOCOL})")
        out = {"protocol": PROTOCOL, "name": self.name, "version": self.version,
               "variants": [{"name": v, "rules": r} for v, r in self.variants.items()],
               "capabilities": list(self.capabilities)
               + ([] if PIPELINING in self.capabilities else [PIPELINING]),
               "commands": self.commands()}
        if self.boards is not None:
            out["boards"] = list(self.boards)
        return out

    # ------------------------------------------------------------ commands

    def legal_actions(self, variant, position, moves):
        return {"actions": sorted(self.actions(self.reach(variant, position, moves)))}

    def check_action(self, variant, position, moves, action):
        state = self.reach(variant, position, moves)
        found = self.find(state, action)
        if found is not None:
            return {"legal": True, "canonical": found[0]}
        return {"legal": False, "reason": self.why(state, action)}

    def perft(self, variant, position, moves, depth, divide):
        if not 0 <= depth <= MAX_PERFT_DEPTH:
            raise Error(f"perft depth {depth} is outside 0..{MAX_PERFT_DEPTH}")
        state = self.reach(variant, position, moves)
        if not divide:
            return {"nodes": self.count(state, depth)}
        rows = {}
        if depth > 0:
            for text, move in self.actions(state).items():
                self.push(state, move)
                rows[text] = self.count(state, depth - 1)
                self.pop(state)
        return {"nodes": sum(rows.values()) if depth > 0 else 1, "divide": rows}

    def apply(self, variant, position, moves):
        return {"position": self.position(self.reach(variant, position, moves))}

    def status(self, variant, position, moves):
        state = self.begin(variant, position)
        result, failure = self.play(state, moves)
        if failure is not None:
            ply, code, text = failure
            if code == "game-over":
                code += f": the game ended before it ({describe(result)})"
            raise Error(f"move {ply} '{text}' cannot be played: {code}")
        return {"position": self.position(state), "to_move": self.to_move(state),
                "in_check": bool(self.in_check(state)), "result": result}

    def key(self, variant, position, moves):
        return {"key": str(self.repetition_key(self.reach(variant, position, moves)))}

    def verify_record(self, record):
        variant = record.get("variant")
        if variant not in self.variants:
            raise Unsupported
        actions = record.get("actions", [])

        def reject(ply, reason, message, illegal=None):
            out = {"verdict": "rejected", "ply": ply, "reason": reason, "message": message}
            if illegal is not None:
                out["illegal"] = illegal
            return out

        if record.get("format", 1) not in (1, 2):
            return reject(0, "unknown-format",
                          f"record format {record.get('format')!r} is not 1 or 2")
        # Claims this engine cannot check are not guessed at.
        if "repetitions" in record and not self.defines("repetition_key"):
            raise Unsupported
        if "rights" in record and not self.defines("rights"):
            raise Unsupported
        if record.get("rules") != self.variants[variant]:
            return reject(0, "wrong-rules-version",
                          f"the record is for rules {record.get('rules')}, "
                          f"this engine implements {self.variants[variant]}")
        start = record.get("start") or {}
        if start.get("kind") not in ("initial", "edited"):
            raise Error(f"the record's start {start!r} is neither initial nor edited")
        try:
            state = self.begin(variant, start.get("position") if start["kind"] == "edited" else None)
        except (ValueError, Error) as e:
            return reject(0, "bad-start", f"{type(e).__name__}: {e}")
        seen = {} if "repetitions" in record else None
        result, failure = self.play(state, actions, seen)
        if failure is not None:
            ply, code, text = failure
            return reject(ply, "illegal-action", f"ply {ply} '{text}': {code}", code)
        after = len(actions) + 1
        claimed = record.get("result")
        if claimed is not None:
            claimed = {"winner": claimed.get("winner"), "reason": claimed.get("reason")}
        if claimed != result:
            return reject(after, "result-mismatch", f"the record claims {describe(claimed)}, "
                          f"replaying it gives {describe(result)}")
        final = record.get("final_position")
        if final is not None:
            # Both texts through this engine's own reader and writer, so
            # that spellings of one position compare equal.
            try:
                same = self.position(self.begin(variant, final)) == self.position(state)
            except (ValueError, Error):
                same = False
            if not same:
                return reject(after, "final-position-mismatch",
                              f"the record's final position '{final}' differs from "
                              f"the replayed '{self.position(state)}'")
        if "rights" in record and record["rights"] != self.rights(state):
            return reject(after, "rights-mismatch",
                          f"the record claims the rights {record['rights']}, "
                          f"replaying it gives {self.rights(state)}")
        if seen is not None:
            claimed = {}
            for r in record["repetitions"]:
                try:
                    key = str(self.repetition_key(self.begin(variant, r["position"])))
                except (ValueError, Error, KeyError, TypeError):
                    return reject(after, "repetition-mismatch", f"{r!r} is not a position")
                if key in claimed or r.get("count") != seen.get(key, 0) or r.get("count", 0) < 2:
                    return reject(after, "repetition-mismatch",
                                  f"{r!r}: replaying gives {seen.get(key, 0)} occurrences")
                claimed[key] = r["count"]
            repeated = sum(1 for n in seen.values() if n > 1)
            if len(claimed) != repeated:
                return reject(after, "repetition-mismatch",
                              f"the record lists {len(claimed)} repeated positions, "
                              f"replaying it gives {repeated}")
        plies = sum(1 for a in actions if a not in ("resign", "draw"))
        return {"verdict": "accepted", "result": result, "plies": plies}

    def geometry(self, board, question):
        raise Unsupported

    # ------------------------------------------------------------ helpers

    def begin(self, variant, position):
        """The state of a position text (None: the initial position)."""
        if position is not None and not isinstance(position, str):
            raise Error("'position' must be a string")
        return self.start(variant, position)

    def reach(self, variant, position, moves):
        """The state after `moves`, game-end rules ignored."""
        state = self.begin(variant, position)
        for ply, text in enumerate(moves, 1):
            found = self.find(state, text)
            if found is None:
                raise Error(f"move {ply} '{text}' is not a legal action here")
            self.push(state, found[1])
        return state

    def find(self, state, text):
        """(canonical text, move) for an action text, or None if illegal."""
        table = self.actions(state)
        if text in table:
            return text, table[text]
        move = self.alias(state, text)
        if move is not None:
            for canonical, m in table.items():
                if m == move:
                    return canonical, m
        return None

    def why(self, state, text):
        code = self.reason(state, text)
        if code not in REASONS:
            raise Error(f"the reason hook gave {code!r}, which is not a reason code")
        return code

    def count(self, state, depth):
        """Perft by push and pop; the last ply is counted, not played."""
        if depth == 0:
            return 1
        moves = list(self.moves(state))
        if depth == 1:
            return len(moves)
        total = 0
        for move in moves:
            self.push(state, move)
            total += self.count(state, depth - 1)
            self.pop(state)
        return total

    def ending(self, state):
        """The engine's verdict as a reply's `result`, checked."""
        r = self.result(state)
        if r is None:
            return None
        winner, reason = r
        if winner not in ("first", "second", None) or reason not in END_REASONS:
            raise Error(f"the result hook gave {r!r}, not (winner, end reason)")
        return {"winner": winner, "reason": reason}

    def play(self, state, actions, seen=None):
        """Plays `actions` as a game, adjudicating after each, and returns
        (result, failure); failure is (ply, illegal reason, text) for the
        first action that cannot be played, else None. With `seen` (a
        dict), counts each position's repetition key in it."""
        def count():
            if seen is not None:
                key = str(self.repetition_key(state))
                seen[key] = seen.get(key, 0) + 1
        count()
        result = self.ending(state)
        for ply, text in enumerate(actions, 1):
            if result is not None:
                return result, (ply, "game-over", text)
            if text in ("resign", "draw"):
                mover = self.to_move(state)
                winner = {"first": "second", "second": "first"}[mover] if text == "resign" else None
                result = {"winner": winner, "reason": "resignation" if text == "resign" else "agreement"}
                continue
            found = self.find(state, text)
            if found is None:
                return result, (ply, self.why(state, text), text)
            self.push(state, found[1])
            count()
            result = self.ending(state)
        return result, None

    # ------------------------------------------------------------ the loop

    def answer(self, line):
        """The reply (a dict) to one request line (bytes)."""
        try:
            text = line.decode("utf-8")
        except UnicodeDecodeError as e:
            return {"id": None, "error": f"the request is not UTF-8 (bad byte at offset {e.start})"}
        try:
            req = json.loads(text)
        except ValueError as e:
            return {"id": None, "error": f"unreadable request: {e}"}
        if not isinstance(req, dict):
            return {"id": None, "error": "the request is not a JSON object"}
        rid = req.get("id")
        if isinstance(rid, bool) or not isinstance(rid, int) or rid < 0:
            return {"id": None, "error": "the request has no id (a non-negative integer)"}
        cmd = req.get("cmd")
        if not isinstance(cmd, str):
            return {"id": rid, "error": "the request has no 'cmd'"}
        if cmd not in self.commands():
            return {"id": rid, "unsupported": True}
        try:
            fields = self.dispatch(cmd, req)
            if not isinstance(fields, dict):
                raise Error(f"the '{cmd}' handler returned {type(fields).__name__}, not a dict")
        except Unsupported:
            return {"id": rid, "unsupported": True}
        except Error as e:
            return {"id": rid, "error": str(e)}
        except Exception as e:  # an engine bug: say which, and go on
            traceback.print_exc(file=sys.stderr)
            return {"id": rid, "error": f"{type(e).__name__}: {e}"}
        return {"id": rid, "ok": True, **fields}

    def dispatch(self, cmd, req):
        if cmd == "hello":
            return self.hello(req.get("protocol"))
        if cmd == "geometry":
            board = field(req, "board", str)
            if self.boards is not None and board not in self.boards:
                raise Unsupported
            return self.geometry(board, field(req, "question", dict))
        if cmd == "verify_record":
            return self.verify_record(field(req, "record", dict))
        variant = field(req, "variant", str)
        if variant not in self.variants:
            raise Unsupported
        position = req.get("position")
        moves = field(req, "moves", list, [])
        if not all(isinstance(m, str) for m in moves):
            raise Error("'moves' must be a list of strings")
        if cmd == "check_action":
            return self.check_action(variant, position, moves, field(req, "action", str))
        if cmd == "perft":
            depth = field(req, "depth", int)
            return self.perft(variant, position, moves, depth, bool(req.get("divide", False)))
        return getattr(self, cmd)(variant, position, moves)


def describe(result):
    """A reply's `result` in words, for messages."""
    if result is None:
        return "no result, the game goes on"
    if result["winner"] is None:
        return f"a draw by {result['reason']}"
    return f"a win for the {result['winner']} player by {result['reason']}"


_REQUIRED = object()


def field(req, name, kind, default=_REQUIRED):
    """A request field of the given type, or an Error naming it."""
    value = req.get(name, default)
    if value is _REQUIRED:
        raise Error(f"the request has no '{name}'")
    if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
        raise Error(f"'{name}' must be a {kind.__name__}")
    return value


def serve(engine, stdin=None, stdout=None):
    """Answers requests line by line until stdin closes."""
    stdin = stdin if stdin is not None else sys.stdin.buffer
    if stdout is None:
        # Replies own stdout. Whatever else writes there, Python code or a
        # compiled library printing to file descriptor 1, goes to stderr
        # instead, where it cannot break the reply stream.
        sys.stdout.flush()
        stdout = os.fdopen(os.dup(1), "wb")
        os.dup2(2, 1)
        sys.stdout = sys.stderr
    for line in stdin:
        if not line.strip():
            continue
        reply = engine.answer(line)
        try:
            text = json.dumps(reply, allow_nan=False)
        except (TypeError, ValueError) as e:
            text = json.dumps({"id": reply.get("id"), "error": f"the reply is not JSON: {e}"})
        try:
            stdout.write(text.encode("utf-8") + b"\n")
            stdout.flush()
        except BrokenPipeError:  # the runner has gone; nobody is listening
            return
