#pragma once

#include <QtGlobal>

namespace ratelab {

// One attempt a worker has to make: a scheduled request to one limiter, a wait-mode retry, a
// delayed grant that completes (the leaky bucket), or a grant's release (the concurrency
// limiter). A run that continues a step session takes over the session's jobs still to come.
struct WorkerJob {
    qint64 dueRunUs = 0;        // when this attempt is due
    qint64 scheduledRunUs = 0;  // the request's place in the schedule
    qint64 firstTryRunUs = -1;  // wait mode: when its first attempt went out; -1 before
    int limiter = 0;
    int client = 0;
    qint64 permits = 1;
    bool held = false;      // granted with a delay (the leaky bucket): completes when due, no call
    qint64 k = -1;          // the request's index in the schedule (its id at the limiter)
    qint64 holdMs = -1;     // a grant holding slots releases them this long after; -1 never
    bool releases = false;  // a grant's release (the concurrency limiter), due at its end
    int gateway = 0;        // the gateway the request goes through (traffic "gateways")
};

}  // namespace ratelab
