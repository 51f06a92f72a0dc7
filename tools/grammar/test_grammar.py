"""The reference's `syntax` verdicts against the grammars, by an independent
ABNF parser (the `abnf` package from PyPI).

    .venv/bin/python -m unittest discover -s tools/grammar

from the repository root. See tools/grammar/README.md: SEAMS_BIN (the
engine, default target/release/seams), SEAMS_GRAMMAR_TEXTS (texts per
family, default 100000), SEAMS_GRAMMAR_SPEC (where the grammar files are
read, default spec/), SEAMS_GRAMMAR_WORKERS (parsing processes, default 2).
"""

from __future__ import annotations

import os
import random
import sys
import time
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import grammar_abnf as ga  # noqa: E402
import grammar_check as gk  # noqa: E402
import grammar_corpus as gc  # noqa: E402
import grammar_engine as ge  # noqa: E402
from abnf import Rule  # noqa: E402

# Hand-picked verdicts: (entry rule, text, derived?). Texts the spec names
# (NT-I1 to NT-I10, PROTOCOL.md's reasons table) and their neighbours.
HAND_PICKED = {
    "chess": [
        ("action", "e2-e4", True),
        ("action", "e2-e4 ", False),
        ("action", " e2-e4", False),
        ("action", "e2-\te4", False),
        ("action", "e2e4", False),
        ("action", "0-0", False),
        ("action", "0-0-0", False),
        ("action", "O-O", True),
        ("action", "O-O-O", True),
        ("action", "O-O-east", True),
        ("action", "O-O-west", True),
        ("action", "o-o", False),
        ("action", "O-O-East", False),
        ("action", "D1-d2", False),
        ("action", "E2-e4", False),
        ("action", "e2-E4", False),
        ("action", "e4^v", False),
        ("action", "e2-e4^v", False),
        ("action", "e2-e4^", True),
        ("action", "e2-e4-e6", False),
        ("action", "e7-e8=Q", True),
        ("action", "e7-e8^=Q", True),
        ("action", "e7-e8=Q^", False),
        # Any letter: the variant's kinds judge it after the grammar (NT-I9).
        ("action", "e7-e8=X", True),
        ("action", "Xe2-e4", True),
        ("action", "e7-e8=q", False),
        ("action", "Bd1-g4", True),
        ("action", "bd1-g4", False),
        ("action", "NI:d1-I:c3", True),
        ("action", "e7xd8=Q", True),
        ("action", "e2\u2013e4", True),
        ("action", "e2\u2014e4", True),
        ("action", "e2\u2212e4", False),
        ("action", "resign", False),
        ("game-action", "resign", True),
        ("game-action", "draw", True),
        ("game-action", "Resign", False),
        ("position", "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1", True),
        ("position", "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1 ", False),
        ("position", "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b  KQkq e3 0 1", False),
        ("position", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 p0", True),
        ("position", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR W KQkq - 0 1", False),
        (
            "position",
            "pr1bqkbnrp/1pnppp1pp1/10/10/10/4P5/10/1PNP1P1PP1/PR1BQKBNRP b KQkq e2-e3-e4^ 0 1",
            True,
        ),
    ],
    "shogi": [
        ("action", "P*e5", True),
        ("action", "p*e5", False),
        ("action", "X*e5", True),
        ("action", "III:e3-e4", True),
        ("action", "II:e6-II:e7+", True),
        ("action", "+S*e5", True),
        ("action", "S*e5+", True),
        ("action", "P*e5^", True),
        ("action", "P*e5^+", False),
        ("action", "e3-e4^", True),
        ("action", "e3-e4v", True),
        ("action", "e3-e4+^", True),
        ("action", "e3-e4^+", False),
        ("action", "e12-e13=", True),
        ("action", "e1-e10", True),
        ("action", "e3e4", False),
        ("action", "e3-e4 ", False),
        ("action", "E3-e4", False),
        ("action", "pass", False),
        ("action", "resign", False),
        ("game-action", "resign", True),
        ("position", "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL A - 1", True),
        ("position", "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b -", True),
        ("position", "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL A  - 1", False),
        ("position", "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL a - 1", False),
    ],
    "kyoto": [
        ("action", "T*c3", True),
        ("action", "t*c3", False),
        ("action", "+T*c3", True),
        # Any upper-case letter is a face letter (NT-I9): the variant's
        # faces refuse K and X after the grammar, as no-piece.
        ("action", "K*c3", True),
        ("action", "X*c3", True),
        ("action", "TL*c3", False),
        ("action", "a1-a2", True),
        ("action", "a1-a2+", True),
        ("action", "a1-a2^", False),
        ("action", "a1-a2 ", False),
        ("position", "p+nks+l/5/5/5/+LSK+NP[] w - - 0 1", True),
        ("position", "p+nks+l/5/5/5/+LSK+NQ[Xx] w - - 0 1", True),
        ("position", "p+nks+l/5/5/5/TSK+NP[] w - - 0 1", True),
        ("position", "p+nks+l/5/5/5/+LSK+N+[] w - - 0 1", False),
        ("position", "p+nks+l/5/5/5/+LSK+NP[+P] w - - 0 1", False),
        ("position", "p+nks+l/5/5/5/+LSK+NP[-] w 0 1", True),
        ("position", "p+nks+l/5/5/5/+LSK+NP w - - 0 1", False),
        ("position", "p+nks+l/5/5/5/+LSK+NP[] W - - 0 1", False),
        ("position", "p+nks+l/5/5/0/+LSK+NP[] w - - 0 1", False),
    ],
    "tetra": [
        ("action", "c3.2-c4.2", True),
        ("action", "c3.2c4.2", False),
        ("action", "C3.2-c4.2", False),
        ("action", "c3-c4", False),
        ("action", "c3.0-c4.2", False),
        ("action", "c3.2-c4.2+", True),
        ("action", "P*c5.3", True),
        ("action", "p*c5.3", False),
        ("action", "a1.1-a2.1=Z", True),
        ("action", "a1.1-a2.1=z", False),
        ("position", "K8/16/21/24/25/24/21/16/k8 w -", True),
        ("position", "K8/16/21/24/25/24/21/16/k8 W -", False),
        ("position", "K8/16/21/24/25/24/21/16/k8 w - ", False),
    ],
}

_RUN = None


def full_run() -> gk.Result:
    """The check over the generated texts, done once for all tests."""

    global _RUN
    if _RUN is None:
        count = gk.texts_per_family()
        gk.log(f"\ngrammar check: {count} texts per family, engine {ge.engine_binary()}")
        _RUN = gk.run(total=count)
        gk.log(_RUN.summary())
    return _RUN


class Test1GrammarFiles(unittest.TestCase):
    def test_every_family_grammar_loads(self):
        ga.load_all()
        for family in ga.FAMILIES:
            for rule in ga.ENTRY_RULES:
                self.assertIsNotNone(ga.load(family).get(rule), (family, rule))

    def test_case_sensitive_strings_are_honoured(self):
        """RFC 7405: %s"..." keeps case, "..." ignores it."""

        class Tiny(Rule):
            pass

        Tiny.load_grammar('sens = %s"Ab"\ninsens = "Ab"\n')
        self.assertTrue(_derives(Tiny, "sens", "Ab"))
        self.assertFalse(_derives(Tiny, "sens", "ab"))
        self.assertFalse(_derives(Tiny, "sens", "AB"))
        for text in ("Ab", "ab", "AB", "aB"):
            self.assertTrue(_derives(Tiny, "insens", text), text)
        self.assertFalse(ga.verdict("chess", "action", "o-o"))
        self.assertFalse(ga.verdict("shogi", "action", "p*e5"))

    def test_grammars_are_ascii(self):
        """RFC 5234 rule lists are ASCII, comments included; the loader
        names the place of any other character."""
        for text in ('a = "\u2013" ; fine\n', 'a = ";" ; \u2026 "\n'):
            with self.assertRaises(ValueError) as caught:
                ga.ascii_comments("x.abnf", text)
            self.assertIn("x.abnf:1: non-ASCII character", str(caught.exception))
        self.assertEqual(ga.ascii_comments("x.abnf", 'a = %x2013 ; a dash\n'),
                         'a = %x2013 ; a dash\n')


def _derives(cls, rule, text):
    try:
        cls(rule).parse_all(text)
    except ga.ParseError:
        return False
    return True


class Test2HandPicked(unittest.TestCase):
    def test_abnf_verdicts(self):
        wrong = [
            (family, rule, text, expected)
            for family, cases in HAND_PICKED.items()
            for rule, text, expected in cases
            if ga.verdict(family, rule, text) != expected
        ]
        self.assertEqual(wrong, [], "the abnf package's verdicts differ from the expected ones")

    def test_engine_verdicts(self):
        """Every hand-picked action and position, in every variant of its
        family: refused as syntax exactly when not derived."""

        wrong = []
        with ge.Engine() as engine:
            for family, cases in HAND_PICKED.items():
                for kind in gk.KINDS:
                    texts = [t for rule, t, _ in cases if rule == kind]
                    expected = [e for rule, _, e in cases if rule == kind]
                    for variant in ga.VARIANTS[family]:
                        got = ge.engine_verdicts(engine, family, kind, texts, [variant])
                        wrong += [
                            (variant, kind, t, e, g)
                            for t, e, g in zip(texts, expected, got)
                            if g is not e
                        ]
        self.assertEqual(wrong, [], "(variant, kind, text, expected, engine)")


class Test3Harness(unittest.TestCase):
    """The check can fail: planted disagreements are caught and shown."""

    def test_comparison_flags_planted_disagreement(self):
        planted = {}

        def grammar(family, kind, texts):
            return ga.verdicts((family, kind, texts))

        def fake_reference(family, kind, texts, variants, start):
            verdicts = grammar(family, kind, texts)
            if family == "chess" and kind == "action":
                i = len(texts) // 2
                verdicts[i] = not verdicts[i]
                planted["flip"] = (texts[i], variants[(start + i) % len(variants)])
            if family == "tetra" and kind == "position":
                verdicts[0] = "unexpected reply: {}"
                planted["odd"] = texts[0]
            return verdicts

        result = gk.run(
            total=400,
            grammar_source=grammar,
            reference_source=fake_reference,
            play=False,
            families=("chess", "tetra"),
        )
        found = [(d.family, d.kind, d.text, d.variant) for d in result.found]
        self.assertEqual(len(found), 2, found)
        self.assertIn(("chess", "action", *planted["flip"]), found)
        variants = ga.VARIANTS["tetra"]
        odd_variant = variants[result.starts[("tetra", "position")] % len(variants)]
        self.assertIn(("tetra", "position", planted["odd"], odd_variant), found)
        report = gk.format_disagreements(result.found)
        self.assertIn(repr(planted["flip"][0]), report)
        self.assertIn(planted["flip"][1], report)
        self.assertIn("unexpected reply", report)

    def test_disagreements_lists_and_limits(self):
        texts = [f"t{i}" for i in range(30)]
        left = [True] * 30
        right = [False] * 25 + [True] * 5
        found = gk.disagreements("kyoto", "action", texts, ["a", "b"], left, right)
        self.assertEqual(len(found), 25)
        self.assertEqual([d.variant for d in found[:3]], ["a", "b", "a"])
        report = gk.format_disagreements(found)
        self.assertEqual(report.count("\n  kyoto action"), 20)
        self.assertIn("and 5 more", report)
        with self.assertRaises(ValueError):
            gk.disagreements("kyoto", "action", texts, ["a"], left, right[:3])

    def test_reply_readers(self):
        self.assertIs(ge.action_verdict('{"id":5,"legal":false,"ok":true,"reason":"syntax"}'), False)
        self.assertIs(ge.action_verdict('{"id":5,"legal":false,"ok":true,"reason":"no-piece"}'), True)
        self.assertIs(ge.action_verdict('{"canonical":"e2-e4","id":5,"legal":true,"ok":true}'), True)
        self.assertIsInstance(ge.action_verdict('{"error":"x","id":5}'), str)
        self.assertIs(ge.position_verdict('{"actions":["a1-a2"],"id":5,"ok":true}'), True)
        self.assertIs(
            ge.position_verdict('{"error":"bad position (syntax): \'x\' is not","id":5}'), False
        )
        self.assertIs(
            ge.position_verdict('{"error":"bad position (placement): 3 ranks","id":5}'), True
        )
        self.assertIsInstance(ge.position_verdict('{"error":"unreadable request","id":5}'), str)

    def test_derivations_are_derived(self):
        """The generator walks the grammar correctly: the abnf package
        derives every random derivation it makes."""

        for family in ga.FAMILIES:
            deriver = gc.Deriver(ga.family_trees(family), random.Random(7))
            for rule in ga.ENTRY_RULES:
                texts = [deriver.derive(rule) for _ in range(300)]
                bad = [t for t in texts if not ga.verdict(family, rule, t)]
                self.assertEqual(bad, [], (family, rule))


class Test4Generated(unittest.TestCase):
    def test_abnf_and_engine_agree(self):
        result = full_run()
        for family, corpus in result.corpora.items():
            self.assertGreaterEqual(len(corpus), min(gk.texts_per_family(), 1000), family)
        self.assertEqual(
            result.underived[:20], [], "random derivations that the abnf package refuses"
        )
        if result.found:
            self.fail("\n" + gk.format_disagreements(result.found, "abnf", "engine"))

    def test_backends_agree(self):
        """The pure-Python backend of the abnf package gives the same
        verdicts as the Rust one, on a sample of the texts."""

        if ga.BACKEND != "rust":
            self.skipTest("only the pure-Python backend of abnf is installed (no abnf-rust)")
        result = full_run()
        rng = random.Random(11)
        jobs, expected = [], []
        for family, corpus in result.corpora.items():
            for kind, size in (("action", 1000), ("position", 200)):
                texts = corpus.texts[kind]
                picks = sorted(rng.sample(range(len(texts)), min(size, len(texts))))
                jobs.append((family, kind, [texts[i] for i in picks]))
                expected.append([result.grammar[(family, kind)][i] for i in picks])
        t0 = time.perf_counter()
        got = gk.python_backend_verdicts(jobs)
        gk.log(
            f"pure-Python abnf backend on {sum(len(j[2]) for j in jobs)} texts: "
            f"{time.perf_counter() - t0:.1f} s"
        )
        wrong = [
            (family, kind, text, e, g)
            for (family, kind, texts), es, gs in zip(jobs, expected, got)
            for text, e, g in zip(texts, es, gs)
            if e != g
        ]
        self.assertEqual(wrong[:20], [], "(family, kind, text, rust, python)")


class Test5Kit(unittest.TestCase):
    def test_kit_agrees_with_abnf(self):
        """tools/python/seams_notation.py: read_action / read_position return
        None exactly when the grammar does not derive the text."""

        if not gk.kit_available():
            self.skipTest(
                "tools/python/seams_notation.py does not exist yet: the kit's "
                "verdicts were not compared with the grammar"
            )
        result = full_run()
        t0 = time.perf_counter()
        kit = gk.kit_verdicts(result)
        gk.log(f"seams_notation on {sum(map(len, kit.values()))} texts: {time.perf_counter() - t0:.1f} s")
        found = []
        for family in result.corpora:
            for kind in gk.KINDS:
                texts = result.corpora[family].texts[kind]
                found += gk.disagreements(
                    family, kind, texts, [None], result.grammar[(family, kind)], kit[(family, kind)]
                )
        if found:
            self.fail("\n" + gk.format_disagreements(found, "abnf", "seams_notation"))


if __name__ == "__main__":
    unittest.main()
