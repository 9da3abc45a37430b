// nginx limit_req's leaky bucket on a real Redis against the reference model, and what it shares
// with GCRA.
#include <QtTest>

#include "limiters/leaky_bucket_limiter.h"
#include "support/algorithm_models.h"
#include "support/decision_steps.h"
#include "support/test_redis.h"
#include "support/trace_generator.h"

using namespace ratelab;
using namespace ratelab::test;

namespace {

LimiterSpec leaky(qint64 rate, qint64 periodMs, qint64 burst, bool nodelay,
                  Scope scope = Scope::Global) {
    LimiterSpec s;
    s.type = LimiterType::LeakyBucket;
    s.name = uniqueName(QStringLiteral("lb"));
    s.scope = scope;
    s.rate = rate;
    s.periodMs = periodMs;
    s.burst = burst;
    s.nodelay = nodelay;
    return s;
}

}  // namespace

class TestLeakyBucket : public QObject {
    Q_OBJECT

private slots:
    void edges_data() {
        QTest::addColumn<qint64>("rate");
        QTest::addColumn<qint64>("periodMs");
        QTest::addColumn<qint64>("burst");
        QTest::addColumn<bool>("nodelay");
        QTest::addColumn<DecisionSteps>("steps");
        // {t, permits, allowed, retry_after_ms, remaining, delay_ms}
        QTest::newRow("first request, burst 0") << 1LL << 1000LL << 0LL << false
                                                << DecisionSteps{{0, 1, true, 0, 0, 0},
                                                                 {0, 1, false, 1000, 0, 0},
                                                                 {999, 1, false, 1, 0, 0},
                                                                 {1000, 1, true, 0, 0, 0}};
        QTest::newRow("queue delays, then drain to zero")
            << 2LL << 1000LL << 3LL << false
            << DecisionSteps{{0, 1, true, 0, 3, 0},    {0, 1, true, 0, 2, 500},
                             {0, 1, true, 0, 1, 1000}, {0, 1, true, 0, 0, 1500},
                             {0, 1, false, 500, 0, 0}, {2000, 1, true, 0, 3, 0}};
        QTest::newRow("nodelay: same decisions, no delay")
            << 2LL << 1000LL << 3LL << true
            << DecisionSteps{{0, 1, true, 0, 3, 0},
                             {0, 1, true, 0, 2, 0},
                             {0, 1, true, 0, 1, 0},
                             {0, 1, true, 0, 0, 0},
                             {0, 1, false, 500, 0, 0}};
        QTest::newRow("permits above burst + 1: never")
            << 2LL << 1000LL << 3LL << false
            << DecisionSteps{{0, 5, false, -1, 4, 0}, {0, 4, true, 0, 0, 1500}};
        // A day-long period, the largest burst: 50,000,000 ms after filling it, 578 have
        // leaked and a request of 2 waits until 2,000 have (172,800,000 ms in). The refusal's
        // elapsed x (1000 x burst + 2) passes 2^52, so the script answers it as text.
        QTest::newRow("a refusal too wide for one integer")
            << 1LL << 86'400'000LL << 100'000LL << true
            << DecisionSteps{{0, 100'001, true, 0, 0, 0},
                             {50'000'000, 2, false, 122'800'000, 0, 0}};
    }
    void edges() {
        QFETCH(qint64, rate);
        QFETCH(qint64, periodMs);
        QFETCH(qint64, burst);
        QFETCH(bool, nodelay);
        QFETCH(DecisionSteps, steps);
        expectSteps(leaky(rate, periodMs, burst, nodelay), steps);
    }

    void matchesModel_data() {
        QTest::addColumn<qint64>("rate");
        QTest::addColumn<qint64>("periodMs");
        QTest::addColumn<qint64>("burst");
        QTest::addColumn<bool>("nodelay");
        QTest::addColumn<int>("clients");
        QTest::addColumn<qint64>("meanGapMs");
        QTest::addColumn<quint32>("seed");
        QTest::newRow("2/s burst 3") << 2LL << 1000LL << 3LL << false << 1 << 200LL << 51u;
        QTest::newRow("10/s burst 0 nodelay") << 10LL << 1000LL << 0LL << true << 1 << 60LL << 52u;
        QTest::newRow("3 per 7 ms burst 5") << 3LL << 7LL << 5LL << false << 1 << 1LL << 53u;
        QTest::newRow("5 per minute burst 8, per client")
            << 5LL << 60000LL << 8LL << false << 3 << 6000LL << 54u;
    }
    void matchesModel() {
        QFETCH(qint64, rate);
        QFETCH(qint64, periodMs);
        QFETCH(qint64, burst);
        QFETCH(bool, nodelay);
        QFETCH(int, clients);
        QFETCH(qint64, meanGapMs);
        QFETCH(quint32, seed);
        TraceShape shape;
        shape.seed = seed;
        shape.count = 2500;
        shape.clients = clients;
        shape.maxPermits = burst + 1;
        shape.edgeMs = std::max<qint64>(1, periodMs / rate);
        shape.meanGapMs = meanGapMs;
        expectMatchesModel(
            leaky(rate, periodMs, burst, nodelay, clients > 1 ? Scope::PerClient : Scope::Global),
            generateTrace(shape));
    }

    // GCRA with burst b + 1 and the leaky bucket with burst b and nodelay decide alike when the
    // leak per millisecond is whole (1000 x rate / period_ms an integer); otherwise nginx's
    // per-millisecond floor loses a fraction of a request at every accepted one, and the two part.
    void sameAsGcra_data() {
        QTest::addColumn<qint64>("rate");
        QTest::addColumn<qint64>("periodMs");
        QTest::addColumn<qint64>("burst");
        QTest::addColumn<bool>("wholeLeak");
        QTest::newRow("10/s b=4") << 10LL << 1000LL << 4LL << true;
        QTest::newRow("1/s b=0") << 1LL << 1000LL << 0LL << true;
        QTest::newRow("5 per 8 ms b=2") << 5LL << 8LL << 2LL << true;
        QTest::newRow("2 per 14 ms b=5 (leak 142.86/ms)") << 2LL << 14LL << 5LL << false;
        QTest::newRow("3/s b=3 (leak 3/ms)") << 3LL << 1000LL << 3LL << true;
        QTest::newRow("7 per 60 s b=2 (leak 0.117/ms)") << 7LL << 60000LL << 2LL << false;
    }
    void sameAsGcra() {
        QFETCH(qint64, rate);
        QFETCH(qint64, periodMs);
        QFETCH(qint64, burst);
        QFETCH(bool, wholeLeak);
        LimiterSpec g;
        g.type = LimiterType::Gcra;
        g.rate = rate;
        g.periodMs = periodMs;
        g.burst = burst + 1;
        GcraModel gcraModel(g);
        LeakyBucketModel leakyModel(leaky(rate, periodMs, burst, true));
        TraceShape shape;
        shape.seed = quint32(rate * 131 + burst);
        shape.count = 5000;
        shape.maxPermits = burst + 1;
        shape.edgeMs = std::max<qint64>(1, periodMs / rate);
        shape.meanGapMs = std::max<qint64>(1, periodMs / rate);
        int disagree = 0;
        for (const Request& r : generateTrace(shape)) {
            const bool byGcra = gcraModel.decide(r).allowed;
            const bool byLeaky = leakyModel.decide(r).allowed;
            disagree += byGcra != byLeaky;
        }
        if (wholeLeak) {
            QCOMPARE(disagree, 0);
        } else {
            QVERIFY2(disagree > 0, "a fractional leak should show nginx's floor");
        }
    }

    // A full bucket drains in ceil((burst + 1) x period / rate) ms: the state's TTL is that,
    // 1 ms and the grace, so a state goes only once it has drained.
    void stateLivesUntilDrained() {
        const LimiterSpec spec = leaky(1, 1000, 2, true);  // drains 3000 ms at most
        ScopedLimiter limiter(spec);
        QVERIFY(test::decide(limiter.router(), *limiter, {0, QString(), 3}).allowed);  // full
        const auto& bucket = static_cast<const LeakyBucketLimiter&>(*limiter);
        RedisReply reply = limiter.connection().command({"PTTL", bucket.stateKey(QString())});
        const long long ttl = replyInteger(reply.get(), "PTTL");
        QVERIFY2(ttl > 3000 && ttl <= 4001, QByteArray::number(ttl));
    }

    // A worker whose clock lags behind the state's last is decided with no time elapsed, and
    // last stays where it was (time never runs backwards): the next request leaks from it.
    void laggingClockKeepsLast_data() {
        QTest::addColumn<qint64>("secondAt");
        QTest::addColumn<qint64>("lastAfter");
        QTest::addColumn<int>("remainingAtThird");
        const qint64 base = 1'700'000'000'000;
        // 1 per second, burst 2. Lagging: the second request finds excess 1000 (nothing
        // leaked), and the third, at base + 999 ms, 1001: no room left for a fourth. Had last
        // moved back to base - 500, 1499 would have leaked and one more would fit.
        QTest::newRow("lagging by 500 ms") << base - 500 << base << 0;
        // On time: 700 after the second (300 leaked), 1001 at the third (699 more).
        QTest::newRow("on time, 300 ms later") << base + 300 << base + 300 << 0;
    }
    void laggingClockKeepsLast() {
        QFETCH(qint64, secondAt);
        QFETCH(qint64, lastAfter);
        QFETCH(int, remainingAtThird);
        const qint64 base = 1'700'000'000'000;
        const LimiterSpec spec = leaky(1, 1000, 2, false);
        ScopedLimiter limiter(spec);
        QVERIFY(test::decide(limiter.router(), *limiter, {base, QString(), 1}).allowed);
        QVERIFY(test::decide(limiter.router(), *limiter, {secondAt, QString(), 1}).allowed);
        const auto& bucket = static_cast<const LeakyBucketLimiter&>(*limiter);
        RedisReply reply = limiter.connection().command({"GET", bucket.stateKey(QString())});
        const QByteArray state(reply->str, int(reply->len));
        QCOMPARE(state.split(' ').value(1), QByteArray::number(lastAfter));
        const Decision third = test::decide(limiter.router(), *limiter, {base + 999, QString(), 1});
        QVERIFY(third.allowed);
        QCOMPARE(third.remaining, remainingAtThird);
    }

    // A changed config is applied at the scope key's next decision: an empty bucket.
    void configChangeResets() {
        LimiterSpec spec = leaky(1, 1000, 1, false);
        ScopedLimiter first(spec);
        QVERIFY(test::decide(first.router(), *first, {0, QString(), 2}).allowed);
        QVERIFY(!test::decide(first.router(), *first, {0, QString(), 1}).allowed);
        spec.burst = 2;
        const std::unique_ptr<Limiter> changed = makeLimiter(spec);
        const Decision d = test::decide(first.router(), *changed, {0, QString(), 3});
        QVERIFY(d.allowed);
        QVERIFY(d.configReset);
        QCOMPARE(d.remaining, 0);
        QCOMPARE(d.delayMs, 2000);  // the third request waits for two to leak
    }
};

QTEST_GUILESS_MAIN(TestLeakyBucket)
#include "tst_leaky_bucket.moc"
