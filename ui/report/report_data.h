#pragma once

#include <QByteArray>

#include "output/run_summary.h"

namespace ratelab {

// The most steps report.html holds per series: a run's buckets are summed into steps of a round
// number of buckets (1, 2, 5 x 10^k) so that none has more. The page draws at most one step per
// pixel column of these, so its drawing is bounded by the screen and its size by this: 1,000,000
// buckets (the most a scenario allows) become 2,000 steps of 500 buckets.
constexpr qint64 kMaxReportSteps = 2000;

// The JSON the page's script draws from (report.html's <script type="application/json">): per
// limiter its name, type, configuration, totals, counts per step (accepted, rejected, and
// errors when it had any), its traffic groups' accepted and rejected per step (those with a
// series per bucket, in the traffic's order), the limit per step, the calendar windows' starts and
// the marked admitted burst; the comparison's bars (accepted share, admitted burst against what the
// limit admits there); the page's texts, translated. Times in ms since the run's start. '<', '>'
// and
// '&' are written as \u escapes, so the text can sit in HTML and XML as it is.
QByteArray reportData(const RunSummary& summary);

}  // namespace ratelab
