#!/usr/bin/env bash
# Decisions per second of a distributed sweep with 0, 1, 2, ... workers beside its coordinator.
# Usage:
#   bench/distributed_sweep.sh [ROUNDS] [WORKERS ...]      (default: 1 round; 0 1 2 3 workers)
# Needs REDIS_URL (a server or redis-cluster:// you may load; every worker and the coordinator
# use it) and jq. The sweep: a token bucket per client (ten clients) whose rate varies from 1
# to 96, a constant 1,000/s for 10 s each (virtual time, speed 0), --batch 4 (24 batches). With
# WORKERS=0 the coordinator works alone. Prints per round and worker count the wall time, the
# decisions (sweep.csv's fired, every limiter row) and decisions/s; then the median per count.
# On several hosts: start `ratelab worker --redis URL --queue Q` there instead (RATELAB_QUEUE=Q,
# WORKERS=0 here) and run this with the workers already waiting.
set -euo pipefail
rounds=${1:-1}
shift || true
counts=("$@")
[ ${#counts[@]} -gt 0 ] || counts=(0 1 2 3)
ratelab=${RATELAB:-$(dirname "$0")/../build/bin/ratelab}
: "${REDIS_URL:?set REDIS_URL to the server to measure}"
command -v jq >/dev/null || { echo "needs jq" >&2; exit 2; }
work=$(mktemp -d)
pids=()
cleanup() {
    for pid in "${pids[@]}"; do kill -TERM "$pid" 2>/dev/null || true; done
    wait 2>/dev/null || true
    rm -rf "$work"
}
trap cleanup EXIT

jq -n --arg name "bench-dist-$$" '
    {name: "distributed sweep throughput",
     limiters: [{type: "token_bucket", name: $name, scope: "per_client", rate: 50,
                 interval_ms: 1000}],
     traffic: {shape: {type: "constant", rate: 1000}, duration_s: 10, clients: {count: 10},
               threads: 2, pipeline: 64,
               clock: {type: "virtual", start: "2024-01-01T00:00:00Z", speed: 0}},
     sweep: {vary: {($name + ".rate"): {from: 1, to: 96}}, maximize: "accepted"}}' \
    >"$work/sweep.json"

declare -A rates
for round in $(seq "$rounds"); do
    for n in "${counts[@]}"; do
        queue=${RATELAB_QUEUE:-bench-$$-$round-$n}
        pids=()
        for _ in $(seq "$n"); do
            "$ratelab" worker --redis "$REDIS_URL" --queue "$queue" 2>"$work/worker-$n-$_.log" &
            pids+=($!)
        done
        for i in $(seq "$n"); do  # each has joined before the sweep publishes
            until grep -q "joined queue" "$work/worker-$n-$i.log"; do sleep 0.1; done
        done
        t0=$(date +%s.%N)
        "$ratelab" sweep "$work/sweep.json" --distributed --queue "$queue" --batch 4 \
            --redis "$REDIS_URL" --out "$work/out-$n" >/dev/null 2>"$work/sweep-$n.log" || true
        t1=$(date +%s.%N)
        for pid in "${pids[@]}"; do kill -TERM "$pid"; done
        wait "${pids[@]}" 2>/dev/null || true
        decisions=$(awk -F, 'NR > 1 && $3 == "*" { s += $4 } END { print s }' "$work/out-$n/sweep.csv")
        rate=$(echo "$decisions / ($t1 - $t0)" | bc -l)
        printf 'round %d  workers %d  %.1f s  %d decisions  %.0f decisions/s\n' \
            "$round" "$n" "$(echo "$t1 - $t0" | bc -l)" "$decisions" "$rate"
        rates[$n]="${rates[$n]:-} $rate"
    done
done
for n in "${counts[@]}"; do
    median=$(tr ' ' '\n' <<<"${rates[$n]}" | grep . | sort -g | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }')
    printf 'workers %d: median %.0f decisions/s (%s)\n' "$n" "$median" "${rates[$n]# }"
done
