#pragma once

#include <QHash>
#include <QString>
#include <map>

#include "limiters/limiter.h"

namespace ratelab::test {

// Models of gcra, sliding_counter and leaky_bucket written from the design's formulas in 128-bit
// integers (times scaled so every fraction is whole), independently of the scripts' arithmetic.
// Waits are found by search over whole milliseconds, not by the scripts' closed forms.
// Requests must come in non-decreasing time.

class GcraModel {
public:
    explicit GcraModel(const LimiterSpec& spec) : spec_(spec) {}
    Decision decide(const Request& request);

private:
    LimiterSpec spec_;
    QHash<QString, __int128> tat_;  // in ticks of 1/rate ms
};

class SlidingCounterModel {
public:
    explicit SlidingCounterModel(const LimiterSpec& spec) : spec_(spec) {}
    Decision decide(const Request& request);
    qint64 estimate(const QString& key, qint64 t) const;

private:
    LimiterSpec spec_;
    QHash<QString, std::map<qint64, qint64>> counts_;  // window index -> permits granted
};

class LeakyBucketModel {
public:
    explicit LeakyBucketModel(const LimiterSpec& spec) : spec_(spec) {}
    Decision decide(const Request& request);
    qint64 level(const QString& key, qint64 t) const;  // x, in milli-requests

private:
    struct State {
        qint64 excess;
        qint64 last;
    };
    LimiterSpec spec_;
    QHash<QString, State> state_;
};

// The concurrency limiter from the design's rule: per scope key the slots held, each with its
// lease expiry. A release removes the request's slots (by its id); requests without an id get
// one of their own that no release names.
class ConcurrencyModel {
public:
    explicit ConcurrencyModel(const LimiterSpec& spec) : spec_(spec) {}
    Decision decide(const Request& request);
    // Releases the grant of request `grant` (its id, client and permits) at grant.nowMs; true
    // when late (its lease had run out).
    bool release(const Request& grant);
    // The slots in flight for this client's scope key at t (leases that have not run out).
    qint64 inFlight(const QString& client, qint64 t) const;

private:
    struct Slot {
        qint64 expiry;
        qint64 id;
    };
    LimiterSpec spec_;
    QHash<QString, std::vector<Slot>> slots_;  // per scope key, one entry per permit
    qint64 ownIds_ = -2;                       // ids for requests without one
};

}  // namespace ratelab::test
