#pragma once

#include <QString>

#include "hunt/hunt.h"

namespace ratelab {

// What `ratelab hunt` prints (and the window's Hunt dialog shows) of a hunt's result.

// "no counterexample in 300 traces (2,117 rows)", or what broke, the failing row explained
// (violationText) and the counterexample's rows with each side's decisions.
QString huntResultText(const HuntConfig& config, const HuntResult& result);

// "120 traces (842 rows), 1,530 traces/s" while hunting; "shrinking: 37 candidates" after.
QString huntProgressText(const HuntProgress& progress, double seconds);

// "300 traces in 1.2 s: 250 traces/s, 1,764 rows/s, 9,120 decisions/s".
QString huntSpeedText(const HuntResult& result);

}  // namespace ratelab
