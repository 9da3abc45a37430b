#pragma once

#include "limiters/limiter.h"

namespace ratelab {

// Redisson RRateLimiter (OVERALL / PER_CLIENT) in Redisson's own key layout and permit-record
// format, so a Redisson client and ratelab can share one limiter. Unlike Redisson, a rejection's
// retry_after_ms is exact (see token_bucket.lua).
class TokenBucketLimiter final : public Limiter {
public:
    TokenBucketLimiter(LimiterSpec spec, LimiterOptions options);

    const LuaScript& script() const override;
    ScriptCall prepare(const Request& request) const override;
    std::vector<std::string> exactKeys() const override;              // the config hash <name>
    KeyLayout exactKeyLayout(const std::string& key) const override;  // configLayout()
    // The config hash in Redisson's layout (a hash holding the fields rate, interval and type),
    // written by ratelab or by Redisson: the one key a token bucket keeps outside "{name}:*".
    static KeyLayout configLayout();

protected:
    void explain(Decision* decision, const ScriptCall& call) const override;

    std::string configKey() const;
    std::string valueKey(const QString& client) const;    // {name}:value[:client]
    std::string permitsKey(const QString& client) const;  // {name}:permits[:client]
    std::string clockKey(const QString& client) const;    // {name}:clock[:client]
};

}  // namespace ratelab
