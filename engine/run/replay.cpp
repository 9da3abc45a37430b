#include "run/replay.h"

#include "csv_writer.h"
#include "explain/gateway_reason.h"
#include "input_limits.h"
#include "limiters/algorithm.h"
#include "limiters/script_spec.h"
#include "redis/redis_error.h"
#include "redis/redis_router.h"
#include "run/schedule_decider.h"
#include "stats/error_cause.h"

namespace ratelab {

namespace {

// The trace is decided in stretches of this many rows, with the stop flag read in between.
constexpr qint64 kReplayStretch = 4096;
// At most this many time buckets: a replay keeps no timeline, only the counts its run needs.
constexpr qint64 kReplayBuckets = 1000;

}  // namespace

Scenario replayScenario(const QVector<LimiterSpec>& specs, const Trace& trace) {
    Scenario scenario;
    scenario.name = QStringLiteral("replay");
    scenario.limiters = specs;
    TrafficSpec& traffic = scenario.traffic;
    traffic.shape.type = ShapeSpec::Type::Replay;
    traffic.trace = trace;
    const qint64 first = trace.isEmpty() ? 0 : trace.tMsAt(0);
    traffic.shape.replayOffsetsMs.reserve(trace.size());
    for (qsizetype i = 0; i < trace.size(); ++i) {
        traffic.shape.replayOffsetsMs.append(trace.tMsAt(i) - first);
    }
    const qint64 spanMs = trace.isEmpty() ? 1 : trace.tMsAt(trace.size() - 1) - first + 1;
    traffic.durationS = double(spanMs) / 1000;
    // As many requests of the trace per round trip as nothing depends on a reply not yet read.
    traffic.pipeline = scenario_limits::kMaxPipeline;
    traffic.clock.isVirtual = true;
    traffic.clock.speed = 0;
    traffic.clock.startMs = first;
    scenario.bucketMs = std::max<qint64>(1, (spanMs + kReplayBuckets - 1) / kReplayBuckets);
    return scenario;
}

namespace {

// Hands each row's decision to the sink, in the trace's order; a failed one ends the replay.
class ReplaySink final : public DecisionObserver {
public:
    ReplaySink(const Trace& trace,
               const std::function<void(const TraceRow&, const Decision&)>& sink)
        : trace_(trace), sink_(sink) {}
    void decided(const Attempt& attempt, const DecisionPath::Result& result) override {
        if (!result.decided) {
            if (result.failure) {
                std::rethrow_exception(result.failure);
            }
            throw RedisError(RedisError::Kind::Connect,
                             "the decision failed: " + errorCauseName(result.cause).toStdString());
        }
        sink_(trace_[attempt.job.k], result.decision);
        ++done_;
    }
    qint64 done_ = 0;

private:
    const Trace& trace_;
    const std::function<void(const TraceRow&, const Decision&)>& sink_;
};

}  // namespace

qint64 replayTrace(RedisRouter& router, const Limiter& limiter, const Trace& trace,
                   const std::function<void(const TraceRow&, const Decision&)>& sink,
                   const std::atomic<bool>* stop, ReferenceCounts* reference) {
    // One gateway, as a run without traffic "gateways": its own state when the limiter's
    // "gateway" option keeps some (mode local's "<name>@g0", cached refusals, a batched count).
    ScheduleDecider::Options options;
    options.limiters = limiter.options();
    options.connect = router.options();
    options.keepAcceptedLogs = false;
    if (onRedisClock(limiter.spec())) {
        options.speed = 1;  // Redis's clock runs in real time: so do the trace's times
    }
    Scenario scenario = replayScenario({limiter.spec()}, trace);
    const qint64 startMs = scenario.traffic.clock.startMs;
    ScheduleDecider decider(std::move(scenario), router.url(), startMs, options);
    decider.resetKeys(router);
    ReplaySink replayed(trace, sink);
    decider.setObserver(&replayed);
    const auto stopCause = [&] {
        RunSnapshot counted;
        decider.stats().fill(counted);
        return counted.stopCause;
    };
    for (qint64 k = kReplayStretch - 1; decider.nextRequest() >= 0; k += kReplayStretch) {
        if (stop != nullptr && stop->load(std::memory_order_relaxed)) {
            return replayed.done_;  // cut short: no reference counts of a part
        }
        try {
            decider.advanceThrough(k);
        } catch (const RedisError& e) {
            // A user's script past Redis's busy limit says so rather than "unknown outcome".
            const QString why = stopCause();
            throw why.isEmpty() ? e : RedisError(RedisError::Kind::Reply, why.toStdString());
        }
    }
    decider.finish(router);  // a batched gateway's grants not yet added, as at a run's end
    if (reference != nullptr) {
        RunSnapshot counted;
        decider.stats().fill(counted);
        *reference = counted.limiters.value(0).reference;
    }
    return replayed.done_;
}

QByteArray replayCsvHeader(bool explain) {
    return explain ? QByteArrayLiteral(
                         "t_ms,client,permits,allowed,retry_after_ms,remaining,delay_ms,rule,"
                         "reason\n")
                   : QByteArrayLiteral(
                         "t_ms,client,permits,allowed,retry_after_ms,remaining,delay_ms\n");
}

QByteArray replayCsvLine(const TraceRow& row, const Decision& decision, const LimiterSpec& spec) {
    QByteArray line = replayCsvLine(row, decision);
    line.chop(1);  // the newline
    line += ',';
    line += QByteArray::number(decision.reason.rule);
    line += ',';
    // A gateway's own decision (a cached refusal, a batched count) says so.
    const bool byGateway = !decision.calledRedis || spec.gateway.mode == GatewayMode::Batched;
    appendCsvField(line, byGateway ? gatewayReasonText(spec, 0, decision)
                                   : algorithmOf(spec).reasonText(spec, decision));
    line += '\n';
    return line;
}

QByteArray replayCsvLine(const TraceRow& row, const Decision& decision) {
    QByteArray line;
    line.reserve(64);
    line += QByteArray::number(row.tMs);
    line += ',';
    appendCsvField(line, row.client);  // a trace's client may hold quotes
    line += ',';
    line += QByteArray::number(row.permits);
    line += decision.allowed ? ",1," : ",0,";
    line += QByteArray::number(decision.retryAfterMs);
    line += ',';
    line += QByteArray::number(decision.remaining);
    line += ',';
    line += QByteArray::number(decision.delayMs);
    line += '\n';
    return line;
}

}  // namespace ratelab
