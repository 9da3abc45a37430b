#include "limiters/sliding_counter_limiter.h"

#include "limiters/floor_div.h"
#include "limiters/request_ids.h"
#include "redis/lua_script.h"
#include "redis/redis_reply.h"
#include "redis/redis_router.h"

namespace ratelab {
namespace lua {
extern const char* const kLua_sliding_counter;
}

SlidingCounterLimiter::SlidingCounterLimiter(LimiterSpec spec, LimiterOptions options)
    : Limiter(std::move(spec), options),
      limitArg_(std::to_string(this->spec().limit)),
      windowArg_(std::to_string(this->spec().windowMs)),
      configArg_(limitArg_ + '/' + windowArg_),
      // A window's count matters until the next window ends; a lagging worker finds it for
      // the grace.
      stateTtl_(ttlArg(2 * this->spec().windowMs + kStateGraceMs)),
      windowPrefix_(key("sc:" + configFingerprint(configArg_) + ":")) {}

const LuaScript& SlidingCounterLimiter::script() const {
    static const LuaScript kScript(lua::kLua_sliding_counter);
    return kScript;
}

std::string SlidingCounterLimiter::windowKey(qint64 window, const QString& client) const {
    return windowKeys(window, client).front();
}

QString SlidingCounterLimiter::describeCount(const QString& stored) {
    bool ok = false;
    const qint64 value = stored.toLongLong(&ok);
    if (!ok || value < kClosedMark) {
        return stored;
    }
    return QStringLiteral("%1 · closed (stored 2^50 + %1)").arg(value - kClosedMark);
}

QString SlidingCounterLimiter::describeValue(const std::string& key, const QString& value) const {
    return key.compare(0, windowPrefix_.size(), windowPrefix_) == 0 ? describeCount(value) : value;
}

RedisArgs SlidingCounterLimiter::windowKeys(qint64 window, const QString& client) const {
    const std::string suffix =
        spec().scope == Scope::PerClient ? ':' + client.toStdString() : std::string();
    return {windowPrefix_ + std::to_string(window) + suffix,
            windowPrefix_ + std::to_string(window - 1) + suffix};
}

qint64 SlidingCounterLimiter::estimate(qint64 cur, qint64 prev, qint64 offset) const {
    const qint64 w = spec().windowMs;
    return floorDiv(prev * (w - offset), w) + cur;
}

qint64 SlidingCounterLimiter::nextKeysMs(qint64 nowMs) const {
    const qint64 w = spec().windowMs;
    return (floorDiv(nowMs, w) + 1) * w;
}

ScriptCall SlidingCounterLimiter::prepare(const Request& request) const {
    checkPermits(request.permits);
    const qint64 w = spec().windowMs;
    // time: redis: the script reads Redis's time and answers "retime" when it falls outside
    // the window guessed here (limiter.h), else the time it decided at.
    const bool redisTime = readsRedisTime(request);
    const qint64 window = floorDiv(redisTime ? redisTimeGuess(request.nowMs) : request.nowMs, w);
    // A decision of one permit at the engine's time sends 4 arguments (sliding_counter.lua):
    // every argument Redis puts in the script's ARGV costs it 200 to 1,300 instructions.
    RedisArgs args{limitArg_, windowArg_,
                   redisTime ? std::string("redis") : std::to_string(request.nowMs - window * w),
                   stateTtl_};
    // A scratch limiter's config TTL comes after both (sliding_counter.lua).
    const bool capped = options().ttlCapMs > 0;
    if (request.permits != 1 || redisTime || capped) {
        args.push_back(std::to_string(request.permits));
    }
    if (redisTime || capped) {
        args.push_back(std::to_string(window));
    }
    return withConfigTtl(ScriptCall{windowKeys(window, request.client), std::move(args),
                                    request.nowMs, 0, 0, request.permits});
}

std::optional<Decision> SlidingCounterLimiter::decodeOwnReply(ReplyView reply,
                                                              const ScriptCall& call) const {
    if (reply.is(ReplyView::Type::Integer)) {
        return decodePacked(reply.integer(), call.atMs, call.permits);
    }
    // "at <ms> <packed>": decided at Redis's time or at the newest window's start.
    long long at[2] = {};
    if (reply.is(ReplyView::Type::String) && reply.integers("at ", at, 2)) {
        return decodePacked(at[1], at[0], call.permits);
    }
    return std::nullopt;  // parseReply names what it got
}

Decision SlidingCounterLimiter::decodePacked(long long packed, qint64 atMs, qint64 permits) const {
    Decision d;
    d.atMs = atMs;
    d.allowed = packed >= 0;
    const long long value = d.allowed ? packed : -(packed + 1);
    d.configReset = value % 2 == 1;
    const qint64 limit = spec().limit;
    const qint64 cur = (value / 2) / (limit + 1);
    const qint64 prev = (value / 2) % (limit + 1);
    const qint64 w = spec().windowMs;
    const qint64 windowStart = floorDiv(atMs, w) * w;
    const qint64 offset = atMs - windowStart;
    const qint64 seen = estimate(cur, prev, offset);
    DecisionReason& r = d.reason;
    r.previous = prev;
    r.current = cur;
    r.estimate = seen;
    r.weightPerMille = (w - offset) * 1000 / w;
    r.fromMs = windowStart;
    r.toMs = windowStart + w;
    if (d.allowed) {
        d.remaining = limit - seen - permits;
        return d;
    }
    d.remaining = std::max<qint64>(0, limit - seen);
    d.retryAfterMs = permits > limit ? -1 : retryAfter(cur, prev, offset, permits);
    return d;
}

void SlidingCounterLimiter::explain(Decision* d, const ScriptCall&) const {
    d->reason.limit = spec().limit;
    d->reason.counted = d->reason.estimate;
}

// floor(p x (W - off) / W) + c <= limit - permits is tried first in this window (p = prev,
// c = cur, off > offset), then in the next (p = cur, c = 0), else the window after it starts
// with nothing counted (2W - offset).
qint64 SlidingCounterLimiter::retryAfter(qint64 cur, qint64 prev, qint64 offset,
                                         qint64 permits) const {
    const qint64 w = spec().windowMs;
    const qint64 limit = spec().limit;
    qint64 p = prev, c = cur, from = offset + 1, base = -offset;
    for (int pass = 0; pass < 2; ++pass) {
        const qint64 a = limit - permits - c;
        if (a >= 0) {
            qint64 off = from;
            if (p > 0) {
                // floor(p x (W - off) / W) <= a  <=>  W - off <= ceil((a + 1) x W / p) - 1
                const qint64 q = (a + 1) * w / p + ((a + 1) * w % p != 0 ? 1 : 0);
                off = std::max(off, w - q + 1);
            }
            if (off <= w - 1) {
                return base + off;
            }
        }
        p = cur;
        c = 0;
        from = 0;
        base = w - offset;
    }
    return 2 * w - offset;
}

}  // namespace ratelab
