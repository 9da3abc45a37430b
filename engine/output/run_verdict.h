#pragma once

#include <QString>

#include "output/run_summary.h"

namespace ratelab {

// Whether a run's figures can judge its expectations (docs/command-line.md, "Regression checks").
// A run that did not finish (stopped by a signal or by Stop) measured only part of its schedule;
// a limiter that decided nothing (every decision failed, or none was sent to it) has no figures
// to hold; and a limiter some of whose decisions failed, with no expectation on its `errors`,
// lacks the outcome of those requests (its on_error policy says how a failure counts, not how
// many may fail). Any of these makes the verdict "incomplete", whatever the expectations say. A
// limiter whose errors an expectation checks ("errors <= 50", on it or on "*") is judged by its
// expectations: they say how many failures the run allows.

// Why the run's verdict is incomplete ("the run stopped after 1.020 s of 4.000 s"; "limiter
// \"api\" decided nothing: 400 of 400 decisions failed (NOPERM 400)"; "limiter \"api\": 125 of 200
// decisions failed (connection refused 125), and no expectation checks its errors"), several
// reasons joined by "; "; empty when the run finished, every limiter decided and every failed
// decision is one an expectation checks.
QString incompleteReason(const RunSummary& summary);

// The verdict of a summary whose figures are filled in: "incomplete" when incompleteReason says
// so, else the expectations' ("passed", "failed" or "none").
QString runVerdict(const RunSummary& summary);

// True when the run finished and a limiter is incomplete because decisions failed (it decided
// nothing for its errors, or it has errors no expectation checks): Redis's failure, not the
// run's.
bool incompleteByFailedDecisions(const RunSummary& summary);

}  // namespace ratelab
