#include "charts/timeline_model.h"

// Requests in flight for a limiter whose limit is on them (the concurrency limiter), from the
// run's own grants, releases and leaked grants per bucket.

#include <algorithm>
#include <cmath>

#include "limiters/algorithm.h"
#include "limiters/floor_div.h"

namespace ratelab {

TimelineModel::InFlight TimelineModel::inFlight(double viewMin, double viewMax,
                                                qint64 groupMs) const {
    InFlight out;
    out.shown = configured_ && algorithmOf(spec_).limitsInFlight();
    if (!out.shown)
        return out;
    const qint64 perClient = spec_.scope == Scope::PerClient ? effectiveClients() : 1;
    out.limit = limitSteps(viewMin, viewMax, [perClient](const LimiterSpec& spec) {
        return double(spec.limit * perClient);
    });
    for (const QPointF& p : out.limit)
        out.axisTop = std::max(out.axisTop, p.y());

    const qint64 group = std::max<qint64>(groupMs / bucketMs_, 1);
    const qint64 reached = std::min<qint64>(
        (elapsedUs_ + bucketMs_ * 1000 - 1) / (bucketMs_ * 1000), bucketAccepted_.size());
    const qint64 firstVisible = qint64(std::floor(viewMin * 1000.0 / double(bucketMs_)));
    const qint64 endVisible = qint64(std::ceil(viewMax * 1000.0 / double(bucketMs_)));
    const qint64 from = std::max<qint64>(0, (floorDiv(firstVisible, group) - 1) * group);
    const qint64 to = std::min((floorDiv(endVisible + group - 1, group) + 1) * group, reached);
    // A leaked grant made in bucket b has surely run out by the end of bucket b + lease.
    const qint64 leaseBuckets = (std::max<qint64>(spec_.leaseMs, 0) + bucketMs_ - 1) / bucketMs_;
    QVector<qint64> expiring(int(reached + leaseBuckets + 1), 0);
    const double elapsedMs = double(elapsedUs_) / 1000.0;
    qint64 held = 0;
    qint64 most = 0, released = 0, leaked = 0;
    for (qint64 b = 0; b < to; ++b) {
        held += bucketAccepted_.value(int(b)) - bucketReleased_.value(int(b)) - expiring[int(b)];
        held = std::max<qint64>(held, 0);
        expiring[int(b + leaseBuckets)] += bucketLeaked_.value(int(b));
        if (b < from)
            continue;
        const bool first = (b - from) % group == 0;
        most = first ? held : std::max(most, held);
        released = (first ? 0 : released) + bucketReleased_.value(int(b));
        leaked = (first ? 0 : leaked) + bucketLeaked_.value(int(b));
        if ((b - from) % group != group - 1 && b + 1 < to)
            continue;  // the step is not complete yet
        const qint64 start = b - (b - from) % group;
        const double x0 = double(start * bucketMs_) / 1000.0;
        const double x1 = std::min(double((start + group) * bucketMs_), elapsedMs) / 1000.0;
        out.inFlight << QPointF(x0, double(most)) << QPointF(x1, double(most));
        out.released << QPointF(x0, double(released)) << QPointF(x1, double(released));
        if (leaked > 0) {
            out.leaked << QPointF((x0 + x1) / 2, double(most));
            out.leakedCounts << leaked;
        }
        out.axisTop = std::max(out.axisTop, double(most));
    }
    return out;
}

}  // namespace ratelab
