#include "limiters/leaky_bucket_limiter.h"

#include "limiters/floor_div.h"
#include "limiters/request_ids.h"
#include "redis/lua_script.h"
#include "redis/redis_reply.h"

namespace ratelab {
namespace lua {
extern const char* const kLua_leaky_bucket;
}

LeakyBucketLimiter::LeakyBucketLimiter(LimiterSpec spec, LimiterOptions options)
    : Limiter(std::move(spec), options),
      leakArg_(std::to_string(this->spec().rate * 1000)),
      periodArg_(std::to_string(this->spec().periodMs)),
      fullArg_(std::to_string(this->spec().burst * 1000)),
      configArg_(std::to_string(this->spec().rate) + '/' + periodArg_ + '/' +
                 std::to_string(this->spec().burst)),
      // A grant leaves at most 1000 x burst milli-requests, which drain (to the level a new key
      // has) in ceil((burst + 1) x period / rate) ms; a lagging worker finds it for the grace.
      stateTtl_(
          ttlArg(ceilDiv((this->spec().burst + 1) * this->spec().periodMs, this->spec().rate) + 1 +
                 kStateGraceMs)),
      statePrefix_(key("lb:" + configFingerprint(configArg_))) {}

const LuaScript& LeakyBucketLimiter::script() const {
    static const LuaScript kScript(lua::kLua_leaky_bucket);
    return kScript;
}

std::string LeakyBucketLimiter::stateKey(const QString& client) const {
    return spec().scope == Scope::PerClient ? statePrefix_ + ':' + client.toStdString()
                                            : statePrefix_;
}

ScriptCall LeakyBucketLimiter::prepare(const Request& request) const {
    checkPermits(request.permits);
    return withConfigTtl(
        ScriptCall{{stateKey(request.client)},
                   {leakArg_, periodArg_, fullArg_, std::to_string(request.permits),
                    nowArg(request), stateTtl_, configArg_},
                   request.nowMs,
                   0,
                   0,
                   request.permits});
}

std::optional<Decision> LeakyBucketLimiter::decodeOwnReply(ReplyView reply,
                                                           const ScriptCall& call) const {
    const qint64 full = spec().burst * 1000;
    if (reply.is(ReplyView::Type::Integer)) {
        const bool allowed = reply.integer() >= 0;
        const long long value = allowed ? reply.integer() : -(reply.integer() + 1);
        const long long packed = value / 2;
        Decision d = allowed
                         ? decided(true, packed, 0, call.permits)
                         : decided(false, packed % (full + 2), packed / (full + 2), call.permits);
        d.atMs = call.atMs;
        d.configReset = value % 2 == 1;
        return d;
    }
    // "<allowed> <excess> <elapsed> <reset> <at_ms>": Redis's time, or a refusal past 2^53.
    long long f[5] = {};  // allowed, excess, elapsed, reset, at_ms
    if (reply.is(ReplyView::Type::String) && reply.integers("", f, 5) && (f[0] == 0 || f[0] == 1) &&
        (f[3] == 0 || f[3] == 1)) {
        Decision d = decided(f[0] == 1, f[1], f[2], call.permits);
        d.atMs = f[4];
        d.configReset = f[3] == 1;
        return d;
    }
    return std::nullopt;  // parseReply names what it got
}

qint64 LeakyBucketLimiter::levelFound(const LimiterSpec& spec, qint64 excess, qint64 elapsedMs) {
    const qint64 leak = spec.rate * 1000;
    // Drained once leak x elapsed >= (E + 1000) x period; checking the time first keeps the
    // product below (E + 1000) x period + leak, far from overflow.
    const qint64 drainMs = (excess + 1000) * spec.periodMs / leak + 1;
    if (elapsedMs >= drainMs) {
        return 0;
    }
    return std::max<qint64>(excess - floorDiv(leak * elapsedMs, spec.periodMs) + 1000, 0);
}

Decision LeakyBucketLimiter::decided(bool allowed, qint64 excess, qint64 elapsedMs,
                                     qint64 permits) const {
    const LimiterSpec& s = spec();
    const qint64 full = s.burst * 1000;
    const qint64 leak = s.rate * 1000;  // milli-requests per period_ms
    Decision d;
    d.allowed = allowed;
    if (allowed) {
        // The level found: e = x + 1000 x (permits - 1).
        d.reason.levelMilli = excess - 1000 * (permits - 1);
        // remaining = floor((1000 x burst - e) / 1000); nginx holds it e x period / leak ms.
        d.remaining = (full - excess) / 1000;
        d.delayMs = s.nodelay ? 0 : excess * s.periodMs / leak;
        return d;
    }
    // The level the request found: empty (above full), else the state's leaked to now.
    const qint64 x = excess > full ? 0 : levelFound(s, excess, elapsedMs);
    d.reason.levelMilli = x;
    // A refusal leaves the state: floor((1000 x burst - x) / 1000) + 1 requests fit.
    d.remaining = std::max<qint64>(0, floorDiv(full - x, 1000) + 1);
    if (permits > s.burst + 1) {
        d.retryAfterMs = -1;
        return d;
    }
    // Refused within the burst means the bucket held water (x > 0). The smallest whole wait
    // w >= 1 after which it has leaked enough:
    // E - floor(leak x (elapsed + w) / period) + 1000 <= 1000 x (burst - permits + 1).
    const qint64 n = (excess + 1000 - 1000 * (s.burst - permits + 1)) * s.periodMs;
    d.retryAfterMs = std::max<qint64>(1, (n + leak - 1) / leak - elapsedMs);
    return d;
}

// The water level the request found against the bucket's capacity (burst + 1 requests).
void LeakyBucketLimiter::explain(Decision* d, const ScriptCall&) const {
    DecisionReason& r = d->reason;
    r.limit = spec().burst + 1;
    r.capacityMilli = 1000 * (spec().burst + 1);
    r.counted = r.levelMilli < 0 ? -1 : (r.levelMilli + 999) / 1000;
}

}  // namespace ratelab
