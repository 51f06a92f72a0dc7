#!/usr/bin/env bash
# The corpus's mutation score: cargo-mutants over the rules code, with the
# conformance corpus (`cargo test --test corpus`) as the only test.
#
# A mutant the corpus does not catch is a wrong engine the corpus would
# pass, so this measures what conformance/MUTANTS.md reports.
#
# Usage:
#   tools/mutants.sh [--shard K/N] [--re REGEX] [--exclude-re REGEX] [--jobs J] [--list] [--out DIR]
#
#   --shard K/N  test only the K-th of N shards (0-based, as cargo-mutants
#                counts), so a full run can be split over several sittings
#                on a small machine. Mutant i goes to shard i mod N, so each
#                shard is an even sample of the whole
#   --re REGEX   only mutants whose name matches (for example a survivor
#                listed in conformance/MUTANTS.md, to check its case)
#   --exclude-re REGEX
#                leave out mutants whose name matches. cargo-mutants 27.1
#                keeps its "delete field" mutants under both filters, so a
#                filtered run also tests those (15 of them here)
#   --jobs J     build and test J mutants at once, each in its own copy
#                of the tree (default 1)
#   --list       list the mutants and stop (no build)
#   --out DIR    where cargo-mutants writes mutants.out (default:
#                target/mutation/<shard>)
#
# The mutated files are the rules code: topology, geometry, movement, the
# shared rules and the four families. Pictures and audits are left out:
# only the reference draws or audits, so no engine can share their bugs,
# and the geometry mutants are the reference's own test engines.
# Each mutant costs one incremental build of the crate and its corpus test
# in the `mutants` profile (Cargo.toml: this crate at opt-level 1, no debug
# info, no crate-local ThinLTO) and one corpus run: about 3.5 seconds a
# mutant on 2 cores with --jobs 2, after a first build of about 4 minutes.
# Only the corpus test is built (`--test corpus` goes to every cargo
# command). A full run is about 2.5 hours, hence the shards.
# Needs cargo-mutants (`cargo install --locked cargo-mutants`).
#
# Exit status: cargo-mutants' own (0 all caught, 2 some missed, 3 some
# timed out, 4 the unmutated tree failed), or 2 for a usage error here.
set -euo pipefail
cd "$(dirname "$0")/.."

shard=""
re=""
exclude_re=""
list=0
jobs=1
out=""
usage() {
    echo "tools/mutants.sh: $1 (see --help)" >&2
    exit 2
}
# The value after an option, or a usage error naming what it needs.
value() {
    [ $# -ge 3 ] && [ -n "$3" ] || usage "$1 needs $2"
    printf '%s' "$3"
}
while [ $# -gt 0 ]; do
    case "$1" in
        --shard) shard="$(value --shard K/N "${2:-}")" || exit 2; shift 2 ;;
        --re) re="$(value --re 'a regular expression' "${2:-}")" || exit 2; shift 2 ;;
        --exclude-re) exclude_re="$(value --exclude-re 'a regular expression' "${2:-}")" || exit 2; shift 2 ;;
        --jobs) jobs="$(value --jobs 'a number' "${2:-}")" || exit 2; shift 2 ;;
        --list) list=1; shift ;;
        --out) out="$(value --out 'a directory' "${2:-}")" || exit 2; shift 2 ;;
        -h|--help) sed -n '2,/^set -euo/p' "$0" | sed '$d' | sed 's/^# \{0,1\}//'; exit 0 ;;
        *) usage "unknown argument '$1'" ;;
    esac
done
if [ -n "$shard" ] && ! [[ "$shard" =~ ^[0-9]+/[1-9][0-9]*$ ]]; then
    usage "--shard takes K/N, such as 0/40; got '$shard'"
fi
if ! [[ "$jobs" =~ ^[1-9][0-9]*$ ]]; then
    usage "--jobs takes a positive number; got '$jobs'"
fi
if ! cargo mutants --version >/dev/null 2>&1; then
    echo "tools/mutants.sh: cargo-mutants is not installed: cargo install --locked cargo-mutants" >&2
    exit 2
fi

args=(--no-shuffle)
for f in src/topology/file.rs src/topology/mesh.rs src/topology/mod.rs src/topology/tetra.rs \
    src/geometry.rs 'src/geometry/*.rs' src/movement.rs src/rules/mod.rs src/rules/game.rs \
    'src/shogi/*.rs' 'src/chess/*.rs' 'src/kyoto/*.rs' 'src/tetra/*.rs'; do
    args+=(--file "$f")
done
for f in '**/picture.rs' '**/audit.rs' src/geometry/mutant.rs; do
    args+=(--exclude "$f")
done
[ -n "$re" ] && args+=(--re "$re")
[ -n "$exclude_re" ] && args+=(--exclude-re "$exclude_re")
if [ "$list" = 1 ]; then
    exec cargo mutants --list "${args[@]}"
fi
[ -n "$shard" ] && args+=(--shard "$shard" --sharding round-robin)
tag="${shard:-all}"
out="${out:-target/mutation/${tag//\//-of-}}"
mkdir -p "$out"
# The corpus is the only test, and the only target built: `--test=corpus`
# goes to the build as well as to the test run, where arguments after `--`
# would reach only the test run and every test binary would be built.
exec cargo mutants "${args[@]}" --output "$out" --profile mutants \
    --jobs "$jobs" --cargo-arg=--test=corpus
