#include "support/decision_steps.h"

#include <QtTest>

#include "support/reference_models.h"
#include "support/test_redis.h"

namespace ratelab::test {

void expectSteps(const LimiterSpec& spec, const DecisionSteps& steps) {
    ScopedLimiter limiter(spec);
    ReferenceModel model(spec);
    for (int i = 0; i < steps.size(); ++i) {
        const DecisionStep& s = steps[i];
        const Request request{s.t, QStringLiteral("c"), s.permits};
        const Decision got = test::decide(limiter.router(), *limiter, request);
        const Decision modeled = model.decide(request);
        const Decision answers[] = {got, modeled};
        for (const Decision& d : answers) {
            const QString where =
                QStringLiteral("step %1 (t=%2, permits=%3) of the %4")
                    .arg(i)
                    .arg(s.t)
                    .arg(s.permits)
                    .arg(&d == &answers[0] ? QStringLiteral("script") : QStringLiteral("model"));
            QVERIFY2(d.allowed == s.allowed, qPrintable(where + QStringLiteral(": allowed")));
            QVERIFY2(d.retryAfterMs == s.retryAfterMs,
                     qPrintable(where + QStringLiteral(": retry_after_ms %1, expected %2")
                                            .arg(d.retryAfterMs)
                                            .arg(s.retryAfterMs)));
            QVERIFY2(d.remaining == s.remaining,
                     qPrintable(where + QStringLiteral(": remaining %1, expected %2")
                                            .arg(d.remaining)
                                            .arg(s.remaining)));
            QVERIFY2(
                d.delayMs == s.delayMs,
                qPrintable(
                    where +
                    QStringLiteral(": delay_ms %1, expected %2").arg(d.delayMs).arg(s.delayMs)));
        }
    }
}

}  // namespace ratelab::test
