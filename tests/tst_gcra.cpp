// GCRA on a real Redis against the reference model: the design's edges and random traces.
#include <QtTest>

#include "limiters/gcra_limiter.h"
#include "limiters/limiter_state.h"
#include "support/decision_steps.h"
#include "support/test_redis.h"
#include "support/trace_generator.h"

using namespace ratelab;
using namespace ratelab::test;

namespace {

LimiterSpec gcra(qint64 rate, qint64 periodMs, qint64 burst, Scope scope = Scope::Global) {
    LimiterSpec s;
    s.type = LimiterType::Gcra;
    s.name = uniqueName(QStringLiteral("gcra"));
    s.scope = scope;
    s.rate = rate;
    s.periodMs = periodMs;
    s.burst = burst;
    return s;
}

}  // namespace

class TestGcra : public QObject {
    Q_OBJECT

private slots:
    void edges_data() {
        QTest::addColumn<qint64>("rate");
        QTest::addColumn<qint64>("periodMs");
        QTest::addColumn<qint64>("burst");
        QTest::addColumn<DecisionSteps>("steps");
        // {t, permits, allowed, retry_after_ms, remaining}
        QTest::newRow("design: 1/s burst 5, six at t=0")
            << 1LL << 1000LL << 5LL
            << DecisionSteps{{0, 1, true, 0, 4}, {0, 1, true, 0, 3}, {0, 1, true, 0, 2},
                             {0, 1, true, 0, 1}, {0, 1, true, 0, 0}, {0, 1, false, 1000, 0}};
        // T = 1000/3 ms: the second request may pass at ceil(333.33) = 334, not at 333.
        QTest::newRow("fractional T 3/s burst 1")
            << 3LL << 1000LL << 1LL
            << DecisionSteps{{0, 1, true, 0, 0},    {0, 1, false, 334, 0},   {333, 1, false, 1, 0},
                             {334, 1, true, 0, 0},   // TAT was 333.33 < now: tat = 334
                             {667, 1, false, 1, 0},  // 667.33
                             {999, 1, true, 0, 0},  {1000, 1, false, 333, 0}};
        QTest::newRow("burst 1: one per period")
            << 1LL << 1000LL << 1LL
            << DecisionSteps{{0, 1, true, 0, 0}, {999, 1, false, 1, 0}, {1000, 1, true, 0, 0}};
        QTest::newRow("permits = burst, then above") << 10LL << 1000LL << 4LL
                                                     << DecisionSteps{{0, 4, true, 0, 0},
                                                                      {0, 5, false, -1, 0},
                                                                      {100, 1, true, 0, 0},
                                                                      {400, 5, false, -1, 3},
                                                                      {400, 4, false, 100, 3}};
        QTest::newRow("idle restores the whole burst")
            << 10LL << 1000LL << 3LL
            << DecisionSteps{{0, 3, true, 0, 0}, {10, 1, false, 90, 0}, {10000, 3, true, 0, 0}};
    }
    void edges() {
        QFETCH(qint64, rate);
        QFETCH(qint64, periodMs);
        QFETCH(qint64, burst);
        QFETCH(DecisionSteps, steps);
        expectSteps(gcra(rate, periodMs, burst), steps);
    }

    void matchesModel_data() {
        QTest::addColumn<qint64>("rate");
        QTest::addColumn<qint64>("periodMs");
        QTest::addColumn<qint64>("burst");
        QTest::addColumn<int>("clients");
        QTest::addColumn<qint64>("meanGapMs");
        QTest::addColumn<quint32>("seed");
        QTest::newRow("10/s burst 5") << 10LL << 1000LL << 5LL << 1 << 60LL << 31u;
        QTest::newRow("3/s burst 2, fractional T") << 3LL << 1000LL << 2LL << 1 << 200LL << 32u;
        QTest::newRow("7 per 60 s burst 12, per client")
            << 7LL << 60000LL << 12LL << 3 << 4000LL << 33u;
        QTest::newRow("999999 per day, burst 9")
            << 999999LL << 86400000LL << 9LL << 1 << 50LL << 34u;
        QTest::newRow("1000 per 7 ms") << 1000LL << 7LL << 40LL << 1 << 0LL << 35u;
    }
    void matchesModel() {
        QFETCH(qint64, rate);
        QFETCH(qint64, periodMs);
        QFETCH(qint64, burst);
        QFETCH(int, clients);
        QFETCH(qint64, meanGapMs);
        QFETCH(quint32, seed);
        TraceShape shape;
        shape.seed = seed;
        shape.count = 2500;
        shape.clients = clients;
        shape.maxPermits = std::min<qint64>(burst, 4);
        shape.edgeMs = std::max<qint64>(1, periodMs / rate);
        shape.meanGapMs = meanGapMs;
        expectMatchesModel(
            gcra(rate, periodMs, burst, clients > 1 ? Scope::PerClient : Scope::Global),
            generateTrace(shape));
    }

    // TAT never runs more than tau ahead of now; the TTL set when the TAT enters a grid cell
    // (a power of two >= tau + T units) covers the cell's end plus the grace, so the state goes
    // only after it would read as absent (TAT passed) and the grace.
    void stateLivesUntilTatPasses() {
        const LimiterSpec spec = gcra(1, 1000, 5);  // tau = 5000 ms, T = 1000, grid 8192
        ScopedLimiter limiter(spec);
        QVERIFY(test::decide(limiter.router(), *limiter, {0, QString(), 5}).allowed);  // TAT = 5000
        const auto& g = static_cast<const GcraLimiter&>(*limiter);
        QVERIFY(g.unitState());
        RedisReply reply = limiter.connection().command({"PTTL", g.stateKey(QString())});
        const long long ttl = replyInteger(reply.get(), "PTTL");
        QVERIFY2(ttl > 6000 && ttl <= 5000 + 8192 + 1 + 1000, QByteArray::number(ttl));
    }

    // Grants whose TAT stays in its grid cell keep the TTL (SET ... KEEPTTL); the first grant
    // in the next cell sets it again.
    void ttlIsSetOncePerGridCell() {
        const LimiterSpec spec = gcra(1, 1000, 5);  // grid 8192 units = ms
        ScopedLimiter limiter(spec);
        const auto& g = static_cast<const GcraLimiter&>(*limiter);
        QVERIFY(test::decide(limiter.router(), *limiter, {0, QString(), 1}).allowed);  // TAT 1000
        const std::string key = g.stateKey(QString());
        QVERIFY(limiter.connection().command({"PEXPIRE", key, "600000"})->integer == 1);
        QVERIFY(test::decide(limiter.router(), *limiter, {100, QString(), 1}).allowed);  // TAT 2000
        long long ttl = replyInteger(limiter.connection().command({"PTTL", key}).get(), "PTTL");
        QVERIFY2(ttl > 590000, QByteArray::number(ttl));  // kept
        QVERIFY(
            test::decide(limiter.router(), *limiter, {8000, QString(), 1}).allowed);  // TAT 9000
        ttl = replyInteger(limiter.connection().command({"PTTL", key}).get(), "PTTL");
        QVERIFY2(ttl <= 5000 + 8192 + 1 + 1000, QByteArray::number(ttl));  // set again
    }

    // Rates whose units would not fit 2^53 (and time: redis) keep the exact "q r config" text.
    void largeReducedRateKeepsTheTextState() {
        const LimiterSpec spec = gcra(7777, 1000, 3);  // u = 7777
        ScopedLimiter limiter(spec);
        const auto& g = static_cast<const GcraLimiter&>(*limiter);
        QVERIFY(!g.unitState());
        QVERIFY(
            test::decide(limiter.router(), *limiter, {1'700'000'000'000, QString(), 1}).allowed);
        RedisReply value = limiter.connection().command({"GET", g.stateKey(QString())});
        QVERIFY(value->type == REDIS_REPLY_STRING);
        QVERIFY(QByteArray(value->str, int(value->len)).endsWith(" 7777/1000/3"));
    }

    // The state view reads both layouts back: the level a request finds (burst - remaining).
    void levelsReadTheState_data() {
        QTest::addColumn<qint64>("rate");
        QTest::addColumn<qint64>("periodMs");
        QTest::addColumn<bool>("perClient");
        QTest::addColumn<bool>("units");
        QTest::addColumn<qint64>("aheadMs");
        QTest::newRow("units, global") << 1LL << 1000LL << false << true << 3000LL;
        QTest::newRow("units, per client") << 7LL << 7000LL << true << true << 3000LL;
        QTest::newRow("units, 3 per second") << 3LL << 1000LL << false << true << 1000LL;
        // TAT 3 x 1000 / 7777 = 0.39 ms ahead: a request finds 3 permits used
        QTest::newRow("text layout (u = 7777)") << 7777LL << 1000LL << false << false << 1LL;
    }
    void levelsReadTheState() {
        QFETCH(qint64, rate);
        QFETCH(qint64, periodMs);
        QFETCH(bool, perClient);
        const LimiterSpec spec =
            gcra(rate, periodMs, 5, perClient ? Scope::PerClient : Scope::Global);
        ScopedLimiter limiter(spec);
        const QString client = perClient ? QStringLiteral("c1") : QString();
        QVERIFY(test::decide(limiter.router(), *limiter, {1'700'000'000'000, client, 3}).allowed);
        const LimiterState state =
            readLimiterState(limiter.connection(), *limiter, 1'700'000'000'000);
        QCOMPARE(state.levels.size(), 1);
        // the state view's level is a double: within a thousandth of a permit
        QVERIFY2(qAbs(state.levels[0].used - 3.0) < 1e-3, QByteArray::number(state.levels[0].used));
        QTEST(state.levels[0].aheadMs, "aheadMs");
        QTEST(static_cast<const GcraLimiter&>(*limiter).unitState(), "units");
        QCOMPARE(state.levels[0].client, client);
    }

    // A changed config is applied at the scope key's next decision: a fresh bucket.
    void configChangeResets() {
        LimiterSpec spec = gcra(1, 1000, 2);
        ScopedLimiter first(spec);
        QVERIFY(test::decide(first.router(), *first, {0, QString(), 2}).allowed);
        QVERIFY(!test::decide(first.router(), *first, {0, QString(), 1}).allowed);
        spec.burst = 3;
        const std::unique_ptr<Limiter> changed = makeLimiter(spec);
        const Decision d = test::decide(first.router(), *changed, {0, QString(), 3});
        QVERIFY(d.allowed);
        QVERIFY(d.configReset);
        QCOMPARE(d.remaining, 0);
    }
};

QTEST_GUILESS_MAIN(TestGcra)
#include "tst_gcra.moc"
