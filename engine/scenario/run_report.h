#pragma once

#include <QByteArray>
#include <QJsonObject>
#include <QString>

#include "stats/run_snapshot.h"

namespace ratelab {

// summary.json: per limiter the counts (fired = accepted + rejected + errors; errors_open and
// errors_closed: the errors its on_error policy let through or refused; errors_by_cause: the
// errors by cause, e.g. {"NOPERM": 400}), attempts,
// latency and wait percentiles (ms), fairness and per-client totals; for the run the target and
// achieved rate and the schedule-lag percentiles, "finished" (false when it was stopped
// early; "run_s" is then the time it really ran), the errors by cause over all limiters, and
// in try mode with two or more limiters "disagreements": per pair of limiters, the requests
// both decided and those one accepted and the other rejected (an empty list otherwise).
// No secrets: nothing about the connection.
QJsonObject summaryJson(const RunSnapshot& run);

// buckets.csv: bucket,t_ms,limiter,accepted,rejected,errors,target_rate,errors_open,
// errors_closed — one row per bucket and limiter; t_ms is the bucket's start in run time;
// errors_open/errors_closed are the errors that on_error let through/refused.
QByteArray bucketsCsv(const RunSnapshot& run);

// One progress line while a run goes: elapsed, rate, accepted, rejected, errors.
QString progressLine(const RunSnapshot& run);

// The human summary printed at the end of `ratelab run`.
QString summaryText(const RunSnapshot& run);

// Every limiter's errors by cause, added up (largest first).
QVector<ErrorCauseCount> runErrorCauses(const RunSnapshot& run);

// Requests sent per second of run time so far (finished runs: over their whole length).
double achievedRate(const RunSnapshot& run);

}  // namespace ratelab
