// engine/live, the background Redis readers, on the fixture Redis: the server probe (answers,
// dropped stale answers, the managed server's lifetime), the Redisson watcher's mailbox (a
// limiter that appears and disappears), the run I/O's coalesced states and key listing, and
// the mailboxes themselves.
#include <QFileInfo>
#include <QSignalSpy>
#include <QtTest>

#include "input_error.h"
#include "live/latest_value.h"
#include "live/redisson_watcher.h"
#include "live/run_io.h"
#include "live/run_time_sampler.h"
#include "live/server_probe.h"
#include "live/state_mailbox.h"
#include "run/scenario_runner.h"
#include "support/redisson_writer.h"
#include "support/reference_models.h"
#include "support/test_redis.h"
#include "traffic/gateway_state.h"

using namespace ratelab;
using namespace ratelab::test;

namespace {

ServerStatus probed(const QSignalSpy& spy, int index) {
    return spy.at(index).at(0).value<ServerStatus>();
}

LimiterSpec tokenBucket(const QString& prefix) {
    LimiterSpec s;
    s.type = LimiterType::TokenBucket;
    s.name = uniqueName(prefix);
    s.rate = 5;
    s.intervalMs = 1000;
    return s;
}

// Two limiters, 40 requests in virtual time, as fast as possible.
Scenario smallScenario() {
    Scenario s;
    s.name = QStringLiteral("live");
    s.limiters = {tokenBucket(QStringLiteral("live-a")), tokenBucket(QStringLiteral("live-b"))};
    s.traffic.shape.type = ShapeSpec::Type::Constant;
    s.traffic.shape.rate = 20;
    s.traffic.durationS = 2;
    s.traffic.clock.isVirtual = true;
    s.traffic.clock.speed = 0;
    s.traffic.clock.startMs = 1'700'000'000'000;
    return s;
}

// One token bucket (10 per second) under 20 req/s for 1.5 s, nothing for 1.5 s, 20 req/s again:
// it drains, refills and drains. A virtual clock at `speed`.
Scenario drainRefillScenario(double speed) {
    Scenario s;
    s.name = QStringLiteral("drain and refill");
    LimiterSpec bucket = tokenBucket(QStringLiteral("live-sampled"));
    bucket.rate = 10;
    s.limiters = {bucket};
    s.traffic.shape.type = ShapeSpec::Type::Step;
    s.traffic.shape.stages = {{20, 1.5}, {0, 1.5}, {20, 1.5}};
    s.traffic.durationS = 4.5;
    s.traffic.clock.isVirtual = true;
    s.traffic.clock.speed = speed;
    s.traffic.clock.startMs = 1'700'000'000'000;
    return s;
}

// The permits the reference model holds at `nowMs` after the scheduled requests before
// `runUs` (a probe on a copy: one permit asked).
qint64 modelAvailable(const Scenario& scenario, qint64 runUs, qint64 nowMs) {
    const qint64 durationUs = qint64(scenario.traffic.durationS * 1e6);
    const auto pacer = makePacer(scenario.traffic.shape, durationUs, scenario.traffic.seed);
    TokenBucketModel model(scenario.limiters[0]);
    for (qint64 due = pacer->next(); due < runUs && due != Pacer::kNoMore; due = pacer->next()) {
        model.decide(Request{scenario.traffic.clock.startMs + due / 1000, QStringLiteral("c0"), 1});
    }
    const Decision probe = model.decide(Request{nowMs, QStringLiteral("c0"), 1});
    return probe.allowed ? probe.remaining + 1 : probe.remaining;
}

qint64 available(const LimiterState& state) {
    qint64 n = 0;
    for (const auto& scope : state.tokensAvailable) {
        n += scope.second;
    }
    return n;
}

// Runs the one-limiter `scenario` (a virtual clock) through RunIo to its end and gives every
// state read of its limiter, the last one at the run's end.
void runToItsEnd(const Scenario& scenario, QVector<LimiterState>* out) {
    RunIo io;
    io.setUrl(fixtureUrl());
    QSignalSpy started(&io, &RunIo::runStarted);
    QSignalSpy states(&io, &RunIo::stateReady);
    io.startRun(scenario, fixtureUrl());
    QTRY_COMPARE_WITH_TIMEOUT(started.count(), 1, 30000);
    const auto runner = started.at(0).at(0).value<std::shared_ptr<ScenarioRunner>>();
    QTRY_VERIFY_WITH_TIMEOUT(runner->snapshot().finished, 60000);
    io.finishRun(runner);
    const qint64 endMs = scenario.traffic.clock.startMs + qint64(scenario.traffic.durationS * 1000);
    // The bound only fails the test: beside the Clang build and the fuzzers (scripts/test.sh)
    // this function took 100 times its usual second, and 30 s ran out before the final read.
    QTRY_VERIFY_WITH_TIMEOUT(
        !states.isEmpty() && states.last().at(1).value<LimiterState>().nowMs == endMs, 120000);
    for (const QList<QVariant>& args : states) {
        QCOMPARE(args.at(0).toInt(), 0);
        out->append(args.at(1).value<LimiterState>());
    }
}

void deleteKeys(const Scenario& scenario) {
    auto router = routeFixture();
    for (const LimiterSpec& spec : scenario.limiters) {
        const auto limiter = makeLimiter(spec);
        limiter->reset(router->connectionForSlot(limiter->slot()));
    }
}

}  // namespace

class TestLive : public QObject {
    Q_OBJECT

private slots:
    void latestValueCoalesces() {
        LatestValue<int> box;
        QCOMPARE(box.sequence(), quint64(0));
        QVERIFY(!box.waitNewer(0, 0));
        box.publish(1);
        box.publish(2);
        QCOMPARE(box.value(), 2);  // the newest only
        QCOMPARE(box.sequence(), quint64(2));
        QVERIFY(box.waitNewer(1, 0));
        QVERIFY(!box.waitNewer(2, 0));
    }

    void stateMailboxKeepsNewestPerLimiter_data() {
        QTest::addColumn<bool>("listedFirst");
        QTest::addColumn<bool>("listedSecond");
        QTest::addColumn<bool>("keysExpected");
        QTest::newRow("charts only") << false << false << false;
        QTest::newRow("listing then charts") << true << false << true;
        QTest::newRow("charts then listing") << false << true << true;
    }
    void stateMailboxKeepsNewestPerLimiter() {
        QFETCH(bool, listedFirst);
        QFETCH(bool, listedSecond);
        QFETCH(bool, keysExpected);
        StateMailbox mailbox;
        LimiterState older;
        older.nowMs = 1;
        LimiterState newer;
        newer.nowMs = 2;
        QVERIFY(mailbox.putError(0, QStringLiteral("gone")));  // empty before: tell the taker
        QVERIFY(!mailbox.putState(0, older, listedFirst));     // one delivery pending already
        QVERIFY(!mailbox.putState(0, newer, listedSecond));
        const StateMailbox::Contents taken = mailbox.take();
        QCOMPARE(taken.errors.size(), 0);  // a later good read clears the error
        QCOMPARE(taken.charts.size(), 1);
        QCOMPARE(taken.charts.value(0).nowMs, qint64(2));
        QCOMPARE(taken.keys.contains(0), keysExpected);
        QVERIFY(mailbox.putState(1, newer, false));  // emptied by take: tell again
    }

    void probeAnswersAndDropsStaleAnswers() {
        ServerProbe probe;
        QSignalSpy spy(&probe, &ServerProbe::probed);
        probe.check();  // nothing before a connect
        probe.connectTo(false, fixtureUrl());
        QTRY_COMPARE_WITH_TIMEOUT(spy.count(), 1, 10000);
        const ServerStatus first = probed(spy, 0);
        QVERIFY2(first.ok, qPrintable(first.error));
        QVERIFY(first.answersConnect);
        QVERIFY(!first.version.isEmpty());
        QVERIFY(first.latencyMs >= 0);
        QCOMPARE(first.clusterMasters > 0, fixtureUrl().isCluster());

        probe.check();
        QTRY_COMPARE_WITH_TIMEOUT(spy.count(), 2, 10000);
        QVERIFY(probed(spy, 1).ok);
        QVERIFY(!probed(spy, 1).answersConnect);

        // A connect superseded at once: only the newer one is answered (answers keep order).
        probe.connectTo(false, RedisUrl::parse(QStringLiteral("unix:///nonexistent/r.sock")));
        probe.connectTo(false, fixtureUrl());
        QTRY_COMPARE_WITH_TIMEOUT(spy.count(), 3, 10000);
        QVERIFY(probed(spy, 2).ok);

        probe.connectTo(false, RedisUrl::parse(QStringLiteral("unix:///nonexistent/r.sock")));
        QTRY_COMPARE_WITH_TIMEOUT(spy.count(), 4, 10000);
        QVERIFY(!probed(spy, 3).ok);
        QVERIFY(!probed(spy, 3).error.isEmpty());
    }

    void probeOwnsTheManagedServer() {
        QString socket;
        {
            ServerProbe probe;
            QSignalSpy spy(&probe, &ServerProbe::probed);
            probe.connectTo(true, RedisUrl());
            QTRY_COMPARE_WITH_TIMEOUT(spy.count(), 1, 30000);
            const ServerStatus status = probed(spy, 0);
            QVERIFY2(status.ok, qPrintable(status.error));
            QVERIFY(status.managed);
            socket = status.url.socketPath;
            QVERIFY(QFileInfo::exists(socket));
        }
        QVERIFY2(!QFileInfo::exists(socket), qPrintable(socket));  // stopped with the probe
    }

    void redissonWatcherFollowsTheLimiter() {
        const QString name = uniqueName(QStringLiteral("live-rr"));
        RedissonWatcher watcher(fixtureUrl(), name, 20);
        QVERIFY(watcher.waitForPoll(0, 10000));
        QCOMPARE(watcher.status().failure, RedissonWatcher::Failure::NotFound);
        QVERIFY(!watcher.status().snapshot);
        {
            RedissonWriter w(name);
            w.setRate(10, 3600000, false);
            w.grant(QDateTime::currentMSecsSinceEpoch() - 10, 3);
            w.setValue(7);
            // A poll may land between the writes (config and grant written, value not yet: a
            // Redisson bucket without a value is full); the watcher must follow to 7.
            const auto available = [&watcher] {
                const RedissonWatcher::Status s = watcher.status();
                return s.snapshot ? s.snapshot->scopes.value(0).available : qint64(-1);
            };
            QTRY_COMPARE_WITH_TIMEOUT(available(), qint64(7), 10000);
            const RedissonWatcher::Status status = watcher.status();
            QCOMPARE(status.failure, RedissonWatcher::Failure::None);
            QVERIFY(status.goodPolls >= 1 && status.goodPolls <= status.polls);
        }  // the writer deletes the limiter's keys
        QTRY_COMPARE_WITH_TIMEOUT(watcher.status().failure, RedissonWatcher::Failure::NotFound,
                                  10000);
        QVERIFY(!watcher.status().snapshot);  // a deleted limiter is not drawn on
    }

    void redissonWatcherRefusesBadNames() {
        QVERIFY_THROWS_EXCEPTION(InputError, RedissonWatcher(fixtureUrl(), QString(), 20));
    }

    void runIoDeliversStatesThenKeys() {
        const Scenario scenario = smallScenario();
        RunIo io;
        io.setUrl(fixtureUrl());
        QSignalSpy started(&io, &RunIo::runStarted);
        QSignalSpy failed(&io, &RunIo::runFailed);
        QSignalSpy states(&io, &RunIo::stateReady);
        QSignalSpy keys(&io, &RunIo::keysReady);
        io.startRun(scenario, fixtureUrl());
        QTRY_COMPARE_WITH_TIMEOUT(started.count(), 1, 30000);
        QCOMPARE(failed.count(), 0);
        const auto runner = started.at(0).at(0).value<std::shared_ptr<ScenarioRunner>>();
        QTRY_VERIFY_WITH_TIMEOUT(runner->snapshot().finished, 30000);
        io.finishRun(runner);
        // The final read: one state per limiter at least, none listed (no one shows keys).
        QTRY_VERIFY_WITH_TIMEOUT(states.count() >= 2, 10000);
        QCOMPARE(keys.count(), 0);
        const qint64 readsBefore = io.keyListingReads();

        io.setKeyListing(true);  // after the run: the final keys of its limiters, once
        QTRY_COMPARE_WITH_TIMEOUT(keys.count(), 2, 10000);
        QCOMPARE(io.keyListingReads(), readsBefore + 2);
        QSet<int> limiters;
        for (const QList<QVariant>& args : keys) {
            limiters.insert(args.at(0).toInt());
            QVERIFY(!args.at(1).value<LimiterState>().keys.isEmpty());
        }
        QCOMPARE(limiters, (QSet<int>{0, 1}));
        deleteKeys(scenario);
    }

    // Redis's own cost of a run's limiters: readings while it runs, and a final exact one.
    void runIoReportsCost() {
        Scenario scenario = smallScenario();
        scenario.traffic.clock.isVirtual = false;  // real time: readings while it runs
        RunIo io;
        io.setUrl(fixtureUrl());
        QSignalSpy started(&io, &RunIo::runStarted);
        QSignalSpy costs(&io, &RunIo::costReady);
        io.startRun(scenario, fixtureUrl());
        QTRY_COMPARE_WITH_TIMEOUT(started.count(), 1, 30000);
        const auto runner = started.at(0).at(0).value<std::shared_ptr<ScenarioRunner>>();
        QTRY_VERIFY_WITH_TIMEOUT(runner->snapshot().finished, 30000);
        QVERIFY(costs.count() >= 1);  // the first reading comes with the run's first poll
        QVERIFY(!costs.first().at(0).value<RunCost>().exact);
        io.finishRun(runner);
        QTRY_VERIFY_WITH_TIMEOUT(costs.last().at(0).value<RunCost>().exact, 10000);
        const RunCost last = costs.last().at(0).value<RunCost>();
        QVERIFY2(last.scriptsKnown, qPrintable(last.scriptsRefusal));
        QVERIFY(last.calls > 0);
        QVERIFY(last.usPerDecision > 0);
        QCOMPARE(last.bytes.size(), 2);
        QCOMPARE(last.keys.size(), 2);
        for (int i = 0; i < 2; ++i) {
            QVERIFY(last.bytes[i] > 0);
            QVERIFY(last.keys[i] > 0);
        }
        deleteKeys(scenario);
    }

    // A virtual run is read at run-time instants with its clock held (a real-time poller would
    // read the bucket once or twice over a speed-0 run: a straight diagonal from full to empty):
    // every reading is what the reference model holds at its run time, through the drain, the
    // refill and the second drain.
    void virtualRunReadInRunTime() {
        const Scenario scenario = drainRefillScenario(0);
        const qint64 startMs = scenario.traffic.clock.startMs;
        QVector<LimiterState> states;
        runToItsEnd(scenario, &states);
        if (QTest::currentTestFailed()) {
            return;
        }
        QSet<qint64> times;
        QVector<qint64> levels;
        qint64 previousMs = startMs;
        for (const LimiterState& state : states) {
            QVERIFY2(state.nowMs >= previousMs, "readings come in run-time order");
            previousMs = state.nowMs;
            const qint64 runUs = (state.nowMs - startMs) * 1000;
            QCOMPARE(available(state), modelAvailable(scenario, runUs, state.nowMs));
            times.insert(state.nowMs);
            levels.push_back(available(state));
        }
        // Readings all over the run, not one or two.
        QVERIFY2(times.size() >= RunTimeSampler::kSamples / 2,
                 qPrintable(QString::number(times.size())));
        QVERIFY(times.contains(startMs));
        // Full, drained, refilled, drained again: no straight line.
        QCOMPARE(levels.first(), qint64(10));
        const auto drained = std::find(levels.cbegin(), levels.cend(), 0);
        QVERIFY(drained != levels.cend());
        const auto refilled = std::find(drained, levels.cend(), 10);
        QVERIFY(refilled != levels.cend());
        QVERIFY(std::find(refilled, levels.cend(), 0) != levels.cend());
        deleteKeys(scenario);
    }

    // A limiter each gateway keeps on its own (mode local) has no key under its own name: the
    // timelines read gateway 0's, "<name>@g0", which drains under its half of 40 req/s.
    void localGatewaysReadGatewayZero() {
        Scenario scenario = drainRefillScenario(0);
        scenario.limiters[0].gateway.mode = GatewayMode::Local;
        scenario.traffic.shape.stages = {{40, 1.5}, {0, 1.5}, {40, 1.5}};
        scenario.traffic.gateways.count = 2;
        QVector<LimiterState> states;
        runToItsEnd(scenario, &states);
        if (QTest::currentTestFailed()) {
            return;
        }
        QVector<qint64> levels;
        for (const LimiterState& state : states) {
            levels.push_back(available(state));
        }
        QVERIFY2(std::find(levels.cbegin(), levels.cend(), 0) != levels.cend(),
                 "gateway 0's bucket drains");
        auto router = routeFixture();
        for (int g = 0; g < 2; ++g) {
            LimiterSpec local = scenario.limiters[0];
            local.name = GatewayState::localName(local.name, g);
            const auto limiter = makeLimiter(local);
            limiter->reset(router->connectionForSlot(limiter->slot()));
        }
    }

    // Pause holds a virtual clock: the run stops advancing (no decision, run time still) and
    // goes on from where it was; a real clock cannot be paused.
    void pauseHoldsAVirtualClock() {
        const Scenario scenario = drainRefillScenario(1);
        ScenarioRunner runner(scenario, fixtureUrl());
        runner.start();
        QTRY_VERIFY_WITH_TIMEOUT(runner.snapshot().limiters.value(0).fired > 0, 10000);
        QVERIFY(runner.setPaused(true));
        QVERIFY(runner.paused());
        QTest::qWait(150);  // a batch in flight when pausing ends
        const RunSnapshot held = runner.snapshot();
        QTest::qWait(500);
        const RunSnapshot later = runner.snapshot();
        QCOMPARE(later.elapsedUs, held.elapsedUs);
        QCOMPARE(later.limiters.value(0).fired, held.limiters.value(0).fired);
        QVERIFY(!later.finished);
        runner.setPaused(false);
        QTRY_VERIFY_WITH_TIMEOUT(runner.snapshot().elapsedUs > held.elapsedUs, 10000);
        QTRY_VERIFY_WITH_TIMEOUT(runner.finished(), 30000);
        runner.wait();
        const RunSnapshot done = runner.snapshot();
        QVERIFY(!done.stoppedEarly);
        // Every request of the schedule was sent: the pause lost none.
        QCOMPARE(done.limiters.value(0).fired, 60);
        deleteKeys(scenario);

        Scenario real = scenario;
        real.traffic.clock.isVirtual = false;
        real.traffic.durationS = 0.5;
        ScenarioRunner realRunner(real, fixtureUrl());
        QVERIFY(!realRunner.setPaused(true));
        QVERIFY(!realRunner.paused());
    }

    void runIoReportsAFailedStart() {
        RunIo io;
        QSignalSpy failed(&io, &RunIo::runFailed);
        QSignalSpy started(&io, &RunIo::runStarted);
        io.startRun(smallScenario(), RedisUrl::parse(QStringLiteral("unix:///nonexistent/r.sock")));
        QTRY_COMPARE_WITH_TIMEOUT(failed.count(), 1, 30000);
        QCOMPARE(started.count(), 0);
        QVERIFY(!failed.at(0).at(0).toString().isEmpty());
    }
};

QTEST_GUILESS_MAIN(TestLive)
#include "tst_live.moc"
