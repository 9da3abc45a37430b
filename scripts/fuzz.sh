#!/usr/bin/env bash
# Builds the libFuzzer targets of tests/fuzz (the spec, scenario, trace and Redis URL parsers
# under AddressSanitizer and UndefinedBehaviorSanitizer) and runs each one for a while on a copy
# of its seed corpus in tests/fuzz/corpus/<target>/ (the committed corpus is never modified).
#
#   scripts/fuzz.sh                  # 20 s per target
#   FUZZ_SECONDS=300 scripts/fuzz.sh
#
# Environment: FUZZ_SECONDS (per target, default 20), FUZZ_BUILD_DIR (default build-fuzz),
# FUZZ_JOBS (build parallelism, default: the number of cores), FUZZ_TARGETS (a space-separated
# subset, e.g. "trace redis_url"). Exits 0 when every target ran clean, 1 when a target found a
# crash (its reproducer path is printed; rerun it with BUILD/fuzz_<target> REPRODUCER), 2 when
# the tools are missing or the build fails. Installs nothing: scripts/test.sh installs packages.
set -uo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD

FUZZ_SECONDS=${FUZZ_SECONDS:-20}
FUZZ_BUILD_DIR=${FUZZ_BUILD_DIR:-build-fuzz}
FUZZ_JOBS=${FUZZ_JOBS:-$(nproc 2>/dev/null || echo 1)}
FUZZ_TARGETS=${FUZZ_TARGETS:-limiter_spec scenario trace redis_url}
CXX_COMPILER=clang++-14

die() {
    echo "fuzz.sh: $*" >&2
    exit 2
}

case $FUZZ_SECONDS in
    '' | *[!0-9]* | 0) die "FUZZ_SECONDS must be a positive integer, got '$FUZZ_SECONDS'" ;;
esac

# --- tools -------------------------------------------------------------------------------------
if ! command -v "$CXX_COMPILER" >/dev/null 2>&1; then
    die "$CXX_COMPILER is missing; install clang-14 and libclang-rt-14-dev (Debian 12:
    apt-get install clang-14 libclang-rt-14-dev), or run scripts/test.sh, which installs them"
fi
runtime_dir=$("$CXX_COMPILER" --print-runtime-dir 2>/dev/null || true)
if [ -z "$runtime_dir" ] || ! ls "$runtime_dir"/libclang_rt.fuzzer*.a >/dev/null 2>&1; then
    die "libFuzzer's runtime (libclang_rt.fuzzer) is missing for $CXX_COMPILER; install
    libclang-rt-14-dev (Debian 12: apt-get install libclang-rt-14-dev)"
fi
command -v cmake >/dev/null 2>&1 || die "cmake is missing; run scripts/test.sh first"

# --- build -------------------------------------------------------------------------------------
echo "== building the fuzz targets into $FUZZ_BUILD_DIR"
mkdir -p "$FUZZ_BUILD_DIR" || die "cannot create $FUZZ_BUILD_DIR"
cmake -S tests/fuzz -B "$FUZZ_BUILD_DIR" -DCMAKE_CXX_COMPILER="$CXX_COMPILER" \
    -DCMAKE_BUILD_TYPE=RelWithDebInfo >"$FUZZ_BUILD_DIR/configure.log" 2>&1 || {
    cat "$FUZZ_BUILD_DIR/configure.log" >&2
    die "cmake configure failed (is qt6-base-dev installed? scripts/test.sh installs it)"
}
cmake --build "$FUZZ_BUILD_DIR" --parallel "$FUZZ_JOBS" || die "the build failed"

BUILD=$(cd "$FUZZ_BUILD_DIR" && pwd)

# --- run ---------------------------------------------------------------------------------------
# Halt on the first error of any kind; libFuzzer writes the input that caused it.
export ASAN_OPTIONS=${ASAN_OPTIONS:-halt_on_error=1:abort_on_error=1:detect_leaks=1:allocator_may_return_null=0:handle_abort=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-halt_on_error=1:abort_on_error=1:print_stacktrace=1}

passed=0
failed=0
summary=()
reproducers=()
for target in $FUZZ_TARGETS; do
    binary=$BUILD/fuzz_$target
    seeds=$ROOT/tests/fuzz/corpus/$target
    [ -x "$binary" ] || die "no fuzz target '$target' ($binary not built)"
    [ -d "$seeds" ] || die "no seed corpus for '$target' ($seeds)"

    # Work on a copy: libFuzzer adds the inputs it finds to the corpus directory it is given.
    corpus=$BUILD/corpus-run/$target
    artifacts=$BUILD/artifacts/$target
    log=$BUILD/logs/$target.log
    rm -rf "$corpus"
    mkdir -p "$corpus" "$artifacts" "$(dirname "$log")"
    cp -R "$seeds"/. "$corpus"/

    echo "== fuzz_$target: ${FUZZ_SECONDS} s on $(ls "$seeds" | wc -l) seeds (log: $log)"
    "$binary" -max_total_time="$FUZZ_SECONDS" -rss_limit_mb=2048 -timeout=10 -max_len=65536 \
        -print_final_stats=1 -artifact_prefix="$artifacts/" "$corpus" >"$log" 2>&1
    status=$?

    runs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | tail -n 1 | grep -o '[0-9]*$')
    if [ -z "$runs" ]; then  # a crash ends the run before the final stats
        runs=$(grep -o '^#[0-9]*' "$log" | tail -n 1 | tr -d '#')
    fi
    runs=${runs:-0}

    if [ "$status" -eq 0 ]; then
        passed=$((passed + 1))
        summary+=("fuzz_$target: $runs runs, clean")
    else
        failed=$((failed + 1))
        reproducer=$(grep -o 'Test unit written to .*' "$log" | tail -n 1 | sed 's/^Test unit written to //')
        echo "!! fuzz_$target FAILED (exit $status); the end of its log:"
        tail -n 80 "$log" | sed 's/^/   | /'
        if [ -n "$reproducer" ]; then
            echo "!! reproducer: $reproducer"
            echo "!! rerun it:   $binary $reproducer"
            reproducers+=("fuzz_$target: $reproducer")
        else
            echo "!! no reproducer was written; see $log"
        fi
        summary+=("fuzz_$target: $runs runs, FAILED (exit $status)${reproducer:+, reproducer $reproducer}")
    fi
done

echo
echo "== fuzz summary (${FUZZ_SECONDS} s per target)"
for line in "${summary[@]}"; do
    echo "$line"
done
for line in "${reproducers[@]+"${reproducers[@]}"}"; do
    echo "reproducer: $line"
done
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
