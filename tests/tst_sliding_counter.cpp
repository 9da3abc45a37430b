// The sliding-window counter on a real Redis against the reference model.
#include <QtTest>

#include "limiters/limiter_state.h"
#include "limiters/sliding_counter_limiter.h"
#include "redis/redis_reply.h"
#include "support/decision_steps.h"
#include "support/test_redis.h"
#include "support/trace_generator.h"

using namespace ratelab;
using namespace ratelab::test;

// {t, permits} of the grants a test makes first.
using Grants = QVector<QPair<qint64, qint64>>;

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

    // A worker whose clock lags into a window that has a successor with grants decides at the
    // start of the newest window (time never runs backwards); the decision says so in its time,
    // which the engine did not know when it sent the request. Times are offsets in windows of
    // 1000 ms, limit 4; {t, permits} grants come first, then the lagging request of 1 permit.
    void laggingClock_data() {
        QTest::addColumn<Grants>("grants");
        QTest::addColumn<qint64>("lagging");
        QTest::addColumn<qint64>("atMs");
        QTest::addColumn<qint64>("remaining");
        QTest::newRow("into the empty window before the first grant")
            << Grants{{1500, 2}} << 900LL << 1000LL << 1LL;
        // w0, w1 and w2 hold 1 each: at 2000 w1 weighs fully, 1 + 1 and this request leave 1.
        QTest::newRow("across two closed windows")
            << Grants{{100, 1}, {1100, 1}, {2100, 1}} << 500LL << 2000LL << 1LL;
        // More than a window behind, past a window without grants: w0 has no successor with
        // grants, so the request decides at its own time (w0's 1 grant and its own).
        QTest::newRow("past a window without grants: its own time")
            << Grants{{100, 1}, {2100, 1}} << 500LL << 500LL << 2LL;
    }
    void laggingClock() {
        QFETCH(Grants, grants);
        QFETCH(qint64, lagging);
        QFETCH(qint64, atMs);
        QFETCH(qint64, remaining);
        const qint64 base = 1'700'000'000'000;  // a multiple of 1000
        ScopedLimiter limiter(counter(4, 1000));
        for (const auto& [t, permits] : grants) {
            const Decision d =
                test::decide(limiter.router(), *limiter, {base + t, QString(), permits});
            QVERIFY(d.allowed);
            QCOMPARE(d.atMs, base + t);
        }
        const Decision d = test::decide(limiter.router(), *limiter, {base + lagging, QString(), 1});
        QVERIFY(d.allowed);
        QCOMPARE(d.atMs, base + atMs);
        QCOMPARE(d.remaining, remaining);
    }

    // A refusal of a lagging request waits from the newest window's start.
    void laggingRefusalWaitsFromTheNewestWindow() {
        const qint64 base = 1'700'000'000'000;
        ScopedLimiter limiter(counter(4, 1000));
        QVERIFY(test::decide(limiter.router(), *limiter, {base + 1500, QString(), 2}).allowed);
        QVERIFY(test::decide(limiter.router(), *limiter, {base + 900, QString(), 1}).allowed);
        const Decision refused =
            test::decide(limiter.router(), *limiter, {base + 950, QString(), 2});
        QVERIFY(!refused.allowed);
        QCOMPARE(refused.atMs, base + 1000);
        QCOMPARE(refused.remaining, 1);
        // 1 ms into the next window the 3 granted weigh floor(3 x 999 / 1000) = 2: 2 + 2 <= 4.
        QCOMPARE(refused.retryAfterMs, 1001);
    }

    // A window's count lives until the next window ends (plus the grace): its first grant
    // sets a TTL of two windows and the grace, later grants (INCRBY) keep it, and the next
    // window's first grant closes it (its count plus 2^50) without touching its TTL.
    void windowKeysOutliveTheNextWindow() {
        const qint64 base = 1'700'000'000'000;  // a multiple of 1000
        const LimiterSpec spec = counter(10, 1000);
        ScopedLimiter limiter(spec);
        const auto& sc = static_cast<const SlidingCounterLimiter&>(*limiter);
        const qint64 window = base / 1000;
        auto read = [&](const char* command, qint64 w) {
            RedisReply reply = limiter.connection().command({command, sc.windowKey(w, QString())});
            return command == QByteArray("GET")
                       ? QByteArray(reply->str, int(reply->len)).toLongLong()
                       : replyInteger(reply.get(), command);
        };
        QVERIFY(test::decide(limiter.router(), *limiter, {base + 200, QString(), 1}).allowed);
        const long long first = read("PTTL", window);  // 2 x 1000 + 1000 grace, less time passed
        QVERIFY2(first > 2300 && first <= 3000, QByteArray::number(first));
        QVERIFY(test::decide(limiter.router(), *limiter, {base + 900, QString(), 2}).allowed);
        const long long later = read("PTTL", window);
        QVERIFY2(later > 2300 && later <= first, QByteArray::number(later));
        QCOMPARE(read("GET", window), 3LL);
        QVERIFY(test::decide(limiter.router(), *limiter, {base + 1100, QString(), 1}).allowed);
        QCOMPARE(read("GET", window), SlidingCounterLimiter::kClosedMark + 3);
        QVERIFY2(read("PTTL", window) <= later, "closing the window kept its TTL");
        const long long next = read("PTTL", window + 1);
        QVERIFY2(next > 2300 && next <= 3000, QByteArray::number(next));
        QCOMPARE(read("GET", window + 1), 1LL);
    }

    // The timelines' levels read the two window keys that count at the reader's now (a closed
    // window's count without its mark), one level per client.
    void levelsReadTheWindowKeys() {
        const qint64 base = 1'700'000'000'000;
        ScopedLimiter limiter(counter(10, 1000, Scope::PerClient));
        const QString a = QStringLiteral("a"), b = QStringLiteral("b:1");
        for (const auto& [t, client, permits] :
             {std::tuple{100LL, a, 3LL}, {200LL, b, 1LL}, {1100LL, a, 2LL}, {3100LL, b, 4LL}}) {
            QVERIFY(test::decide(limiter.router(), *limiter, {base + t, client, permits}).allowed);
        }
        const LimiterState state =
            readLimiterChartState(limiter.connection(), *limiter, base + 1250);
        QCOMPARE(state.levels.size(), 2);  // b's window 3 is ahead of the reader: not read
        QCOMPARE(state.levels[0].client, a);
        QCOMPARE(state.levels[0].previous, 3);
        QCOMPARE(state.levels[0].current, 2);
        QCOMPARE(state.levels[0].windowStartMs, base + 1000);
        QCOMPARE(state.levels[0].used, 2.0 + 2.0);  // floor(3 x 750 / 1000) + 2
        QCOMPARE(state.levels[0].capacity, 10);
        QCOMPARE(state.levels[1].client, b);
        QCOMPARE(state.levels[1].previous, 1);
        QCOMPARE(state.levels[1].current, 0);

        // The state panel's key listing reads a closed window's count out.
        LimiterState keys;
        readLimiterKeys(limiter.connection(), *limiter, &keys);
        const auto& sc = static_cast<const SlidingCounterLimiter&>(*limiter);
        const QString closedA = QString::fromStdString(sc.windowKey(base / 1000, a));
        const auto found = std::find_if(keys.keys.begin(), keys.keys.end(),
                                        [&](const KeyState& k) { return k.key == closedA; });
        QVERIFY(found != keys.keys.end());
        QCOMPARE(found->value, QStringLiteral("3 · closed (stored 2^50 + 3)"));
    }

    // A changed config is applied at the scope key's next decision: fresh counts.
    void configChangeResets() {
        LimiterSpec spec = counter(2, 1000);
        ScopedLimiter first(spec);
        QVERIFY(test::decide(first.router(), *first, {0, QString(), 2}).allowed);
        QVERIFY(!test::decide(first.router(), *first, {0, QString(), 1}).allowed);
        spec.limit = 3;
        const std::unique_ptr<Limiter> changed = makeLimiter(spec);
        const Decision d = test::decide(first.router(), *changed, {0, QString(), 3});
        QVERIFY(d.allowed);
        QVERIFY(d.configReset);
        QCOMPARE(d.remaining, 0);
        const Decision after = test::decide(first.router(), *changed, {0, QString(), 1});
        QVERIFY(!after.allowed);
        QVERIFY(!after.configReset);
    }
};

QTEST_GUILESS_MAIN(TestSlidingCounter)
#include "tst_sliding_counter.moc"
