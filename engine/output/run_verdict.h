#pragma once

#include <QString>

#include "output/run_summary.h"

namespace ratelab {

// Whether a run's figures can judge its expectations (docs/command-line.md, "Regression checks").
// A run that did not finish (stopped by a signal or by Stop) measured only part of its schedule,
// and a limiter that decided nothing (every decision failed, or none was sent to it) has no
// figures to hold: either way the verdict is "incomplete", whatever its expectations say.

// Why the run's verdict is incomplete ("the run stopped after 1.020 s of 4.000 s"; "limiter
// \"api\" decided nothing: 400 of 400 decisions failed (NOPERM 400)"), several reasons joined by
// "; "; empty when the run finished and every limiter decided.
QString incompleteReason(const RunSummary& summary);

// The verdict of a summary whose figures are filled in: "incomplete" when incompleteReason says
// so, else the expectations' ("passed", "failed" or "none").
QString runVerdict(const RunSummary& summary);

// True when the reason is only that limiters decided nothing (no stop), and at least one of them
// because its decisions failed: Redis's failure, not the run's.
bool incompleteByFailedDecisions(const RunSummary& summary);

}  // namespace ratelab
