#pragma once

#include <QJsonObject>
#include <QString>

#include "output/run_summary.h"

namespace ratelab {

// summary.json (the keys in output_format.h): "format"; per limiter the counts (fired =
// accepted + rejected + errors; errors_open and errors_closed: the errors its on_error policy let
// through or refused; errors_by_cause: the errors by cause, e.g. {"NOPERM": 400}), attempts,
// latency and wait percentiles (ms), fairness, per-client totals and the admitted burst on both
// clocks (a list and one figure per window) and its spec; for the run the target and achieved rate
// and the schedule-lag percentiles, "finished" (false when it was stopped early; "run_s" is then
// the time it really ran), the errors by cause over all limiters, the expectations and their
// verdict, and in try mode with two or more limiters "disagreements": per pair of limiters, the
// requests both decided and those one accepted and the other rejected (an empty list
// otherwise). No secrets: nothing about the connection.
QJsonObject summaryToJson(const RunSummary& summary);
// summaryToJson(summaryOf(run)).
QJsonObject summaryJson(const RunSnapshot& run);

// Reads summary.json's object back. `file` names it in errors: an InputError at
// "<file>: <JSON path>" for a value of the wrong type or range, a summary without "limiters"
// or a limiter without a name, and a "format" newer than output_format::kFormat. Fields it does
// not know are skipped; missing ones read as RunSummary's defaults. The buckets stay empty.
RunSummary summaryFromJson(const QJsonObject& root, const QString& file);

}  // namespace ratelab
