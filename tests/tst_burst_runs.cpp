// The admitted-burst metric of whole runs: the runner collects every accepted
// decision and its final snapshot carries the busiest interval per limiter and per client. On a
// virtual clock the figures are exact and repeat.
#include <QDateTime>
#include <QtTest>

#include "output/run_report.h"
#include "output/summary_json.h"
#include "run/scenario_runner.h"
#include "support/run_checks.h"
#include "support/test_redis.h"

using namespace ratelab;
using namespace ratelab::test;

namespace {

Scenario virtualRun(LimiterSpec limiter, double rate, double seconds, const char* startIso) {
    Scenario s;
    s.name = QStringLiteral("burst");
    s.limiters = {std::move(limiter)};
    s.traffic.shape.type = ShapeSpec::Type::Constant;
    s.traffic.shape.rate = rate;
    s.traffic.durationS = seconds;
    s.traffic.clock.isVirtual = true;
    s.traffic.clock.speed = 0;
    s.traffic.clock.startMs =
        QDateTime::fromString(QString::fromLatin1(startIso), Qt::ISODateWithMs).toMSecsSinceEpoch();
    return s;
}

const BusiestInterval* window(const std::vector<BusiestInterval>& bursts, qint64 ms) {
    for (const BusiestInterval& b : bursts) {
        if (b.windowMs == ms) {
            return &b;
        }
    }
    return nullptr;
}

LimiterSpec fixedWindow(qint64 rate) {
    LimiterSpec s;
    s.type = LimiterType::FixedWindow;
    s.name = uniqueName(QStringLiteral("burst-fw"));
    s.rate = rate;
    s.interval = 1;
    s.unit = CalendarUnit::Seconds;
    s.timezone = "UTC";
    return s;
}

LimiterSpec tokenBucket(qint64 rate, qint64 intervalMs, Scope scope) {
    LimiterSpec s;
    s.type = LimiterType::TokenBucket;
    s.name = uniqueName(QStringLiteral("burst-tb"));
    s.scope = scope;
    s.rate = rate;
    s.intervalMs = intervalMs;
    return s;
}

}  // namespace

class TestBurstRuns : public QObject {
    Q_OBJECT

private slots:
    // 10 per calendar second, 50 requests/s starting half a second before a boundary: the
    // window ending at run time 500 ms admits 10 (sends at 0, 20, .., 180 ms), the next one 10
    // more at 500..680 ms, so [0, 1000) holds 20: twice the limit in one window length.
    void fixedWindowBoundaryAdmitsTwiceTheLimit() {
        const Scenario scenario = virtualRun(fixedWindow(10), 50, 2, "2024-01-01T00:00:00.500Z");
        const RunSnapshot run = runOnFixture(scenario);
        QVERIFY(run.finished);
        const LimiterSnapshot& l = run.limiters.at(0);
        QCOMPARE(l.accepted, 30);
        std::vector<qint64> windows;
        for (const BusiestInterval& b : l.admittedBurst) {
            windows.push_back(b.windowMs);
        }
        QCOMPARE(windows, (std::vector<qint64>{1000, 10000, 60000}));
        const BusiestInterval* second = window(l.admittedBurst, 1000);
        QCOMPARE(second->permits, 20);
        QCOMPARE(second->fromMs, 0);
        QCOMPARE(second->firstMs, 0);
        QCOMPARE(second->lastMs, 680);
        QCOMPARE(window(l.admittedBurst, 10000)->permits, 30);
        QCOMPARE(window(l.admittedBurst, 60000)->permits, 30);
        // Per client too, a global limiter's: its one client had every grant.
        QCOMPARE(l.clients.size(), 1);
        QCOMPARE(window(l.clients[0].admittedBurst, 1000)->permits, 20);
        // summary.json: the flat figures and the list, as the contract says.
        const QJsonObject limiter =
            summaryJson(run).value(QStringLiteral("limiters")).toArray().at(0).toObject();
        QCOMPARE(limiter.value(QStringLiteral("max_accepted_in_any_1000ms")).toInt(), 20);
        QCOMPARE(limiter.value(QStringLiteral("max_accepted_in_any_10000ms")).toInt(), 30);
        const QJsonObject first =
            limiter.value(QStringLiteral("admitted_burst")).toArray().at(0).toObject();
        QCOMPARE(first.value(QStringLiteral("window_ms")).toInt(), 1000);
        QCOMPARE(first.value(QStringLiteral("accepted")).toInt(), 20);
        QCOMPARE(first.value(QStringLiteral("from_ms")).toInt(), 0);
        QCOMPARE(first.value(QStringLiteral("first_ms")).toInt(), 0);
        QCOMPARE(first.value(QStringLiteral("last_ms")).toInt(), 680);
        QVERIFY(summaryText(run).contains(QStringLiteral("20 in any 1000 ms (from 0 ms)")));
    }

    // A full bucket of 10 per 1000 ms under 50 requests/s for 12 s: its capacity at once
    // (0..180 ms), then each grant's permit comes back an interval later, so every second
    // admits 10 (never more in any 1000 ms), any 10 s 100 and the whole run 120. Its config
    // names a 500 ms interval in the second run: 10 in any 500 ms there.
    void tokenBucketCapacityThenRate_data() {
        QTest::addColumn<qint64>("intervalMs");
        QTest::addColumn<qint64>("window");
        QTest::addColumn<qint64>("permits");
        QTest::newRow("1 s interval: 1 s") << qint64(1000) << qint64(1000) << qint64(10);
        QTest::newRow("1 s interval: 10 s") << qint64(1000) << qint64(10000) << qint64(100);
        QTest::newRow("1 s interval: 60 s") << qint64(1000) << qint64(60000) << qint64(120);
        QTest::newRow("500 ms interval: 500 ms") << qint64(500) << qint64(500) << qint64(10);
        QTest::newRow("500 ms interval: 1 s") << qint64(500) << qint64(1000) << qint64(20);
    }
    void tokenBucketCapacityThenRate() {
        QFETCH(qint64, intervalMs);
        QFETCH(qint64, window);
        QFETCH(qint64, permits);
        const Scenario scenario =
            virtualRun(tokenBucket(10, intervalMs, Scope::Global), 50, 12, "2024-01-01T00:00:00Z");
        const RunSnapshot first = runOnFixture(scenario);
        const BusiestInterval* b = ::window(first.limiters.at(0).admittedBurst, window);
        QVERIFY(b != nullptr);
        QCOMPARE(b->permits, permits);
        // The same scenario again: the same figures (virtual clock).
        const RunSnapshot again = runOnFixture(scenario);
        const BusiestInterval* b2 = ::window(again.limiters.at(0).admittedBurst, window);
        QCOMPARE(b2->permits, b->permits);
        QCOMPARE(b2->fromMs, b->fromMs);
        QCOMPARE(b2->lastMs, b->lastMs);
    }

    // A per-client bucket of 5 per second, 3 clients sharing 60 requests/s (each well above
    // 5/s): each client is admitted at most 5 in any second, all together 15; per client in
    // summary.json too.
    // Skewed client clocks (traffic "clock_skew_ms") make a limiter that trusts the client's
    // time admit more than its limit in a true window: the run's clock shows it, while on the
    // time the limiter was told it held its limit exactly. Each figure under its own name.
    void skewedClientsShowOnTheRunClock_data() {
        QTest::addColumn<qint64>("skewMs");
        QTest::addColumn<bool>("overLimit");
        QTest::newRow("no skew") << qint64(0) << false;
        QTest::newRow("two clients 800 ms ahead") << qint64(800) << true;
    }
    void skewedClientsShowOnTheRunClock() {
        QFETCH(qint64, skewMs);
        QFETCH(bool, overLimit);
        LimiterSpec sliding;
        sliding.type = LimiterType::SlidingWindow;
        sliding.name = uniqueName(QStringLiteral("burst-skew"));
        sliding.rules = {SlidingRule{10, 1000}};
        Scenario scenario = virtualRun(sliding, 40, 6, "2024-01-01T00:00:00.000Z");
        scenario.traffic.clients = 4;
        scenario.traffic.seed = 1;
        if (skewMs != 0) {
            scenario.traffic.clientSkewMs = {{QStringLiteral("c2"), skewMs},
                                             {QStringLiteral("c3"), skewMs}};
        }
        const RunSnapshot run = runOnFixture(scenario);
        const BusiestInterval* limiterTime = window(run.limiters[0].admittedBurst, 1000);
        const BusiestInterval* runClock = window(run.limiters[0].admittedBurstRunClock, 1000);
        QVERIFY(limiterTime != nullptr && runClock != nullptr);
        QCOMPARE(limiterTime->permits, 10);
        if (overLimit) {
            QVERIFY2(runClock->permits > 10, qPrintable(QString::number(runClock->permits)));
        } else {
            QCOMPARE(runClock->permits, 10);
        }
        const QJsonObject limiter =
            summaryJson(run).value(QStringLiteral("limiters")).toArray().at(0).toObject();
        QCOMPARE(limiter.value(QStringLiteral("max_accepted_in_any_1000ms")).toInt(), 10);
        QCOMPARE(limiter.value(QStringLiteral("max_admitted_in_any_1000ms_run_clock")).toInt(),
                 int(runClock->permits));
        QCOMPARE(limiter.value(QStringLiteral("admitted_burst_run_clock")).toArray().size(),
                 limiter.value(QStringLiteral("admitted_burst")).toArray().size());
    }

    void perClientFigures() {
        Scenario scenario =
            virtualRun(tokenBucket(5, 1000, Scope::PerClient), 60, 3, "2024-01-01T00:00:00Z");
        scenario.traffic.clients = 3;
        const RunSnapshot run = runOnFixture(scenario);
        const LimiterSnapshot& l = run.limiters.at(0);
        QCOMPARE(window(l.admittedBurst, 1000)->permits, 15);
        QCOMPARE(l.clients.size(), 3);
        qint64 total = 0;
        for (const ClientTotals& c : l.clients) {
            QCOMPARE(window(c.admittedBurst, 1000)->permits, 5);
            QCOMPARE(window(c.admittedBurst, 60000)->permits, c.accepted);
            total += c.accepted;
        }
        QCOMPARE(total, l.accepted);
        const QJsonArray clients = summaryJson(run)
                                       .value(QStringLiteral("limiters"))
                                       .toArray()
                                       .at(0)
                                       .toObject()
                                       .value(QStringLiteral("clients"))
                                       .toArray();
        QCOMPARE(clients.size(), 3);
        for (const QJsonValue& c : clients) {
            QCOMPARE(c.toObject().value(QStringLiteral("max_accepted_in_any_1000ms")).toInt(), 5);
            QCOMPARE(c.toObject().value(QStringLiteral("admitted_burst")).toArray().size(), 3);
        }
    }

    // An expectation naming a window the config does not: the run computes it too.
    void expectationWindowIsComputed() {
        Scenario scenario = virtualRun(fixedWindow(10), 50, 2, "2024-01-01T00:00:00.500Z");
        Expectation e;
        e.limiter = QStringLiteral("*");
        e.metric = QStringLiteral("max_accepted_in_any_700ms");
        e.op = CompareOp::LessEqual;
        e.threshold = 10;
        scenario.expectations = {e};
        const RunSnapshot run = runOnFixture(scenario);
        // [0, 700) holds 0..180 and 500..680: 20.
        QCOMPARE(window(run.limiters.at(0).admittedBurst, 700)->permits, 20);
        QCOMPARE(run.expectations.size(), 1);
        QCOMPARE(run.expectations.at(0).measured, 20.0);
        QVERIFY(!run.expectations.at(0).held);
    }

    // The shipped examples assert what their names say: the fixed window admits 20 in one
    // second (twice its limit), the sliding window never more than 10; a limiter that trusts
    // skewed client clocks holds 10 on its own time yet admits more in a true second, while
    // Redis's time holds 10 on both. Run here with their limiters renamed (other tests may run
    // the examples) and without pacing.
    void examplesHoldTheirExpectations_data() {
        QTest::addColumn<QString>("file");
        QTest::addColumn<int>("checks");  // "*" counts once per limiter
        QTest::newRow("boundary burst") << QStringLiteral("fixed-window-boundary-burst.json") << 4;
        QTest::newRow("clock skew") << QStringLiteral("clock-skew.json") << 3;
    }
    void examplesHoldTheirExpectations() {
        QFETCH(QString, file);
        QFETCH(int, checks);
        const QString root = qEnvironmentVariable("RATELAB_SOURCE_DIR");
        Scenario scenario =
            loadScenarioFile(QDir(root).filePath(QStringLiteral("resources/scenarios/") + file));
        for (LimiterSpec& spec : scenario.limiters) {
            const QString renamed = uniqueName(spec.name);
            for (Expectation& e : scenario.expectations) {
                if (e.limiter == spec.name) {
                    e.limiter = renamed;
                }
            }
            spec.name = renamed;
        }
        scenario.traffic.clock.speed = 0;
        const RunSnapshot run = runOnFixture(scenario);
        QCOMPARE(run.expectations.size(), checks);
        for (const ExpectationResult& r : run.expectations) {
            QVERIFY2(r.held,
                     qPrintable(r.limiter + QStringLiteral(": ") + r.expectation.text() +
                                QStringLiteral(" measured ") + QString::number(r.measured)));
        }
    }
};

QTEST_GUILESS_MAIN(TestBurstRuns)
#include "tst_burst_runs.moc"
