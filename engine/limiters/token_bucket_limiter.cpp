#include "limiters/token_bucket_limiter.h"

#include <cstdio>

#include "limiters/request_ids.h"
#include "redis/lua_script.h"

namespace ratelab {
namespace lua {
extern const char* const kLua_token_bucket;
}

TokenBucketLimiter::TokenBucketLimiter(LimiterSpec spec, LimiterOptions options)
    : Limiter(std::move(spec), options) {}

const LuaScript& TokenBucketLimiter::script() const {
    static const LuaScript kScript(lua::kLua_token_bucket);
    return kScript;
}

std::string TokenBucketLimiter::configKey() const {
    return spec().name.toStdString();
}

std::string TokenBucketLimiter::valueKey(const QString& client) const {
    return spec().scope == Scope::PerClient ? key("value:" + client.toStdString()) : key("value");
}

std::string TokenBucketLimiter::permitsKey(const QString& client) const {
    return spec().scope == Scope::PerClient ? key("permits:" + client.toStdString())
                                            : key("permits");
}

std::string TokenBucketLimiter::clockKey(const QString& client) const {
    return spec().scope == Scope::PerClient ? key("clock:" + client.toStdString()) : key("clock");
}

std::vector<std::string> TokenBucketLimiter::exactKeys() const {
    return {configKey()};
}

Limiter::KeyLayout TokenBucketLimiter::configLayout() {
    return {"hash", {"rate", "interval", "type"}};
}

Limiter::KeyLayout TokenBucketLimiter::exactKeyLayout(const std::string&) const {
    return configLayout();
}

ScriptCall TokenBucketLimiter::prepare(const Request& request) const {
    checkPermits(request.permits);
    const LimiterSpec& s = spec();
    // Times go zero-padded so the script compares them as text (token_bucket.lua).
    const qint64 base = timeBase(request);
    char now[32];
    std::snprintf(now, sizeof now, request.nowMs >= 0 ? "%015lld" : "%lld",
                  static_cast<long long>(request.nowMs));
    const std::string nowText = readsRedisTime(request) ? std::string("redis") : std::string(now);
    return withConfigTtl(
        packedCall({configKey(), valueKey(request.client), permitsKey(request.client),
                    clockKey(request.client)},
                   {std::to_string(s.rate), std::to_string(s.intervalMs),
                    s.scope == Scope::PerClient ? "1" : "0", std::to_string(request.permits),
                    nowText, randomRecordId(), ttlArg(s.intervalMs + kStateGraceMs),
                    std::to_string(base - s.intervalMs)},
                   request, s.rate));
}

// The permits the bucket held of its rate in (now - interval, now], and when enough come back.
void TokenBucketLimiter::explain(Decision* d, const ScriptCall& call) const {
    DecisionReason& r = d->reason;
    const qint64 available = d->allowed ? d->remaining + call.permits : d->remaining;
    r.limit = spec().rate;
    r.counted = spec().rate - available;
    r.fromMs = d->atMs - spec().intervalMs;
    r.toMs = d->atMs;
    r.releaseAtMs = !d->allowed && d->retryAfterMs >= 0 ? d->atMs + d->retryAfterMs : -1;
}

}  // namespace ratelab
