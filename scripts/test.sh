#!/usr/bin/env bash
# Installs what is missing (Debian 12), builds with GCC, builds everything once more with Clang
# (warnings are errors with both compilers), fuzzes the input parsers for a bounded time
# (libFuzzer, seeded from tests/fuzz/corpus), and runs every test through CTest. The tests
# that need Redis get a private redis-server (unix socket in the build tree) from a CTest
# fixture, and the cluster tests a private 3-master Redis Cluster on loopback ports 30701-30703
# (tests/redis_cluster_fixture.sh, started and stopped by CTest); no other server is touched.
# CTest's package_check builds the Debian package and installs it into a scratch root.
#
# Environment: BUILD_DIR (GCC, default build), CLANG_BUILD_DIR (default build-clang),
# RATELAB_CLANG=0 skips the Clang build, FUZZ_SECONDS (per fuzz target, default 15).
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/lib/deps.sh

BUILD_DIR=${BUILD_DIR:-build}
CLANG_BUILD_DIR=${CLANG_BUILD_DIR:-build-clang}
ratelab_install_deps
ratelab_build_tests "$BUILD_DIR"
if [ "${RATELAB_CLANG:-1}" != 0 ]; then
    ratelab_build_clang "$CLANG_BUILD_DIR"
fi
FUZZ_SECONDS=${FUZZ_SECONDS:-15} bash scripts/fuzz.sh
cd "$BUILD_DIR"
QT_QPA_PLATFORM=offscreen ctest --output-on-failure -j"$(nproc)" "$@"
