#include "explain/gateway_reason.h"

#include "limiters/reason_text.h"

namespace ratelab {

QString gatewayReasonText(const LimiterSpec& spec, int gateway, const Decision& d) {
    if (spec.gateway.mode != GatewayMode::Batched) {
        return QStringLiteral(
                   "refused by gateway %1's cache until %2, no Redis call (it remembers a "
                   "refusal Redis gave it in this scope for as many permits or fewer), retry in "
                   "%3 ms")
            .arg(gateway)
            .arg(reasonTime(d.atMs + d.retryAfterMs))
            .arg(d.retryAfterMs);
    }
    return QStringLiteral(
               "gateway %1's own count: %2 of %3 (what Redis held at its last read plus its "
               "grants not yet added)%4, asked %5 → %6")
        .arg(gateway)
        .arg(d.reason.counted)
        .arg(d.reason.limit)
        .arg(d.calledRedis ? QStringLiteral(", read or synced with Redis now")
                           : QStringLiteral(", no Redis call"))
        .arg(d.reason.permits)
        .arg(reasonOutcome(d));
}

}  // namespace ratelab
