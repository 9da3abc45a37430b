#pragma once

#include "limiters/limiter.h"

namespace ratelab {

// The sliding-window counter's "upstash" flavor: @upstash/ratelimit v2's slidingWindow,
// decision for decision (upstash_sliding_window.lua). One counter per epoch-aligned window and
// scope key, {name}:up:<window>[:client]; the previous window's count weighted in double
// precision and floored; refused iff that plus the current count reaches the limit, whatever
// the permits. It parts from the exact counter on the few decisions near the limit where the
// float weight rounds the other way (the exact counter floors an exact fraction) and where a
// request of more permits than the room left is granted.
class UpstashCounterLimiter final : public Limiter {
public:
    UpstashCounterLimiter(LimiterSpec spec, LimiterOptions options);

    const LuaScript& script() const override;
    ScriptCall prepare(const Request& request) const override;

    // {name}:up:<window>[:client]; the prefix is "{name}:up:".
    std::string windowKey(qint64 window, const QString& client) const;
    const std::string& windowKeyPrefix() const { return windowPrefix_; }
    // floor((1 - (offset / W)) x prev), in double precision, as the library weighs it.
    static qint64 weighted(qint64 prev, qint64 offset, qint64 windowMs);
    // The smallest whole wait w >= 1 at which the library would grant with nothing else
    // decided: the weight decays in this window, the next sees this one's count as previous.
    qint64 retryAfter(qint64 cur, qint64 prev, qint64 offset) const;

protected:
    std::optional<Decision> decodeOwnReply(ReplyView reply, const ScriptCall& call) const override;
    void explain(Decision* decision, const ScriptCall& call) const override;

private:
    // The decision from the two counts the script saw (cur and the previous window's prev).
    Decision decided(bool allowed, qint64 cur, qint64 prev, const ScriptCall& call) const;

    std::string limitArg_, windowArg_, ttl_;
    std::string windowPrefix_;
};

}  // namespace ratelab
