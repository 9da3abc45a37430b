#pragma once

#include <QList>
#include <QStringList>

#include "stats/latency_histogram.h"

namespace ratelab {

// The latency histogram as bars: the buckets from the first to the last non-empty one, merged
// into at most kMaxBars bars: one per bucket if few enough, otherwise log-spaced (each bar a
// whole number of buckets, so the bars' counts add up to the total exactly). About 10 labels
// (the bar's start in ms) stay readable; the others are distinct blanks (a category axis needs
// distinct names).
struct LatencyBars {
    static constexpr int kMaxBars = 40;
    QStringList labels;
    QList<qreal> counts;
    QList<qint64> fromUs;  // each bar's range [fromUs, toUs], for its tooltip
    QList<qint64> toUs;
};
// `readableLabels`: how many labels fit side by side (the rest are blanks).
LatencyBars latencyBars(const LatencyHistogram::Snapshot& latency, int readableLabels = 10);

// A round number at least `value`: the y axis keeps it while the counts grow into it, so it
// does not change on every update.
double niceCeiling(double value);

}  // namespace ratelab
