#!/usr/bin/env bash
# Installs what is missing (Debian 12), builds, and runs ratelab against its own local
# redis-server. Arguments are passed to ratelab; without any, it replays the example trace.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/lib/deps.sh

BUILD_DIR=${BUILD_DIR:-build}
ratelab_install_deps
ratelab_build "$BUILD_DIR"
if [ $# -gt 0 ]; then
    exec "$BUILD_DIR/bin/ratelab" "$@"
fi
echo "== ratelab replay of resources/examples/login-burst.csv (sliding window 3/1s + 5/10s per client)"
exec "$BUILD_DIR/bin/ratelab" replay --limiter resources/examples/login.json \
    --trace resources/examples/login-burst.csv
