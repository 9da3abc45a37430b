#include "charts/timeline_model.h"

// The admitted burst on the timeline: which busiest interval is marked and what it says.

#include <QLocale>
#include <algorithm>
#include <cmath>

namespace ratelab {

QVector<qint64> TimelineModel::configWindowsMs(const LimiterSpec& spec) {
    // The engine's list (stats/admitted_burst.h), the windows the run measured.
    QVector<qint64> windows;
    for (qint64 ms : limiterWindowsMs(spec)) {
        if (ms >= 1)
            windows << ms;
    }
    std::sort(windows.begin(), windows.end());
    windows.erase(std::unique(windows.begin(), windows.end()), windows.end());
    return windows;
}

void TimelineModel::setBusiestIntervals(const QVector<BusiestInterval>& intervals,
                                        const QVector<BusiestInterval>& runClock) {
    const auto byWindow = [](const BusiestInterval& a, const BusiestInterval& b) {
        return a.windowMs < b.windowMs;
    };
    busiest_ = intervals;
    std::sort(busiest_.begin(), busiest_.end(), byWindow);
    busiestRunClock_ = runClock;
    std::sort(busiestRunClock_.begin(), busiestRunClock_.end(), byWindow);
}

const BusiestInterval* TimelineModel::markedInterval(const LimiterSpec& spec,
                                                     const QVector<BusiestInterval>& intervals) {
    const QVector<qint64> config = configWindowsMs(spec);
    const BusiestInterval* chosen = nullptr;
    for (const BusiestInterval& interval : intervals) {
        const bool fromConfig = config.contains(interval.windowMs);
        const bool chosenFromConfig = chosen != nullptr && config.contains(chosen->windowMs);
        // The shortest config window, else the shortest window.
        if (chosen == nullptr || (fromConfig && !chosenFromConfig) ||
            (fromConfig == chosenFromConfig && interval.windowMs < chosen->windowMs)) {
            chosen = &interval;
        }
    }
    return chosen;
}

std::optional<TimelineModel::Burst> TimelineModel::burst() const {
    const BusiestInterval* chosen = markedInterval(spec_, busiest_);
    if (chosen == nullptr || chosen->permits <= 0)
        return std::nullopt;
    auto seconds = [this](qint64 ms) { return double(ms - startEpochMs_) / 1000.0; };
    Burst burst;
    burst.x0 = seconds(chosen->fromMs);
    burst.x1 = seconds(chosen->fromMs + chosen->windowMs);
    burst.first = seconds(chosen->firstMs);
    burst.last = seconds(chosen->lastMs);
    burst.label = tr("%1 accepted in %2 ms here").arg(chosen->permits).arg(chosen->windowMs);
    const BusiestInterval* runClock = nullptr;
    for (const BusiestInterval& interval : busiestRunClock_) {
        if (interval.windowMs == chosen->windowMs)
            runClock = &interval;
    }
    if (runClock != nullptr && runClock->permits != chosen->permits)
        burst.label += tr(" · %1 on the run's clock").arg(runClock->permits);
    const QLocale locale;
    const auto lineOf = [&](const BusiestInterval& interval) {
        return tr("%1 ms: %2 accepted, in %3 – %4 s (decisions %5 – %6 s)")
            .arg(interval.windowMs)
            .arg(interval.permits)
            .arg(locale.toString(seconds(interval.fromMs), 'f', 3),
                 locale.toString(seconds(interval.fromMs + interval.windowMs), 'f', 3),
                 locale.toString(seconds(interval.firstMs), 'f', 3),
                 locale.toString(seconds(interval.lastMs), 'f', 3));
    };
    QStringList lines{
        tr("<b>Most accepted in any interval</b> (exact, at the times the limiter "
           "decided at: what it enforces)")};
    for (const BusiestInterval& interval : busiest_) {
        const QString line = lineOf(interval);
        lines << (&interval == chosen ? QStringLiteral("<b>%1</b>").arg(line) : line);
    }
    if (!busiestRunClock_.isEmpty()) {
        lines << tr(
            "<b>On the run's own clock</b> (when the run sent them: what skewed clocks "
            "break and a backend behind the limiter sees)");
        for (const BusiestInterval& interval : busiestRunClock_)
            lines << lineOf(interval);
    }
    burst.toolTip = lines.join(QStringLiteral("<br>"));
    return burst;
}

void TimelineModel::setDisagreements(const QVector<qint64>& perBucket, const QString& other) {
    disagreed_ = perBucket;
    disagreeWith_ = perBucket.isEmpty() ? QString() : other;
}

QList<QPointF> TimelineModel::disagreements(double lo, double hi, qint64 groupMs) const {
    QList<QPointF> points;
    const qint64 per = std::max<qint64>(1, groupMs / std::max<qint64>(1, bucketMs_));
    const qint64 first = std::max<qint64>(0, qint64(std::floor(lo * 1000.0 / double(bucketMs_))));
    for (qint64 g = first / per * per;
         g < disagreed_.size() && double(g * bucketMs_) <= hi * 1000.0; g += per) {
        qint64 count = 0;
        for (qint64 b = g; b < g + per && b < disagreed_.size(); ++b)
            count += disagreed_[int(b)];
        if (count > 0)
            points << QPointF((double(g * bucketMs_) + double(per * bucketMs_) / 2.0) / 1000.0,
                              double(count));
    }
    return points;
}

qint64 TimelineModel::disagreementsAt(double seconds, qint64 groupMs) const {
    const qint64 per = std::max<qint64>(1, groupMs / std::max<qint64>(1, bucketMs_));
    const qint64 bucket = qint64(std::floor(seconds * 1000.0 / double(bucketMs_)));
    if (bucket < 0 || bucket >= disagreed_.size())
        return 0;
    const qint64 g = bucket / per * per;
    qint64 count = 0;
    for (qint64 b = g; b < g + per && b < disagreed_.size(); ++b)
        count += disagreed_[int(b)];
    return count;
}

}  // namespace ratelab
