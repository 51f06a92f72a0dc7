#!/usr/bin/env bash
# Regenerates the pictures in docs/pictures/ (README.md and docs/playing.md). tests/it/render.rs reads
# the `seams render` lines below and fails when a committed picture differs
# from what the command draws now, so run this after changing the drawing.
set -euo pipefail
cd "$(dirname "$0")/.."
seams() { cargo run --release --quiet -- "$@"; }
seams render shogi-mobius --moves i2-i3,b9-b8,h2-i2,b8-b7 --moves-from i2 --out docs/pictures/shogi-mobius.svg
seams render shogi-klein --out docs/pictures/shogi-klein.svg
seams render shogi-genus2 --out docs/pictures/shogi-genus2.svg
seams render chess-mobius --out docs/pictures/chess-mobius.svg
seams render tetra-shogi --out docs/pictures/tetra-shogi.svg
seams render kyoto --moves b1-b2,d5-d4 --moves-from b2 --out docs/pictures/kyoto.svg
seams render shogi-flat --out docs/pictures/shogi-flat.svg
