#pragma once

#include <optional>

#include "stats/run_snapshot.h"

namespace ratelab::panel {

// The admitted burst the comparison tab shows of a limiter (its bar and the table's column):
// the interval the timeline marks (TimelineModel::markedInterval: the busiest interval of the
// shortest window the spec names, on the limiter's clock) and what the limit admits in that
// window in the steady state (limitPerBucket: a per_client limit times the run's clients).
struct MarkedBurst {
    BusiestInterval interval;
    double limit = 0;
    // The limiter's grants gave their slots back (a concurrency limiter under traffic with a
    // "hold"): the limit is on requests in flight, not on a window, and admits more in one
    // window however many release, so no count is above it.
    bool releasedSlots = false;
    // More accepted in the window than the limit admits: the limiter let a burst through (a
    // fixed window at a boundary, a full bucket).
    bool aboveLimit() const { return !releasedSlots && double(interval.permits) > limit; }
};

// None while the run goes on (the bursts are measured when it ends) or without any window.
std::optional<MarkedBurst> markedBurst(const LimiterSnapshot& limiter);

// The busiest interval of `windowMs` among `bursts` (a group's, a client's), or null.
const BusiestInterval* burstIn(const std::vector<BusiestInterval>& bursts, qint64 windowMs);

}  // namespace ratelab::panel
