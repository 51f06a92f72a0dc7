"""The texts checked: derivations of the grammars, real texts, near-misses.

For each family, `build_corpus` makes a list of distinct action texts and a
list of distinct position texts from

- random derivations of the entry rules, by walking the grammar (`Deriver`;
  cell rules lean to small numbers, files a to i and the charts I and II,
  so that many derivations name real cells);
- real texts: the legal actions and positions of random games played
  through the protocol (`random_play`), and the actions and positions in
  the conformance cases, the protocol document and the rules documents
  (`harvest`);
- near-misses of those (`mutate`): a character changed, dropped or added,
  the case of a letter changed, a mark (^ v + =) added, whitespace added at
  the start, the end or inside, two texts joined, and for positions a field
  dropped, doubled or swapped.

Everything is drawn from one `random.Random(seed)`, so a run is
reproducible: the same seed, grammar files and engine give the same texts.
"""

from __future__ import annotations

import json
import random
import re

from grammar_abnf import FAMILY_OF, REPO, VARIANTS

# ---- Random derivations --------------------------------------------------


class Deriver:
    """Random derivations of a grammar's rules (trees from
    grammar_abnf.rule_trees)."""

    #: Rules whose derivations lean to realistic values most of the time;
    #: the rest of the time they are derived like any other rule.
    def __init__(self, trees: dict[str, tuple], rng: random.Random):
        self.trees = trees
        self.rng = rng
        self.leans = {
            "file": (0.8, lambda: rng.choice("abcdefghi")),
            "positive": (0.75, self._small_number),
            "chart": (0.7, lambda: rng.choice(["I", "II", "I", "II", "III", "A"])),
        }

    def _small_number(self) -> str:
        r = self.rng.random()
        if r < 0.7:
            return str(self.rng.randint(1, 9))
        if r < 0.95:
            return str(self.rng.randint(10, 19))
        return str(self.rng.randint(20, 120))

    def derive(self, rule: str) -> str:
        return self._gen(("ref", rule.lower()), 0)

    def _count(self, lo: int, hi: int | None) -> int:
        if hi is not None:
            return self.rng.randint(lo, hi)
        n = lo
        while n < lo + 10 and self.rng.random() < 0.55:
            n += 1
        return n

    def _gen(self, node, depth: int) -> str:
        kind = node[0]
        rng = self.rng
        if kind == "lit":
            text, case_sensitive = node[1], node[2]
            if case_sensitive:
                return text
            # A quoted string derives every case of its letters.
            return "".join(c.swapcase() if c.isalpha() and rng.random() < 0.5 else c for c in text)
        if kind == "range":
            lo, hi = node[1], node[2]
            return chr(rng.randint(lo, hi))
        if kind == "alt":
            return self._gen(rng.choice(node[1]), depth + 1)
        if kind == "cat":
            return "".join(self._gen(n, depth + 1) for n in node[1])
        if kind == "rep":
            lo, hi, inner = node[1], node[2], node[3]
            n = lo if depth > 60 else self._count(lo, hi)
            return "".join(self._gen(inner, depth + 1) for _ in range(n))
        if kind == "ref":
            name = node[1]
            lean = self.leans.get(name)
            if lean is not None and rng.random() < lean[0]:
                return lean[1]()
            if depth > 200:
                raise RecursionError(f"derivation too deep at rule {name}")
            return self._gen(self.trees[name], depth + 1)
        raise ValueError(kind)


# ---- Near-misses -------------------------------------------------------

#: Characters put into texts: the notations' own, their neighbours, and a
#: few that look like them (dashes, a minus sign, a no-break space, a
#: full-width plus, letters whose Unicode case folding is ASCII).
NOISE = (
    "abcdefghijklmnopqrstuvwxyz"
    "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
    "0123456789"
    "-x*+=^v.:|/[]"
    "-x*+=^v.:|/[]"
    "0123456789"
    " \t_,;!?#@'\"\\()<>~`%&$"
    "\u2013\u2014\u2212\u2010\u00a0\uff0b\u017f\u212a\u0130\u00e9\u00bd\u2070"
)
MARKS = "^v+="
SPACES = [" ", " ", " ", "\t", "\t", "  ", "\n", "\r", "\r\n", "\u00a0", "\x0b"]


def mutate(rng: random.Random, text: str, others: list[str], position: bool) -> str:
    """One near-miss of `text` (`others`: texts of the same kind, to join)."""

    n = len(text)
    op = rng.randrange(12 if position else 9)
    i = rng.randint(0, n)
    if op == 0 and n:  # change a character
        i = rng.randrange(n)
        return text[:i] + rng.choice(NOISE) + text[i + 1 :]
    if op == 1 and n:  # drop a character
        i = rng.randrange(n)
        return text[:i] + text[i + 1 :]
    if op == 2:  # add a character
        return text[:i] + rng.choice(NOISE) + text[i:]
    if op == 3:  # change the case of a letter
        letters = [k for k, c in enumerate(text) if c.isalpha()]
        if letters:
            k = rng.choice(letters)
            return text[:k] + text[k].swapcase() + text[k + 1 :]
        return text.upper() if rng.random() < 0.5 else text + "A"
    if op == 4:  # add a mark, most often at the end
        mark = rng.choice(MARKS)
        if rng.random() < 0.5:
            return text + mark
        return text[:i] + mark + text[i:]
    if op == 5:  # two marks
        return text + rng.choice(MARKS) + rng.choice(MARKS)
    if op == 6:  # whitespace at the start, the end or inside
        space = rng.choice(SPACES)
        where = rng.random()
        if where < 0.3:
            return space + text
        if where < 0.6:
            return text + space
        return text[:i] + space + text[i:]
    if op == 7:  # two texts joined
        other = rng.choice(others) if others else text
        glue = rng.choice(["", "", "", "-", " ", "|", "/"])
        return text + glue + other
    if op == 8:  # cut short or extended
        if n and rng.random() < 0.5:
            return text[: rng.randrange(n)]
        return text + rng.choice(["-", "x", ".", ":", "*", "1", "0", "e", "I"])
    fields = text.split(" ")
    if op == 9 and len(fields) > 1:  # drop a field
        del fields[rng.randrange(len(fields))]
        return " ".join(fields)
    if op == 10:  # double a field
        k = rng.randrange(len(fields))
        fields.insert(k, fields[k])
        return " ".join(fields)
    if len(fields) > 1:  # swap two fields
        a, b = rng.sample(range(len(fields)), 2)
        fields[a], fields[b] = fields[b], fields[a]
        return " ".join(fields)
    return text + " " + text


# ---- Real texts ----------------------------------------------------------


def random_play(engine, rng: random.Random, games: int = 3, plies: int = 40):
    """Random games of every variant, through the protocol. Returns
    {family: (actions, positions)}: the legal actions of every position
    reached, and the position texts (from `apply`)."""

    out = {f: ([], []) for f in VARIANTS}
    live = []  # [variant, position text or None]
    for family, variants in VARIANTS.items():
        for variant in variants:
            for _ in range(games):
                live.append([variant, None])
    for _ply in range(plies):
        if not live:
            break
        reqs = []
        for variant, position in live:
            req = {"cmd": "legal_actions", "variant": variant}
            if position is not None:
                req["position"] = position
            reqs.append(req)
        replies = engine.request_many(reqs)
        moves = []
        still = []
        for game, reply in zip(live, replies):
            actions = reply.get("actions")
            if not actions:
                continue
            actions = sorted(actions)
            out[FAMILY_OF[game[0]]][0].extend(actions)
            moves.append(rng.choice(actions))
            still.append(game)
        live = still
        reqs = []
        for (variant, position), move in zip(live, moves):
            req = {"cmd": "apply", "variant": variant, "moves": [move]}
            if position is not None:
                req["position"] = position
            reqs.append(req)
        replies = engine.request_many(reqs)
        still = []
        for game, reply in zip(live, replies):
            if "position" in reply:
                game[1] = reply["position"]
                out[FAMILY_OF[game[0]]][1].append(game[1])
                still.append(game)
        live = still
    return out


_CODE_SPAN = re.compile(r"`([^`\n]+)`")


def _walk_case(node, family, out):
    if isinstance(node, dict):
        family = FAMILY_OF.get(node.get("variant"), family)
        for key, value in node.items():
            if family is not None:
                actions, positions = out[family]
                if key in ("action", "actions", "moves", "expect") and isinstance(value, (str, list)):
                    items = [value] if isinstance(value, str) else value
                    if key != "expect" or isinstance(value, list):
                        actions.extend(v for v in items if isinstance(v, str))
                if key == "position" and isinstance(value, str):
                    positions.append(value)
                if key == "divide" and isinstance(value, dict):
                    actions.extend(value)
            _walk_case(value, family, out)
    elif isinstance(node, list):
        for item in node:
            _walk_case(item, family, out)


def harvest():
    """Texts written in the repository: {family: (actions, positions)}.

    From conformance/cases (actions, moves, legal-action lists, divides,
    positions), the requests of conformance/PROTOCOL.md, and every code
    span of spec/<family>/rules.md and spec/notation/rules.md (each tried
    both as an action and as a position)."""

    out = {f: ([], []) for f in VARIANTS}
    for path in sorted((REPO / "conformance/cases").rglob("*.json")):
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except (ValueError, UnicodeDecodeError):
            continue
        _walk_case(data, None, out)
    protocol = REPO / "conformance/PROTOCOL.md"
    if protocol.exists():
        for line in protocol.read_text(encoding="utf-8").splitlines():
            if line.startswith("\u2192 {"):
                try:
                    _walk_case(json.loads(line[2:]), None, out)
                except ValueError:
                    pass
    for family in VARIANTS:
        for path in (REPO / f"spec/{family}/rules.md", REPO / "spec/notation/rules.md"):
            if path.exists():
                spans = _CODE_SPAN.findall(path.read_text(encoding="utf-8"))
                out[family][0].extend(spans)
                out[family][1].extend(spans)
    return out


# ---- The corpus ----------------------------------------------------------

ACTION_SHARE = 0.8


class Corpus:
    """A family's texts: `texts[kind]` lists distinct texts, and
    `origin[kind][text]` says where each came from: 'derived' (a random
    derivation of the entry rule), 'game-action' (a derivation of
    game-action), 'engine', 'docs' or 'near-miss'."""

    def __init__(self, family: str):
        self.family = family
        self.origin = {"action": {}, "position": {}}

    @property
    def texts(self):
        return {kind: list(d) for kind, d in self.origin.items()}

    def add(self, kind: str, text: str, origin: str) -> bool:
        d = self.origin[kind]
        if text in d:
            return False
        # Lone surrogates cannot be sent as UTF-8; nothing makes them, but
        # keep the corpus sendable whatever the noise alphabet holds.
        try:
            text.encode("utf-8")
        except UnicodeEncodeError:
            return False
        d[text] = origin
        return True

    def __len__(self):
        return sum(len(d) for d in self.origin.values())


def build_corpus(family, trees, rng, total, real=((), ()), docs=((), ())) -> Corpus:
    """About `total` distinct texts (ACTION_SHARE of them actions)."""

    corpus = Corpus(family)
    deriver = Deriver(trees, rng)
    quota = {"action": round(total * ACTION_SHARE)}
    quota["position"] = total - quota["action"]
    real_texts = {"action": list(real[0]), "position": list(real[1])}
    doc_texts = {"action": list(docs[0]), "position": list(docs[1])}
    for kind in ("action", "position"):
        want = quota[kind]
        for text in doc_texts[kind]:
            if len(corpus.origin[kind]) >= want:
                break
            corpus.add(kind, text, "docs")
        # Real texts: at most a third of the quota.
        for text in real_texts[kind]:
            if len(corpus.origin[kind]) >= want // 3:
                break
            corpus.add(kind, text, "engine")
        # Derivations: a quarter of the quota (the entry rule), and a few
        # of game-action among the actions.
        target = len(corpus.origin[kind]) + want // 4
        tries = 0
        while len(corpus.origin[kind]) < min(target, want) and tries < 20 * want:
            tries += 1
            corpus.add(kind, deriver.derive(kind), "derived")
        if kind == "action":
            for _ in range(max(10, want // 100)):
                corpus.add(kind, deriver.derive("game-action"), "game-action")
            for text in ("resign", "draw", "Resign", "DRAW", "resign ", "pass", ""):
                corpus.add(kind, text, "docs")
        # Near-misses of everything so far (and of each other), until the
        # quota is met.
        base = list(corpus.origin[kind])
        tries = 0
        while len(corpus.origin[kind]) < want and tries < 50 * want:
            tries += 1
            text = rng.choice(base)
            for _ in range(1 if rng.random() < 0.8 else 2):
                text = mutate(rng, text, base, kind == "position")
            if corpus.add(kind, text, "near-miss") and rng.random() < 0.1:
                base.append(text)
    return corpus
