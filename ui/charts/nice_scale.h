#pragma once

#include <QtGlobal>

namespace ratelab {

// Round numbers for chart axes and bucket grouping (shared by the live timeline and the report).

// The smallest 1, 2, 5 x 10^k at or above atLeast (at least 1).
qint64 niceAtLeast(qint64 atLeast);
// A 1, 2, 5 x 10^k step giving about `ticks` intervals over `span` (span > 0).
double niceStep(double span, int ticks);

}  // namespace ratelab
