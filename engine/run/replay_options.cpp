#include "run/replay_options.h"

#include <algorithm>

#include "input_error.h"
#include "traffic/pacer.h"

namespace ratelab {

LimiterOptions replayLimiterOptions(const Trace& trace) {
    // The most rows in any second of the trace (each row is one decision; t_ms never decreases).
    const qint64 busiest =
        busiestSecondOf(trace.size(), [&](qsizetype i) { return trace.tMsAt(i); });
    LimiterOptions options;
    options.ttlScale = std::max(1.0, double(busiest) / kReplayMinDecisionsPerS);
    return options;
}

void checkTraceFitsLimiter(const Limiter& limiter, const Trace& trace, const QString& fileName) {
    for (const TraceRow& row : trace) {
        try {
            limiter.prepare(Request{row.tMs, row.client, row.permits});
        } catch (const InputError& e) {
            throw InputError(QStringLiteral("%1:%2").arg(fileName).arg(row.line), e.problem());
        }
    }
}

}  // namespace ratelab
