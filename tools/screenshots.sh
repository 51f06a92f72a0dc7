#!/usr/bin/env bash
# Regenerates the screenshots of the web app (docs/screenshots/, shown in
# docs/playing.md):
# the browser trials of tests/external/webapp.rs and webapp_layout.rs take them
# while they play, so each
# picture shows a state the trials have checked. Needs /usr/bin/chromium
# and /usr/bin/chromedriver (Debian's chromium and chromium-driver).
set -euo pipefail
cd "$(dirname "$0")/.."
SEAMS_SCREENSHOTS="$PWD/docs/screenshots" cargo test --release --test external
ls -l docs/screenshots
