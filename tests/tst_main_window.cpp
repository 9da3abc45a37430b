// The window end to end (offscreen, against the fixture Redis): invalid input disables Start,
// a scripted run in virtual time fills the charts with the engine's counts, Step sends exactly
// one request, scenarios round-trip through files, secrets stay out of the settings.
#include <QAction>
#include <QImage>
#include <QLineEdit>
#include <QLineSeries>
#include <QSettings>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTreeWidget>
#include <QValueAxis>
#include <QWheelEvent>
#include <QXYSeries>
#include <QtTest>
#include <algorithm>
#include <optional>

#include "charts/timeline_chart.h"
#include "editors/limiter_editor.h"
#include "editors/limiter_list_editor.h"
#include "panels/comparison_table.h"
#include "panels/state_panel.h"
#include "run/run_controller.h"
#include "support/test_redis.h"
#include "window/connection_bar.h"
#include "window/main_window.h"

using namespace ratelab;
using namespace ratelab::test;

namespace {

Scenario virtualScenario() {
    Scenario s;
    s.name = QStringLiteral("window test");
    LimiterSpec bucket;
    bucket.type = LimiterType::TokenBucket;
    bucket.name = uniqueName(QStringLiteral("win-tb"));
    bucket.rate = 10;
    bucket.intervalMs = 1000;
    LimiterSpec fixed;
    fixed.type = LimiterType::FixedWindow;
    fixed.name = uniqueName(QStringLiteral("win-fw"));
    fixed.rate = 10;
    fixed.interval = 1;
    fixed.unit = CalendarUnit::Seconds;
    fixed.timezone = "UTC";
    s.limiters = {bucket, fixed};
    s.traffic.shape.type = ShapeSpec::Type::Constant;
    s.traffic.shape.rate = 50;
    s.traffic.durationS = 2;
    s.traffic.clock.isVirtual = true;
    s.traffic.clock.speed = 0;
    s.traffic.clock.startMs =
        QDateTime::fromString(QStringLiteral("2024-01-01T00:00:00.500Z"), Qt::ISODateWithMs)
            .toMSecsSinceEpoch();
    return s;
}

// The timeline draws steps: two points (bucket start and end) per value.
double sumY(const QXYSeries* series) {
    const QList<QPointF> points = series->points();
    double sum = 0;
    for (int i = 0; i < points.size(); i += 2) {
        sum += points[i].y();
    }
    return sum;
}

QValueAxis* xAxis(const TimelineChart* chart) {
    return qobject_cast<QValueAxis*>(chart->chart()->axes(Qt::Horizontal).value(0));
}

// A viewport position inside the chart's plot area, at `fraction` of its width.
QPoint plotPoint(const TimelineChart* chart, double fraction) {
    const QRectF plot = chart->chart()->plotArea();
    const QPointF inChart(plot.left() + plot.width() * fraction, plot.center().y());
    return chart->mapFromScene(chart->chart()->mapToScene(inChart));
}

}  // namespace

class TestMainWindow : public QObject {
    Q_OBJECT

private:
    std::unique_ptr<MainWindow> window_;

    void connectToFixture(MainWindow& w) {
        w.connectionBar()->setUseManagedServer(false);
        w.connectionBar()->setUrlText(qEnvironmentVariable("REDIS_URL"));
        w.connectionBar()->connectToRedis();
        QTRY_VERIFY_WITH_TIMEOUT(w.connectionBar()->connected(), 10000);
    }

private slots:
    void initTestCase() {
        QStandardPaths::setTestModeEnabled(true);
        QCoreApplication::setOrganizationName(QStringLiteral("ratelab-test"));
        QSettings().clear();
        qRegisterMetaType<RunSnapshot>();
        window_ = std::make_unique<MainWindow>();
        window_->show();
        connectToFixture(*window_);
    }

    void cleanupTestCase() { window_.reset(); }

    void invalidInputDisablesStart() {
        window_->setScenario(virtualScenario());
        QVERIFY(window_->startAction()->isEnabled());
        auto* name =
            window_->findChild<LimiterListEditor*>()->findChild<QLineEdit*>(QStringLiteral("name"));
        QVERIFY(name);
        const QString before = name->text();
        name->clear();
        QTest::keyClicks(name, QStringLiteral("bad{name"));
        QVERIFY(!window_->startAction()->isEnabled());
        QVERIFY2(window_->startAction()->toolTip().contains(QStringLiteral("$.name")),
                 qPrintable(window_->startAction()->toolTip()));
        name->clear();
        QTest::keyClicks(name, before);
        QVERIFY(window_->startAction()->isEnabled());
    }

    // The charts show exactly what the engine counted.
    void scriptedRunFillsCharts() {
        const Scenario scenario = virtualScenario();
        window_->setScenario(scenario);
        QSignalSpy finished(window_->controller(), &RunController::finished);
        window_->startAction()->trigger();
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 30000);
        const RunSnapshot run = window_->lastSnapshot();
        QCOMPARE(run.scheduled, 100);
        QCOMPARE(run.limiters[0].accepted, 20);  // token bucket 10/s: 0.5 s..1.5 s..2.5 s
        QCOMPARE(run.limiters[1].accepted, 30);  // calendar seconds: [.5,1) [1,2) [2,2.5)
        // Exports: the view as PNG, the buckets as CSV with the engine's counts.
        QTemporaryDir exports;
        QVERIFY(!window_->exportViewPng(exports.filePath(QStringLiteral("view.png"))).isEmpty());
        QVERIFY(!QImage(exports.filePath(QStringLiteral("view.png"))).isNull());
        QVERIFY(!window_->exportDataCsv(exports.filePath(QStringLiteral("data.csv"))).isEmpty());
        QFile csv(exports.filePath(QStringLiteral("data.csv")));
        QVERIFY(csv.open(QIODevice::ReadOnly));
        qint64 csvAccepted = 0;
        for (const QByteArray& line : csv.readAll().trimmed().split('\n').mid(1)) {
            csvAccepted += line.split(',').at(3).toLongLong();
        }
        QCOMPARE(csvAccepted, run.limiters[0].accepted + run.limiters[1].accepted);
        QVERIFY(window_->exportViewPng(QStringLiteral("/nonexistent/dir/view.png")).isEmpty());
        QVERIFY(window_->bannerText().contains(QStringLiteral("/nonexistent/dir/view.png")));

        const QVector<TimelineChart*> charts = window_->timelines();
        QCOMPARE(charts.size(), 2);
        for (int i = 0; i < 2; ++i) {
            QCOMPARE(qint64(sumY(charts[i]->acceptedSeries())), run.limiters[i].accepted);
            // The rejected area is stacked on the accepted one.
            QCOMPARE(qint64(sumY(charts[i]->rejectedSeries()) - sumY(charts[i]->acceptedSeries())),
                     run.limiters[i].rejected);
            // The run's busiest interval of the config window is marked where it happened.
            const std::optional<TimelineModel::Burst> burst = charts[i]->model().burst();
            QVERIFY2(burst.has_value(), "no admitted burst marked after the run");
            const std::vector<BusiestInterval>& bursts = run.limiters[i].admittedBurst;
            const auto shortest = std::find_if(bursts.begin(), bursts.end(), [&](auto& b) {
                return TimelineModel::configWindowsMs(run.limiters[i].spec).contains(b.windowMs);
            });
            QVERIFY(shortest != bursts.end());
            QCOMPARE(burst->x0, double(shortest->fromMs) / 1000.0);
            QVERIFY2(burst->label.startsWith(QString::number(shortest->permits) +
                                             QStringLiteral(" accepted")),
                     qPrintable(burst->label));
        }
        RedisConnection c(fixtureUrl());
        for (const LimiterSpec& spec : scenario.limiters) {
            makeLimiter(spec)->reset(c);
        }
    }

    // Editing a limiter while a run goes applies to the run at once (the engine reports the
    // new spec, and the fixed window's later windows admit the new rate).
    void liveChangeAppliesToRun() {
        Scenario scenario = virtualScenario();
        scenario.limiters = {scenario.limiters[1]};  // the fixed window, 10 per second
        scenario.traffic.durationS = 4;
        scenario.traffic.clock.speed = 1;  // real pace, so there is time to edit
        window_->setScenario(scenario);
        QSignalSpy started(window_->controller(), &RunController::started);
        QSignalSpy finished(window_->controller(), &RunController::finished);
        window_->startAction()->trigger();
        QTRY_COMPARE_WITH_TIMEOUT(started.count(), 1, 10000);
        auto* rate =
            window_->findChild<LimiterListEditor*>()->findChild<QLineEdit*>(QStringLiteral("rate"));
        QVERIFY(rate);
        rate->selectAll();
        QTest::keyClicks(rate, QStringLiteral("20"));
        QTest::keyClick(rate, Qt::Key_Return);  // edits apply on Enter or focus-out
        QTRY_COMPARE_WITH_TIMEOUT(window_->lastSnapshot().limiters.value(0).spec.rate, 20, 5000);
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 30000);
        // Some later calendar second admitted more than the old rate of 10.
        const LimiterSnapshot& l = window_->lastSnapshot().limiters[0];
        qint64 best = 0;
        for (int second = 0; second * 10 + 9 < l.bucketAccepted.size(); ++second) {
            qint64 sum = 0;
            for (int b = 0; b < 10; ++b) {
                sum += l.bucketAccepted[second * 10 + b];
            }
            best = std::max(best, sum);
        }
        QVERIFY2(best > 10, qPrintable(QString::number(best)));
        RedisConnection c(fixtureUrl());
        makeLimiter(l.spec)->reset(c);
    }

    void stepSendsOneRequest() {
        const Scenario scenario = virtualScenario();
        window_->setScenario(scenario);
        QSignalSpy stepped(window_->controller(), &RunController::stepped);
        window_->stepAction()->trigger();
        QTRY_COMPARE_WITH_TIMEOUT(stepped.count(), 1, 10000);
        QCOMPARE(window_->lastSnapshot().scheduled, 1);
        QVERIFY2(window_->stepText().contains(QStringLiteral("allowed")),
                 qPrintable(window_->stepText()));
        window_->stepAction()->trigger();
        QTRY_COMPARE_WITH_TIMEOUT(stepped.count(), 2, 10000);
        QCOMPARE(window_->lastSnapshot().scheduled, 2);
        QCOMPARE(window_->lastSnapshot().limiters[0].fired, 2);
        RedisConnection c(fixtureUrl());
        for (const LimiterSpec& spec : scenario.limiters) {
            QVERIFY(makeLimiter(spec)->reset(c) > 0);  // the step really wrote to Redis
        }
    }

    // The Redis key listing is read only while the state tab is shown; opening it after a run
    // reads the run's final keys once.
    void keyListingOnlyWhileStateTabShown() {
        const Scenario scenario = virtualScenario();
        window_->setScenario(scenario);
        window_->views()->setCurrentIndex(0);  // the timelines
        auto* panel = window_->findChild<StatePanel*>();
        QVERIFY(panel);
        RunController* controller = window_->controller();
        QSignalSpy states(controller, &RunController::stateReady);
        QSignalSpy keys(controller, &RunController::keysReady);
        QSignalSpy finished(controller, &RunController::finished);
        const qint64 readsBefore = controller->keyListingReads();
        window_->startAction()->trigger();
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 30000);
        QTRY_VERIFY_WITH_TIMEOUT(states.count() >= 2, 5000);  // the charts' state: both limiters
        QCOMPARE(keys.count(), 0);
        QCOMPARE(controller->keyListingReads(), readsBefore);

        window_->views()->setCurrentWidget(panel);
        QTRY_COMPARE_WITH_TIMEOUT(keys.count(), 2, 5000);  // one listing per limiter
        QCOMPARE(controller->keyListingReads(), readsBefore + 2);
        auto* tree = panel->findChild<QTreeWidget*>(QStringLiteral("stateTree"));
        QVERIFY(tree->topLevelItem(0)->text(0).startsWith(scenario.limiters[0].name));
        QVERIFY2(tree->topLevelItem(0)->text(0).contains(QStringLiteral("key")),
                 qPrintable(tree->topLevelItem(0)->text(0)));

        // Hidden again: no more listings.
        window_->views()->setCurrentIndex(0);
        const qint64 readsShown = controller->keyListingReads();
        QTest::qWait(3 * RunController::kKeyListingIntervalMs);
        QCOMPARE(controller->keyListingReads(), readsShown);
        RedisConnection c(fixtureUrl());
        for (const LimiterSpec& spec : scenario.limiters) {
            makeLimiter(spec)->reset(c);
        }
    }

    // Pause (F8), zoom with the wheel and pan by dragging in the real window's timeline; F8 again
    // follows the live edge.
    void timelineZoomAndPanThroughWindow() {
        Scenario scenario = virtualScenario();
        scenario.limiters = {scenario.limiters[0]};
        scenario.traffic.shape.rate = 20;
        scenario.traffic.durationS = 60;  // longer than the 30 s the timeline shows
        window_->setScenario(scenario);
        window_->views()->setCurrentIndex(0);
        window_->resize(1400, 900);
        window_->activateWindow();
        QVERIFY(QTest::qWaitForWindowActive(window_.get()));
        QSignalSpy finished(window_->controller(), &RunController::finished);
        window_->startAction()->trigger();
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 30000);
        QCOMPARE(window_->timelines().size(), 1);
        TimelineChart* chart = window_->timelines()[0];
        QVERIFY(chart->isVisible());
        const double end = double(window_->lastSnapshot().elapsedUs) / 1e6;
        QVERIFY2(end > 30, qPrintable(QString::number(end)));
        QValueAxis* axis = xAxis(chart);
        // Following shows the whole run, [0, duration].
        QCOMPARE(axis->min(), 0.0);
        QCOMPARE(axis->max(), std::max(60.0, end));
        const double followedMin = axis->min();
        const double followedMax = axis->max();
        QVERIFY(chart->following());

        // F8 pauses the view.
        auto* pause = window_->findChild<QAction*>(QStringLiteral("pauseView"));
        QVERIFY(pause);
        QTest::keyClick(window_.get(), Qt::Key_F8);
        QVERIFY(pause->isChecked());
        QVERIFY(!chart->following());

        // One wheel notch forward at the middle of the plot zooms in around it (0.8 of the span).
        const QPoint middle = plotPoint(chart, 0.5);
        QWheelEvent wheel(middle, chart->viewport()->mapToGlobal(middle), QPoint(), QPoint(0, 120),
                          Qt::NoButton, Qt::NoModifier, Qt::NoScrollPhase, false);
        QApplication::sendEvent(chart->viewport(), &wheel);
        const double span = axis->max() - axis->min();
        const double pixel = span / chart->chart()->plotArea().width();  // seconds per pixel
        QVERIFY2(std::abs(span - (followedMax - followedMin) * 0.8) < pixel,
                 qPrintable(QString::number(span)));
        const double zoomedMin = axis->min();
        QVERIFY2(std::abs((zoomedMin + span / 2) - (followedMin + followedMax) / 2) < 2 * pixel,
                 qPrintable(QString::number(zoomedMin)));

        // Dragging 60 px to the right shows earlier run time, by 60 pixels' worth (the zoomed
        // view starts a tenth of the run after 0, more than that).
        const QPoint to = middle + QPoint(60, 0);
        QTest::mousePress(chart->viewport(), Qt::LeftButton, Qt::NoModifier, middle);
        QTest::mouseMove(chart->viewport(), middle + QPoint(30, 0));
        QTest::mouseMove(chart->viewport(), to);
        QTest::mouseRelease(chart->viewport(), Qt::LeftButton, Qt::NoModifier, to);
        const double shift = 60 * pixel;
        QVERIFY(zoomedMin - shift > 0);
        QVERIFY2(std::abs(axis->min() - (zoomedMin - shift)) < pixel,
                 qPrintable(QStringLiteral("%1 vs %2").arg(axis->min()).arg(zoomedMin - shift)));
        QVERIFY(std::abs((axis->max() - axis->min()) - span) < 1e-9);  // panning keeps the zoom

        // F8 again: the view follows, the whole run again.
        QTest::keyClick(window_.get(), Qt::Key_F8);
        QVERIFY(!pause->isChecked());
        QVERIFY(chart->following());
        QCOMPARE(axis->min(), followedMin);
        QCOMPARE(axis->max(), followedMax);

        RedisConnection c(fixtureUrl());
        makeLimiter(scenario.limiters[0])->reset(c);
    }

    // A view paused (F8) during a run and resumed after it ended draws the newest run: the
    // timelines are not left cut at the pause, nor the comparison at the counts of then.
    // (A real clock: Pause now stops a virtual clock, whose run would wait for the resume.)
    void resumeAfterTheRunShowsItAll() {
        Scenario scenario = virtualScenario();
        scenario.traffic.clock.isVirtual = false;
        window_->setScenario(scenario);
        auto* pause = window_->findChild<QAction*>(QStringLiteral("pauseView"));
        QVERIFY(pause);
        if (pause->isChecked())
            pause->trigger();  // an earlier test left it paused
        pause->trigger();
        QVERIFY(pause->isChecked());
        QSignalSpy finished(window_->controller(), &RunController::finished);
        window_->startAction()->trigger();
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 30000);
        const RunSnapshot run = window_->lastSnapshot();
        const QVector<TimelineChart*> charts = window_->timelines();
        QCOMPARE(charts.size(), 2);
        auto* comparison = window_->findChild<ComparisonTable*>();
        QVERIFY(comparison);

        pause->trigger();
        QVERIFY(!pause->isChecked());
        for (int i = 0; i < 2; ++i) {
            QCOMPARE(qint64(sumY(charts[i]->acceptedSeries())), run.limiters[i].accepted);
            QCOMPARE(comparison->row(i).value(2), QLocale().toString(run.limiters[i].fired));
        }
        RedisConnection c(fixtureUrl());
        for (const LimiterSpec& spec : scenario.limiters) {
            makeLimiter(spec)->reset(c);
        }
    }

    void saveAndOpenRoundTrip() {
        QTemporaryDir dir;
        const Scenario scenario = virtualScenario();
        window_->setScenario(scenario);
        const QString path = dir.filePath(QStringLiteral("scenario.json"));
        QVERIFY(window_->saveScenario(path));
        window_->setScenario(virtualScenario());  // other names
        QVERIFY(window_->openScenario(path));
        const std::optional<Scenario> reopened = window_->currentScenario();
        QVERIFY(reopened);
        QCOMPARE(reopened->limiters, scenario.limiters);
        QCOMPARE(reopened->traffic.durationS, scenario.traffic.durationS);
        QCOMPARE(reopened->traffic.clock.startMs, scenario.traffic.clock.startMs);
    }

    void openBadFileShowsError() {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("broken.json"));
        QFile file(path);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(R"({"limiters": [], "traffic": {}})");
        file.close();
        QVERIFY(!window_->openScenario(path));
        QVERIFY2(window_->bannerText().contains(QStringLiteral("broken.json")),
                 qPrintable(window_->bannerText()));
        QVERIFY(window_->bannerText().contains(QStringLiteral("$.limiters")));
    }

    // A password typed into the bar is not saved unless the user asks.
    void passwordNotSaved() {
        MainWindow w;
        w.connectionBar()->setUseManagedServer(false);
        w.connectionBar()->setUrlText(QStringLiteral("redis://alice:hunter2@127.0.0.1:1/0"));
        w.connectionBar()->setPassword(QStringLiteral("s3cret"));
        w.close();
        QSettings settings;
        const QString url = settings.value(QStringLiteral("redis/url")).toString();
        QCOMPARE(url, QStringLiteral("redis://alice:@127.0.0.1:1/0"));
        QVERIFY(!settings.contains(QStringLiteral("redis/password")));
        for (const QString& key : settings.allKeys()) {
            const QString value = settings.value(key).toString();
            QVERIFY2(!value.contains(QStringLiteral("hunter2")) &&
                         !value.contains(QStringLiteral("s3cret")),
                     qPrintable(key));
        }
        QVERIFY(!w.connectionBar()->statusText().contains(QStringLiteral("hunter2")));
    }
};

QTEST_MAIN(TestMainWindow)
#include "tst_main_window.moc"
