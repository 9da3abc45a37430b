#!/usr/bin/env bash
# A sweep against one saturated run: for each limiter type, the wall time of `ratelab sweep` of
# 100 combinations x 10,000 requests against that of one `ratelab run` of 1,000,000 requests at
# the same limiter (both in virtual time at speed 0, the same threads and pipeline), side by
# side, alternating. Usage:
#   bench/sweep_throughput.sh [ROUNDS] [TYPE ...]
# Needs REDIS_URL (a server you may load) and jq. Prints per round and type the two wall times
# and their ratio (sweep / run), then per type the median ratio.
set -euo pipefail
rounds=${1:-3}
shift || true
types=("$@")
[ ${#types[@]} -gt 0 ] || types=(token_bucket fixed_window sliding_window sliding_counter gcra leaky_bucket)
ratelab=${RATELAB:-$(dirname "$0")/../build/bin/ratelab}
: "${REDIS_URL:?set REDIS_URL to the server to measure}"
command -v jq >/dev/null || { echo "needs jq" >&2; exit 2; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# The limiter of each type (per client, ten clients) and the field its sweep varies.
limiter() {
    case $1 in
        token_bucket) echo '{"type": "token_bucket", "rate": 50, "interval_ms": 1000}' ;;
        fixed_window) echo '{"type": "fixed_window", "rate": 50, "interval": 1, "unit": "seconds", "timezone": "UTC"}' ;;
        sliding_window) echo '{"type": "sliding_window", "rules": [{"limit": 50, "window_ms": 1000}]}' ;;
        sliding_counter) echo '{"type": "sliding_counter", "limit": 50, "window_ms": 1000}' ;;
        gcra) echo '{"type": "gcra", "rate": 50, "period_ms": 1000, "burst": 10}' ;;
        leaky_bucket) echo '{"type": "leaky_bucket", "rate": 50, "period_ms": 1000, "burst": 10, "nodelay": true}' ;;
    esac
}
field() {
    case $1 in
        sliding_window) echo 'rules[0].limit' ;;
        sliding_counter) echo 'limit' ;;
        *) echo 'rate' ;;
    esac
}

# scenario TYPE RATE SECONDS [SWEEP]: a constant RATE for SECONDS over ten clients.
scenario() {
    jq -n --argjson limiter "$(limiter "$1")" --argjson rate "$2" --argjson seconds "$3" \
        --arg name "bench-$1-$$" --arg key "bench-$1-$$.$(field "$1")" --arg sweep "${4:-}" '
        {name: "sweep throughput",
         limiters: [$limiter + {name: $name, scope: "per_client"}],
         traffic: {shape: {type: "constant", rate: $rate}, duration_s: $seconds,
                   clients: {count: 10}, threads: 2, pipeline: 64,
                   clock: {type: "virtual", start: "2024-01-01T00:00:00Z", speed: 0}}}
        + (if $sweep == "" then {} else
           {sweep: {vary: {($key): {from: 1, to: 100}}, maximize: "accepted"}} end)'
}

now() { date +%s.%N; }
declare -A ratios
for type in "${types[@]}"; do
    scenario "$type" 100000 10 >"$work/run-$type.json"
    scenario "$type" 1000 10 sweep >"$work/sweep-$type.json"
done
for round in $(seq "$rounds"); do
    for type in "${types[@]}"; do
        t0=$(now)
        "$ratelab" run "$work/run-$type.json" --redis "$REDIS_URL" --out "$work/out-run" \
            >"$work/run.txt" 2>&1 || { cat "$work/run.txt" >&2; exit 1; }
        t1=$(now)
        "$ratelab" sweep "$work/sweep-$type.json" --redis "$REDIS_URL" --out "$work/out-sweep" \
            >"$work/sweep.txt" 2>&1 || { cat "$work/sweep.txt" >&2; exit 1; }
        t2=$(now)
        ratio=$(awk -v a="$t0" -v b="$t1" -v c="$t2" 'BEGIN { printf "%.2f", (c - b) / (b - a) }')
        printf 'round %d %-16s run %6.2f s  sweep %6.2f s  ratio %s\n' "$round" "$type" \
            "$(awk -v a="$t0" -v b="$t1" 'BEGIN { print b - a }')" \
            "$(awk -v b="$t1" -v c="$t2" 'BEGIN { print c - b }')" "$ratio"
        ratios[$type]="${ratios[$type]:-} $ratio"
    done
done
for type in "${types[@]}"; do
    # shellcheck disable=SC2086
    median=$(printf '%s\n' ${ratios[$type]} | sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }')
    echo "$type: median ratio $median (${ratios[$type]# })"
done
