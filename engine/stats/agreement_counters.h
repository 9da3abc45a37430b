#pragma once

#include <QVector>

#include "stats/counter_array.h"
#include "stats/run_snapshot.h"

namespace ratelab {

// Per pair of limiters fed the same requests: the requests both decided (no error at either) and
// those one accepted while the other rejected. One writer (a worker), lock-free readers.
class AgreementCounters {
public:
    explicit AgreementCounters(int limiters);

    // One request's outcome at every limiter, in limiter order: 1 accepted, 0 rejected,
    // -1 no decision (an error).
    void record(const signed char* outcomes);
    // Adds these counts to `pairs` (one entry per pair a < b, in order; filled when empty).
    void addTo(QVector<LimiterDisagreement>& pairs) const;

private:
    int limiters_;
    CounterArray counts_;  // per pair: compared, disagreed
};

}  // namespace ratelab
