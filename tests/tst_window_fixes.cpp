// Window behaviour, offscreen against the fixture Redis: a bad URL keeps the working connection
// and says why under the field, the connection status reads whole at 1024 px, quitting waits for
// the abandoned limiters' keys to go, a long scenario name shows its start.
#include <QAbstractButton>
#include <QAction>
#include <QApplication>
#include <QDockWidget>
#include <QLabel>
#include <QLineEdit>
#include <QMessageBox>
#include <QSettings>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QStatusBar>
#include <QTimer>
#include <QtTest>

#include "charts/timeline_chart.h"
#include "editors/limiter_list_editor.h"
#include "run/run_controller.h"
#include "support/test_redis.h"
#include "support/window_driving.h"
#include "window/connection_bar.h"
#include "window/decision_panel.h"
#include "window/main_window.h"
#include "window/run_history.h"

using namespace ratelab;
using namespace ratelab::test;

namespace {

Scenario bucketScenario(int seconds) {
    Scenario s;
    s.name = QStringLiteral("window fixes");
    LimiterSpec bucket;
    bucket.type = LimiterType::TokenBucket;
    bucket.name = uniqueName(QStringLiteral("fix-tb"));
    bucket.rate = 10;
    bucket.intervalMs = 1000;
    s.limiters = {bucket};
    s.traffic.shape.type = ShapeSpec::Type::Constant;
    s.traffic.shape.rate = 50;
    s.traffic.durationS = seconds;
    s.traffic.clock.isVirtual = true;
    s.traffic.clock.speed = 1;
    s.traffic.clock.startMs = QDateTime::currentMSecsSinceEpoch();
    return s;
}

}  // namespace

class TestWindowFixes : public QObject {
    Q_OBJECT

private slots:
    void initTestCase() {
        QStandardPaths::setTestModeEnabled(true);
        QCoreApplication::setOrganizationName(QStringLiteral("ratelab-test-fixes"));
        QSettings().clear();
        qRegisterMetaType<RunSnapshot>();
    }

    void badUrl_data() {
        QTest::addColumn<QString>("url");
        QTest::addColumn<QString>("says");
        QTest::newRow("port out of range")
            << QStringLiteral("redis://127.0.0.1:99999") << QStringLiteral("port");
        QTest::newRow("no scheme") << QStringLiteral("localhost:6379") << QStringLiteral("://");
        QTest::newRow("other scheme")
            << QStringLiteral("http://host:6379") << QStringLiteral("http");
    }

    // A URL that cannot be parsed replaced the working connection's status with its error (and
    // an earlier version stopped the managed server first). Now the managed server keeps
    // serving, its status stays, and the parser's message shows under the field.
    void badUrl() {
        QFETCH(QString, url);
        QFETCH(QString, says);
        MainWindow w;  // connects to the managed local server (the default)
        w.show();
        ConnectionBar* bar = w.connectionBar();
        QTRY_VERIFY_WITH_TIMEOUT(bar->connected(), 15000);
        const QString working = bar->statusText();
        QVERIFY2(working.contains(QStringLiteral("managed local server")), qPrintable(working));
        QSignalSpy lost(bar, &ConnectionBar::targetLost);
        QSignalSpy ready(bar, &ConnectionBar::targetReady);
        bar->setUseManagedServer(false);
        bar->setUrlText(url);
        bar->connectToRedis();
        QTest::qWait(300);  // a probe, had one been started, would have answered
        QVERIFY(bar->connected());
        QCOMPARE(lost.count(), 0);
        QCOMPARE(ready.count(), 0);
        QVERIFY2(bar->statusText().startsWith(QStringLiteral("connected · managed local server")),
                 qPrintable(bar->statusText()));
        auto* error = bar->findChild<QLabel*>(QStringLiteral("redisUrlError"));
        QVERIFY(error);
        QVERIFY(error->isVisible());
        QVERIFY2(error->text().contains(says, Qt::CaseInsensitive), qPrintable(error->text()));
        // Typing again clears the message.
        QTest::keyClick(bar->findChild<QLineEdit*>(QStringLiteral("redisUrl")), Qt::Key_Backspace);
        QVERIFY(!error->isVisible());
        w.setWindowModified(false);
    }

    // At 1024x700 the status read "connected · managed local server · redis 7." and stopped.
    void statusReadsWholeAt1024() {
        MainWindow w;
        w.resize(1024, 700);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        ConnectionBar* bar = w.connectionBar();
        QTRY_VERIFY_WITH_TIMEOUT(bar->connected(), 15000);
        auto* status = bar->findChild<QLabel*>(QStringLiteral("redisStatus"));
        QVERIFY(status);
        QTRY_VERIFY(status->isVisible());
        const int needed = status->fontMetrics().horizontalAdvance(status->text());
        QVERIFY2(status->contentsRect().width() >= needed,
                 qPrintable(QStringLiteral("%1 px for %2 px: %3")
                                .arg(status->contentsRect().width())
                                .arg(needed)
                                .arg(status->text())));
        QCOMPARE(status->toolTip(), status->text());
        w.setWindowModified(false);
    }

    // At 1024x700 the decisions dock was a strip of four lines, however opened: the editors'
    // least height bounded it. The editors now scroll; the dock gets two fifths of the height.
    void decisionsDockHasRoomAt1024() {
        MainWindow w;
        w.resize(1024, 700);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        auto* dock = qobject_cast<QDockWidget*>(w.decisions()->parentWidget());
        QVERIFY(dock != nullptr && dock->isHidden());
        dock->toggleViewAction()->trigger();
        QVERIFY(dock->isVisible());
        QTRY_VERIFY2(dock->height() >= w.height() * 2 / 5 - 10,
                     qPrintable(QStringLiteral("%1 of %2").arg(dock->height()).arg(w.height())));
        w.setWindowModified(false);
    }

    // Stepped requests were listed in the decision panel only; each is now marked on every
    // limiter's timeline at its run time with its outcome there.
    void steppedRequestsAreMarked() {
        MainWindow w;
        w.show();
        connectToFixture(w);
        Scenario s = bucketScenario(5);
        s.traffic.shape.rate = 0.5;  // two seconds apart: one marker each
        s.traffic.durationS = 10;
        w.setScenario(s);
        QSignalSpy decided(w.controller(), &RunController::decided);
        for (int i = 1; i <= 3; ++i) {
            w.stepAction()->trigger();
            QTRY_COMPARE_WITH_TIMEOUT(decided.count(), i, 10000);
        }
        const QVector<TimelineModel::Marker>& markers = w.timelines().value(0)->model().markers();
        QCOMPARE(markers.size(), 3);
        for (int i = 0; i < 3; ++i) {
            QCOMPARE(markers[i].label, QStringLiteral("request #%1: allowed").arg(i));
            QCOMPARE(markers[i].x, 2.0 * i);
        }
        RedisConnection c(fixtureUrl());
        makeLimiter(s.limiters[0])->reset(c);
        w.setWindowModified(false);
    }

    // Start after Step began again from request #0 on reset keys, dropping the stepped
    // requests. It now reads "Continue" and the run goes on from the next request: the step
    // marks and the decision list stay, and the totals count the stepped requests once.
    void startContinuesTheSteps() {
        MainWindow w;
        w.resize(1600, 1000);
        w.show();
        connectToFixture(w);
        Scenario s = bucketScenario(2);  // 50/s for 2 s: 100 requests
        s.traffic.clock.speed = 0;
        w.setScenario(s);
        QCOMPARE(w.startAction()->text(), QStringLiteral("Start"));
        QSignalSpy decided(w.controller(), &RunController::decided);
        for (int i = 1; i <= 3; ++i) {
            w.stepAction()->trigger();
            QTRY_COMPARE_WITH_TIMEOUT(decided.count(), i, 10000);
        }
        QCOMPARE(w.startAction()->text(), QStringLiteral("Continue"));
        QVERIFY(w.startAction()->toolTip().contains(QStringLiteral("from request #3")));

        QSignalSpy finished(w.controller(), &RunController::finished);
        w.startAction()->trigger();
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 20000);
        const RunSnapshot run = finished.first().first().value<RunSnapshot>();
        QCOMPARE(run.scheduled, 100);
        QCOMPARE(run.limiters[0].fired, 100);
        // 10 permits in any second (Redisson): 20 in 2 s, the 3 stepped ones among them; a run
        // that reset the keys after the steps would have let 23 through.
        QCOMPARE(run.limiters[0].accepted, 20);
        QCOMPARE(w.decisions()->requestCount(), 3);
        // The Runs list opened beside the step decisions gets the width its columns need (at
        // most half the window, and what the decisions leave): it was a narrow strip that cut
        // every cell.
        QVERIFY(w.runsDock()->isHidden());  // opened when asked
        w.runsDock()->toggleViewAction()->trigger();
        QVERIFY(w.runsDock()->isVisible());
        auto* decisionsDock = qobject_cast<QDockWidget*>(w.decisions()->parentWidget());
        QVERIFY(decisionsDock != nullptr && decisionsDock->isVisible());
        const int wanted = std::min(w.runHistory()->preferredWidth(), w.width() / 2);
        QTRY_VERIFY2(w.runsDock()->width() >= wanted - 8 ||
                         decisionsDock->width() <= decisionsDock->minimumSizeHint().width() + 8,
                     qPrintable(QStringLiteral("runs %1 (wanted %2), decisions %3 (minimum %4)")
                                    .arg(w.runsDock()->width())
                                    .arg(wanted)
                                    .arg(decisionsDock->width())
                                    .arg(decisionsDock->minimumSizeHint().width())));
        int stepMarks = 0;
        for (const TimelineModel::Marker& m : w.timelines().value(0)->model().markers())
            stepMarks += int(m.label.count(QStringLiteral("request #")));  // 20 ms apart: merged
        QCOMPARE(stepMarks, 3);
        QCOMPARE(w.startAction()->text(), QStringLiteral("Start"));  // the steps are spent

        // Stepped again, then edited: the steps no longer fit the scenario, Start starts anew.
        w.stepAction()->trigger();
        QTRY_COMPARE_WITH_TIMEOUT(decided.count(), 4, 10000);
        QCOMPARE(w.startAction()->text(), QStringLiteral("Continue"));
        s.limiters[0].rate = 20;
        w.setScenario(s);
        QCOMPARE(w.startAction()->text(), QStringLiteral("Start"));
        RedisConnection c(fixtureUrl());
        makeLimiter(s.limiters[0])->reset(c);
        w.setWindowModified(false);
    }

    // Pause froze the view only, whatever the clock. A virtual clock now stops (the run with
    // it); with a real clock the window says that only the view is frozen.
    void pauseSaysWhatItFreezes_data() {
        QTest::addColumn<bool>("virtualClock");
        QTest::newRow("virtual") << true;
        QTest::newRow("real") << false;
    }
    void pauseSaysWhatItFreezes() {
        QFETCH(bool, virtualClock);
        MainWindow w;
        w.show();
        connectToFixture(w);
        Scenario s = bucketScenario(30);
        s.traffic.clock.isVirtual = virtualClock;
        w.setScenario(s);
        QSignalSpy started(w.controller(), &RunController::started);
        w.startAction()->trigger();
        QTRY_COMPARE_WITH_TIMEOUT(started.count(), 1, 10000);
        QTRY_VERIFY_WITH_TIMEOUT(w.lastSnapshot().limiters.value(0).fired > 0, 5000);
        auto* pause = w.findChild<QAction*>(QStringLiteral("pauseView"));
        QVERIFY(pause->toolTip().contains(QStringLiteral("virtual clock")));
        QVERIFY(pause->toolTip().contains(QStringLiteral("real clock")));
        pause->trigger();
        QCOMPARE(w.controller()->runPaused(), virtualClock);
        const QString said = w.statusBar()->currentMessage();
        QVERIFY2(said.contains(virtualClock ? QStringLiteral("virtual clock is stopped")
                                            : QStringLiteral("real clock cannot stop")),
                 qPrintable(said));
        if (virtualClock) {
            QTest::qWait(300);  // a batch in flight ends
            const qint64 fired = w.lastSnapshot().limiters.value(0).fired;
            QTest::qWait(400);
            QCOMPARE(w.lastSnapshot().limiters.value(0).fired, fired);
        }
        pause->trigger();
        QVERIFY(!w.controller()->runPaused());
        QSignalSpy finished(w.controller(), &RunController::finished);
        w.controller()->stop();
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 30000);
        RedisConnection c(fixtureUrl());
        makeLimiter(s.limiters[0])->reset(c);
        w.setWindowModified(false);
    }

    // A long scenario name showed its end ("...limiters under a sine wave") in the field.
    void longScenarioNameShowsItsStart() {
        MainWindow w;
        w.resize(1024, 700);
        w.show();
        Scenario s = bucketScenario(1);
        s.name = QStringLiteral(
            "Three limiters side by side under a slow sine wave of "
            "requests from twelve clients for a class");
        w.setScenario(s);
        auto* name = w.findChild<QLineEdit*>(QStringLiteral("scenarioName"));
        QVERIFY(name);
        QCOMPARE(name->text(), s.name);
        QCOMPARE(name->cursorPosition(), 0);
        w.setWindowModified(false);
    }

    // Quitting right after a confirmed rename mid-run left the old name's keys in Redis: their
    // deletion was posted to the I/O thread, which ended with the window before running it. Now
    // closing waits (at most MainWindow::kQuitWaitMs, saying so) until the run stopped and the keys
    // are gone.
    void quitWaitsForAbandonedKeys() {
        auto w = std::make_unique<MainWindow>();
        w->show();
        connectToFixture(*w);
        const Scenario scenario = bucketScenario(30);
        const LimiterSpec old = scenario.limiters[0];
        w->setScenario(scenario);
        QSignalSpy started(w->controller(), &RunController::started);
        w->startAction()->trigger();
        QTRY_COMPARE_WITH_TIMEOUT(started.count(), 1, 10000);
        QTRY_VERIFY_WITH_TIMEOUT(w->lastSnapshot().limiters.value(0).fired > 0, 5000);
        auto* name =
            w->findChild<LimiterListEditor*>()->findChild<QLineEdit*>(QStringLiteral("name"));
        name->setFocus();
        name->end(false);
        QTest::keyClicks(name, QStringLiteral("-v2"));
        // Redis slow for a moment: the I/O thread is inside a state read when the deletion is
        // posted behind it, as on a loaded server.
        RedisConnection pauser(fixtureUrl());
        pauser.command({"CLIENT", "PAUSE", "600", "ALL"});
        QTest::qWait(250);
        answerMessageBox(QStringLiteral("confirmRename"), QMessageBox::Yes);
        QTest::keyClick(name, Qt::Key_Return);
        QCOMPARE(w->currentScenario()->limiters[0].name, old.name + QStringLiteral("-v2"));
        w->setWindowModified(false);
        QVERIFY(w->close());
        const QString said = w->statusBar()->currentMessage();
        w.reset();  // the I/O thread ends here
        RedisConnection c(fixtureUrl());
        LimiterSpec renamed = old;
        renamed.name += QStringLiteral("-v2");
        const long long left = keyCount(c, old);
        makeLimiter(renamed)->reset(c);
        makeLimiter(old)->reset(c);
        QCOMPARE(left, 0LL);  // no QTRY: gone by the time the window closed
        QVERIFY2(said.contains(QStringLiteral("deleting")), qPrintable(said));
    }
};

QTEST_MAIN(TestWindowFixes)
#include "tst_window_fixes.moc"
