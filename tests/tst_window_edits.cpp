// What the window shows between and around runs (offscreen, against the fixture Redis): the
// timelines preview an edited scenario before it runs; the comparison reads whole at 1024 x 700
// and the Runs list opens when asked.
#include <QAbstractButton>
#include <QAction>
#include <QApplication>
#include <QDockWidget>
#include <QLabel>
#include <QLineEdit>
#include <QLineSeries>
#include <QListWidget>
#include <QScrollBar>
#include <QSettings>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTableWidget>
#include <QToolBar>
#include <QtTest>

#include "charts/timeline_chart.h"
#include "editors/limiter_list_editor.h"
#include "editors/traffic_editor.h"
#include "panels/comparison_table.h"
#include "redis/redis_connection.h"
#include "run/run_controller.h"
#include "support/table_checks.h"
#include "support/test_redis.h"
#include "support/window_driving.h"
#include "window/connection_bar.h"
#include "window/main_window.h"
#include "window/run_history.h"

using namespace ratelab;
using namespace ratelab::test;

namespace {

LimiterSpec bucket(const QString& name, qint64 rate) {
    LimiterSpec spec;
    spec.type = LimiterType::TokenBucket;
    spec.name = uniqueName(name);
    spec.rate = rate;
    spec.intervalMs = 1000;
    return spec;
}

// Three token buckets at 10 per 1000 ms under 50 req/s for `seconds`, on a virtual clock.
Scenario threeBuckets(int seconds) {
    Scenario s;
    s.name = QStringLiteral("window edits");
    s.limiters = {bucket(QStringLiteral("edits-a"), 10), bucket(QStringLiteral("edits-b"), 10),
                  bucket(QStringLiteral("edits-c"), 10)};
    s.traffic.shape.type = ShapeSpec::Type::Constant;
    s.traffic.shape.rate = 50;
    s.traffic.durationS = seconds;
    s.traffic.clock.isVirtual = true;
    s.traffic.clock.speed = 1;
    s.traffic.clock.startMs = QDateTime::currentMSecsSinceEpoch();
    return s;
}

// A fixed window, a sliding window and a token bucket, each 10 per second, with names as long as
// the examples' ("demo-sliding"), under 25 req/s for 3 s, at 100 times the speed.
Scenario threeKinds() {
    Scenario s = threeBuckets(3);
    s.limiters[0].type = LimiterType::FixedWindow;
    s.limiters[0].interval = 1;
    s.limiters[0].unit = CalendarUnit::Seconds;
    s.limiters[0].timezone = "UTC";
    s.limiters[1].type = LimiterType::SlidingWindow;
    s.limiters[1].rules = {{10, 1000}};
    for (LimiterSpec& spec : s.limiters)
        spec.name = uniqueName(QStringLiteral("d")).left(12);
    s.traffic.shape.rate = 25;
    s.traffic.clock.speed = 100;
    return s;
}

// Runs `s` in the window to its end.
void runToEnd(MainWindow& w, const Scenario& s) {
    w.setScenario(s);
    QSignalSpy finished(w.controller(), &RunController::finished);
    w.startAction()->trigger();
    QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 20000);
}

void forget(const Scenario& s) {
    RedisConnection c(fixtureUrl());
    for (const LimiterSpec& spec : s.limiters)
        makeLimiter(spec)->reset(c);
}

}  // namespace

class TestWindowEdits : public QObject {
    Q_OBJECT

private slots:
    void initTestCase() {
        QStandardPaths::setTestModeEnabled(true);
        QCoreApplication::setOrganizationName(QStringLiteral("ratelab-test-edits"));
        QSettings().clear();
        qRegisterMetaType<RunSnapshot>();
    }

    // Removing limiters and changing the rate and the duration left the charts at three
    // limiters, 10 per 1000 ms over 60 s until Start. Between runs the timelines now preview
    // the edited scenario: its limiters, their limit lines and the axis of its duration.
    void timelinesPreviewEdits() {
        MainWindow w;
        w.resize(1600, 1000);
        w.show();
        w.setScenario(threeBuckets(60));
        QCOMPARE(w.timelines().size(), 3);
        QCOMPARE(w.timelines().value(0)->viewRange().second, 60.0);

        auto* list = w.findChild<LimiterListEditor*>();
        auto* rows = list->findChild<QListWidget*>(QStringLiteral("limiterList"));
        auto* remove = list->findChild<QAbstractButton*>(QStringLiteral("removeLimiter"));
        rows->setCurrentRow(2);
        remove->click();
        rows->setCurrentRow(1);
        remove->click();
        QCOMPARE(w.timelines().size(), 1);
        retype(list->findChild<QLineEdit*>(QStringLiteral("rate")), QStringLiteral("30"));
        retype(w.findChild<TrafficEditor*>()->findChild<QLineEdit*>(QStringLiteral("duration")),
               QStringLiteral("20"));

        QCOMPARE(w.timelines().size(), 1);
        TimelineChart* chart = w.timelines().value(0);
        QCOMPARE(chart->model().spec().rate, 30);
        QVERIFY2(chart->titleText().contains(QStringLiteral("30 per 1000 ms")),
                 qPrintable(chart->titleText()));
        const QList<QPointF> limit = chart->limitSeries()->points();
        QVERIFY(!limit.isEmpty());
        QCOMPARE(limit.first().y(), 3.0);  // 30 per 1000 ms: 3 per 100 ms bucket
        QCOMPARE(chart->viewRange().second, 20.0);
        w.setWindowModified(false);
    }

    // The reason Start is disabled went stale: it said got "a" while the field held "abc"
    // (it was updated only when the limiters' validity flipped). It follows the typing.
    void startReasonFollowsTyping() {
        MainWindow w;
        w.show();
        w.setScenario(threeBuckets(10));
        QLineEdit* rate =
            w.findChild<LimiterListEditor*>()->findChild<QLineEdit*>(QStringLiteral("rate"));
        rate->setFocus();
        rate->selectAll();
        QTest::keyClicks(rate, QStringLiteral("a"));
        QVERIFY2(w.startBlockedText().contains(QStringLiteral("\"a\"")),
                 qPrintable(w.startBlockedText()));
        QTest::keyClicks(rate, QStringLiteral("bc"));
        QVERIFY2(w.startBlockedText().contains(QStringLiteral("\"abc\"")),
                 qPrintable(w.startBlockedText()));
        QVERIFY(!w.startAction()->isEnabled());
        rate->selectAll();
        QTest::keyClicks(rate, QStringLiteral("20"));
        QVERIFY2(!w.startBlockedText().contains(QStringLiteral("rate")),
                 qPrintable(w.startBlockedText()));
        w.setWindowModified(false);
    }

    // After File → New the status line still showed the previous run's accounting. Another
    // scenario now starts with an empty status line and comparison (the Runs list keeps it).
    void newScenarioForgetsTheRun() {
        MainWindow w;
        w.show();
        connectToFixture(w);
        const Scenario s = threeKinds();
        runToEnd(w, s);
        auto* status = w.findChild<QLabel*>(QStringLiteral("accountingLine"));
        QVERIFY(status->text().contains(s.limiters[0].name));
        QVERIFY(w.document()->newScenario());
        QCOMPARE(status->text(), QString());
        QCOMPARE(w.comparison()->row(0), QStringList());
        QCOMPARE(w.runHistory()->rowCount(), 1);
        forget(s);
        w.setWindowModified(false);
    }

    void stopFollowsThePausedRun_data() {
        QTest::addColumn<bool>("pauseDuringRun");
        QTest::newRow("paused during the run") << true;
        QTest::newRow("paused after it ended") << false;
    }

    // Paused, Stop stays enabled exactly while a run is under way: a real clock's run ends
    // behind the paused view and disables it; Pause after the end does not enable it.
    void stopFollowsThePausedRun() {
        QFETCH(bool, pauseDuringRun);
        MainWindow w;
        w.show();
        connectToFixture(w);
        Scenario s = threeKinds();
        s.traffic.durationS = 1;
        s.traffic.clock.isVirtual = false;
        w.setScenario(s);
        auto* pause = w.findChild<QAction*>(QStringLiteral("pauseView"));
        auto* stop = w.findChild<QAction*>(QStringLiteral("stop"));
        QSignalSpy started(w.controller(), &RunController::started);
        QSignalSpy finished(w.controller(), &RunController::finished);
        w.startAction()->trigger();
        QTRY_COMPARE_WITH_TIMEOUT(started.count(), 1, 10000);
        if (pauseDuringRun) {
            pause->trigger();
            QVERIFY(stop->isEnabled());
        }
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 10000);
        if (!pauseDuringRun)
            pause->trigger();
        QVERIFY(pause->isChecked());
        QVERIFY(!stop->isEnabled());
        pause->trigger();
        QVERIFY(!stop->isEnabled());
        forget(s);
        w.setWindowModified(false);
    }

    // Made smaller (1600 to 1024 px), the window kept its timelines as wide as before (a
    // chart's minimum grew with its width and never came down), cut behind a scroll bar. They
    // fit the narrower window.
    void timelinesFitANarrowerWindow() {
        MainWindow w;
        w.resize(1600, 1000);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        w.setScenario(threeBuckets(30));
        QTest::qWait(100);
        w.resize(1024, 700);
        QTest::qWait(100);
        auto* scroll = qobject_cast<QAbstractScrollArea*>(w.views()->widget(0));
        QVERIFY(scroll);
        for (TimelineChart* chart : w.timelines()) {
            QVERIFY2(chart->width() <= scroll->viewport()->width(),
                     qPrintable(QStringLiteral("%1 px in %2")
                                    .arg(chart->width())
                                    .arg(scroll->viewport()->width())));
        }
        QVERIFY(!scroll->horizontalScrollBar()->isVisible());
        w.setWindowModified(false);
    }

    // At 1024 x 700 the comparison read "dem…" and "Rejecte" in two and a half rows, and the
    // Runs list opened by itself after the run, taking a quarter of the height. Now every name,
    // header and row of the table reads whole beside the scenario dock, and the list opens when
    // asked (the run toolbar's Runs, View → Runs).
    void comparisonReadsAt1024() {
        MainWindow w;
        w.resize(1024, 700);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        connectToFixture(w);
        const Scenario s = threeKinds();
        runToEnd(w, s);
        QVERIFY(w.runsDock()->isHidden());
        w.views()->setCurrentIndex(1);
        QCoreApplication::processEvents();

        auto* table = w.comparison()->findChild<QTableWidget*>(QStringLiteral("comparison"));
        QVERIFY(table);
        QCOMPARE(table->rowCount(), 3);
        QString cut;
        QVERIFY2(columnsWhole(table, &cut), qPrintable(cut));
        QVERIFY(!table->verticalScrollBar()->isVisible());
        QVERIFY(table->visibleRegion().boundingRect().height() >= table->height() - 2);

        QAction* runs = w.runsDock()->toggleViewAction();
        auto* toolbar = w.findChild<QToolBar*>(QStringLiteral("runToolbar"));
        QVERIFY(toolbar->actions().contains(runs));
        QCOMPARE(runs->iconText(), QStringLiteral("Runs"));
        runs->trigger();
        QVERIFY(w.runsDock()->isVisible());
        QCOMPARE(w.runHistory()->rowCount(), 1);
        forget(s);
        w.setWindowModified(false);
    }
};

QTEST_MAIN(TestWindowEdits)
#include "tst_window_edits.moc"
