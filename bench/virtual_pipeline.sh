#!/usr/bin/env bash
# A virtual run's pipeline: the wall time of `ratelab run` of 100,000 requests against two
# limiters in virtual time at speed 0 with traffic "pipeline": 64 against the same run with
# "pipeline": 1, side by side, alternating; the two runs' buckets.csv must be the same byte for
# byte. Then one run of 1,000,000 requests at one fixed window with pipeline 64 (threads 2, as
# the issue measured it), and its round trips from summary.json. Usage:
#   bench/virtual_pipeline.sh [ROUNDS]
# Needs REDIS_URL (a server you may load) and jq. Prints per round the two wall times and their
# ratio (64 / 1), their round trips, then the median ratio.
set -euo pipefail
rounds=${1:-3}
ratelab=${RATELAB:-$(dirname "$0")/../build/bin/ratelab}
: "${REDIS_URL:?set REDIS_URL to the server to measure}"
command -v jq >/dev/null || { echo "needs jq" >&2; exit 2; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# scenario PIPELINE RATE SECONDS LIMITERS: a constant RATE for SECONDS over ten clients.
scenario() {
    jq -n --argjson pipeline "$1" --argjson rate "$2" --argjson seconds "$3" \
        --argjson limiters "$4" '
        {name: "virtual pipeline", limiters: $limiters,
         traffic: {shape: {type: "constant", rate: $rate}, duration_s: $seconds,
                   clients: 10, threads: 2, pipeline: $pipeline,
                   clock: {type: "virtual", start: "2024-01-01T00:00:00Z", speed: 0}}}'
}
two='[{"type": "sliding_window", "name": "bench-vp-log", "scope": "per_client",
       "rules": [{"limit": 50, "window_ms": 1000}]},
      {"type": "fixed_window", "name": "bench-vp-window", "rate": 5000, "interval": 1,
       "unit": "seconds", "timezone": "UTC"}]'
one='[{"type": "fixed_window", "name": "bench-vp-million", "scope": "per_client",
       "rate": 50, "interval": 1, "unit": "seconds", "timezone": "UTC"}]'
scenario 1 10000 10 "$two" >"$work/p1.json"
scenario 64 10000 10 "$two" >"$work/p64.json"
scenario 64 100000 10 "$one" >"$work/million.json"

now() { date +%s.%N; }
run() {  # run SCENARIO OUT: prints the wall time
    local t0 t1
    t0=$(now)
    "$ratelab" run "$1" --redis "$REDIS_URL" --out "$2" >"$2.txt" 2>&1 || { cat "$2.txt" >&2; exit 1; }
    t1=$(now)
    awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.2f", b - a }'
}
trips() { jq '.pipeline.round_trips' "$1/summary.json"; }
ratios=""
for round in $(seq "$rounds"); do
    a=$(run "$work/p1.json" "$work/out1")
    b=$(run "$work/p64.json" "$work/out64")
    cmp -s "$work/out1/buckets.csv" "$work/out64/buckets.csv" ||
        { echo "round $round: buckets.csv differ" >&2; exit 1; }
    ratio=$(awk -v a="$a" -v b="$b" 'BEGIN { printf "%.3f", b / a }')
    printf 'round %d  pipeline 1: %6.2f s (%s round trips)  pipeline 64: %6.2f s (%s round trips)  ratio %s  buckets.csv identical\n' \
        "$round" "$a" "$(trips "$work/out1")" "$b" "$(trips "$work/out64")" "$ratio"
    ratios="$ratios $ratio"
done
# shellcheck disable=SC2086
median=$(printf '%s\n' $ratios | sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }')
echo "median ratio (64 / 1): $median (${ratios# })"
m=$(run "$work/million.json" "$work/outm")
echo "1,000,000 requests, pipeline 64: $m s, $(trips "$work/outm") round trips"
grep -E '^pipeline|^note' "$work/outm.txt" || true
