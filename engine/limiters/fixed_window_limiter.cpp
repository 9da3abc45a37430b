#include "limiters/fixed_window_limiter.h"

#include "limiters/request_ids.h"

namespace ratelab {
namespace lua {
extern const char* const kLua_fixed_window;
}

FixedWindowLimiter::FixedWindowLimiter(LimiterSpec spec, LimiterOptions options)
    : Limiter(spec, options),
      windows_(spec.interval, spec.unit, zoneForId(spec.timezone)),
      configKey_(key("config")),
      indexKey_(key("fw:index")),
      configArgs_{std::to_string(spec.rate), std::to_string(spec.interval),
                  calendarUnitName(spec.unit).toStdString(), spec.timezone.toStdString()} {}

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
    std::string suffix = "fw:" + std::to_string(windowStartMs);
    if (spec().scope == Scope::PerClient) {
        suffix += ":" + client.toStdString();
    }
    return key(suffix);
}

ScriptCall FixedWindowLimiter::prepare(const Request& request) const {
    checkPermits(request.permits);
    const CalendarWindow window = windows_.windowAt(request.nowMs);
    return ScriptCall{
        {configKey_, counterKey(window.startMs, request.client), indexKey_},
        {configArgs_[0], configArgs_[1], configArgs_[2], configArgs_[3],
         std::to_string(request.permits), std::to_string(request.nowMs),
         std::to_string(window.endMs), ttlArg(window.endMs - request.nowMs + kStateGraceMs)}};
}

}  // namespace ratelab
