#pragma once

#include "hunt/hunt_corners.h"
#include "traffic/trace.h"

namespace ratelab {

// The traces a hunt tries, aimed at its limiter's corners (HuntCorners): bursts in one
// millisecond, times on and 1 ms either side of every window length's multiples (epoch-aligned,
// as the counter's and the calendar's windows are, and counted from an earlier row, as a log's
// and a bucket's are), of the derived spacings (GCRA's emission interval and tolerance) and of
// the calendar boundaries (on DST days too), permits from 1 to the capacity + 1, idle gaps
// longer than anything the limiter remembers, one to three clients ("a", "b", "c").
//
// Deterministic: trace number `index` of a seed is the same trace on every machine (its own
// generator, seeded by the seed and the index; no standard distribution, whose draws the
// library defines).
class HuntGenerator {
public:
    HuntGenerator(HuntCorners corners, quint64 seed, int maxRows);

    Trace trace(qint64 index) const;
    const HuntCorners& corners() const { return corners_; }

private:
    HuntCorners corners_;
    quint64 seed_;
    int maxRows_;
};

}  // namespace ratelab
