#include "run/schedule_walk.h"

#include <cmath>

#include "traffic/traffic_schedule.h"

namespace ratelab {

ScheduleWalk::ScheduleWalk(const Scenario& scenario, qint64 startMs)
    : requests_(scenario.traffic), startMs_(startMs) {
    const qint64 durationUs = std::llround(scenario.traffic.durationS * 1e6);
    pacer_ = makeSchedule(scenario.traffic, durationUs);
}

ScheduleWalk::Step ScheduleWalk::next() {
    Step step;
    const qint64 runUs = pacer_->next();
    if (runUs == Pacer::kNoMore) {
        return step;
    }
    const RequestFactory::Draw draw = requests_.draw(k_, pacer_->origin());
    step.index = k_++;
    step.runUs = runUs;
    step.client = draw.client;
    step.gateway = requests_.gatewayOf(step.index, draw.client);
    step.request.nowMs = startMs_ + runUs / 1000 + requests_.clockSkewMs(draw.client) +
                         requests_.gatewaySkewMs(step.gateway);
    step.request.id = step.index;
    step.request.client = requests_.clientNames()[draw.client];
    step.request.permits = draw.permits;
    step.holdMs = draw.holdMs;
    return step;
}

}  // namespace ratelab
