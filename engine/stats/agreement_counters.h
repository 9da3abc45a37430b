#pragma once

#include <QVector>

#include "stats/counter_array.h"
#include "stats/run_snapshot.h"

namespace ratelab {

// Per pair of limiters fed the same requests: the requests both decided (no error at either) and
// those one accepted while the other rejected, in all and (up to kMaxBucketedLimiters limiters,
// so the counters stay within a few series of the run's own) per time bucket, for the
// timelines' marks. One writer (a worker), lock-free readers.
class AgreementCounters {
public:
    static constexpr int kMaxBucketedLimiters = 6;  // 15 pairs

    AgreementCounters(int limiters, int buckets);
    // Whether pairs of `limiters` limiters are counted per bucket.
    static bool bucketed(int limiters) { return limiters >= 2 && limiters <= kMaxBucketedLimiters; }
    // What the counters of `limiters` limiters over `buckets` buckets allocate.
    static qint64 allocatedBytes(qint64 limiters, qint64 buckets);

    // One request's outcome at every limiter, in limiter order: 1 accepted, 0 rejected,
    // -1 no decision (an error); `bucket` is the request's time bucket.
    void record(const signed char* outcomes, int bucket);
    // Adds these counts to `pairs` (one entry per pair a < b, in order; filled when empty).
    void addTo(QVector<LimiterDisagreement>& pairs) const;

private:
    int limiters_;
    int buckets_;
    CounterArray counts_;        // per pair: compared, disagreed
    CounterArray bucketCounts_;  // per pair and bucket: disagreed (bucketed limiters only)
};

}  // namespace ratelab
