#!/bin/sh
# CTest fixture: starts or stops the tests' private Sentinel set on loopback: a primary on BASE,
# its replica on BASE+1, two sentinels on BASE+2 and BASE+3 monitoring it as MASTER_NAME (quorum
# 1, short down-after and failover timeouts), no persistence, each in its own folder under DIR.
# The tests may fail over (primary and replica swap roles): `stop` stops all four by their pid
# files whatever their roles. Never touches any other server.
set -eu
action=$1
dir=$2
base=${3:-30721}
name=${4:-ratelab-test}
server=${RATELAB_REDIS_SERVER:-redis-server}
primary=$base
replica=$((base + 1))
sentinels="$((base + 2)) $((base + 3))"
ports="$primary $replica $sentinels"

. "$(dirname "$0")/redis_fixture_lib.sh"

stop_servers() {
    for port in $ports; do
        stop_pidfile "$dir/$port/redis.pid"
    done
}

wait_for() {  # wait_for DESCRIPTION COMMAND...
    what=$1
    shift
    i=0
    until "$@" >/dev/null 2>&1; do
        i=$((i + 1))
        if [ $i -gt 400 ]; then
            echo "redis sentinel fixture: $what did not happen; logs:" >&2
            for port in $ports; do tail -n 20 "$dir/$port/redis.log" >&2 || true; done
            exit 1
        fi
        sleep 0.05
    done
}

replica_linked() {
    redis-cli -p "$replica" info replication | grep -q '^master_link_status:up'
}

# Every sentinel names the primary, sees the replica (flags exactly "slave": not down, not
# disconnected) and knows the other sentinel, so a failover can start at once.
sentinels_ready() {
    for port in $sentinels; do
        redis-cli -p "$port" sentinel get-master-addr-by-name "$name" | grep -qx "$primary" ||
            return 1
        redis-cli -p "$port" sentinel replicas "$name" |
            awk 'prev == "flags" && $0 == "slave" { ok = 1 } { prev = $0 } END { exit !ok }' ||
            return 1
        [ "$(redis-cli -p "$port" sentinel sentinels "$name" | grep -c '^runid$')" -ge 1 ] ||
            return 1
    done
}

start_server() {  # start_server PORT [ARGS...]
    port=$1
    shift
    "$server" --port "$port" --bind 127.0.0.1 --save "" --appendonly no --dir "$dir/$port" \
        --daemonize yes --pidfile "$dir/$port/redis.pid" --logfile "$dir/$port/redis.log" \
        --repl-diskless-sync yes --repl-diskless-sync-delay 0 --enable-debug-command local "$@"
}

case $action in
start)
    stop_servers
    for port in $ports; do
        if redis-cli -p "$port" ping >/dev/null 2>&1; then
            echo "redis sentinel fixture: port $port is taken by another server;" \
                "configure with -DRATELAB_TEST_CLUSTER_PORT=<free base port>" >&2
            exit 1
        fi
    done
    for port in $ports; do
        rm -rf "${dir:?}/$port"
        mkdir -p "$dir/$port"
        chmod 700 "$dir/$port"
    done
    start_server "$primary"
    start_server "$replica" --replicaof 127.0.0.1 "$primary"
    for port in $sentinels; do
        # A sentinel rewrites its config file, so each gets its own.
        cat >"$dir/$port/sentinel.conf" <<EOF
port $port
bind 127.0.0.1
daemonize yes
pidfile $dir/$port/redis.pid
logfile $dir/$port/redis.log
dir $dir/$port
sentinel monitor $name 127.0.0.1 $primary 1
sentinel down-after-milliseconds $name 1000
sentinel failover-timeout $name 5000
EOF
        "$server" "$dir/$port/sentinel.conf" --sentinel
    done
    for port in $ports; do
        wait_for "redis-server on port $port" redis-cli -p "$port" ping
    done
    wait_for "the replica's link to the primary" replica_linked
    wait_for "the sentinels seeing the replica and each other" sentinels_ready
    echo "redis sentinel fixture: primary 127.0.0.1:$primary, replica :$replica," \
        "sentinels :$(echo "$sentinels" | sed 's/ /, :/'), master name $name"
    ;;
stop)
    stop_servers
    echo "redis sentinel fixture: stopped"
    ;;
*)
    echo "usage: $0 start|stop DIR [BASE_PORT [MASTER_NAME]]" >&2
    exit 2
    ;;
esac
