#include "limiters/fixed_window_limiter.h"

#include "limiters/request_ids.h"

namespace ratelab {
namespace lua {
extern const char* const kLua_fixed_window;
}

namespace {

// FNV-1a of the config text, 8 hex digits: names the config's counters.
std::string fingerprint(const std::string& text) {
    quint32 hash = 2166136261u;
    for (const char c : text) {
        hash = (hash ^ static_cast<unsigned char>(c)) * 16777619u;
    }
    static const char kHex[] = "0123456789abcdef";
    std::string out(8, '0');
    for (int i = 7; i >= 0; --i) {
        out[size_t(i)] = kHex[hash & 0xf];
        hash >>= 4;
    }
    return out;
}

}  // namespace

FixedWindowLimiter::FixedWindowLimiter(LimiterSpec spec, LimiterOptions options)
    : Limiter(spec, options),
      windows_(spec.interval, spec.unit, zoneForId(spec.timezone)),
      configKey_(key("config")),
      indexKey_(key("fw:index")),
      rateArg_(std::to_string(spec.rate)),
      specArg_(rateArg_ + "|" + std::to_string(spec.interval) + "|" +
               calendarUnitName(spec.unit).toStdString() + "|" + spec.timezone.toStdString()),
      counterPrefix_(key("fw:" + fingerprint(specArg_) + ":")) {}

const LuaScript& FixedWindowLimiter::script() const {
    static const LuaScript kScript(lua::kLua_fixed_window);
    return kScript;
}

std::string FixedWindowLimiter::configKey() const {
    return configKey_;
}

std::string FixedWindowLimiter::indexKey() const {
    return indexKey_;
}

std::string FixedWindowLimiter::counterKey(qint64 windowStartMs, const QString& client) const {
    std::string k = counterPrefix_ + std::to_string(windowStartMs);
    if (spec().scope == Scope::PerClient) {
        k += ":" + client.toStdString();
    }
    return k;
}

ScriptCall FixedWindowLimiter::prepare(const Request& request) const {
    checkPermits(request.permits);
    if (readsRedisTime(request)) {
        // Redis's time is read by the script: this is the window it most likely falls in, which
        // the script checks (ARGV[7] its start; "retime" when it misses, limiter.h).
        const CalendarWindow window = windows_.windowAt(redisTimeGuess(request.nowMs));
        return ScriptCall{
            {configKey_, counterKey(window.startMs, request.client), indexKey_},
            {rateArg_, specArg_, std::to_string(request.permits), "redis",
             std::to_string(window.endMs), ttlArg(window.endMs - window.startMs + kStateGraceMs),
             std::to_string(window.startMs)}};
    }
    const CalendarWindow window = windows_.windowAt(request.nowMs);
    return ScriptCall{
        {configKey_, counterKey(window.startMs, request.client), indexKey_},
        {rateArg_, specArg_, std::to_string(request.permits), std::to_string(request.nowMs),
         std::to_string(window.endMs), ttlArg(window.endMs - request.nowMs + kStateGraceMs)}};
}

}  // namespace ratelab
