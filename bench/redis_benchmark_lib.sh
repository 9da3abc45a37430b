# Sourced by bench/compare_redis_benchmark.sh and bench/ceiling.sh.

# Runs a redis-benchmark command line (as `ratelab bench` prints it) and prints its requests
# per second (-q's last figure).
redis_benchmark_rate() {
    eval "$1" 2>/dev/null | tr '\r' '\n' |
        sed -n 's/.*: \([0-9.]*\) requests per second.*/\1/p' | tail -1
}

# Reads one ratio per line; prints "median ratio (LABEL): M over N rounds".
print_median_ratio() {
    sort -n | awk -v label="$1" '{a[NR]=$1} END {
        m = (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2
        printf "median ratio (%s): %.3f over %d rounds\n", label, m, NR}'
}

# A / B to three decimals.
ratio3() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.3f", a / b }'; }
