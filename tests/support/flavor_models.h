#pragma once

#include <QHash>
#include <QString>
#include <map>

#include "limiters/limiter.h"

namespace ratelab::test {

// The library flavors written again in C++ from the libraries' own rules (DESIGN.md, "Library
// flavors"), in double precision as the libraries compute: @upstash/ratelimit v2's sliding
// window and go-redis/redis_rate v10's allowN, both at the engine's now. Waits are found by
// search over whole milliseconds. Requests must come in non-decreasing time.

class UpstashModel {
public:
    explicit UpstashModel(const LimiterSpec& spec) : spec_(spec) {}
    Decision decide(const Request& request);

private:
    // floor((1 - offset / W) x previous) + current at t, in doubles as the library weighs.
    qint64 estimate(const QString& key, qint64 t) const;
    qint64 count(const QString& key, qint64 window) const;

    LimiterSpec spec_;
    QHash<QString, std::map<qint64, qint64>> counts_;  // window index -> permits granted
};

class RedisRateModel {
public:
    explicit RedisRateModel(const LimiterSpec& spec);
    Decision decide(const Request& request);

private:
    LimiterSpec spec_;
    double emission_ = 0;         // T = period / rate, seconds
    QHash<QString, double> tat_;  // seconds since 2017-01-01
};

}  // namespace ratelab::test
