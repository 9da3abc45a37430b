#!/usr/bin/env bash
# Runs a scenario and samples ratelab's resident memory (VmRSS) every INTERVAL seconds, to show
# that memory stays flat over a long run. Usage:
#   bench/memory_soak.sh SCENARIO.json [INTERVAL_S]      (REDIS_URL optional)
set -euo pipefail
scenario=$1 interval=${2:-30}
ratelab=${RATELAB:-$(dirname "$0")/../build/bin/ratelab}
out=$(mktemp -d)
"$ratelab" run "$scenario" --out "$out" >"$out/stdout.txt" 2>"$out/stderr.txt" &
pid=$!
start=$(date +%s)
while kill -0 "$pid" 2>/dev/null; do
    rss=$(awk '/^VmRSS/ {print $2}' "/proc/$pid/status" 2>/dev/null || true)
    [ -n "$rss" ] && printf 't=%4ds  rss=%6d KiB\n' "$(( $(date +%s) - start ))" "$rss"
    sleep "$interval"
done
wait "$pid"
tail -n 12 "$out/stdout.txt"
