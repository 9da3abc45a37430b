#pragma once

#include <QVector>

#include "limiters/limiter.h"
#include "traffic/trace.h"

namespace ratelab {

// Key TTLs run in server time while a replay's "now" is the trace's: a replay slower than its
// trace (a 150,000 requests/s trace decided at 8,000/s) would let a limiter's state expire in
// the middle of a window, between two grants, and admit a whole window again. The TTLs are
// stretched so that a replay deciding at least kReplayMinDecisionsPerS requests per second
// keeps every key as long as the trace needs it: by the trace's busiest second / that rate.
constexpr double kReplayMinDecisionsPerS = 500;

// The options `ratelab replay` makes its limiter with (LimiterOptions::ttlScale).
LimiterOptions replayLimiterOptions(const Trace& trace);

// Every row is a request `limiter` takes (e.g. a sliding window's bound on permits per
// request), checked before Redis is touched: an InputError naming "FILE:LINE" otherwise.
void checkTraceFitsLimiter(const Limiter& limiter, const Trace& trace, const QString& fileName);

}  // namespace ratelab
