#pragma once

#include <QtGlobal>
#include <atomic>
#include <chrono>
#include <functional>
#include <limits>
#include <mutex>
#include <optional>

#include "traffic/traffic_spec.h"

namespace ratelab {

// Maps run time (microseconds since the run started) to the limiter's clock (epoch ms) and to
// the real instant a worker must wait for.
//  - real: run time is steady-clock time since start; "now" is the wall clock at the send.
//  - virtual, speed s > 0: run time advances s times as fast as real time; "now" is the
//    virtual start plus the request's scheduled run time (exact, reproducible).
//  - virtual, speed 0: no waiting at all; requests are decided back to back in schedule order.
// A virtual clock can be held (Pause, and the state sampler between two decisions): run time
// stops while held and goes on from where it was. A real clock cannot be held.
class RunClock {
public:
    using Steady = std::chrono::steady_clock;
    // Called with a run time at which the limiters' state is to be read (see setSampler).
    using Sampler = std::function<void(qint64 runUs)>;
    static constexpr qint64 kNoSample = std::numeric_limits<qint64>::max();

    explicit RunClock(const ClockSpec& spec);

    // Fixes run time `fromRunUs` to this instant (0: a new run; more: a run that continues a
    // step session, whose samples before fromRunUs are not taken). A real clock's run time 0
    // is the limiter time `startEpochMs` when given (the step session's), else the wall clock.
    void start(qint64 fromRunUs = 0, std::optional<qint64> startEpochMs = std::nullopt);

    bool isVirtual() const { return spec_.isVirtual; }
    bool waits() const { return !spec_.isVirtual || spec_.speed > 0; }
    double speed() const { return spec_.isVirtual ? spec_.speed : 1.0; }
    qint64 startEpochMs() const { return startEpochMs_; }

    // Run time reached now (for speed 0: not meaningful, returns 0). Held time does not count.
    qint64 elapsedUs() const;
    // The real instant at which run time reaches runUs (while held: never, time_point::max).
    Steady::time_point deadlineFor(qint64 runUs) const;
    // The limiter's "now" for a request scheduled at scheduledRunUs and sent at sentRunUs.
    qint64 limiterNowMs(qint64 scheduledRunUs, qint64 sentRunUs) const;
    // Run time of a limiter time (epoch ms), e.g. when a retry becomes due.
    qint64 runUsForEpochMs(qint64 epochMs) const;

    // Holds (nested holds count) and releases a virtual clock; no effect on a real one.
    // Thread-safe.
    void hold();
    void release();
    bool held() const;
    // Returns once run time reaches runUs (held time not counted) or `stop` is set.
    void sleepUntil(qint64 runUs, const std::atomic<bool>& stop);
    // Returns once the clock is not held or `stop` is set (speed 0 never sleeps otherwise).
    void waitWhileHeld(const std::atomic<bool>& stop);

    // Called by the thread that waits in sleepUntil or waitWhileHeld (a virtual run's one
    // worker, no decision in flight) when it finds the clock held by someone else (Pause):
    // watch(true) before it waits, watch(false) once the hold is over or `stop` is set, with
    // the clock held again for that call (its real time is no run time). A hold the waiting
    // thread takes itself (a state sample) is over before it waits. Before start.
    using HoldWatcher = std::function<void(bool held)>;
    void setHoldWatcher(HoldWatcher watch) { holdWatcher_ = std::move(watch); }

    // Virtual clocks: sample(t) is to run at t = 0, everyUs, 2 everyUs, ... up to untilUs, with
    // the clock held, before any decision scheduled at or after t (sampleUntil). Before start.
    void setSampler(qint64 everyUs, qint64 untilUs, Sampler sample);
    // Runs the samples due at or before runUs, in order; a waiting clock first waits until run
    // time reaches each. Called by the one worker of a virtual run before the decisions due at
    // runUs, and with the run's end once they are done. Not thread-safe (that one worker).
    void sampleUntil(qint64 runUs, const std::atomic<bool>& stop);
    qint64 nextSampleUs() const { return nextSampleUs_; }

private:
    Steady::duration heldTotal(Steady::time_point at) const;  // held time before `at`
    void waitOutHold(const std::atomic<bool>& stop);          // held: wait, telling the watcher

    ClockSpec spec_;
    Steady::time_point start_{};
    qint64 startEpochMs_ = 0;

    mutable std::mutex holdMutex_;
    int holds_ = 0;                   // under holdMutex_
    Steady::time_point heldSince_{};  // under holdMutex_, while holds_ > 0
    Steady::duration heldBefore_{0};  // under holdMutex_: held time of the finished holds

    HoldWatcher holdWatcher_;
    Sampler sample_;
    qint64 sampleEveryUs_ = 0;
    qint64 sampleUntilUs_ = 0;
    qint64 nextSampleUs_ = kNoSample;  // moved by sampleUntil (one worker)
};

}  // namespace ratelab
