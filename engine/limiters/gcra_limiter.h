#pragma once

#include "limiters/limiter.h"

namespace ratelab {

// GCRA (go-redis redis_rate, redis-cell's CL.THROTTLE): emission interval T = period_ms / rate,
// tolerance burst x T, one theoretical arrival time per scope key in {name}:tat[:client]
// (gcra.lua keeps T exact as a fraction).
class GcraLimiter final : public Limiter {
public:
    GcraLimiter(LimiterSpec spec, LimiterOptions options);

    const LuaScript& script() const override;
    ScriptCall prepare(const Request& request) const override;
    std::string stateKey(const QString& client) const;  // {name}:tat[:client]

private:
    std::string configArgs_[4];  // rate, period_ms, burst, and the three as "r/p/b"
    std::string stateTtl_;       // the state key's TTL, ms as text
};

}  // namespace ratelab
