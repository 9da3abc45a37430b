#!/usr/bin/env bash
# Runs the real ratelab window under Xvfb through a short scripted demo (its own managed local
# Redis) and writes main.png, comparison.png, state.png, redisson.png, small-1024x700.png (the
# smallest size the layout is made for), presentation.png, and main-dark.png and
# redisson-dark.png (a dark palette) into the folder given.
#   scripts/screenshot.sh OUTDIR [SCENARIO.json] [SECONDS]
set -euo pipefail
cd "$(dirname "$0")/.."
out=${1:?usage: scripts/screenshot.sh OUTDIR [SCENARIO.json] [SECONDS]}
scenario=${2:-resources/scenarios/three-limiters-live.json}
seconds=${3:-8}
. scripts/lib/deps.sh
RATELAB_PACKAGES+=(xvfb xauth)
BUILD_DIR=${BUILD_DIR:-build}
ratelab_install_deps
[ -x "$BUILD_DIR/bin/ratelab" ] || ratelab_build "$BUILD_DIR"
# A private settings folder, so the demo neither reads nor changes the user's settings.
export XDG_CONFIG_HOME=$(mktemp -d)
export XDG_RUNTIME_DIR=$(mktemp -d)
unset REDIS_URL
xvfb-run -a -s "-screen 0 1600x1000x24" "$BUILD_DIR/bin/ratelab" --screenshots "$out" \
    "$scenario" "$seconds"
rm -rf "$XDG_CONFIG_HOME" "$XDG_RUNTIME_DIR"
