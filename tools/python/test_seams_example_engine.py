"""Tests of seams_example_engine's command line: which spec folder it
reads. Its answers are checked by the Rust tests, which run it through
`seams conform` (tests/external/python.rs).

    python3 -m unittest discover -s tools/python
"""

import contextlib
import io
import json
import os
import shutil
import tempfile
import unittest
from unittest import mock

import seams_example_engine as ex

BOARDS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "spec", "boards")


class SpecFolder(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.mkdtemp()
        self.addCleanup(shutil.rmtree, self.tmp)
        # Three spec folders of one board each, so the board list says
        # which folder was read.
        self.spec = {}
        for board in ("flat-5x5", "flat-8x8", "flat-9x9"):
            folder = os.path.join(self.tmp, board, "boards")
            os.makedirs(folder)
            shutil.copy(os.path.join(BOARDS, f"{board}.toml"), folder)
            self.spec[board] = os.path.dirname(folder)
        env = mock.patch.dict(os.environ)
        env.start()
        self.addCleanup(env.stop)
        os.environ.pop("SEAMS_SPEC", None)

    def boards(self, argv, default_spec=None):
        return ex.engine_from_args(argv, default_spec).boards

    def refusal(self, argv):
        err = io.StringIO()
        with contextlib.redirect_stderr(err), self.assertRaises(SystemExit) as exit:
            ex.engine_from_args(argv)
        self.assertEqual(exit.exception.code, 2)
        return err.getvalue()

    def test_spec_beats_the_environment_which_beats_the_launchers_folder(self):
        os.environ["SEAMS_SPEC"] = self.spec["flat-8x8"]
        self.assertEqual(self.boards(["--spec", self.spec["flat-5x5"]], self.spec["flat-9x9"]),
                         ["flat-5x5"])
        self.assertEqual(self.boards([], self.spec["flat-9x9"]), ["flat-8x8"])
        del os.environ["SEAMS_SPEC"]
        self.assertEqual(self.boards([], self.spec["flat-9x9"]), ["flat-9x9"])

    def test_without_a_spec_folder_it_says_how_to_give_one(self):
        self.assertIn("no spec folder: give --spec DIR", self.refusal([]))

    def test_a_folder_without_boards_is_refused(self):
        self.assertIn("is not a spec folder: it has no boards/", self.refusal(["--spec", self.tmp]))

    def test_hello_lists_the_boards_read(self):
        engine = ex.engine_from_args(["--spec", self.spec["flat-8x8"]])
        request = {"id": 1, "cmd": "hello", "protocol": ex.se.PROTOCOL}
        reply = engine.answer(json.dumps(request).encode())
        self.assertEqual((reply["name"], reply["boards"]), ("example-engine", ["flat-8x8"]))


if __name__ == "__main__":
    unittest.main()
