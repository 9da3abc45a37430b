#!/usr/bin/env bash
# Runs a command and samples the resident memory (VmRSS) of its ratelab process every
# INTERVAL seconds, to show that memory stays flat over a long run. Usage:
#   bench/memory_soak.sh INTERVAL_S COMMAND [ARG ...]
# e.g. bench/memory_soak.sh 30 build/bin/ratelab run bench/scenarios/soak-10min.json --out /tmp/soak
#      bench/memory_soak.sh 30 xvfb-run -a build/bin/ratelab --ui-bench bench/scenarios/ui-soak-10min.json 600
set -euo pipefail
interval=$1
shift
"$@" &
pid=$!
start=$(date +%s)
sleep 1
while kill -0 "$pid" 2>/dev/null; do
    # The ratelab process itself: the command, or its newest descendant named ratelab.
    target=$(pgrep -n -x ratelab || true)
    rss=$(awk '/^VmRSS/ {print $2}' "/proc/${target:-$pid}/status" 2>/dev/null || true)
    if [ -n "$rss" ]; then
        printf 't=%4ds  rss=%7d KiB\n' "$(( $(date +%s) - start ))" "$rss"
    fi
    sleep "$interval"
done
wait "$pid"
