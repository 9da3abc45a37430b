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

# One round: appends OURS / THEIRS (three decimals) to the caller's array `ratios` and prints
# "round ROUND: OURS_LABEL OURS/s  THEIRS_LABEL THEIRS/s  ratio R".
report_round() {  # ROUND OURS_LABEL OURS THEIRS_LABEL THEIRS
    local ratio
    ratio=$(awk -v a="$3" -v b="$5" 'BEGIN { printf "%.3f", a / b }')
    ratios+=("$ratio")
    printf 'round %d: %s %s/s  %s %s/s  ratio %s\n' "$1" "$2" "$3" "$4" "$5" "$ratio"
}
