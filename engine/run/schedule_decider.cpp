#include "run/schedule_decider.h"

#include <limits>

namespace ratelab {
namespace {

ClockSpec virtualClock(qint64 startEpochMs, double speed) {
    ClockSpec clock;
    clock.isVirtual = true;
    clock.speed = speed;
    clock.startMs = startEpochMs;
    return clock;
}

}  // namespace

ScheduleDecider::ScheduleDecider(Scenario scenario, RedisUrl url, qint64 startEpochMs,
                                 Options options)
    : scenario_(std::move(scenario)), clock_(virtualClock(startEpochMs, options.speed)) {
    if (options.pipeline > 0) {
        scenario_.traffic.pipeline = options.pipeline;
    }
    parts_ = std::make_unique<RunParts>(scenario_, url, options.connect, options.limiters, clock_,
                                        1, options.keepAcceptedLogs);
    parts_->context.reconnectBackoff = options.reconnectBackoff;
    parts_->context.redisClockIsRunClock = options.redisClockIsRunClock;
    clock_.start();
    worker_ = std::make_unique<Worker>(parts_->context, 0, parts_->stats->worker(0));
}

ScheduleDecider::~ScheduleDecider() = default;

void ScheduleDecider::finish(RedisRouter& router) {
    worker_->advanceThrough(std::numeric_limits<qint64>::max());
    parts_->flushGateways(router);
}

qint64 ScheduleDecider::runUsOf(qint64 k) {
    if (!cursor_ || k < cursorK_) {
        cursor_ = parts_->pacer->clone();
        cursorK_ = -1;
        cursorUs_ = Pacer::kNoMore;
    }
    while (cursorK_ < k) {
        cursorUs_ = cursor_->next();
        ++cursorK_;
        if (cursorUs_ == Pacer::kNoMore) {
            cursorK_ = k;  // the schedule is over: every later index is past it too
        }
    }
    return cursorUs_;
}

qint64 ScheduleDecider::lastRequestBefore(qint64 runUs) {
    // The requests before the next one are decided, so the search starts there (over the whole
    // schedule once it is over).
    qint64 last = nextRequest() >= 0 ? nextRequest() - 1 : -1;
    while (runUsOf(last + 1) < runUs) {
        ++last;
    }
    return last;
}

const Limiter& ScheduleDecider::limiter(int l, int gateway) const {
    return parts_->gateways->limiter(l, gateway, parts_->limiter(l));
}

std::unique_ptr<GatewayState> ScheduleDecider::takeGateways() {
    parts_->context.gateways = nullptr;
    return std::move(parts_->gateways);
}

}  // namespace ratelab
