#pragma once

#include "limiters/limiter.h"

namespace ratelab {

// A leaky bucket as nginx limit_req decides (in milli-requests): excess and last per scope key
// in {name}:lb:<config fingerprint>[:client]; accepted requests carry the delay nginx would
// hold them for (Decision::delayMs, 0 with nodelay). The script only decides
// (leaky_bucket.lua); remaining, the delay and the wait are worked out here.
class LeakyBucketLimiter final : public Limiter {
public:
    LeakyBucketLimiter(LimiterSpec spec, LimiterOptions options);

    const LuaScript& script() const override;
    ScriptCall prepare(const Request& request) const override;
    std::string stateKey(const QString& client) const;  // {name}:lb:<fingerprint>[:client]
    const std::string& stateKeyPrefix() const { return statePrefix_; }  // without ":client"
    // The level (milli-requests) a request finds elapsedMs >= 0 after a state of `excess`:
    // max(E - floor(rate x 1000 x elapsed / period) + 1000, 0), 0 once drained.
    static qint64 levelFound(const LimiterSpec& spec, qint64 excess, qint64 elapsedMs);

protected:
    std::optional<Decision> decodeOwnReply(ReplyView reply, const ScriptCall& call) const override;
    void explain(Decision* decision, const ScriptCall& call) const override;

private:
    // A grant that left `excess`, or a refusal that found the state's `excess` (above
    // 1000 x burst: an empty bucket) `elapsedMs` after its last.
    Decision decided(bool allowed, qint64 excess, qint64 elapsedMs, qint64 permits) const;

    std::string leakArg_, periodArg_, fullArg_, configArg_;  // rate x 1000, period, 1000 x burst
    std::string stateTtl_;                                   // the state key's TTL, ms as text
    std::string statePrefix_;
};

}  // namespace ratelab
