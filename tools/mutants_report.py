#!/usr/bin/env python3
"""Fold cargo-mutants results into the records conformance/MUTANTS.md cites.

Usage:
  tools/mutants_report.py record OUT_DIR SHARD COMMIT > conformance/mutants/SHARD.tsv
      turn one run of tools/mutants.sh (its OUT_DIR/mutants.out) into a
      record: one line per mutant, "outcome<TAB>mutant", outcome being
      caught, missed, timeout or unviable, headed by the shard and the
      commit the run was made at
  tools/mutants_report.py table RECORD...
      the per-file table and the list of missed mutants over the given
      records, as Markdown

The records are kept in the repository so a full run can be made over
several sittings: each sitting adds the shards it ran. A record's line
numbers are those of its commit.

Standard library only. Exit status 2 on bad input, with the reason.
"""

import collections
import pathlib
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
            fail(f"{path} is missing: is the run finished?")
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


def table(paths):
    rows = read_records(paths)
    per_file = collections.defaultdict(collections.Counter)
    for outcome, mutant in rows:
        per_file[mutant.split(":", 1)[0]][outcome] += 1
    total = collections.Counter()
    print("| file | caught | missed | timeout | unviable | score |")
    print("|---|---|---|---|---|---|")
    for file in sorted(per_file):
        counts = per_file[file]
        total.update(counts)
        print(f"| `{file}` | {row(counts)} |")
    print(f"| **all** | {row(total)} |")
    print()
    print("Missed:")
    print()
    for outcome, mutant in sorted(rows, key=lambda r: r[1]):
        if outcome == "missed":
            print(f"- `{mutant}`")


def row(counts):
    # A timeout is a caught mutant: an engine that hangs fails its run.
    caught = counts["caught"] + counts["timeout"]
    viable = caught + counts["missed"]
    score = f"{100 * caught / viable:.1f} %" if viable else "—"
    return (
        f"{counts['caught']} | {counts['missed']} | {counts['timeout']} "
        f"| {counts['unviable']} | {score}"
    )


def main(argv):
    if len(argv) == 4 and argv[0] == "record":
        record(*argv[1:])
    elif len(argv) >= 2 and argv[0] == "table":
        table(argv[1:])
    else:
        fail("usage: record OUT_DIR SHARD COMMIT | table RECORD...")


if __name__ == "__main__":
    main(sys.argv[1:])
