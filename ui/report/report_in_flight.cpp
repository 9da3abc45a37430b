#include "report/report_in_flight.h"

#include <QChart>
#include <QCoreApplication>
#include <QLineSeries>
#include <QScatterSeries>
#include <QValueAxis>
#include <algorithm>

#include "charts/nice_axis.h"
#include "report/report_chart_parts.h"
#include "stats/run_snapshot.h"
#include "style/series_style.h"

namespace ratelab::report_in_flight {
namespace {

QString tr(const char* text) {
    return QCoreApplication::translate("ratelab::ReportRenderer", text);
}

}  // namespace

TimelineModel::InFlight viewOf(const RunSnapshot& run, int index, int clients, qint64 groupMs,
                               double xMaxSec) {
    if (index < 0 || index >= run.limiters.size())
        return {};
    const LimiterSnapshot& limiter = run.limiters[index];
    TimelineModel model;
    model.setLimiter(limiter.spec, clients, run.bucketMs, run.startEpochMs);
    model.update(run, index, nullptr);
    return model.inFlight(0, xMaxSec, groupMs);
}

double releasedTop(const TimelineModel::InFlight& view) {
    double top = 0;
    for (const QPointF& p : view.released)
        top = std::max(top, p.y());
    return top;
}

void draw(QChart* chart, const TimelineModel::InFlight& view, QValueAxis* axisX, QValueAxis* axisY,
          bool dark) {
    const style::SeriesColors c = style::seriesColors(dark);
    QValueAxis* axisRight =
        report_chart::addAxis(chart, Qt::AlignRight, tr("requests in flight"), dark);
    axisRight->setGridLineVisible(false);
    setNiceRange(axisRight, std::max(view.axisTop, 1.0) * 1.1);

    QLineSeries* released = report_chart::addLine(chart, tr("released"), view.released,
                                                  style::seriesPen(c.tokens, 2.0, Qt::DotLine));
    released->attachAxis(axisX);
    released->attachAxis(axisY);
    const QList<QAbstractSeries*> onRight{
        report_chart::addLine(chart, tr("in flight"), view.inFlight,
                              style::seriesPen(c.limit, 2.5)),
        report_chart::addLine(chart,
                              view.limit.isEmpty()
                                  ? tr("in-flight limit")
                                  : tr("limit %1").arg(qRound64(view.limit.last().y())),
                              view.limit, style::seriesPen(c.limit, 2.0, Qt::DashLine))};
    for (QAbstractSeries* s : onRight) {
        s->attachAxis(axisX);
        s->attachAxis(axisRight);
    }
    if (!view.leaked.isEmpty()) {
        auto* leaked = new QScatterSeries(chart);
        leaked->setName(tr("leaked"));
        leaked->setMarkerShape(QScatterSeries::MarkerShapeRotatedRectangle);
        leaked->setMarkerSize(10);
        leaked->setColor(c.marker);
        leaked->setBorderColor(c.marker.darker(dark ? 100 : 140));
        leaked->replace(view.leaked);
        chart->addSeries(leaked);
        leaked->attachAxis(axisX);
        leaked->attachAxis(axisRight);
    }
}

}  // namespace ratelab::report_in_flight
