#pragma once

#include <QString>
#include <QtGlobal>

namespace ratelab {

// Why a worker's batch ended where it did (traffic/worker_batches.cpp): what bounds how many
// decisions share one round trip.
enum class PipelineEnd {
    Full,            // it held "pipeline" decisions
    Due,             // it took what was due when sent (a real clock, a virtual one that waits)
    Sample,          // a state sample of the run's timelines came next
    WaitMode,        // wait mode: a refusal's retry time comes with its reply
    RedisTime,       // a limiter decides at Redis's clock ("time": "redis")
    Releases,        // a grant's release (the concurrency limiter) could come next
    CachedRefusals,  // a cache_refusals gateway could learn a refusal the next request needs
    Explained,       // the request is explained alone (Step, explain)
    Schedule,        // nothing more to send (or this call's part of the schedule is done)
};
constexpr int kPipelineEnds = int(PipelineEnd::Schedule) + 1;

// "full", "due", "state sample", ... as the summary names them.
QString pipelineEndName(PipelineEnd end);

// How a run's requests shared round trips: batches, decisions sent to Redis, round trips, and
// how many batches each reason ended.
struct PipelineUse {
    qint64 batches = 0;
    qint64 decisions = 0;  // sent to Redis (a gateway's own decisions not counted)
    qint64 roundTrips = 0;
    qint64 endedBy[kPipelineEnds] = {};
    double decisionsPerRoundTrip() const {
        return roundTrips > 0 ? double(decisions) / double(roundTrips) : 0;
    }
    // The reason that ended the most batches besides a full pipeline and the schedule's end,
    // or Full when none did.
    PipelineEnd limitedBy() const;
};

}  // namespace ratelab
