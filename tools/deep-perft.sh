#!/usr/bin/env bash
# Deep perft by shards: counts VARIANT's initial position to DEPTH split
# into N shards (`seams perft --shard K/N --threads 1 --json`), JOBS at a
# time, then merges them (`seams merge`) into the whole count and divide.
#
#   tools/deep-perft.sh VARIANT DEPTH N [JOBS]
#
# Each shard is an independent process, as it would be on a CI matrix or a
# batch scheduler; here they share one machine. Two settings are read from
# the environment:
#   THREADS=T  threads per shard (default 1)
#   HASH=MIB   a transposition table of MIB MiB per shard (`--hash`; the
#              default is none). Shards cannot share one, so on a single
#              machine one shard on every core with a table is the fastest.
# Writes, under
# target/deep-perft/VARIANT-DEPTH/:
#   shard-K.json   each shard's report (its divide and wall seconds)
#   times.tsv      each shard's wall and CPU seconds as /usr/bin/time saw them
#   merged.json    the merged report
# and prints one Markdown table row: variant, depth, nodes, shards, each
# shard's CPU seconds (user and system), the longest shard's, their sum,
# and the whole run's wall seconds with JOBS shards at a time.
set -euo pipefail
cd "$(dirname "$0")/.."

if [ $# -lt 3 ] || [ $# -gt 4 ]; then
    echo "usage: tools/deep-perft.sh VARIANT DEPTH N [JOBS]" >&2
    exit 2
fi
variant=$1 depth=$2 n=$3 jobs=${4:-$(nproc)}
seams=${SEAMS:-${CARGO_TARGET_DIR:-target}/release/seams}
if [ ! -x "$seams" ]; then
    cargo build --release --quiet
fi
dir=${CARGO_TARGET_DIR:-target}/deep-perft/$variant-$depth

# MERGE_ONLY=1 merges the shard reports of an earlier run again.
if [ "${MERGE_ONLY:-}" != 1 ]; then
    rm -rf "$dir"
    mkdir -p "$dir"
    start=$SECONDS
    # One shard: its report, and its wall and CPU (user, system) seconds.
    table=${HASH:+--hash $HASH}
    export seams variant depth n dir table
    export threads=${THREADS:-1}
    seq 1 "$n" | xargs -P "$jobs" -I{} bash -c '
        /usr/bin/time -f "{}	%e	%U	%S" -o "$dir/time-{}" \
            "$seams" perft "$variant" "$depth" --shard "{}/$n" --threads "$threads" $table --json \
            > "$dir/shard-{}.json"'
    echo $((SECONDS - start)) > "$dir/elapsed"
    printf 'shard\twall\tuser\tsystem\n' > "$dir/times.tsv"
    for k in $(seq 1 "$n"); do cat "$dir/time-$k"; rm "$dir/time-$k"; done >> "$dir/times.tsv"
fi
elapsed=$(cat "$dir/elapsed")

"$seams" merge "$dir"/shard-*.json --format json > "$dir/merged.json"
nodes=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["nodes"])' "$dir/merged.json")
awk -v v="$variant" -v d="$depth" -v nodes="$nodes" -v n="$n" -v all="$elapsed" \
    'NR > 1 { cpu = $3 + $4; each = each (NR > 2 ? ", " : "") sprintf("%.0f", cpu); total += cpu; if (cpu > max) max = cpu }
     END { printf "| %s | %s | %s | %s | %s | %.0f | %.0f | %d |\n", v, d, nodes, n, each, max, total, all }' \
    "$dir/times.tsv"
