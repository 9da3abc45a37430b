#include "limiters/sliding_window_limiter.h"

#include <algorithm>
#include <cstdio>

#include "input_error.h"
#include "limiters/request_ids.h"
#include "redis/lua_script.h"

namespace ratelab {
namespace lua {
extern const char* const kLua_sliding_window;
}

SlidingWindowLimiter::SlidingWindowLimiter(LimiterSpec spec, LimiterOptions options)
    : Limiter(std::move(spec), options) {
    for (const SlidingRule& rule : this->spec().rules) {
        longestWindowMs_ = std::max(longestWindowMs_, rule.windowMs);
        largestLimit_ = std::max(largestLimit_, rule.limit);
    }
}

const LuaScript& SlidingWindowLimiter::script() const {
    static const LuaScript kScript(lua::kLua_sliding_window);
    return kScript;
}

std::string SlidingWindowLimiter::logKey(const QString& client) const {
    return spec().scope == Scope::PerClient ? key("log:" + client.toStdString()) : key("log");
}

ScriptCall SlidingWindowLimiter::prepare(const Request& request) const {
    checkPermits(request.permits);
    if (request.permits > kMaxSlidingWindowPermits) {
        throw InputError(QStringLiteral("permits"),
                         QStringLiteral("a sliding window takes at most %1 permits per request, "
                                        "got %2")
                             .arg(kMaxSlidingWindowPermits)
                             .arg(request.permits));
    }
    // The script converts no number it only passes on: the engine formats them (see
    // sliding_window.lua).
    const qint64 now = timeBase(request);
    ScriptCall call = packedCall({logKey(request.client)}, {}, request, largestLimit_);
    // A grant's member starts with its time in 16 characters (the script prefixes Redis's):
    // a refusal reads the time of the grant it waits for from its member.
    std::string member = randomRequestId();
    if (!readsRedisTime(request)) {
        char time[32];
        std::snprintf(time, sizeof time, "%016lld", static_cast<long long>(request.nowMs));
        member.insert(0, time);
    }
    call.args = {std::to_string(request.permits), nowArg(request), std::move(member),
                 ttlArg(longestWindowMs_ + kStateGraceMs),
                 std::to_string(now - longestWindowMs_ - kStateGraceMs)};
    for (const SlidingRule& rule : spec().rules) {
        call.args.push_back(std::to_string(rule.limit));
        call.args.push_back("(" + std::to_string(now - rule.windowMs));
    }
    return call;
}

std::optional<Decision> SlidingWindowLimiter::decodeOwnReply(ReplyView reply,
                                                             const ScriptCall& call) const {
    const long long rules = spec().rules.size();
    if (rules < 2) {
        return std::nullopt;  // the packed reply or the text (Limiter::parseReply)
    }
    Decision d;
    if (reply.is(ReplyView::Type::Integer)) {
        d.atMs = call.atMs;
        d.allowed = reply.integer() >= 0;
        long long value = d.allowed ? reply.integer() / 2 : -(reply.integer() + 1) / 2;
        d.reason.rule = int(value % rules);
        value /= rules;
        if (d.allowed) {
            d.remaining = value;
            return d;
        }
        d.reason.counted = value % call.radix;
        value /= call.radix;
        d.remaining = value % call.radix;
        d.retryAfterMs = value / call.radix - 1;
        return d;
    }
    // "allowed retry remaining at_ms 0 0 rule count"
    long long f[8] = {};
    if (reply.is(ReplyView::Type::String) && reply.integers("", f, 8) && (f[0] == 0 || f[0] == 1) &&
        f[6] >= 0 && f[6] < rules) {
        d.allowed = f[0] == 1;
        d.retryAfterMs = f[1];
        d.remaining = f[2];
        d.atMs = f[3];
        d.reason.rule = int(f[6]);
        if (!d.allowed) {
            d.reason.counted = f[7];
        }
        return d;
    }
    return std::nullopt;  // parseReply names what it got
}

void SlidingWindowLimiter::explain(Decision* d, const ScriptCall& call) const {
    DecisionReason& r = d->reason;
    const SlidingRule& rule = spec().rules.value(r.rule);
    r.limit = rule.limit;
    if (d->allowed) {
        // The tightest rule: remaining is its room after the grant.
        r.counted = rule.limit - d->remaining - call.permits;
    } else if (spec().rules.size() == 1) {
        r.counted = rule.limit - d->remaining;
    }
    r.fromMs = d->atMs - rule.windowMs;
    r.toMs = d->atMs;
}

}  // namespace ratelab
