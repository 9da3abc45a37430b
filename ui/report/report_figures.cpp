#include "report/report_figures.h"

#include <QCoreApplication>
#include <QRegularExpression>

#include "algorithms/algorithm_view.h"
#include "charts/timeline_model.h"
#include "limiters/limit_geometry.h"

namespace ratelab::report_figures {
namespace {

QString tr(const char* text) {
    return QCoreApplication::translate("ratelab::HtmlReport", text);
}

QVector<BusiestInterval> intervals(const std::vector<BusiestInterval>& list) {
    return QVector<BusiestInterval>(list.begin(), list.end());
}

// The window's timeline model of this limiter, its run starting at 0 (the summary's bursts are
// in ms since the run's start).
TimelineModel timelineOf(const LimiterSummary& limiter, qint64 bucketMs) {
    TimelineModel model;
    model.setLimiter(limiter.spec.value_or(LimiterSpec{}), clientsOf(limiter), bucketMs, 0);
    model.setBusiestIntervals(intervals(limiter.admittedBurst),
                              intervals(limiter.admittedBurstRunClock));
    return model;
}

// A tooltip line of the window as plain text (its markup is <b> only).
QString plain(QString html) {
    static const QRegularExpression tags(QStringLiteral("</?b>"));
    return html.remove(tags);
}

}  // namespace

int clientsOf(const LimiterSummary& limiter) {
    return std::max<int>(int(limiter.clients.size()), 1);
}

std::optional<BusiestInterval> markedBurst(const LimiterSummary& limiter) {
    const QVector<BusiestInterval> list = intervals(limiter.admittedBurst);
    const BusiestInterval* marked =
        TimelineModel::markedInterval(limiter.spec.value_or(LimiterSpec{}), list);
    if (marked == nullptr || marked->permits <= 0) {
        return std::nullopt;
    }
    return *marked;
}

std::optional<double> limitIn(const LimiterSummary& limiter, qint64 windowMs) {
    if (!limiter.spec) {
        return std::nullopt;
    }
    return limitPerBucket(*limiter.spec, windowMs, clientsOf(limiter));
}

QString configText(const LimiterSummary& limiter) {
    if (!limiter.spec) {
        return QString();
    }
    QString text = algorithmView(*limiter.spec).configText(*limiter.spec);
    if (limiter.spec->scope == Scope::PerClient) {
        text += tr(" per client, %1 clients").arg(clientsOf(limiter));
    }
    return text;
}

std::optional<BurstMark> burstMark(const LimiterSummary& limiter, qint64 bucketMs) {
    const std::optional<TimelineModel::Burst> burst = timelineOf(limiter, bucketMs).burst();
    if (!burst) {
        return std::nullopt;
    }
    BurstMark mark;
    mark.x0Ms = burst->x0 * 1000;
    mark.x1Ms = burst->x1 * 1000;
    mark.firstMs = burst->first * 1000;
    mark.lastMs = burst->last * 1000;
    mark.label = burst->label;
    for (const QString& line : burst->toolTip.split(QStringLiteral("<br>"))) {
        mark.lines << plain(line);
    }
    return mark;
}

}  // namespace ratelab::report_figures
