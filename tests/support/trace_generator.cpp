#include "support/trace_generator.h"

#include "limiters/algorithm.h"

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
    const DecisionReason& r = d.reason;
    return QStringLiteral(
               "allowed=%1 retry_after_ms=%2 remaining=%3 delay_ms=%4 | rule=%5 "
               "limit=%6 counted=%7 interval=[%8,%9] release=%10 tat=%11/%12 "
               "tolerance=%13 allow_at=%14 counter=%15,%16,%17,%18 level=%19 expired=%20")
        .arg(d.allowed)
        .arg(d.retryAfterMs)
        .arg(d.remaining)
        .arg(d.delayMs)
        .arg(r.rule)
        .arg(r.limit)
        .arg(r.counted)
        .arg(r.fromMs)
        .arg(r.toMs)
        .arg(r.releaseAtMs)
        .arg(r.tat)
        .arg(r.unitsPerMs)
        .arg(r.tolerance)
        .arg(r.allowAt)
        .arg(r.previous)
        .arg(r.current)
        .arg(r.weightPerMille)
        .arg(r.estimate)
        .arg(r.levelMilli)
        .arg(d.expiredLeases);
}

// Two times in units of 1/a and 1/b ms are the same instant.
static bool sameTime(qint64 x, qint64 a, qint64 y, qint64 b) {
    return __int128(x) * b == __int128(y) * a;
}

// The reasons agree on everything the model says (it names GCRA's times in 1/rate ms, the
// limiter in its own units).
static bool sameReason(const DecisionReason& got, const DecisionReason& want) {
    if (got.rule != want.rule || got.limit != want.limit || got.counted != want.counted ||
        got.fromMs != want.fromMs || got.toMs != want.toMs || got.releaseAtMs != want.releaseAtMs ||
        got.previous != want.previous || got.current != want.current ||
        got.weightPerMille != want.weightPerMille || got.estimate != want.estimate ||
        got.levelMilli != want.levelMilli) {
        return false;
    }
    if (!want.hasTat) {
        return !got.hasTat;
    }
    // GCRA's float-state script answers no TAT; its tolerance is still exact.
    return sameTime(got.tolerance, got.unitsPerMs, want.tolerance, want.unitsPerMs) &&
           (!got.hasTat || (sameTime(got.tat, got.unitsPerMs, want.tat, want.unitsPerMs) &&
                            sameTime(got.allowAt, got.unitsPerMs, want.allowAt, want.unitsPerMs)));
}

void expectMatchesModel(const LimiterSpec& spec, const QVector<Request>& trace) {
    // The trace runs in virtual time as fast as Redis answers, while TTLs run in real time: on
    // a loaded machine a pause between two decisions could outlast a short window's TTL. A
    // longer TTL never changes a decision (a key's TTL only collects state no later decision
    // needs), so the keys get a minute more.
    LimiterOptions options;
    options.ttlExtraMs = 60'000;
    ScopedLimiter limiter(spec, options);
    ReferenceModel model(spec);
    int accepted = 0;
    int rejected = 0;
    int never = 0;
    for (int i = 0; i < trace.size(); ++i) {
        const Request& r = trace[i];
        const Decision got = test::decide(limiter.router(), *limiter, r);
        const Decision want = model.decide(r);
        const bool same = got.allowed == want.allowed && got.retryAfterMs == want.retryAfterMs &&
                          got.remaining == want.remaining && got.atMs == r.nowMs &&
                          got.delayMs == want.delayMs && got.expiredLeases == want.expiredLeases &&
                          sameReason(got.reason, want.reason) &&
                          !algorithmOf(spec).reasonText(spec, got).isEmpty();
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
