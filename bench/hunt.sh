#!/usr/bin/env bash
# How fast `ratelab hunt` hunts: traces/s and rows/s of hunts that find nothing (every trace
# decided to its end, every probe made), per case ROUNDS times in turn, then the medians.
# Usage:
#   bench/hunt.sh [ROUNDS] [TRACES]        (default 3 rounds of 2000 traces)
# Needs REDIS_URL (a server you may load). RATELAB: the binary (default build/bin/ratelab).
# Prints per round each case's figures, then a table of medians.
set -euo pipefail
rounds=${1:-3}
traces=${2:-2000}
ratelab=${RATELAB:-$(dirname "$0")/../build/bin/ratelab}
: "${REDIS_URL:?set REDIS_URL to the server to measure}"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

cat >"$work/log.json" <<'EOF'
{"type": "sliding_window", "name": "bench-hunt-log", "scope": "per_client",
 "rules": [{"limit": 3, "window_ms": 1000}, {"limit": 5, "window_ms": 4000}]}
EOF
cat >"$work/log-ref.json" <<'EOF'
{"type": "sliding_window", "rules": [{"limit": 3, "window_ms": 1000}, {"limit": 5, "window_ms": 4000}]}
EOF
cat >"$work/gcra.json" <<'EOF'
{"type": "gcra", "name": "bench-hunt-gcra", "rate": 3, "period_ms": 1000, "burst": 2}
EOF
cat >"$work/window.json" <<'EOF'
{"type": "fixed_window", "name": "bench-hunt-window", "rate": 3, "interval": 1, "unit": "days",
 "timezone": "Europe/Berlin"}
EOF

# The shipped example scripts (resources/scripts/), each against the log it claims to be.
scripts=$(cd "$(dirname "$0")/../resources/scripts" && pwd)
script_spec() { # NAME FILE ARGS...
    cat <<EOF2
{"type": "script", "name": "$1", "scope": "per_client", "script": "$scripts/$2",
 "keys": ["{{{name}}}:log:{client}"], "args": $3,
 "reply": {"allowed": "1", "index": 0, "remaining": 1, "retry_after_ms": 2},
 "reference": {"type": "sliding_window", "rules": [{"limit": 10, "window_ms": 1000}]}}
EOF2
}
script_spec bench-hunt-right sliding_log.lua \
    '["{now_ms}", "{permits}", "{request_id}", "10", "1000"]' >"$work/script-right.json"
script_spec bench-hunt-by-time sliding_log_by_time.lua '["{now_ms}", "10", "1000"]' \
    >"$work/script-by-time.json"

# name|arguments after the spec
cases=(
    "script sliding_log.lua, agree with its reference|$work/script-right.json"
    "log, agree with itself|$work/log.json --reference $work/log-ref.json"
    "log, retry + remaining|$work/log.json"
    "gcra, retry + remaining|$work/gcra.json"
    "calendar day, retry + remaining|$work/window.json"
)
# Extra cases from the environment: HUNT_CASES="name|SPEC [options];name|SPEC ..."
if [[ -n "${HUNT_CASES:-}" ]]; then
    IFS=';' read -r -a extra <<<"$HUNT_CASES"
    cases+=("${extra[@]}")
fi

declare -A tps rps
for ((round = 1; round <= rounds; round++)); do
    for c in "${cases[@]}"; do
        name=${c%%|*}
        # shellcheck disable=SC2086
        line=$("$ratelab" hunt ${c#*|} --traces "$traces" --seed "$round" --out "$work/out" \
            2>/dev/null | grep ' traces/s,' || true)
        # "2000 traces in 0.53 s: 3774 traces/s, 24590 rows/s, ..."
        t=$(sed -E 's/.* ([0-9]+) traces\/s.*/\1/' <<<"$line")
        r=$(sed -E 's/.* ([0-9]+) rows\/s.*/\1/' <<<"$line")
        echo "round $round  $name: $line"
        tps[$name]+="$t "
        rps[$name]+="$r "
    done
done

median() { tr ' ' '\n' | grep -v '^$' | sort -n | awk '{a[NR] = $1} END {print a[int((NR + 1) / 2)]}'; }
echo
printf '| %s | %s | %s |\n' "case" "traces/s (median)" "rows/s (median)"
printf '|---|---|---|\n'
for c in "${cases[@]}"; do
    name=${c%%|*}
    printf '| %s | %s | %s |\n' "$name" "$(median <<<"${tps[$name]}")" "$(median <<<"${rps[$name]}")"
done

# The flawed example (sliding_log_by_time.lua): how long until its counterexample, shrunk.
echo
printf '| %s | %s | %s |\n' "round" "counterexample (rows)" "wall time to it, shrinking included"
printf '|---|---|---|\n'
for ((round = 1; round <= rounds; round++)); do
    start=$(date +%s%N)
    first=$("$ratelab" hunt "$work/script-by-time.json" --traces "$traces" --seed "$round" \
        --out "$work/out" 2>/dev/null | head -1 || true)
    end=$(date +%s%N)
    rows=$(sed -E 's/.* of ([0-9]+) rows?.*/\1/' <<<"$first")
    printf '| %s | %s | %s ms |\n' "$round" "$rows" "$(((end - start) / 1000000))"
done
