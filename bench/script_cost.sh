#!/usr/bin/env bash
# What one decision costs Redis: replays the same poisson trace through `ratelab replay` and
# through the script production code runs (bench/production_scripts/), each on its own fresh
# private redis-server (unix socket in a temp dir, no persistence), and reads the server time
# per script call from INFO commandstats (EVALSHA usec / calls) and the memory the keys
# hold at the end (MEMORY USAGE ... SAMPLES 0, summed). Optionally the same for a previous
# ratelab (A/B): --ab REV builds REV's ratelab in a temp worktree, --previous BIN uses a binary.
#
# Usage: bench/script_cost.sh [--rates "10 100 1000 10000 100000"]
#            [--loads "0.5 1 1.5 3 10 burst"]
#            [--limiters "token_bucket sliding_1 sliding_10 fixed_window gcra sliding_counter
#                         leaky_bucket concurrency"] [--flavors "native upstash redis_rate"] [--seconds 3]
#            [--max-requests 300000]
#            [--rounds 1] [--ab REV | --previous BIN] [--ratelab BIN] [--paired]
#            [--instructions] [--keep DIR]
#
# Per rate R (permits per second) and load L, traffic is L x R requests/s of 1 permit, one
# client, for --seconds (at least 3000 requests, at most --max-requests): poisson for a number
# (0.5: half the limit, 1: offered = the limit, 10: an attack refused nine times in ten), and
# for "burst" 3.5 R/s in bursts that share one millisecond (poisson burst times, burst sizes
# geometric with mean 4: three requests in four share their millisecond with the one before).
# Each round alternates the tools and the medians are shown.
#   token_bucket  rate R per 1000 ms (global)      vs Redisson's tryAcquire
#   sliding_N     N rules: R x 2^i per 1000 x 2^i ms vs the copied ZSET script (UUID members)
#   fixed_window  R per 1 second (UTC)             vs INCRBY + PEXPIRE
#   gcra          R per 1000 ms, burst min(R, 100000) vs the float GCRA (TAT in one string)
#   sliding_counter  limit R per 1000 ms window    vs two float-weighted window counters
#   leaky_bucket  R per 1000 ms, burst min(R, 100000), delaying vs excess/last in a hash
#   concurrency   min(R, 10000) in flight, leases of 1000 ms (a replay releases nothing, so a
#                 lease ends when it runs out)   vs a plain ZSET of leases (ZREMRANGEBYSCORE,
#                 ZCARD, ZADD)
# The last column counts the accepted decisions of each side: the same figure on both says
# the two made the same decisions (every request is one permit). The µs columns are medians
# over the rounds; a ratio is the median of each round's own ratio (the two sides of a round
# run seconds apart, so a shared host's slow minutes weigh on both alike), and which side runs
# first alternates from round to round.
# --paired measures the two scripts side by side instead: the commands `ratelab replay` sends
# are recorded once a cell (MONITOR on a scratch server), then each round they and the
# production commands go to two fresh servers through one sender (paired_calls, built beside
# ratelab), one call at a time, alternating between the servers. Both servers see the same
# client and the same host at the same moments. Checked on ratelab against itself (--paired
# --previous with the same binary, 5 rounds): unpaired 0.83-1.09, paired 0.99-1.01. This is the
# figure that says which script costs Redis more; its goal column says "met" when the median is
# at most 0.95 and the upper quartile at most 1.0. With --ab/--previous it adds the new
# ratelab paired against the previous one.
# --instructions runs every server under valgrind (callgrind) and shows, instead of µs, the
# instructions the server executes per EVALSHA (inside evalShaCommand: the script, its Redis
# calls, the reply): the same figure on every run, where µs on a shared machine move by ±15 %.
# --keep DIR keeps each cell's trace and (paired) both sides' commands in DIR, for callgrind of
# one script against another on the same commands.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
ratelab=${RATELAB:-$here/../build/bin/ratelab}
rates="10 100 1000 10000 100000"
loads="0.5 1 1.5 3 10 burst"
flavors="native"
max_requests=300000
keep=""
limiters="token_bucket sliding_1 sliding_10 fixed_window gcra sliding_counter leaky_bucket concurrency"
seconds=3
rounds=1
ab_rev=""
previous=""
paired=""
instructions=""
while [ $# -gt 0 ]; do
    case $1 in
        --rates) rates=$2; shift 2 ;;
        --limiters) limiters=$2; shift 2 ;;
        --loads) loads=$2; shift 2 ;;
        --flavors) flavors=$2; shift 2 ;;
        --max-requests) max_requests=$2; shift 2 ;;
        --keep) keep=$2; shift 2 ;;
        --seconds) seconds=$2; shift 2 ;;
        --rounds) rounds=$2; shift 2 ;;
        --ab) ab_rev=$2; shift 2 ;;
        --previous) previous=$2; shift 2 ;;
        --ratelab) ratelab=$2; shift 2 ;;
        --paired) paired=1; shift ;;
        --instructions) instructions=1; shift ;;
        *) echo "unknown argument: $1" >&2; exit 2 ;;
    esac
done
[ -n "$paired" ] && [ -n "$instructions" ] &&
    { echo "--paired compares server µs; --instructions counts are not timing: pick one" >&2; exit 2; }
paired_calls=${PAIRED_CALLS:-$(dirname "$ratelab")/paired_calls}
[ -z "$paired" ] || [ -x "$paired_calls" ] ||
    { echo "--paired needs paired_calls at $paired_calls (build it or set PAIRED_CALLS)" >&2; exit 2; }
for tool in redis-server redis-cli awk ${instructions:+valgrind callgrind_annotate}; do
    command -v "$tool" >/dev/null || { echo "needs $tool" >&2; exit 2; }
done
[ -x "$ratelab" ] || { echo "no ratelab binary at $ratelab (build it or pass --ratelab)" >&2; exit 2; }

work=$(mktemp -d)
cleanup() {
    # Servers still running (a run that failed): stop them by their pid files.
    for pidfile in "$work"/redis.*/redis.pid; do
        [ -f "$pidfile" ] && kill "$(cat "$pidfile")" 2>/dev/null || true
    done
    if [ -n "$ab_rev" ] && [ -d "$work/ab" ]; then
        git -C "$here/.." worktree remove --force "$work/ab" >/dev/null 2>&1 || true
    fi
    rm -rf "$work"
}
trap cleanup EXIT

if [ -n "$ab_rev" ]; then
    echo "building ratelab at $ab_rev in a temp worktree ..." >&2
    git -C "$here/.." worktree add --detach "$work/ab" "$ab_rev" >/dev/null
    cmake -S "$work/ab" -B "$work/ab/build" -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
    cmake --build "$work/ab/build" -j2 --target ratelab >/dev/null
    previous=$work/ab/build/bin/ratelab
fi

# A paired run's two servers share the last CPU and the sender runs on the first, as a server
# with a core of its own answers clients on other machines: the two servers then take turns on
# one core and the sender's work lands on neither (unpinned, the scheduler moves the three
# processes about and the two sides of a run with the same script on both differ by up to
# 18 %; pinned, by up to 5 %).
# One CPU: nothing is pinned.
cpus=$(nproc)
server_cpu=() sender_cpu=()
if [ "$cpus" -ge 2 ] && command -v taskset >/dev/null; then
    server_cpu=(taskset -c "$((cpus - 1))") sender_cpu=(taskset -c 0)
fi

# A fresh private server; prints its directory (socket: DIR/redis.sock). With "pinned", on
# the paired runs' server CPU.
start_server() {
    local dir launch=()
    [ "${1:-}" = pinned ] && launch=("${server_cpu[@]}")
    dir=$(mktemp -d "$work/redis.XXXXXX")
    chmod 700 "$dir"
    if [ -n "$instructions" ]; then
        valgrind --tool=callgrind --collect-atstart=no --toggle-collect=evalShaCommand \
            --callgrind-out-file="$dir/callgrind.out" --log-file="$dir/valgrind.log" \
            redis-server --port 0 --unixsocket "$dir/redis.sock" --unixsocketperm 700 --save '' \
            --appendonly no --dir "$dir" --pidfile "$dir/redis.pid" \
            --logfile "$dir/redis.log" >/dev/null 2>&1 &
        echo $! >"$dir/valgrind.pid"
    else
        "${launch[@]}" redis-server --port 0 --unixsocket "$dir/redis.sock" --unixsocketperm 700 --save '' \
            --appendonly no --daemonize yes --dir "$dir" --pidfile "$dir/redis.pid" \
            --logfile "$dir/redis.log" >/dev/null
    fi
    for _ in $(seq 400); do
        redis-cli -s "$dir/redis.sock" ping >/dev/null 2>&1 && break
        sleep 0.05
    done
    # One key with a TTL, outside every limiter's keys, as a production server holds many:
    # while no key of a database has one, Redis skips the TTL lookup of every key it reads,
    # which only the side whose keys never expire (Redisson's, keepAliveTime 0) would enjoy.
    redis-cli -s "$dir/redis.sock" SET script-cost:volatile 1 PX 86400000 >/dev/null
    echo "$dir"
}
stop_server() { redis-cli -s "$1/redis.sock" shutdown nosave >/dev/null 2>&1 || true; }

# Server µs per EVALSHA since the server started (ratelab's one EVAL after NOSCRIPT compiles
# the script, as the other side's SCRIPT LOAD does: neither is counted).
# With --instructions: instructions per EVALSHA instead; this stops the server (valgrind writes
# its counts on exit), so read everything else first.
script_usec() {
    local stats
    stats=$(redis-cli -s "$1" INFO commandstats | tr -d '\r')
    if [ -z "$instructions" ]; then
        awk -F'[:,=]' '/^cmdstat_evalsha:/ { calls += $3; usec += $5 }
            END { if (calls) printf "%.2f", usec / calls; else printf "nan" }' <<<"$stats"
        return
    fi
    local dir calls total
    dir=$(dirname "$1")
    calls=$(awk -F'[:,=]' '/^cmdstat_evalsha:/ { print $3 }' <<<"$stats")
    redis-cli -s "$1" shutdown nosave >/dev/null 2>&1 || true
    while kill -0 "$(cat "$dir/valgrind.pid")" 2>/dev/null; do sleep 0.1; done
    total=$(callgrind_annotate "$dir/callgrind.out" 2>/dev/null |
        awk '/PROGRAM TOTALS/ { gsub(",", "", $1); print $1 }')
    awk -v t="$total" -v c="$calls" 'BEGIN { if (c) printf "%.0f", t / c; else printf "nan" }'
}

# Redis calls per EVALSHA since the server started: the commands the scripts ran (every
# command INFO commandstats counts, less the client's own: EVALSHA, EVAL, SCRIPT, the
# replay's reset scan and the bench's own reads).
script_calls() {
    redis-cli -s "$1" INFO commandstats | tr -d '\r' | awk -F'[_:,=]' '
        /^cmdstat_/ { if ($2 == "evalsha") decisions = $4
            else if ($2 !~ /^(eval|script|scan|echo|info|ping|monitor|memory|config|command)(\|.*)?$/) calls += $4 }
        END { if (decisions) printf "%.1f", calls / decisions; else printf "nan" }'
}

# "<bytes> <keys>": MEMORY USAGE summed over the keys matching PATTERN and the EXACT keys.
key_bytes() {
    local sock=$1 pattern=$2 exact=${3:-}
    { redis-cli -s "$sock" --scan --pattern "$pattern"; [ -n "$exact" ] && echo "$exact"; } |
        awk 'NF { printf "MEMORY USAGE %s SAMPLES 0\n", $0 }' | redis-cli -s "$sock" |
        awk '/^[0-9]+$/ { bytes += $1; keys++ } END { printf "%d %d", bytes, keys }'
}

# The trace of LOAD (a factor of the rate, or "burst") at RATE: ROWS rows, one client,
# 1 permit. Poisson at LOAD x RATE requests/s; "burst": 3.5 x RATE requests/s in bursts of one
# millisecond, burst times poisson, sizes geometric with mean 4.
make_trace() {
    awk -v rate="$1" -v load="$2" -v n="$3" -v seed="$4" 'BEGIN {
        srand(seed); t = 1700000000000; print "t_ms,client,permits"
        if (load != "burst") {
            for (i = 0; i < n; i++) { t += -log(1 - rand()) * 1000 / (load * rate); printf "%.0f,c,1\n", int(t) }
            exit
        }
        for (i = 0; i < n;) {
            t += -log(1 - rand()) * 1000 / (3.5 * rate / 4)
            do { printf "%.0f,c,1\n", int(t); i++ } while (i < n && rand() >= 0.25)
        } }'
}

# The requests/s LOAD offers at RATE.
offered() { awk -v r="$1" -v l="$2" 'BEGIN { print (l == "burst" ? 3.5 : l) * r }'; }

# The rules of sliding_N at rate R: min(R x 2^i, 1,000,000) permits per 1000 x 2^i ms,
# i = 0 .. N-1 (a rule's limit is at most 1,000,000).
sliding_rules_json() {
    awk -v r="$1" -v n="$2" 'BEGIN { for (i = 0; i < n; i++)
        printf "%s{\"limit\": %d, \"window_ms\": %d}", (i ? ", " : ""), lim(r, i), 1000 * 2 ^ i }
        function lim(r, i) { return r * 2 ^ i < 1000000 ? r * 2 ^ i : 1000000 }'
}
sliding_rules_args() {
    awk -v r="$1" -v n="$2" 'BEGIN { printf "%d", n; for (i = 0; i < n; i++)
        printf " %d %d", (r * 2 ^ i < 1000000 ? r * 2 ^ i : 1000000), 1000 * 2 ^ i }'
}

# GCRA's and the leaky bucket's burst at rate R: min(R, 100,000) (the parser's bound).
burst_of() { awk -v r="$1" 'BEGIN { print (r < 100000 ? r : 100000) }'; }
# The concurrency limiter's limit at rate R: min(R, 10,000) (the parser's bound).
in_flight_of() { awk -v r="$1" 'BEGIN { print (r < 10000 ? r : 10000) }'; }

# Flavors: a limiter type deciding as a library does (its arithmetic, its keys), measured
# against that library's own script. "native" is ratelab's exact algorithms; "upstash" is the
# sliding counter's flavor, "redis_rate" GCRA's. A flavor needs three things here, each marked
# "flavor:" below: the spec field that selects it (write_spec), the library's own script as its
# yardstick (production_script, in production_scripts/) and that script's commands and replies
# (production_commands, production_grants).
check_flavor() {
    case $1 in
        native | upstash | redis_rate) ;;
        *)
            echo "flavor $1: unknown (native, upstash or redis_rate)" >&2
            exit 2 ;;
    esac
}

# The kind KIND takes in FLAVOR ("sliding_counter_upstash"), or nothing when KIND has no such
# flavor (that cell is skipped).
flavored_kind() {
    case $2:$1 in
        native:*) echo "$1" ;;
        upstash:sliding_counter) echo sliding_counter_upstash ;;
        redis_rate:gcra) echo gcra_redis_rate ;;
    esac
}

# flavor: a flavor's spec adds its field to the spec written here.
write_spec() {  # KIND RATE NAME > spec.json
    local kind=$1 rate=$2 name=$3
    case $kind in
        token_bucket)
            printf '{"type": "token_bucket", "name": "%s", "scope": "global", "rate": %d, "interval_ms": 1000}\n' \
                "$name" "$rate" ;;
        fixed_window)
            printf '{"type": "fixed_window", "name": "%s", "scope": "global", "rate": %d, "interval": 1, "unit": "seconds", "timezone": "UTC"}\n' \
                "$name" "$rate" ;;
        sliding_counter)
            printf '{"type": "sliding_counter", "name": "%s", "scope": "global", "limit": %d, "window_ms": 1000}\n' \
                "$name" "$rate" ;;
        sliding_counter_upstash)
            printf '{"type": "sliding_counter", "name": "%s", "scope": "global", "limit": %d, "window_ms": 1000, "flavor": "upstash"}\n' \
                "$name" "$rate" ;;
        gcra_redis_rate)
            printf '{"type": "gcra", "name": "%s", "scope": "global", "rate": %d, "period_ms": 1000, "burst": %d, "flavor": "redis_rate"}\n' \
                "$name" "$rate" "$(burst_of "$rate")" ;;
        sliding_*)
            printf '{"type": "sliding_window", "name": "%s", "scope": "global", "rules": [%s]}\n' \
                "$name" "$(sliding_rules_json "$rate" "${kind#sliding_}")" ;;
        gcra | leaky_bucket)
            printf '{"type": "%s", "name": "%s", "scope": "global", "rate": %d, "period_ms": 1000, "burst": %d}\n' \
                "$kind" "$name" "$rate" "$(burst_of "$rate")" ;;
        concurrency)
            printf '{"type": "concurrency", "name": "%s", "scope": "global", "limit": %d, "lease_ms": 1000}\n' \
                "$name" "$(in_flight_of "$rate")" ;;
    esac
}

# ratelab BIN on a fresh server: "<µs per call> <bytes> <keys> <accepted>".
run_ratelab() {
    local bin=$1 kind=$2 rate=$3 trace=$4 name=bench-$2 dir exact=""
    dir=$(start_server)
    write_spec "$kind" "$rate" "$name" >"$work/spec.json"
    "$bin" replay --limiter "$work/spec.json" --trace "$trace" \
        --redis "unix://$dir/redis.sock" >"$work/ours.csv"
    [ "$kind" = token_bucket ] && exact=$name
    local memory
    memory=$(key_bytes "$dir/redis.sock" "{$name}:*" "$exact")
    echo "$(script_usec "$dir/redis.sock") $memory" \
        "$(awk -F, 'NR > 1 && $4 == 1 { n++ } END { print n + 0 }' "$work/ours.csv")"
    stop_server "$dir"
}

# The commands `ratelab replay` BIN sends for KIND at RATE over TRACE, recorded with MONITOR
# on a scratch server, one per line in redis-cli's syntax, into FILE; the replay's decisions
# into FILE.csv.
record_ratelab_commands() {
    local bin=$1 kind=$2 rate=$3 trace=$4 file=$5 name=bench-$2 dir monitor
    dir=$(start_server)
    write_spec "$kind" "$rate" "$name" >"$work/spec.json"
    redis-cli -s "$dir/redis.sock" MONITOR >"$work/monitor.txt" &
    monitor=$!
    sleep 0.2
    "$bin" replay --limiter "$work/spec.json" --trace "$trace" \
        --redis "unix://$dir/redis.sock" >"$file.csv"
    # The marker's echo in the recording says every command before it is there.
    redis-cli -s "$dir/redis.sock" ECHO script-cost-end >/dev/null
    for _ in $(seq 600); do
        grep -q '"ECHO" "script-cost-end"' "$work/monitor.txt" && break
        sleep 0.1
    done
    kill "$monitor" 2>/dev/null || true
    wait "$monitor" 2>/dev/null || true
    stop_server "$dir"
    # Client commands only (the scripts' own calls are listed as [0 lua]), without the marker.
    grep ' \[[0-9]* unix:' "$work/monitor.txt" | grep -v '"ECHO" "script-cost-end"' |
        sed 's/^[0-9.]* \[[^]]*\] //' >"$file"
}

# The grants in a replay's decisions (its CSV).
replay_grants() { awk -F, 'NR > 1 && $4 == 1 { n++ } END { print n + 0 }' "$1"; }

# Side by side, one round: ratelab's commands OURS (recorded) on one fresh server and, on
# another, the production commands of KIND at RATE for TRACE (OTHER empty: made here into
# $work/theirs.commands once a cell) or the commands in OTHER (a previous ratelab's), sent by
# paired_calls alternating call by call: "<ours µs per call> <theirs µs per call> <ours bytes>
# <ours keys> <theirs bytes> <theirs keys> <theirs grants> <ours Redis calls per decision>
# <theirs Redis calls per decision>" (bytes, keys and grants of theirs for production only).
run_paired() {
    local kind=$1 rate=$2 trace=$3 commands=$4 other=${5:-} ours theirs sha name=bench-$1
    local exact="" our_memory their_memory="- -" granted=-
    ours=$(start_server pinned)
    theirs=$(start_server pinned)
    if [ -z "$other" ]; then
        sha=$(production_setup "$kind" "$rate" "$theirs/redis.sock")
        other=$work/theirs.commands
        [ -s "$other" ] || production_commands "$kind" "$rate" "$trace" "$sha" >"$other"
    fi
    "${sender_cpu[@]}" "$paired_calls" "$ours/redis.sock" "$commands" "$work/ours.replies" \
        "$theirs/redis.sock" "$other" "$work/theirs.replies" ||
        echo "$kind $rate: paired_calls failed (status $?): the paired figures are not to be trusted" >&2
    [ "$kind" = token_bucket ] && exact=$name
    our_memory=$(key_bytes "$ours/redis.sock" "{$name}:*" "$exact")
    if [ "$other" = "$work/theirs.commands" ]; then
        their_memory=$(production_key_bytes "$kind" "$theirs/redis.sock")
        granted=$(production_grants "$kind" "$work/theirs.replies")
    fi
    echo "$(script_usec "$ours/redis.sock") $(script_usec "$theirs/redis.sock")" \
        "$our_memory $their_memory $granted $(script_calls "$ours/redis.sock")" \
        "$(script_calls "$theirs/redis.sock")"
    stop_server "$ours"
    stop_server "$theirs"
}

# The production script on a fresh server, the trace sent through redis-cli one EVALSHA at a
# time, as `ratelab replay` sends it (pipelining would warm the server's caches and flatter
# one side): "<µs per call> <bytes> <keys> <accepted>". Key TTLs are an hour: the trace's time
# runs faster or slower than the server's, and a TTL meant for real time would drop state
# mid-trace (and change the decisions) wherever the replay runs slower than the trace.
run_production() {
    local kind=$1 rate=$2 trace=$3 dir sha
    dir=$(start_server)
    sha=$(production_setup "$kind" "$rate" "$dir/redis.sock")
    production_commands "$kind" "$rate" "$trace" "$sha" |
        redis-cli -s "$dir/redis.sock" >"$work/theirs.out"
    local memory
    memory=$(production_key_bytes "$kind" "$dir/redis.sock")
    echo "$(script_usec "$dir/redis.sock") $memory" \
        "$(production_grants "$kind" "$work/theirs.out")"
    stop_server "$dir"
}

# flavor: a flavor's yardstick is its library's own script.
production_script() {  # KIND: the file in production_scripts/
    case $1 in
        token_bucket) echo redisson_try_acquire.lua ;;
        fixed_window) echo incrby_pexpire.lua ;;
        gcra) echo gcra_float.lua ;;
        sliding_counter) echo two_window_counter.lua ;;
        sliding_counter_upstash) echo upstash_sliding_window.lua ;;
        gcra_redis_rate) echo redis_rate_allow_n.lua ;;
        leaky_bucket) echo leaky_excess_hash.lua ;;
        concurrency) echo concurrency_zset_leases.lua ;;
        sliding_*) echo sliding_log_zset.lua ;;
    esac
}

# The grants among KIND's production replies in FILE (one line per reply element, as redis-cli
# prints them): nil (an empty line) for Redisson's tryAcquire, 1 for the plain yardsticks;
# flavor: upstash's {remaining, limit} not starting -1, redis_rate's {allowed, remaining,
# retry, reset} starting 1.
production_grants() {
    awk -v kind="$1" '
        kind == "token_bucket" { if ($0 == "") n++; next }
        kind == "sliding_counter_upstash" { if (NR % 2 == 1 && $0 != "-1") n++; next }
        kind == "gcra_redis_rate" { if (NR % 4 == 1 && $0 == "1") n++; next }
        $0 == "1" { n++ }
        END { print n + 0 }' "$2"
}

# Loads KIND's production script (and Redisson's config hash) on SOCKET; prints the sha.
production_setup() {
    local kind=$1 rate=$2 sock=$3 name=prod-$1
    [ "$kind" = token_bucket ] &&
        redis-cli -s "$sock" HSET "$name" rate "$rate" interval 1000 type 0 keepAliveTime 0 >/dev/null
    redis-cli -s "$sock" SCRIPT LOAD "$(cat "$here/production_scripts/$(production_script "$kind")")"
}

production_key_bytes() {  # KIND SOCKET: "<bytes> <keys>" of the production keys
    local name=prod-$1
    case $1 in
        token_bucket) key_bytes "$2" "{$name}:*" "$name" ;;
        fixed_window) key_bytes "$2" "$name:*" ;;
        *) key_bytes "$2" "{$name}:*" ;;
    esac
}

# The EVALSHA commands for TRACE, one per line (flavor: its library's keys and arguments).
production_commands() {
    local kind=$1 rate=$2 trace=$3 sha=$4 name=prod-$1 rules=""
    case $kind in sliding_counter*) ;; sliding_*) rules=$(sliding_rules_args "$rate" "${kind#sliding_}") ;; esac
    awk -F, -v kind="$kind" -v sha="$sha" -v name="$name" -v rate="$rate" -v rules="$rules" \
        -v burst="$(burst_of "$rate")" -v inflight="$(in_flight_of "$rate")" \
        -v seed=7 '
        function command(args, n,   out, i) {
            out = args[1]; for (i = 2; i <= n; i++) out = out " " args[i]; print out }
        function hex(n,   s, i) { s = ""; for (i = 0; i < n; i++) s = s substr("0123456789abcdef", int(rand() * 16) + 1, 1); return s }
        BEGIN { srand(seed); nr = split(rules, rule, " ")
            longest = 0; for (i = 3; i <= nr; i += 2) if (rule[i] > longest) longest = rule[i] }
        NR > 1 {
            t = $1; n = 0; a[++n] = "EVALSHA"; a[++n] = sha
            if (kind == "token_bucket") {
                a[++n] = 5; a[++n] = name; a[++n] = "{" name "}:value"; a[++n] = "{" name "}:value:id"
                a[++n] = "{" name "}:permits"; a[++n] = "{" name "}:permits:id"
                a[++n] = 1; a[++n] = t; a[++n] = hex(16)
            } else if (kind == "fixed_window") {
                a[++n] = 1; a[++n] = sprintf("%s:%.0f", name, int(t / 1000) * 1000)
                a[++n] = 1; a[++n] = 3600000; a[++n] = rate
            } else if (kind == "gcra" || kind == "leaky_bucket") {
                a[++n] = 1; a[++n] = "{" name "}:" (kind == "gcra" ? "tat" : "lb")
                a[++n] = t; a[++n] = rate; a[++n] = 1000; a[++n] = burst; a[++n] = 1; a[++n] = 3600000
            } else if (kind == "concurrency") {
                a[++n] = 1; a[++n] = "{" name "}:leases"
                a[++n] = inflight; a[++n] = t; a[++n] = 1000; a[++n] = hex(16); a[++n] = 3600000
            } else if (kind == "sliding_counter_upstash") {
                w = int(t / 1000); a[++n] = 2
                a[++n] = sprintf("{%s}:up:%.0f", name, w); a[++n] = sprintf("{%s}:up:%.0f", name, w - 1)
                a[++n] = rate; a[++n] = t; a[++n] = 1000; a[++n] = 1; a[++n] = 3600000
            } else if (kind == "gcra_redis_rate") {
                a[++n] = 1; a[++n] = "{" name "}:rr"
                a[++n] = burst; a[++n] = rate; a[++n] = 1; a[++n] = 1; a[++n] = t; a[++n] = 3600
            } else if (kind == "sliding_counter") {
                w = int(t / 1000); a[++n] = 2
                a[++n] = sprintf("{%s}:sc:%.0f", name, w); a[++n] = sprintf("{%s}:sc:%.0f", name, w - 1)
                a[++n] = t; a[++n] = 1000; a[++n] = rate; a[++n] = 1; a[++n] = 3600000
            } else {
                a[++n] = 1; a[++n] = "{" name "}:log"; a[++n] = t
                a[++n] = hex(8) "-" hex(4) "-" hex(4) "-" hex(4) "-" hex(12); a[++n] = 3600000
                for (i = 1; i <= nr; i++) a[++n] = rule[i]
            }
            command(a, n)
        }' "$trace"
}

# "<median> (<q1>-<q3>)" of ratios, two decimals: the spread says how far the median can be trusted.
quartiles() {
    sort -g | awk '{ v[NR] = $1 }
        function at(q,   i, f) { i = 1 + (NR - 1) * q; f = int(i); return v[f] + (i - f) * (v[f + 1] - v[f]) }
        END { printf "%.2f (%.2f-%.2f)", at(0.5), at(0.25), at(0.75) }'
}
median() { sort -g | awk '{ v[NR] = $1 } END { if (NR % 2) print v[(NR + 1) / 2]; else printf "%.2f\n", (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

# "met" when the ratios' median is at most 0.95 and their upper quartile at most 1.0 (the
# goal of every paired cell), else "over".
verdict() {
    sort -g | awk '{ v[NR] = $1 }
        function at(q,   i, f) { i = 1 + (NR - 1) * q; f = int(i); return v[f] + (i - f) * (v[f + 1] - v[f]) }
        END { print (at(0.5) <= 0.95 && at(0.75) <= 1.0) ? "met" : "over" }'
}
ratio_of() { awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) print a / b; else print "nan" }'; }
bytes_ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.2f", a / b; else printf "-" }'; }

unit="µs"
[ -n "$instructions" ] && unit="instructions"
paired_previous=""
[ -n "$paired" ] && [ -n "$previous" ] && paired_previous=1
if [ -n "$paired" ]; then
    echo "| limiter | rate/s | load | requests | ratelab µs, paired | production µs, paired | ratio, paired (quartiles) | goal |${paired_previous:+ new/previous, paired (quartiles) |} Redis calls per decision (ratelab / production) | ratelab bytes (keys) | production bytes (keys) | bytes ratio | accepted (ratelab / production) |"
    echo "|---|---|---|---|---|---|---|---|${paired_previous:+---|}---|---|---|---|---|"
else
    echo "| limiter | rate/s | load | requests | ratelab $unit | production $unit | ratio (quartiles) |${previous:+ previous $unit | new/previous |} ratelab bytes (keys) | production bytes (keys) | bytes ratio | accepted (ratelab / production) |"
    echo "|---|---|---|---|---|---|---|${previous:+---|---|}---|---|---|---|"
fi
for flavor in $flavors; do
    check_flavor "$flavor"
for base_kind in $limiters; do
    kind=$(flavored_kind "$base_kind" "$flavor")
    [ -n "$kind" ] || continue
    label=$base_kind
    [ "$flavor" = native ] || label="$base_kind ($flavor)"
    for rate in $rates; do
        for load in $loads; do
        rows=$(awk -v t="$(offered "$rate" "$load")" -v s="$seconds" -v cap="$max_requests" \
            'BEGIN { n = int(t * s); if (n > cap) n = cap; print (n < 3000 ? 3000 : n) }')
        trace=$work/trace-$rate-$load.csv
        make_trace "$rate" "$load" "$rows" 42 >"$trace"
        # Ratios are medians of each round's own ratio: the two runs of a round are seconds
        # apart (or, paired, call by call), so a shared host's slow minutes weigh on both
        # sides of it alike.
        ours=() theirs=() before=() ratio=() ratio_before=() ratio_paired_before=()
        if [ -n "$paired" ]; then
            # One recording per cell: the decisions are the same in every round (the request
            # ids are random, so the commands differ only in them).
            record_ratelab_commands "$ratelab" "$kind" "$rate" "$trace" "$work/ours.commands"
            our_accepted=$(replay_grants "$work/ours.commands.csv")
            [ -n "$paired_previous" ] &&
                record_ratelab_commands "$previous" "$kind" "$rate" "$trace" "$work/previous.commands"
            rm -f "$work/theirs.commands"
        fi
        for round in $(seq "$rounds"); do
            if [ -n "$paired" ]; then
                read -r us them bytes keys tbytes tkeys taccepted our_calls their_calls \
                    <<<"$(run_paired "$kind" "$rate" "$trace" "$work/ours.commands")"
                ours+=("$us") theirs+=("$them") ratio+=("$(ratio_of "$us" "$them")")
                our_mem="$bytes ($keys)" their_mem="$tbytes ($tkeys)"
                [ -z "${their_accepted:-}" ] || [ "$taccepted" = "$their_accepted" ] ||
                    echo "$kind $rate $load: production granted $taccepted, $their_accepted the round before" >&2
                their_accepted=$taccepted
                if [ -n "$paired_previous" ]; then
                    read -r a b _ <<<"$(run_paired "$kind" "$rate" "$trace" "$work/ours.commands" \
                        "$work/previous.commands")"
                    ratio_paired_before+=("$(ratio_of "$a" "$b")")
                fi
                continue
            fi
            # Which side runs first alternates: the first run of a pair can find the machine
            # in another state (frequency, caches) than the second.
            if ((round % 2)); then
                read -r us bytes keys accepted <<<"$(run_ratelab "$ratelab" "$kind" "$rate" "$trace")"
                read -r them tbytes tkeys taccepted <<<"$(run_production "$kind" "$rate" "$trace")"
            else
                read -r them tbytes tkeys taccepted <<<"$(run_production "$kind" "$rate" "$trace")"
                read -r us bytes keys accepted <<<"$(run_ratelab "$ratelab" "$kind" "$rate" "$trace")"
            fi
            ours+=("$us"); our_mem="$bytes ($keys)"; our_accepted=$accepted
            theirs+=("$them"); their_mem="$tbytes ($tkeys)"; their_accepted=$taccepted
            ratio+=("$(ratio_of "$us" "$them")")
            if [ -n "$previous" ]; then
                read -r b _ _ _ <<<"$(run_ratelab "$previous" "$kind" "$rate" "$trace")"
                before+=("$b")
                ratio_before+=("$(ratio_of "$us" "$b")")
            fi
        done
        if [ -n "$keep" ]; then
            # The trace and, paired, both sides' commands, for a closer look (callgrind of one
            # script against another on the same commands, replies compared line by line).
            mkdir -p "$keep"
            cp "$trace" "$keep/$kind-$rate-$load.trace.csv"
            if [ -n "$paired" ]; then
                cp "$work/ours.commands" "$keep/$kind-$rate-$load.ratelab.commands"
                cp "$work/theirs.commands" "$keep/$kind-$rate-$load.production.commands"
            fi
        fi
        o=$(printf '%s\n' "${ours[@]}" | median)
        p=$(printf '%s\n' "${theirs[@]}" | median)
        row="| $label | $rate | $load | $rows | $o | $p | $(printf '%s\n' "${ratio[@]}" | quartiles) |"
        [ -n "$paired" ] && row="$row $(printf '%s\n' "${ratio[@]}" | verdict) |"
        if [ -n "$previous" ] && [ -z "$paired" ]; then
            b=$(printf '%s\n' "${before[@]}" | median)
            r=$(printf '%s\n' "${ratio_before[@]}" | median)
            row="$row $b | $(awk -v r="$r" 'BEGIN { printf "%.2f", r }') |"
        fi
        [ -n "$paired_previous" ] && row="$row $(printf '%s\n' "${ratio_paired_before[@]}" | quartiles) |"
        [ -n "$paired" ] && row="$row $our_calls / $their_calls |"
        echo "$row $our_mem | $their_mem | $(bytes_ratio "${our_mem%% *}" "${their_mem%% *}") | $our_accepted / $their_accepted |"
        unset their_accepted
        done
    done
done
done
