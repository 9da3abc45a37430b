#include "traffic/run_clock.h"

#include <QDateTime>
#include <algorithm>
#include <thread>

namespace ratelab {
namespace {

// Sleeps are cut into slices so that a stop, a hold or a release is noticed quickly.
constexpr std::chrono::milliseconds kSleepSlice{20};

}  // namespace

RunClock::RunClock(const ClockSpec& spec) : spec_(spec) {}

void RunClock::start(qint64 fromRunUs, std::optional<qint64> startEpochMs) {
    const double realUs = waits() ? static_cast<double>(fromRunUs) / speed() : 0.0;
    start_ = Steady::now() - std::chrono::microseconds(static_cast<qint64>(realUs));
    startEpochMs_ = spec_.isVirtual ? spec_.startMs
                                    : startEpochMs.value_or(QDateTime::currentMSecsSinceEpoch());
    if (nextSampleUs_ != kNoSample && fromRunUs > 0) {
        // The first sample at or after fromRunUs, on the same grid as a whole run's.
        const qint64 steps = (fromRunUs + sampleEveryUs_ - 1) / sampleEveryUs_;
        nextSampleUs_ = std::min(steps * sampleEveryUs_, sampleUntilUs_);
    }
}

RunClock::Steady::duration RunClock::heldTotal(Steady::time_point at) const {
    // Called with holdMutex_ locked.
    return heldBefore_ + (holds_ > 0 ? at - heldSince_ : Steady::duration(0));
}

qint64 RunClock::elapsedUs() const {
    if (!waits()) {
        return 0;
    }
    const Steady::time_point now = Steady::now();
    Steady::duration real = now - start_;
    if (spec_.isVirtual) {
        std::lock_guard<std::mutex> lock(holdMutex_);
        real -= heldTotal(now);
    }
    const auto us = std::chrono::duration_cast<std::chrono::microseconds>(real);
    return static_cast<qint64>(static_cast<double>(us.count()) * speed());
}

RunClock::Steady::time_point RunClock::deadlineFor(qint64 runUs) const {
    if (!waits()) {
        return start_;
    }
    const double realUs = static_cast<double>(runUs) / speed();
    const auto at = start_ + std::chrono::microseconds(static_cast<qint64>(realUs));
    if (!spec_.isVirtual) {
        return at;
    }
    std::lock_guard<std::mutex> lock(holdMutex_);
    if (holds_ > 0) {
        return Steady::time_point::max();
    }
    return at + heldBefore_;
}

qint64 RunClock::limiterNowMs(qint64 scheduledRunUs, qint64 sentRunUs) const {
    if (spec_.isVirtual) {
        return startEpochMs_ + scheduledRunUs / 1000;
    }
    return startEpochMs_ + sentRunUs / 1000;
}

qint64 RunClock::runUsForEpochMs(qint64 epochMs) const {
    return (epochMs - startEpochMs_) * 1000;
}

void RunClock::hold() {
    if (!spec_.isVirtual) {
        return;
    }
    std::lock_guard<std::mutex> lock(holdMutex_);
    if (holds_++ == 0) {
        heldSince_ = Steady::now();
    }
}

void RunClock::release() {
    if (!spec_.isVirtual) {
        return;
    }
    std::lock_guard<std::mutex> lock(holdMutex_);
    if (holds_ > 0 && --holds_ == 0) {
        heldBefore_ += Steady::now() - heldSince_;
    }
}

bool RunClock::held() const {
    std::lock_guard<std::mutex> lock(holdMutex_);
    return holds_ > 0;
}

void RunClock::sleepUntil(qint64 runUs, const std::atomic<bool>& stop) {
    while (!stop.load(std::memory_order_relaxed)) {
        const auto deadline = deadlineFor(runUs);  // moves on while the clock is held
        if (deadline == Steady::time_point::max()) {
            waitOutHold(stop);
            continue;
        }
        const auto now = Steady::now();
        if (now >= deadline) {
            return;
        }
        std::this_thread::sleep_for(std::min<Steady::duration>(deadline - now, kSleepSlice));
    }
}

void RunClock::waitWhileHeld(const std::atomic<bool>& stop) {
    waitOutHold(stop);
}

void RunClock::waitOutHold(const std::atomic<bool>& stop) {
    if (!held()) {
        return;
    }
    if (holdWatcher_) {
        holdWatcher_(true);
    }
    while (!stop.load(std::memory_order_relaxed) && held()) {
        std::this_thread::sleep_for(kSleepSlice);
    }
    if (holdWatcher_) {
        hold();
        holdWatcher_(false);
        release();
    }
}

void RunClock::setSampler(qint64 everyUs, qint64 untilUs, Sampler sample) {
    if (!spec_.isVirtual || !sample || everyUs <= 0) {
        return;
    }
    sample_ = std::move(sample);
    sampleEveryUs_ = everyUs;
    sampleUntilUs_ = untilUs;
    nextSampleUs_ = 0;
}

void RunClock::sampleUntil(qint64 runUs, const std::atomic<bool>& stop) {
    while (nextSampleUs_ <= std::min(runUs, sampleUntilUs_) &&
           !stop.load(std::memory_order_relaxed)) {
        if (waits()) {
            sleepUntil(nextSampleUs_, stop);
        }
        waitWhileHeld(stop);  // paused: the sample waits like a decision
        if (stop.load(std::memory_order_relaxed)) {
            return;
        }
        hold();  // the read takes real time that is no run time
        sample_(nextSampleUs_);
        release();
        nextSampleUs_ = nextSampleUs_ >= sampleUntilUs_
                            ? kNoSample
                            : std::min(nextSampleUs_ + sampleEveryUs_, sampleUntilUs_);
    }
}

}  // namespace ratelab
