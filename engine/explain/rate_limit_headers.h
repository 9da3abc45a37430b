#pragma once

#include <QStringList>
#include <vector>

#include "limiters/algorithm.h"
#include "limiters/limiter.h"

namespace ratelab {

// The HTTP response header fields a server would send for a decision, as the IETF httpapi
// rate-limit-headers draft defines them (Structured Fields): RateLimit-Policy lists every quota
// ("rule-1";q=5;w=1, ...), RateLimit the deciding one ("rule-2";r=0;t=1), each with
// pk=:<base64 of the client>: for a per-client limiter; windows and resets in whole seconds,
// rounded up (GCRA and the leaky bucket say their rate and their burst as two quotas,
// rateAndBurstQuotas, the burst without a window). A refusal with a wait adds Retry-After
// (RFC 9110, whole seconds, rounded up).
QStringList rateLimitHeaders(const std::vector<HeaderQuota>& quotas, const Decision& decision,
                             const QString& partitionKey);

}  // namespace ratelab
