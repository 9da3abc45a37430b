#pragma once

#include <optional>
#include <vector>

#include "limiters/calendar_window.h"
#include "limiters/limiter_spec.h"

namespace ratelab {

// Where the hunt's traces start unless a corner needs another day (a calendar window's DST
// day): 2023-11-14T22:13:20Z, and where a counterexample's times are shifted to.
constexpr qint64 kHuntStartMs = 1'700'000'000'000;
// Some traces start here instead, 2027-01-15T08:00:00Z: arithmetic in doubles of seconds since
// an epoch (a library flavor's) rounds differently as the date goes on.
constexpr qint64 kHuntLaterStartMs = 1'800'000'000'000;

// The corners of a limiter's (and its reference's) parameters that generated traces aim at,
// read from their descriptors (Algorithm): no type is named here.
struct HuntCorners {
    // Every window length the specs name (Algorithm::windowsMs), and the spacings derived from
    // them and the specs' admitting parameters (a window / a rate: GCRA's emission interval;
    // a window x a burst / a rate: its tolerance), ascending, distinct, each at least 1 ms.
    std::vector<qint64> windowsMs;
    std::vector<qint64> spacingsMs;
    // Each spec's capacity (Algorithm::capacity), and the largest permits a request of a trace
    // asks for: the largest capacity + 1, or less when a limiter takes no more in one request.
    std::vector<qint64> capacities;
    qint64 maxPermits = 1;
    // An idle gap longer than anything the specs remember: the longest window times its
    // capacity + 1 (a drained GCRA or leaky bucket), at least the longest window + 1 ms.
    qint64 idleGapMs = 1;
    // A fixed window's calendar windows, and the instants traces may start at to cross its
    // boundaries on the zone's DST days (the start of the window before each transition);
    // empty for a spec without calendar windows.
    std::optional<CalendarWindows> calendar;
    std::vector<qint64> anchorsMs;  // kHuntStartMs first, kHuntLaterStartMs second
};

// The corners of `limiter` and, when there is one, of `reference`.
HuntCorners huntCorners(const LimiterSpec& limiter, const LimiterSpec* reference);

}  // namespace ratelab
