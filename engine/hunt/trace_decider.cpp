#include "hunt/trace_decider.h"

#include "redis/redis_error.h"
#include "run/replay.h"
#include "run/replay_options.h"
#include "run/schedule_decider.h"
#include "stats/error_cause.h"

namespace ratelab {
namespace {

// Every attempt's decision in its place: [limiter slot][row]; a failed one ends the trace.
class Collect final : public DecisionObserver {
public:
    Collect(int specs, qsizetype rows) : decided_(size_t(specs), std::vector<Decision>(rows)) {}
    void decided(const Attempt& attempt, const DecisionPath::Result& result) override {
        if (!result.decided) {
            if (result.failure) {
                std::rethrow_exception(result.failure);
            }
            throw RedisError(RedisError::Kind::Connect,
                             "the decision failed: " + errorCauseName(result.cause).toStdString());
        }
        decided_[size_t(attempt.job.limiter)][size_t(attempt.job.k)] = result.decision;
    }
    std::vector<std::vector<Decision>> decided_;
};

}  // namespace

TraceDecider::TraceDecider(RedisUrl url, ConnectOptions connect, ScratchNames& names)
    : url_(std::move(url)), connect_(connect), names_(names) {}

std::vector<std::vector<Decision>> TraceDecider::decide(const QVector<LimiterSpec>& specs,
                                                        const Trace& trace) {
    QVector<LimiterSpec> scratch = specs;
    for (LimiterSpec& spec : scratch) {
        spec.name = names_.next();
    }
    Scenario scenario = replayScenario(scratch, trace);
    const qint64 startMs = scenario.traffic.clock.startMs;
    ScheduleDecider::Options options;
    options.limiters = replayLimiterOptions(trace);
    options.connect = connect_;
    options.keepAcceptedLogs = false;
    ScheduleDecider decider(std::move(scenario), url_, startMs, options);
    Collect collect(int(specs.size()), trace.size());
    decider.setObserver(&collect);
    if (!trace.isEmpty()) {
        decider.advanceThrough(trace.size() - 1);
    }
    ++traces_;
    decisions_ += qint64(specs.size()) * trace.size();
    return std::move(collect.decided_);
}

}  // namespace ratelab
