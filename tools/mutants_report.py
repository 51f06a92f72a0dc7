#!/usr/bin/env python3
"""Fold cargo-mutants results into the records conformance/MUTANTS.md cites.

Usage:
  tools/mutants_report.py record OUT_DIR SHARD COMMIT > conformance/mutants/SHARD.tsv
      turn one run of tools/mutants.sh (its OUT_DIR/mutants.out) into a
      record: one line per mutant, "outcome<TAB>mutant", outcome being
      caught, missed, timeout or unviable, headed by the shard and the
      commit the run was made at
  tools/mutants_report.py table [--survivors TSV] RECORD...
      the per-file table and the list of missed mutants over the given
      records, as Markdown. With --survivors (conformance/mutants/
      survivors.tsv), a survivor a later case kills counts as caught, and
      one the file explains otherwise (reference-only code, an equivalent
      mutant, removed code) is counted in its own column and left out of
      the corpus score; the score is caught / (caught + missed). Entries of
      the file that explain no recorded survivor are listed last

The records are kept in the repository so a full run can be made over
several sittings: each sitting adds the shards it ran. A record's line
numbers are those of its commit.

Standard library only. Exit status 2 on bad input, with the reason.
"""

import collections
import pathlib
import re
import sys

OUTCOMES = ("caught", "missed", "timeout", "unviable")


def fail(message):
    print(f"mutants_report.py: {message}", file=sys.stderr)
    sys.exit(2)


def record(out_dir, shard, commit):
    results = pathlib.Path(out_dir) / "mutants.out"
    if not results.is_dir():
        fail(f"{results} is not a directory: give the --out of a run")
    lines = [f"# shard {shard} at {commit}"]
    for outcome in OUTCOMES:
        path = results / f"{outcome}.txt"
        if not path.is_file():
            fail(f"{path} is missing: is {out_dir} the --out of a cargo-mutants run?")
        for mutant in path.read_text().splitlines():
            if mutant.strip():
                lines.append(f"{outcome}\t{mutant}")
    print("\n".join(lines))


def read_records(paths):
    rows = []
    for name in paths:
        path = pathlib.Path(name)
        try:
            text = path.read_text()
        except OSError as err:
            fail(f"cannot read {path}: {err.strerror}")
        for number, line in enumerate(text.splitlines(), 1):
            if not line.strip() or line.startswith("#"):
                continue
            outcome, sep, mutant = line.partition("\t")
            if not sep or outcome not in OUTCOMES:
                fail(f"{path}:{number}: expected 'outcome<TAB>mutant', got {line!r}")
            rows.append((outcome, mutant))
    return rows


def lookup(mutant, listed):
    """The key of the survivors list's entry for a mutant, or None.

    The list names a function (every mutant in it), or one mutant by its
    description, with its `line:column: ` in front where the description
    alone is ambiguous. The first key listed wins."""
    return next((key for key in keys(mutant) if key in listed), None)


def keys(mutant):
    """The (file, what) keys a survivors list may name a mutant by, in the
    order they are tried: its function, its description, both with its
    position."""
    file, _, rest = mutant.partition(":")
    description = rest.split(": ", 1)[-1]
    return [(file, what) for what in (function_of(mutant), description, rest)]


def function_of(mutant):
    """The function a mutant's name places it in, or None (a constant)."""
    text = mutant.split(": ", 1)[-1]
    if " in " in text:
        return text.rsplit(" in ", 1)[1]
    found = re.match(r"replace (.+?)( -> .*)? with ", text)
    return found.group(1) if found else None


KINDS = ("killed", "reference", "equivalent", "removed")


def read_listed(name):
    listed = {}
    try:
        text = pathlib.Path(name).read_text()
    except OSError as err:
        fail(f"cannot read {name}: {err.strerror}")
    for number, line in enumerate(text.splitlines(), 1):
        if not line.strip() or line.startswith("#"):
            continue
        fields = line.split("\t")
        if len(fields) != 4 or not all(f.strip() for f in fields) or fields[2] not in KINDS:
            fail(
                f"{name}:{number}: expected 'file<TAB>function<TAB>killed|reference|equivalent|removed<TAB>why', "
                f"got {line!r}"
            )
        listed[(fields[0], fields[1])] = (fields[2], fields[3])
    return listed


def table(args):
    listed = {}
    if args and args[0] == "--survivors":
        if len(args) < 3:
            fail("usage: table [--survivors TSV] RECORD...")
        listed = read_listed(args[1])
        args = args[2:]
    rows = read_records(args)
    per_file = collections.defaultdict(collections.Counter)
    unexplained = []
    explained = []
    used = set()
    for outcome, mutant in rows:
        file = mutant.split(":", 1)[0]
        # Only a survivor needs a reason; a listed mutant the corpus
        # catches anyway counts as caught.
        if outcome == "missed":
            key = lookup(mutant, listed)
            if key:
                used.add(key)
                explained.append((mutant, *listed[key]))
                outcome = listed[key][0]
            else:
                unexplained.append(mutant)
        per_file[file][outcome] += 1
    total = collections.Counter()
    print(
        "| file | caught | timeout | killed since | missed | unviable | reference only "
        "| equivalent | removed | corpus score |"
    )
    print("|---|---|---|---|---|---|---|---|---|---|")
    for file in sorted(per_file):
        counts = per_file[file]
        total.update(counts)
        print(f"| `{file}` | {row(counts)} |")
    print(f"| **all** | {row(total)} |")
    print()
    print("Missed, with no reason listed:")
    print()
    for mutant in sorted(unexplained):
        print(f"- `{mutant}`")
    print()
    print("Missed, with a reason listed:")
    print()
    for mutant, kind, why in sorted(explained):
        print(f"- {kind}: `{mutant}` — {why}")
    # The list says what became of recorded survivors, nothing more: an
    # entry that explains none is a guess, is stale, or is shadowed by an
    # earlier key of the same survivor.
    print()
    print("Listed, explaining no survivor:")
    print()
    for file, what in sorted(set(listed) - used):
        print(f"- `{file}`: `{what}`")


def row(counts):
    # A timeout is a caught mutant: an engine that hangs fails its run. A
    # survivor a later case kills counts as caught; reference-only,
    # equivalent and removed survivors are outside the corpus's reach.
    caught = counts["caught"] + counts["timeout"] + counts["killed"]
    viable = caught + counts["missed"]
    score = f"{100 * caught / viable:.1f} %" if viable else "—"
    return (
        f"{counts['caught']} | {counts['timeout']} | {counts['killed']} | {counts['missed']} "
        f"| {counts['unviable']} | {counts['reference']} | {counts['equivalent']} "
        f"| {counts['removed']} | {score}"
    )


def main(argv):
    if len(argv) == 4 and argv[0] == "record":
        record(*argv[1:])
    elif len(argv) >= 2 and argv[0] == "table":
        table(argv[1:])
    else:
        fail("usage: record OUT_DIR SHARD COMMIT | table [--survivors TSV] RECORD...")


if __name__ == "__main__":
    main(sys.argv[1:])
