// The timeline chart's time axis: following the last seconds of a run, the whole planned duration,
// zooming with the wheel and panning with the mouse while paused, timelines side by side moving
// together.

#include <QApplication>
#include <QChart>
#include <QLineSeries>
#include <QVBoxLayout>
#include <QValueAxis>
#include <QWheelEvent>
#include <QtTest>

#include <cmath>

#include "charts/time_axis.h"
#include "charts/timeline_chart.h"
#include "stats/run_snapshot.h"
#include "support/timeline_runs.h"

using namespace ratelab;
using namespace ratelab::test;

namespace {

// A viewport position inside the plot area, at `fraction` of its width.
QPoint plotPoint(const TimelineChart& chart, double fraction) {
    const QRectF plot = chart.chart()->plotArea();
    const QPointF inChart(plot.left() + plot.width() * fraction, plot.center().y());
    return chart.mapFromScene(chart.chart()->mapToScene(inChart));
}

double valueAt(const TimelineChart& chart, const QPoint& viewportPos) {
    const QPointF inChart = chart.chart()->mapFromScene(chart.mapToScene(viewportPos));
    return chart.chart()->mapToValue(inChart, chart.chart()->series().value(0)).x();
}

void sendWheel(TimelineChart& chart, const QPoint& pos, int angle) {
    QWheelEvent event(pos, chart.viewport()->mapToGlobal(pos), QPoint(), QPoint(0, angle),
                      Qt::NoButton, Qt::NoModifier, Qt::NoScrollPhase, false);
    QApplication::sendEvent(chart.viewport(), &event);
}

}  // namespace

class TestTimelineNavigation : public QObject {
    Q_OBJECT

private slots:
    void followingKeepsLastWindowSeconds();
    void wheelZoomsWhenPaused_data();
    void wheelZoomsWhenPaused();
    void dragPansWhenPaused();
    void axisShowsTheWholeDuration();
    void pausedTimelinesZoomTogether();
};

void TestTimelineNavigation::followingKeepsLastWindowSeconds() {
    TimelineChart chart;
    QVERIFY(show(chart));
    const LimiterSpec spec = tokenBucket(10, 1000);
    chart.setLimiter(spec, 1, 100, kStart);
    QVERIFY(chart.following());
    for (qint64 elapsedMs : {1000, 29000, 30000, 45500, 120000}) {
        chart.updateFrom(withoutDuration(makeRun(spec, 100, elapsedMs)), 0, nullptr);
        const double elapsed = double(elapsedMs) / 1000.0;
        QCOMPARE(xAxis(chart)->min(), std::max(0.0, elapsed - 30));
        QCOMPARE(xAxis(chart)->max(), elapsed);
    }
    chart.setWindowSeconds(10);
    QCOMPARE(xAxis(chart)->min(), 110.0);
    QCOMPARE(xAxis(chart)->max(), 120.0);
}

void TestTimelineNavigation::wheelZoomsWhenPaused_data() {
    QTest::addColumn<double>("fraction");  // where the cursor is, across the plot
    QTest::addColumn<int>("angle");

    QTest::newRow("zoom in at the centre") << 0.5 << 120;
    QTest::newRow("zoom in at a quarter") << 0.25 << 120;
    QTest::newRow("zoom in twice as far") << 0.75 << 240;
    QTest::newRow("zoom out at the centre") << 0.5 << -120;
}

void TestTimelineNavigation::wheelZoomsWhenPaused() {
    QFETCH(double, fraction);
    QFETCH(int, angle);

    TimelineChart chart;
    QVERIFY(show(chart));
    const LimiterSpec spec = tokenBucket(10, 1000);
    chart.setLimiter(spec, 1, 100, kStart);
    const RunSnapshot run = withoutDuration(makeRun(spec, 100, 60000));
    chart.updateFrom(run, 0, nullptr);
    QCOMPARE(xAxis(chart)->min(), 30.0);
    QCOMPARE(xAxis(chart)->max(), 60.0);
    const QPoint pos = plotPoint(chart, fraction);

    // While following, the wheel changes nothing.
    sendWheel(chart, pos, angle);
    QCOMPARE(xAxis(chart)->min(), 30.0);
    QCOMPARE(xAxis(chart)->max(), 60.0);

    chart.setFollowing(false);
    QVERIFY(!chart.following());
    const double anchor = valueAt(chart, pos);
    QVERIFY(std::abs(anchor - (30 + 30 * fraction)) < 0.1);
    sendWheel(chart, pos, angle);
    const double span = xAxis(chart)->max() - xAxis(chart)->min();
    QVERIFY2(std::abs(span - 30 * std::pow(0.8, angle / 120.0)) < 1e-6,
             qPrintable(QString::number(span)));
    // The value under the cursor stays there.
    QVERIFY2(std::abs(valueAt(chart, pos) - anchor) < 0.1,
             qPrintable(QStringLiteral("%1 vs %2").arg(valueAt(chart, pos)).arg(anchor)));
    // Series follow the zoomed view.
    QVERIFY(chart.acceptedSeries()->points().first().x() <= xAxis(chart)->min());

    chart.setFollowing(true);
    QCOMPARE(xAxis(chart)->min(), 30.0);
    QCOMPARE(xAxis(chart)->max(), 60.0);
}

void TestTimelineNavigation::dragPansWhenPaused() {
    TimelineChart chart;
    QVERIFY(show(chart));
    const LimiterSpec spec = tokenBucket(10, 1000);
    chart.setLimiter(spec, 1, 100, kStart);
    chart.updateFrom(withoutDuration(makeRun(spec, 100, 60000)), 0, nullptr);
    chart.setFollowing(false);

    const QPoint from = plotPoint(chart, 0.5);
    const QPoint to = from + QPoint(200, 0);
    const double shift = 200.0 / chart.chart()->plotArea().width() * 30.0;
    QTest::mousePress(chart.viewport(), Qt::LeftButton, Qt::NoModifier, from);
    QTest::mouseMove(chart.viewport(), to);
    QTest::mouseRelease(chart.viewport(), Qt::LeftButton, Qt::NoModifier, to);
    // Dragging right shows earlier run time.
    QVERIFY2(std::abs(xAxis(chart)->min() - (30.0 - shift)) < 1e-6,
             qPrintable(QString::number(xAxis(chart)->min())));
    QVERIFY(std::abs(xAxis(chart)->max() - (60.0 - shift)) < 1e-6);
    // New snapshots do not move a paused view.
    chart.updateFrom(withoutDuration(makeRun(spec, 100, 61000)), 0, nullptr);
    QVERIFY(std::abs(xAxis(chart)->min() - (30.0 - shift)) < 1e-6);

    chart.setFollowing(true);
    QCOMPARE(xAxis(chart)->min(), 31.0);
    QCOMPARE(xAxis(chart)->max(), 61.0);
}

// The axis shows the whole planned duration from before the run to after it: it does not rescale
// as the run goes on (0-3-8-20 s), jump on Stop, or show 0-30 before a 3 s scenario.
void TestTimelineNavigation::axisShowsTheWholeDuration() {
    TimelineChart chart;
    QVERIFY(show(chart));
    const LimiterSpec spec = tokenBucket(10, 1000);
    chart.setLimiter(spec, 1, 100, kStart);
    chart.setDurationSeconds(20);
    QCOMPARE(xAxis(chart)->min(), 0.0);
    QCOMPARE(xAxis(chart)->max(), 20.0);
    for (qint64 elapsedMs : {300, 3000, 8000, 20000}) {
        RunSnapshot run = makeRun(spec, 100, elapsedMs);
        run.durationUs = 20'000'000;
        chart.updateFrom(run, 0, nullptr);
        QCOMPARE(xAxis(chart)->min(), 0.0);
        QCOMPARE(xAxis(chart)->max(), 20.0);
        // The data ends at the run time reached.
        QCOMPARE(chart.acceptedSeries()->points().last().x(), double(elapsedMs) / 1000.0);
    }
    // Stopped at 8 s: the axis stays.
    RunSnapshot stopped = makeRun(spec, 100, 8000);
    stopped.durationUs = 20'000'000;
    stopped.finished = true;
    stopped.finishedAtUs = 8'000'000;
    chart.updateFrom(stopped, 0, nullptr);
    QCOMPARE(xAxis(chart)->max(), 20.0);
}

// The timelines side by side share one time axis: zooming or panning one while paused applies
// to all of them, not to that chart only.
void TestTimelineNavigation::pausedTimelinesZoomTogether() {
    ratelab::TimeAxis axis;
    QWidget window;
    auto* layout = new QVBoxLayout(&window);
    const LimiterSpec spec = tokenBucket(10, 1000);
    QVector<TimelineChart*> charts;
    for (int i = 0; i < 3; ++i) {
        auto* chart = new TimelineChart(&window);
        chart->setTimeAxis(&axis);
        chart->setMinimumHeight(200);
        layout->addWidget(chart);
        chart->setLimiter(spec, 1, 100, kStart);
        chart->updateFrom(makeRun(spec, 100, 60000), 0, nullptr);
        chart->setFollowing(false);
        charts << chart;
    }
    window.resize(1000, 700);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    const auto before = charts[0]->viewRange();

    sendWheel(*charts[1], plotPoint(*charts[1], 0.25), 240);
    const auto zoomed = charts[1]->viewRange();
    QVERIFY(zoomed.second - zoomed.first < before.second - before.first);
    for (TimelineChart* chart : charts) {
        QCOMPARE(xAxis(*chart)->min(), zoomed.first);
        QCOMPARE(xAxis(*chart)->max(), zoomed.second);
    }

    const QPoint from = plotPoint(*charts[2], 0.5);
    QTest::mousePress(charts[2]->viewport(), Qt::LeftButton, Qt::NoModifier, from);
    QTest::mouseMove(charts[2]->viewport(), from + QPoint(-150, 0));
    QTest::mouseRelease(charts[2]->viewport(), Qt::LeftButton, Qt::NoModifier,
                        from + QPoint(-150, 0));
    const auto panned = charts[2]->viewRange();
    QVERIFY(panned.first > zoomed.first);
    for (TimelineChart* chart : charts)
        QCOMPARE(chart->viewRange(), panned);
}

QTEST_MAIN(TestTimelineNavigation)
#include "tst_timeline_navigation.moc"
