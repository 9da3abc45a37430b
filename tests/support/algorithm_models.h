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

}  // namespace ratelab::test
