#pragma once

#include <QByteArray>
#include <QJsonObject>
#include <QString>
#include <QStringList>

#include "hunt/hunt.h"
#include "hunt/regression_case.h"

namespace ratelab {

// The files a hunt writes into its folder (--out) when it finds a counterexample: the trace
// (counterexample.csv, the trace format t_ms,client,permits), what broke on it
// (counterexample.json), and the regression check that replays it (regression.json, with
// regression.csv when it replays other rows than the counterexample's: a retry's or a
// remaining's probes).
namespace hunt_files {
inline const QString kCsv = QStringLiteral("counterexample.csv");
inline const QString kJson = QStringLiteral("counterexample.json");
inline const QString kRegression = QStringLiteral("regression.json");
inline const QString kRegressionCsv = QStringLiteral("regression.csv");
QStringList all();
}  // namespace hunt_files

// A trace in the trace format, header first.
QByteArray traceCsv(const Trace& trace);

// counterexample.json: {"property", "limiter", "reference" (agree), "seed", "trace_index",
// "minimal", "failing_row" (0-based), "explanation", "rows": [{"t_ms", "client", "permits",
// "limiter": {"allowed", "retry_after_ms", "remaining"}, "reference": {…}}], and for retry and
// remaining "probe": {"t_ms", "should_grant", "sent", "granted", and the last one's decision}}.
QJsonObject counterexampleJson(const HuntConfig& config, const Counterexample& found,
                               const QString& explanation);

// regression.json: the case's scenario replaying `traceFile` (relative to the folder `dir` it
// is written to; a script limiter's file too).
QJsonObject regressionJson(const RegressionCase& regression, const QString& traceFile,
                           const QString& dir);

// Writes the files into `dir` (made when missing), each whole or not at all
// (writeFileAtomically): the trace, the JSON, and unless the regression cannot be a scenario,
// the regression and its trace. Returns the paths written; an InputError names a file that
// could not be written.
QStringList writeCounterexampleFiles(const QString& dir, const HuntConfig& config,
                                     const Counterexample& found, const QString& explanation);

}  // namespace ratelab
