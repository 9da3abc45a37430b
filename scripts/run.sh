#!/usr/bin/env bash
# Installs what the program needs (Debian 12), builds the program alone (the ratelab target,
# no test executables: scripts/test.sh builds and runs those) and opens the ratelab window
# against its own local redis-server (started and stopped by ratelab itself). Arguments are
# passed to ratelab. On a machine without a display it runs the fixed-window boundary-burst
# example headless instead and says where its report is.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/lib/deps.sh

BUILD_DIR=${BUILD_DIR:-build}
ratelab_install_deps "${RATELAB_PROGRAM_PACKAGES[@]}"
ratelab_build "$BUILD_DIR"
if [ $# -gt 0 ]; then
    exec "$BUILD_DIR/bin/ratelab" "$@"
fi
if [ -n "${DISPLAY:-}" ] || [ -n "${WAYLAND_DISPLAY:-}" ]; then
    exec "$BUILD_DIR/bin/ratelab"
fi
echo "ratelab: no display: running the boundary-burst example headless"
out=${RATELAB_OUT:-$PWD/ratelab-out/boundary-burst}
"$BUILD_DIR/bin/ratelab" run resources/scenarios/fixed-window-boundary-burst.json --out "$out"
echo "report: $out/report.png (summary.json and buckets.csv beside it)"
