#include "hunt/hunt_corners.h"

#include <QDateTime>
#include <algorithm>

#include "input_error.h"
#include "limiters/algorithm.h"
#include "limiters/limiter.h"

namespace ratelab {
namespace {

// Gaps and spacings past this are left out: a year of idle time reaches every state's end.
constexpr qint64 kLongestGapMs = 366LL * 24 * 3600 * 1000;
// The DST transitions looked for: a year either side of the start.
constexpr qint64 kTransitionSpanMs = 366LL * 24 * 3600 * 1000;
constexpr int kMaxTransitions = 4;

void sortDistinct(std::vector<qint64>& values) {
    std::sort(values.begin(), values.end());
    values.erase(std::unique(values.begin(), values.end()), values.end());
}

// The values of a spec's parameters that admit more when larger (a rate, a limit, a burst).
std::vector<qint64> admittingValues(const LimiterSpec& spec) {
    std::vector<qint64> values;
    for (const NumericParam& param : algorithmOf(spec).numericParams(spec)) {
        if (param.moreAdmits && param.value >= 1) {
            values.push_back(param.value);
        }
    }
    return values;
}

void addSpec(const LimiterSpec& spec, HuntCorners& corners) {
    const Algorithm& algorithm = algorithmOf(spec);
    std::vector<qint64> windows = algorithm.windowsMs(spec);
    if (const std::optional<CalendarWindows> calendar = algorithm.calendarWindows(spec)) {
        const CalendarWindow w = calendar->windowAt(kHuntStartMs);
        windows.push_back(w.endMs - w.startMs);  // a month's has no nominal length
        if (!corners.calendar) {
            corners.calendar = calendar;
        }
    }
    const std::vector<qint64> admits = admittingValues(spec);
    for (const qint64 w : windows) {
        if (w < 1) {
            continue;
        }
        corners.windowsMs.push_back(w);
        for (const qint64 a : admits) {
            corners.spacingsMs.push_back(w / a);
            corners.spacingsMs.push_back((w + a - 1) / a);
            for (const qint64 b : admits) {
                // w x b / a, kept below the longest gap (no overflow: w <= a day, b <= 1e9).
                if (b != a && double(w) * double(b) / double(a) < double(kLongestGapMs)) {
                    corners.spacingsMs.push_back(w * b / a);
                }
            }
        }
    }
    corners.capacities.push_back(algorithm.capacity(spec));
}

// The largest permits up to `upTo` that `spec`'s limiter takes in one request (a sliding log
// takes at most 10,000 whatever its limits).
qint64 largestPermitsTaken(const LimiterSpec& spec, qint64 upTo) {
    const std::unique_ptr<Limiter> limiter = makeLimiter(spec);
    const auto takes = [&](qint64 permits) {
        try {
            limiter->prepare(Request{kHuntStartMs, QStringLiteral("a"), permits});
            return true;
        } catch (const InputError&) {
            return false;
        }
    };
    if (takes(upTo)) {
        return upTo;
    }
    qint64 taken = 1;  // every limiter takes one permit
    qint64 refused = upTo;
    while (refused - taken > 1) {
        const qint64 mid = taken + (refused - taken) / 2;
        (takes(mid) ? taken : refused) = mid;
    }
    return taken;
}

// The start of the calendar window before each DST transition near the start, and of the
// window holding it: traces from there cross the boundaries of the zone's short and long days.
void addTransitionAnchors(HuntCorners& corners) {
    const QTimeZone& zone = corners.calendar->zone();
    if (!zone.hasTransitions()) {
        return;
    }
    qint64 from = kHuntStartMs - kTransitionSpanMs;
    for (int i = 0; i < kMaxTransitions; ++i) {
        const QTimeZone::OffsetData next =
            zone.nextTransition(QDateTime::fromMSecsSinceEpoch(from, Qt::UTC));
        if (!next.atUtc.isValid()) {
            return;
        }
        const qint64 at = next.atUtc.toMSecsSinceEpoch();
        if (at > kHuntStartMs + kTransitionSpanMs) {
            return;
        }
        const CalendarWindow holding = corners.calendar->windowAt(at);
        const CalendarWindow before = corners.calendar->windowAt(holding.startMs - 1);
        corners.anchorsMs.push_back(before.startMs);
        corners.anchorsMs.push_back(holding.startMs);
        corners.anchorsMs.push_back(holding.endMs - 1);
        from = at + 1;
    }
}

}  // namespace

HuntCorners huntCorners(const LimiterSpec& limiter, const LimiterSpec* reference) {
    HuntCorners corners;
    addSpec(limiter, corners);
    if (reference != nullptr) {
        addSpec(*reference, corners);
    }
    corners.spacingsMs.erase(std::remove_if(corners.spacingsMs.begin(), corners.spacingsMs.end(),
                                            [](qint64 s) { return s < 1 || s > kLongestGapMs; }),
                             corners.spacingsMs.end());
    sortDistinct(corners.windowsMs);
    sortDistinct(corners.spacingsMs);
    sortDistinct(corners.capacities);
    corners.maxPermits = corners.capacities.empty() ? 1 : corners.capacities.back() + 1;
    corners.maxPermits = largestPermitsTaken(limiter, corners.maxPermits);
    if (reference != nullptr) {
        corners.maxPermits = largestPermitsTaken(*reference, corners.maxPermits);
    }

    const qint64 longest = corners.windowsMs.empty() ? 1000 : corners.windowsMs.back();
    const qint64 largest = corners.capacities.empty() ? 1 : corners.capacities.back();
    const double drained = double(longest) * double(largest + 1);
    corners.idleGapMs = std::max(
        longest + 1, drained < double(kLongestGapMs) ? qint64(drained) + 1 : kLongestGapMs);

    corners.anchorsMs.push_back(kHuntStartMs);
    corners.anchorsMs.push_back(kHuntLaterStartMs);
    if (corners.calendar) {
        addTransitionAnchors(corners);
    }
    return corners;
}

}  // namespace ratelab
