#!/usr/bin/env bash
# Compares `ratelab bench` with redis-benchmark running the same EVALSHA (same script, keys
# and arguments) on the same server, alternating the two, and prints each pair's ratio and the
# median. Usage:
#   bench/compare_redis_benchmark.sh SPEC.json CONNECTIONS PIPELINE [REQUESTS] [ROUNDS]
# Needs REDIS_URL (a unix:// or redis:// URL of a server you may load); build/bin/ratelab must
# exist (scripts/test.sh or scripts/run.sh build it).
set -euo pipefail
spec=$1 connections=$2 pipeline=$3 requests=${4:-400000} rounds=${5:-5}
ratelab=${RATELAB:-$(dirname "$0")/../build/bin/ratelab}
# shellcheck source=bench/redis_benchmark_lib.sh
. "$(dirname "$0")/redis_benchmark_lib.sh"
: "${REDIS_URL:?set REDIS_URL to the server to measure}"

ratios=()
for round in $(seq 1 "$rounds"); do
    out=$("$ratelab" bench --limiter "$spec" --connections "$connections" \
        --pipeline "$pipeline" --requests "$requests")
    ours=$(echo "$out" | awk '/^decisions_per_s:/ {print $2}')
    cmd=$(echo "$out" | sed -n 's/^same script with redis-benchmark: //p')
    theirs=$(redis_benchmark_rate "$cmd")
    report_round "$round" ratelab "$ours" redis-benchmark "$theirs"
done
printf '%s\n' "${ratios[@]}" | print_median_ratio "ratelab / redis-benchmark"
