#pragma once

#include <QByteArray>
#include <QJsonArray>
#include <QJsonObject>
#include <QString>
#include <vector>

#include "stats/run_snapshot.h"

namespace ratelab {

// The regression-check parts of a run's report (docs/command-line.md, "Regression checks"): the
// admitted burst and the expectations, in summary.json, the printed summary and JUnit XML.

// Adds to a limiter's or client's summary.json object one metric per window (burstMetricName:
// "max_accepted_in_any_<N>ms" on the limiter's clock, "max_admitted_in_any_<N>ms_run_clock" on
// the run's) and the list "admitted_burst" (the limiter's clock) or "admitted_burst_run_clock":
// [{"window_ms", "accepted", "from_ms", "first_ms", "last_ms"}] ascending by window (ms since
// the run's start).
void insertAdmittedBurst(QJsonObject& object, const std::vector<BusiestInterval>& bursts,
                         BurstClock clock = BurstClock::Limiter);
// The list's key in summary.json: "admitted_burst" or "admitted_burst_run_clock".
QString admittedBurstKey(BurstClock clock);

// summary.json's "expectations": [{"limiter", "expression", "metric", "op", "threshold",
// "measured", "held"}] (measured null when the run has no such figure).
QJsonArray expectationsJson(const QVector<ExpectationResult>& results);

// "20 in any 1000 ms (from 990 ms), ..." for the printed summary.
QString admittedBurstLine(const std::vector<BusiestInterval>& bursts);

// The printed table of every expectation: limiter, expectation, measured, verdict; then the
// verdict line. Empty when the run has none.
QString expectationsTable(const QVector<ExpectationResult>& results);

// How a failed expectation missed: "measured 12 > 10" for "accepted <= 10".
QString failureMessage(const ExpectationResult& result);

// JUnit XML: one testsuite (the scenario), one testcase per expectation, a <failure> for each
// that failed. `runS`: the run's length, as the suite's time.
QByteArray expectationsJUnit(const QString& scenarioName, double runS,
                             const QVector<ExpectationResult>& results);

}  // namespace ratelab
