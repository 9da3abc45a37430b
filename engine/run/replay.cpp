#include "run/replay.h"

#include "csv_writer.h"
#include "explain/gateway_reason.h"
#include "limiters/algorithm.h"
#include "run/walk_decider.h"

namespace ratelab {

qint64 replayTrace(RedisRouter& router, const Limiter& limiter, const Trace& trace,
                   const std::function<void(const TraceRow&, const Decision&)>& sink,
                   const std::atomic<bool>* stop) {
    // One gateway, as a run without traffic "gateways": its own state when the limiter's
    // "gateway" option keeps some (mode local's "<name>@g0", cached refusals, a batched count).
    const TrafficSpec traffic;
    WalkDecider decider({&limiter}, traffic);
    limiter.reset(router);
    decider.reset(router);
    qint64 done = 0;
    const qint64 startMs = trace.isEmpty() ? 0 : trace.first().tMs;
    for (const TraceRow& row : trace) {
        if (stop != nullptr && stop->load(std::memory_order_relaxed)) {
            break;
        }
        ScheduleWalk::Step step;
        step.index = done;
        step.runUs = (row.tMs - startMs) * 1000;  // a batched gateway syncs from the first row
        step.request = Request{row.tMs, row.client, row.permits};
        step.request.id = done;
        decider.begin(router, step);
        sink(row, decider.decide(router, 0, step));
        ++done;
    }
    decider.flush(router);  // a batched gateway's grants not yet added, as at a run's end
    return done;
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
    const bool byGateway = !decision.calledRedis || (spec.gateway.mode == GatewayMode::Batched &&
                                                     spec.type == LimiterType::FixedWindow);
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
