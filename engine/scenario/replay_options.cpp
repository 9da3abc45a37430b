#include "scenario/replay_options.h"

#include <algorithm>
#include <vector>

#include "input_error.h"
#include "stats/admitted_burst.h"

namespace ratelab {

LimiterOptions replayLimiterOptions(const QVector<TraceRow>& trace) {
    // The most rows in any second of the trace (each row is one decision).
    std::vector<AcceptedAt> rows;
    rows.reserve(size_t(trace.size()));
    for (const TraceRow& row : trace) {
        rows.push_back({row.tMs, 1});
    }
    const double busiestSecond = double(busiestInterval(std::move(rows), 1000).permits);
    LimiterOptions options;
    options.ttlScale = std::max(1.0, busiestSecond / kReplayMinDecisionsPerS);
    return options;
}

void checkTraceFitsLimiter(const Limiter& limiter, const QVector<TraceRow>& trace,
                           const QString& fileName) {
    for (const TraceRow& row : trace) {
        try {
            limiter.prepare(Request{row.tMs, row.client, row.permits});
        } catch (const InputError& e) {
            throw InputError(QStringLiteral("%1:%2").arg(fileName).arg(row.line), e.problem());
        }
    }
}

}  // namespace ratelab
