#include "panels/latency_bars.h"

#include <QLocale>
#include <QVector>
#include <cmath>
#include <cstdint>

namespace ratelab {
namespace {

// A bar's label: the start of its first histogram bucket in ms. Above 10 ms buckets are at
// least 128 us wide (above 100 ms, 1024 us), so these precisions never give two bars one label.
QString barLabel(qint64 us) {
    const double ms = double(us) / 1000.0;
    return QLocale().toString(ms, 'f', ms < 10 ? 3 : ms < 100 ? 2 : 0);
}

}  // namespace

LatencyBars latencyBars(const LatencyHistogram::Snapshot& latency, int readableLabels) {
    constexpr int kMaxBars = LatencyBars::kMaxBars;
    LatencyBars bars;
    int first = -1;
    int last = -1;
    for (int i = 0; i < LatencyHistogram::kBucketCount; ++i) {
        if (latency.counts[i]) {
            if (first < 0)
                first = i;
            last = i;
        }
    }
    if (first < 0)
        return bars;
    QVector<int> starts;  // each bar's first bucket
    if (last - first < kMaxBars) {
        for (int i = first; i <= last; ++i)
            starts.append(i);
    } else {
        const double lo = std::max<double>(double(LatencyHistogram::bucketLowest(first)), 1.0);
        const double hi = double(LatencyHistogram::bucketHighest(last)) + 1.0;
        starts.append(first);
        for (int k = 1; k < kMaxBars; ++k) {
            const double edge = lo * std::pow(hi / lo, double(k) / kMaxBars);
            const int index = LatencyHistogram::bucketIndex(std::int64_t(std::ceil(edge)));
            // Narrow bars at the low end can fall inside one bucket: they merge.
            if (index > starts.last() && index <= last)
                starts.append(index);
        }
    }
    // Each blank is a different number of zero-width spaces.
    const int readable = std::max(readableLabels, 1);
    const int labelEvery = std::max(1, int((starts.size() + readable - 1) / readable));
    for (int b = 0; b < starts.size(); ++b) {
        const int end = b + 1 < starts.size() ? starts[b + 1] : last + 1;
        std::uint64_t sum = 0;
        for (int i = starts[b]; i < end; ++i)
            sum += latency.counts[i];
        bars.counts.append(qreal(sum));
        bars.fromUs.append(LatencyHistogram::bucketLowest(starts[b]));
        bars.toUs.append(LatencyHistogram::bucketHighest(end - 1));
        bars.labels.append(b % labelEvery == 0 ? barLabel(LatencyHistogram::bucketLowest(starts[b]))
                                               : QString(b + 1, QChar(0x200B)));
    }
    return bars;
}

double niceCeiling(double value) {
    if (value <= 1)
        return 1;
    const double decade = std::pow(10.0, std::floor(std::log10(value)));
    for (double step : {1.0, 1.5, 2.0, 3.0, 4.0, 6.0, 8.0, 10.0}) {
        if (step * decade >= value)
            return step * decade;
    }
    return 10 * decade;
}

}  // namespace ratelab
