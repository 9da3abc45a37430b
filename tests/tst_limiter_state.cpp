// Reading a limiter's state back from Redis: keys, TTLs, decoded records, and the derived
// figures the charts draw (tokens available, window counts, sliding spans).
#include <QtTest>

#include "limiters/limiter_state.h"
#include "support/test_redis.h"

using namespace ratelab;
using namespace ratelab::test;

namespace {

QStringList tokensText(const LimiterState& s) {
    QStringList out;
    for (const auto& t : s.tokensAvailable)
        out << QStringLiteral("%1=%2").arg(t.first).arg(t.second);
    return out;
}

QStringList windowsText(const LimiterState& s) {
    QStringList out;
    for (const LimiterState::WindowCount& w : s.windows)
        out << QStringLiteral("%1..%2 %3=%4")
                   .arg(w.startMs)
                   .arg(w.endMs)
                   .arg(w.client)
                   .arg(w.count);
    return out;
}

QStringList spansText(const LimiterState& s) {
    QStringList out;
    for (const LimiterState::RuleSpan& r : s.spans)
        out << QStringLiteral("%1/%2 total %3 busiest %4 (%5)")
                   .arg(r.limit)
                   .arg(r.windowMs)
                   .arg(r.total)
                   .arg(r.busiest)
                   .arg(r.busiestClient);
    return out;
}

}  // namespace

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
            d = test::decide(c, *limiter, Request{1000 + i * 100, QStringLiteral("a"), 2});
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
        // config hash, value, permits (and the clock once a decision released grants)
        QVERIFY(state.totalKeys >= 3);
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
        test::decide(c, *limiter, Request{t + 10, QStringLiteral("a"), 2});
        test::decide(c, *limiter, Request{t + 20, QStringLiteral("a"), 1});
        test::decide(c, *limiter, Request{t + 30, QStringLiteral("b"), 4});
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
        test::decide(c, *limiter, Request{1000, QStringLiteral("a"), 2});
        test::decide(c, *limiter, Request{1500, QStringLiteral("a"), 1});
        test::decide(c, *limiter, Request{1600, QStringLiteral("b"), 3});
        const LimiterState state = readLimiterState(c, *limiter, 2100);
        QCOMPARE(state.spans.size(), 2);
        QCOMPARE(state.spans[0].total, 4);  // a's 1 at 1500 and b's 3 at 1600
        QCOMPARE(state.spans[0].busiest, 3);
        QCOMPARE(state.spans[0].busiestClient, QStringLiteral("b"));
        QCOMPARE(state.spans[1].total, 6);
    }

    // The charts' cheap read (10 Hz) gives the figures of the full read, without the listing.
    void chartStateMatchesFullRead_data() {
        QTest::addColumn<int>("type");
        QTest::addColumn<int>("scope");
        QTest::newRow("token bucket global") << int(LimiterType::TokenBucket) << int(Scope::Global);
        QTest::newRow("token bucket per_client")
            << int(LimiterType::TokenBucket) << int(Scope::PerClient);
        QTest::newRow("fixed window per_client")
            << int(LimiterType::FixedWindow) << int(Scope::PerClient);
        QTest::newRow("sliding window global")
            << int(LimiterType::SlidingWindow) << int(Scope::Global);
        QTest::newRow("sliding window per_client")
            << int(LimiterType::SlidingWindow) << int(Scope::PerClient);
    }
    void chartStateMatchesFullRead() {
        QFETCH(int, type);
        QFETCH(int, scope);
        LimiterSpec s;
        s.type = LimiterType(type);
        s.name = uniqueName(QStringLiteral("st-chart"));
        s.scope = Scope(scope);
        s.rate = 6;
        s.intervalMs = 1000;
        s.interval = 1;
        s.unit = CalendarUnit::Seconds;
        s.timezone = "UTC";
        s.rules = {{6, 1000}, {15, 60000}};
        ScopedLimiter limiter(s);
        RedisConnection& c = limiter.connection();
        // Live keys (the fixed window's counters expire in real time), many clients.
        const qint64 t = QDateTime::currentMSecsSinceEpoch() / 1000 * 1000;
        for (int i = 0; i < 40; ++i) {
            test::decide(c, *limiter,
                         Request{t + i * 20, QStringLiteral("c%1").arg(i % 7), 1 + i % 2});
        }
        const qint64 now = t + 820;
        const LimiterState full = readLimiterState(c, *limiter, now);
        const LimiterState chart = readLimiterChartState(c, *limiter, now);
        QCOMPARE(chart.nowMs, now);
        QVERIFY(chart.keys.isEmpty());
        QCOMPARE(chart.totalKeys, 0);
        QCOMPARE(tokensText(chart), tokensText(full));
        QCOMPARE(windowsText(chart), windowsText(full));
        QCOMPARE(spansText(chart), spansText(full));
        // Something was really read.
        QVERIFY(!tokensText(chart).isEmpty() || !windowsText(chart).isEmpty() ||
                !spansText(chart).isEmpty());
        QVERIFY(full.totalKeys >= 1);
        if (s.type == LimiterType::TokenBucket) {
            qint64 available = 0;
            for (const auto& scopeKey : chart.tokensAvailable)
                available += scopeKey.second;
            QVERIFY(available < s.rate * chart.tokensAvailable.size());
        }
    }

    // The listing counts every key but reads only the first maxKeys, sorted by name.
    void keyListingIsBounded() {
        LimiterSpec s;
        s.type = LimiterType::SlidingWindow;
        s.name = uniqueName(QStringLiteral("st-list"));
        s.scope = Scope::PerClient;
        s.rules = {{5, 1000}};
        ScopedLimiter limiter(s);
        RedisConnection& c = limiter.connection();
        for (int i = 0; i < 12; ++i) {
            test::decide(
                c, *limiter,
                Request{1000 + i, QStringLiteral("c%1").arg(i, 2, 10, QLatin1Char('0')), 1});
        }
        LimiterState state;
        readLimiterKeys(c, *limiter, &state, 5, 3);
        QVERIFY2(state.totalKeys >= 12,
                 qPrintable(QString::number(state.totalKeys)));  // one log each
        QCOMPARE(state.keys.size(), 5);
        for (int i = 0; i < state.keys.size(); ++i) {
            QVERIFY(i == 0 || state.keys[i - 1].key < state.keys[i].key);
            QVERIFY(!state.keys[i].type.isEmpty());  // read, not just named
        }
        // Sorted by name ({name}:log:<client>).
        QCOMPARE(state.keys[0].key, QStringLiteral("{%1}:log:c00").arg(s.name));
        QCOMPARE(state.keys[4].key, QStringLiteral("{%1}:log:c04").arg(s.name));
        QVERIFY(state.spans.isEmpty());  // the listing alone derives no chart figures
    }
};

QTEST_GUILESS_MAIN(TestLimiterState)
#include "tst_limiter_state.moc"
