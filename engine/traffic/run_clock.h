#pragma once

#include <chrono>

#include "traffic/traffic_spec.h"

namespace ratelab {

// Maps run time (microseconds since the run started) to the limiter's clock (epoch ms) and to
// the real instant a worker must wait for.
//  - real: run time is steady-clock time since start; "now" is the wall clock at the send.
//  - virtual, speed s > 0: run time advances s times as fast as real time; "now" is the
//    virtual start plus the request's scheduled run time (exact, reproducible).
//  - virtual, speed 0: no waiting at all; requests are decided back to back in schedule order.
class RunClock {
public:
    using Steady = std::chrono::steady_clock;

    explicit RunClock(const ClockSpec& spec);

    // Fixes run time 0 to this instant.
    void start();

    bool isVirtual() const { return spec_.isVirtual; }
    bool waits() const { return !spec_.isVirtual || spec_.speed > 0; }
    double speed() const { return spec_.isVirtual ? spec_.speed : 1.0; }
    qint64 startEpochMs() const { return startEpochMs_; }

    // Run time reached now (for speed 0: not meaningful, returns 0).
    qint64 elapsedUs() const;
    // The real instant at which run time reaches runUs.
    Steady::time_point deadlineFor(qint64 runUs) const;
    // The limiter's "now" for a request scheduled at scheduledRunUs and sent at sentRunUs.
    qint64 limiterNowMs(qint64 scheduledRunUs, qint64 sentRunUs) const;
    // Run time of a limiter time (epoch ms), e.g. when a retry becomes due.
    qint64 runUsForEpochMs(qint64 epochMs) const;

private:
    ClockSpec spec_;
    Steady::time_point start_{};
    qint64 startEpochMs_ = 0;
};

}  // namespace ratelab
