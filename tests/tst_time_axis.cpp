// The timelines' shared time axis: the axis's own signals, and charts bound to one axis
// following a pause, a wheel zoom or a drag pan on any of them, whatever widget holds them.
#include <QApplication>
#include <QChart>
#include <QHBoxLayout>
#include <QSignalSpy>
#include <QVBoxLayout>
#include <QValueAxis>
#include <QWheelEvent>
#include <QtTest>
#include <array>
#include <memory>

#include "charts/time_axis.h"
#include "charts/timeline_chart.h"
#include "limiters/limiter_state.h"
#include "stats/run_snapshot.h"

using ratelab::LimiterSnapshot;
using ratelab::LimiterSpec;
using ratelab::LimiterType;
using ratelab::RunSnapshot;
using ratelab::TimeAxis;
using ratelab::TimelineChart;

namespace {

constexpr qint64 kStart = 1'700'000'040'000;
constexpr qint64 kBucketMs = 100;

// A token bucket's run of 60 s in 100 ms buckets, planned for 65 s.
RunSnapshot sixtySeconds() {
    LimiterSnapshot limiter;
    limiter.spec.type = LimiterType::TokenBucket;
    limiter.spec.name = QStringLiteral("api");
    limiter.spec.rate = 10;
    limiter.spec.intervalMs = 1000;
    RunSnapshot run;
    run.startEpochMs = kStart;
    run.bucketMs = kBucketMs;
    run.elapsedUs = 60'000'000;
    run.durationUs = 65'000'000;
    for (int i = 0; i < 650; ++i) {
        limiter.bucketAccepted.append(i % 7);
        limiter.bucketRejected.append(i % 3);
        limiter.bucketErrors.append(0);
    }
    run.limiters.append(limiter);
    return run;
}

// A chart in `parent` showing sixtySeconds().
TimelineChart* addChart(QWidget* parent) {
    auto* chart = new TimelineChart(parent);
    chart->setMinimumSize(500, 260);
    parent->layout()->addWidget(chart);
    const RunSnapshot run = sixtySeconds();
    chart->setLimiter(run.limiters[0].spec, 1, kBucketMs, kStart);
    chart->updateFrom(run, 0, nullptr);
    return chart;
}

std::pair<double, double> shownRange(const TimelineChart& chart) {
    const auto* axis = qobject_cast<QValueAxis*>(chart.chart()->axes(Qt::Horizontal).value(0));
    return {axis->min(), axis->max()};
}

QPoint plotPoint(const TimelineChart& chart, double fraction) {
    const QRectF plot = chart.chart()->plotArea();
    const QPointF inChart(plot.left() + plot.width() * fraction, plot.center().y());
    return chart.mapFromScene(chart.chart()->mapToScene(inChart));
}

void zoomIn(TimelineChart& chart) {
    const QPoint pos = plotPoint(chart, 0.3);
    QWheelEvent event(pos, chart.viewport()->mapToGlobal(pos), QPoint(), QPoint(0, 240),
                      Qt::NoButton, Qt::NoModifier, Qt::NoScrollPhase, false);
    QApplication::sendEvent(chart.viewport(), &event);
}

void dragLeft(TimelineChart& chart) {
    const QPoint from = plotPoint(chart, 0.6);
    const QPoint to = from - QPoint(120, 0);
    QTest::mousePress(chart.viewport(), Qt::LeftButton, Qt::NoModifier, from);
    QTest::mouseMove(chart.viewport(), to);
    QTest::mouseRelease(chart.viewport(), Qt::LeftButton, Qt::NoModifier, to);
}

}  // namespace

class TestTimeAxis : public QObject {
    Q_OBJECT

private slots:
    // rangeChanged only for a new, non-empty range; followingChanged only for a change.
    void signalsOnlyOnChange_data() {
        QTest::addColumn<double>("lo");
        QTest::addColumn<double>("hi");
        QTest::addColumn<int>("emitted");
        QTest::newRow("a new range") << 5.0 << 12.5 << 1;
        QTest::newRow("the range it has (the default)") << 0.0 << 30.0 << 0;
        QTest::newRow("empty") << 7.0 << 7.0 << 0;
        QTest::newRow("reversed") << 9.0 << 2.0 << 0;
    }
    void signalsOnlyOnChange() {
        QFETCH(double, lo);
        QFETCH(double, hi);
        QFETCH(int, emitted);
        TimeAxis axis;
        QSignalSpy range(&axis, &TimeAxis::rangeChanged);
        axis.setRange(lo, hi);
        QCOMPARE(range.count(), emitted);
        if (emitted > 0) {
            QCOMPARE(range.first().value(0).toDouble(), lo);
            QCOMPARE(range.first().value(1).toDouble(), hi);
            QCOMPARE(axis.range(), std::make_pair(lo, hi));
        } else {
            QCOMPARE(axis.range(), std::make_pair(0.0, 30.0));
        }

        QSignalSpy following(&axis, &TimeAxis::followingChanged);
        axis.setFollowing(true);  // already
        QCOMPARE(following.count(), 0);
        axis.setFollowing(false);
        axis.setFollowing(false);
        QCOMPARE(following.count(), 1);
        QCOMPARE(following.first().value(0).toBool(), false);
        QVERIFY(!axis.following());
    }

    // Two charts bound to one axis, in different windows, follow a zoom or a pan on either; a
    // chart beside them on no shared axis keeps its view.
    void boundChartsMoveTogether_data() {
        QTest::addColumn<int>("moved");
        QTest::addColumn<bool>("pan");
        QTest::newRow("zoom the first") << 0 << false;
        QTest::newRow("zoom the second") << 1 << false;
        QTest::newRow("pan the first") << 0 << true;
        QTest::newRow("pan the second") << 1 << true;
    }
    void boundChartsMoveTogether() {
        QFETCH(int, moved);
        QFETCH(bool, pan);
        TimeAxis axis;
        QWidget left;
        QWidget right;
        new QHBoxLayout(&left);
        new QHBoxLayout(&right);
        const std::array<TimelineChart*, 2> bound{addChart(&left), addChart(&right)};
        TimelineChart* alone = addChart(&left);  // a sibling, on its own axis
        for (TimelineChart* chart : bound)
            chart->setTimeAxis(&axis);
        QCOMPARE(bound[0]->timeAxis(), &axis);
        QVERIFY(alone->timeAxis() != &axis);
        for (QWidget* w : {&left, &right}) {
            w->show();
            QVERIFY(QTest::qWaitForWindowExposed(w));
        }

        QSignalSpy followingChanged(&axis, &TimeAxis::followingChanged);
        bound[1 - moved]->setFollowing(false);  // pausing one pauses both
        alone->setFollowing(false);
        QCOMPARE(followingChanged.count(), 1);
        QVERIFY(!bound[moved]->following());
        const std::pair<double, double> paused = shownRange(*bound[0]);
        QCOMPARE(axis.range(), paused);
        QCOMPARE(shownRange(*bound[1]), paused);
        QCOMPARE(shownRange(*alone), paused);

        QSignalSpy rangeChanged(&axis, &TimeAxis::rangeChanged);
        if (pan) {
            zoomIn(*bound[moved]);  // room to pan: the whole run cannot move
            dragLeft(*bound[moved]);
        } else {
            zoomIn(*bound[moved]);
        }
        QVERIFY(rangeChanged.count() >= 1);
        const std::pair<double, double> movedTo = bound[moved]->viewRange();
        QVERIFY(movedTo != paused);
        QCOMPARE(axis.range(), movedTo);
        for (TimelineChart* chart : bound) {
            QCOMPARE(chart->viewRange(), movedTo);
            QCOMPARE(shownRange(*chart), movedTo);
        }
        QCOMPARE(shownRange(*alone), paused);

        // Following again: both back to the whole run.
        bound[moved]->setFollowing(true);
        QCOMPARE(followingChanged.count(), 2);
        for (TimelineChart* chart : bound) {
            QVERIFY(chart->following());
            QCOMPARE(shownRange(*chart).first, 0.0);
            QCOMPARE(shownRange(*chart).second, 65.0);
        }
    }

    // A chart bound to a paused axis (new timelines while the view is paused) shows its range.
    void chartBoundToPausedAxisShowsItsRange() {
        TimeAxis axis;
        axis.setFollowing(false);
        axis.setRange(12, 24);
        QWidget host;
        new QHBoxLayout(&host);
        TimelineChart* chart = addChart(&host);
        QVERIFY(chart->following());
        chart->setTimeAxis(&axis);
        QVERIFY(!chart->following());
        QCOMPARE(chart->viewRange(), std::make_pair(12.0, 24.0));
        QCOMPARE(shownRange(*chart), std::make_pair(12.0, 24.0));
    }

    // A timeline with a permits axis on the right had a narrower plot than the others: the
    // same second sat at different x positions. The plots of the charts bound to one axis now
    // line up; a chart bound to none keeps its own; a chart gone takes its room with it.
    void plotsLineUp() {
        TimeAxis axis;
        QWidget host;
        new QVBoxLayout(&host);
        host.resize(900, 900);
        TimelineChart* bucket = addChart(&host);  // a token bucket: permits on the right
        TimelineChart* fixed = addChart(&host);
        TimelineChart* alone = addChart(&host);
        RunSnapshot run = sixtySeconds();
        run.limiters[0].spec.type = LimiterType::FixedWindow;
        run.limiters[0].spec.interval = 1;
        run.limiters[0].spec.unit = ratelab::CalendarUnit::Seconds;
        run.limiters[0].spec.timezone = "UTC";
        for (TimelineChart* chart : {fixed, alone}) {
            chart->setLimiter(run.limiters[0].spec, 1, kBucketMs, kStart);
            chart->updateFrom(run, 0, nullptr);
        }
        bucket->setTimeAxis(&axis);
        fixed->setTimeAxis(&axis);
        host.show();
        QVERIFY(QTest::qWaitForWindowExposed(&host));
        ratelab::LimiterState state;
        state.nowMs = kStart + 60'000;
        state.tokensAvailable = {{QString(), 4}};
        bucket->updateFrom(sixtySeconds(), 0, &state);
        const auto xOf = [](const TimelineChart* chart, double seconds) {
            return chart->chart()->mapToPosition(QPointF(seconds, 0)).x();
        };
        QVERIFY(bucket->tokenSeries()->isVisible());
        for (double seconds : {0.0, 30.0, 65.0})
            QTRY_COMPARE(qRound(xOf(fixed, seconds)), qRound(xOf(bucket, seconds)));
        const auto width = [](const TimelineChart* chart) {
            return chart->chart()->plotArea().width();
        };
        QVERIFY(std::abs(width(fixed) - width(bucket)) < 1);  // within a pixel
        // Not bound to the axis: its plot as wide as its own axes leave it.
        QVERIFY(width(alone) > width(fixed) + 10);
        delete bucket;
        QTRY_VERIFY(std::abs(width(fixed) - width(alone)) < 1);
    }

    // The shared axis going first leaves the chart on an axis of its own, where it was.
    void chartOutlivesItsAxis() {
        auto axis = std::make_unique<TimeAxis>();
        QWidget host;
        new QHBoxLayout(&host);
        TimelineChart* chart = addChart(&host);
        chart->setTimeAxis(axis.get());
        chart->setFollowing(false);
        chart->setViewRange(10, 20);
        axis.reset();
        QVERIFY(chart->timeAxis() != nullptr);
        QVERIFY(!chart->timeAxis()->following());
        QCOMPARE(chart->timeAxis()->range(), std::make_pair(10.0, 20.0));
        chart->setViewRange(15, 25);
        QCOMPARE(chart->viewRange(), std::make_pair(15.0, 25.0));
        chart->setFollowing(true);
        QVERIFY(chart->following());
    }
};

QTEST_MAIN(TestTimeAxis)
#include "tst_time_axis.moc"
