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

// "rate|interval|unit|timezone": what a changed config changes.
std::string configText(const LimiterSpec& spec) {
    return std::to_string(spec.rate) + "|" + std::to_string(spec.interval) + "|" +
           calendarUnitName(spec.unit).toStdString() + "|" + spec.timezone.toStdString();
}

}  // namespace

FixedWindowLimiter::FixedWindowLimiter(LimiterSpec spec, LimiterOptions options)
    : Limiter(spec, options),
      windows_(spec.interval, spec.unit, zoneForId(spec.timezone)),
      configKey_(key("config")),
      rateArg_(std::to_string(spec.rate)),
      counterPrefix_(key("fw:" + fingerprint(configText(spec)) + ":")) {}

const LuaScript& FixedWindowLimiter::script() const {
    static const LuaScript kScript(lua::kLua_fixed_window);
    return kScript;
}

std::string FixedWindowLimiter::configKey() const {
    return configKey_;
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
    const CalendarWindow window = windows_.windowAt(request.nowMs);
    return ScriptCall{{counterKey(window.startMs, request.client)},
                      {rateArg_, std::to_string(request.permits),
                       ttlArg(window.endMs - request.nowMs + kStateGraceMs)},
                      request.nowMs,
                      request.permits > spec().rate ? -1 : window.endMs - request.nowMs};
}

}  // namespace ratelab
