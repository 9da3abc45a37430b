#include "support/timeline_runs.h"

#include <QChart>
#include <QGraphicsScene>
#include <QGraphicsSimpleTextItem>
#include <QValueAxis>
#include <QtTest>

namespace ratelab::test {

LimiterSpec tokenBucket(qint64 rate, qint64 intervalMs, Scope scope) {
    LimiterSpec spec;
    spec.type = LimiterType::TokenBucket;
    spec.name = QStringLiteral("api");
    spec.scope = scope;
    spec.rate = rate;
    spec.intervalMs = intervalMs;
    return spec;
}

LimiterSpec concurrency(qint64 limit, qint64 leaseMs) {
    LimiterSpec spec;
    spec.type = LimiterType::Concurrency;
    spec.name = QStringLiteral("slots");
    spec.limit = limit;
    spec.leaseMs = leaseMs;
    return spec;
}

QVector<double> stepValues(const QList<QPointF>& points) {
    QVector<double> values;
    for (int i = 0; i + 1 < points.size(); i += 2)
        values << points[i].y();
    return values;
}

LimiterSpec fixedWindow(qint64 rate, qint64 interval, CalendarUnit unit, Scope scope) {
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

LimiterSpec slidingWindow(const QVector<SlidingRule>& rules, Scope scope) {
    LimiterSpec spec;
    spec.type = LimiterType::SlidingWindow;
    spec.name = QStringLiteral("login");
    spec.scope = scope;
    spec.rules = rules;
    return spec;
}

qint64 acceptedAt(qint64 i) {
    return (i * 7 + 3) % 11;
}

qint64 rejectedAt(qint64 i) {
    return (i * 5 + 1) % 4;
}

qint64 acceptedPlusRejectedAt(qint64 i) {
    return acceptedAt(i) + rejectedAt(i);
}

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

RunSnapshot withoutDuration(RunSnapshot run) {
    run.durationUs = 0;
    return run;
}

LimiterState tokenState(qint64 nowMs, const QVector<QPair<QString, qint64>>& tokens) {
    LimiterState state;
    state.nowMs = nowMs;
    state.tokensAvailable = tokens;
    return state;
}

QPalette darkPalette() {
    QPalette palette;
    palette.setColor(QPalette::Window, QColor(0x2b, 0x2b, 0x2b));
    palette.setColor(QPalette::Base, QColor(0x1e, 0x1e, 0x1e));
    palette.setColor(QPalette::Text, QColor(0xe6, 0xe6, 0xe6));
    return palette;
}

bool show(TimelineChart& chart) {
    chart.resize(1000, 320);
    chart.show();
    return QTest::qWaitForWindowExposed(&chart);
}

QValueAxis* xAxis(const TimelineChart& chart) {
    return qobject_cast<QValueAxis*>(chart.chart()->axes(Qt::Horizontal).value(0));
}

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

QStringList textsInPlot(const TimelineChart& chart) {
    const QRectF plot =
        chart.chart()->mapRectToScene(chart.chart()->plotArea()).adjusted(-0.5, -0.5, 0.5, 0.5);
    QStringList texts;
    for (QGraphicsItem* item : chart.scene()->items()) {
        auto* text = dynamic_cast<QGraphicsSimpleTextItem*>(item);
        if (text != nullptr && text->isVisible() && plot.contains(text->sceneBoundingRect()))
            texts << text->text();
    }
    return texts;
}

}  // namespace ratelab::test
