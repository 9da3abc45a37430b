#include "panels/marked_burst.h"

#include <algorithm>

#include "charts/timeline_model.h"
#include "limiters/limit_geometry.h"

namespace ratelab::panel {

std::optional<MarkedBurst> markedBurst(const LimiterSnapshot& limiter) {
    const QVector<BusiestInterval> intervals(limiter.admittedBurst.begin(),
                                             limiter.admittedBurst.end());
    const BusiestInterval* interval = TimelineModel::markedInterval(limiter.spec, intervals);
    if (interval == nullptr)
        return std::nullopt;
    const int clients = std::max<int>(int(limiter.clients.size()), 1);
    return MarkedBurst{*interval, limitPerBucket(limiter.spec, interval->windowMs, clients),
                       limiter.leases.released + limiter.leases.lateReleases > 0};
}

const BusiestInterval* burstIn(const std::vector<BusiestInterval>& bursts, qint64 windowMs) {
    const auto found = std::find_if(bursts.begin(), bursts.end(), [&](const BusiestInterval& b) {
        return b.windowMs == windowMs;
    });
    return found != bursts.end() ? &*found : nullptr;
}

}  // namespace ratelab::panel
