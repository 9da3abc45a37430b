#pragma once

#include <QVector>
#include <vector>

#include "hunt/scratch_names.h"
#include "limiters/limiter_spec.h"
#include "redis/connect_options.h"
#include "traffic/trace.h"
#include "url/redis_url.h"

namespace ratelab {

struct Decision;

// Decides the hunt's traces on Redis in virtual time, through the one decision path as a replay
// does (a ScheduleDecider over the trace as a replay scenario: each row at its t_ms, pipelined,
// through the limiter's gateway option), every spec of one trace in the same batches, each
// under a scratch name of its own (fresh keys: nothing the hunt decides meets another trace's
// state or the hunted limiter's keys).
class TraceDecider {
public:
    TraceDecider(RedisUrl url, ConnectOptions connect, ScratchNames& names);

    // Every spec's decision of every row: [spec][row]. Throws RedisError when a decision
    // failed (a hunt decides nothing it cannot trust).
    std::vector<std::vector<Decision>> decide(const QVector<LimiterSpec>& specs,
                                              const Trace& trace);

    // What it decided so far: traces (a call), rows (each spec's), round trips to Redis.
    qint64 traces() const { return traces_; }
    qint64 decisions() const { return decisions_; }

private:
    RedisUrl url_;
    ConnectOptions connect_;
    ScratchNames& names_;
    qint64 traces_ = 0;
    qint64 decisions_ = 0;
};

}  // namespace ratelab
