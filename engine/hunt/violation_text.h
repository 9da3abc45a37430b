#pragma once

#include <QString>
#include <optional>

#include "hunt/hunt_property.h"
#include "limiters/limiter_spec.h"
#include "traffic/trace.h"

namespace ratelab {

// Why one decision went as it did, in the words of Algorithm::reasonText (a gateway's own
// decision, a cached refusal or a batched count, in gatewayReasonText's).
QString decisionReasonText(const LimiterSpec& spec, const Decision& decision);

// The failing row explained, one line for what broke and one for the limiter's own reason:
//   row 3 at +0 ms: hu-bad granted, 0 left; the reference (sliding window) refuses: rule 1 of
//   1: 3 per 1000 ms held 3 of 3 in (…] → refused, retry in 1000 ms
// Times count from the trace's first row.
QString violationText(const LimiterSpec& limiter, const std::optional<LimiterSpec>& reference,
                      const Trace& trace, const Violation& violation);

}  // namespace ratelab
