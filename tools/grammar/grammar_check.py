"""The check: the `abnf` package's verdicts against the reference's.

`run(...)` builds each family's corpus (grammar_corpus), asks the `abnf`
package (in a pool of worker processes) and the engine (pipelined) about
every text, and returns a `Result` with the verdicts, the disagreements and
the counts. The verdict sources are plain functions, so a test can plant a
fake one and see the comparison catch it.

A verdict is True (the entry rule derives the text), False (it does not:
for the reference, refused as `syntax`), or a string describing a reply
that says neither; a string never agrees with anything.
"""

from __future__ import annotations

import multiprocessing
import os
import pathlib
import random
import sys
import time
from dataclasses import dataclass, field

import grammar_abnf as ga
import grammar_corpus as gc
import grammar_engine as ge

KINDS = ("action", "position")
CHUNK = 1000
KIT_DIR = ga.REPO / "tools/python"
KIT_MODULE = KIT_DIR / "seams_notation.py"


def log(*args) -> None:
    print(*args, file=sys.stderr, flush=True)


# ---- Comparison ----------------------------------------------------------


@dataclass
class Disagreement:
    family: str
    kind: str
    text: str
    variant: str
    left: object
    right: object

    def describe(self, left_name: str, right_name: str) -> str:
        def show(v):
            if v is True:
                return "derived"
            if v is False:
                return "not derived (syntax)"
            return str(v)

        where = f" (variant {self.variant})" if self.variant is not None else ""
        return (
            f"  {self.family} {self.kind} {self.text!r}{where}: "
            f"{left_name} {show(self.left)}, {right_name} {show(self.right)}"
        )


def disagreements(family, kind, texts, variants, left, right, start=0):
    """The texts on which two verdict lists differ. Text i was asked in
    variants[(start + i) % len(variants)]."""

    if len(left) != len(texts) or len(right) != len(texts):
        raise ValueError(
            f"{family} {kind}: {len(texts)} texts but {len(left)} and {len(right)} verdicts"
        )
    out = []
    n = len(variants)
    for i, (text, a, b) in enumerate(zip(texts, left, right)):
        if not (isinstance(a, bool) and isinstance(b, bool) and a == b):
            out.append(Disagreement(family, kind, text, variants[(start + i) % n], a, b))
    return out


def format_disagreements(found, left_name="abnf", right_name="engine", limit=20) -> str:
    """The first `limit` disagreements, after their counts by family, kind
    and direction."""

    def word(v):
        return "derived" if v is True else "not derived" if v is False else "other"

    counts = {}
    for d in found:
        key = (d.family, d.kind, word(d.left), word(d.right))
        counts[key] = counts.get(key, 0) + 1
    lines = [f"{len(found)} disagreement(s) between {left_name} and {right_name}"]
    lines += [
        f"  {n} {family} {kind} texts: {left_name} {a}, {right_name} {b}"
        for (family, kind, a, b), n in counts.items()
    ]
    # The shortest texts of each group first, the groups in turn.
    groups = {}
    for d in found:
        groups.setdefault((d.family, d.kind, word(d.left), word(d.right)), []).append(d)
    queues = [sorted(g, key=lambda d: (len(d.text), d.text)) for g in groups.values()]
    shown = []
    while len(shown) < limit and any(queues):
        for q in queues:
            if q and len(shown) < limit:
                shown.append(q.pop(0))
    lines.append(f"{len(shown)} of them, the shortest of each group first:")
    lines += [d.describe(left_name, right_name) for d in shown]
    if len(found) > limit:
        lines.append(f"  ... and {len(found) - limit} more")
    return "\n".join(lines)


# ---- Verdict sources -----------------------------------------------------


def _init_worker():
    ga.load_all()


def _kit_verdicts(job):
    family, kind, texts = job
    if str(KIT_DIR) not in sys.path:
        sys.path.insert(0, str(KIT_DIR))
    import seams_notation  # noqa: PLC0415 (optional module, imported on demand)

    read = seams_notation.read_action if kind == "action" else seams_notation.read_position
    out = []
    for text in texts:
        try:
            out.append(read(family, text) is not None)
        except Exception as exc:  # noqa: BLE001 (a crash is a verdict to show)
            out.append(f"raised {type(exc).__name__}: {exc}")
    return out


def _chunks(family, kind, texts, size=CHUNK):
    return [(family, kind, texts[i : i + size]) for i in range(0, len(texts), size)]


def make_pool(workers: int | None = None):
    """A pool of processes that have the grammars loaded. Fork where the
    platform has it (the grammars are then loaded once, here)."""

    workers = workers or int(os.environ.get("SEAMS_GRAMMAR_WORKERS", "2"))
    ga.load_all()
    methods = multiprocessing.get_all_start_methods()
    ctx = multiprocessing.get_context("fork" if "fork" in methods else None)
    return ctx.Pool(workers, initializer=_init_worker)


class PoolVerdicts:
    """Verdicts computed by pool workers: `submit` returns at once; `get`
    waits for the lists, one per (family, kind)."""

    def __init__(self, pool, function=ga.verdicts, rules=None):
        self.pool = pool
        self.function = function
        self.rules = rules or {"action": "action", "position": "position"}
        self.pending = {}

    def submit(self, family, kind, texts):
        jobs = _chunks(family, self.rules[kind], texts)
        self.pending[(family, kind)] = self.pool.map_async(self.function, jobs, chunksize=1)

    def get(self, family, kind):
        parts = self.pending.pop((family, kind)).get()
        return [v for part in parts for v in part]


def kit_available() -> bool:
    return KIT_MODULE.exists()


# ---- The run -----------------------------------------------------------


@dataclass
class Result:
    corpora: dict = field(default_factory=dict)  # family -> Corpus
    grammar: dict = field(default_factory=dict)  # (family, kind) -> verdicts
    reference: dict = field(default_factory=dict)  # (family, kind) -> verdicts
    starts: dict = field(default_factory=dict)  # (family, kind) -> first variant index
    found: list = field(default_factory=list)  # Disagreement, abnf vs engine
    underived: list = field(default_factory=list)  # derivations abnf refuses
    times: dict = field(default_factory=dict)
    engine_requests: int = 0

    def cases(self, family, kind):
        texts = self.corpora[family].texts[kind]
        return texts, ga.VARIANTS[family], self.starts[(family, kind)]

    def summary(self) -> str:
        lines = [
            f"grammar files in {ga.spec_dir()}: "
            + ", ".join(f"{f} {ga.fingerprint(f)}" for f in self.corpora),
            f"abnf {ga.BACKEND} backend; texts per family: "
            f"{sum(len(c) for c in self.corpora.values()) // max(1, len(self.corpora))} "
            f"on average, {sum(len(c) for c in self.corpora.values())} in all; "
            f"{self.engine_requests} engine requests"
        ]
        head = (
            f"  {'family':6} {'kind':8} {'texts':>7} {'derived':>8} {'engine':>7} "
            f"{'docs':>5} {'near-miss':>9} | {'abnf: derived':>13} {'not':>6} | "
            f"{'engine: syntax':>14} {'other':>6} | {'disagree':>8}"
        )
        lines.append(head)
        for family, corpus in self.corpora.items():
            for kind in KINDS:
                origins = list(corpus.origin[kind].values())
                g = self.grammar.get((family, kind), [])
                r = self.reference.get((family, kind), [])
                lines.append(
                    f"  {family:6} {kind:8} {len(origins):7d} "
                    f"{origins.count('derived') + origins.count('game-action'):8d} "
                    f"{origins.count('engine'):7d} {origins.count('docs'):5d} "
                    f"{origins.count('near-miss'):9d} | "
                    f"{sum(v is True for v in g):13d} {sum(v is False for v in g):6d} | "
                    f"{sum(v is False for v in r):14d} {sum(v is True for v in r):6d} | "
                    f"{sum(1 for d in self.found if d.family == family and d.kind == kind):8d}"
                )
        lines.append(
            "  times: " + ", ".join(f"{k} {v:.1f} s" for k, v in self.times.items())
        )
        return "\n".join(lines)


def texts_per_family() -> int:
    return int(os.environ.get("SEAMS_GRAMMAR_TEXTS", "100000"))


def run(
    total=None,
    seed=20260501,
    engine=None,
    pool=None,
    grammar_source=None,
    reference_source=None,
    families=ga.FAMILIES,
    play=True,
) -> Result:
    """Builds the corpora and compares the two verdict sources on them.

    `grammar_source(family, kind, texts) -> verdicts` and
    `reference_source(family, kind, texts, variants, start) -> verdicts`
    default to the `abnf` package (in `pool`) and the engine. With
    `play=False` no random games are played for real texts (and no engine
    is needed when `reference_source` is given)."""

    total = texts_per_family() if total is None else total
    result = Result()
    t0 = time.perf_counter()
    own_pool = pool is None and grammar_source is None
    if own_pool:
        pool = make_pool()
    own_engine = engine is None and (play or reference_source is None)
    if own_engine:
        engine = ge.Engine()
    try:
        rng = random.Random(seed)
        if play:
            real = gc.random_play(engine, random.Random(seed + 1))
        else:
            real = {f: ((), ()) for f in ga.VARIANTS}
        docs = gc.harvest()
        result.times["random play"] = time.perf_counter() - t0
        t1 = time.perf_counter()
        for k, family in enumerate(families):
            trees = ga.family_trees(family)
            result.corpora[family] = gc.build_corpus(
                family,
                trees,
                random.Random(rng.randrange(1 << 30) + k),
                total,
                real=real[family],
                docs=docs[family],
            )
        result.times["corpus"] = time.perf_counter() - t1

        t2 = time.perf_counter()
        pool_verdicts = PoolVerdicts(pool) if grammar_source is None else None
        if pool_verdicts is not None:
            for family, corpus in result.corpora.items():
                for kind in KINDS:
                    pool_verdicts.submit(family, kind, corpus.texts[kind])
        # The engine works meanwhile, from this process.
        for family, corpus in result.corpora.items():
            start = 0
            for kind in KINDS:
                texts = corpus.texts[kind]
                result.starts[(family, kind)] = start
                if reference_source is None:
                    verdicts = ge.engine_verdicts(
                        engine, family, kind, texts, ga.VARIANTS[family], start
                    )
                else:
                    verdicts = reference_source(family, kind, texts, ga.VARIANTS[family], start)
                result.reference[(family, kind)] = verdicts
                start += len(texts)
        result.times["engine"] = time.perf_counter() - t2
        for family, corpus in result.corpora.items():
            for kind in KINDS:
                if pool_verdicts is not None:
                    result.grammar[(family, kind)] = pool_verdicts.get(family, kind)
                else:
                    result.grammar[(family, kind)] = grammar_source(
                        family, kind, corpus.texts[kind]
                    )
        result.times["abnf (after the engine)"] = time.perf_counter() - t2
        result.engine_requests = engine.requests if engine is not None else 0
    finally:
        if own_engine:
            engine.close()
        if own_pool:
            pool.close()
            pool.join()

    for family, corpus in result.corpora.items():
        for kind in KINDS:
            texts, variants, start = result.cases(family, kind)
            g = result.grammar[(family, kind)]
            result.found += disagreements(
                family, kind, texts, variants, g, result.reference[(family, kind)], start
            )
            origins = corpus.origin[kind]
            result.underived += [
                (family, kind, t) for t, v in zip(texts, g) if origins[t] == "derived" and v is not True
            ]
    result.times["all"] = time.perf_counter() - t0
    return result


def kit_verdicts(result: Result, pool=None):
    """seams_notation's verdicts on every text of a run: {(family, kind):
    verdicts}, computed in a pool."""

    own_pool = pool is None
    if own_pool:
        pool = make_pool()
    try:
        source = PoolVerdicts(pool, function=_kit_verdicts, rules={k: k for k in KINDS})
        for family, corpus in result.corpora.items():
            for kind in KINDS:
                source.submit(family, kind, corpus.texts[kind])
        return {
            (family, kind): source.get(family, kind)
            for family in result.corpora
            for kind in KINDS
        }
    finally:
        if own_pool:
            pool.close()
            pool.join()


def python_backend_verdicts(jobs: list) -> list:
    """The pure-Python backend's verdicts for (family, rule, texts) jobs,
    from a child process run with ABNF_NO_RUST=1."""

    import json  # noqa: PLC0415
    import subprocess  # noqa: PLC0415

    here = str(pathlib.Path(__file__).resolve().parent)
    code = (
        "import json, sys; sys.path.insert(0, %r); import grammar_abnf as g; "
        "assert g.BACKEND == 'python', g.BACKEND; "
        "print(json.dumps([g.verdicts(tuple(j)) for j in json.load(sys.stdin)]))" % here
    )
    env = dict(os.environ, ABNF_NO_RUST="1")
    out = subprocess.run(
        [sys.executable, "-c", code],
        input=json.dumps(jobs),
        capture_output=True,
        text=True,
        env=env,
        check=True,
    )
    return json.loads(out.stdout)
