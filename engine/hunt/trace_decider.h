#pragma once

#include <QVector>
#include <memory>
#include <vector>

#include "hunt/scratch_names.h"
#include "limiters/limiter_spec.h"
#include "redis/connect_options.h"
#include "traffic/trace.h"
#include "url/redis_url.h"

namespace ratelab {

struct Decision;
class RedisRouter;

// One trace to decide, by each of its specs.
struct TraceJob {
    QVector<LimiterSpec> specs;
    Trace trace;
};

// Decides the hunt's traces on Redis in virtual time through the one decision path
// (DecisionPath), each row at its t_ms, every spec under a scratch name of its own (fresh keys:
// nothing the hunt decides meets another trace's state or the hunted limiter's keys).
//
// Many traces at once, in as few round trips as Redis allows: the traces whose limiters keep no
// gateway state of their own (the default "gateway" option) all go into one pipeline, as a
// virtual run pipelines what depends on no reply not yet read (every spec and row, on its own
// keys); a trace through a gateway that keeps state (mode local, cached refusals, a batched
// count) is decided as a run decides it (a ScheduleDecider over the trace as a replay
// scenario). A trace with a script on Redis's own clock ("clock": "redis") is decided as a run
// too, paced in real time (its TTLs run on Redis's clock). One connection serves every call.
class TraceDecider {
public:
    TraceDecider(RedisUrl url, ConnectOptions connect, ScratchNames& names);
    ~TraceDecider();

    // Every job's decisions: [job][spec][row]. Throws RedisError when a decision failed (a
    // hunt decides nothing it cannot trust).
    std::vector<std::vector<std::vector<Decision>>> decide(const std::vector<TraceJob>& jobs);
    // One trace: [spec][row].
    std::vector<std::vector<Decision>> decide(const QVector<LimiterSpec>& specs,
                                              const Trace& trace);

    // What it decided so far: traces, decisions (each spec's rows), round trips.
    qint64 traces() const { return traces_; }
    qint64 decisions() const { return decisions_; }
    qint64 roundTrips() const { return roundTrips_; }

private:
    RedisRouter& router();
    std::vector<std::vector<Decision>> decideAsARun(const TraceJob& job);
    void decidePipelined(const std::vector<const TraceJob*>& jobs,
                         std::vector<std::vector<std::vector<Decision>>*> out);

    RedisUrl url_;
    ConnectOptions connect_;
    ScratchNames& names_;
    // One connection for every trace (handed to each ScheduleDecider and taken back; a new one
    // after a trace that failed).
    std::unique_ptr<RedisRouter> router_;
    qint64 traces_ = 0;
    qint64 decisions_ = 0;
    qint64 roundTrips_ = 0;
};

}  // namespace ratelab
