// The run view's fan-out without Redis: what the RunController reports (its signals, emitted
// by the test) reaches every timeline and panel; paused, the newest snapshot waits and is
// drawn on resume; steps and live edits become markers on each limiter's timeline.
#include <QScatterSeries>
#include <QSignalSpy>
#include <QTableWidget>
#include <QtTest>
#include <memory>

#include "charts/time_axis.h"
#include "charts/timeline_chart.h"
#include "panels/comparison_table.h"
#include "panels/disagreement_table.h"
#include "run/run_controller.h"
#include "run/run_view.h"

using ratelab::FailoverEvent;
using ratelab::LimiterSnapshot;
using ratelab::LimiterSpec;
using ratelab::LimiterType;
using ratelab::RunController;
using ratelab::RunSnapshot;
using ratelab::RunView;
using ratelab::Scenario;
using ratelab::StepSession;
using ratelab::TimelineChart;

namespace {

constexpr qint64 kStart = 1'700'000'040'000;

Scenario twoLimiters() {
    Scenario s;
    s.name = QStringLiteral("fan-out");
    for (const char* name : {"first", "second"}) {
        LimiterSpec spec;
        spec.type = LimiterType::TokenBucket;
        spec.name = QLatin1String(name);
        spec.rate = 10;
        spec.intervalMs = 1000;
        s.limiters << spec;
    }
    s.traffic.durationS = 20;
    s.bucketMs = 100;
    return s;
}

// The run at `elapsedMs`, `accepted` of each limiter's decisions accepted in its first bucket.
RunSnapshot runAt(const Scenario& scenario, qint64 elapsedMs, qint64 accepted) {
    RunSnapshot run;
    run.scenarioName = scenario.name;
    run.startEpochMs = kStart;
    run.bucketMs = scenario.bucketMs;
    run.elapsedUs = elapsedMs * 1000;
    run.durationUs = qint64(scenario.traffic.durationS * 1e6);
    for (const LimiterSpec& spec : scenario.limiters) {
        LimiterSnapshot l;
        l.spec = spec;
        l.fired = l.accepted = accepted;
        l.bucketAccepted = QVector<qint64>(200, 0);
        l.bucketAccepted[0] = accepted;
        l.bucketRejected = l.bucketErrors = QVector<qint64>(200, 0);
        run.limiters << l;
    }
    return run;
}

}  // namespace

class TestRunView : public QObject {
    Q_OBJECT

    // A view of twoLimiters(), its controller never connected: the test emits its signals.
    std::unique_ptr<RunController> controller_;
    std::unique_ptr<RunView> view_;
    const Scenario scenario_ = twoLimiters();

private slots:
    void init() {
        controller_ = std::make_unique<RunController>();
        view_ = std::make_unique<RunView>(controller_.get());
        view_->showScenario(scenario_);
    }
    void cleanup() {
        view_.reset();
        controller_.reset();
    }

    // Before a run the fixed window's calendar windows ignored a virtual start of .900 s and
    // fell on whole run seconds; they fall where the run will have them, the first boundary at
    // 0.1 s.
    void previewWindowsFollowAVirtualStart() {
        Scenario s = scenario_;
        LimiterSpec fixed;
        fixed.type = LimiterType::FixedWindow;
        fixed.name = QStringLiteral("fixed");
        fixed.rate = 10;
        fixed.interval = 1;
        fixed.unit = ratelab::CalendarUnit::Seconds;
        fixed.timezone = "UTC";
        s.limiters = {fixed};
        s.traffic.clock.isVirtual = true;
        s.traffic.clock.startMs = kStart + 900;
        view_->showScenario(s);
        ratelab::TimelineModel model = view_->timelines().value(0)->model();
        const QVector<ratelab::TimelineModel::Band> bands = model.bands(0, 5);
        QVERIFY(bands.size() >= 5);
        QVERIFY2(std::abs(bands[0].x1 - 0.1) < 1e-9, qPrintable(QString::number(bands[0].x1)));
        QVERIFY(std::abs(bands[1].x1 - 1.1) < 1e-9);
    }

    void snapshotReachesEveryView() {
        QCOMPARE(view_->timelines().size(), 2);
        for (TimelineChart* chart : view_->timelines())
            QCOMPARE(chart->timeAxis(), view_->timeAxis());
        QSignalSpy accounting(view_.get(), &RunView::accountingChanged);
        emit controller_->snapshotReady(runAt(scenario_, 4000, 7));
        QCOMPARE(view_->lastSnapshot().elapsedUs, 4'000'000);
        for (TimelineChart* chart : view_->timelines())
            QCOMPARE(chart->model().elapsedSeconds(), 4.0);
        QCOMPARE(view_->comparison()->row(1).value(0), QStringLiteral("second"));
        QCOMPARE(accounting.count(), 1);
        QCOMPARE(accounting.first().value(0).toString(),
                 QStringLiteral("first: fired 7 = accepted 7 + rejected 0 + errors 0   ·   "
                                "second: fired 7 = accepted 7 + rejected 0 + errors 0"));
    }

    // Paused: the accounting goes on, the views wait; resumed: the newest snapshot is drawn.
    void pausedHoldsTheNewestSnapshot() {
        emit controller_->snapshotReady(runAt(scenario_, 2000, 1));
        view_->setPaused(true);
        QVERIFY(!view_->timeAxis()->following());
        for (TimelineChart* chart : view_->timelines())
            QVERIFY(!chart->following());
        QSignalSpy accounting(view_.get(), &RunView::accountingChanged);
        emit controller_->snapshotReady(runAt(scenario_, 5000, 3));
        emit controller_->snapshotReady(runAt(scenario_, 6000, 4));
        QCOMPARE(accounting.count(), 2);
        QCOMPARE(view_->lastSnapshot().elapsedUs, 6'000'000);
        for (TimelineChart* chart : view_->timelines())
            QCOMPARE(chart->model().elapsedSeconds(), 2.0);
        view_->setPaused(false);
        for (TimelineChart* chart : view_->timelines()) {
            QVERIFY(chart->following());
            QCOMPARE(chart->model().elapsedSeconds(), 6.0);
        }
    }

    // Each stepped request marked on every limiter's timeline with its outcome there, numbered
    // from 0 as `ratelab explain --request` numbers it (index 2: "request #2").
    void stepsMarkEveryTimeline_data() {
        QTest::addColumn<bool>("allowed");
        QTest::addColumn<QString>("error");
        QTest::addColumn<QString>("label");
        QTest::newRow("allowed") << true << QString() << "request #2: allowed";
        QTest::newRow("rejected") << false << QString() << "request #2: rejected";
        QTest::newRow("error") << false << "timeout"
                               << "request #2: error";
    }
    void stepsMarkEveryTimeline() {
        QFETCH(bool, allowed);
        QFETCH(QString, error);
        QFETCH(QString, label);
        emit controller_->snapshotReady(runAt(scenario_, 1000, 1));
        StepSession::Step step;
        step.index = 2;
        step.nowMs = kStart + 1500;
        step.decisions.resize(2);
        step.decisions[0].allowed = step.decisions[1].allowed = allowed;
        step.errors = QStringList{error, error};
        emit controller_->decided(step,
                                  QStringList{QStringLiteral("first"), QStringLiteral("second")});
        for (TimelineChart* chart : view_->timelines()) {
            QCOMPARE(chart->model().markers().size(), 1);
            QCOMPARE(chart->model().markers()[0].x, 1.5);
            QCOMPARE(chart->model().markers()[0].label, label);
        }
    }

    // A Sentinel failover is marked once on every limiter's timeline, at its run time.
    void failoverMarksEveryTimeline() {
        RunSnapshot run = runAt(scenario_, 3000, 1);
        run.failovers = {FailoverEvent{2500000, QStringLiteral("10.0.0.1:6379"),
                                       QStringLiteral("10.0.0.2:6379")}};
        emit controller_->snapshotReady(run);
        emit controller_->snapshotReady(run);  // the same failover again: no second mark
        for (TimelineChart* chart : view_->timelines()) {
            QCOMPARE(chart->model().markers().size(), 1);
            QCOMPARE(chart->model().markers()[0].x, 2.5);
            QCOMPARE(chart->model().markers()[0].label,
                     QStringLiteral("Sentinel failover: primary 10.0.0.1:6379 → 10.0.0.2:6379"));
        }
    }

    // A finished run's admitted bursts are marked; a Step or run that follows it on the same
    // virtual start drops them (they stayed over the new session's counts).
    void burstsGoWhenANewSessionFollows() {
        RunSnapshot done = runAt(scenario_, 20000, 9);
        done.finished = true;
        ratelab::BusiestInterval busiest;
        busiest.windowMs = 1000;
        busiest.permits = 9;
        busiest.firstMs = 0;
        busiest.lastMs = 999;
        for (LimiterSnapshot& l : done.limiters)
            l.admittedBurst = {busiest};
        emit controller_->finished(done);
        for (TimelineChart* chart : view_->timelines())
            QVERIFY(chart->model().burst().has_value());
        emit controller_->snapshotReady(runAt(scenario_, 2, 1));
        for (TimelineChart* chart : view_->timelines())
            QVERIFY(!chart->model().burst().has_value());
    }

    // A live edit: a marker on that limiter's timeline at the newest snapshot's run time.
    void limiterChangeMarked_data() {
        QTest::addColumn<int>("change");
        QTest::addColumn<QString>("label");
        QTest::newRow("state kept") << int(RunView::StateChange::Kept) << "config changed";
        QTest::newRow("state reset")
            << int(RunView::StateChange::Reset) << "config changed: state reset";
        QTest::newRow("renamed") << int(RunView::StateChange::Renamed)
                                 << "renamed: fresh state in Redis";
    }
    void limiterChangeMarked() {
        QFETCH(int, change);
        QFETCH(QString, label);
        emit controller_->snapshotReady(runAt(scenario_, 3500, 1));
        view_->markLimiterChange(1, RunView::StateChange(change));
        view_->markLimiterChange(5, RunView::StateChange(change));  // no such limiter: nothing
        QVERIFY(view_->timelines()[0]->model().markers().isEmpty());
        QCOMPARE(view_->timelines()[1]->model().markers().size(), 1);
        QCOMPARE(view_->timelines()[1]->model().markers()[0].x, 3.5);
        QCOMPARE(view_->timelines()[1]->model().markers()[0].label, label);
    }

    // Two limiters deciding the same requests: the Comparison tab lists the pair; choosing it
    // marks each disagreeing step on both timelines, each naming the other; a run in wait mode
    // compares nothing and says why.
    void disagreementsMarked() {
        RunSnapshot run = runAt(scenario_, 2000, 5);
        run.sameRequests = true;
        ratelab::LimiterDisagreement pair;
        pair.a = 0;
        pair.b = 1;
        pair.compared = 40;
        pair.disagreed = 3;
        pair.bucketDisagreed = QVector<qint64>(200, 0);
        pair.bucketDisagreed[4] = 2;
        pair.bucketDisagreed[15] = 1;
        run.disagreements = {pair};
        emit controller_->snapshotReady(run);
        QTableWidget* table = view_->disagreements()->table();
        QCOMPARE(table->rowCount(), 1);
        QCOMPARE(table->item(0, 0)->text(), QStringLiteral("first / second"));
        QCOMPARE(table->item(0, 2)->text(), QStringLiteral("3"));
        QCOMPARE(table->item(0, 3)->text(), QStringLiteral("7.5 %"));
        for (TimelineChart* chart : view_->timelines()) {
            QVERIFY(chart->model().disagreementOther().isEmpty());  // none chosen yet
        }
        QSignalSpy chosen(view_->disagreements(), &ratelab::DisagreementTable::pairChosen);
        table->selectRow(0);
        QCOMPARE(chosen.count(), 1);
        QCOMPARE(view_->timelines()[0]->model().disagreementOther(), QStringLiteral("second"));
        QCOMPARE(view_->timelines()[1]->model().disagreementOther(), QStringLiteral("first"));
        // Steps of 100 ms: two of them carry a mark.
        const QList<QPointF> marks = view_->timelines()[0]->model().disagreements(0, 20, 100);
        QCOMPARE(marks.size(), 2);
        QCOMPARE(marks[0].x(), 0.45);
        QCOMPARE(marks[0].y(), 2.0);
        QVERIFY(view_->timelines()[0]->disagreementSeries()->isVisible());
        QVERIFY2(view_->timelines()[0]->toolTipAt(0.45).contains(
                     QStringLiteral("2 decided differently from second")),
                 qPrintable(view_->timelines()[0]->toolTipAt(0.45)));
        // Wait mode: nothing compared, and the table says why.
        run.sameRequests = false;
        emit controller_->snapshotReady(run);
        QCOMPARE(table->rowCount(), 0);
        QVERIFY(view_->timelines()[0]->model().disagreementOther().isEmpty());
    }
};

QTEST_MAIN(TestRunView)
#include "tst_run_view.moc"
