#!/usr/bin/env bash
# Installs what is missing (Debian 12), builds, and runs ratelab against its own local
# redis-server (started and stopped by ratelab itself). Arguments are passed to ratelab.
# Without arguments it runs the fixed-window boundary-burst example headless and says where
# its report is.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/lib/deps.sh

BUILD_DIR=${BUILD_DIR:-build}
ratelab_install_deps
ratelab_build "$BUILD_DIR"
if [ $# -gt 0 ]; then
    exec "$BUILD_DIR/bin/ratelab" "$@"
fi
out=${RATELAB_OUT:-$PWD/ratelab-out/boundary-burst}
"$BUILD_DIR/bin/ratelab" run resources/scenarios/fixed-window-boundary-burst.json --out "$out"
echo "report: $out/report.png (summary.json and buckets.csv beside it)"
