# Sourced by the CTest fixture scripts (POSIX sh).

# A daemonized server is reparented; where nothing reaps orphans (a container whose PID 1 is
# not an init) it lingers as a zombie after exiting, which kill -0 would count as alive.
alive() {
    [ -r "/proc/$1/stat" ] || return 1
    ! sed 's/.*) //' "/proc/$1/stat" | grep -q '^Z'
}

# stop_pidfile PIDFILE: SIGTERM the server it names, up to 5 s to exit, then SIGKILL; removes
# the pid file. Does nothing without one.
stop_pidfile() {
    if [ -f "$1" ]; then
        pid=$(cat "$1")
        kill "$pid" 2>/dev/null || true
        i=0
        while alive "$pid" && [ $i -lt 100 ]; do sleep 0.05; i=$((i + 1)); done
        kill -9 "$pid" 2>/dev/null || true
        rm -f "$1"
    fi
}
