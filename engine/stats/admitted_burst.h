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

// Which clock an admitted burst counts grants on. Both answer a real question, each under its
// own metric name:
//  - Limiter: the time the limiter decided at (the now passed to its script, or the time the
//    script reports it used). This is what the limiter enforces: a correct limiter never
//    exceeds its limit on it, however many threads send and in whatever order their requests
//    reach Redis. "max_accepted_in_any_<N>ms".
//  - Run: the run's own clock at the decision (the virtual time a request was due, or the real
//    time its batch was sent). What skewed client clocks break, and what a backend behind the
//    limiter sees; with many threads and pipelines it also counts requests that reached Redis
//    in another order than they were sent. "max_admitted_in_any_<N>ms_run_clock".
enum class BurstClock { Limiter, Run };

// One accepted decision: its time on one of those clocks (ms) and the permits it granted.
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
