#include "support/trace_generator.h"

#include <QRandomGenerator>
#include <QtTest>

#include "support/reference_models.h"
#include "support/test_redis.h"

namespace ratelab::test {

QVector<Request> generateTrace(const TraceShape& shape) {
    QRandomGenerator rng(shape.seed);
    QVector<Request> trace;
    trace.reserve(shape.count);
    qint64 t = shape.startMs;
    for (int i = 0; i < shape.count; ++i) {
        const int pick = rng.bounded(100);
        if (pick < 30) {
            // burst: same millisecond as the previous request
        } else if (pick < 35) {
            t += shape.edgeMs + rng.bounded(3) - 1;  // on a window edge, or one ms either side
        } else {
            t += rng.bounded(2 * shape.meanGapMs + 1);
        }
        Request r;
        r.nowMs = t;
        r.client = QStringLiteral("c%1").arg(rng.bounded(shape.clients));
        const int permitPick = rng.bounded(100);
        if (shape.maxPermits > 1 && permitPick < 15) {
            r.permits = 2 + rng.bounded(static_cast<int>(shape.maxPermits - 1));
        } else if (permitPick >= 95) {
            r.permits = shape.maxPermits + 1;
        } else {
            r.permits = 1;
        }
        trace.push_back(r);
    }
    return trace;
}

static QString describe(const Decision& d) {
    return QStringLiteral("allowed=%1 retry_after_ms=%2 remaining=%3 delay_ms=%4")
        .arg(d.allowed)
        .arg(d.retryAfterMs)
        .arg(d.remaining)
        .arg(d.delayMs);
}

void expectMatchesModel(const LimiterSpec& spec, const QVector<Request>& trace) {
    ScopedLimiter limiter(spec);
    ReferenceModel model(spec);
    int accepted = 0;
    int rejected = 0;
    int never = 0;
    for (int i = 0; i < trace.size(); ++i) {
        const Request& r = trace[i];
        const Decision got = limiter->decide(limiter.router(), r);
        const Decision want = model.decide(r);
        const bool same = got.allowed == want.allowed && got.retryAfterMs == want.retryAfterMs &&
                          got.remaining == want.remaining && got.atMs == r.nowMs &&
                          got.delayMs == want.delayMs;
        if (!same) {
            const QString message =
                QStringLiteral("request %1 (t=%2 client=%3 permits=%4): redis %5, model %6")
                    .arg(i)
                    .arg(r.nowMs)
                    .arg(r.client)
                    .arg(r.permits)
                    .arg(describe(got), describe(want));
            QFAIL(qPrintable(message));
        }
        (got.allowed ? accepted : rejected)++;
        never += got.retryAfterMs == -1;
    }
    // The trace must exercise both outcomes, or the comparison proves little.
    QVERIFY2(accepted > 0 && rejected > never,
             qPrintable(QStringLiteral("accepted %1, rejected %2 (%3 over capacity)")
                            .arg(accepted)
                            .arg(rejected)
                            .arg(never)));
}

}  // namespace ratelab::test
