"""A pipelined client of `seams engine` (conformance/PROTOCOL.md), and the
reference's syntax verdicts.

Requests are written by a thread while the caller reads the replies, so
neither side can block the other on a full pipe however many requests are
outstanding (the engine declares `pipelining`).
"""

from __future__ import annotations

import json
import os
import subprocess
import tempfile
import threading

from grammar_abnf import REPO


def engine_binary() -> str:
    """`SEAMS_BIN`, or target/release/seams in the repository."""

    path = os.environ.get("SEAMS_BIN") or "target/release/seams"
    if not os.path.isabs(path):
        path = str(REPO / path)
    return path


class EngineError(RuntimeError):
    pass


class Engine:
    def __init__(self, binary: str | None = None):
        self.binary = binary or engine_binary()
        if not os.path.exists(self.binary):
            raise EngineError(
                f"no engine at {self.binary}: build it (cargo build --release) "
                "or set SEAMS_BIN"
            )
        self.stderr = tempfile.TemporaryFile()
        self.proc = subprocess.Popen(
            [self.binary, "engine"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=self.stderr,
            bufsize=1 << 20,
        )
        self.next_id = 0
        self.requests = 0
        hello = self.request({"cmd": "hello", "protocol": "1.1"})
        if not hello.get("ok"):
            raise EngineError(f"hello refused: {hello}")
        if "pipelining" not in hello.get("capabilities", []):
            raise EngineError("the engine does not declare pipelining")
        self.hello = hello

    def close(self) -> None:
        if self.proc.poll() is None:
            try:
                self.proc.stdin.close()
            except OSError:
                pass
            try:
                self.proc.wait(timeout=5)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        self.proc.stdout.close()
        self.stderr.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def _stderr_tail(self) -> str:
        self.stderr.seek(0)
        return self.stderr.read()[-2000:].decode("utf-8", "replace")

    def request(self, req: dict) -> dict:
        return self.request_many([req])[0]

    def request_many(self, reqs, handle=json.loads) -> list:
        """Sends every request (ids are added), reads as many replies, and
        returns `handle(reply line)` for each, in order. Each reply's id is
        checked."""

        reqs = list(reqs)
        ids = []
        lines = []
        for req in reqs:
            req = dict(req, id=self.next_id)
            ids.append(self.next_id)
            self.next_id += 1
            lines.append(json.dumps(req, separators=(",", ":")))
        self.requests += len(reqs)
        failure = []

        def write():
            try:
                for i in range(0, len(lines), 500):
                    chunk = "\n".join(lines[i : i + 500]) + "\n"
                    self.proc.stdin.write(chunk.encode("utf-8"))
                self.proc.stdin.flush()
            except (BrokenPipeError, OSError) as exc:  # reported by the reader
                failure.append(exc)

        writer = threading.Thread(target=write, daemon=True)
        writer.start()
        out = []
        readline = self.proc.stdout.readline
        for expected in ids:
            raw = readline()
            if not raw:
                writer.join(timeout=1)
                raise EngineError(
                    f"the engine closed its output before replying to id {expected}"
                    f" ({failure or 'no write error'}); stderr:\n{self._stderr_tail()}"
                )
            line = raw.decode("utf-8")
            # The id as a key (keys inside strings are escaped, so a text
            # cannot fake it); anything else is parsed and checked.
            if f'"id":{expected},' not in line and f'"id":{expected}}}' not in line:
                reply = json.loads(line)
                if reply.get("id") != expected:
                    raise EngineError(f"reply to id {expected} has id {reply.get('id')}: {line[:300]}")
            out.append(handle(line))
        writer.join()
        return out


# ---- Syntax verdicts ---------------------------------------------------


def action_verdict(line: str):
    """check_action reply -> True (the grammar derives the text: legal, or
    refused for another reason), False (refused as syntax), or a string
    describing a reply that is neither."""

    if '"reason":"syntax"' in line:
        return False
    if '"legal":' in line and '"ok":true' in line:
        return True
    return "unexpected reply: " + line.strip()[:300]


def position_verdict(line: str):
    """legal_actions reply -> True (an answer, or an error about a field
    other than syntax), False (`bad position (syntax): ...`), or a string
    describing any other reply."""

    if line.startswith('{"actions":') or '"ok":true' in line[-40:]:
        return True
    reply = json.loads(line)
    if reply.get("ok") is True:
        return True
    error = reply.get("error")
    if isinstance(error, str):
        if error.startswith("bad position (syntax)"):
            return False
        if error.startswith("bad position ("):
            return True
    return "unexpected reply: " + line.strip()[:300]


def engine_verdicts(engine: Engine, family: str, kind: str, texts, variants, start=0):
    """The reference's verdict for each text (see action_verdict,
    position_verdict), asking text i in variants[(start + i) % n]."""

    n = len(variants)
    if kind == "action":
        reqs = (
            {"cmd": "check_action", "variant": variants[(start + i) % n], "action": t}
            for i, t in enumerate(texts)
        )
        return engine.request_many(reqs, action_verdict)
    if kind == "position":
        reqs = (
            {"cmd": "legal_actions", "variant": variants[(start + i) % n], "position": t}
            for i, t in enumerate(texts)
        )
        return engine.request_many(reqs, position_verdict)
    raise ValueError(kind)
