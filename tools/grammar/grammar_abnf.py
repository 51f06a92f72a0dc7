"""The four notation grammars, loaded with the `abnf` package (PyPI).

Each family's grammar is `spec/<family>/notation.abnf` read together with
`spec/notation/cells.abnf` (the two files concatenated). `verdict(family,
rule, text)` says whether the entry rule `rule` derives `text`, by
`parse_all`, which succeeds or raises `ParseError`.

Two facts about the package that matter here:

- RFC 5234 limits a comment to `WSP / VCHAR` (VCHAR = %x21-7E), and the
  package holds to that: it refuses a rule list whose comments contain a
  non-ASCII character. The shipped grammars are ASCII throughout (a
  non-ASCII character is written as a %x value in a rule, and spelled out
  in a comment); `grammar_text` checks that and names the place of any
  such character.
- A quoted string ignores case; `%s"..."` (RFC 7405) does not. The package
  implements both (`Literal(value, case_sensitive)`); the self-tests check
  it on texts such as `p*e5` and `o-o`.

The package parses with a pure-Python backend, or with the compiled one of
the `abnf-rust` distribution when that is installed (`pip install
abnf-rust`, the package's `rust` extra); `BACKEND` says which. Both give the
same verdicts (the test `test_backends_agree` checks a sample); the Rust one
is about twenty times faster, which the full check needs.
"""

from __future__ import annotations

import hashlib
import os
import pathlib

import abnf.parser as _abnf_parser
from abnf import ParseError, Rule
from abnf.parser import ABNFGrammarRule

REPO = pathlib.Path(__file__).resolve().parents[2]
CELLS = "spec/notation/cells.abnf"
FAMILIES = ("shogi", "chess", "kyoto", "tetra")
ENTRY_RULES = ("action", "game-action", "position")

#: The variants of each family that the engine is asked about, in turn.
VARIANTS = {
    "shogi": ["shogi-flat", "shogi-mobius", "shogi-klein", "shogi-genus2"],
    "chess": ["chess-flat", "chess-mobius", "chess-klein", "chess-genus2"],
    "kyoto": ["kyoto", "kyoto-repetition-loss"],
    "tetra": ["tetra-shogi", "tetra-hexgi"],
}
FAMILY_OF = {v: f for f, vs in VARIANTS.items() for v in vs}

#: "python" or "rust": the package's parsing backend.
BACKEND = getattr(_abnf_parser, "_BACKEND", "python")



def spec_dir() -> pathlib.Path:
    """Where the grammar files are read: `SEAMS_GRAMMAR_SPEC` (a folder laid
    out like spec/: <family>/notation.abnf and notation/cells.abnf), by
    default the repository's spec/. The engine matches texts against the
    grammar built into it, so checking a binary built from other grammar
    files needs those files here."""

    override = os.environ.get("SEAMS_GRAMMAR_SPEC")
    return pathlib.Path(override).resolve() if override else REPO / "spec"


def family_file(family: str) -> str:
    return f"spec/{family}/notation.abnf"


def _read(path: str) -> str:
    """A grammar file, `path` as named in the repository (spec/...)."""

    return (spec_dir() / path.removeprefix("spec/")).read_text(encoding="utf-8")


def fingerprint(family: str) -> str:
    """A short hash of the family's two grammar files, as read."""

    digest = hashlib.sha256()
    for path in (family_file(family), CELLS):
        digest.update(_read(path).encode("utf-8"))
    return digest.hexdigest()[:12]


def _comment_start(line: str) -> int | None:
    """Index of the ';' that starts the line's comment, if any: the first
    ';' outside a quoted string and outside a prose value."""

    quote = False
    prose = False
    for i, ch in enumerate(line):
        if quote:
            quote = ch != '"'
        elif prose:
            prose = ch != ">"
        elif ch == '"':
            quote = True
        elif ch == "<":
            prose = True
        elif ch == ";":
            return i
    return None


def ascii_comments(path: str, text: str) -> str:
    """`text` itself, after checking it is ASCII throughout.

    RFC 5234 allows only ASCII in a rule list, comments included, and the
    shipped grammars hold to that; a non-ASCII character anywhere is an
    error naming the file, line and character."""

    for number, line in enumerate(text.split("\n"), start=1):
        if not line.isascii():
            bad = next(c for c in line if not c.isascii())
            where = "inside a comment" if _comment_start(line) is not None and \
                line.index(bad) > _comment_start(line) else "outside a comment"
            raise ValueError(
                f"{path}:{number}: non-ASCII character {bad!r} (U+{ord(bad):04X}) {where}; "
                "RFC 5234 rule lists are ASCII"
            )
    return text


def grammar_text(family: str) -> str:
    """The family file and the cells file, concatenated, checked to be
    ASCII."""

    parts = []
    for path in (family_file(family), CELLS):
        raw = _read(path)
        parts.append(ascii_comments(path, raw))
    return "\n".join(parts)


class ShogiGrammar(Rule):
    """spec/shogi/notation.abnf + spec/notation/cells.abnf"""


class ChessGrammar(Rule):
    """spec/chess/notation.abnf + spec/notation/cells.abnf"""


class KyotoGrammar(Rule):
    """spec/kyoto/notation.abnf + spec/notation/cells.abnf"""


class TetraGrammar(Rule):
    """spec/tetra/notation.abnf + spec/notation/cells.abnf"""


GRAMMARS: dict[str, type[Rule]] = {
    "shogi": ShogiGrammar,
    "chess": ChessGrammar,
    "kyoto": KyotoGrammar,
    "tetra": TetraGrammar,
}
_loaded: set[str] = set()


def load(family: str) -> type[Rule]:
    """The family's grammar class, loaded on first use."""

    cls = GRAMMARS[family]
    if family not in _loaded:
        cls.load_grammar(grammar_text(family))
        for rule in ENTRY_RULES:
            if cls.get(rule) is None:
                raise ValueError(f"{family_file(family)} has no rule '{rule}'")
        _loaded.add(family)
    return cls


def load_all() -> None:
    for family in FAMILIES:
        load(family)


def verdict(family: str, rule: str, text: str) -> bool:
    """Whether `rule` of the family's grammar derives exactly `text`."""

    try:
        load(family)(rule).parse_all(text)
    except ParseError:
        return False
    return True


def verdicts(job: tuple[str, str, list[str]]) -> list[bool]:
    """`verdict` for each text of a (family, rule, texts) job (the unit of
    work handed to pool workers)."""

    family, rule, texts = job
    parser = load(family)(rule)
    out = []
    for text in texts:
        try:
            parser.parse_all(text)
        except ParseError:
            out.append(False)
        else:
            out.append(True)
    return out


# ---- The grammar as a tree, for generating derivations -----------------
#
# The parser combinators of the Rust backend do not expose their parts, so
# the generator reads the rule list itself: the `abnf` package parses the
# grammar text by its own ABNF-of-ABNF rule `rulelist`, and the parse tree
# is turned into small tuples:
#   ("alt", [n...]), ("cat", [n...]), ("rep", min, max|None, n),
#   ("lit", text, case_sensitive), ("range", lo, hi), ("ref", name)

CORE_RULES = """\
ALPHA = %x41-5A / %x61-7A
BIT = "0" / "1"
CHAR = %x01-7F
CR = %x0D
CRLF = CR LF
CTL = %x00-1F / %x7F
DIGIT = %x30-39
DQUOTE = %x22
HEXDIG = DIGIT / "A" / "B" / "C" / "D" / "E" / "F"
HTAB = %x09
LF = %x0A
OCTET = %x00-FF
SP = %x20
VCHAR = %x21-7E
WSP = SP / HTAB
"""


def _num_val(value: str):
    base = {"x": 16, "d": 10, "b": 2}[value[1].lower()]
    body = value[2:]
    if "-" in body:
        lo, hi = body.split("-")
        return ("range", int(lo, base), int(hi, base))
    return ("lit", "".join(chr(int(p, base)) for p in body.split(".")), True)


def _tree(node):
    name = node.name
    kids = [c for c in node.children if c.name not in ("c-wsp", "literal")]
    if name == "alternation":
        alts = [_tree(c) for c in kids if c.name == "concatenation"]
        return alts[0] if len(alts) == 1 else ("alt", alts)
    if name == "concatenation":
        parts = [_tree(c) for c in kids if c.name == "repetition"]
        return parts[0] if len(parts) == 1 else ("cat", parts)
    if name == "repetition":
        if node.children[0].name == "repeat":
            spec = node.children[0].value
            if "*" in spec:
                lo, hi = spec.split("*")
                lo = int(lo) if lo else 0
                hi = int(hi) if hi else None
            else:
                lo = hi = int(spec)
            return ("rep", lo, hi, _tree(node.children[1]))
        return _tree(node.children[0])
    if name == "element":
        return _tree(node.children[0])
    if name == "rulename":
        return ("ref", node.value.lower())
    if name == "group":
        return _tree(next(c for c in kids if c.name == "alternation"))
    if name == "option":
        return ("rep", 0, 1, _tree(next(c for c in kids if c.name == "alternation")))
    if name == "char-val":
        inner = node.children[0]
        quoted = next(c for c in inner.children if c.name == "quoted-string")
        return ("lit", quoted.value[1:-1], inner.name == "case-sensitive-string")
    if name == "num-val":
        return _num_val(node.value)
    raise ValueError(f"cannot generate from ABNF element {name}: {node.value!r}")


def rule_trees(text: str) -> dict[str, tuple]:
    """The rules of an ABNF rule list (plus the RFC 5234 core rules) as
    generator trees, by lower-case name. '=/' adds an alternative."""

    rules: dict[str, tuple] = {}
    for source in (CORE_RULES, text):
        src = source.rstrip().replace("\r", "").replace("\n", "\r\n") + "\r\n"
        tree = ABNFGrammarRule("rulelist").parse_all(src)
        for rule in tree.children:
            if rule.name != "rule":
                continue
            name = next(c for c in rule.children if c.name == "rulename").value.lower()
            defined = next(c for c in rule.children if c.name == "defined-as")
            elements = next(c for c in rule.children if c.name == "elements")
            body = _tree(next(c for c in elements.children if c.name == "alternation"))
            if "=/" in "".join(c.value for c in defined.children if c.name == "literal"):
                rules[name] = ("alt", [rules[name], body])
            else:
                rules[name] = body
    return rules


def family_trees(family: str) -> dict[str, tuple]:
    return rule_trees(grammar_text(family))
