#pragma once

#include "limiters/limiter.h"

namespace ratelab {

// Multi-rule sliding-window log: every rule (limit, window_ms) must hold at once. The log keeps
// one zset member per granted permit so counts are ZCOUNTs; entries older than the longest
// window are trimmed and the key's TTL follows the longest window.
class SlidingWindowLimiter final : public Limiter {
public:
    SlidingWindowLimiter(LimiterSpec spec, LimiterOptions options);

    const LuaScript& script() const override;
    ScriptCall prepare(const Request& request) const override;

    std::string logKey(const QString& client) const;    // {name}:log[:client]
    std::string clockKey(const QString& client) const;  // {name}:clock[:client]
    qint64 longestWindowMs() const { return longestWindowMs_; }

private:
    qint64 longestWindowMs_ = 0;
};

}  // namespace ratelab
