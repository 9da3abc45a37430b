#include "run/replay.h"

#include "csv_writer.h"
#include "limiters/algorithm.h"

namespace ratelab {

qint64 replayTrace(RedisRouter& router, const Limiter& limiter, const Trace& trace,
                   const std::function<void(const TraceRow&, const Decision&)>& sink,
                   const std::atomic<bool>* stop) {
    limiter.reset(router);
    qint64 done = 0;
    for (const TraceRow& row : trace) {
        if (stop != nullptr && stop->load(std::memory_order_relaxed)) {
            break;
        }
        const Decision decision = limiter.decide(router, Request{row.tMs, row.client, row.permits});
        sink(row, decision);
        ++done;
    }
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
    appendCsvField(line, algorithmOf(spec).reasonText(spec, decision));
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
