#pragma once

#include <QByteArray>
#include <QVector>
#include <atomic>
#include <functional>

#include "limiters/limiter.h"
#include "scenario/scenario.h"
#include "stats/run_snapshot.h"
#include "traffic/trace.h"

namespace ratelab {

// Replays a trace against one limiter in virtual time: resets the limiter's own keys, then
// decides every row in order with now = the row's t_ms, handing each decision to `sink`. The
// rows go through one gateway that keeps what the limiter's "gateway" option says, as a run's
// (WalkDecider): mode local decides on "<name>@g0", cache_refusals refuses from the refusals
// it remembers (Decision::calledRedis false), batched decides from its own counts, synced every
// sync_ms from the first row's t_ms (and the grants not yet added are added at the end).
// Redis failures propagate as RedisError; rows are never skipped. Once *stop is true it stops
// before the next row. Returns the rows decided. A script limiter on Redis's own clock
// ("clock": "redis") has its rows paced in real time (their t_ms as the times it is given, the
// TTLs it sets running alongside); `reference`, if given, gets its decisions against its
// reference's.
qint64 replayTrace(RedisRouter& router, const Limiter& limiter, const Trace& trace,
                   const std::function<void(const TraceRow&, const Decision&)>& sink,
                   const std::atomic<bool>* stop = nullptr, ReferenceCounts* reference = nullptr);

// The trace as a scenario of `specs`, each deciding every row: a replay shape of its rows on a
// virtual clock that starts at the first row's t_ms, so that each request is decided at its
// row's time, pipelined as far as nothing depends on a reply not yet read.
Scenario replayScenario(const QVector<LimiterSpec>& specs, const Trace& trace);

// The replay command's CSV: header "t_ms,client,permits,allowed,retry_after_ms,remaining,
// delay_ms", and with `explain` two more columns: "rule" (the deciding rule, 0-based; 0 for
// single-rule limiters) and "reason" (Algorithm::reasonText, quoted per RFC 4180).
QByteArray replayCsvHeader(bool explain = false);
QByteArray replayCsvLine(const TraceRow& row, const Decision& decision);
QByteArray replayCsvLine(const TraceRow& row, const Decision& decision, const LimiterSpec& spec);

}  // namespace ratelab
