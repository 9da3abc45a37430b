#include "scenario/traffic_length.h"

#include <algorithm>

#include "json_input.h"
#include "limiters/algorithm.h"
#include "limiters/calendar_window.h"

namespace ratelab {

qint64 longestWindowMs(const LimiterSpec& spec) {
    const Algorithm& algorithm = algorithmOf(spec);
    qint64 longest = 0;
    for (qint64 w : algorithm.windowsMs(spec)) {
        longest = std::max(longest, w);
    }
    // A calendar window of months names no window length of its own (windowsMs).
    if (const std::optional<CalendarWindows> windows = algorithm.calendarWindows(spec)) {
        longest = std::max(longest, windows->interval() * nominalUnitMs(windows->unit()));
    }
    return longest;
}

QString shortTrafficWarning(double durationS, const QString& limiter, qint64 windowMs) {
    const QString window = json_input::formatNumber(double(windowMs) / 1000);
    return QStringLiteral(
               "the traffic lasts %1 s, less than twice limiter %2's longest window (%3 s): "
               "its figures come mostly from the limiter's first window, which starts empty; "
               "judge it on at least %4 s")
        .arg(json_input::formatNumber(durationS), json_input::quoted(limiter), window,
             json_input::formatNumber(double(2 * windowMs) / 1000));
}

QStringList shortTrafficWarnings(const Scenario& scenario) {
    QStringList warnings;
    for (const LimiterSpec& spec : scenario.limiters) {
        const qint64 window = longestWindowMs(spec);
        if (scenario.traffic.durationS * 1000 < 2.0 * double(window)) {
            warnings << shortTrafficWarning(scenario.traffic.durationS, spec.name, window);
        }
    }
    return warnings;
}

}  // namespace ratelab
