"""Tests of seams_engine, the Python kit: the protocol loop and the commands
it builds from hooks, on a small take-away game.

    python3 -m unittest discover -s tools/python
"""

import io
import json
import unittest

import seams_engine as se


class Pile:
    """A pile of stones; the player to move takes one or two. A player who
    cannot take loses. Position text: `<stones> <A|B>`."""

    def __init__(self, stones, first):
        self.stones, self.first, self.history = stones, first, []

    def push(self, take):
        self.history.append(take)
        self.stones -= take
        self.first = not self.first

    def pop(self):
        self.stones += self.history.pop()
        self.first = not self.first


class TakeAway(se.Engine):
    name = "take-away"
    version = "1"
    variants = {"take-away": "1.0"}
    capabilities = ["legal-actions", "perft", "play", "keys", "records"]

    def start(self, variant, position):
        if position is None:
            return Pile(5, True)
        stones, side = position.split()
        if side not in ("A", "B") or int(stones) < 0:
            raise ValueError(f"bad position '{position}'")
        return Pile(int(stones), side == "A")

    def actions(self, pile):
        return {f"take{n}": n for n in (1, 2) if n <= pile.stones}

    def alias(self, pile, text):
        return int(text) if text in ("1", "2") and int(text) <= pile.stones else None

    def reason(self, pile, text):
        if text.startswith("take") and text[4:].isdigit():
            return "unreachable"
        return "syntax"

    def position(self, pile):
        return f"{pile.stones} {'A' if pile.first else 'B'}"

    def to_move(self, pile):
        return "first" if pile.first else "second"

    def in_check(self, pile):
        return False

    def result(self, pile):
        if pile.stones == 0:
            return ("second" if pile.first else "first"), "no-legal-action"
        return None

    def repetition_key(self, pile):
        return self.position(pile)


def ask(engine, request):
    line = request if isinstance(request, bytes) else json.dumps(request).encode()
    return engine.answer(line)


def perft(stones, depth):
    """Counted by hand: sequences of takes of `depth` plies."""
    if depth == 0:
        return 1
    return sum(perft(stones - n, depth - 1) for n in (1, 2) if n <= stones)


class Protocol(unittest.TestCase):
    def setUp(self):
        self.engine = TakeAway()

    def test_hello_accepts_both_spellings_of_protocol_one(self):
        for protocol in (1, "1.0"):
            r = ask(self.engine, {"id": 0, "cmd": "hello", "protocol": protocol})
            self.assertEqual(r["protocol"], se.PROTOCOL)
            self.assertEqual(set(r), {"id", "ok", "protocol", "name", "version", "variants",
                                      "capabilities", "commands"})
            self.assertEqual(r["variants"], [{"name": "take-away", "rules": "1.0"}])
            self.assertEqual(r["commands"], list(se.COMMANDS[:-1]))
        r = ask(self.engine, {"id": 0, "cmd": "hello", "protocol": 2})
        self.assertIn("not spoken", r["error"])

    def test_hello_declares_pipelining_once(self):
        r = ask(self.engine, {"id": 0, "cmd": "hello", "protocol": "1.1"})
        self.assertEqual(r["capabilities"], TakeAway.capabilities + [se.PIPELINING])

        class Declared(TakeAway):
            capabilities = TakeAway.capabilities + [se.PIPELINING]
        r = ask(Declared(), {"id": 0, "cmd": "hello", "protocol": "1.1"})
        self.assertEqual(r["capabilities"].count(se.PIPELINING), 1)

    def test_repetitions_are_not_guessed_without_a_key(self):
        class NoKey(TakeAway):
            repetition_key = se.Engine.repetition_key
        record = {"format": 2, "variant": "take-away", "rules": "1.0",
                  "start": {"kind": "initial"}, "actions": [], "result": None,
                  "repetitions": []}
        r = ask(NoKey(), {"id": 5, "cmd": "verify_record", "record": record})
        self.assertEqual(r, {"id": 5, "unsupported": True})
        self.assertFalse(NoKey().defines("repetition_key"))
        # With a key, the same claim is checked.
        r = ask(self.engine, {"id": 5, "cmd": "verify_record", "record": record})
        self.assertEqual(r["verdict"], "accepted")
        self.assertTrue(self.engine.defines("repetition_key"))

    def test_commands_follow_the_hooks(self):
        class Geometry(se.Engine):
            def geometry(self, board, question):
                return {"answer": None}
        self.assertEqual(Geometry().commands(), ["hello", "geometry"])

    def test_unreadable_requests_get_a_null_id(self):
        for line in (b"not json", b"\xff\xfe", b"[1]", b'{"cmd": "hello"}', b'{"id": -1}'):
            r = ask(self.engine, line)
            self.assertIsNone(r["id"], line)
            self.assertIn("error", r)

    def test_unknown_commands_and_variants_are_unsupported(self):
        self.assertEqual(ask(self.engine, {"id": 3, "cmd": "teleport"}),
                         {"id": 3, "unsupported": True})
        self.assertEqual(ask(self.engine, {"id": 4, "cmd": "legal_actions", "variant": "chess"}),
                         {"id": 4, "unsupported": True})
        self.assertEqual(ask(self.engine, {"id": 5, "cmd": "geometry", "board": "b",
                                           "question": {}}),
                         {"id": 5, "unsupported": True})

    def test_exceptions_become_error_replies(self):
        r = ask(self.engine, {"id": 6, "cmd": "apply", "variant": "take-away", "position": "x"})
        self.assertEqual(r["id"], 6)
        self.assertIn("ValueError", r["error"])
        r = ask(self.engine, {"id": 7, "cmd": "perft", "variant": "take-away"})
        self.assertEqual(r, {"id": 7, "error": "the request has no 'depth'"})

    def test_a_reason_outside_the_vocabulary_is_an_error(self):
        class Sloppy(TakeAway):
            def reason(self, pile, text):
                return "nope"
        r = ask(Sloppy(), {"id": 8, "cmd": "check_action", "variant": "take-away",
                           "action": "take3"})
        self.assertIn("'nope'", r["error"])


class Commands(unittest.TestCase):
    def setUp(self):
        self.engine = TakeAway()

    def rules(self, cmd, **fields):
        return ask(self.engine, {"id": 1, "cmd": cmd, "variant": "take-away", **fields})

    def test_legal_actions_and_check_action(self):
        self.assertEqual(self.rules("legal_actions", position="1 A")["actions"], ["take1"])
        self.assertEqual(self.rules("check_action", action="2")["canonical"], "take2")
        r = self.rules("check_action", action="take3")
        self.assertEqual((r["legal"], r["reason"]), (False, "unreachable"))
        r = self.rules("legal_actions", moves=["take2", "take2", "take2"])
        self.assertIn("move 3 'take2' is not a legal action", r["error"])

    def test_perft_and_divide(self):
        for depth in range(6):
            self.assertEqual(self.rules("perft", depth=depth)["nodes"], perft(5, depth))
        r = self.rules("perft", depth=3, divide=True)
        self.assertEqual(r["divide"], {"take1": perft(4, 2), "take2": perft(3, 2)})
        self.assertEqual(self.rules("perft", depth=0, divide=True),
                         {"id": 1, "ok": True, "nodes": 1, "divide": {}})
        self.assertIn("error", self.rules("perft", depth=21))

    def test_status_plays_a_game(self):
        r = self.rules("status", moves=["take2", "take2", "take1"])
        self.assertEqual(r["result"], {"winner": "first", "reason": "no-legal-action"})
        self.assertEqual((r["position"], r["to_move"]), ("0 B", "second"))
        r = self.rules("status", moves=["take1", "resign"])  # the second player resigns
        self.assertEqual(r["result"], {"winner": "first", "reason": "resignation"})
        r = self.rules("status", moves=["draw"])
        self.assertEqual(r["result"], {"winner": None, "reason": "agreement"})
        r = self.rules("status", moves=["resign", "take1"])
        self.assertIn("game-over", r["error"])

    def test_keys(self):
        a = self.rules("key", moves=["take1", "take2"])["key"]
        b = self.rules("key", moves=["take2", "take1"])["key"]
        self.assertEqual(a, b)

    def test_verify_record(self):
        def verify(**record):
            full = {"variant": "take-away", "rules": "1.0", "start": {"kind": "initial"},
                    "actions": [], "result": None, **record}
            return ask(self.engine, {"id": 2, "cmd": "verify_record", "record": full})
        r = verify(actions=["take2", "take2", "take1"],
                   result={"winner": "first", "reason": "no-legal-action"},
                   final_position="0 B")
        self.assertEqual((r["verdict"], r["plies"]), ("accepted", 3))
        self.assertEqual(verify(rules="0.9")["reason"], "wrong-rules-version")
        self.assertEqual(verify(start={"kind": "edited", "position": "x"})["reason"], "bad-start")
        r = verify(actions=["take1", "take9"])
        self.assertEqual((r["ply"], r["reason"], r["illegal"]), (2, "illegal-action", "unreachable"))
        r = verify(actions=["resign", "take1"])
        self.assertEqual((r["ply"], r["illegal"]), (2, "game-over"))
        r = verify(actions=["take1"], result={"winner": "first", "reason": "resignation"})
        self.assertEqual((r["ply"], r["reason"]), (2, "result-mismatch"))
        r = verify(actions=["take1"], final_position="3 A")
        self.assertEqual(r["reason"], "final-position-mismatch")
        r = ask(self.engine, {"id": 2, "cmd": "verify_record", "record": {"variant": "go"}})
        self.assertEqual(r, {"id": 2, "unsupported": True})

    def test_verify_record_format_two(self):
        def verify(**record):
            full = {"format": 2, "variant": "take-away", "rules": "1.0",
                    "start": {"kind": "initial"}, "actions": ["take1"], "result": None, **record}
            return ask(self.engine, {"id": 3, "cmd": "verify_record", "record": full})
        self.assertEqual(verify(repetitions=[])["verdict"], "accepted")
        # The pile only shrinks, so no position repeats: a claimed repetition is wrong.
        r = verify(repetitions=[{"position": "5 A", "count": 2}])
        self.assertEqual((r["ply"], r["reason"]), (2, "repetition-mismatch"))
        self.assertEqual(verify(format=3)["reason"], "unknown-format")
        # Rights need a `rights` hook, which this engine does not define.
        self.assertEqual(verify(rights={}), {"id": 3, "unsupported": True})


class Serve(unittest.TestCase):
    def test_one_reply_per_request_line(self):
        out = io.BytesIO()
        requests = b'{"id":0,"cmd":"hello","protocol":"1.0"}\n\n\xff\n' \
                   b'{"id":1,"cmd":"perft","variant":"take-away","depth":2}\n'
        se.serve(TakeAway(), io.BytesIO(requests), out)
        replies = [json.loads(line) for line in out.getvalue().splitlines()]
        self.assertEqual([r["id"] for r in replies], [0, None, 1])
        self.assertEqual(replies[2]["nodes"], perft(5, 2))


if __name__ == "__main__":
    unittest.main()
