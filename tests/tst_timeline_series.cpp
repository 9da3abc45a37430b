// The timeline chart's series: the accepted, rejected and errors steps hold exactly their buckets'
// counts (summed when downsampled) and stack in their own colours; the limit line and its step at
// a config change; the theme follows the palette; a hidden timeline draws when shown; a line per
// traffic group holds its accepted counts. The time
// axis: tst_timeline_navigation; what is drawn over the series: tst_timeline_overlays.

#include <QAreaSeries>
#include <QChart>
#include <QLegend>
#include <QLegendMarker>
#include <QLineSeries>
#include <QTabWidget>
#include <QValueAxis>
#include <QtTest>

#include <cmath>

#include "algorithms/algorithm_view.h"
#include "charts/timeline_chart.h"
#include "limiters/limit_geometry.h"
#include "limiters/limiter_state.h"
#include "stats/run_snapshot.h"
#include "style/palette_colors.h"
#include "style/series_style.h"
#include "support/timeline_runs.h"

using namespace ratelab;
using namespace ratelab::test;

Q_DECLARE_METATYPE(ratelab::LimiterSpec)

namespace {

// Every step of a series is two points with the same y (one flat segment per group of buckets),
// the steps follow each other without gaps. Returns the sum of the steps' values.
qint64 checkSteps(const QLineSeries* series, qint64* groupBuckets, qint64 bucketMs) {
    const QList<QPointF> points = series->points();
    if (points.size() % 2 != 0) {
        qWarning("odd number of points: %d", int(points.size()));
        return -1;
    }
    qint64 sum = 0;
    *groupBuckets = 0;
    for (int i = 0; i < points.size(); i += 2) {
        if (points[i].y() != points[i + 1].y() || points[i + 1].x() <= points[i].x()) {
            qWarning("step %d is not flat: (%g, %g) (%g, %g)", i / 2, points[i].x(), points[i].y(),
                     points[i + 1].x(), points[i + 1].y());
            return -1;
        }
        if (i > 0 && points[i].x() != points[i - 1].x()) {
            qWarning("gap before step %d", i / 2);
            return -1;
        }
        if (i == 0)
            *groupBuckets = qRound64((points[1].x() - points[0].x()) * 1000.0 / double(bucketMs));
        sum += qint64(points[i].y());
    }
    return sum;
}

// The sum of the buckets whose time spans lie in [x0, x1] seconds.
qint64 bucketSum(qint64 (*countAt)(qint64), double x0, double x1, qint64 bucketMs) {
    const qint64 first = qRound64(x0 * 1000.0 / double(bucketMs));
    const qint64 end = qint64(std::ceil(x1 * 1000.0 / double(bucketMs) - 1e-9));
    qint64 sum = 0;
    for (qint64 i = first; i < end; ++i)
        sum += countAt(i);
    return sum;
}

}  // namespace

class TestTimelineSeries : public QObject {
    Q_OBJECT

private slots:
    void countsMatchVisibleBuckets_data();
    void countsMatchVisibleBuckets();
    void limitSeries_data();
    void limitSeries();
    void themeFollowsPalette();
    void liveConfigChange();
    void renameRetitles();
    void decisionsStack_data();
    void decisionsStack();
    void hiddenTabCatchesUpWhenShown();
    void groupLines();
    void limitNamedByItsAlgorithm();
    void acceptedAndRejectedApartInGrayscale_data();
    void acceptedAndRejectedApartInGrayscale();
};

void TestTimelineSeries::countsMatchVisibleBuckets_data() {
    QTest::addColumn<qint64>("bucketMs");
    QTest::addColumn<qint64>("elapsedMs");
    QTest::addColumn<double>("windowSeconds");
    QTest::addColumn<bool>("downsampled");  // more buckets in view than steps fit

    QTest::newRow("start of a run") << qint64(100) << qint64(300) << 30.0 << false;
    QTest::newRow("all of a short run") << qint64(100) << qint64(5000) << 30.0 << false;
    QTest::newRow("scrolled") << qint64(100) << qint64(95000) << 30.0 << false;
    QTest::newRow("partial last bucket") << qint64(100) << qint64(12345) << 10.0 << false;
    QTest::newRow("1 ms buckets, 0.5 s") << qint64(1) << qint64(20000) << 0.5 << false;
    QTest::newRow("downsampled 10 ms buckets") << qint64(10) << qint64(120000) << 30.0 << true;
    QTest::newRow("downsampled, partial group") << qint64(10) << qint64(61237) << 40.0 << true;
    QTest::newRow("downsampled 1 ms buckets") << qint64(1) << qint64(600000) << 300.0 << true;
}

void TestTimelineSeries::countsMatchVisibleBuckets() {
    QFETCH(qint64, bucketMs);
    QFETCH(qint64, elapsedMs);
    QFETCH(double, windowSeconds);
    QFETCH(bool, downsampled);

    TimelineChart chart;
    QVERIFY(show(chart));
    const LimiterSpec spec = tokenBucket(10, 1000);
    chart.setWindowSeconds(windowSeconds);
    chart.setLimiter(spec, 1, bucketMs, kStart);
    chart.updateFrom(withoutDuration(makeRun(spec, bucketMs, elapsedMs)), 0, nullptr);

    const double elapsed = double(elapsedMs) / 1000.0;
    const double lo = std::max(0.0, elapsed - windowSeconds);
    QCOMPARE(xAxis(chart)->min(), lo);
    QCOMPARE(xAxis(chart)->max(), elapsed);

    const struct {
        const QLineSeries* series;
        qint64 (*countAt)(qint64);
    } cases[] = {{chart.acceptedSeries(), acceptedAt},
                 {chart.rejectedSeries(), acceptedPlusRejectedAt}};
    for (const auto& c : cases) {
        const QList<QPointF> points = c.series->points();
        QVERIFY(!points.isEmpty());
        QVERIFY2(points.size() <= TimelineChart::kMaxPointsPerSeries,
                 qPrintable(QString::number(points.size())));
        qint64 group = 0;
        const qint64 sum = checkSteps(c.series, &group, bucketMs);
        QVERIFY(sum >= 0);
        QCOMPARE(group > 1, downsampled);
        // The series covers the visible range and ends at the run time reached, or three pixel
        // columns after its last step's start when that is later (a narrower step would not
        // show): no bucket after the time reached is counted.
        QVERIFY(points.first().x() <= lo);
        const double lastStart = points[points.size() - 2].x();
        const double column = (elapsed - lo) / std::ceil(chart.chart()->plotArea().width());
        const qint64 reachedMs = (elapsedMs + bucketMs - 1) / bucketMs * bucketMs;
        const double groupEnd =
            double(std::min(qRound64(lastStart * 1000.0) + group * bucketMs, reachedMs)) / 1000.0;
        QCOMPARE(points.last().x(), std::max(elapsed, std::min(groupEnd, lastStart + 3 * column)));
        QCOMPARE(sum, bucketSum(c.countAt, points.first().x(), elapsed, bucketMs));
        // Each step holds exactly the sum of its buckets (one bucket unless downsampled).
        for (int i = 0; i < points.size(); i += 2) {
            QCOMPARE(qint64(points[i].y()),
                     bucketSum(c.countAt, points[i].x(), std::min(points[i + 1].x(), elapsed),
                               bucketMs));
        }
    }
}

void TestTimelineSeries::limitSeries_data() {
    QTest::addColumn<LimiterSpec>("spec");
    QTest::addColumn<int>("clients");
    QTest::addColumn<qint64>("bucketMs");
    QTest::addColumn<qint64>("elapsedMs");

    QTest::newRow("token bucket") << tokenBucket(10, 1000) << 1 << qint64(100) << qint64(8000);
    QTest::newRow("token bucket per client, 3 clients")
        << tokenBucket(7, 2000, Scope::PerClient) << 3 << qint64(250) << qint64(8000);
    QTest::newRow("token bucket, downsampled")
        << tokenBucket(100, 1000) << 1 << qint64(10) << qint64(120000);
    QTest::newRow("fixed window 5 per 2 minutes")
        << fixedWindow(5, 2, CalendarUnit::Minutes) << 1 << qint64(1000) << qint64(90000);
    QTest::newRow("fixed window per client")
        << fixedWindow(40, 10, CalendarUnit::Seconds, Scope::PerClient) << 4 << qint64(100)
        << qint64(20000);
    QTest::newRow("sliding window, the strictest rule")
        << slidingWindow({{5, 1000}, {20, 60000}}) << 1 << qint64(100) << qint64(5000);
}

void TestTimelineSeries::limitSeries() {
    QFETCH(LimiterSpec, spec);
    QFETCH(int, clients);
    QFETCH(qint64, bucketMs);
    QFETCH(qint64, elapsedMs);

    TimelineChart chart;
    QVERIFY(show(chart));
    chart.setLimiter(spec, clients, bucketMs, kStart);
    chart.updateFrom(makeRun(spec, bucketMs, elapsedMs), 0, nullptr);

    qint64 group = 0;
    QVERIFY(checkSteps(chart.acceptedSeries(), &group, bucketMs) >= 0);
    QVERIFY(group >= 1);
    const double expected = ratelab::limitPerBucket(spec, group * bucketMs, clients);
    const QList<QPointF> points = chart.limitSeries()->points();
    QVERIFY(chart.limitSeries()->isVisible());
    QCOMPARE(points.size(), 2);
    for (const QPointF& p : points)
        QCOMPARE(p.y(), expected);
    QCOMPARE(points.first().x(), xAxis(chart)->min());
    QCOMPARE(points.last().x(), xAxis(chart)->max());
}

void TestTimelineSeries::themeFollowsPalette() {
    TimelineChart chart;
    QVERIFY(show(chart));
    QPalette dark;
    dark.setColor(QPalette::Window, QColor(0x20, 0x20, 0x24));
    dark.setColor(QPalette::Base, QColor(0x18, 0x18, 0x1c));
    dark.setColor(QPalette::Text, QColor(0xe0, 0xe0, 0xe0));
    chart.setPalette(dark);
    QCOMPARE(chart.chart()->theme(), QChart::ChartThemeDark);
    QPalette light;
    light.setColor(QPalette::Window, QColor(0xf0, 0xf0, 0xf0));
    light.setColor(QPalette::Base, Qt::white);
    light.setColor(QPalette::Text, Qt::black);
    chart.setPalette(light);
    QCOMPARE(chart.chart()->theme(), QChart::ChartThemeLight);
    // The series keep their colours through a theme change, hidden ones stay hidden with their
    // legend entries (the run had no errors).
    auto* accepted = qobject_cast<QAreaSeries*>(chart.chart()->series().value(0));
    QVERIFY(accepted);
    const ratelab::style::SeriesColors colors = ratelab::style::seriesColors(false);
    QCOMPARE(accepted->brush().color().rgb(), colors.accepted.rgb());
    for (QAbstractSeries* series : chart.chart()->series()) {
        if (series->name() == QLatin1String("errors")) {
            QVERIFY(!series->isVisible());
            for (QLegendMarker* marker : chart.chart()->legend()->markers(series))
                QVERIFY(!marker->isVisible());
        }
    }
}

void TestTimelineSeries::liveConfigChange() {
    TimelineChart chart;
    QVERIFY(show(chart));
    LimiterSpec spec = tokenBucket(10, 1000);
    chart.setLimiter(spec, 1, 100, kStart);
    LimiterState state = tokenState(kStart + 5000, {{QString(), 4}});
    chart.updateFrom(makeRun(spec, 100, 5000), 0, &state);
    QCOMPARE(chart.limitSeries()->points().value(0).y(), 1.0);

    // The snapshot carries the changed spec: the limit follows, the token history stays.
    spec.rate = 30;
    state = tokenState(kStart + 6000, {{QString(), 25}});
    chart.updateFrom(makeRun(spec, 100, 6000), 0, &state);
    // The limit is a step: 1 per bucket before the edit, 3 after.
    const QList<QPointF> limit = chart.limitSeries()->points();
    QCOMPARE(limit.first().y(), 1.0);
    QCOMPARE(limit.last().y(), 3.0);
    QCOMPARE(chart.tokenSeries()->count(), 2);
    // The marker says what changed, with what the window marked at the same time.
    chart.addMarker(6.0, QStringLiteral("config changed"));
    const QStringList texts = drawnTexts(chart);
    QVERIFY2(texts.contains(QStringLiteral("rate 10 \u2192 30: config changed")),
             qPrintable(texts.join(QLatin1Char('|'))));
}

// A limiter renamed mid-run kept its old name in the chart title. The title now names it as it
// is; the rename alone changes no limit (no marker of the chart's own: the window marks it).
void TestTimelineSeries::renameRetitles() {
    TimelineChart chart;
    QVERIFY(show(chart));
    LimiterSpec spec = tokenBucket(10, 1000);
    chart.setLimiter(spec, 1, 100, kStart);
    chart.updateFrom(makeRun(spec, 100, 3000), 0, nullptr);
    QVERIFY(chart.titleText().contains(QStringLiteral("<b>api</b>")));
    spec.name = QStringLiteral("api-v2");
    chart.updateFrom(makeRun(spec, 100, 4000), 0, nullptr);
    QVERIFY2(chart.titleText().contains(QStringLiteral("<b>api-v2</b>")),
             qPrintable(chart.titleText()));
    QCOMPARE(chart.model().spec().name, QStringLiteral("api-v2"));
    QVERIFY(chart.model().markers().isEmpty());
    // Renamed and changed at once: the change is marked.
    spec.name = QStringLiteral("api-v3");
    spec.rate = 20;
    chart.updateFrom(makeRun(spec, 100, 5000), 0, nullptr);
    QVERIFY(chart.titleText().contains(QStringLiteral("<b>api-v3</b>")));
    QCOMPARE(chart.model().markers().size(), 1);
    QCOMPARE(chart.model().markers().first().label, QStringLiteral("rate 10 \u2192 20"));
    QCOMPARE(chart.limitSeries()->points().last().y(), 2.0);
}

void TestTimelineSeries::decisionsStack_data() {
    QTest::addColumn<bool>("withErrors");
    QTest::addColumn<bool>("dark");
    QTest::newRow("no errors, light") << false << false;
    QTest::newRow("errors, light") << true << false;
    QTest::newRow("errors, dark") << true << true;
}

// The decisions stack: rejected lies on accepted and errors on both, each area's lower edge is the
// upper edge of the one below, the top is the fired count, and the fills are nearly opaque, each
// in its own colour (translucent areas overlapping would make an unlabelled brown where both
// were, the load unreadable).
void TestTimelineSeries::decisionsStack() {
    QFETCH(bool, withErrors);
    QFETCH(bool, dark);
    TimelineChart chart;
    if (dark) {
        QPalette pal;
        pal.setColor(QPalette::Window, QColor(0x20, 0x20, 0x24));
        pal.setColor(QPalette::Base, QColor(0x18, 0x18, 0x1c));
        chart.setPalette(pal);
    }
    QVERIFY(show(chart));
    const LimiterSpec spec = tokenBucket(10, 1000);
    chart.setLimiter(spec, 1, 100, kStart);
    RunSnapshot run = makeRun(spec, 100, 3000);
    if (withErrors) {
        LimiterSnapshot& l = run.limiters[0];
        for (int i = 0; i < l.bucketErrors.size(); ++i)
            l.bucketErrors[i] = i % 3;
        l.errors = 1;
    }
    chart.updateFrom(run, 0, nullptr);

    QVERIFY(!chart.acceptedArea()->lowerSeries());  // from 0
    QCOMPARE(chart.rejectedArea()->lowerSeries()->points(), chart.acceptedSeries()->points());
    const QList<QPointF> top = chart.rejectedSeries()->points();
    QVERIFY(!top.isEmpty());
    const LimiterSnapshot& l = run.limiters[0];
    for (int i = 0; i < top.size(); i += 2) {
        const int bucket = qRound(top[i].x() * 10);
        QCOMPARE(top[i].y(), double(l.bucketAccepted[bucket] + l.bucketRejected[bucket]));
    }
    QCOMPARE(chart.errorsArea()->isVisible(), withErrors);
    if (withErrors) {
        QCOMPARE(chart.errorsArea()->lowerSeries()->points(), top);
        const QList<QPointF> fired = chart.errorsSeries()->points();
        QCOMPARE(fired.size(), top.size());
        for (int i = 0; i < fired.size(); i += 2) {
            const int bucket = qRound(fired[i].x() * 10);
            QCOMPARE(fired[i].y(), double(l.bucketAccepted[bucket] + l.bucketRejected[bucket] +
                                          l.bucketErrors[bucket]));
        }
    }
    const ratelab::style::SeriesColors colors = ratelab::style::seriesColors(dark);
    QCOMPARE(chart.acceptedArea()->brush().color().rgb(), colors.accepted.rgb());
    QCOMPARE(chart.rejectedArea()->brush().color().rgb(), colors.rejected.rgb());
    QCOMPARE(chart.errorsArea()->brush().color().rgb(), colors.errors.rgb());
    QVERIFY(chart.rejectedArea()->brush().color().alpha() >= 200);

    // Hovering a step tells its counts apart (the stack shows only their sum on top).
    const int bucket = 12;
    const qint64 e = withErrors ? l.bucketErrors[bucket] : 0;
    const QString expected = QStringLiteral("fired %1 = accepted %2 + rejected %3 + errors %4")
                                 .arg(l.bucketAccepted[bucket] + l.bucketRejected[bucket] + e)
                                 .arg(l.bucketAccepted[bucket])
                                 .arg(l.bucketRejected[bucket])
                                 .arg(e);
    const QString tip = chart.toolTipAt(1.25);
    QVERIFY2(tip.contains(expected), qPrintable(tip));
    QVERIFY2(tip.contains(QStringLiteral("limit (steady state): 1 per 100 ms")), qPrintable(tip));
    QVERIFY(chart.toolTipAt(-1).isEmpty());
}

// A timeline on a hidden tab of a shown window skips the work of drawing snapshots, and draws
// the newest one when its tab is shown.
void TestTimelineSeries::hiddenTabCatchesUpWhenShown() {
    QTabWidget tabs;
    tabs.addTab(new QWidget, QStringLiteral("other"));
    auto* chart = new TimelineChart;
    tabs.addTab(chart, QStringLiteral("timeline"));
    tabs.resize(1000, 400);
    tabs.show();
    QVERIFY(QTest::qWaitForWindowExposed(&tabs));
    const LimiterSpec spec = tokenBucket(10, 1000);
    chart->setLimiter(spec, 1, 100, kStart);
    chart->updateFrom(makeRun(spec, 100, 3000), 0, nullptr);
    chart->updateFrom(makeRun(spec, 100, 5000), 0, nullptr);
    QCOMPARE(chart->acceptedSeries()->count(), 0);  // not drawn while hidden
    tabs.setCurrentIndex(1);
    QTRY_VERIFY(chart->acceptedSeries()->count() > 0);
    QCOMPARE(chart->acceptedSeries()->points().last().x(), 5.0);  // the newest snapshot
    // Shown, it follows every snapshot at once.
    chart->updateFrom(makeRun(spec, 100, 6000), 0, nullptr);
    QCOMPARE(chart->acceptedSeries()->points().last().x(), 6.0);
    // Hidden again: the run's last snapshot is drawn all the same (exports read it).
    tabs.setCurrentIndex(0);
    chart->updateFrom(makeRun(spec, 100, 7000), 0, nullptr);
    QCOMPARE(chart->acceptedSeries()->points().last().x(), 6.0);
    RunSnapshot last = makeRun(spec, 100, 8000);
    last.finished = true;
    last.finishedAtUs = 8'000'000;
    chart->updateFrom(last, 0, nullptr);
    QCOMPARE(chart->acceptedSeries()->points().last().x(), 8.0);
}

void TestTimelineSeries::acceptedAndRejectedApartInGrayscale_data() {
    QTest::addColumn<bool>("dark");
    QTest::newRow("light") << false;
    QTest::newRow("dark") << true;
}

// Accepted and rejected as drawn (pixels of the shown chart) differ in luminance by at least
// 3:1, so a grayscale print or a colour-blind viewer still tells them apart: the old blue and
// vermillion were 1.2:1 on white, the sky blue and orange of the dark look 1.0:1.
void TestTimelineSeries::acceptedAndRejectedApartInGrayscale() {
    QFETCH(bool, dark);
    TimelineChart chart;
    if (dark)
        chart.setPalette(darkPalette());
    QVERIFY(show(chart));
    const LimiterSpec spec = tokenBucket(10, 1000);
    chart.setLimiter(spec, 1, 100, kStart);
    chart.updateFrom(makeRun(spec, 100, 3000), 0, nullptr);
    const QImage image = chart.viewport()->grab().toImage();
    // Bucket 1: 10 accepted, 2 rejected on them; the middle of each fill.
    QCOMPARE(acceptedAt(1), 10);
    QCOMPARE(rejectedAt(1), 2);
    const auto pixelAt = [&](double y) {
        const QPointF inChart =
            chart.chart()->mapToPosition(QPointF(0.15, y), chart.acceptedArea());
        const QPoint at = chart.mapFromScene(chart.chart()->mapToScene(inChart));
        return image.pixelColor(at);
    };
    const QColor accepted = pixelAt(5);
    const QColor rejected = pixelAt(11);
    const QColor background = chart.palette().color(QPalette::Base);
    const double apart = style::contrastRatio(accepted, rejected);
    const QString seen = QStringLiteral("accepted %1, rejected %2: %3:1")
                             .arg(accepted.name(), rejected.name())
                             .arg(apart, 0, 'f', 2);
    QVERIFY2(apart >= style::kDecisionContrast, qPrintable(seen));
    // The main message stands out most: accepted farther from the background than rejected.
    QVERIFY2(
        style::contrastRatio(accepted, background) > style::contrastRatio(rejected, background),
        qPrintable(seen));
    // In grayscale too (ImageMagick's and Qt's gray: the luma of the pixels).
    QVERIFY2(std::abs(qGray(accepted.rgb()) - qGray(rejected.rgb())) >= 60, qPrintable(seen));
}

// Traffic groups: a line per group, its accepted requests step by step (named in the legend
// and the tooltip), together the accepted area; gone again when a run without groups follows.
void TestTimelineSeries::groupLines() {
    TimelineChart chart;
    QVERIFY(show(chart));
    const LimiterSpec spec = tokenBucket(10, 1000);
    chart.setLimiter(spec, 2, 100, kStart);
    RunSnapshot run = makeRun(spec, 100, 3000);
    LimiterSnapshot& l = run.limiters[0];
    GroupTotals users, attacker;
    users.group = QStringLiteral("users");
    attacker.group = QStringLiteral("attacker");
    for (qint64 n : l.bucketAccepted) {
        users.bucketAccepted.append(n / 3);
        attacker.bucketAccepted.append(n - n / 3);
    }
    l.groups = {users, attacker};
    chart.updateFrom(run, 0, nullptr);

    const QList<QPointF> accepted = chart.acceptedSeries()->points();
    QVERIFY(!accepted.isEmpty());
    for (int g = 0; g < 2; ++g) {
        const QLineSeries* line = chart.groupSeries(g);
        QVERIFY(line != nullptr);
        QVERIFY(line->isVisible());
        QCOMPARE(line->name(),
                 g == 0 ? QStringLiteral("users accepted") : QStringLiteral("attacker accepted"));
        QCOMPARE(line->points().size(), accepted.size());
        QCOMPARE(line->pen(), style::groupPen(g, false));
    }
    for (int i = 0; i < accepted.size(); i += 2) {
        const int bucket = qRound(accepted[i].x() * 10);
        QCOMPARE(chart.groupSeries(0)->points()[i].y(), double(users.bucketAccepted[bucket]));
        QCOMPARE(chart.groupSeries(0)->points()[i].y() + chart.groupSeries(1)->points()[i].y(),
                 accepted[i].y());
    }
    const double x = accepted[2].x() + 0.01;
    const QString tip = chart.toolTipAt(x);
    QVERIFY2(
        tip.contains(
            QStringLiteral("users accepted %1").arg(qint64(chart.groupSeries(0)->points()[2].y()))),
        qPrintable(tip));
    QVERIFY2(tip.contains(QStringLiteral("attacker accepted")), qPrintable(tip));

    l.groups.clear();
    chart.updateFrom(run, 0, nullptr);
    QVERIFY(!chart.groupSeries(0)->isVisible());
    QVERIFY(!chart.groupSeries(1)->isVisible());
}

// The limit line is named as its algorithm means it, in the legend and the tooltip; a
// concurrency limiter's limit is on requests in flight, which its in-flight view draws
// (tst_timeline_in_flight): no rate line, which looked as if it leaked under its grants.
void TestTimelineSeries::limitNamedByItsAlgorithm() {
    TimelineChart chart;
    QVERIFY(show(chart));
    const LimiterSpec spec = concurrency(20, 2000);
    chart.setLimiter(spec, 1, 100, kStart);
    chart.updateFrom(makeRun(spec, 100, 3000), 0, nullptr);
    QVERIFY(!chart.limitSeries()->isVisible());
    QVERIFY(chart.inFlight().limitSeries()->isVisible());
    QCOMPARE(chart.inFlight().limitSeries()->points().value(0).y(), 20.0);

    chart.setLimiter(tokenBucket(10, 1000), 1, 100, kStart);
    chart.updateFrom(makeRun(tokenBucket(10, 1000), 100, 3000), 0, nullptr);
    QCOMPARE(chart.limitSeries()->name(), QStringLiteral("limit (steady state)"));
    const QPointF at = chart.limitSeries()->points().value(0);
    const QString tip = chart.toolTipAt(at.x() + 0.05);
    QVERIFY2(tip.contains(QStringLiteral("limit (steady state)")), qPrintable(tip));
}

QTEST_MAIN(TestTimelineSeries)
#include "tst_timeline_series.moc"
