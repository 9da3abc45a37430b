#pragma once

#include <QByteArray>
#include <QString>
#include <vector>

#include "output/run_summary.h"
#include "stats/run_snapshot.h"

namespace ratelab {

// The regression-check parts of a run's report (docs/command-line.md, "Regression checks"): the
// admitted burst and the expectations in the printed summary and JUnit XML (summary.json's are
// written by output/summary_json.h).

// "20 in any 1000 ms (from 990 ms), ..." for the printed summary.
QString admittedBurstLine(const std::vector<BusiestInterval>& bursts);

// The printed table of every expectation: limiter, expectation, measured, verdict; then the
// verdict line ("verdict: passed (4 of 4 held)"). Empty when the run has none. Of a summary: its
// verdict, and an "incomplete" one with its reason (output/run_verdict.h), also without
// expectations; of bare results: the results' verdict.
QString expectationsTable(const QVector<ExpectationResult>& results);
QString expectationsTable(const RunSummary& summary);

// How a failed expectation missed: "measured 12 > 10" for "accepted <= 10".
QString failureMessage(const ExpectationResult& result);

// JUnit XML: one testsuite (the scenario), one testcase per expectation, a <failure> for each
// that failed. `runS`: the run's length, as the suite's time. Of a summary whose verdict is
// "incomplete", or of bare results with an `incompleteReason`: an <error> for every expectation
// (none passes) with the reason, and one testcase "run" with that error when the run has no
// expectations. Names that XML cannot hold (lone surrogates, control characters) are written
// with U+FFFD in their place.
QByteArray expectationsJUnit(const QString& scenarioName, double runS,
                             const QVector<ExpectationResult>& results,
                             const QString& incompleteReason = QString());
QByteArray expectationsJUnit(const RunSummary& summary);

}  // namespace ratelab
