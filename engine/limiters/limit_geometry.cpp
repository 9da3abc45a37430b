#include "limiters/limit_geometry.h"

#include <algorithm>

#include "limiters/algorithm.h"
#include "limiters/calendar_window.h"

namespace ratelab {

double limitPerBucket(const LimiterSpec& spec, qint64 bucketMs, int clients) {
    double limit = algorithmOf(spec).limitPerBucket(spec, bucketMs);
    // A per-client limiter admits its limit to each client; a run with no client seen yet still
    // has at least one potential client.
    if (spec.scope == Scope::PerClient)
        limit *= std::max(clients, 1);
    return limit;
}

QVector<qint64> windowBoundaries(const LimiterSpec& spec, qint64 fromMs, qint64 toMs,
                                 int maxCount) {
    QVector<qint64> starts;
    const std::optional<CalendarWindows> calendar = algorithmOf(spec).calendarWindows(spec);
    if (!calendar || fromMs >= toMs || maxCount <= 0)
        return starts;

    const CalendarWindows& windows = *calendar;
    CalendarWindow window = windows.windowAt(fromMs);
    if (window.startMs < fromMs)
        window = windows.windowAt(window.endMs);  // fromMs is inside a window: take the next
    while (window.startMs < toMs && starts.size() < maxCount) {
        starts.append(window.startMs);
        const CalendarWindow next = windows.windowAt(window.endMs);
        if (next.startMs <= window.startMs)
            break;  // windows always move forward; never loop if they did not
        window = next;
    }
    return starts;
}

}  // namespace ratelab
