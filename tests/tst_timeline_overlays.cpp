// What the timeline chart draws over the series from the limiter's state and the run: fixed
// window bands and their counts, the token line, sliding window spans, markers, and the busiest
// interval of the admitted burst.

#include <QAreaSeries>
#include <QChart>
#include <QGraphicsRectItem>
#include <QGraphicsScene>
#include <QGraphicsSimpleTextItem>
#include <QLegend>
#include <QLegendMarker>
#include <QLineSeries>
#include <QValueAxis>
#include <QtTest>

#include <cmath>

#include "charts/timeline_chart.h"
#include "limiters/limiter_state.h"
#include "stats/run_snapshot.h"
#include "support/timeline_runs.h"

using namespace ratelab;
using namespace ratelab::test;

Q_DECLARE_METATYPE(ratelab::LimiterSpec)

namespace {

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

class TestTimelineOverlays : public QObject {
    Q_OBJECT

private slots:
    void fixedWindowBands_data();
    void fixedWindowBands();
    void fixedWindowCountKeptAfterExpiry();
    void tokenHistory_data();
    void tokenHistory();
    void tokenHistoryIsBounded();
    void slidingSpans_data();
    void slidingSpans();
    void markersKept();
    void tokenLineBreaksAtOutage();
    void everyWindowShowsItsCount();
    void admittedBurstMarked_data();
    void admittedBurstMarked();
    void burstLabelClearsSpanLabels();
};

void TestTimelineOverlays::fixedWindowBands_data() {
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

void TestTimelineOverlays::fixedWindowBands() {
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

void TestTimelineOverlays::fixedWindowCountKeptAfterExpiry() {
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

void TestTimelineOverlays::tokenHistory_data() {
    QTest::addColumn<LimiterSpec>("spec");
    QTest::addColumn<QStringList>("clients");

    QTest::newRow("global") << tokenBucket(10, 1000) << QStringList{QString()};
    QTest::newRow("per client, 3 clients")
        << tokenBucket(5, 1000, Scope::PerClient)
        << QStringList{QStringLiteral("a"), QStringLiteral("b"), QStringLiteral("c")};
}

void TestTimelineOverlays::tokenHistory() {
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

void TestTimelineOverlays::tokenHistoryIsBounded() {
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

void TestTimelineOverlays::slidingSpans_data() {
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

void TestTimelineOverlays::slidingSpans() {
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

    // Hovering an earlier step says the span is the state at the last reading, not that step's
    // (at 7.25 s it read "… · 30 in all" as if counted then).
    const QString past = chart.toolTipAt(7.25);
    QVERIFY2(past.contains(QStringLiteral("Redis at 8.00 s (the last reading, not this step): ") +
                           labels.last().toHtmlEscaped()),
             qPrintable(past));
    QVERIFY(!past.contains(QStringLiteral("sliding window")));
    const QString now = chart.toolTipAt(7.95);
    QVERIFY2(now.contains(QStringLiteral("Redis at 8.00 s (the last reading): ")), qPrintable(now));
}

void TestTimelineOverlays::markersKept() {
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

// The permits line breaks where Redis was gone instead of running straight across the outage.
void TestTimelineOverlays::tokenLineBreaksAtOutage() {
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

// Every window shows its count, however narrow its band (a label wider than its band is not left
// out): a narrow band shows the count alone; the tooltip has it whole.
void TestTimelineOverlays::everyWindowShowsItsCount() {
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

void TestTimelineOverlays::admittedBurstMarked_data() {
    QTest::addColumn<bool>("dark");
    QTest::newRow("light") << false;
    QTest::newRow("dark") << true;
}

// The run's busiest interval of the shortest config window is a box on the timeline with its
// label over it, in the palette's highlight colour; the tooltip there lists every window.
void TestTimelineOverlays::admittedBurstMarked() {
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

// Two rules' span labels stack at the top; the admitted burst's label goes below them, never
// over the second (it was drawn on the second row whatever stood there).
void TestTimelineOverlays::burstLabelClearsSpanLabels() {
    TimelineChart chart;
    QVERIFY(show(chart));
    const LimiterSpec spec = slidingWindow({{5, 1000}, {20, 60000}});
    chart.setLimiter(spec, 1, 100, kStart);
    LimiterState state;
    state.nowMs = kStart + 8000;
    state.spans = {ruleSpan(5, 1000, 3), ruleSpan(20, 60000, 12)};
    chart.updateFrom(makeRun(spec, 100, 8000), 0, &state);
    ratelab::BusiestInterval busiest;
    busiest.windowMs = 1000;
    busiest.permits = 5;
    busiest.fromMs = kStart + 7000;
    busiest.firstMs = busiest.fromMs;
    busiest.lastMs = busiest.fromMs + 999;
    chart.setBusiestIntervals({busiest});

    auto rectOf = [&chart](const QString& text) {
        for (QGraphicsItem* item : chart.scene()->items()) {
            auto* label = dynamic_cast<QGraphicsSimpleTextItem*>(item);
            if (label && label->isVisible() && label->text() == text)
                return label->mapRectToItem(chart.chart(), label->boundingRect());
        }
        return QRectF();
    };
    const QRectF burst = rectOf(QStringLiteral("5 accepted in 1000 ms here"));
    QVERIFY(!burst.isEmpty());
    for (const QString& span :
         {QStringLiteral("5/1000 ms: 3 of 5"), QStringLiteral("20/60000 ms: 12 of 20")}) {
        const QRectF spanRect = rectOf(span);
        QVERIFY2(!spanRect.isEmpty(), qPrintable(span));
        QVERIFY2(!burst.intersects(spanRect), qPrintable(span));
    }
    QVERIFY(chart.chart()->plotArea().contains(burst));
}

QTEST_MAIN(TestTimelineOverlays)
#include "tst_timeline_overlays.moc"
