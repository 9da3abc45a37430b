#include "limiters/upstash_counter_limiter.h"

#include <cmath>

#include "limiters/floor_div.h"
#include "limiters/request_ids.h"
#include "redis/lua_script.h"
#include "redis/redis_reply.h"

namespace ratelab {
namespace lua {
extern const char* const kLua_upstash_sliding_window;
}

UpstashCounterLimiter::UpstashCounterLimiter(LimiterSpec spec, LimiterOptions options)
    : Limiter(std::move(spec), options),
      limitArg_(std::to_string(this->spec().limit)),
      windowArg_(std::to_string(this->spec().windowMs)),
      // The library's own: window * 2 + 1000 ms.
      ttl_(ttlArg(2 * this->spec().windowMs + 1000)),
      windowPrefix_(key("up:")) {}

const LuaScript& UpstashCounterLimiter::script() const {
    static const LuaScript kScript(lua::kLua_upstash_sliding_window);
    return kScript;
}

std::string UpstashCounterLimiter::windowKey(qint64 window, const QString& client) const {
    std::string k = windowPrefix_ + std::to_string(window);
    if (spec().scope == Scope::PerClient) {
        k += ':' + client.toStdString();
    }
    return k;
}

ScriptCall UpstashCounterLimiter::prepare(const Request& request) const {
    checkPermits(request.permits);
    const qint64 window = floorDiv(request.nowMs, spec().windowMs);
    return ScriptCall{{windowKey(window, request.client), windowKey(window - 1, request.client)},
                      {limitArg_, std::to_string(request.nowMs), windowArg_,
                       std::to_string(request.permits), ttl_},
                      request.nowMs,
                      0,
                      0,
                      request.permits,
                      window * spec().windowMs,
                      (window + 1) * spec().windowMs};
}

qint64 UpstashCounterLimiter::weighted(qint64 prev, qint64 offset, qint64 windowMs) {
    // As the script: (now % window) / window, then (1 - that) * prev, floored.
    const double percentageInCurrent = double(offset) / double(windowMs);
    return qint64(std::floor((1 - percentageInCurrent) * double(prev)));
}

qint64 UpstashCounterLimiter::retryAfter(qint64 cur, qint64 prev, qint64 offset) const {
    const qint64 w = spec().windowMs;
    const qint64 limit = spec().limit;
    // This window: the weighted previous count only falls as the offset grows.
    if (cur < limit) {
        qint64 lo = offset;  // refuses
        qint64 hi = w;       // the next window's start, decided below
        if (weighted(prev, w - 1, w) + cur < limit) {
            hi = w - 1;
            while (hi - lo > 1) {
                const qint64 mid = lo + (hi - lo) / 2;
                (weighted(prev, mid, w) + cur < limit ? hi : lo) = mid;
            }
            return hi - offset;
        }
    }
    // The next window: this one's count is its previous.
    qint64 lo = -1;
    qint64 hi = w - 1;
    if (weighted(cur, hi, w) < limit) {
        while (hi - lo > 1) {
            const qint64 mid = lo + (hi - lo) / 2;
            (weighted(cur, mid, w) < limit ? hi : lo) = mid;
        }
        return w - offset + hi;
    }
    return 2 * w - offset;  // the window after: nothing counts
}

Decision UpstashCounterLimiter::decided(bool allowed, qint64 cur, qint64 prev,
                                        const ScriptCall& call) const {
    const qint64 w = spec().windowMs;
    const qint64 limit = spec().limit;
    const qint64 offset = call.atMs - call.fromMs;
    const qint64 weightedPrev = weighted(prev, offset, w);
    Decision d;
    d.atMs = call.atMs;
    d.allowed = allowed;
    // The library's remaining: tokens - (newValue + weighted previous); never below 0 here.
    d.remaining = std::max<qint64>(0, limit - (cur + (allowed ? call.permits : 0)) - weightedPrev);
    if (!allowed) {
        d.retryAfterMs = retryAfter(cur, prev, offset);
    }
    DecisionReason& r = d.reason;
    r.previous = prev;
    r.current = cur;
    r.estimate = weightedPrev + cur;
    r.weightPerMille = (w - offset) * 1000 / w;
    r.fromMs = call.fromMs;
    r.toMs = call.toMs;
    return d;
}

std::optional<Decision> UpstashCounterLimiter::decodeOwnReply(ReplyView reply,
                                                              const ScriptCall& call) const {
    constexpr long long kRadix = 1LL << 25;
    if (reply.is(ReplyView::Type::Integer)) {
        const bool allowed = reply.integer() >= 0;
        const long long packed = (allowed ? reply.integer() : -(reply.integer() + 1)) / 2;
        return decided(allowed, packed / kRadix, packed % kRadix, call);
    }
    long long f[3] = {};  // "<allowed> <cur> <prev>": counts of 2^25 or more
    if (reply.is(ReplyView::Type::String) && reply.integers("", f, 3) && (f[0] == 0 || f[0] == 1)) {
        return decided(f[0] == 1, f[1], f[2], call);
    }
    return std::nullopt;  // parseReply names what it got
}

void UpstashCounterLimiter::explain(Decision* d, const ScriptCall&) const {
    d->reason.limit = spec().limit;
    d->reason.counted = d->reason.estimate;
}

}  // namespace ratelab
