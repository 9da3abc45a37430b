#include "hunt/violation_text.h"

#include <algorithm>

#include "explain/gateway_reason.h"
#include "limiters/algorithm.h"
#include "limiters/reason_text.h"

namespace ratelab {
namespace {

// "+5 ms": from the trace's first row.
QString since(const Trace& trace, qint64 tMs) {
    return QStringLiteral("+%1 ms").arg(tMs - trace.tMsAt(0));
}

// "sliding window" for "sliding_window".
QString typeWords(const LimiterSpec& spec) {
    return QString(algorithmOf(spec).name()).replace(QLatin1Char('_'), QLatin1Char(' '));
}

}  // namespace

QString decisionReasonText(const LimiterSpec& spec, const Decision& decision) {
    const bool byGateway = !decision.calledRedis || spec.gateway.mode == GatewayMode::Batched;
    return byGateway ? gatewayReasonText(spec, 0, decision)
                     : algorithmOf(spec).reasonText(spec, decision);
}

QString violationText(const LimiterSpec& limiter, const std::optional<LimiterSpec>& reference,
                      const Trace& trace, const Violation& v) {
    const TraceRow row = trace[v.row];
    const Decision& d = v.decision;
    QString head = QStringLiteral("row %1 at %2: %3 %4")
                       .arg(v.row)
                       .arg(since(trace, row.tMs), limiter.name, reasonOutcome(d));
    if (row.permits != 1 || trace.clients().size() > 1) {
        head += QStringLiteral(" (client %1, %2 permit%3)")
                    .arg(row.client)
                    .arg(row.permits)
                    .arg(row.permits == 1 ? QString() : QStringLiteral("s"));
    }
    QString broke;
    switch (v.property) {
        case HuntProperty::Agree: {
            const LimiterSpec& ref = *reference;
            broke = QStringLiteral("the reference (%1) %2: %3")
                        .arg(typeWords(ref),
                             v.reference->allowed ? QStringLiteral("grants")
                                                  : QStringLiteral("refuses"),
                             decisionReasonText(ref, *v.reference));
            break;
        }
        case HuntProperty::Retry:
            broke =
                QStringLiteral(
                    "sent alone again at %1 (%2) from the state before it, it is "
                    "%3: %4")
                    .arg(since(trace, v.probeAtMs),
                         v.probeShouldGrant
                             ? QStringLiteral("its retry_after_ms later")
                             : QStringLiteral("1 ms before its retry_after_ms ran out"),
                         v.probe->allowed ? QStringLiteral("granted") : QStringLiteral("refused"),
                         decisionReasonText(limiter, *v.probe));
            break;
        case HuntProperty::Remaining: {
            const qint64 k = std::max<qint64>(0, d.remaining);
            const QString reason = decisionReasonText(limiter, *v.probe);
            if (v.probeShouldGrant) {
                broke = QStringLiteral(
                            "of %1 single permits sent at the same instant after it, "
                            "number %2 is refused: %3")
                            .arg(k)
                            .arg(v.probes)
                            .arg(reason);
            } else if (k == 0) {
                broke = QStringLiteral(
                            "a single permit sent at the same instant after it is "
                            "granted: %1")
                            .arg(reason);
            } else {
                broke = QStringLiteral(
                            "%1 single permits sent at the same instant after it are "
                            "all granted, the last one too: %2")
                            .arg(v.probes)
                            .arg(reason);
            }
            break;
        }
    }
    return head + QStringLiteral("; ") + broke + QStringLiteral("\n  ") + limiter.name +
           QStringLiteral(": ") + decisionReasonText(limiter, d);
}

}  // namespace ratelab
