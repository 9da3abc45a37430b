#pragma once

#include "limiters/limiter.h"

namespace ratelab {

// A leaky bucket as nginx limit_req decides (in milli-requests): excess and last per scope key
// in {name}:lb[:client]; accepted requests carry the delay nginx would hold them for
// (Decision::delayMs, 0 with nodelay).
class LeakyBucketLimiter final : public Limiter {
public:
    LeakyBucketLimiter(LimiterSpec spec, LimiterOptions options);

    const LuaScript& script() const override;
    ScriptCall prepare(const Request& request) const override;
    std::string stateKey(const QString& client) const;  // {name}:lb[:client]

private:
    std::string configArgs_[5];  // rate, period_ms, burst, nodelay (0/1), and "r/p/b"
    std::string stateTtl_;       // the state key's TTL, ms as text
};

}  // namespace ratelab
