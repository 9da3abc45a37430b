#include "limiters/sliding_window_limiter.h"

#include <algorithm>

#include "input_error.h"
#include "limiters/request_ids.h"

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
    call.args = {std::to_string(request.permits), nowArg(request), randomRequestId(),
                 ttlArg(longestWindowMs_ + kStateGraceMs),
                 std::to_string(now - longestWindowMs_ - kStateGraceMs)};
    for (const SlidingRule& rule : spec().rules) {
        call.args.push_back(std::to_string(rule.limit));
        call.args.push_back(std::to_string(rule.windowMs));
        call.args.push_back("(" + std::to_string(now - rule.windowMs));
    }
    return call;
}

}  // namespace ratelab
