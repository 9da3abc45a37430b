#pragma once

#include <QString>

#include "limiters/limiter.h"

namespace ratelab {

// The sentence for a decision a gateway made itself (a limiter's "gateway" option, GatewayState):
// a cached refusal ("refused by gateway 1's cache until 09:00:03.250, no Redis call …") or a
// batched window's own count (mode batched), saying whether it read Redis.
QString gatewayReasonText(const LimiterSpec& spec, int gateway, const Decision& decision);

}  // namespace ratelab
