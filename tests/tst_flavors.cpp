// The library flavors (docs/algorithms.md, "Library flavors"): the sliding counter's "upstash"
// and GCRA's "redis_rate" decide on a real Redis exactly as the libraries' own rules, written
// again in C++ (support/flavor_models.*), decide; where they part from the exact algorithms;
// their spec field; their levels and their reasons.
#include <QJsonDocument>
#include <QtTest>

#include "input_error.h"
#include "limiters/algorithm.h"
#include "limiters/limiter_state.h"
#include "support/decision_steps.h"
#include "support/test_redis.h"
#include "support/trace_generator.h"

using namespace ratelab;
using namespace ratelab::test;

namespace {

// A multiple of every window used here (1000, 60000 and 7 ms): 2025-11-26 00:00:00 UTC less
// its remainder by 420,000.
constexpr qint64 kBase = 1'764'115'200'000 / 420'000 * 420'000;

LimiterSpec upstash(qint64 limit, qint64 windowMs, Scope scope = Scope::Global) {
    LimiterSpec s;
    s.type = LimiterType::SlidingCounter;
    s.name = uniqueName(QStringLiteral("up"));
    s.scope = scope;
    s.limit = limit;
    s.windowMs = windowMs;
    s.flavor = Flavor::Upstash;
    return s;
}

LimiterSpec redisRate(qint64 rate, qint64 periodMs, qint64 burst, Scope scope = Scope::Global) {
    LimiterSpec s;
    s.type = LimiterType::Gcra;
    s.name = uniqueName(QStringLiteral("rr"));
    s.scope = scope;
    s.rate = rate;
    s.periodMs = periodMs;
    s.burst = burst;
    s.flavor = Flavor::RedisRate;
    return s;
}

LimiterSpec exactOf(LimiterSpec spec) {
    spec.flavor = Flavor::Exact;
    spec.name = uniqueName(QStringLiteral("exact"));
    return spec;
}

}  // namespace

class TestFlavors : public QObject {
    Q_OBJECT

private slots:
    // {t, permits, allowed, retry_after_ms, remaining}, t from kBase.
    void edges_data() {
        QTest::addColumn<LimiterSpec>("spec");
        QTest::addColumn<DecisionSteps>("steps");
        // At 800 ms into the window the previous 5 weigh floor((1 - 0.8) x 5) = floor(0.99...98)
        // = 0 in doubles (exactly 1): a fifth grant where the exact counter refuses.
        QTest::newRow("upstash: the float weight rounds down")
            << upstash(5, 1000)
            << DecisionSteps{{0, 5, true, 0, 0},      {1800, 1, true, 0, 4}, {1800, 1, true, 0, 3},
                             {1800, 1, true, 0, 2},   {1800, 1, true, 0, 1}, {1800, 1, true, 0, 0},
                             {1800, 1, false, 201, 0}};
        // The library checks the count before the request: 4 + 3 permits pass a limit of 5, and
        // the 7 weigh floor((1 - o / 1000) x 7) < 5 from o = 286 ms into the next window.
        QTest::newRow("upstash: the permits are not part of the check")
            << upstash(5, 1000)
            << DecisionSteps{{0, 4, true, 0, 1},
                             {1, 3, true, 0, 0},
                             {2, 1, false, 1284, 0},
                             {2, 9, false, 1284, 0}};
        // 10 per second, burst 1: now + 0.1 s and the next request's now part by an ulp.
        QTest::newRow("redis_rate: 100 ms apart, refused by a hair")
            << redisRate(10, 1000, 1)
            << DecisionSteps{{100, 1, true, 0, 0},   {200, 1, false, 1, 0}, {201, 1, true, 0, 0},
                             {300, 1, false, 1, 0},  {400, 1, true, 0, 0},  {500, 1, true, 0, 0},
                             {600, 3, false, 200, 0}};
        // T x 5 = 0.5 s exactly, but the wait rounds up past 100 ms; more than the burst gets a
        // wait too (the library's retry, though it never passes).
        QTest::newRow("redis_rate: the wait rounds up, above the burst too")
            << redisRate(10, 1000, 5)
            << DecisionSteps{{0, 5, true, 0, 0},
                             {0, 1, false, 101, 0},
                             {100, 1, true, 0, 0},
                             {200, 2, false, 101, 0},
                             {1000, 6, false, 101, 0}};
    }
    void edges() {
        QFETCH(LimiterSpec, spec);
        QFETCH(DecisionSteps, steps);
        for (DecisionStep& step : steps) {
            step.t += kBase;
        }
        expectSteps(spec, steps);
    }

    void matchesModel_data() {
        QTest::addColumn<LimiterSpec>("spec");
        QTest::addColumn<qint64>("maxPermits");
        QTest::addColumn<qint64>("edgeMs");
        QTest::addColumn<qint64>("meanGapMs");
        QTest::addColumn<quint32>("seed");
        QTest::newRow("upstash 10 per second") << upstash(10, 1000) << 3LL << 1000LL << 40LL << 51u;
        QTest::newRow("upstash 5 per 7 ms") << upstash(5, 7) << 2LL << 7LL << 1LL << 52u;
        QTest::newRow("upstash 8 per minute, per client")
            << upstash(8, 60000, Scope::PerClient) << 3LL << 60000LL << 100LL << 53u;
        QTest::newRow("redis_rate 10 per second")
            << redisRate(10, 1000, 5) << 3LL << 100LL << 40LL << 54u;
        QTest::newRow("redis_rate 3 per 1234 ms")
            << redisRate(3, 1234, 2) << 2LL << 411LL << 150LL << 55u;
        QTest::newRow("redis_rate 100 per minute, per client")
            << redisRate(100, 60000, 10, Scope::PerClient) << 4LL << 600LL << 100LL << 56u;
    }
    void matchesModel() {
        QFETCH(LimiterSpec, spec);
        QFETCH(qint64, maxPermits);
        QFETCH(qint64, edgeMs);
        QFETCH(qint64, meanGapMs);
        QFETCH(quint32, seed);
        TraceShape shape;
        shape.seed = seed;
        shape.count = 2000;
        shape.clients = spec.scope == Scope::PerClient ? 3 : 1;
        shape.maxPermits = maxPermits;
        shape.edgeMs = edgeMs;
        shape.meanGapMs = meanGapMs;
        shape.startMs = kBase;
        expectMatchesModel(spec, generateTrace(shape));
    }

    // The same trace through a flavor and its exact algorithm, near the limit: they part (a
    // share docs/algorithms.md measures).
    void partsFromExact_data() {
        QTest::addColumn<LimiterSpec>("spec");
        QTest::addColumn<qint64>("gapMs");  // requests this far apart, give or take 1 ms
        QTest::newRow("upstash 10 per second") << upstash(10, 1000) << 90LL;
        QTest::newRow("redis_rate 10 per second") << redisRate(10, 1000, 1) << 99LL;
    }
    void partsFromExact() {
        QFETCH(LimiterSpec, spec);
        QFETCH(qint64, gapMs);
        ScopedLimiter flavor(spec);
        ScopedLimiter exact(exactOf(spec));
        QRandomGenerator rng(7);
        qint64 t = kBase;
        int parted = 0;
        const int count = 2000;
        for (int i = 0; i < count; ++i) {
            t += gapMs + rng.bounded(3) - 1;
            const Request r{t, QString(), 1};
            parted += test::decide(flavor.router(), *flavor, r).allowed !=
                      test::decide(exact.router(), *exact, r).allowed;
        }
        QVERIFY2(parted > 0 && parted < count / 2, qPrintable(QString::number(parted)));
    }

    // With "time": "redis" redis_rate reads Redis's TIME to the microsecond, as the library
    // does: the decision is at Redis's time and the burst holds.
    void redisRateReadsRedisTime() {
        LimiterSpec spec = redisRate(1, 60000, 3);
        spec.time = TimeSource::Redis;
        ScopedLimiter limiter(spec);
        const RedisReply time = limiter.connection().command({"TIME"});
        const qint64 redisMs = QByteArray(time->element[0]->str).toLongLong() * 1000;
        for (int i = 0; i < 4; ++i) {
            const Decision d = test::decide(limiter.router(), *limiter, {0, QString(), 1});
            QCOMPARE(d.allowed, i < 3);
            QVERIFY2(d.atMs >= redisMs && d.atMs < redisMs + 60'000,
                     qPrintable(QString::number(d.atMs)));
        }
    }

    void levels() {
        ScopedLimiter counter(upstash(10, 1000, Scope::PerClient));
        ScopedLimiter gcra(redisRate(10, 1000, 5));
        for (const auto& [t, client] : {std::pair{100LL, QStringLiteral("a")},
                                        {1200LL, QStringLiteral("a")},
                                        {1300LL, QStringLiteral("b")}}) {
            QVERIFY(test::decide(counter.router(), *counter, {kBase + t, client, 2}).allowed);
            QVERIFY(test::decide(gcra.router(), *gcra, {kBase + t, client, 2}).allowed);
        }
        // At 1500: a holds 2 + floor(0.5 x 2) = 3, b 2.
        const LimiterState c = readLimiterChartState(counter.connection(), *counter, kBase + 1500);
        QCOMPARE(c.levels.size(), 2);
        QCOMPARE(c.levels[0].client, QStringLiteral("a"));
        QCOMPARE(c.levels[0].used, 3.0);
        QCOMPARE(c.levels[1].used, 2.0);
        // TAT = 1300 + 200 ms (1200's grant left 1400, 1300's took 2 x 100 from 1300 + ...).
        const LimiterState g = readLimiterChartState(gcra.connection(), *gcra, kBase + 1300);
        QCOMPARE(g.levels.size(), 1);
        QCOMPARE(g.levels[0].aheadMs, 300);
        QVERIFY(qAbs(g.levels[0].used - 3.0) < 1e-6);
    }

    void reasonsNameTheLibrary() {
        for (const LimiterSpec& spec : {upstash(1, 1000), redisRate(10, 1000, 1)}) {
            ScopedLimiter limiter(spec);
            test::decide(limiter.router(), *limiter, {kBase + 100, QString(), 1});
            const Decision d =
                test::decide(limiter.router(), *limiter, {kBase + 200, QString(), 1});
            QVERIFY(!d.allowed);
            const QString text = algorithmOf(spec).reasonText(spec, d);
            QVERIFY2(text.startsWith(flavorName(spec.flavor)), qPrintable(text));
        }
    }

    void specField_data() {
        QTest::addColumn<QByteArray>("json");
        QTest::addColumn<QString>("error");  // empty: accepted, and written back the same
        QTest::newRow("upstash")
            << QByteArray(
                   R"({"type": "sliding_counter", "name": "a", "scope": "global", "limit": 5, "window_ms": 1000, "flavor": "upstash"})")
            << QString();
        QTest::newRow("redis_rate with Redis's time")
            << QByteArray(
                   R"({"type": "gcra", "name": "a", "scope": "global", "time": "redis", "rate": 5, "period_ms": 1000, "burst": 2, "flavor": "redis_rate"})")
            << QString();
        QTest::newRow("exact is the default")
            << QByteArray(
                   R"({"type": "gcra", "name": "a", "scope": "global", "rate": 5, "period_ms": 1000, "burst": 2, "flavor": "exact"})")
            << QString();
        QTest::newRow("another type's flavor")
            << QByteArray(
                   R"({"type": "gcra", "name": "a", "rate": 5, "period_ms": 1000, "burst": 2, "flavor": "upstash"})")
            << QStringLiteral(
                   "$.flavor: unknown flavor \"upstash\" for gcra; expected exact or redis_rate");
        QTest::newRow("a type without flavors")
            << QByteArray(
                   R"({"type": "token_bucket", "name": "a", "rate": 5, "interval_ms": 1000, "flavor": "exact"})")
            << QStringLiteral("$.flavor: unknown field");
        QTest::newRow("not a string")
            << QByteArray(
                   R"({"type": "sliding_counter", "name": "a", "limit": 5, "window_ms": 1000, "flavor": 1})")
            << QStringLiteral("$.flavor: must be a string");
        QTest::newRow("upstash with Redis's time")
            << QByteArray(
                   R"({"type": "sliding_counter", "name": "a", "time": "redis", "limit": 5, "window_ms": 1000, "flavor": "upstash"})")
            << QStringLiteral("$.flavor: the upstash flavor decides at the time its caller passes");
    }
    void specField() {
        QFETCH(QByteArray, json);
        QFETCH(QString, error);
        try {
            const LimiterSpec spec = parseLimiterSpecJson(json);
            QVERIFY2(error.isEmpty(), "accepted");
            QJsonObject expected = QJsonDocument::fromJson(json).object();
            if (expected.value(QStringLiteral("flavor")) == QStringLiteral("exact")) {
                expected.remove(QStringLiteral("flavor"));  // written only when not exact
            }
            QCOMPARE(limiterSpecToJson(spec), expected);
            QCOMPARE(parseLimiterSpec(limiterSpecToJson(spec)), spec);
        } catch (const InputError& e) {
            QVERIFY2(!error.isEmpty() && e.message().startsWith(error), qPrintable(e.message()));
        }
    }
};

QTEST_GUILESS_MAIN(TestFlavors)
#include "tst_flavors.moc"
