#pragma once

#include <QtGlobal>
#include <vector>

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

// The window lengths a summary reports for a limiter: those its config names (`configMs`) and
// 1 s, 10 s and 60 s, ascending, each once.
std::vector<qint64> admittedBurstWindows(const std::vector<qint64>& configMs);

}  // namespace ratelab
