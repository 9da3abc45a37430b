#!/bin/sh
# CTest fixture: starts or stops the tests' private redis-server (unix socket only, no
# persistence) in DIR. Never touches any other server.
set -eu
action=$1
dir=$2
sock=$dir/redis.sock
pidfile=$dir/redis.pid
server=${RATELAB_REDIS_SERVER:-redis-server}

# A daemonized server is reparented; where nothing reaps orphans (a container whose PID 1 is
# not an init) it lingers as a zombie after exiting, which kill -0 would count as alive.
alive() {
    [ -r "/proc/$1/stat" ] || return 1
    ! sed 's/.*) //' "/proc/$1/stat" | grep -q '^Z'
}

stop_server() {
    if [ -f "$pidfile" ]; then
        pid=$(cat "$pidfile")
        kill "$pid" 2>/dev/null || true
        i=0
        while alive "$pid" && [ $i -lt 100 ]; do sleep 0.05; i=$((i + 1)); done
        kill -9 "$pid" 2>/dev/null || true
        rm -f "$pidfile"
    fi
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
