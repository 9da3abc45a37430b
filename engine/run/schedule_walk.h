#pragma once

#include <memory>

#include "limiters/limiter.h"
#include "scenario/scenario.h"
#include "traffic/pacer.h"
#include "traffic/request_factory.h"

namespace ratelab {

// A scenario's schedule request by request, as a virtual-clock run decides it for one limiter:
// in schedule order, each at the virtual start plus its scheduled run time plus its client's
// clock skew. A real-clock scenario is walked on a virtual clock starting at `startMs`
// (the scenario's own start when it has one).
class ScheduleWalk {
public:
    ScheduleWalk(const Scenario& scenario, qint64 startMs);

    struct Step {
        qint64 index = -1;  // -1: the schedule is over
        qint64 runUs = 0;
        Request request;     // at its client's and gateway's clock, its id the index
        int client = 0;      // its client, by index (RequestFactory::clientNames)
        int gateway = 0;     // the gateway it goes through (traffic "gateways")
        qint64 holdMs = -1;  // a grant's hold before it releases (traffic "hold"); -1 never
    };
    Step next();
    qint64 startEpochMs() const { return startMs_; }

private:
    RequestFactory requests_;
    std::unique_ptr<Pacer> pacer_;
    qint64 startMs_;
    qint64 k_ = 0;
};

}  // namespace ratelab
