// The sliding-window counter on a real Redis against the reference model.
#include <QtTest>

#include "support/decision_steps.h"
#include "support/test_redis.h"
#include "support/trace_generator.h"

using namespace ratelab;
using namespace ratelab::test;

namespace {

LimiterSpec counter(qint64 limit, qint64 windowMs, Scope scope = Scope::Global) {
    LimiterSpec s;
    s.type = LimiterType::SlidingCounter;
    s.name = uniqueName(QStringLiteral("sc"));
    s.scope = scope;
    s.limit = limit;
    s.windowMs = windowMs;
    return s;
}

}  // namespace

class TestSlidingCounter : public QObject {
    Q_OBJECT

private slots:
    void edges_data() {
        QTest::addColumn<qint64>("limit");
        QTest::addColumn<qint64>("windowMs");
        QTest::addColumn<DecisionSteps>("steps");
        // Times are offsets in epoch-aligned windows: t = 0 starts window 0.
        // {t, permits, allowed, retry_after_ms, remaining}
        // upstash #39: with a limit of 1 the previous window's one grant must not deny forever.
        QTest::newRow("limit 1 is not denied forever")
            << 1LL << 1000LL << DecisionSteps{{0, 1, true, 0, 0},    {500, 1, false, 501, 0},
                                              {999, 1, false, 2, 0}, {1000, 1, false, 1, 0},
                                              {1500, 1, true, 0, 0}, {2000, 1, false, 1, 0},
                                              {2999, 1, true, 0, 0}, {3000, 1, false, 1, 0}};
        QTest::newRow("window boundary: previous fully weighted at offset 0")
            << 10LL << 1000LL
            << DecisionSteps{{900, 10, true, 0, 0},
                             {1000, 1, false, 1, 0},
                             {1001, 1, true, 0, 0},
                             {1500, 1, true, 0, 3}};
        // floor(3 * 999 / 1000) = 2, not 2.997 rounded up.
        QTest::newRow("floor of the weighted previous window")
            << 3LL << 1000LL
            << DecisionSteps{{0, 3, true, 0, 0}, {1001, 1, true, 0, 0}, {1001, 1, false, 333, 0}};
        QTest::newRow("permits above the limit: never")
            << 5LL << 1000LL << DecisionSteps{{0, 6, false, -1, 5}, {0, 5, true, 0, 0}};
        QTest::newRow("wait into the next window")
            << 4LL << 100LL
            << DecisionSteps{{0, 4, true, 0, 0}, {50, 1, false, 51, 0}, {150, 4, false, 26, 2}};
        QTest::newRow("wait into the window after next") << 2LL << 1LL
                                                         << DecisionSteps{{0, 2, true, 0, 0},
                                                                          {0, 1, false, 2, 0},
                                                                          {1, 1, false, 1, 0},
                                                                          {2, 1, true, 0, 1}};
    }
    void edges() {
        QFETCH(qint64, limit);
        QFETCH(qint64, windowMs);
        QFETCH(DecisionSteps, steps);
        // Shift every step to a realistic epoch that is a multiple of the window.
        const qint64 base = 1'700'000'000'000 / windowMs * windowMs;
        for (DecisionStep& step : steps) {
            step.t += base;
        }
        expectSteps(counter(limit, windowMs), steps);
    }

    void matchesModel_data() {
        QTest::addColumn<qint64>("limit");
        QTest::addColumn<qint64>("windowMs");
        QTest::addColumn<int>("clients");
        QTest::addColumn<qint64>("maxPermits");
        QTest::addColumn<qint64>("meanGapMs");
        QTest::addColumn<quint32>("seed");
        QTest::newRow("1 per second") << 1LL << 1000LL << 1 << 1LL << 300LL << 41u;
        QTest::newRow("10 per second") << 10LL << 1000LL << 1 << 3LL << 40LL << 42u;
        QTest::newRow("5 per 7 ms") << 5LL << 7LL << 1 << 2LL << 1LL << 43u;
        QTest::newRow("8 per minute, per client") << 8LL << 60000LL << 2 << 3LL << 100LL << 44u;
    }
    void matchesModel() {
        QFETCH(qint64, limit);
        QFETCH(qint64, windowMs);
        QFETCH(int, clients);
        QFETCH(qint64, maxPermits);
        QFETCH(qint64, meanGapMs);
        QFETCH(quint32, seed);
        TraceShape shape;
        shape.seed = seed;
        shape.count = 2500;
        shape.clients = clients;
        shape.maxPermits = maxPermits;
        shape.edgeMs = windowMs;
        shape.meanGapMs = meanGapMs;
        expectMatchesModel(counter(limit, windowMs, clients > 1 ? Scope::PerClient : Scope::Global),
                           generateTrace(shape));
    }

    // A worker whose clock lags into the previous window decides at the start of the newest one
    // (time never runs backwards); the decision says so in its time, which the engine did not
    // know when it sent the request.
    void laggingClockDecidesInTheNewestWindow() {
        const qint64 base = 1'700'000'000'000;  // a multiple of 1000
        ScopedLimiter limiter(counter(4, 1000));
        const Decision first = limiter->decide(limiter.router(), {base + 1500, QString(), 2});
        QVERIFY(first.allowed);
        QCOMPARE(first.atMs, base + 1500);
        const Decision lagging = limiter->decide(limiter.router(), {base + 900, QString(), 1});
        QVERIFY(lagging.allowed);
        QCOMPARE(lagging.remaining, 1);
        QCOMPARE(lagging.atMs, base + 1000);
        const Decision refused = limiter->decide(limiter.router(), {base + 950, QString(), 2});
        QVERIFY(!refused.allowed);
        QCOMPARE(refused.atMs, base + 1000);
        // 1 ms into the next window the 3 granted weigh floor(3 x 999 / 1000) = 2: 2 + 2 <= 4.
        QCOMPARE(refused.retryAfterMs, 1001);
    }

    // The state lives until the next window ends (plus the grace): the first grant of a
    // window sets a TTL of two windows and the grace, and later grants in the same window keep
    // it (setting one costs Redis more) rather than set another.
    void stateOutlivesTheNextWindow() {
        const qint64 base = 1'700'000'000'000;  // a multiple of 1000
        const LimiterSpec spec = counter(10, 1000);
        ScopedLimiter limiter(spec);
        const std::string key = "{" + spec.name.toStdString() + "}:sc";
        auto pttl = [&] {
            RedisReply reply = limiter.connection().command({"PTTL", key});
            return replyInteger(reply.get(), "PTTL");
        };
        QVERIFY(limiter->decide(limiter.router(), {base + 200, QString(), 1}).allowed);
        const long long first = pttl();  // 2 x 1000 + 1000 grace, less the time passed
        QVERIFY2(first > 2300 && first <= 3000, QByteArray::number(first));
        QVERIFY(limiter->decide(limiter.router(), {base + 900, QString(), 1}).allowed);
        const long long later = pttl();  // kept: still past the next window's end
        QVERIFY2(later > 2300 && later <= first, QByteArray::number(later));
        QVERIFY(limiter->decide(limiter.router(), {base + 1100, QString(), 1}).allowed);
        const long long next = pttl();  // the next window's first grant sets it again
        QVERIFY2(next > 2300 && next <= 3000, QByteArray::number(next));
    }

    // A changed config is applied at the scope key's next decision: fresh counts.
    void configChangeResets() {
        LimiterSpec spec = counter(2, 1000);
        ScopedLimiter first(spec);
        QVERIFY(first->decide(first.router(), {0, QString(), 2}).allowed);
        QVERIFY(!first->decide(first.router(), {0, QString(), 1}).allowed);
        spec.limit = 3;
        const std::unique_ptr<Limiter> changed = makeLimiter(spec);
        const Decision d = changed->decide(first.router(), {0, QString(), 3});
        QVERIFY(d.allowed);
        QVERIFY(d.configReset);
        QCOMPARE(d.remaining, 0);
        const Decision after = changed->decide(first.router(), {0, QString(), 1});
        QVERIFY(!after.allowed);
        QVERIFY(!after.configReset);
    }
};

QTEST_GUILESS_MAIN(TestSlidingCounter)
#include "tst_sliding_counter.moc"
