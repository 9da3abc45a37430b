#include "limiters/concurrency_limiter.h"

#include "limiters/request_ids.h"
#include "redis/lua_script.h"
#include "redis/redis_reply.h"

namespace ratelab {
namespace lua {
extern const char* const kLua_concurrency;
extern const char* const kLua_concurrency_release;
}  // namespace lua

ConcurrencyLimiter::ConcurrencyLimiter(LimiterSpec spec, LimiterOptions options)
    : Limiter(std::move(spec), options),
      limitArg_(std::to_string(this->spec().limit)),
      // Every slot's score is at most the last grant's now + lease_ms: a zset no grant touched
      // for that long (and a lagging worker's grace) holds only expired leases.
      leaseTtl_(ttlArg(this->spec().leaseMs + kStateGraceMs)),
      leasePrefix_(key("leases")) {}

const LuaScript& ConcurrencyLimiter::script() const {
    static const LuaScript kScript(lua::kLua_concurrency);
    return kScript;
}

const LuaScript* ConcurrencyLimiter::releaseScript() const {
    static const LuaScript kScript(lua::kLua_concurrency_release);
    return &kScript;
}

std::string ConcurrencyLimiter::leaseKey(const QString& client) const {
    return spec().scope == Scope::PerClient ? leasePrefix_ + ':' + client.toStdString()
                                            : leasePrefix_;
}

std::string ConcurrencyLimiter::slotId(qint64 id) {
    static const char kHex[] = "0123456789abcdef";
    std::string out;
    quint64 value = quint64(id);
    do {
        out.insert(out.begin(), kHex[value & 0xf]);
        value >>= 4;
    } while (value != 0);
    return out;
}

ScriptCall ConcurrencyLimiter::prepare(const Request& request) const {
    checkPermits(request.permits);
    // With Redis's time the expiry goes as lease_ms, shifted by the script.
    const qint64 expiry = timeBase(request) + spec().leaseMs;
    return ScriptCall{
        {leaseKey(request.client)},
        {limitArg_, std::to_string(request.permits), nowArg(request), std::to_string(expiry),
         request.id >= 0 ? slotId(request.id) : randomRequestId(), leaseTtl_},
        request.nowMs,
        0,
        0,
        request.permits};
}

ScriptCall ConcurrencyLimiter::prepareRelease(const Request& grant) const {
    checkPermits(grant.permits);
    return ScriptCall{
        {leaseKey(grant.client)},
        {slotId(std::max<qint64>(0, grant.id)), std::to_string(grant.permits), nowArg(grant)},
        grant.nowMs,
        0,
        0,
        grant.permits};
}

std::optional<Decision> ConcurrencyLimiter::decodeOwnReply(ReplyView reply,
                                                           const ScriptCall& call) const {
    const qint64 radix = spec().limit + 2;
    Decision d;
    if (reply.is(ReplyView::Type::Integer)) {
        d.allowed = reply.integer() >= 0;
        long long value = d.allowed ? reply.integer() : -(reply.integer() + 1);
        d.remaining = value % radix;
        value /= radix;
        d.expiredLeases = value % radix;
        d.retryAfterMs = d.allowed ? 0 : value / radix - 1;
        d.atMs = call.atMs;
        return d;
    }
    // "<allowed> <retry> <remaining> <expired> <at_ms>"
    long long f[5] = {};
    if (reply.is(ReplyView::Type::String) && reply.integers("", f, 5) && (f[0] == 0 || f[0] == 1)) {
        d.allowed = f[0] == 1;
        d.retryAfterMs = f[1];
        d.remaining = f[2];
        d.expiredLeases = f[3];
        d.atMs = f[4];
        return d;
    }
    return std::nullopt;  // parseReply names what it got
}

// The slots held against the limit: the leases granted in (now - lease_ms, now] not yet
// released or run out.
void ConcurrencyLimiter::explain(Decision* d, const ScriptCall&) const {
    DecisionReason& r = d->reason;
    r.limit = spec().limit;
    r.counted = spec().limit - d->remaining - (d->allowed ? r.permits : 0);
    r.fromMs = d->atMs - spec().leaseMs;
    r.toMs = d->atMs;
}

}  // namespace ratelab
