// The window's run model without a window (ui/run/run_session.h): what the editors stand for,
// why Start cannot act, Continue after Step, and the live edits of a running test's limiters.
#include <QSignalSpy>
#include <QtTest>

#include "redis/redis_reply.h"
#include "run/run_controller.h"
#include "run/run_session.h"
#include "support/test_redis.h"

using namespace ratelab;
using namespace ratelab::test;

namespace {

LimiterSpec window(const QString& name, qint64 rate = 5) {
    LimiterSpec spec;
    spec.type = LimiterType::FixedWindow;
    spec.name = name;
    spec.rate = rate;
    spec.interval = 1;
    spec.unit = CalendarUnit::Seconds;
    spec.timezone = QByteArrayLiteral("UTC");
    return spec;
}

TrafficSpec traffic(bool virtualClock, double seconds) {
    TrafficSpec t;
    t.shape.type = ShapeSpec::Type::Constant;
    t.shape.rate = 20;
    t.durationS = seconds;
    t.clock.isVirtual = virtualClock;
    t.clock.speed = virtualClock ? 0 : 1;
    t.clock.startMs = 1'704'067'200'000;
    return t;
}

}  // namespace

class TestRunSession : public QObject {
    Q_OBJECT

    // What the "editors" of these tests hold.
    RunSession::Editors editors_;

    void attach(RunSession& session) {
        session.setEditors([this] { return editors_; });
    }

private slots:
    void init() {
        editors_ = RunSession::Editors{};
        editors_.name = QStringLiteral("session");
        editors_.limiters = QVector<LimiterSpec>{window(uniqueName(QStringLiteral("rs")))};
        editors_.traffic = traffic(true, 1);
    }

    // Start says why it cannot act, naming the first thing in the way.
    void readinessSaysWhy_data() {
        QTest::addColumn<bool>("limitersValid");
        QTest::addColumn<bool>("trafficValid");
        QTest::addColumn<bool>("connected");
        QTest::addColumn<QString>("blockedBy");
        QTest::newRow("ready") << true << true << true << QString();
        QTest::newRow("limiters") << false << true << true
                                  << QStringLiteral("Cannot start: $.limiters[0].rate: too big");
        QTest::newRow("traffic") << true << false << true
                                 << QStringLiteral("Cannot start: duration_s: must be positive");
        QTest::newRow("Redis") << true << true << false
                               << QStringLiteral("Cannot start: not connected to Redis");
    }
    void readinessSaysWhy() {
        QFETCH(bool, limitersValid);
        QFETCH(bool, trafficValid);
        QFETCH(bool, connected);
        QFETCH(QString, blockedBy);
        RunController controller;
        RunSession session(&controller);
        attach(session);
        if (!limitersValid) {
            editors_.limiters.reset();
            editors_.limitersError = QStringLiteral("$.limiters[0].rate: too big");
        }
        if (!trafficValid) {
            editors_.traffic.reset();
            editors_.trafficError = QStringLiteral("duration_s: must be positive");
        }
        QSignalSpy changed(&session, &RunSession::readinessChanged);
        session.setConnected(connected);
        QCOMPARE(changed.count(), 1);
        const RunSession::Readiness r = session.readiness();
        QCOMPARE(r.blockedBy, blockedBy);
        QCOMPARE(r.canStart, blockedBy.isEmpty());
        QCOMPARE(r.canStep, blockedBy.isEmpty());
        QVERIFY(!r.canStop);
        QCOMPARE(session.currentScenario().has_value(), limitersValid && trafficValid);
    }

    // A loaded file's checks and sweep go back into a save while their limiters still exist.
    void currentScenarioKeepsWhatStillReads() {
        RunController controller;
        RunSession session(&controller);
        attach(session);
        const QString name = editors_.limiters->front().name;
        Scenario loaded;
        loaded.limiters = *editors_.limiters;
        Expectation onIt;
        onIt.limiter = name;
        onIt.metric = QStringLiteral("accepted");
        onIt.op = CompareOp::LessEqual;
        onIt.threshold = 10;
        Expectation onAll = onIt;
        onAll.limiter = QStringLiteral("*");
        loaded.expectations = {onIt, onAll};
        session.loadScenario(loaded);
        QCOMPARE(session.currentScenario()->expectations.size(), 2);
        (*editors_.limiters)[0].name = name + QStringLiteral("-renamed");
        const Scenario renamed = *session.currentScenario();
        QCOMPARE(renamed.expectations.size(), 1);  // the renamed limiter's check is gone
        QCOMPARE(renamed.expectations.front().limiter, QStringLiteral("*"));
        editors_.name = QStringLiteral("  ");
        QCOMPARE(session.currentScenario()->name, QStringLiteral("untitled"));
    }

    // After a Step, Start continues from the next request; a changed scenario starts afresh.
    void continueAfterStep() {
        RunController controller;
        controller.setRedisUrl(fixtureUrl());
        RunSession session(&controller);
        attach(session);
        session.setConnected(true);
        QSignalSpy started(&session, &RunSession::stepSessionStarting);
        QSignalSpy stepped(&controller, &RunController::stepped);
        session.step();
        QVERIFY(stepped.wait(10000));
        session.step();
        QVERIFY(stepped.wait(10000));
        QCOMPARE(started.count(), 1);  // the second step goes on with the same session
        QCOMPARE(session.readiness().continues, 2);
        (*editors_.limiters)[0].rate = 6;
        QCOMPARE(session.readiness().continues, 0);
        QSignalSpy runStarting(&session, &RunSession::runStarting);
        QSignalSpy finished(&controller, &RunController::finished);
        session.start();
        QCOMPARE(runStarting.count(), 1);
        QCOMPARE(runStarting.first().at(1).toBool(), false);  // afresh: not the stepped scenario
        QVERIFY(finished.wait(20000));
        session.close();
        QVERIFY(controller.settle(5000));
    }

    // A running limiter renamed: asked first; declined, the editor gets the old name back and
    // nothing reaches the run; accepted, the run decides on the new name and the old keys go.
    void renameWhileRunning_data() {
        QTest::addColumn<bool>("accept");
        QTest::newRow("declined") << false;
        QTest::newRow("accepted") << true;
    }
    void renameWhileRunning() {
        QFETCH(bool, accept);
        editors_.traffic = traffic(false, 30);
        RunController controller;
        controller.setRedisUrl(fixtureUrl());
        RunSession session(&controller);
        attach(session);
        session.setConnected(true);
        QStringList asked;
        session.setRenameQuestion([&](const QString& from, const QString& to) {
            asked << from + QStringLiteral(" -> ") + to;
            return accept;
        });
        const QString old = editors_.limiters->front().name;
        QSignalSpy started(&controller, &RunController::started);
        session.start();
        QVERIFY(started.wait(10000));
        QVERIFY(session.readiness().canStop);
        // The old name's keys exist once the run decided on it.
        const auto connection = connectFixture();
        const std::string pattern = "{" + old.toStdString() + "}:*";
        QTRY_VERIFY_WITH_TIMEOUT(
            replyInteger(
                connection->command({"EVAL", "return #redis.call('KEYS', ARGV[1])", "0", pattern})
                    .get(),
                "KEYS") > 0,
            10000);
        QSignalSpy declined(&session, &RunSession::renameDeclined);
        QSignalSpy applied(&session, &RunSession::limiterApplied);
        const QString renamed = old + QStringLiteral("-new");
        (*editors_.limiters)[0].name = renamed;
        session.limitersEdited();
        QCOMPARE(asked, QStringList{old + QStringLiteral(" -> ") + renamed});
        if (accept) {
            QCOMPARE(declined.count(), 0);
            QCOMPARE(applied.count(), 1);
            QCOMPARE(applied.first().at(2).value<RunSession::StateChange>(),
                     RunSession::StateChange::Renamed);
        } else {
            QCOMPARE(declined.count(), 1);
            QCOMPARE(declined.first().at(1).value<LimiterSpec>().name, old);
            QCOMPARE(applied.count(), 0);
        }
        QSignalSpy finished(&controller, &RunController::finished);
        session.stop();
        QVERIFY(finished.wait(10000));
        session.close();
        QVERIFY(controller.settle(5000));
        const auto keysOf = [&](const QString& name) {
            return replyInteger(connection
                                    ->command({"EVAL", "return #redis.call('KEYS', ARGV[1])", "0",
                                               "{" + name.toStdString() + "}:*"})
                                    .get(),
                                "KEYS");
        };
        // Accepted, the old name's keys are gone; declined, the run kept deciding on them.
        QCOMPARE(keysOf(old) == 0, accept);
        for (const QString& name : {old, renamed}) {
            connection->command({"EVAL",
                                 "for _, k in ipairs(redis.call('KEYS', ARGV[1])) do "
                                 "redis.call('DEL', k) end return 0",
                                 "0", "{" + name.toStdString() + "}:*"});
        }
    }
};

QTEST_MAIN(TestRunSession)
#include "tst_run_session.moc"
