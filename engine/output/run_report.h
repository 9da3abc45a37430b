#pragma once

#include <QString>

#include "output/run_summary.h"

namespace ratelab {

// One progress line while a run goes: elapsed, rate, accepted, rejected, errors.
QString progressLine(const RunSnapshot& run);

// The human summary printed at the end of `ratelab run`.
QString summaryText(const RunSnapshot& run);

}  // namespace ratelab
