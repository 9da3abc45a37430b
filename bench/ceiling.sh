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
#   the decisions in summary.json (accepted + rejected, every limiter) / its run_s;
# - for each limiter L of the scenario, the redis-benchmark command `ratelab bench --limiter L
#   --connections <threads> --pipeline <pipeline>` prints (the same EVALSHA, keys and
#   arguments as one of the run's decisions), run alone: r_L requests per second. The run
#   sends every request to each limiter, so the same mix through redis-benchmark decides
#   n / (sum over L of 1 / r_L) per second. Each redis-benchmark run sends 90,000 calls: below
#   the scenario's GCRA burst, so that every one of its calls at one fixed now is a grant, as
#   every decision of the run is.
# Prints each round's figures and ratio and the median ratio.
set -euo pipefail
scenario=$1 rounds=${2:-5}
ratelab=${RATELAB:-$(dirname "$0")/../build/bin/ratelab}
# shellcheck source=bench/redis_benchmark_lib.sh
. "$(dirname "$0")/redis_benchmark_lib.sh"
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
    start=$(awk '{ print $16 + $17 }' /proc/$$/stat)
    "${clients_cpu[@]}" "$ratelab" run "$scenario" --redis "$REDIS_URL" --out "$work/run" \
        >"$work/run.txt" 2>&1
    # The run's own CPU (this shell's children: user + system clock ticks).
    cpu=$(awk -v s="$start" -v hz="$(getconf CLK_TCK)" '{ printf "%.2f", ($16 + $17 - s) / hz }' /proc/$$/stat)
    ours=$(jq '([.limiters[] | .accepted + .rejected] | add) / .run_s' "$work/run/summary.json")
    seconds=$(jq '.run_s' "$work/run/summary.json")
    echo "round $round: ratelab run: $(awk -v c="$cpu" -v s="$seconds" 'BEGIN { printf "%.0f", 100 * c / s }') % of a core over ${seconds} s" >&2
    inverse=0
    for ((i = 0; i < count; i++)); do
        command=$("$ratelab" bench --limiter "$work/limiter-$i.json" --connections "$threads" \
            --pipeline "$pipeline" --requests 1000 --redis "$REDIS_URL" |
            sed -n 's/^same script with redis-benchmark: //p')
        command=$(sed 's/ -n [0-9]* / -n 90000 /' <<<"$command")
        rate=$(redis_benchmark_rate "${clients_cpu[*]} $command")
        inverse=$(awk -v s="$inverse" -v r="$rate" 'BEGIN { print s + 1 / r }')
        echo "round $round: redis-benchmark, $(jq -r .name "$work/limiter-$i.json"): $rate/s" >&2
    done
    theirs=$(awk -v n="$count" -v s="$inverse" 'BEGIN { printf "%.0f", n / s }')
    report_round "$round" "ratelab run, decisions:" "$(printf '%.0f' "$ours")" \
        "redis-benchmark, the same mix:" "$theirs"
done
printf '%s\n' "${ratios[@]}" | print_median_ratio "ratelab run / redis-benchmark"
