#!/usr/bin/env bash
# Installs what is missing (Debian 12), builds, fuzzes the input parsers for a bounded time
# (libFuzzer, seeded from tests/fuzz/corpus), and runs every test through CTest. The tests
# that need Redis get a private redis-server (unix socket in the build tree) from a CTest
# fixture, and the cluster tests a private 3-master Redis Cluster on loopback ports 30701-30703
# (tests/redis_cluster_fixture.sh, started and stopped by CTest); no other server is touched.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/lib/deps.sh

BUILD_DIR=${BUILD_DIR:-build}
ratelab_install_deps
ratelab_build "$BUILD_DIR"
FUZZ_SECONDS=${FUZZ_SECONDS:-15} bash scripts/fuzz.sh
cd "$BUILD_DIR"
QT_QPA_PLATFORM=offscreen ctest --output-on-failure -j"$(nproc)" "$@"
