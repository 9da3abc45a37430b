#include "limiters/limit_geometry.h"

#include <algorithm>

#include "limiters/calendar_window.h"

namespace ratelab {

namespace {

// Nominal length of one calendar unit in ms (a month counted as 30 days).
qint64 nominalUnitMs(CalendarUnit unit) {
    switch (unit) {
        case CalendarUnit::Milliseconds:
            return 1;
        case CalendarUnit::Seconds:
            return 1000;
        case CalendarUnit::Minutes:
            return 60 * 1000;
        case CalendarUnit::Hours:
            return 3600 * 1000;
        case CalendarUnit::Days:
            return 24LL * 3600 * 1000;
        case CalendarUnit::Months:
            return 30LL * 24 * 3600 * 1000;
    }
    return 1;
}

// permits per windowMs, scaled to one bucket; 0 for a degenerate window.
double perBucket(qint64 permits, qint64 windowMs, qint64 bucketMs) {
    return windowMs > 0 ? double(permits) * double(bucketMs) / double(windowMs) : 0.0;
}

}  // namespace

double limitPerBucket(const LimiterSpec& spec, qint64 bucketMs, int clients) {
    double limit = 0;
    switch (spec.type) {
        case LimiterType::TokenBucket:
            limit = perBucket(spec.rate, spec.intervalMs, bucketMs);
            break;
        case LimiterType::FixedWindow:
            limit = perBucket(spec.rate, spec.interval * nominalUnitMs(spec.unit), bucketMs);
            break;
        case LimiterType::SlidingWindow:
            for (int i = 0; i < spec.rules.size(); ++i) {
                const double ruleLimit =
                    perBucket(spec.rules[i].limit, spec.rules[i].windowMs, bucketMs);
                limit = i == 0 ? ruleLimit : std::min(limit, ruleLimit);
            }
            break;
        case LimiterType::Gcra:
        case LimiterType::LeakyBucket:
            limit = perBucket(spec.rate, spec.periodMs, bucketMs);  // the sustained rate
            break;
        case LimiterType::SlidingCounter:
            limit = perBucket(spec.limit, spec.windowMs, bucketMs);
            break;
    }
    // A per-client limiter admits its limit to each client; a run with no client seen yet still
    // has at least one potential client.
    if (spec.scope == Scope::PerClient)
        limit *= std::max(clients, 1);
    return limit;
}

QVector<qint64> windowBoundaries(const LimiterSpec& spec, qint64 fromMs, qint64 toMs,
                                 int maxCount) {
    QVector<qint64> starts;
    if (spec.type != LimiterType::FixedWindow || fromMs >= toMs || maxCount <= 0)
        return starts;

    const CalendarWindows windows(spec.interval, spec.unit, zoneForId(spec.timezone));
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
