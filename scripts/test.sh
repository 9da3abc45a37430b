#!/usr/bin/env bash
# Installs what is missing (Debian 12), builds with GCC, runs every test through CTest, and
# meanwhile builds everything once more with Clang (warnings are errors with both compilers)
# and fuzzes the input parsers for a bounded time (libFuzzer, seeded from tests/fuzz/corpus).
# The tests that need Redis get a private redis-server (unix socket in the build tree) from a
# CTest fixture, and the cluster tests a private 3-master Redis Cluster on loopback ports
# 30701-30703 (tests/redis_cluster_fixture.sh, started and stopped by CTest); no other server
# is touched. CTest's package_check builds the Debian package and installs it into a scratch
# root.
#
# The tests spend most of their time waiting on Redis and on their clocks, so the Clang build
# and the fuzzers run beside them at the lowest CPU priority (nice 19): they take the cores the
# tests leave idle and yield them when a test needs one. The tests' output is printed when they
# end; the script fails when any of the three fails.
#
# Environment: BUILD_DIR (GCC, default build), CLANG_BUILD_DIR (default build-clang),
# RATELAB_CLANG=0 skips the Clang build, FUZZ_SECONDS (per fuzz target, default 10),
# RATELAB_SERIAL=1 runs the three one after the other. Arguments go to ctest.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/lib/deps.sh

BUILD_DIR=${BUILD_DIR:-build}
CLANG_BUILD_DIR=${CLANG_BUILD_DIR:-build-clang}
ratelab_install_deps
ratelab_build_tests "$BUILD_DIR"

tests_log=$(mktemp)
trap 'rm -f "$tests_log"' EXIT
run_tests() {
    (cd "$BUILD_DIR" && QT_QPA_PLATFORM=offscreen ctest --output-on-failure -j"$(nproc)" "$@")
}
if [ "${RATELAB_SERIAL:-0}" = 1 ]; then
    run_tests "$@"
else
    run_tests "$@" >"$tests_log" 2>&1 &
    tests_pid=$!
fi

others=0
if [ "${RATELAB_CLANG:-1}" != 0 ]; then
    nice -n 19 bash -c '. scripts/lib/deps.sh && ratelab_build_clang "$1"' _ "$CLANG_BUILD_DIR" ||
        others=1
fi
FUZZ_SECONDS=${FUZZ_SECONDS:-10} nice -n 19 bash scripts/fuzz.sh || others=1

if [ "${RATELAB_SERIAL:-0}" != 1 ]; then
    tests=0
    wait "$tests_pid" || tests=$?
    echo "=== ctest (ran beside the Clang build and the fuzzers) ==="
    cat "$tests_log"
    [ "$tests" = 0 ] || exit "$tests"
fi
exit "$others"
