#pragma once

#include "limiters/limiter.h"

namespace ratelab {

// The sliding-window counter (Cloudflare, upstash ratelimit): the current and previous
// epoch-aligned windows' counts, the previous one weighted by how much of it still overlaps the
// sliding window. One string per scope key in {name}:sc[:client].
class SlidingCounterLimiter final : public Limiter {
public:
    SlidingCounterLimiter(LimiterSpec spec, LimiterOptions options);

    const LuaScript& script() const override;
    ScriptCall prepare(const Request& request) const override;
    std::string stateKey(const QString& client) const;  // {name}:sc[:client]

private:
    std::string configArgs_[3];  // limit, window_ms, and the two as "l/w"
    std::string stateTtl_;       // the state key's TTL, ms as text
};

}  // namespace ratelab
