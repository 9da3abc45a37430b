#pragma once

#include "limiters/limiter.h"

namespace ratelab {

// GCRA's "redis_rate" flavor: go-redis/redis_rate v10's allowN, decision for decision
// (redis_rate_gcra.lua): times in seconds since 2017-01-01 in double precision, the emission
// interval T = period / rate as a double (0.1 s at 10 per second, not exact in binary), the TAT
// stored as the double it is, one key per scope key: {name}:rr[:client]. With "time": "redis"
// the script reads Redis's TIME to the microsecond, as the library does; otherwise it takes the
// engine's now to the millisecond. It parts from exact GCRA where the rounding of T, of now or
// of the TAT's sums puts a request a hair before or after its allow time.
class RedisRateGcraLimiter final : public Limiter {
public:
    // Seconds between the Unix epoch and 2017-01-01, the library's time origin.
    static constexpr qint64 kEpoch2017 = 1483228800;

    RedisRateGcraLimiter(LimiterSpec spec, LimiterOptions options);

    const LuaScript& script() const override;
    ScriptCall prepare(const Request& request) const override;
    std::string stateKey(const QString& client) const;
    const std::string& stateKeyPrefix() const { return prefix_; }  // "{name}:rr"

    // The period in seconds as the library's caller computes it (Go's Duration.Seconds():
    // whole seconds plus the remaining nanoseconds / 1e9), and as the text it sends.
    static double periodSeconds(qint64 periodMs);
    // now in the library's seconds since 2017: whole seconds less the origin, plus the rest.
    static double nowSeconds(qint64 epochSeconds, double fractionNumerator, double denominator);
    double emissionInterval() const { return period_ / double(spec().rate); }

protected:
    std::optional<Decision> decodeOwnReply(ReplyView reply, const ScriptCall& call) const override;
    void explain(Decision* decision, const ScriptCall& call) const override;

private:
    double period_;  // seconds, as periodSeconds
    std::string burstArg_, rateArg_, periodArg_, ttlScale_, ttlExtra_;
    std::string prefix_;
};

}  // namespace ratelab
