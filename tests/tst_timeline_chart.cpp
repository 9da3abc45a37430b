#include <QApplication>
#include <QAreaSeries>
#include <QChart>
#include <QGraphicsRectItem>
#include <QGraphicsScene>
#include <QGraphicsSimpleTextItem>
#include <QLegend>
#include <QLegendMarker>
#include <QLineSeries>
#include <QTabWidget>
#include <QVBoxLayout>
#include <QValueAxis>
#include <QWheelEvent>
#include <QtTest>

#include <cmath>

#include "charts/timeline_chart.h"
#include "limiters/limit_geometry.h"
#include "limiters/limiter_state.h"
#include "stats/run_snapshot.h"
#include "style/series_style.h"

using ratelab::CalendarUnit;
using ratelab::LimiterSnapshot;
using ratelab::LimiterSpec;
using ratelab::LimiterState;
using ratelab::LimiterType;
using ratelab::RunSnapshot;
using ratelab::Scope;
using ratelab::SlidingRule;
using ratelab::TimelineChart;

Q_DECLARE_METATYPE(ratelab::LimiterSpec)

namespace {

// Run time 0 on a whole minute (UTC), so that calendar windows of seconds and minutes start at
// whole multiples of their length in run time.
constexpr qint64 kStart = 1'700'000'040'000;
static_assert(kStart % 60000 == 0, "the run starts on a whole minute");

LimiterSpec tokenBucket(qint64 rate, qint64 intervalMs, Scope scope = Scope::Global) {
    LimiterSpec spec;
    spec.type = LimiterType::TokenBucket;
    spec.name = QStringLiteral("api");
    spec.scope = scope;
    spec.rate = rate;
    spec.intervalMs = intervalMs;
    return spec;
}

LimiterSpec fixedWindow(qint64 rate, qint64 interval, CalendarUnit unit,
                        Scope scope = Scope::Global) {
    LimiterSpec spec;
    spec.type = LimiterType::FixedWindow;
    spec.name = QStringLiteral("quota");
    spec.scope = scope;
    spec.rate = rate;
    spec.interval = interval;
    spec.unit = unit;
    spec.timezone = QByteArrayLiteral("UTC");
    return spec;
}

LimiterSpec slidingWindow(const QVector<SlidingRule>& rules, Scope scope = Scope::Global) {
    LimiterSpec spec;
    spec.type = LimiterType::SlidingWindow;
    spec.name = QStringLiteral("login");
    spec.scope = scope;
    spec.rules = rules;
    return spec;
}

// Synthetic counts, different for every bucket and between the two series.
qint64 acceptedAt(qint64 i) {
    return (i * 7 + 3) % 11;
}
qint64 rejectedAt(qint64 i) {
    return (i * 5 + 1) % 4;
}
// The rejected area is stacked on the accepted one: its top is their sum.
qint64 acceptedPlusRejectedAt(qint64 i) {
    return acceptedAt(i) + rejectedAt(i);
}

// A run of one limiter that reached elapsedMs. The bucket vectors are longer than that (as the
// engine's, sized for the whole duration) and hold counts there too, which must not be drawn.
RunSnapshot makeRun(const LimiterSpec& spec, qint64 bucketMs, qint64 elapsedMs) {
    RunSnapshot run;
    run.scenarioName = QStringLiteral("synthetic");
    run.startEpochMs = kStart;
    run.bucketMs = bucketMs;
    run.elapsedUs = elapsedMs * 1000;
    run.durationUs = (elapsedMs + 50 * bucketMs) * 1000;
    LimiterSnapshot limiter;
    limiter.spec = spec;
    const qint64 buckets = run.durationUs / 1000 / bucketMs;
    for (qint64 i = 0; i < buckets; ++i) {
        limiter.bucketAccepted.append(acceptedAt(i));
        limiter.bucketRejected.append(rejectedAt(i));
        limiter.bucketErrors.append(0);
    }
    run.limiters.append(limiter);
    return run;
}

// The same run without a planned duration: the view follows the last windowSeconds.
RunSnapshot withoutDuration(RunSnapshot run) {
    run.durationUs = 0;
    return run;
}

QValueAxis* xAxis(const TimelineChart& chart) {
    return qobject_cast<QValueAxis*>(chart.chart()->axes(Qt::Horizontal).value(0));
}

// The texts of the labels drawn in the chart now (markers, counts, spans).
QStringList drawnTexts(const TimelineChart& chart) {
    QStringList texts;
    for (QGraphicsItem* item : chart.scene()->items()) {
        if (auto* text = dynamic_cast<QGraphicsSimpleTextItem*>(item)) {
            if (text->isVisible())
                texts << text->text();
        }
    }
    return texts;
}

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

LimiterState tokenState(qint64 nowMs, const QVector<QPair<QString, qint64>>& tokens) {
    LimiterState state;
    state.nowMs = nowMs;
    state.tokensAvailable = tokens;
    return state;
}

LimiterState::WindowCount windowCount(qint64 startMs, qint64 lengthMs, qint64 count,
                                      const QString& client = QString()) {
    LimiterState::WindowCount w;
    w.startMs = startMs;
    w.endMs = startMs + lengthMs;
    w.client = client;
    w.count = count;
    return w;
}

LimiterState::RuleSpan ruleSpan(qint64 limit, qint64 windowMs, qint64 total, qint64 busiest = 0,
                                const QString& busiestClient = QString()) {
    LimiterState::RuleSpan span;
    span.limit = limit;
    span.windowMs = windowMs;
    span.total = total;
    span.busiest = busiest;
    span.busiestClient = busiestClient;
    return span;
}

}  // namespace

class TestTimelineChart : public QObject {
    Q_OBJECT

private:
    // Each test draws into a shown 1000 x 320 chart, as in the window.
    static bool show(TimelineChart& chart) {
        chart.resize(1000, 320);
        chart.show();
        return QTest::qWaitForWindowExposed(&chart);
    }

private slots:
    void countsMatchVisibleBuckets_data();
    void countsMatchVisibleBuckets();
    void followingKeepsLastWindowSeconds();
    void limitSeries_data();
    void limitSeries();
    void fixedWindowBands_data();
    void fixedWindowBands();
    void fixedWindowCountKeptAfterExpiry();
    void tokenHistory_data();
    void tokenHistory();
    void tokenHistoryIsBounded();
    void slidingSpans_data();
    void slidingSpans();
    void markersKept();
    void wheelZoomsWhenPaused_data();
    void wheelZoomsWhenPaused();
    void dragPansWhenPaused();
    void themeFollowsPalette();
    void liveConfigChange();
    void decisionsStack_data();
    void decisionsStack();
    void axisShowsTheWholeDuration();
    void pausedTimelinesZoomTogether();
    void tokenLineBreaksAtOutage();
    void everyWindowShowsItsCount();
    void hiddenTabCatchesUpWhenShown();
    void admittedBurstMarked_data();
    void admittedBurstMarked();
};

void TestTimelineChart::countsMatchVisibleBuckets_data() {
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

void TestTimelineChart::countsMatchVisibleBuckets() {
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
        // The series covers the visible range and ends at the run time reached: no bucket
        // after it is drawn.
        QVERIFY(points.first().x() <= lo);
        QCOMPARE(points.last().x(), elapsed);
        QCOMPARE(sum, bucketSum(c.countAt, points.first().x(), points.last().x(), bucketMs));
        // Each step holds exactly the sum of its buckets (one bucket unless downsampled).
        for (int i = 0; i < points.size(); i += 2) {
            QCOMPARE(qint64(points[i].y()),
                     bucketSum(c.countAt, points[i].x(), points[i + 1].x(), bucketMs));
        }
    }
}

void TestTimelineChart::followingKeepsLastWindowSeconds() {
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

void TestTimelineChart::limitSeries_data() {
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

void TestTimelineChart::limitSeries() {
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

void TestTimelineChart::fixedWindowBands_data() {
    QTest::addColumn<LimiterSpec>("spec");
    QTest::addColumn<int>("clients");
    QTest::addColumn<qint64>("windowMs");
    QTest::addColumn<qint64>("elapsedMs");
    QTest::addColumn<double>("windowSeconds");

    QTest::newRow("5 s windows, start of the run")
        << fixedWindow(10, 5, CalendarUnit::Seconds) << 1 << qint64(5000) << qint64(12000) << 30.0;
    QTest::newRow("5 s windows, scrolled")
        << fixedWindow(10, 5, CalendarUnit::Seconds) << 1 << qint64(5000) << qint64(97500) << 30.0;
    QTest::newRow("5 s windows, view on a boundary")
        << fixedWindow(10, 5, CalendarUnit::Seconds) << 1 << qint64(5000) << qint64(95000) << 30.0;
    QTest::newRow("10 s windows per client, 2 clients")
        << fixedWindow(6, 10, CalendarUnit::Seconds, Scope::PerClient) << 2 << qint64(10000)
        << qint64(64000) << 30.0;
    QTest::newRow("1 minute windows") << fixedWindow(100, 1, CalendarUnit::Minutes) << 1
                                      << qint64(60000) << qint64(150000) << 300.0;
}

void TestTimelineChart::fixedWindowBands() {
    QFETCH(LimiterSpec, spec);
    QFETCH(int, clients);
    QFETCH(qint64, windowMs);
    QFETCH(qint64, elapsedMs);
    QFETCH(double, windowSeconds);

    TimelineChart chart;
    QVERIFY(show(chart));
    chart.setWindowSeconds(windowSeconds);
    chart.setLimiter(spec, clients, 100, kStart);

    // Redis still holds every window of the run (k = window index since the start); per client:
    // two clients, whose counts the chart sums.
    const bool perClient = spec.scope == Scope::PerClient;
    const auto countOf = [&](qint64 k, int client) { return (k * 3 + 1 + client) % spec.rate; };
    LimiterState state;
    state.nowMs = kStart + elapsedMs;
    for (qint64 k = 0; k * windowMs <= elapsedMs; ++k) {
        for (int client = 0; client < (perClient ? 2 : 1); ++client) {
            state.windows.append(
                windowCount(kStart + k * windowMs, windowMs, countOf(k, client),
                            perClient ? QStringLiteral("c%1").arg(client) : QString()));
        }
    }
    chart.updateFrom(withoutDuration(makeRun(spec, 100, elapsedMs)), 0, &state);

    const qint64 fromMs = std::max<qint64>(0, elapsedMs - qint64(windowSeconds * 1000));
    const qint64 firstWindow = fromMs / windowMs;
    const qint64 endWindow = (elapsedMs + windowMs - 1) / windowMs;
    QCOMPARE(chart.windowBandCount(), int(endWindow - firstWindow));
    QStringList expected;
    const qint64 capacity = spec.rate * (perClient ? clients : 1);
    for (qint64 k = firstWindow; k < endWindow; ++k) {
        const qint64 count = countOf(k, 0) + (perClient ? countOf(k, 1) : 0);
        expected << QStringLiteral("%1/%2").arg(count).arg(capacity);
    }
    QCOMPARE(chart.windowLabels(), expected);
    // The counts are drawn (the bands are wide enough for their labels here).
    const QStringList texts = drawnTexts(chart);
    for (const QString& label : expected)
        QVERIFY2(texts.contains(label), qPrintable(label));
}

void TestTimelineChart::fixedWindowCountKeptAfterExpiry() {
    TimelineChart chart;
    QVERIFY(show(chart));
    const LimiterSpec spec = fixedWindow(10, 5, CalendarUnit::Seconds);
    chart.setLimiter(spec, 1, 100, kStart);

    LimiterState state;
    state.nowMs = kStart + 4000;
    state.windows = {windowCount(kStart, 5000, 7)};
    chart.updateFrom(withoutDuration(makeRun(spec, 100, 4000)), 0, &state);
    QCOMPARE(chart.windowLabels(), QStringList{QStringLiteral("7/10")});

    // The first window's last count was 9.
    state.nowMs = kStart + 6000;
    state.windows = {windowCount(kStart, 5000, 9), windowCount(kStart + 5000, 5000, 1)};
    chart.updateFrom(withoutDuration(makeRun(spec, 100, 6000)), 0, &state);
    QCOMPARE(chart.windowLabels(), (QStringList{QStringLiteral("9/10"), QStringLiteral("1/10")}));

    // Both have expired from Redis: their last seen counts stay.
    state.nowMs = kStart + 12000;
    state.windows = {windowCount(kStart + 10000, 5000, 3)};
    chart.updateFrom(withoutDuration(makeRun(spec, 100, 12000)), 0, &state);
    const QStringList labels{QStringLiteral("9/10"), QStringLiteral("1/10"),
                             QStringLiteral("3/10")};
    QCOMPARE(chart.windowBandCount(), 3);
    QCOMPARE(chart.windowLabels(), labels);

    // A snapshot without a state keeps them too.
    chart.updateFrom(withoutDuration(makeRun(spec, 100, 13000)), 0, nullptr);
    QCOMPARE(chart.windowLabels(), labels);
    // Starting over forgets them.
    chart.setLimiter(spec, 1, 100, kStart);
    chart.updateFrom(withoutDuration(makeRun(spec, 100, 13000)), 0, nullptr);
    QCOMPARE(chart.windowBandCount(), 3);
    QVERIFY(chart.windowLabels().isEmpty());
}

void TestTimelineChart::tokenHistory_data() {
    QTest::addColumn<LimiterSpec>("spec");
    QTest::addColumn<QStringList>("clients");

    QTest::newRow("global") << tokenBucket(10, 1000) << QStringList{QString()};
    QTest::newRow("per client, 3 clients")
        << tokenBucket(5, 1000, Scope::PerClient)
        << QStringList{QStringLiteral("a"), QStringLiteral("b"), QStringLiteral("c")};
}

void TestTimelineChart::tokenHistory() {
    QFETCH(LimiterSpec, spec);
    QFETCH(QStringList, clients);

    TimelineChart chart;
    QVERIFY(show(chart));
    chart.setLimiter(spec, int(clients.size()), 100, kStart);
    QVERIFY(chart.tokenSeries()->isVisible());
    QCOMPARE(chart.tokenSeries()->count(), 0);
    for (int i = 0; i < 40; ++i) {
        const qint64 elapsedMs = 200 * (i + 1);
        QVector<QPair<QString, qint64>> tokens;
        qint64 sum = 0;
        for (int c = 0; c < clients.size(); ++c) {
            const qint64 available = (i + 3 * c) % (spec.rate + 1);
            tokens.append({clients[c], available});
            sum += available;
        }
        const LimiterState state = tokenState(kStart + elapsedMs, tokens);
        const RunSnapshot run = makeRun(spec, 100, elapsedMs);
        chart.updateFrom(run, 0, &state);
        QCOMPARE(chart.tokenSeries()->count(), i + 1);
        QCOMPARE(chart.tokenSeries()->points().last(),
                 QPointF(double(elapsedMs) / 1000.0, double(sum)));
        // Snapshots without a state add nothing.
        chart.updateFrom(run, 0, nullptr);
        QCOMPARE(chart.tokenSeries()->count(), i + 1);
    }
}

void TestTimelineChart::tokenHistoryIsBounded() {
    TimelineChart chart;  // not shown: quicker, and the series are the same
    const LimiterSpec spec = tokenBucket(10, 1000);
    chart.setWindowSeconds(100000);  // the whole history in view
    chart.setLimiter(spec, 1, 1000, kStart);
    const int updates = 4500;
    for (int i = 1; i <= updates; ++i) {
        const LimiterState state = tokenState(kStart + 10 * i, {{QString(), i % 11}});
        chart.updateFrom(makeRun(spec, 1000, 10 * i), 0, &state);
        QVERIFY(chart.tokenSeries()->count() <= TimelineChart::kMaxPointsPerSeries);
    }
    const QList<QPointF> points = chart.tokenSeries()->points();
    // Thinned out to each pixel column's first, lowest, highest and last reading, but the
    // newest reading is always drawn; the oldest readings were dropped.
    QCOMPARE(points.last(), QPointF(45.0, double(updates % 11)));
    const double plotWidth = chart.chart()->plotArea().width();
    const int columns =
        plotWidth >= 1 ? int(std::ceil(plotWidth)) : TimelineChart::kMaxPointsPerSeries / 4;
    QVERIFY2(points.size() <= 4 * columns, qPrintable(QString::number(points.size())));
    QVERIFY2(points.size() >= columns, qPrintable(QString::number(points.size())));
    // Every column keeps its extremes: the readings go from 0 to 10 in every 11.
    double lowest = 10;
    double highest = 0;
    for (const QPointF& p : points) {
        lowest = std::min(lowest, p.y());
        highest = std::max(highest, p.y());
    }
    QCOMPARE(lowest, 0.0);
    QCOMPARE(highest, 10.0);
    QVERIFY2(points.first().x() > 0.01, qPrintable(QString::number(points.first().x())));
}

void TestTimelineChart::slidingSpans_data() {
    QTest::addColumn<LimiterSpec>("spec");
    QTest::addColumn<QVector<LimiterState::RuleSpan>>("spans");
    QTest::addColumn<QStringList>("labels");

    QTest::newRow("global, two rules")
        << slidingWindow({{5, 1000}, {20, 60000}})
        << QVector<LimiterState::RuleSpan>{ruleSpan(5, 1000, 3), ruleSpan(20, 60000, 12)}
        << QStringList{QStringLiteral("5/1000 ms: 3 of 5"),
                       QStringLiteral("20/60000 ms: 12 of 20")};
    QTest::newRow("global, full") << slidingWindow({{100, 10000}})
                                  << QVector<LimiterState::RuleSpan>{ruleSpan(100, 10000, 100)}
                                  << QStringList{QStringLiteral("100/10000 ms: 100 of 100")};
    QTest::newRow("per client")
        << slidingWindow({{5, 1000}, {20, 60000}}, Scope::PerClient)
        << QVector<LimiterState::RuleSpan>{ruleSpan(5, 1000, 7, 4, QStringLiteral("b")),
                                           ruleSpan(20, 60000, 30, 11, QStringLiteral("a"))}
        << QStringList{QStringLiteral("5/1000 ms: 4 of 5 (busiest client b) · 7 in all"),
                       QStringLiteral("20/60000 ms: 11 of 20 (busiest client a) · 30 in all")};
}

void TestTimelineChart::slidingSpans() {
    QFETCH(LimiterSpec, spec);
    QFETCH(QVector<LimiterState::RuleSpan>, spans);
    QFETCH(QStringList, labels);

    TimelineChart chart;
    QVERIFY(show(chart));
    chart.setLimiter(spec, 2, 100, kStart);
    chart.updateFrom(makeRun(spec, 100, 8000), 0, nullptr);
    QVERIFY(chart.spanLabels().isEmpty());

    LimiterState state;
    state.nowMs = kStart + 8000;
    state.spans = spans;
    chart.updateFrom(makeRun(spec, 100, 8000), 0, &state);
    QCOMPARE(chart.spanLabels(), labels);
    const QStringList texts = drawnTexts(chart);
    for (const QString& label : labels)
        QVERIFY2(texts.contains(label), qPrintable(label));
    QCOMPARE(chart.windowBandCount(), 0);

    // Kept until the next state.
    chart.updateFrom(makeRun(spec, 100, 8100), 0, nullptr);
    QCOMPARE(chart.spanLabels(), labels);
}

void TestTimelineChart::markersKept() {
    TimelineChart chart;
    QVERIFY(show(chart));
    const LimiterSpec spec = fixedWindow(10, 5, CalendarUnit::Seconds);
    chart.setLimiter(spec, 1, 100, kStart);
    const QString reset = QStringLiteral("config changed: counters reset");
    const QString other = QStringLiteral("config changed");
    chart.updateFrom(withoutDuration(makeRun(spec, 100, 2000)), 0, nullptr);
    chart.addMarker(2.0, reset);
    QVERIFY(drawnTexts(chart).contains(reset));

    chart.updateFrom(withoutDuration(makeRun(spec, 100, 10000)), 0, nullptr);
    chart.addMarker(10.0, other);
    QVERIFY(drawnTexts(chart).contains(reset));
    QVERIFY(drawnTexts(chart).contains(other));

    // Scrolled out of view: not drawn, but kept.
    chart.updateFrom(withoutDuration(makeRun(spec, 100, 60000)), 0, nullptr);
    QVERIFY(!drawnTexts(chart).contains(reset));
    QVERIFY(!drawnTexts(chart).contains(other));
    chart.setWindowSeconds(120);
    QVERIFY(drawnTexts(chart).contains(reset));
    QVERIFY(drawnTexts(chart).contains(other));
}

void TestTimelineChart::wheelZoomsWhenPaused_data() {
    QTest::addColumn<double>("fraction");  // where the cursor is, across the plot
    QTest::addColumn<int>("angle");

    QTest::newRow("zoom in at the centre") << 0.5 << 120;
    QTest::newRow("zoom in at a quarter") << 0.25 << 120;
    QTest::newRow("zoom in twice as far") << 0.75 << 240;
    QTest::newRow("zoom out at the centre") << 0.5 << -120;
}

void TestTimelineChart::wheelZoomsWhenPaused() {
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

void TestTimelineChart::dragPansWhenPaused() {
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

void TestTimelineChart::themeFollowsPalette() {
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

void TestTimelineChart::liveConfigChange() {
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

void TestTimelineChart::decisionsStack_data() {
    QTest::addColumn<bool>("withErrors");
    QTest::addColumn<bool>("dark");
    QTest::newRow("no errors, light") << false << false;
    QTest::newRow("errors, light") << true << false;
    QTest::newRow("errors, dark") << true << true;
}

// Issue 11: accepted and rejected overlapped as translucent areas (an unlabelled brown where
// both were, the load unreadable). Now rejected lies on accepted and errors on both: each area's
// lower edge is the upper edge of the one below, the top is the fired count, and the fills are
// nearly opaque, each in its own colour.
void TestTimelineChart::decisionsStack() {
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

// Issue 11: the axis rescaled during a run (0-3-8-20 s), jumped to the full duration on Stop and
// showed 0-30 before a 3 s scenario.
void TestTimelineChart::axisShowsTheWholeDuration() {
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

// Issue 11: zoom while paused changed one chart only. The timelines side by side share one time
// axis: zooming or panning one applies to all.
void TestTimelineChart::pausedTimelinesZoomTogether() {
    QWidget window;
    auto* layout = new QVBoxLayout(&window);
    const LimiterSpec spec = tokenBucket(10, 1000);
    QVector<TimelineChart*> charts;
    for (int i = 0; i < 3; ++i) {
        auto* chart = new TimelineChart(&window);
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

// Issue 11: the permits line was drawn straight across a Redis outage.
void TestTimelineChart::tokenLineBreaksAtOutage() {
    TimelineChart chart;
    QVERIFY(show(chart));
    const LimiterSpec spec = tokenBucket(10, 1000);
    chart.setLimiter(spec, 1, 100, kStart);
    for (qint64 ms = 500; ms <= 6000; ms += 500) {
        RunSnapshot run = makeRun(spec, 100, ms);
        LimiterSnapshot& l = run.limiters[0];
        for (int i = 20; i < 40 && i < l.bucketErrors.size(); ++i)
            l.bucketErrors[i] = 1;  // Redis gone from 2 s to 4 s
        l.errors = 1;
        const LimiterState state = tokenState(kStart + ms, {{QString(), ms / 500}});
        chart.updateFrom(run, 0, &state);
    }
    const QVector<QLineSeries*> pieces = chart.tokenSegments();
    QCOMPARE(pieces.size(), 2);
    QCOMPARE(pieces[0], chart.tokenSeries());
    QCOMPARE(pieces[0]->points().last(), QPointF(1.5, 3));
    QCOMPARE(pieces[1]->points().first(), QPointF(4.0, 8));
    QCOMPARE(pieces[1]->points().last(), QPointF(6.0, 12));
    QCOMPARE(pieces[1]->pen().color(), pieces[0]->pen().color());
    // Hovering says what is known there.
    QVERIFY2(chart.toolTipAt(1.2).contains(QStringLiteral("permits available: 2 (read at 1.00 s)")),
             qPrintable(chart.toolTipAt(1.2)));
    QVERIFY2(chart.toolTipAt(3.0).contains(QStringLiteral("permits available: unknown")),
             qPrintable(chart.toolTipAt(3.0)));
    QVERIFY2(chart.toolTipAt(5.2).contains(QStringLiteral("permits available: 10")),
             qPrintable(chart.toolTipAt(5.2)));
    // One legend entry for the line: the other pieces have no name and hidden markers.
    int entries = 0;
    for (QLegendMarker* marker : chart.chart()->legend()->markers()) {
        if (marker->label() == chart.tokenSeries()->name())
            ++entries;
    }
    QCOMPARE(entries, 1);
    for (QLegendMarker* marker : chart.chart()->legend()->markers(pieces[1])) {
        QVERIFY(marker->label().isEmpty());
        QVERIFY(!marker->isVisible());
    }
}

// Issue 11: window counters appeared on some windows and not on others (a label wider than its
// band was left out). A narrow band shows the count alone; the tooltip has it whole.
void TestTimelineChart::everyWindowShowsItsCount() {
    TimelineChart chart;
    QVERIFY(show(chart));
    const LimiterSpec spec = fixedWindow(10, 1, CalendarUnit::Seconds);
    chart.setLimiter(spec, 1, 100, kStart);
    LimiterState state;
    state.nowMs = kStart + 55000;
    for (qint64 k = 0; k < 56; ++k)
        state.windows << windowCount(kStart + k * 1000, 1000, 7);
    chart.updateFrom(makeRun(spec, 100, 55000), 0, &state);  // 60 s on the axis: ~15 px a band
    QCOMPARE(xAxis(chart)->max(), 60.0);
    QCOMPARE(chart.windowLabels().size(), 56);  // the 4 windows after now have no count yet
    const QStringList texts = drawnTexts(chart);
    QCOMPARE(texts.count(QStringLiteral("7")) + texts.count(QStringLiteral("7/10")), 56);
    // One form for all of them.
    QVERIFY(texts.count(QStringLiteral("7")) == 56 || texts.count(QStringLiteral("7/10")) == 56);
    const QString tip = chart.toolTipAt(10.5);
    QVERIFY2(tip.contains(QStringLiteral("7/10 granted")), qPrintable(tip));
}

// A timeline on a hidden tab of a shown window skips the work of drawing snapshots, and draws
// the newest one when its tab is shown.
void TestTimelineChart::hiddenTabCatchesUpWhenShown() {
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

void TestTimelineChart::admittedBurstMarked_data() {
    QTest::addColumn<bool>("dark");
    QTest::newRow("light") << false;
    QTest::newRow("dark") << true;
}

// The run's busiest interval of the shortest config window is a box on the timeline with its
// label over it, in the palette's highlight colour; the tooltip there lists every window.
void TestTimelineChart::admittedBurstMarked() {
    QFETCH(bool, dark);
    TimelineChart chart;
    QPalette palette;
    palette.setColor(QPalette::Base, dark ? QColor(0x18, 0x18, 0x1c) : QColor(Qt::white));
    palette.setColor(QPalette::Text, dark ? QColor(0xe0, 0xe0, 0xe0) : QColor(Qt::black));
    palette.setColor(QPalette::Highlight,
                     dark ? QColor(0x3d, 0xae, 0xe9) : QColor(0x30, 0x8c, 0xc6));
    chart.setPalette(palette);
    chart.resize(1024, 300);
    chart.show();
    QVERIFY(QTest::qWaitForWindowExposed(&chart));
    const LimiterSpec spec = tokenBucket(10, 1000);
    chart.setLimiter(spec, 1, 100, kStart);
    chart.updateFrom(makeRun(spec, 100, 20000), 0, nullptr);
    auto interval = [](qint64 windowMs, qint64 permits, qint64 fromRunMs) {
        ratelab::BusiestInterval b;
        b.windowMs = windowMs;
        b.permits = permits;
        b.fromMs = kStart + fromRunMs;
        b.firstMs = b.fromMs;
        b.lastMs = b.fromMs + windowMs - 1;
        return b;
    };
    chart.setBusiestIntervals(
        {interval(60000, 190, 0), interval(1000, 20, 7500), interval(10000, 110, 2000)});
    const QString label = QStringLiteral("20 accepted in 1000 ms here");
    QVERIFY2(drawnTexts(chart).contains(label), qPrintable(drawnTexts(chart).join(u'|')));

    // The box spans [7.5, 8.5) s and the label sits over it, inside the plot.
    const QRectF plot = chart.chart()->plotArea();
    const double left = chart.chart()->mapToPosition(QPointF(7.5, 0), chart.acceptedArea()).x();
    const double right = chart.chart()->mapToPosition(QPointF(8.5, 0), chart.acceptedArea()).x();
    const QGraphicsRectItem* box = nullptr;
    const QGraphicsItem* labelItem = nullptr;
    for (QGraphicsItem* item : chart.scene()->items()) {
        auto* rect = dynamic_cast<QGraphicsRectItem*>(item);
        if (rect && rect->isVisible() && rect->pen().style() != Qt::NoPen &&
            rect->pen().color() == palette.color(QPalette::Highlight))
            box = rect;
        auto* text = dynamic_cast<QGraphicsSimpleTextItem*>(item);
        if (text && text->isVisible() && text->text() == label)
            labelItem = text;
    }
    QVERIFY(box);
    QVERIFY(labelItem);
    const QRectF boxRect = box->mapRectToItem(chart.chart(), box->rect());
    QVERIFY2(std::abs(boxRect.left() - left) < 1.5 && std::abs(boxRect.right() - right) < 1.5,
             qPrintable(QStringLiteral("%1..%2 vs %3..%4")
                            .arg(boxRect.left())
                            .arg(boxRect.right())
                            .arg(left)
                            .arg(right)));
    const QRectF labelRect = labelItem->mapRectToItem(chart.chart(), labelItem->boundingRect());
    QVERIFY(plot.contains(labelRect));
    QVERIFY(labelRect.left() < right && labelRect.right() > left);
    // Readable: the label's text in the palette's text colour.
    QCOMPARE(dynamic_cast<const QGraphicsSimpleTextItem*>(labelItem)->brush().color(),
             palette.color(QPalette::Text));

    const QString tip = chart.toolTipAt(8.0);
    for (const QString& figure :
         {QStringLiteral("1000 ms: 20 accepted"), QStringLiteral("10000 ms: 110 accepted"),
          QStringLiteral("60000 ms: 190 accepted")})
        QVERIFY2(tip.contains(figure), qPrintable(tip));
    QVERIFY(!chart.toolTipAt(12.0).contains(QStringLiteral("1000 ms: 20 accepted")));

    chart.setBusiestIntervals({});
    QVERIFY(!drawnTexts(chart).contains(label));
}

QTEST_MAIN(TestTimelineChart)
#include "tst_timeline_chart.moc"
