#pragma once

#include <QVector>
#include <array>
#include <atomic>
#include <cstdint>
#include <limits>

namespace ratelab {

// Log-linear histogram of non-negative durations in microseconds (HdrHistogram's layout):
// values below 2^kSubBits are exact; above, each power of two is split into 2^(kSubBits-1)
// linear sub-buckets, so any reported percentile is within 1/2^(kSubBits-1) (< 1.6%) of the
// true value. Values above kMaxValue are clamped (and counted as such).
//
// One writer thread at a time may call record() while other threads read snapshot():
// counters are relaxed atomics, so readers see a consistent-enough view without locks.
class LatencyHistogram {
public:
    static constexpr int kSubBits = 7;                    // 128 exact values, 64 per octave above
    static constexpr std::int64_t kMaxValue = 1LL << 36;  // ~19 hours in microseconds
    static constexpr int kBucketCount = (36 - kSubBits + 3) * (1 << (kSubBits - 1));

    void record(std::int64_t valueUs);

    // A plain copy for reading and merging.
    struct Snapshot {
        std::array<std::uint64_t, kBucketCount> counts{};
        std::uint64_t total = 0;
        std::int64_t min = 0;
        std::int64_t max = 0;
        double sum = 0;
        std::uint64_t clamped = 0;

        void merge(const Snapshot& other);
        // The smallest recorded-bucket value v such that at least p% of values are <= v
        // (p in [0, 100]); 0 when empty. p = 100 gives the exact max.
        std::int64_t percentile(double p) const;
        double mean() const { return total ? sum / double(total) : 0; }
    };
    Snapshot snapshot() const;

    // Bucket mapping, exposed for tests.
    static int bucketIndex(std::int64_t valueUs);
    static std::int64_t bucketLowest(int index);   // smallest value mapping to the bucket
    static std::int64_t bucketHighest(int index);  // largest value mapping to the bucket

private:
    std::array<std::atomic<std::uint64_t>, kBucketCount> counts_{};
    std::atomic<std::uint64_t> total_{0};
    std::atomic<std::int64_t> min_{std::numeric_limits<std::int64_t>::max()};
    std::atomic<std::int64_t> max_{0};
    std::atomic<double> sum_{0};
    std::atomic<std::uint64_t> clamped_{0};
};

// Jain's fairness index of non-negative amounts: (sum x)^2 / (n * sum x^2), from 1/n (one
// gets everything) to 1 (all equal). 1 for an empty list or all zeros.
double jainFairness(const QVector<double>& amounts);

}  // namespace ratelab
