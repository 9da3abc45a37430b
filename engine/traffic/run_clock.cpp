#include "traffic/run_clock.h"

#include <QDateTime>

namespace ratelab {

RunClock::RunClock(const ClockSpec& spec) : spec_(spec) {}

void RunClock::start() {
    start_ = Steady::now();
    startEpochMs_ = spec_.isVirtual ? spec_.startMs : QDateTime::currentMSecsSinceEpoch();
}

qint64 RunClock::elapsedUs() const {
    if (!waits()) {
        return 0;
    }
    const auto real = std::chrono::duration_cast<std::chrono::microseconds>(Steady::now() - start_);
    return static_cast<qint64>(static_cast<double>(real.count()) * speed());
}

RunClock::Steady::time_point RunClock::deadlineFor(qint64 runUs) const {
    if (!waits()) {
        return start_;
    }
    const double realUs = static_cast<double>(runUs) / speed();
    return start_ + std::chrono::microseconds(static_cast<qint64>(realUs));
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

}  // namespace ratelab
