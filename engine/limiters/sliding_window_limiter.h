#pragma once

#include "limiters/limiter.h"

namespace ratelab {

// Multi-rule sliding-window log: every rule (limit, window_ms) must hold at once. The log keeps
// one zset member per grant holding the running total of permits granted, so the permits inside
// a window are one O(log n) lookup whatever the permits of a request (sliding_window.lua);
// entries older than the longest window are trimmed and the key's TTL follows the longest
// window. The newest grant's time is the log's clock: a lagging worker decides at it.
class SlidingWindowLimiter final : public Limiter {
public:
    SlidingWindowLimiter(LimiterSpec spec, LimiterOptions options);

    const LuaScript& script() const override;
    ScriptCall prepare(const Request& request) const override;

    std::string logKey(const QString& client) const;  // {name}:log[:client]
    qint64 longestWindowMs() const { return longestWindowMs_; }

private:
    qint64 longestWindowMs_ = 0;
};

}  // namespace ratelab
