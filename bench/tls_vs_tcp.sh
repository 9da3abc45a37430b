#!/bin/sh
# ratelab bench over TLS against plain TCP to the same redis-server (one with both --port and
# --tls-port), alternating the two, and the median decisions/s of each.
#   bench/tls_vs_tcp.sh SPEC CONNECTIONS PIPELINE REQUESTS ROUNDS TLS_URL TCP_URL CA_FILE
# e.g. bench/tls_vs_tcp.sh bench/specs/fixed-window-open.json 1 16 200000 7 \
#        rediss://127.0.0.1:6380 redis://127.0.0.1:6379 ca.crt
set -eu
spec=$1 connections=$2 pipeline=$3 requests=$4 rounds=$5 tls=$6 tcp=$7 ca=$8
bin=${RATELAB_BIN:-build/bin/ratelab}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
one() {  # one run: prints decisions/s
    "$bin" bench --limiter "$spec" --connections "$connections" --pipeline "$pipeline" \
        --requests "$requests" "$@" | sed -n 's/^decisions_per_s: //p'
}
i=0
while [ $i -lt "$rounds" ]; do
    t=$(one --redis "$tls" --tls-ca-cert "$ca")
    p=$(one --redis "$tcp")
    echo "round $((i + 1)): tls $t  tcp $p"
    echo "$t" >>"$tmp/tls"
    echo "$p" >>"$tmp/tcp"
    i=$((i + 1))
done
median() { sort -n "$1" | awk '{a[NR]=$1} END {print (NR % 2) ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2}'; }
mt=$(median "$tmp/tls")
mp=$(median "$tmp/tcp")
echo "median decisions/s: tls $mt  tcp $mp  ratio tls/tcp $(awk "BEGIN {printf \"%.3f\", $mt/$mp}")"
echo "load: $(cut -d' ' -f1-3 /proc/loadavg)"
