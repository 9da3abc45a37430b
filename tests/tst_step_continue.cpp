// Step, then Start: the run continues the stepped requests (ScenarioRunner::continueFrom) on the
// keys the steps wrote, from the next request of the schedule, and counts the stepped ones as
// its own. In virtual time a run that continues K steps must end exactly as a run that was never
// stepped: same decisions, same buckets, same clients, same busiest interval.
#include <QtTest>

#include "run/scenario_runner.h"
#include "run/step_session.h"
#include "support/run_checks.h"
#include "support/test_files.h"
#include "support/test_redis.h"

using namespace ratelab;
using namespace ratelab::test;

Q_DECLARE_METATYPE(ratelab::LimiterSpec)

namespace {

LimiterSpec limiter(LimiterType type, Scope scope) {
    LimiterSpec s;
    s.type = type;
    s.name = uniqueName(QStringLiteral("cont"));
    s.scope = scope;
    s.rate = 10;
    s.intervalMs = 1000;
    s.interval = 1;
    s.unit = CalendarUnit::Seconds;
    s.timezone = "UTC";
    s.rules = {{10, 1000}};
    s.periodMs = 1000;
    s.burst = 4;
    return s;
}

// Poisson arrivals from three clients asking 1-3 permits: every request's time, client and
// permits depend on its place in the schedule, so a continued run that lost its place differs.
Scenario scenarioOf(const LimiterSpec& spec) {
    Scenario s;
    s.name = QStringLiteral("continue");
    s.limiters = {spec};
    s.traffic.shape.type = ShapeSpec::Type::Poisson;
    s.traffic.shape.rate = 40;
    s.traffic.durationS = 3;
    s.traffic.clients = 3;
    s.traffic.permitsMin = 1;
    s.traffic.permitsMax = 3;
    s.traffic.seed = 7;
    s.traffic.clock.isVirtual = true;
    s.traffic.clock.speed = 0;
    s.traffic.clock.startMs =
        QDateTime::fromString(QStringLiteral("2024-03-01T10:00:00.250Z"), Qt::ISODateWithMs)
            .toMSecsSinceEpoch();
    return s;
}

void deleteKeys(const Scenario& scenario) {
    RedisConnection c(fixtureUrl());
    for (const LimiterSpec& spec : scenario.limiters) {
        makeLimiter(spec)->reset(c);
        for (int g = 0;
             spec.gateway.mode == GatewayMode::Local && g < scenario.traffic.gateways.count; ++g) {
            LimiterSpec local = spec;
            local.name = GatewayState::localName(spec.name, g);
            makeLimiter(local)->reset(c);
        }
    }
}

RunSnapshot straightRun(const Scenario& scenario) {
    ScenarioRunner runner(scenario, fixtureUrl());
    runner.start();
    runner.wait();
    return runner.snapshot();
}

RunSnapshot steppedThenRun(const Scenario& scenario, int steps) {
    StepSession session(scenario, fixtureUrl());  // resets the keys
    for (int i = 0; i < steps; ++i) {
        const StepSession::Step step = session.next();
        if (step.index != i) {
            qWarning("step %d came back as #%lld", i, step.index);
        }
    }
    ScenarioRunner runner(scenario, fixtureUrl());
    runner.continueFrom(session);
    runner.start();
    runner.wait();
    return runner.snapshot();
}

}  // namespace

class TestStepContinue : public QObject {
    Q_OBJECT

private slots:
    void continuedRunEqualsStraightRun_data() {
        QTest::addColumn<LimiterSpec>("spec");
        QTest::addColumn<int>("steps");
        const LimiterSpec bucket = limiter(LimiterType::TokenBucket, Scope::Global);
        QTest::newRow("token bucket, 1 step") << bucket << 1;
        QTest::newRow("token bucket, 17 steps") << bucket << 17;
        QTest::newRow("token bucket per client, 9 steps")
            << limiter(LimiterType::TokenBucket, Scope::PerClient) << 9;
        QTest::newRow("fixed window, 23 steps")
            << limiter(LimiterType::FixedWindow, Scope::Global) << 23;
        QTest::newRow("sliding log, 30 steps")
            << limiter(LimiterType::SlidingWindow, Scope::Global) << 30;
        QTest::newRow("gcra, 12 steps") << limiter(LimiterType::Gcra, Scope::Global) << 12;
    }
    void continuedRunEqualsStraightRun() {
        QFETCH(LimiterSpec, spec);
        QFETCH(int, steps);
        const Scenario scenario = scenarioOf(spec);
        const RunSnapshot straight = straightRun(scenario);
        const RunSnapshot continued = steppedThenRun(scenario, steps);
        deleteKeys(scenario);

        QVERIFY(continued.finished);
        QCOMPARE(continued.startEpochMs, straight.startEpochMs);
        QCOMPARE(continued.scheduled, straight.scheduled);
        expectExactAccounting(continued);
        const LimiterSnapshot& a = straight.limiters[0];
        const LimiterSnapshot& b = continued.limiters[0];
        // A run that reset the keys would admit a second burst; one that restarted the
        // schedule would fire the stepped requests twice.
        QVERIFY(a.rejected > 0);
        expectSameDecisions(a, b);
        if (QTest::currentTestFailed()) {
            return;
        }
        QCOMPARE(b.clients.size(), a.clients.size());
        for (int c = 0; c < a.clients.size(); ++c) {
            QCOMPARE(b.clients[c].accepted, a.clients[c].accepted);
            QCOMPARE(b.clients[c].rejected, a.clients[c].rejected);
        }
        QCOMPARE(b.admittedBurst.size(), a.admittedBurst.size());
        for (size_t w = 0; w < a.admittedBurst.size(); ++w) {
            QCOMPARE(b.admittedBurst[w].permits, a.admittedBurst[w].permits);
            QCOMPARE(b.admittedBurst[w].fromMs, a.admittedBurst[w].fromMs);
        }
    }

    // The examples with a concurrency limiter's hold and with gateways: the stepped grants
    // still release their slots in the continued run (at grant time + hold), and each gateway
    // goes on with what it keeps (cached refusals, batched counts not yet added).
    void continuedRunKeepsReleasesAndGateways_data() {
        QTest::addColumn<QString>("file");
        QTest::addColumn<int>("steps");
        const QString leaks = QStringLiteral("concurrency-leaks.json");
        QTest::newRow("concurrency with a hold, 1 step") << leaks << 1;
        QTest::newRow("concurrency with a hold, 60 steps") << leaks << 60;
        QTest::newRow("gateways: local, cache_refusals, 90 steps")
            << QStringLiteral("gateways-local-and-cached.json") << 90;
        QTest::newRow("gateways: batched, 70 steps")
            << QStringLiteral("gateways-batched-and-skewed.json") << 70;
    }
    void continuedRunKeepsReleasesAndGateways() {
        QFETCH(QString, file);
        QFETCH(int, steps);
        Scenario scenario = loadScenarioFile(exampleScenarioPath(file));
        scenario.traffic.durationS = 3;
        for (LimiterSpec& spec : scenario.limiters) {
            spec.name = uniqueName(spec.name);
        }
        const RunSnapshot straight = straightRun(scenario);
        const RunSnapshot continued = steppedThenRun(scenario, steps);
        deleteKeys(scenario);
        QVERIFY(continued.finished);
        expectExactAccounting(continued);
        for (int l = 0; l < straight.limiters.size(); ++l) {
            QVERIFY(straight.limiters[l].rejected > 0 || l > 0);
            expectSameDecisions(straight.limiters[l], continued.limiters[l]);
            if (QTest::currentTestFailed()) {
                return;
            }
        }
    }

    // Two limiters: the stepped requests' agreement counts carry over too.
    void disagreementsCarryOver() {
        const LimiterSpec bucket = limiter(LimiterType::TokenBucket, Scope::Global);
        LimiterSpec window = limiter(LimiterType::FixedWindow, Scope::Global);
        Scenario scenario = scenarioOf(bucket);
        scenario.limiters.append(window);
        const RunSnapshot straight = straightRun(scenario);
        const RunSnapshot continued = steppedThenRun(scenario, 25);
        deleteKeys(scenario);
        QCOMPARE(continued.disagreements.size(), 1);
        QCOMPARE(continued.disagreements[0].compared, straight.disagreements[0].compared);
        QCOMPARE(continued.disagreements[0].disagreed, straight.disagreements[0].disagreed);
        QVERIFY(straight.disagreements[0].disagreed > 0);
    }

    // A real clock: the run goes on at the limiter time the steps reached (their time base),
    // so the limiter never sees time go back, and the steps' counts stay.
    void realClockContinuesTheStepsTime() {
        LimiterSpec bucket = limiter(LimiterType::TokenBucket, Scope::Global);
        bucket.intervalMs = 10000;  // 10 permits for the whole run: none comes back during it
        Scenario scenario = scenarioOf(bucket);
        scenario.traffic.permitsMax = 1;
        scenario.traffic.clock.isVirtual = false;
        scenario.traffic.shape.type = ShapeSpec::Type::Constant;
        scenario.traffic.shape.rate = 20;
        scenario.traffic.durationS = 1;
        StepSession session(scenario, fixtureUrl());
        for (int i = 0; i < 6; ++i) {
            session.next();
        }
        const qint64 stepsStart = session.startEpochMs();
        ScenarioRunner runner(scenario, fixtureUrl());
        runner.continueFrom(session);
        runner.start();
        QVERIFY(runner.limiterNowMs() >= stepsStart + 250);  // 6th request: run time 250 ms
        runner.wait();
        const RunSnapshot run = runner.snapshot();
        deleteKeys(scenario);
        QCOMPARE(run.startEpochMs, stepsStart);
        QCOMPARE(run.scheduled, 20);
        QCOMPARE(run.limiters[0].fired, 20);
        // 10 permits for 20 requests: the 6 stepped ones took 6 of them (a run that reset the
        // keys would let 16 through).
        QCOMPARE(run.limiters[0].accepted, 10);
        expectExactAccounting(run);
    }

    // What the window asks before it continues: the same schedule, whatever the name.
    void sameSchedule_data() {
        QTest::addColumn<QString>("change");
        QTest::addColumn<bool>("same");
        QTest::newRow("nothing") << "" << true;
        QTest::newRow("name") << "name" << true;
        QTest::newRow("rate") << "rate" << false;
        QTest::newRow("traffic") << "traffic" << false;
        QTest::newRow("limiter name") << "limiter" << false;
    }
    void sameSchedule() {
        QFETCH(QString, change);
        QFETCH(bool, same);
        const Scenario a = scenarioOf(limiter(LimiterType::TokenBucket, Scope::Global));
        Scenario b = a;
        if (change == QLatin1String("name"))
            b.name = QStringLiteral("renamed");
        if (change == QLatin1String("rate"))
            b.limiters[0].rate = 11;
        if (change == QLatin1String("traffic"))
            b.traffic.shape.rate = 41;
        if (change == QLatin1String("limiter"))
            b.limiters[0].name += QLatin1Char('x');
        QCOMPARE(ScenarioRunner::sameSchedule(a, b), same);
    }
};

QTEST_GUILESS_MAIN(TestStepContinue)
#include "tst_step_continue.moc"
