// TimelineModel: the live timeline's data without a view. Series from a sequence of snapshots
// and Redis states: step points per visible bucket group, the limit, the token history, the
// fixed windows' remembered counts and shades, the sliding spans, markers.

#include <QtTest>

#include "charts/timeline_model.h"
#include "limiters/limiter_state.h"
#include "stats/run_snapshot.h"

using ratelab::BusiestInterval;
using ratelab::CalendarUnit;
using ratelab::LimiterSnapshot;
using ratelab::LimiterSpec;
using ratelab::LimiterState;
using ratelab::LimiterType;
using ratelab::RunSnapshot;
using ratelab::Scope;
using ratelab::TimelineModel;

Q_DECLARE_METATYPE(ratelab::Scope)
Q_DECLARE_METATYPE(ratelab::LimiterSpec)
Q_DECLARE_METATYPE(QVector<ratelab::BusiestInterval>)
Q_DECLARE_METATYPE(ratelab::LimiterType)
Q_DECLARE_METATYPE(QVector<LimiterState::Level>)
Q_DECLARE_METATYPE(QVector<TimelineModel::Span>)

namespace {

// Run time 0 on a whole minute (UTC): windows of seconds start at whole run seconds.
constexpr qint64 kStart = 1'700'000'040'000;

LimiterSpec tokenBucket(qint64 rate) {
    LimiterSpec spec;
    spec.type = LimiterType::TokenBucket;
    spec.name = QStringLiteral("api");
    spec.rate = rate;
    spec.intervalMs = 1000;
    return spec;
}

LimiterSpec fixedWindow(qint64 rate, qint64 seconds, Scope scope = Scope::Global) {
    LimiterSpec spec;
    spec.type = LimiterType::FixedWindow;
    spec.name = QStringLiteral("quota");
    spec.scope = scope;
    spec.rate = rate;
    spec.interval = seconds;
    spec.unit = CalendarUnit::Seconds;
    spec.timezone = QByteArrayLiteral("UTC");
    return spec;
}

// A snapshot at `elapsedMs` whose buckets hold `accepted` and `rejected` (the rest zero).
RunSnapshot snapshot(const LimiterSpec& spec, qint64 bucketMs, qint64 elapsedMs,
                     const QVector<qint64>& accepted, const QVector<qint64>& rejected,
                     int clients = 1) {
    RunSnapshot run;
    run.startEpochMs = kStart;
    run.bucketMs = bucketMs;
    run.elapsedUs = elapsedMs * 1000;
    run.durationUs = run.elapsedUs * 2;
    LimiterSnapshot limiter;
    limiter.spec = spec;
    limiter.bucketAccepted = accepted;
    limiter.bucketRejected = rejected;
    limiter.bucketErrors = QVector<qint64>(accepted.size(), 0);
    for (int c = 0; c < clients; ++c) {
        ratelab::ClientTotals totals;
        totals.client = QStringLiteral("c%1").arg(c);
        limiter.clients.append(totals);
    }
    run.limiters.append(limiter);
    return run;
}

LimiterState tokens(qint64 runMs, qint64 available) {
    LimiterState state;
    state.nowMs = kStart + runMs;
    state.tokensAvailable = {{QString(), available}};
    return state;
}

LimiterState windows(qint64 runMs, const QVector<QPair<qint64, qint64>>& startCounts) {
    LimiterState state;
    state.nowMs = kStart + runMs;
    for (const auto& [startRunMs, count] : startCounts) {
        LimiterState::WindowCount w;
        w.startMs = kStart + startRunMs;
        w.endMs = w.startMs + 1000;
        w.count = count;
        state.windows.append(w);
    }
    return state;
}

// `permits` accepted in [fromRunMs, fromRunMs + windowMs), the first and last of them 10 ms
// inside its edges; times on the run's clock (epoch ms).
BusiestInterval busiest(qint64 windowMs, qint64 permits, qint64 fromRunMs) {
    BusiestInterval b;
    b.windowMs = windowMs;
    b.permits = permits;
    b.fromMs = kStart + fromRunMs;
    b.firstMs = b.fromMs + 10;
    b.lastMs = b.fromMs + windowMs - 10;
    return b;
}

// The summary's windows: 1 s, 10 s and 60 s besides the config's.
QVector<BusiestInterval> standardWindows() {
    return {busiest(1000, 20, 3200), busiest(10000, 150, 0), busiest(60000, 300, 0)};
}

}  // namespace

class TestTimelineModel : public QObject {
    Q_OBJECT

private slots:
    void countsAreStepsOfTheReachedBuckets_data();
    void countsAreStepsOfTheReachedBuckets();
    void countsGroupedToABoundedNumberOfPoints();
    void countsAtMostOneStepPerPixel_data();
    void countsAtMostOneStepPerPixel();
    void tokenDipsSurviveZoomingOut();
    void burstMarksTheShortestConfigWindow_data();
    void burstMarksTheShortestConfigWindow();
    void burstClearedByANewRun();
    void burstNamesTheRunClockWhereItDiffers_data();
    void burstNamesTheRunClockWhereItDiffers();
    void limitAndErrors();
    void tokenHistoryFromStates();
    void windowCountsRememberedAfterExpiry_data();
    void windowCountsRememberedAfterExpiry();
    void windowShadesKeptWhileScrolling();
    void specChangeKeepsOrClearsHistory();
    void slidingSpans();
    void algorithmLevels_data();
    void algorithmLevels();
    void markersBounded();
    void followRange();
    void followRangeIsTheWholeDuration();
    void countsAreStacked();
    void limitIsAStepOverTime();
    void editMarkerSaysWhatChanged_data();
    void editMarkerSaysWhatChanged();
    void tokenLineBreaksWhereDecisionsFailed();
};

void TestTimelineModel::countsAreStepsOfTheReachedBuckets_data() {
    QTest::addColumn<qint64>("elapsedMs");
    QTest::addColumn<QList<QPointF>>("accepted");
    // Buckets of 100 ms with 1, 2, 3, 4, 5 accepted; only those reached are drawn, the last one
    // clipped to the run time.
    QTest::newRow("all reached") << qint64(500)
                                 << QList<QPointF>{{0, 1},   {0.1, 1}, {0.1, 2}, {0.2, 2},
                                                   {0.2, 3}, {0.3, 3}, {0.3, 4}, {0.4, 4},
                                                   {0.4, 5}, {0.5, 5}};
    QTest::newRow("mid bucket") << qint64(250) << QList<QPointF>{{0, 1},   {0.1, 1}, {0.1, 2},
                                                                 {0.2, 2}, {0.2, 3}, {0.25, 3}};
}

void TestTimelineModel::countsAreStepsOfTheReachedBuckets() {
    QFETCH(qint64, elapsedMs);
    QFETCH(QList<QPointF>, accepted);
    TimelineModel model;
    model.setLimiter(tokenBucket(10), 1, 100, kStart);
    QVERIFY(model.update(
        snapshot(tokenBucket(10), 100, elapsedMs, {1, 2, 3, 4, 5}, {0, 0, 0, 0, 0}), 0, nullptr));
    const TimelineModel::Counts counts = model.counts(0, 30);
    QCOMPARE(counts.accepted, accepted);
    QCOMPARE(counts.groupMs, qint64(100));
    QVERIFY(!counts.showErrors);
    QVERIFY(counts.errors.isEmpty());
    QCOMPARE(counts.rejected.size(), accepted.size());
    for (const QPointF& p : counts.rejected)
        QCOMPARE(p.y(), 0.0);
    // No such limiter in the snapshot: nothing taken.
    QVERIFY(!model.update(RunSnapshot(), 0, nullptr));
}

void TestTimelineModel::countsGroupedToABoundedNumberOfPoints() {
    // One hour of 10 ms buckets, one accepted each: a whole-run view sums them into groups.
    const int buckets = 360000;
    TimelineModel model;
    model.setLimiter(tokenBucket(10), 1, 10, kStart);
    model.update(snapshot(tokenBucket(10), 10, qint64(buckets) * 10, QVector<qint64>(buckets, 1),
                          QVector<qint64>(buckets, 0)),
                 0, nullptr);
    const TimelineModel::Counts counts = model.counts(0, 3600);
    QVERIFY2(counts.accepted.size() <= TimelineModel::kMaxPointsPerSeries,
             qPrintable(QString::number(counts.accepted.size())));
    QVERIFY(counts.groupMs > 10);
    double total = 0;
    for (int i = 0; i < counts.accepted.size(); i += 2) {
        QCOMPARE(counts.accepted[i].y(), double(counts.groupMs / 10));
        total += counts.accepted[i].y();
    }
    QCOMPARE(total, double(buckets));  // every bucket in exactly one group
}

void TestTimelineModel::countsAtMostOneStepPerPixel_data() {
    QTest::addColumn<int>("columns");
    QTest::addColumn<qint64>("groupMs");
    // 60 s of 100 ms buckets in view.
    QTest::newRow("wide plot: every bucket") << 1200 << qint64(100);
    QTest::newRow("600 px: every bucket") << 640 << qint64(100);
    QTest::newRow("400 px: pairs") << 400 << qint64(200);
    QTest::newRow("100 px: seconds") << 100 << qint64(1000);
    QTest::newRow("width unknown") << 0 << qint64(100);
}

// The steps are groups of buckets at least a pixel wide; each group is its buckets' sum, so
// totals are kept and a one-bucket spike is still the highest step.
void TestTimelineModel::countsAtMostOneStepPerPixel() {
    QFETCH(int, columns);
    QFETCH(qint64, groupMs);
    QVector<qint64> accepted(600, 1);
    accepted[377] = 500;
    TimelineModel model;
    model.setLimiter(tokenBucket(10), 1, 100, kStart);
    model.update(snapshot(tokenBucket(10), 100, 60000, accepted, QVector<qint64>(600, 0)), 0,
                 nullptr);
    const TimelineModel::Counts counts = model.counts(0, 60, columns);
    QCOMPARE(counts.groupMs, groupMs);
    if (columns > 0)
        QVERIFY(counts.accepted.size() / 2 <= columns);
    double total = 0;
    double highest = 0;
    for (int i = 0; i < counts.accepted.size(); i += 2) {
        total += counts.accepted[i].y();
        highest = std::max(highest, counts.accepted[i].y());
    }
    QCOMPARE(total, 599.0 + 500.0);
    QCOMPARE(highest, 500.0 + double(groupMs / 100 - 1));
}

// A permits line of 4000 readings drawn 50 pixels wide keeps the one reading at 0.
void TestTimelineModel::tokenDipsSurviveZoomingOut() {
    TimelineModel model;
    const LimiterSpec spec = tokenBucket(10);
    model.setLimiter(spec, 1, 100, kStart);
    const RunSnapshot run = snapshot(spec, 100, 400000, {}, {});
    for (qint64 i = 1; i <= 4000; ++i) {
        const LimiterState state = tokens(i * 100, i == 2345 ? 0 : 10);
        model.update(run, 0, &state);
    }
    const TimelineModel::Tokens drawn = model.tokens(0, 400, 50);
    QVERIFY2(drawn.points.size() <= 4 * 50, qPrintable(QString::number(drawn.points.size())));
    QVERIFY(drawn.points.contains(QPointF(234.5, 0)));
    QCOMPARE(drawn.points.last(), QPointF(400, 10));  // the newest reading
    // Width unknown: bounded all the same, and the dip kept.
    const TimelineModel::Tokens unknown = model.tokens(0, 400, 0);
    QVERIFY(unknown.points.size() <= TimelineModel::kMaxPointsPerSeries);
    QVERIFY(unknown.points.contains(QPointF(234.5, 0)));
}

void TestTimelineModel::burstMarksTheShortestConfigWindow_data() {
    QTest::addColumn<LimiterSpec>("spec");
    QTest::addColumn<QVector<BusiestInterval>>("intervals");
    QTest::addColumn<QString>("label");
    QTest::addColumn<double>("x0");
    QTest::addColumn<double>("x1");

    QTest::newRow("token bucket per 1000 ms")
        << tokenBucket(10) << standardWindows() << QStringLiteral("20 accepted in 1000 ms here")
        << 3.2 << 4.2;
    LimiterSpec sliding;
    sliding.type = LimiterType::SlidingWindow;
    sliding.name = QStringLiteral("login");
    sliding.rules = {{100, 60000}, {5, 500}};
    QTest::newRow("sliding log: its shortest rule")
        << sliding << (standardWindows() << busiest(500, 7, 12000))
        << QStringLiteral("7 accepted in 500 ms here") << 12.0 << 12.5;
    QTest::newRow("fixed window of 10 s")
        << fixedWindow(100, 10) << standardWindows()
        << QStringLiteral("150 accepted in 10000 ms here") << 0.0 << 10.0;
    // No config window among them (an older summary): the shortest given.
    LimiterSpec gcra;
    gcra.type = LimiterType::Gcra;
    gcra.name = QStringLiteral("g");
    gcra.rate = 5;
    gcra.periodMs = 250;
    gcra.burst = 2;
    QTest::newRow("no config window: the shortest")
        << gcra << standardWindows() << QStringLiteral("20 accepted in 1000 ms here") << 3.2 << 4.2;
}

void TestTimelineModel::burstMarksTheShortestConfigWindow() {
    QFETCH(LimiterSpec, spec);
    QFETCH(QVector<BusiestInterval>, intervals);
    QFETCH(QString, label);
    QFETCH(double, x0);
    QFETCH(double, x1);
    TimelineModel model;
    model.setLimiter(spec, 1, 100, kStart);
    QVERIFY(!model.burst());
    model.setBusiestIntervals(intervals);
    const std::optional<TimelineModel::Burst> burst = model.burst();
    QVERIFY(burst);
    QCOMPARE(burst->label, label);
    QCOMPARE(burst->x0, x0);
    QCOMPARE(burst->x1, x1);
    QCOMPARE(burst->first, x0 + 0.01);
    QCOMPARE(burst->last, x1 - 0.01);
    // The tooltip has every window's figure.
    for (const BusiestInterval& b : intervals) {
        QVERIFY2(burst->toolTip.contains(
                     QStringLiteral("%1 ms: %2 accepted").arg(b.windowMs).arg(b.permits)),
                 qPrintable(burst->toolTip));
    }
    // Nothing accepted: nothing to mark.
    QVector<BusiestInterval> none = intervals;
    for (BusiestInterval& b : none)
        b.permits = 0;
    model.setBusiestIntervals(none);
    QVERIFY(!model.burst());
    model.setBusiestIntervals({});
    QVERIFY(!model.burst());
}

void TestTimelineModel::burstClearedByANewRun() {
    TimelineModel model;
    model.setLimiter(tokenBucket(10), 1, 100, kStart);
    model.setBusiestIntervals(standardWindows());
    QVERIFY(model.burst());
    model.setLimiter(tokenBucket(10), 1, 100, kStart + 60000);
    QVERIFY(!model.burst());
    QVERIFY(model.busiestIntervals().isEmpty());
}

// The mark is the limiter's own figure; where the run's clock counted more in the same window
// (skewed clocks), the label names that figure beside it and the tooltip lists both clocks.
void TestTimelineModel::burstNamesTheRunClockWhereItDiffers_data() {
    QTest::addColumn<qint64>("runClockPermits");
    QTest::addColumn<QString>("label");
    QTest::newRow("same on both clocks")
        << qint64(10) << QStringLiteral("10 accepted in 1000 ms here");
    QTest::newRow("more on the run's clock")
        << qint64(13) << QStringLiteral("10 accepted in 1000 ms here · 13 on the run's clock");
}

void TestTimelineModel::burstNamesTheRunClockWhereItDiffers() {
    QFETCH(qint64, runClockPermits);
    QFETCH(QString, label);
    TimelineModel model;
    model.setLimiter(tokenBucket(10), 1, 100, kStart);
    model.setBusiestIntervals({busiest(1000, 10, 2000)}, {busiest(1000, runClockPermits, 2400)});
    const std::optional<TimelineModel::Burst> burst = model.burst();
    QVERIFY(burst);
    QCOMPARE(burst->label, label);
    QCOMPARE(burst->x0, 2.0);  // the limiter's interval, not the run clock's
    QVERIFY(burst->toolTip.contains(QStringLiteral("On the run's own clock")));
    QVERIFY2(burst->toolTip.contains(QStringLiteral("1000 ms: %1 accepted").arg(runClockPermits)),
             qPrintable(burst->toolTip));
    // Without the run clock's figures (an older summary) the label is the limiter's alone.
    model.setBusiestIntervals({busiest(1000, 10, 2000)});
    QCOMPARE(model.burst()->label, QStringLiteral("10 accepted in 1000 ms here"));
}

void TestTimelineModel::limitAndErrors() {
    TimelineModel model;
    model.setLimiter(tokenBucket(10), 1, 100, kStart);
    RunSnapshot run = snapshot(tokenBucket(10), 100, 300, {1, 1, 1}, {0, 0, 0});
    run.limiters[0].bucketErrors = {0, 2, 0};
    run.limiters[0].errors = 2;
    model.update(run, 0, nullptr);
    const TimelineModel::Counts counts = model.counts(0, 30);
    // 10 per second: 1 per 100 ms bucket, across the view.
    QCOMPARE(counts.limit, (QList<QPointF>{{0, 1}, {30, 1}}));
    QVERIFY(counts.showErrors);
    QCOMPARE(counts.errors.value(2), QPointF(0.1, 2));
    QCOMPARE(counts.yMax, 3.0);  // the stacked top: fired = 1 accepted + 2 errors
}

void TestTimelineModel::tokenHistoryFromStates() {
    TimelineModel model;
    const LimiterSpec spec = tokenBucket(10);
    model.setLimiter(spec, 1, 100, kStart);
    const RunSnapshot run = snapshot(spec, 100, 3000, {}, {});
    const QVector<LimiterState> states = {tokens(1000, 10), tokens(2000, 4), tokens(2000, 5),
                                          tokens(3000, 0)};
    for (const LimiterState& state : states)
        model.update(run, 0, &state);
    TimelineModel::Tokens drawn = model.tokens(0, 30);
    QVERIFY(drawn.shown);
    // A second reading at the same time replaces the first.
    QCOMPARE(drawn.points, (QList<QPointF>{{1, 10}, {2, 5}, {3, 0}}));
    QCOMPARE(drawn.axisTop, 10.0);  // the capacity

    // A restarted clock: a reading from before the newest replaces what follows it.
    const LimiterState earlier = tokens(1500, 7);
    model.update(run, 0, &earlier);
    QCOMPARE(model.tokens(0, 30).points, (QList<QPointF>{{1, 10}, {1.5, 7}}));

    // Only the token bucket has a token line.
    model.setLimiter(fixedWindow(10, 1), 1, 100, kStart);
    QVERIFY(!model.tokens(0, 30).shown);
}

void TestTimelineModel::windowCountsRememberedAfterExpiry_data() {
    QTest::addColumn<int>("clients");
    QTest::addColumn<Scope>("scope");
    QTest::addColumn<QStringList>("labels");
    QTest::newRow("global") << 1 << Scope::Global
                            << QStringList{QStringLiteral("7/10"), QStringLiteral("3/10"),
                                           QStringLiteral("0/10")};
    // Per client: the capacity is the rate times the clients.
    QTest::newRow("per client") << 4 << Scope::PerClient
                                << QStringList{QStringLiteral("7/40"), QStringLiteral("3/40"),
                                               QStringLiteral("0/40")};
}

void TestTimelineModel::windowCountsRememberedAfterExpiry() {
    QFETCH(int, clients);
    QFETCH(Scope, scope);
    QFETCH(QStringList, labels);
    const LimiterSpec spec = fixedWindow(10, 1, scope);
    TimelineModel model;
    model.setLimiter(spec, clients, 100, kStart);
    const RunSnapshot run = snapshot(spec, 100, 3000, {}, {}, clients);
    // Window [0, 1) read with 7, then [1, 2) with 3 after [0, 1) expired, then at 2.5 s the
    // window of now has no counter yet: it holds 0.
    const QVector<LimiterState> states = {windows(900, {{0, 7}}), windows(1900, {{1000, 3}}),
                                          windows(2500, {})};
    for (const LimiterState& state : states)
        model.update(run, 0, &state);
    const QVector<TimelineModel::Band> bands = model.bands(0, 3);
    QCOMPARE(bands.size(), 3);
    QStringList drawn;
    for (const TimelineModel::Band& band : bands)
        drawn << band.label;
    QCOMPARE(drawn, labels);
    QCOMPARE(bands[1].x0, 1.0);
    QCOMPARE(bands[1].x1, 2.0);
}

void TestTimelineModel::windowShadesKeptWhileScrolling() {
    TimelineModel model;
    model.setLimiter(fixedWindow(10, 1), 1, 100, kStart);
    const QVector<TimelineModel::Band> first = model.bands(0, 4);
    QCOMPARE(first.size(), 4);
    for (int i = 1; i < first.size(); ++i)
        QVERIFY(first[i].odd != first[i - 1].odd);  // alternating
    // Scrolled by one window: window [1, 2) keeps the shade it had.
    const QVector<TimelineModel::Band> scrolled = model.bands(1, 5);
    QCOMPARE(scrolled.first().x0, 1.0);
    QCOMPARE(scrolled.first().odd, first[1].odd);
    // More windows than can be drawn: none.
    QVERIFY(model.bands(0, TimelineModel::kMaxBands + 10).isEmpty());
}

void TestTimelineModel::specChangeKeepsOrClearsHistory() {
    LimiterSpec spec = fixedWindow(10, 1);
    TimelineModel model;
    model.setLimiter(spec, 1, 100, kStart);
    const LimiterState state = windows(900, {{0, 7}});
    model.update(snapshot(spec, 100, 1000, {}, {}), 0, &state);
    QCOMPARE(model.bands(0, 1).value(0).label, QStringLiteral("7/10"));

    // Another rate, same windows: the counts stay, against the new capacity.
    spec.rate = 20;
    model.update(snapshot(spec, 100, 1100, {}, {}), 0, nullptr);
    QCOMPARE(model.spec().rate, qint64(20));
    QCOMPARE(model.bands(0, 1).value(0).label, QStringLiteral("7/20"));

    // Other windows: the old counts no longer apply.
    spec.interval = 2;
    model.update(snapshot(spec, 100, 1200, {}, {}), 0, nullptr);
    QCOMPARE(model.bands(0, 2).value(0).label, QString());
}

void TestTimelineModel::slidingSpans() {
    LimiterSpec spec;
    spec.type = LimiterType::SlidingWindow;
    spec.name = QStringLiteral("login");
    spec.rules = {{5, 1000}, {20, 60000}};
    TimelineModel model;
    model.setLimiter(spec, 1, 100, kStart);
    LimiterState state;
    state.nowMs = kStart + 70000;
    state.spans = {{5, 1000, 3, 3, QString()}, {20, 60000, 12, 12, QString()}};
    model.update(snapshot(spec, 100, 70000, {}, {}), 0, &state);
    const QVector<TimelineModel::Span> spans = model.spans();
    QCOMPARE(spans.size(), 2);
    QCOMPARE(spans[0].label, QStringLiteral("5/1000 ms: 3 of 5"));
    QCOMPARE(spans[1].label, QStringLiteral("20/60000 ms: 12 of 20"));
    QCOMPARE(spans[1].x0, 10.0);
    QCOMPARE(spans[1].x1, 70.0);
}

// GCRA, the counter and the leaky bucket: the permits left on the token axis and their state as
// spans ending at now (GCRA's tolerance and TAT ahead of now, the leaky bucket's drain time) or
// the counter's two windows.
void TestTimelineModel::algorithmLevels_data() {
    QTest::addColumn<LimiterType>("type");
    QTest::addColumn<Scope>("scope");
    QTest::addColumn<QVector<LimiterState::Level>>("levels");
    QTest::addColumn<double>("available");
    QTest::addColumn<QVector<TimelineModel::Span>>("spans");
    // now = run second 70.25; window 70..71 for the counter.
    LimiterState::Level gcra;
    gcra.used = 3;
    gcra.capacity = 5;
    gcra.aheadMs = 300;
    QTest::newRow("gcra") << LimiterType::Gcra << Scope::Global
                          << QVector<LimiterState::Level>{gcra} << 2.0
                          << QVector<TimelineModel::Span>{
                                 {69.75, 70.25,
                                  QStringLiteral("tolerance 500 ms = burst 5 × 100 ms")},
                                 {69.95, 70.25, QStringLiteral("TAT = now + 300 ms")}};
    QTest::newRow("gcra, no key yet")
        << LimiterType::Gcra << Scope::Global << QVector<LimiterState::Level>{} << 5.0
        << QVector<TimelineModel::Span>{};
    LimiterState::Level counter;
    counter.used = 9;  // floor(8 x 750 / 1000) + 3
    counter.capacity = 10;
    counter.windowStartMs = kStart + 70000;
    counter.previous = 8;
    counter.current = 3;
    QTest::newRow("sliding counter")
        << LimiterType::SlidingCounter << Scope::Global << QVector<LimiterState::Level>{counter}
        << 1.0
        << QVector<TimelineModel::Span>{{69, 70, QStringLiteral("previous 8 × 75%")},
                                        {70, 71, QStringLiteral("current 3 · estimate 9 of 10")}};
    LimiterState::Level quiet;
    quiet.client = QStringLiteral("c0");
    quiet.used = 1;
    quiet.capacity = 5;
    quiet.aheadMs = 200;
    LimiterState::Level busy = quiet;
    busy.client = QStringLiteral("c2");
    busy.used = 2.5;
    busy.aheadMs = 350;
    // Three clients, two with a key: 5 + 4 + 2.5 permits left.
    QTest::newRow("leaky bucket per client")
        << LimiterType::LeakyBucket << Scope::PerClient << QVector<LimiterState::Level>{quiet, busy}
        << 11.5
        << QVector<TimelineModel::Span>{
               {70, 70.25,
                QStringLiteral(
                    "water 2.5 of 5, drains in 250 ms · queue delay 350 ms (busiest client c2)")}};
}

void TestTimelineModel::algorithmLevels() {
    QFETCH(LimiterType, type);
    QFETCH(Scope, scope);
    QFETCH(QVector<LimiterState::Level>, levels);
    QFETCH(double, available);
    QFETCH(QVector<TimelineModel::Span>, spans);
    LimiterSpec spec;
    spec.type = type;
    spec.name = QStringLiteral("cmp");
    spec.scope = scope;
    spec.rate = 10;
    spec.periodMs = 1000;
    spec.burst = spec.type == LimiterType::Gcra ? 5 : 4;
    spec.limit = 10;
    spec.windowMs = 1000;
    TimelineModel model;
    model.setLimiter(spec, 3, 100, kStart);
    LimiterState state;
    state.nowMs = kStart + 70250;
    state.levels = levels;
    model.update(snapshot(spec, 100, 70250, {}, {}), 0, &state);
    const TimelineModel::Tokens tokens = model.tokens(0, 100);
    QVERIFY(tokens.shown);
    QCOMPARE(tokens.points, (QList<QPointF>{{70.25, available}}));
    const QVector<TimelineModel::Span> drawn = model.spans();
    QCOMPARE(drawn.size(), spans.size());
    for (int i = 0; i < spans.size(); ++i) {
        QCOMPARE(drawn[i].label, spans[i].label);
        QCOMPARE(drawn[i].x0, spans[i].x0);
        QCOMPARE(drawn[i].x1, spans[i].x1);
    }
}

void TestTimelineModel::markersBounded() {
    TimelineModel model;
    model.setLimiter(tokenBucket(10), 1, 100, kStart);
    for (int i = 0; i < TimelineModel::kMaxMarkers + 5; ++i)
        model.addMarker(i, QString::number(i));
    QCOMPARE(model.markers().size(), TimelineModel::kMaxMarkers);
    QCOMPARE(model.markers().first().label, QStringLiteral("5"));  // the oldest went first
    model.setLimiter(tokenBucket(10), 1, 100, kStart);
    QVERIFY(model.markers().isEmpty());
}

void TestTimelineModel::followRange() {
    TimelineModel model;
    model.setLimiter(tokenBucket(10), 1, 100, kStart);
    QCOMPARE(model.followRange(30), std::make_pair(0.0, 30.0));  // no run yet
    // A snapshot without a planned duration: the last windowSeconds.
    RunSnapshot run = snapshot(tokenBucket(10), 100, 45000, {}, {});
    run.durationUs = 0;
    model.update(run, 0, nullptr);
    QCOMPARE(model.followRange(30), std::make_pair(15.0, 45.0));
    QCOMPARE(model.title(), QStringLiteral("<b>api</b> · token_bucket · 10 per 1000 ms"));
    // Each gateway its own state: the title says whose is drawn.
    LimiterSpec local = tokenBucket(10);
    local.gateway.mode = ratelab::GatewayMode::Local;
    model.setLimiter(local, 1, 100, kStart);
    QVERIFY2(model.title().endsWith(QStringLiteral("<i>Redis state: gateway 0's own</i>")),
             qPrintable(model.title()));
}

// The axis shows [0, duration] throughout: it does not rescale as the run goes on (0-3-8-20 s),
// jump on Stop, or show 0-30 before a 3 s run.
void TestTimelineModel::followRangeIsTheWholeDuration() {
    TimelineModel model;
    model.setLimiter(tokenBucket(10), 1, 100, kStart);
    model.setDurationSeconds(3);
    QCOMPARE(model.followRange(30), std::make_pair(0.0, 3.0));  // before the run
    for (qint64 elapsedMs : {100, 800, 2000, 3000}) {
        RunSnapshot run = snapshot(tokenBucket(10), 100, elapsedMs, {}, {});
        run.durationUs = 3'000'000;
        model.update(run, 0, nullptr);
        QCOMPARE(model.followRange(30), std::make_pair(0.0, 3.0));
    }
    // Stopped early: the axis stays.
    RunSnapshot stopped = snapshot(tokenBucket(10), 100, 1200, {}, {});
    stopped.durationUs = 3'000'000;
    stopped.finished = true;
    stopped.finishedAtUs = 1'200'000;
    model.update(stopped, 0, nullptr);
    QCOMPARE(model.followRange(30), std::make_pair(0.0, 3.0));
    // Late decisions past the duration widen it to show them.
    RunSnapshot late = snapshot(tokenBucket(10), 100, 3000, {}, {});
    late.durationUs = 3'000'000;
    late.finished = true;
    late.finishedAtUs = 3'400'000;
    model.update(late, 0, nullptr);
    QCOMPARE(model.followRange(30), std::make_pair(0.0, 3.4));
}

// The counts stack rather than overlap: the rejected area lies on the accepted one, errors on
// both, the top is the fired count.
void TestTimelineModel::countsAreStacked() {
    TimelineModel model;
    model.setLimiter(tokenBucket(10), 1, 100, kStart);
    RunSnapshot run = snapshot(tokenBucket(10), 100, 300, {5, 1, 0}, {2, 0, 4});
    run.limiters[0].bucketErrors = {0, 3, 1};
    run.limiters[0].errors = 4;
    model.update(run, 0, nullptr);
    const TimelineModel::Counts counts = model.counts(0, 0.3);
    const QList<QPointF> top{{0, 7}, {0.1, 7}, {0.1, 1}, {0.2, 1}, {0.2, 4}, {0.3, 4}};
    const QList<QPointF> fired{{0, 7}, {0.1, 7}, {0.1, 4}, {0.2, 4}, {0.2, 5}, {0.3, 5}};
    QCOMPARE(counts.rejectedTop, top);
    QCOMPARE(counts.errorsTop, fired);
    QCOMPARE(counts.yMax, 7.0);
}

// The limit changes with live edits: a step at each change, not the newest limit across the
// whole run.
void TestTimelineModel::limitIsAStepOverTime() {
    LimiterSpec spec = tokenBucket(10);
    TimelineModel model;
    model.setLimiter(spec, 1, 100, kStart);
    model.update(snapshot(spec, 100, 5000, {}, {}), 0, nullptr);
    spec.rate = 30;
    model.update(snapshot(spec, 100, 6000, {}, {}), 0, nullptr);
    model.update(snapshot(spec, 100, 7000, {}, {}), 0, nullptr);
    QCOMPARE(model.limitHistory().size(), 2);
    QCOMPARE(model.counts(0, 10).limit, (QList<QPointF>{{0, 1}, {6, 1}, {6, 3}, {10, 3}}));
    // A view after the change shows the new limit only.
    QCOMPARE(model.counts(7, 10).limit, (QList<QPointF>{{7, 3}, {10, 3}}));
    // A new run starts from its own spec.
    model.setLimiter(spec, 1, 100, kStart);
    QCOMPARE(model.counts(0, 10).limit, (QList<QPointF>{{0, 3}, {10, 3}}));
}

void TestTimelineModel::editMarkerSaysWhatChanged_data() {
    QTest::addColumn<QString>("windowLabel");  // what the window marked at once ("" none)
    QTest::addColumn<QString>("expected");
    QTest::newRow("window marked the edit")
        << QStringLiteral("config changed")
        << QStringLiteral("config changed: rate 10 \u2192 30, interval 1000 \u2192 2000 ms");
    QTest::newRow("snapshot only")
        << QString() << QStringLiteral("rate 10 \u2192 30, interval 1000 \u2192 2000 ms");
}

void TestTimelineModel::editMarkerSaysWhatChanged() {
    QFETCH(QString, windowLabel);
    QFETCH(QString, expected);
    LimiterSpec spec = tokenBucket(10);
    TimelineModel model;
    model.setLimiter(spec, 1, 100, kStart);
    model.update(snapshot(spec, 100, 5000, {}, {}), 0, nullptr);
    if (!windowLabel.isEmpty())
        model.addMarker(5.0, windowLabel);
    spec.rate = 30;
    spec.intervalMs = 2000;
    model.update(snapshot(spec, 100, 5100, {}, {}), 0, nullptr);
    QCOMPARE(model.markers().size(), 1);
    QCOMPARE(model.markers().first().label, expected);
}

// Where decisions failed nothing is known of the state: the permits line breaks there instead of
// running straight across the Redis outage.
void TestTimelineModel::tokenLineBreaksWhereDecisionsFailed() {
    TimelineModel model;
    model.setLimiter(tokenBucket(10), 1, 100, kStart);
    // Readings every second; decisions failed in [3.0, 5.0) s.
    QVector<qint64> errors(100, 0);
    for (int i = 30; i < 50; ++i)
        errors[i] = 2;
    for (qint64 ms = 1000; ms <= 9000; ms += 1000) {
        RunSnapshot run =
            snapshot(tokenBucket(10), 100, ms, QVector<qint64>(100, 0), QVector<qint64>(100, 0));
        run.limiters[0].bucketErrors = errors;
        run.limiters[0].errors = 40;
        const LimiterState state = tokens(ms, ms / 1000);
        model.update(run, 0, &state);
    }
    const TimelineModel::Tokens t = model.tokens(0, 10);
    QCOMPARE(t.segments.size(), 2);
    QCOMPARE(t.segments[0], (QList<QPointF>{{1, 1}, {2, 2}}));
    QCOMPARE(t.segments[1], (QList<QPointF>{{5, 5}, {6, 6}, {7, 7}, {8, 8}, {9, 9}}));
    // Without errors the line is whole.
    TimelineModel calm;
    calm.setLimiter(tokenBucket(10), 1, 100, kStart);
    for (qint64 ms = 1000; ms <= 3000; ms += 1000) {
        const LimiterState state = tokens(ms, 1);
        calm.update(snapshot(tokenBucket(10), 100, ms, {}, {}), 0, &state);
    }
    QCOMPARE(calm.tokens(0, 10).segments.size(), 1);
}

QTEST_GUILESS_MAIN(TestTimelineModel)
#include "tst_timeline_model.moc"
