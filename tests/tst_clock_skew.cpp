// Clock skew and Redis time: a client's skewed clock reaches the limiters ("clock_skew_ms" in the
// traffic), and "time": "redis" makes every algorithm decide at Redis's TIME instead of the
// passed now (the fixed window through its retime answer). Also their parsing and writing.
#include <QDateTime>
#include <QJsonDocument>
#include <QtTest>

#include "input_error.h"
#include "limiters/limiter.h"
#include "run/scenario_runner.h"
#include "run/step_session.h"
#include "scenario/scenario.h"
#include "support/test_redis.h"

using namespace ratelab;
using namespace ratelab::test;

Q_DECLARE_METATYPE(ratelab::LimiterSpec)

namespace {

qint64 at(const char* iso) {
    return QDateTime::fromString(QString::fromLatin1(iso), Qt::ISODateWithMs).toMSecsSinceEpoch();
}

constexpr qint64 kDayMs = 24LL * 3600 * 1000;
constexpr qint64 kHourMs = 3600LL * 1000;

// Two permits per day or hour (its period), whatever the algorithm.
LimiterSpec twoPer(qint64 periodMs, LimiterType type, TimeSource time) {
    LimiterSpec s;
    s.type = type;
    s.name = uniqueName(QStringLiteral("skew"));
    s.time = time;
    switch (type) {
        case LimiterType::TokenBucket:
            s.rate = 2;
            s.intervalMs = periodMs;
            break;
        case LimiterType::FixedWindow:
            s.rate = 2;
            s.interval = 1;
            s.unit = periodMs == kDayMs ? CalendarUnit::Days : CalendarUnit::Hours;
            s.timezone = "UTC";
            break;
        case LimiterType::SlidingWindow:
            s.rules = {SlidingRule{2, periodMs}};
            break;
        case LimiterType::Gcra:
            s.rate = 2;
            s.periodMs = periodMs;
            s.burst = 2;
            break;
        case LimiterType::SlidingCounter:
            s.limit = 2;
            s.windowMs = periodMs;
            break;
        case LimiterType::LeakyBucket:
            s.rate = 2;
            s.periodMs = periodMs;
            s.burst = 1;
            s.nodelay = true;
            break;
        case LimiterType::Concurrency:
            s.limit = 2;
            s.leaseMs = periodMs;
            break;
        case LimiterType::Script:  // not among this test's types
            break;
    }
    return s;
}

// Redis's TIME in ms.
qint64 redisTimeMs(RedisConnection& c) {
    RedisReply reply = c.command({"TIME"});
    return QByteArray(reply->element[0]->str, int(reply->element[0]->len)).toLongLong() * 1000 +
           QByteArray(reply->element[1]->str, int(reply->element[1]->len)).toLongLong() / 1000;
}

QByteArray scenarioWithTraffic(const QByteArray& trafficExtra) {
    return R"({"name": "s", "limiters": [{"type": "token_bucket", "name": "a", "rate": 5,
               "interval_ms": 1000}],
               "traffic": {"shape": {"type": "constant", "rate": 10}, "duration_s": 1,
                           "clients": 3)" +
           trafficExtra + "}}";
}

}  // namespace

class TestClockSkew : public QObject {
    Q_OBJECT

private slots:
    // --- parsing and writing -------------------------------------------------------------

    void timeOptionRoundTrips_data() {
        QTest::addColumn<QByteArray>("json");
        QTest::addColumn<int>("time");
        QTest::newRow("default client")
            << QByteArray(R"({"type": "gcra", "name": "g", "rate": 5, "period_ms": 1000,
                             "burst": 2})")
            << int(TimeSource::Client);
        QTest::newRow("client") << QByteArray(R"({"type": "token_bucket", "name": "t", "rate": 5,
                                                 "interval_ms": 1000, "time": "client"})")
                                << int(TimeSource::Client);
        QTest::newRow("redis fixed window")
            << QByteArray(R"({"type": "fixed_window", "name": "f", "rate": 5, "interval": 1,
                             "unit": "seconds", "time": "redis"})")
            << int(TimeSource::Redis);
        QTest::newRow("redis sliding window")
            << QByteArray(R"({"type": "sliding_window", "name": "s", "time": "redis",
                             "rules": [{"limit": 3, "window_ms": 1000}]})")
            << int(TimeSource::Redis);
    }
    void timeOptionRoundTrips() {
        QFETCH(QByteArray, json);
        QFETCH(int, time);
        const LimiterSpec spec = parseLimiterSpecJson(json);
        QCOMPARE(int(spec.time), time);
        const QJsonObject written = limiterSpecToJson(spec);
        QCOMPARE(written.contains(QLatin1String("time")), spec.time == TimeSource::Redis);
        QCOMPARE(parseLimiterSpec(written), spec);
        LimiterSpec other = spec;
        other.time = spec.time == TimeSource::Redis ? TimeSource::Client : TimeSource::Redis;
        QVERIFY(other != spec);
    }

    void timeOptionRefusesBadValues_data() {
        QTest::addColumn<QByteArray>("value");
        QTest::addColumn<QString>("message");
        QTest::newRow("unknown") << QByteArray(R"("server")")
                                 << QStringLiteral("$.time: unknown time source \"server\"");
        QTest::newRow("number") << QByteArray("1") << QStringLiteral("$.time: must be a string");
    }
    void timeOptionRefusesBadValues() {
        QFETCH(QByteArray, value);
        QFETCH(QString, message);
        const QByteArray json =
            R"({"type": "token_bucket", "name": "t", "rate": 5, "interval_ms": 1000, "time": )" +
            value + "}";
        try {
            parseLimiterSpecJson(json);
            QFAIL("accepted");
        } catch (const InputError& e) {
            QVERIFY2(e.message().startsWith(message), qPrintable(e.message()));
        }
    }

    void skewParsesAndRoundTrips_data() {
        QTest::addColumn<QByteArray>("extra");
        QTest::addColumn<qint64>("all");
        QTest::addColumn<QVector<qint64>>("perClient");  // c0, c1, c2 as the factory sees them
        QTest::newRow("none") << QByteArray() << 0LL << QVector<qint64>{0, 0, 0};
        QTest::newRow("every client ahead")
            << QByteArray(R"(, "clock_skew_ms": 800)") << 800LL << QVector<qint64>{800, 800, 800};
        QTest::newRow("every client behind")
            << QByteArray(R"(, "clock_skew_ms": -86400000)") << -86400000LL
            << QVector<qint64>{-86400000, -86400000, -86400000};
        QTest::newRow("a group") << QByteArray(R"(, "clock_skew_ms": {"c1": 800, "c2": -250})")
                                 << 0LL << QVector<qint64>{0, 800, -250};
    }
    void skewParsesAndRoundTrips() {
        QFETCH(QByteArray, extra);
        QFETCH(qint64, all);
        QFETCH(QVector<qint64>, perClient);
        const Scenario scenario = parseScenarioJson(scenarioWithTraffic(extra), QString());
        QCOMPARE(scenario.traffic.clockSkewMs, all);
        const RequestFactory requests(scenario.traffic);
        QCOMPARE(requests.clientNames().size(), perClient.size());
        for (int c = 0; c < perClient.size(); ++c) {
            QCOMPARE(requests.clockSkewMs(c), perClient[c]);
        }
        const QJsonObject written = scenarioToJson(scenario);
        const Scenario again = parseScenario(written, QString());
        QCOMPARE(again.traffic.clockSkewMs, scenario.traffic.clockSkewMs);
        QCOMPARE(again.traffic.clientSkewMs, scenario.traffic.clientSkewMs);
        QCOMPARE(written.value(QLatin1String("traffic"))
                     .toObject()
                     .contains(QLatin1String("clock_skew_ms")),
                 !extra.isEmpty());
    }

    void skewRefusesBadValues_data() {
        QTest::addColumn<QByteArray>("extra");
        QTest::addColumn<QString>("message");
        QTest::newRow("fraction") << QByteArray(R"(, "clock_skew_ms": 1.5)")
                                  << QStringLiteral("$.traffic.clock_skew_ms: must be an integer");
        QTest::newRow("above a day")
            << QByteArray(R"(, "clock_skew_ms": 86400001)")
            << QStringLiteral(
                   "$.traffic.clock_skew_ms: must be an integer from -86400000 to "
                   "86400000");
        QTest::newRow("string") << QByteArray(R"(, "clock_skew_ms": "800")")
                                << QStringLiteral(
                                       "$.traffic.clock_skew_ms: must be an integer "
                                       "(ms, every client) or an object");
        QTest::newRow("unknown client")
            << QByteArray(R"(, "clock_skew_ms": {"c3": 800})")
            << QStringLiteral("$.traffic.clock_skew_ms.c3: no client \"c3\" in this traffic");
        QTest::newRow("bad group value")
            << QByteArray(R"(, "clock_skew_ms": {"c1": -86400001})")
            << QStringLiteral("$.traffic.clock_skew_ms.c1: must be an integer from -86400000");
    }
    void skewRefusesBadValues() {
        QFETCH(QByteArray, extra);
        QFETCH(QString, message);
        try {
            parseScenarioJson(scenarioWithTraffic(extra), QString());
            QFAIL("accepted");
        } catch (const InputError& e) {
            const QString text = e.message();
            QVERIFY2(text.startsWith(message), qPrintable(text));
        }
    }

    // --- behaviour on Redis --------------------------------------------------------------

    // Each decision is made at the skewed time of the client that asked.
    void skewedClientsAskAtTheirOwnTime() {
        Scenario scenario =
            parseScenarioJson(scenarioWithTraffic(R"(, "clock_skew_ms": {"c1": 800, "c2": -250},
                                   "clock": {"type": "virtual",
                                             "start": "2024-05-01T00:00:00Z", "speed": 0})"),
                              QString());
        scenario.limiters[0].name = uniqueName(QStringLiteral("skew-step"));
        StepSession session(scenario, fixtureUrl());
        const QHash<QString, qint64> skew{
            {QStringLiteral("c0"), 0}, {QStringLiteral("c1"), 800}, {QStringLiteral("c2"), -250}};
        QSet<QString> seen;
        // The token bucket decides at max(now, the latest time a decision released grants):
        // a client ahead of every earlier decision decides at its own skewed time, one behind
        // at most at the latest time decided at.
        qint64 latest = 0;
        for (StepSession::Step step = session.next(); step.index >= 0; step = session.next()) {
            QCOMPARE(step.decisions.size(), size_t(1));
            const qint64 asked = step.nowMs + skew.value(step.client);
            const qint64 at = step.decisions[0].atMs;
            if (asked >= latest) {
                QCOMPARE(at, asked);
            } else {
                QVERIFY2(at >= asked && at <= latest, qPrintable(QString::number(at)));
            }
            latest = std::max(latest, at);
            seen.insert(step.client);
        }
        QCOMPARE(seen.size(), 3);
        makeLimiter(scenario.limiters[0])->reset(*routeFixture());
    }

    // A fixed window of 5 per second, 10 requests in [.000, .900]: with the clients' clocks
    // 500 ms off, the requests straddle a boundary and the limiter admits 10 in one real second.
    void skewMovesRequestsAcrossAWindowBoundary_data() {
        QTest::addColumn<qint64>("skewMs");
        QTest::addColumn<qint64>("accepted");
        QTest::newRow("no skew") << 0LL << 5LL;
        QTest::newRow("500 ms ahead") << 500LL << 10LL;
        QTest::newRow("500 ms behind") << -500LL << 10LL;
        QTest::newRow("1000 ms ahead (whole windows)") << 1000LL << 5LL;
    }
    void skewMovesRequestsAcrossAWindowBoundary() {
        QFETCH(qint64, skewMs);
        QFETCH(qint64, accepted);
        Scenario s;
        s.name = QStringLiteral("skew");
        LimiterSpec fw;
        fw.type = LimiterType::FixedWindow;
        fw.name = uniqueName(QStringLiteral("skew-fw"));
        fw.rate = 5;
        fw.interval = 1;
        fw.unit = CalendarUnit::Seconds;
        fw.timezone = "UTC";
        s.limiters = {fw};
        s.traffic.shape.type = ShapeSpec::Type::Constant;
        s.traffic.shape.rate = 10;
        s.traffic.durationS = 1;
        s.traffic.clock.isVirtual = true;
        s.traffic.clock.speed = 0;
        s.traffic.clock.startMs = at("2024-05-01T00:00:00.000Z");
        s.traffic.clockSkewMs = skewMs;
        ScenarioRunner runner(s, fixtureUrl());
        runner.start();
        runner.wait();
        const RunSnapshot snapshot = runner.snapshot();
        makeLimiter(fw)->reset(*routeFixture());
        QCOMPARE(snapshot.limiters[0].fired, 10LL);
        QCOMPARE(snapshot.limiters[0].accepted, accepted);
    }

    // Requests whose client times are days apart (and years from Redis's clock): the client-time
    // limiter refills between them, the Redis-time one sees them all within moments and admits
    // its 2. Every algorithm, each decision's at_ms on the clock it used.
    void redisTimeFollowsRedisClock_data() {
        QTest::addColumn<LimiterSpec>("spec");
        QTest::addColumn<qint64>("accepted");
        const std::pair<LimiterType, const char*> types[] = {
            {LimiterType::TokenBucket, "token bucket"},
            {LimiterType::FixedWindow, "fixed window"},
            {LimiterType::SlidingWindow, "sliding window"},
            {LimiterType::Gcra, "gcra"},
            {LimiterType::SlidingCounter, "sliding counter"},
            {LimiterType::LeakyBucket, "leaky bucket"},
            {LimiterType::Concurrency, "concurrency"}};
        for (const auto& [type, name] : types) {
            QTest::newRow(qPrintable(QStringLiteral("%1, client time").arg(QLatin1String(name))))
                << twoPer(kDayMs, type, TimeSource::Client) << 5LL;
            QTest::newRow(qPrintable(QStringLiteral("%1, redis time").arg(QLatin1String(name))))
                << twoPer(kDayMs, type, TimeSource::Redis) << 2LL;
        }
    }
    void redisTimeFollowsRedisClock() {
        QFETCH(LimiterSpec, spec);
        QFETCH(qint64, accepted);
        ScopedLimiter limiter(spec);
        RedisConnection& c = limiter.connection();
        const qint64 clientStart = at("2001-01-01T12:00:00.000Z");
        const qint64 before = redisTimeMs(c);
        qint64 got = 0;
        for (int i = 0; i < 5; ++i) {
            const qint64 now = clientStart + i * 2 * kDayMs;
            const Decision d =
                test::decide(limiter.router(), *limiter, Request{now, QStringLiteral("c0"), 1});
            got += d.allowed ? 1 : 0;
            if (spec.time == TimeSource::Client) {
                QCOMPARE(d.atMs, now);
            } else {
                QVERIFY2(d.atMs >= before, qPrintable(QString::number(d.atMs - before)));
            }
        }
        const qint64 after = redisTimeMs(c);
        if (spec.time == TimeSource::Redis && before / kDayMs != after / kDayMs) {
            QSKIP("Redis's clock crossed midnight UTC during the test");
        }
        QCOMPARE(got, accepted);
    }

    // The fixed window guesses Redis's window from the client's time; a miss is answered
    // "retime" and decided at Redis's time, through the worker's pipeline as well. A run on a
    // virtual clock years from Redis's, one request per 10 virtual minutes for a virtual day:
    // 2 per hour on the client's clock is at least one per virtual hour, on Redis's 2 in all
    // (the run takes moments of Redis's time).
    void redisTimeInARun_data() {
        QTest::addColumn<int>("type");
        QTest::newRow("fixed window") << int(LimiterType::FixedWindow);
        QTest::newRow("token bucket") << int(LimiterType::TokenBucket);
        QTest::newRow("sliding window") << int(LimiterType::SlidingWindow);
        QTest::newRow("gcra") << int(LimiterType::Gcra);
    }
    void redisTimeInARun() {
        QFETCH(int, type);
        Scenario s;
        s.name = QStringLiteral("redis-time");
        const LimiterSpec client = twoPer(kHourMs, LimiterType(type), TimeSource::Client);
        const LimiterSpec redis = twoPer(kHourMs, LimiterType(type), TimeSource::Redis);
        s.limiters = {client, redis};
        s.traffic.shape.type = ShapeSpec::Type::Constant;
        s.traffic.shape.rate = 1.0 / 600;
        s.traffic.durationS = 86400;
        s.traffic.pipeline = 8;
        s.traffic.clock.isVirtual = true;
        s.traffic.clock.speed = 0;
        s.traffic.clock.startMs = at("2001-01-01T00:00:00.000Z");
        s.bucketMs = kHourMs;
        auto probe = connectFixture();
        const qint64 before = redisTimeMs(*probe);
        ScenarioRunner runner(s, fixtureUrl());
        runner.start();
        runner.wait();
        const RunSnapshot snapshot = runner.snapshot();
        const qint64 after = redisTimeMs(*probe);
        auto router = routeFixture();
        makeLimiter(client)->reset(*router);
        makeLimiter(redis)->reset(*router);
        QVERIFY(snapshot.limiters[0].fired >= 144);  // a request per 600 virtual s
        QCOMPARE(snapshot.limiters[1].fired, snapshot.limiters[0].fired);
        QCOMPARE(snapshot.limiters[0].errors, 0LL);
        QCOMPARE(snapshot.limiters[1].errors, 0LL);
        QVERIFY2(snapshot.limiters[0].accepted >= 24,
                 qPrintable(QString::number(snapshot.limiters[0].accepted)));
        if (before / kHourMs != after / kHourMs) {
            QSKIP("Redis's clock crossed an hour during the test");
        }
        QCOMPARE(snapshot.limiters[1].accepted, 2LL);
    }
};

QTEST_GUILESS_MAIN(TestClockSkew)
#include "tst_clock_skew.moc"
