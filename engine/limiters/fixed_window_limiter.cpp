#include "limiters/fixed_window_limiter.h"

#include "limiters/request_ids.h"

namespace ratelab {
namespace lua {
extern const char* const kLua_fixed_window;
}

FixedWindowLimiter::FixedWindowLimiter(LimiterSpec spec, LimiterOptions options)
    : Limiter(spec, options), windows_(spec.interval, spec.unit, zoneForId(spec.timezone)) {}

const LuaScript& FixedWindowLimiter::script() const {
    static const LuaScript kScript(lua::kLua_fixed_window);
    return kScript;
}

std::string FixedWindowLimiter::configKey() const {
    return key("config");
}

std::string FixedWindowLimiter::indexKey() const {
    return key("fw:index");
}

std::string FixedWindowLimiter::counterKey(qint64 windowStartMs, const QString& client) const {
    std::string suffix = "fw:" + std::to_string(windowStartMs);
    if (spec().scope == Scope::PerClient) {
        suffix += ":" + client.toStdString();
    }
    return key(suffix);
}

ScriptCall FixedWindowLimiter::prepare(const Request& request) const {
    checkPermits(request.permits);
    const LimiterSpec& s = spec();
    const CalendarWindow window = windows_.windowAt(request.nowMs);
    return ScriptCall{
        {configKey(), counterKey(window.startMs, request.client), indexKey()},
        {std::to_string(s.rate), std::to_string(s.interval), calendarUnitName(s.unit).toStdString(),
         s.timezone.toStdString(), std::to_string(request.permits), std::to_string(request.nowMs),
         std::to_string(window.endMs), ttlArg(window.endMs - request.nowMs + kStateGraceMs)}};
}

}  // namespace ratelab
