#include "charts/timeline_model.h"

// The admitted burst on the timeline: which busiest interval is marked and what it says.

#include <QLocale>
#include <algorithm>

namespace ratelab {
namespace {

qint64 unitMs(CalendarUnit unit) {
    switch (unit) {
        case CalendarUnit::Milliseconds:
            return 1;
        case CalendarUnit::Seconds:
            return 1000;
        case CalendarUnit::Minutes:
            return 60'000;
        case CalendarUnit::Hours:
            return 3'600'000;
        case CalendarUnit::Days:
            return 86'400'000;
        case CalendarUnit::Months:
            return 30LL * 86'400'000;
    }
    return 1000;
}

}  // namespace

QVector<qint64> TimelineModel::configWindowsMs(const LimiterSpec& spec) {
    QVector<qint64> windows;
    switch (spec.type) {
        case LimiterType::TokenBucket:
            windows << spec.intervalMs;
            break;
        case LimiterType::FixedWindow:
            windows << spec.interval * unitMs(spec.unit);
            break;
        case LimiterType::SlidingWindow:
            for (const SlidingRule& rule : spec.rules)
                windows << rule.windowMs;
            break;
        case LimiterType::Gcra:
        case LimiterType::LeakyBucket:
            windows << spec.periodMs;
            break;
        case LimiterType::SlidingCounter:
            windows << spec.windowMs;
            break;
    }
    windows.removeIf([](qint64 ms) { return ms < 1; });
    std::sort(windows.begin(), windows.end());
    windows.erase(std::unique(windows.begin(), windows.end()), windows.end());
    return windows;
}

void TimelineModel::setBusiestIntervals(const QVector<BusiestInterval>& intervals) {
    busiest_ = intervals;
    std::sort(
        busiest_.begin(), busiest_.end(),
        [](const BusiestInterval& a, const BusiestInterval& b) { return a.windowMs < b.windowMs; });
}

std::optional<TimelineModel::Burst> TimelineModel::burst() const {
    if (busiest_.isEmpty())
        return std::nullopt;
    const QVector<qint64> config = configWindowsMs(spec_);
    const BusiestInterval* chosen = nullptr;
    for (const BusiestInterval& interval : busiest_) {  // ascending by window
        if (config.contains(interval.windowMs)) {
            chosen = &interval;
            break;
        }
    }
    if (chosen == nullptr)
        chosen = &busiest_.first();
    if (chosen->permits <= 0)
        return std::nullopt;
    auto seconds = [this](qint64 ms) { return double(ms - startEpochMs_) / 1000.0; };
    Burst burst;
    burst.x0 = seconds(chosen->fromMs);
    burst.x1 = seconds(chosen->fromMs + chosen->windowMs);
    burst.first = seconds(chosen->firstMs);
    burst.last = seconds(chosen->lastMs);
    burst.label = tr("%1 accepted in %2 ms here").arg(chosen->permits).arg(chosen->windowMs);
    const QLocale locale;
    QStringList lines{tr("<b>Most accepted in any interval</b> (exact, from the decisions)")};
    for (const BusiestInterval& interval : busiest_) {
        const QString line =
            tr("%1 ms: %2 accepted, in %3 – %4 s (decisions %5 – %6 s)")
                .arg(interval.windowMs)
                .arg(interval.permits)
                .arg(locale.toString(seconds(interval.fromMs), 'f', 3),
                     locale.toString(seconds(interval.fromMs + interval.windowMs), 'f', 3),
                     locale.toString(seconds(interval.firstMs), 'f', 3),
                     locale.toString(seconds(interval.lastMs), 'f', 3));
        lines << (&interval == chosen ? QStringLiteral("<b>%1</b>").arg(line) : line);
    }
    burst.toolTip = lines.join(QStringLiteral("<br>"));
    return burst;
}

}  // namespace ratelab
