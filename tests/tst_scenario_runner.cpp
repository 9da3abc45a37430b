// The scenario runner on a real Redis: exact counts in virtual time, wait mode, reproducible
// runs, and exact accounting from 4 threads while Redis is killed and restarted.
#include <QDateTime>
#include <QThread>
#include <QtTest>

#include "redis/local_redis_server.h"
#include "run/scenario_runner.h"
#include "support/run_checks.h"
#include "support/test_redis.h"

using namespace ratelab;
using namespace ratelab::test;

Q_DECLARE_METATYPE(ratelab::LimiterSpec)

namespace {

LimiterSpec tokenBucket(qint64 rate, qint64 intervalMs, Scope scope = Scope::Global) {
    LimiterSpec s;
    s.type = LimiterType::TokenBucket;
    s.name = uniqueName(QStringLiteral("run-tb"));
    s.scope = scope;
    s.rate = rate;
    s.intervalMs = intervalMs;
    return s;
}

LimiterSpec fixedWindow(qint64 rate, qint64 interval, CalendarUnit unit) {
    LimiterSpec s;
    s.type = LimiterType::FixedWindow;
    s.name = uniqueName(QStringLiteral("run-fw"));
    s.rate = rate;
    s.interval = interval;
    s.unit = unit;
    s.timezone = "UTC";
    return s;
}

LimiterSpec slidingWindow(QVector<SlidingRule> rules, Scope scope = Scope::Global) {
    LimiterSpec s;
    s.type = LimiterType::SlidingWindow;
    s.name = uniqueName(QStringLiteral("run-sw"));
    s.scope = scope;
    s.rules = std::move(rules);
    return s;
}

Scenario constantScenario(QVector<LimiterSpec> limiters, double rate, double seconds,
                          qint64 startMs) {
    Scenario s;
    s.name = QStringLiteral("test");
    s.limiters = std::move(limiters);
    s.traffic.shape.type = ShapeSpec::Type::Constant;
    s.traffic.shape.rate = rate;
    s.traffic.durationS = seconds;
    s.traffic.clock.isVirtual = true;
    s.traffic.clock.speed = 0;
    s.traffic.clock.startMs = startMs;
    return s;
}

qint64 at(const char* iso) {
    return QDateTime::fromString(QString::fromLatin1(iso), Qt::ISODateWithMs).toMSecsSinceEpoch();
}

RunSnapshot runToEnd(const Scenario& scenario, const RedisUrl& url) {
    ScenarioRunner runner(scenario, url);
    runner.start();
    runner.wait();
    RunSnapshot snapshot = runner.snapshot();
    RedisConnection c(url);
    for (const LimiterSpec& spec : scenario.limiters) {
        makeLimiter(spec)->reset(c);
    }
    return snapshot;
}

}  // namespace

class TestScenarioRunner : public QObject {
    Q_OBJECT

private slots:
    void exactCountsInVirtualTime_data() {
        QTest::addColumn<LimiterSpec>("spec");
        QTest::addColumn<double>("rate");
        QTest::addColumn<double>("seconds");
        QTest::addColumn<qint64>("startMs");
        QTest::addColumn<qint64>("accepted");
        const qint64 midnight = at("2024-01-01T00:00:00.000Z");
        // 50 req/s for 2 s = 100 sends, one every 20 ms.
        QTest::newRow("token bucket 10/s")
            << tokenBucket(10, 1000) << 50.0 << 2.0 << midnight << 20LL;
        QTest::newRow("sliding window 10/s")
            << slidingWindow({{10, 1000}}) << 50.0 << 2.0 << midnight << 20LL;
        QTest::newRow("fixed window aligned")
            << fixedWindow(10, 1, CalendarUnit::Seconds) << 50.0 << 2.0 << midnight << 20LL;
        // Starting half-way through a second: windows [.5,1) [1,2) [2,2.5) admit 10 each.
        QTest::newRow("fixed window half-way")
            << fixedWindow(10, 1, CalendarUnit::Seconds) << 50.0 << 2.0 << midnight + 500 << 30LL;
        QTest::newRow("sliding 3/100ms + 12/1s")
            << slidingWindow({{3, 100}, {12, 1000}}) << 50.0 << 2.0 << midnight << 24LL;
    }
    void exactCountsInVirtualTime() {
        QFETCH(LimiterSpec, spec);
        QFETCH(double, rate);
        QFETCH(double, seconds);
        QFETCH(qint64, startMs);
        QFETCH(qint64, accepted);
        const RunSnapshot run =
            runToEnd(constantScenario({spec}, rate, seconds, startMs), fixtureUrl());
        QVERIFY(run.finished);
        QCOMPARE(run.scheduled, qint64(rate * seconds));
        QCOMPARE(run.limiters[0].accepted, accepted);
        QCOMPARE(run.limiters[0].rejected, run.scheduled - accepted);
        QCOMPARE(run.limiters[0].errors, 0);
        expectExactAccounting(run);
    }

    // Wait mode sleeps retry_after_ms and tries again, as Redisson's acquire does: 20 requests
    // in the first second against 10/s all pass, the second ten after waiting.
    void waitModeAcquires() {
        Scenario s = constantScenario({tokenBucket(10, 1000)}, 20, 1.0, at("2024-01-01T00:00:00Z"));
        s.traffic.mode = AcquireMode::Wait;
        s.traffic.timeoutMs = 2000;
        const RunSnapshot run = runToEnd(s, fixtureUrl());
        const LimiterSnapshot& l = run.limiters[0];
        QCOMPARE(l.accepted, 20);
        QCOMPARE(l.rejected, 0);
        QVERIFY(l.attempts > 20);
        QCOMPARE(l.waited.total, quint64(10));
        QCOMPARE(l.waited.min, 500'000);  // the request at 500 ms waits for t=0 to come back
        QCOMPARE(l.waited.max, 500'000);  // each of the ten gets the permit of t-500 ms
        expectExactAccounting(run);

        // A 100 ms timeout: the requests of 500..850 ms would wait 500 ms and give up; those of
        // 900 and 950 ms wait exactly 100 ms (the permits of 0 and 50 ms come back at 1000 and
        // 1050 ms) and pass.
        s.limiters = {tokenBucket(10, 1000)};
        s.traffic.timeoutMs = 100;
        const RunSnapshot impatient = runToEnd(s, fixtureUrl());
        QCOMPARE(impatient.limiters[0].accepted, 12);
        QCOMPARE(impatient.limiters[0].rejected, 8);
        QCOMPARE(impatient.limiters[0].waited.max, 100'000);
    }

    // Virtual time gives the same result twice: three limiters, weighted clients, permit
    // ranges, poisson arrivals.
    void reproducibleInVirtualTime() {
        auto build = [] {
            Scenario s = constantScenario(
                {tokenBucket(20, 1000, Scope::PerClient), fixedWindow(50, 1, CalendarUnit::Seconds),
                 slidingWindow({{5, 200}, {40, 2000}}, Scope::PerClient)},
                300, 3.0, at("2024-03-10T06:59:58.250Z"));
            s.traffic.shape.type = ShapeSpec::Type::Poisson;
            s.traffic.clients = 5;
            s.traffic.clientWeights = {5, 1, 1, 2, 1};
            s.traffic.permitsMin = 1;
            s.traffic.permitsMax = 3;
            s.traffic.seed = 7;
            return s;
        };
        Scenario first = build();
        Scenario second = build();
        for (int i = 0; i < first.limiters.size(); ++i) {
            second.limiters[i] = first.limiters[i];  // the same names: a reset in between
        }
        const RunSnapshot a = runToEnd(first, fixtureUrl());
        const RunSnapshot b = runToEnd(second, fixtureUrl());
        QCOMPARE(a.scheduled, b.scheduled);
        QVERIFY(a.scheduled > 700);
        for (int i = 0; i < a.limiters.size(); ++i) {
            const LimiterSnapshot& x = a.limiters[i];
            const LimiterSnapshot& y = b.limiters[i];
            QVERIFY(x.accepted > 0 && x.rejected > 0);
            QCOMPARE(x.accepted, y.accepted);
            QCOMPARE(x.rejected, y.rejected);
            QCOMPARE(x.bucketAccepted, y.bucketAccepted);
            QCOMPARE(x.bucketRejected, y.bucketRejected);
            for (int c = 0; c < x.clients.size(); ++c) {
                QCOMPARE(x.clients[c].accepted, y.clients[c].accepted);
                QCOMPARE(x.clients[c].rejected, y.clients[c].rejected);
            }
            QCOMPARE(x.fairness, y.fairness);
        }
        expectExactAccounting(a);
    }

    // 4 threads, real clock, Redis killed and restarted (state lost) mid-run: every request
    // still has exactly one outcome per limiter; the outage shows as errors, and decisions
    // resume after the restart.
    void accountingWhileRedisRestarts() {
        LocalRedisServer server;
        server.start();
        Scenario s;
        s.name = QStringLiteral("restart");
        s.limiters = {tokenBucket(50, 100), fixedWindow(30, 100, CalendarUnit::Milliseconds),
                      slidingWindow({{20, 100}})};
        s.traffic.shape.type = ShapeSpec::Type::Constant;
        s.traffic.shape.rate = 400;
        s.traffic.durationS = 3.0;
        s.traffic.threads = 4;
        s.traffic.pipeline = 4;
        s.traffic.clients = 3;
        ConnectOptions options;
        options.connectTimeout = std::chrono::milliseconds(200);
        options.commandTimeout = std::chrono::milliseconds(500);
        ScenarioRunner runner(s, server.url(), options);
        runner.start();
        QThread::msleep(800);
        server.crash();
        QThread::msleep(500);
        server.start();
        runner.wait();
        const RunSnapshot run = runner.snapshot();
        QVERIFY(run.finished);
        QCOMPARE(run.scheduled, 1200);
        expectExactAccounting(run);
        for (const LimiterSnapshot& l : run.limiters) {
            QVERIFY2(l.errors > 0, qPrintable(l.spec.name));
            // Decisions came back after the restart: something was accepted in the last second.
            qint64 lateAccepted = 0;
            for (int b = l.bucketAccepted.size() - 10; b < l.bucketAccepted.size(); ++b) {
                lateAccepted += l.bucketAccepted[b];
            }
            QVERIFY2(lateAccepted > 0, qPrintable(l.spec.name));
        }
    }
};

QTEST_GUILESS_MAIN(TestScenarioRunner)
#include "tst_scenario_runner.moc"
