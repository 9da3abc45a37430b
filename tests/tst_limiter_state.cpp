// Reading a limiter's state back from Redis: keys, TTLs, decoded records, and the derived
// figures the charts draw (tokens available, window counts, sliding spans).
#include <QtTest>

#include "limiters/limiter_state.h"
#include "support/test_redis.h"

using namespace ratelab;
using namespace ratelab::test;

class TestLimiterState : public QObject {
    Q_OBJECT

private slots:
    void tokenBucket_data() {
        QTest::addColumn<int>("scope");
        QTest::newRow("global") << int(Scope::Global);
        QTest::newRow("per_client") << int(Scope::PerClient);
    }
    void tokenBucket() {
        QFETCH(int, scope);
        LimiterSpec s;
        s.type = LimiterType::TokenBucket;
        s.name = uniqueName(QStringLiteral("st-tb"));
        s.scope = Scope(scope);
        s.rate = 10;
        s.intervalMs = 1000;
        ScopedLimiter limiter(s);
        RedisConnection& c = limiter.connection();
        Decision d;
        for (int i = 0; i < 4; ++i) {
            d = limiter->decide(c, Request{1000 + i * 100, QStringLiteral("a"), 2});
        }
        QCOMPARE(d.remaining, 2);
        LimiterState state = readLimiterState(c, *limiter, 1350);
        QCOMPARE(state.tokensAvailable.size(), 1);
        QCOMPARE(state.tokensAvailable[0].second, 2);
        // At 2050 the grant of 1000 has come back (1100's comes back at 2100).
        state = readLimiterState(c, *limiter, 2050);
        QCOMPARE(state.tokensAvailable[0].second, 4);
        state = readLimiterState(c, *limiter, 2100);
        QCOMPARE(state.tokensAvailable[0].second, 6);
        QVERIFY(state.totalKeys >= 4);  // config hash, value, permits, clock
        bool sawRecord = false;
        for (const KeyState& k : state.keys) {
            if (k.key.contains(QStringLiteral(":permits"))) {
                QCOMPARE(k.type, QStringLiteral("zset"));
                QCOMPARE(k.size, 4);
                QVERIFY(k.members[0].first.startsWith(QStringLiteral("2 permit(s)")));
                QCOMPARE(k.members[0].second, 1000.0);
                QVERIFY(k.ttlMs > 0);
                sawRecord = true;
            }
            if (k.key == s.name) {
                QCOMPARE(k.type, QStringLiteral("hash"));
            }
        }
        QVERIFY(sawRecord);
    }

    void fixedWindow() {
        LimiterSpec s;
        s.type = LimiterType::FixedWindow;
        s.name = uniqueName(QStringLiteral("st-fw"));
        s.scope = Scope::PerClient;
        s.rate = 5;
        s.interval = 1;
        s.unit = CalendarUnit::Seconds;
        s.timezone = "UTC";
        ScopedLimiter limiter(s);
        RedisConnection& c = limiter.connection();
        const qint64 t = QDateTime::currentMSecsSinceEpoch() / 1000 * 1000;  // live keys
        limiter->decide(c, Request{t + 10, QStringLiteral("a"), 2});
        limiter->decide(c, Request{t + 20, QStringLiteral("a"), 1});
        limiter->decide(c, Request{t + 30, QStringLiteral("b"), 4});
        const LimiterState state = readLimiterState(c, *limiter, t + 40);
        QCOMPARE(state.windows.size(), 2);
        for (const LimiterState::WindowCount& w : state.windows) {
            QCOMPARE(w.startMs, t);
            QCOMPARE(w.endMs, t + 1000);
            QCOMPARE(w.count, w.client == QStringLiteral("a") ? 3 : 4);
        }
    }

    void slidingWindow() {
        LimiterSpec s;
        s.type = LimiterType::SlidingWindow;
        s.name = uniqueName(QStringLiteral("st-sw"));
        s.scope = Scope::PerClient;
        s.rules = {{5, 1000}, {20, 60000}};
        ScopedLimiter limiter(s);
        RedisConnection& c = limiter.connection();
        limiter->decide(c, Request{1000, QStringLiteral("a"), 2});
        limiter->decide(c, Request{1500, QStringLiteral("a"), 1});
        limiter->decide(c, Request{1600, QStringLiteral("b"), 3});
        const LimiterState state = readLimiterState(c, *limiter, 2100);
        QCOMPARE(state.spans.size(), 2);
        QCOMPARE(state.spans[0].total, 4);  // a's 1 at 1500 and b's 3 at 1600
        QCOMPARE(state.spans[0].busiest, 3);
        QCOMPARE(state.spans[0].busiestClient, QStringLiteral("b"));
        QCOMPARE(state.spans[1].total, 6);
    }
};

QTEST_GUILESS_MAIN(TestLimiterState)
#include "tst_limiter_state.moc"
