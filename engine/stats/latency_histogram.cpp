#include "stats/latency_histogram.h"

#include <QtAlgorithms>
#include <QtGlobal>
#include <algorithm>
#include <cmath>

namespace ratelab {

namespace {

constexpr int kHalfBits = LatencyHistogram::kSubBits - 1;
constexpr std::int64_t kExactCount = std::int64_t(1) << LatencyHistogram::kSubBits;

// Single writer: a relaxed load + store is enough and cheaper than a locked read-modify-write.
template <typename T>
void bump(std::atomic<T>& counter, T by) {
    counter.store(counter.load(std::memory_order_relaxed) + by, std::memory_order_relaxed);
}

}  // namespace

// Layout: index v for v < 2^kSubBits; above, a value with highest set bit b (b >= kSubBits)
// sits in octave shift = b - kHalfBits and sub-bucket v >> shift, which is in
// [2^kHalfBits, 2^kSubBits). Index = (shift << kHalfBits) + (v >> shift) continues the exact
// range without gaps: the last exact index is 2^kSubBits - 1, the first octave starts at
// (1 << kHalfBits) + (2^kSubBits >> 1) = 2^kSubBits.
int LatencyHistogram::bucketIndex(std::int64_t valueUs) {
    const std::int64_t v = std::clamp<std::int64_t>(valueUs, 0, kMaxValue);
    if (v < kExactCount)
        return int(v);
    const int highestBit = 63 - int(qCountLeadingZeroBits(quint64(v)));
    const int shift = highestBit - kHalfBits;
    return (shift << kHalfBits) + int(v >> shift);
}

std::int64_t LatencyHistogram::bucketLowest(int index) {
    Q_ASSERT(index >= 0 && index < kBucketCount);
    if (index < kExactCount)
        return index;
    const int shift = (index >> kHalfBits) - 1;
    const std::int64_t sub = (1 << kHalfBits) + (index & ((1 << kHalfBits) - 1));
    return sub << shift;
}

std::int64_t LatencyHistogram::bucketHighest(int index) {
    if (index < kExactCount)
        return index;
    const int shift = (index >> kHalfBits) - 1;
    return bucketLowest(index) + (std::int64_t(1) << shift) - 1;
}

void LatencyHistogram::record(std::int64_t valueUs) {
    constexpr auto relaxed = std::memory_order_relaxed;
    std::int64_t v = std::max<std::int64_t>(valueUs, 0);
    if (v > kMaxValue) {
        bump<std::uint64_t>(clamped_, 1);
        v = kMaxValue;
    }
    if (v < min_.load(relaxed))
        min_.store(v, relaxed);
    if (v > max_.load(relaxed))
        max_.store(v, relaxed);
    bump<double>(sum_, double(v));
    bump<std::uint64_t>(counts_[bucketIndex(v)], 1);
    bump<std::uint64_t>(total_, 1);
}

LatencyHistogram::Snapshot LatencyHistogram::snapshot() const {
    constexpr auto relaxed = std::memory_order_relaxed;
    Snapshot s;
    int first = -1;
    int last = -1;
    for (int i = 0; i < kBucketCount; ++i) {
        s.counts[i] = counts_[i].load(relaxed);
        if (s.counts[i]) {
            if (first < 0)
                first = i;
            last = i;
        }
        // The total is the sum of the counts read, not total_: while the writer runs, the two
        // may disagree, and percentile() needs the counts to add up to the total.
        s.total += s.counts[i];
    }
    s.sum = sum_.load(relaxed);
    s.clamped = clamped_.load(relaxed);
    if (s.total == 0)
        return s;
    // Relaxed loads may see min/max older than the counts; they can't be outside the first and
    // last non-empty buckets, so clamping keeps the snapshot consistent (a no-op once settled).
    s.min = std::clamp(min_.load(relaxed), bucketLowest(first), bucketHighest(first));
    s.max = std::clamp(max_.load(relaxed), bucketLowest(last), bucketHighest(last));
    return s;
}

void LatencyHistogram::Snapshot::merge(const Snapshot& other) {
    clamped += other.clamped;
    if (other.total == 0)
        return;
    for (int i = 0; i < kBucketCount; ++i)
        counts[i] += other.counts[i];
    min = total ? std::min(min, other.min) : other.min;
    max = total ? std::max(max, other.max) : other.max;
    total += other.total;
    sum += other.sum;
}

std::int64_t LatencyHistogram::Snapshot::percentile(double p) const {
    if (total == 0)
        return 0;
    if (!(p > 0))  // also NaN
        return min;
    // The relative nudge keeps e.g. 99.9% of 1000 at rank 999 despite rounding in p / 100.
    const double exactRank = std::min(p, 100.0) / 100.0 * double(total) * (1 - 1e-12);
    const std::uint64_t rank =
        std::clamp<std::uint64_t>(std::uint64_t(std::ceil(exactRank)), 1, total);
    std::uint64_t seen = 0;
    for (int i = 0; i < kBucketCount; ++i) {
        seen += counts[i];
        if (seen >= rank)
            return std::min(bucketHighest(i), max);
    }
    return max;
}

double jainFairness(const QVector<double>& amounts) {
    double sum = 0;
    double sumOfSquares = 0;
    for (double x : amounts) {
        sum += x;
        sumOfSquares += x * x;
    }
    if (sumOfSquares == 0)  // empty, or all zeros
        return 1;
    return sum * sum / (double(amounts.size()) * sumOfSquares);
}

}  // namespace ratelab
