#!/usr/bin/env bash
# The ceiling: the decisions per second one Redis core sustains through `ratelab run`, against
# what redis-benchmark achieves sending the same scripts with the same arguments and pipeline
# depth. Usage:
#   bench/ceiling.sh SCENARIO.json [ROUNDS]
# Needs REDIS_URL (a unix:// or redis:// URL of a server you may load; start it on a core of its
# own, e.g. `taskset -c 1 redis-server ...`, and this script runs the clients on the others).
# The scenario offers more than Redis can decide (bench/scenarios/ceiling-3.json: three limiters
# whose every decision is the same grant, so a fixed argument list costs what the run's do).
# Per round, alternating:
# - `ratelab run SCENARIO` (its threads, its pipeline, real clock): decisions per second =
#   decisions in summary.json / the run's seconds;
# - for each limiter L of the scenario, the redis-benchmark command `ratelab bench --limiter L
#   --connections <threads> --pipeline <pipeline>` prints (the same EVALSHA, keys and
#   arguments as one of the run's decisions), run alone: r_L requests per second. The run
#   sends every request to each limiter, so the same mix through redis-benchmark decides
#   n / (sum over L of 1 / r_L) per second.
# Prints each round's figures and ratio and the median ratio.
set -euo pipefail
scenario=$1 rounds=${2:-5}
ratelab=${RATELAB:-$(dirname "$0")/../build/bin/ratelab}
: "${REDIS_URL:?set REDIS_URL to the server to measure}"
for tool in jq redis-benchmark; do
    command -v "$tool" >/dev/null || { echo "needs $tool" >&2; exit 2; }
done
clients_cpu=()
if [ "$(nproc)" -ge 2 ] && command -v taskset >/dev/null; then
    clients_cpu=(taskset -c "0-$(($(nproc) - 2))")
fi

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
threads=$(jq '.traffic.threads // 1' "$scenario")
pipeline=$(jq '.traffic.pipeline // 1' "$scenario")
count=$(jq '.limiters | length' "$scenario")
for ((i = 0; i < count; i++)); do
    jq ".limiters[$i]" "$scenario" >"$work/limiter-$i.json"
done

ratios=()
for round in $(seq "$rounds"); do
    "${clients_cpu[@]}" "$ratelab" run "$scenario" --redis "$REDIS_URL" --out "$work/run" \
        >"$work/run.txt" 2>&1
    ours=$(jq '[.limiters[] | .decided // (.accepted + .rejected)] | add / .seconds' \
        "$work/run/summary.json" 2>/dev/null || true)
    [ -n "$ours" ] || ours=$(jq -r '.' "$work/run/summary.json" | head -c 0)
    inverse=0
    for ((i = 0; i < count; i++)); do
        command=$("$ratelab" bench --limiter "$work/limiter-$i.json" --connections "$threads" \
            --pipeline "$pipeline" --requests 1000 --redis "$REDIS_URL" |
            sed -n 's/^same script with redis-benchmark: //p')
        command=$(sed 's/ -n [0-9]* / -n 300000 /' <<<"$command")
        rate=$(eval "${clients_cpu[*]} $command" 2>/dev/null | tr '\r' '\n' |
            sed -n 's/.*: \([0-9.]*\) requests per second.*/\1/p' | tail -1)
        inverse=$(awk -v s="$inverse" -v r="$rate" 'BEGIN { print s + 1 / r }')
        echo "round $round: redis-benchmark, $(jq -r .name "$work/limiter-$i.json"): $rate/s" >&2
    done
    theirs=$(awk -v n="$count" -v s="$inverse" 'BEGIN { printf "%.0f", n / s }')
    ratio=$(awk -v a="$ours" -v b="$theirs" 'BEGIN { printf "%.3f", a / b }')
    ratios+=("$ratio")
    printf 'round %d: ratelab run %.0f decisions/s  redis-benchmark (same mix) %s/s  ratio %s\n' \
        "$round" "$ours" "$theirs" "$ratio"
done
printf '%s\n' "${ratios[@]}" | sort -n | awk '{a[NR]=$1} END {
    m = (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2
    printf "median ratio (ratelab run / redis-benchmark): %.3f over %d rounds\n", m, NR}'
