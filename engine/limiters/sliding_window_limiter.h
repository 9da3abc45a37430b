#pragma once

#include "limiters/limiter.h"

namespace ratelab {

// The most permits one request may ask of a sliding window. The log keeps a member per granted
// permit (its counts are ZCOUNTs, the cheapest reads Redis has), so this bounds what one
// decision writes (about 20 bytes and one ZADD per 1000 permits). Parsers of traffic and traces
// that feed a sliding window should refuse larger requests up front; prepare() refuses them
// with an InputError naming "permits".
constexpr qint64 kMaxSlidingWindowPermits = 10'000;

// Multi-rule sliding-window log: every rule (limit, window_ms) must hold at once. The log keeps
// one zset member per granted permit so counts are ZCOUNTs; entries older than the longest
// window plus a grace are trimmed (so a lagging worker still counts them) and the key's TTL
// follows the longest window (sliding_window.lua).
class SlidingWindowLimiter final : public Limiter {
public:
    SlidingWindowLimiter(LimiterSpec spec, LimiterOptions options);

    const LuaScript& script() const override;
    ScriptCall prepare(const Request& request) const override;

    std::string logKey(const QString& client) const;  // {name}:log[:client]
    qint64 longestWindowMs() const { return longestWindowMs_; }

protected:
    // With two or more rules the reply also names the deciding rule and its count
    // (sliding_window.lua).
    std::optional<Decision> decodeOwnReply(ReplyView reply, const ScriptCall& call) const override;
    void explain(Decision* decision, const ScriptCall& call) const override;

private:
    qint64 longestWindowMs_ = 0;
    qint64 largestLimit_ = 0;  // the packed reply's radix is this + 2
};

}  // namespace ratelab
