#include "scenario/replay.h"

#include "csv_writer.h"

namespace ratelab {

void replayTrace(RedisRouter& router, const Limiter& limiter, const QVector<TraceRow>& trace,
                 const std::function<void(const TraceRow&, const Decision&)>& sink) {
    limiter.reset(router);
    for (const TraceRow& row : trace) {
        const Decision decision = limiter.decide(router, Request{row.tMs, row.client, row.permits});
        sink(row, decision);
    }
}

QByteArray replayCsvHeader() {
    return QByteArrayLiteral("t_ms,client,permits,allowed,retry_after_ms,remaining\n");
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
    line += '\n';
    return line;
}

}  // namespace ratelab
