#include "scenario/replay_options.h"

#include <algorithm>
#include <vector>

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

}  // namespace ratelab
