// Token bucket on a real Redis against the reference model, and Redisson's key layout.
#include <QtEndian>
#include <QtTest>
#include <algorithm>

#include "limiters/token_bucket_limiter.h"
#include "support/test_redis.h"
#include "support/trace_generator.h"

using namespace ratelab;
using namespace ratelab::test;

class TestTokenBucket : public QObject {
    Q_OBJECT

private:
    static LimiterSpec spec(Scope scope, qint64 rate, qint64 intervalMs) {
        LimiterSpec s;
        s.type = LimiterType::TokenBucket;
        s.name = uniqueName(QStringLiteral("tb"));
        s.scope = scope;
        s.rate = rate;
        s.intervalMs = intervalMs;
        return s;
    }

private slots:
    void matchesModel_data() {
        QTest::addColumn<int>("scope");
        QTest::addColumn<qint64>("rate");
        QTest::addColumn<qint64>("intervalMs");
        QTest::addColumn<int>("clients");
        QTest::addColumn<qint64>("maxPermits");
        QTest::addColumn<qint64>("meanGapMs");
        QTest::addColumn<quint32>("seed");
        const int g = int(Scope::Global);
        const int pc = int(Scope::PerClient);
        QTest::newRow("global 10/1s") << g << 10LL << 1000LL << 1 << 1LL << 60LL << 1u;
        QTest::newRow("global 10/1s permits<=4") << g << 10LL << 1000LL << 3 << 4LL << 40LL << 2u;
        QTest::newRow("global 1/100ms") << g << 1LL << 100LL << 1 << 1LL << 30LL << 3u;
        QTest::newRow("global 20/10s bursts") << g << 20LL << 10000LL << 1 << 7LL << 15LL << 4u;
        QTest::newRow("per_client 5/500ms") << pc << 5LL << 500LL << 4 << 2LL << 20LL << 5u;
        QTest::newRow("per_client 3/1s permits<=3")
            << pc << 3LL << 1000LL << 7 << 3LL << 10LL << 6u;
    }
    void matchesModel() {
        QFETCH(int, scope);
        QFETCH(qint64, rate);
        QFETCH(qint64, intervalMs);
        QFETCH(int, clients);
        QFETCH(qint64, maxPermits);
        QFETCH(qint64, meanGapMs);
        QFETCH(quint32, seed);
        TraceShape shape;
        shape.seed = seed;
        shape.count = 3000;
        shape.clients = clients;
        shape.maxPermits = maxPermits;
        shape.edgeMs = intervalMs;
        shape.meanGapMs = meanGapMs;
        expectMatchesModel(spec(Scope(scope), rate, intervalMs), generateTrace(shape));
    }

    // A worked example: rate 3 per 1000 ms.
    void exactRetryAfter() {
        ScopedLimiter limiter(spec(Scope::Global, 3, 1000));
        auto decide = [&](qint64 t, qint64 permits) {
            return test::decide(limiter.connection(), *limiter, Request{t, QString(), permits});
        };
        QVERIFY(decide(0, 1).allowed);
        QVERIFY(decide(100, 1).allowed);
        QVERIFY(decide(200, 1).allowed);
        Decision d = decide(300, 2);  // needs the grants of t=0 and t=100 back
        QVERIFY(!d.allowed);
        QCOMPARE(d.retryAfterMs, 100 + 1000 - 300);
        QCOMPARE(d.remaining, 0);
        d = decide(1000, 1);  // t=0 is exactly interval old: back in the bucket
        QVERIFY(d.allowed);
        QCOMPARE(d.remaining, 0);
        d = decide(1000, 4);
        QVERIFY(!d.allowed);
        QCOMPARE(d.retryAfterMs, -1);
    }

    // Keys and records exactly as Redisson lays them out.
    void redissonLayout_data() {
        QTest::addColumn<int>("scope");
        QTest::newRow("overall") << int(Scope::Global);
        QTest::newRow("per_client") << int(Scope::PerClient);
    }
    void redissonLayout() {
        QFETCH(int, scope);
        const LimiterSpec s = spec(Scope(scope), 10, 2000);
        ScopedLimiter limiter(s);
        RedisConnection& c = limiter.connection();
        QVERIFY(test::decide(c, *limiter, Request{5000, QStringLiteral("alice"), 3}).allowed);

        const std::string name = s.name.toStdString();
        const std::string suffix = scope == int(Scope::PerClient) ? ":alice" : "";
        RedisReply config = c.command({"HGETALL", name});
        QCOMPARE(config->type, REDIS_REPLY_ARRAY);
        QHash<QString, QString> fields;
        for (size_t i = 0; i + 1 < config->elements; i += 2) {
            fields.insert(QString::fromStdString(replyString(config->element[i], "field")),
                          QString::fromStdString(replyString(config->element[i + 1], "value")));
        }
        QCOMPARE(fields.value(QStringLiteral("rate")), QStringLiteral("10"));
        QCOMPARE(fields.value(QStringLiteral("interval")), QStringLiteral("2000"));
        QCOMPARE(fields.value(QStringLiteral("type")),
                 scope == int(Scope::PerClient) ? QStringLiteral("1") : QStringLiteral("0"));
        QCOMPARE(fields.value(QStringLiteral("keepAliveTime")), QStringLiteral("0"));

        RedisReply value = c.command({"GET", "{" + name + "}:value" + suffix});
        QCOMPARE(replyString(value.get(), "value"), std::string("7"));

        RedisReply permits =
            c.command({"ZRANGE", "{" + name + "}:permits" + suffix, "0", "-1", "WITHSCORES"});
        QCOMPARE(permits->elements, size_t(2));
        const std::string record = replyString(permits->element[0], "record");
        // struct.pack('Bc0I', 16, <16 random bytes>, permits): 1 + 16 + 4 bytes.
        QCOMPARE(record.size(), size_t(21));
        QCOMPARE(static_cast<unsigned char>(record[0]), 16u);
        QCOMPARE(qFromLittleEndian<quint32>(record.data() + 17), 3u);
        QCOMPARE(replyString(permits->element[1], "score"), std::string("5000"));

        // Decoded the way Redisson's own script decodes its records.
        const std::string sumPermits =
            "local used = 0 for _, v in ipairs(redis.call('zrange', KEYS[1], 0, -1)) do "
            "local random, p = struct.unpack('Bc0I', v) used = used + p end return used";
        RedisReply used = c.command({"EVAL", sumPermits, "1", "{" + name + "}:permits" + suffix});
        QCOMPARE(replyInteger(used.get(), "EVAL"), 3LL);
    }

    // A request whose clock lags behind decides at the latest time the bucket decided at.
    void laggingClockIsClamped() {
        ScopedLimiter limiter(spec(Scope::Global, 1, 1000));
        RedisConnection& c = limiter.connection();
        QVERIFY(test::decide(c, *limiter, Request{10'000, QString(), 1}).allowed);
        QVERIFY(!test::decide(c, *limiter, Request{12'000, QString(), 2}).allowed);  // too large
        // A lagging worker at 10'500 must not see the grant of 10'000 as released.
        const Decision d = test::decide(c, *limiter, Request{10'500, QString(), 1});
        QCOMPARE(d.atMs, 12'000LL);
        QVERIFY(d.allowed);  // at 12'000 the grant of 10'000 is back
        const Decision late = test::decide(c, *limiter, Request{11'000, QString(), 1});
        QCOMPARE(late.atMs, 12'000LL);
        QVERIFY(!late.allowed);
        QCOMPARE(late.retryAfterMs, 1000LL);
    }

    // Only a decision that released grants moves the clock: a lagging request that finds no
    // release in its future decides at its own time (every grant it could reuse is still
    // counted), and its wait is the same moment in time.
    void laggingWithoutReleaseDecidesAtItsOwnTime() {
        ScopedLimiter limiter(spec(Scope::Global, 2, 1000));
        RedisConnection& c = limiter.connection();
        QVERIFY(test::decide(c, *limiter, Request{10'000, QString(), 1}).allowed);
        QVERIFY(test::decide(c, *limiter, Request{10'600, QString(), 1}).allowed);
        const Decision d = test::decide(c, *limiter, Request{10'300, QString(), 1});
        QVERIFY(!d.allowed);
        QCOMPARE(d.atMs, 10'300LL);
        QCOMPARE(d.retryAfterMs, 700LL);  // 11'000: the grant of 10'000 comes back
    }

    // Two workers, one lagging by up to 300 ms behind the other, never admit more than rate
    // in any interval of the effective (decided-at) time, whichever clock decides.
    void interleavedClocksNeverOverAdmit_data() {
        QTest::addColumn<quint32>("seed");
        QTest::addColumn<qint64>("permitsMax");
        QTest::newRow("one permit") << 7u << 1LL;
        QTest::newRow("up to 3 permits") << 11u << 3LL;
    }
    void interleavedClocksNeverOverAdmit() {
        QFETCH(quint32, seed);
        QFETCH(qint64, permitsMax);
        const qint64 rate = 5;
        const qint64 intervalMs = 1000;
        ScopedLimiter limiter(spec(Scope::Global, rate, intervalMs));
        RedisConnection& c = limiter.connection();
        QRandomGenerator random(seed);
        QVector<QPair<qint64, qint64>> grants;  // (decided at, permits)
        qint64 t = 100'000;
        for (int i = 0; i < 2000; ++i) {
            t += random.bounded(20);
            const qint64 lag = random.bounded(2) == 0 ? random.bounded(300) : 0;
            const qint64 permits = 1 + random.bounded(permitsMax);
            const Decision d = test::decide(c, *limiter, Request{t - lag, QString(), permits});
            QVERIFY(d.atMs >= t - lag);
            if (d.allowed) {
                grants.append({d.atMs, permits});
            }
        }
        QVERIFY(grants.size() >= 50);  // about 5 per second over 19 s
        std::sort(grants.begin(), grants.end());
        // The busiest half-open interval [x, x + interval) starts at some grant.
        for (int first = 0; first < grants.size(); ++first) {
            qint64 held = 0;
            for (int k = first;
                 k < grants.size() && grants[k].first < grants[first].first + intervalMs; ++k) {
                held += grants[k].second;
            }
            QVERIFY2(held <= rate, qPrintable(QStringLiteral("%1 permits in [%2, %3)")
                                                  .arg(held)
                                                  .arg(grants[first].first)
                                                  .arg(grants[first].first + intervalMs)));
        }
    }

    // A changed rate is applied like Redisson's setRate: the bucket starts full again.
    void configChangeResets() {
        LimiterSpec s = spec(Scope::Global, 2, 1000);
        ScopedLimiter first(s);
        RedisConnection& c = first.connection();
        QVERIFY(test::decide(c, *first, Request{0, QString(), 2}).allowed);
        QVERIFY(!test::decide(c, *first, Request{1, QString(), 1}).allowed);
        s.rate = 5;
        const auto second = makeLimiter(s);
        const Decision d = test::decide(c, *second, Request{2, QString(), 1});
        QVERIFY(d.allowed);
        QVERIFY(d.configReset);
        QCOMPARE(d.remaining, 4);
        QVERIFY(!test::decide(c, *second, Request{3, QString(), 1}).configReset);
    }
};

QTEST_GUILESS_MAIN(TestTokenBucket)
#include "tst_token_bucket.moc"
