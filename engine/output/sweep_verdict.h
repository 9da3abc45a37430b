#pragma once

#include <QString>

#include "output/sweep_table.h"

namespace ratelab {

// Whether a sweep's results can say which combination holds its constraints
// (docs/command-line.md, "sweep"): a sweep that stopped before every combination ran, or in
// which decisions failed (combinations compare only on the same decisions), is incomplete, and
// its JUnit reports every check as an error with the reason.

// Decisions that failed, over every combination and limiter.
qint64 sweepFailedDecisions(const SweepTable& table);

// Why the sweep is incomplete: "the sweep stopped after 640 of 10000 combinations (interrupted by
// SIGINT)", "12 decisions failed: combinations compare only on the same decisions", both joined
// by "; "; empty when every combination ran and no decision failed. `stoppedBy` says why it
// stopped, when known.
QString sweepIncompleteReason(const SweepTable& table, const QString& stoppedBy = QString());

}  // namespace ratelab
