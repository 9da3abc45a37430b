#pragma once

#include <QtGlobal>
#include <vector>

#include "limiters/limiter_spec.h"

namespace ratelab {

// The admitted-burst metric: the most permits a limiter accepted in any half-open interval
// [t, t + N) of a run, exact, from the accepted decisions themselves (not from time buckets,
// whose edges would split a burst). It is the figure limiter users argue about: a fixed window
// admits up to twice its limit across a boundary, a full bucket admits its capacity and then
// its rate.

// One accepted decision: the time the limiter decided at (ms) and the permits it granted.
struct AcceptedAt {
    qint64 ms = 0;
    qint64 permits = 0;
};

// Where the busiest interval is: `permits` accepted in [fromMs, fromMs + windowMs). When
// several intervals tie, the earliest. An empty run gives permits 0 at fromMs 0.
struct BusiestInterval {
    qint64 permits = 0;
    qint64 fromMs = 0;
    qint64 windowMs = 0;
    // The accepted decisions inside it: the first and last decision times.
    qint64 firstMs = 0;
    qint64 lastMs = 0;
};

// Exact over any order of `accepted` (sorted here: O(n log n), then one pass with two
// pointers). windowMs must be >= 1.
BusiestInterval busiestInterval(std::vector<AcceptedAt> accepted, qint64 windowMs);
// The same over decisions already in time order (one pass).
BusiestInterval busiestIntervalSorted(const std::vector<AcceptedAt>& accepted, qint64 windowMs);

// The window lengths a summary reports for a limiter: those its config names (`configMs`) and
// 1 s, 10 s and 60 s, ascending, each once.
std::vector<qint64> admittedBurstWindows(const std::vector<qint64>& configMs);

// The window lengths a limiter's config names (ms): the token bucket's interval, the fixed
// window's length (a day as 24 h; calendar months have no one length and are left out), each
// sliding-window rule's window, GCRA's and the leaky bucket's period, the sliding-window
// counter's window.
std::vector<qint64> limiterWindowsMs(const LimiterSpec& spec);

}  // namespace ratelab
