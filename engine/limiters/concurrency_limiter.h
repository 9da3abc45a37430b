#pragma once

#include "limiters/limiter.h"

namespace ratelab {

// The concurrency (in-flight) limiter, Stripe's concurrent-requests limiter: at most `limit`
// slots held at once per scope key, in the zset {name}:leases[:client] (member a slot id, score
// the slot's lease expiry). A grant holds its permits' slots until the request releases them
// (releaseScript, concurrency_release.lua) or its lease of lease_ms runs out; a decision first
// removes the slots whose lease has run out (Decision::expiredLeases). Slot ids are the
// request's id in hex ("<id>", "<id>:1" …), or random for a request without one.
class ConcurrencyLimiter final : public Limiter {
public:
    ConcurrencyLimiter(LimiterSpec spec, LimiterOptions options);

    const LuaScript& script() const override;
    ScriptCall prepare(const Request& request) const override;
    const LuaScript* releaseScript() const override;
    ScriptCall prepareRelease(const Request& grant) const override;

    std::string leaseKey(const QString& client) const;                  // {name}:leases[:client]
    const std::string& leaseKeyPrefix() const { return leasePrefix_; }  // without ":client"
    // The first slot's member of a request of this id ("<id in hex>").
    static std::string slotId(qint64 id);

protected:
    std::optional<Decision> decodeOwnReply(ReplyView reply, const ScriptCall& call) const override;
    void explain(Decision* decision, const ScriptCall& call) const override;

private:
    std::string limitArg_;
    std::string leaseTtl_;  // the zset's TTL: lease_ms + grace, ms as text
    std::string leasePrefix_;
};

}  // namespace ratelab
