#!/bin/sh
# CTest fixture: the TLS tests' certificates and private TLS-only redis-servers on loopback.
#   redis_tls_fixture.sh start|stop DIR BASE_PORT
# Certificates (openssl CLI, into DIR/certs): a CA, a server certificate for 127.0.0.1 and
# localhost, a client certificate, and three bad server certificates: expired, signed by
# another CA, issued for another name. Servers (all bound to 127.0.0.1, no persistence):
#   BASE      TLS, good certificate, client certificates optional; plain TCP on BASE+2 too
#             (the bench compares both on one server)
#   BASE+1    TLS, client certificate required (mutual TLS)
#   BASE+3    TLS, expired certificate
#   BASE+4    TLS, certificate from another CA
#   BASE+5    TLS, certificate for a wrong name
#   BASE+6    a one-node Redis Cluster over TLS (tls-cluster), all slots
# Never touches any other server.
set -eu
action=$1
dir=$2
base=$3
server=${RATELAB_REDIS_SERVER:-redis-server}
certs=$dir/certs

. "$(dirname "$0")/redis_fixture_lib.sh"

make_certs() {
    rm -rf "$certs"
    mkdir -p "$certs"
    cd "$certs"
    days=3650
    # key NAME; cert NAME CA SUBJECT-CN SAN DAYS [EXTRA-EXT]
    key() { openssl genrsa -out "$1.key" 2048 2>/dev/null; }
    ca() {
        key "$1"
        openssl req -x509 -new -key "$1.key" -out "$1.crt" -days $days -subj "/CN=$2" \
            -addext "basicConstraints=critical,CA:TRUE" -addext "keyUsage=keyCertSign,cRLSign"
    }
    cert() {
        key "$1"
        openssl req -new -key "$1.key" -out "$1.csr" -subj "/CN=$3"
        printf 'subjectAltName=%s\nbasicConstraints=CA:FALSE\nextendedKeyUsage=%s\n' "$4" "$6" \
            >"$1.ext"
        openssl x509 -req -in "$1.csr" -CA "$2.crt" -CAkey "$2.key" -CAcreateserial \
            -out "$1.crt" -days "$5" -extfile "$1.ext" 2>/dev/null
        rm -f "$1.csr" "$1.ext"
    }
    ca ca "ratelab test CA"
    ca other-ca "another CA"
    cert server ca localhost "DNS:localhost,IP:127.0.0.1" $days serverAuth
    cert client ca "ratelab test client" "DNS:client" $days clientAuth
    # -days -1: valid from now, expired since yesterday
    cert expired ca localhost "DNS:localhost,IP:127.0.0.1" -1 serverAuth
    cert other other-ca localhost "DNS:localhost,IP:127.0.0.1" $days serverAuth
    cert wrong-name ca wrong.example "DNS:wrong.example,IP:10.9.9.9" $days serverAuth
    chmod 600 ./*.key
    cd - >/dev/null
}

# start_server NAME TLS_PORT CERT AUTH_CLIENTS [redis-server options...]
start_server() {
    name=$1 port=$2 cert=$3 auth=$4
    shift 4
    mkdir -p "$dir/$name"
    "$server" --bind 127.0.0.1 --port 0 --tls-port "$port" --tls-cert-file "$certs/$cert.crt" \
        --tls-key-file "$certs/$cert.key" --tls-ca-cert-file "$certs/ca.crt" \
        --tls-auth-clients "$auth" --save "" --appendonly no --dir "$dir/$name" \
        --daemonize yes --pidfile "$dir/$name/redis.pid" --logfile "$dir/$name/redis.log" "$@"
}

# wait_server NAME TLS_PORT: until it answers PING over TLS (with the client certificate)
wait_server() {
    i=0
    until redis-cli --tls --cacert "$certs/ca.crt" --cert "$certs/client.crt" \
        --key "$certs/client.key" --insecure -h 127.0.0.1 -p "$2" ping 2>/dev/null | grep -q PONG; do
        i=$((i + 1))
        if [ $i -gt 100 ]; then
            echo "redis tls fixture: $1 did not come up; log:" >&2
            cat "$dir/$1/redis.log" >&2 || true
            exit 1
        fi
        sleep 0.05
    done
}

stop_all() {
    for name in main mutual expired other wrong-name cluster; do
        stop_pidfile "$dir/$name/redis.pid"
    done
}

case $action in
start)
    mkdir -p "$dir"
    chmod 700 "$dir"
    stop_all
    make_certs
    start_server main "$base" server optional --port $((base + 2))
    start_server mutual $((base + 1)) server yes
    start_server expired $((base + 3)) expired optional
    start_server other $((base + 4)) other optional
    start_server wrong-name $((base + 5)) wrong-name optional
    rm -f "$dir/cluster/nodes.conf"
    start_server cluster $((base + 6)) server optional --cluster-enabled yes --tls-cluster yes \
        --cluster-config-file "$dir/cluster/nodes.conf"
    for s in "main $base" "mutual $((base + 1))" "expired $((base + 3))" \
        "other $((base + 4))" "wrong-name $((base + 5))" "cluster $((base + 6))"; do
        # shellcheck disable=SC2086
        wait_server $s
    done
    redis-cli --tls --cacert "$certs/ca.crt" -h 127.0.0.1 -p $((base + 6)) \
        cluster addslotsrange 0 16383 >/dev/null
    i=0
    until redis-cli --tls --cacert "$certs/ca.crt" -h 127.0.0.1 -p $((base + 6)) cluster info |
        grep -q 'cluster_state:ok'; do
        i=$((i + 1))
        if [ $i -gt 200 ]; then
            echo "redis tls fixture: the TLS cluster node did not come up" >&2
            exit 1
        fi
        sleep 0.05
    done
    echo "redis tls fixture: TLS servers on 127.0.0.1:$base..$((base + 6)), certificates in $certs"
    ;;
stop)
    stop_all
    echo "redis tls fixture: stopped"
    ;;
*)
    echo "usage: $0 start|stop DIR BASE_PORT" >&2
    exit 2
    ;;
esac
