#!/bin/sh
# CTest fixture: starts or stops the tests' private redis-server (unix socket only, no
# persistence) in DIR. Never touches any other server.
set -eu
action=$1
dir=$2
sock=$dir/redis.sock
pidfile=$dir/redis.pid
server=${RATELAB_REDIS_SERVER:-redis-server}

. "$(dirname "$0")/redis_fixture_lib.sh"

stop_server() {
    stop_pidfile "$pidfile"
    rm -f "$sock"
}

case $action in
start)
    mkdir -p "$dir"
    chmod 700 "$dir"
    stop_server
    "$server" --port 0 --unixsocket "$sock" --unixsocketperm 700 --save "" --appendonly no \
        --dir "$dir" --daemonize yes --pidfile "$pidfile" --logfile "$dir/redis.log"
    i=0
    until redis-cli -s "$sock" ping >/dev/null 2>&1; do
        i=$((i + 1))
        if [ $i -gt 100 ]; then
            echo "redis fixture: server did not come up; log:" >&2
            cat "$dir/redis.log" >&2 || true
            exit 1
        fi
        sleep 0.05
    done
    echo "redis fixture: $(redis-cli -s "$sock" info server | grep redis_version) on $sock"
    ;;
stop)
    stop_server
    echo "redis fixture: stopped"
    ;;
*)
    echo "usage: $0 start|stop DIR" >&2
    exit 2
    ;;
esac
