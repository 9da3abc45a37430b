#!/bin/sh
# CTest fixture: starts or stops the tests' private Redis Cluster: three masters on loopback
# ports BASE, BASE+1, BASE+2 (cluster bus on +10000), no replicas, no persistence, each in its
# own folder under DIR. Never touches any other server.
set -eu
action=$1
dir=$2
base=${3:-30701}
server=${RATELAB_REDIS_SERVER:-redis-server}
ports="$base $((base + 1)) $((base + 2))"

. "$(dirname "$0")/redis_fixture_lib.sh"

stop_servers() {
    for port in $ports; do
        stop_pidfile "$dir/$port/redis.pid"
        rm -f "$dir/$port/nodes.conf"
    done
}

wait_for() {  # wait_for DESCRIPTION COMMAND...
    what=$1
    shift
    i=0
    until "$@" >/dev/null 2>&1; do
        i=$((i + 1))
        if [ $i -gt 400 ]; then
            echo "redis cluster fixture: $what did not happen; logs:" >&2
            for port in $ports; do tail -n 20 "$dir/$port/redis.log" >&2 || true; done
            exit 1
        fi
        sleep 0.05
    done
}

cluster_ok() {
    for port in $ports; do
        redis-cli -p "$port" cluster info | grep -q '^cluster_state:ok' || return 1
        # every node must know all three masters before tests route by its slot map
        [ "$(redis-cli -p "$port" cluster nodes | grep -c master)" -eq 3 ] || return 1
    done
}

case $action in
start)
    stop_servers
    for port in $ports; do
        if redis-cli -p "$port" ping >/dev/null 2>&1; then
            echo "redis cluster fixture: port $port is taken by another server;" \
                "configure with -DRATELAB_TEST_CLUSTER_PORT=<free base port>" >&2
            exit 1
        fi
    done
    for port in $ports; do
        mkdir -p "$dir/$port"
        chmod 700 "$dir/$port"
        "$server" --port "$port" --bind 127.0.0.1 --cluster-enabled yes \
            --cluster-config-file "$dir/$port/nodes.conf" --cluster-node-timeout 5000 \
            --save "" --appendonly no --dir "$dir/$port" --daemonize yes \
            --pidfile "$dir/$port/redis.pid" --logfile "$dir/$port/redis.log"
    done
    for port in $ports; do
        wait_for "redis-server on port $port" redis-cli -p "$port" ping
    done
    # shellcheck disable=SC2086
    redis-cli --cluster create $(for p in $ports; do printf '127.0.0.1:%s ' "$p"; done) \
        --cluster-replicas 0 --cluster-yes >"$dir/create.log" 2>&1 || {
        cat "$dir/create.log" >&2
        exit 1
    }
    wait_for "cluster_state:ok on every node" cluster_ok
    echo "redis cluster fixture: 3 masters on 127.0.0.1:$ports"
    ;;
stop)
    stop_servers
    echo "redis cluster fixture: stopped"
    ;;
*)
    echo "usage: $0 start|stop DIR [BASE_PORT]" >&2
    exit 2
    ;;
esac
