#pragma once

#include <QHash>
#include <QString>
#include <deque>
#include <map>
#include <vector>

#include "limiters/calendar_window.h"
#include "limiters/limiter.h"
#include "support/algorithm_models.h"
#include "support/flavor_models.h"

namespace ratelab::test {

// Plain in-memory models of the three limiters, written from docs/architecture.md's "Limiter
// semantics" independently of the Lua scripts. Requests must come in non-decreasing time.

class TokenBucketModel {
public:
    explicit TokenBucketModel(const LimiterSpec& spec) : spec_(spec) {}
    Decision decide(const Request& request);

private:
    struct Grant {
        qint64 t;
        qint64 permits;
    };
    LimiterSpec spec_;
    QHash<QString, std::deque<Grant>> grants_;
};

class FixedWindowModel {
public:
    explicit FixedWindowModel(const LimiterSpec& spec);
    Decision decide(const Request& request);

private:
    LimiterSpec spec_;
    CalendarWindows windows_;
    std::map<std::pair<qint64, QString>, qint64> counts_;
};

class SlidingWindowModel {
public:
    explicit SlidingWindowModel(const LimiterSpec& spec) : spec_(spec) {}
    Decision decide(const Request& request);

private:
    struct Grant {
        qint64 t;
        qint64 permits;
    };
    LimiterSpec spec_;
    QHash<QString, std::vector<Grant>> grants_;
};

// Dispatches on the spec's type and flavor.
class ReferenceModel {
public:
    explicit ReferenceModel(const LimiterSpec& spec);
    Decision decide(const Request& request);

private:
    LimiterType type_;
    std::unique_ptr<TokenBucketModel> tokenBucket_;
    std::unique_ptr<FixedWindowModel> fixedWindow_;
    std::unique_ptr<SlidingWindowModel> slidingWindow_;
    std::unique_ptr<GcraModel> gcra_;
    std::unique_ptr<SlidingCounterModel> slidingCounter_;
    std::unique_ptr<LeakyBucketModel> leakyBucket_;
    std::unique_ptr<ConcurrencyModel> concurrency_;
    std::unique_ptr<UpstashModel> upstash_;
    std::unique_ptr<RedisRateModel> redisRate_;
    std::unique_ptr<ReferenceModel> script_;  // a script limiter's: its reference's model
};

}  // namespace ratelab::test
