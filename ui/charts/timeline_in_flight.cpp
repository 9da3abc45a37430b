#include "charts/timeline_in_flight.h"

#include <QChart>
#include <QLineSeries>
#include <QScatterSeries>
#include <QValueAxis>

#include "charts/nice_axis.h"
#include "charts/series_update.h"
#include "style/series_style.h"

namespace ratelab {

TimelineInFlight::TimelineInFlight(QChart* chart, QValueAxis* axisX, QValueAxis* axisY,
                                   QValueAxis* axisRight)
    : chart_(chart), axisRight_(axisRight) {
    const auto add = [&](QXYSeries* series, const QString& name, QValueAxis* axis) {
        series->setName(name);
        chart_->addSeries(series);
        series->attachAxis(axisX);
        series->attachAxis(axis);
    };
    inFlight_ = new QLineSeries(chart_);
    add(inFlight_, tr("in flight"), axisRight);
    limit_ = new QLineSeries(chart_);
    add(limit_, tr("in-flight limit"), axisRight);
    released_ = new QLineSeries(chart_);
    add(released_, tr("released"), axisY);
    leaked_ = new QScatterSeries(chart_);
    leaked_->setMarkerShape(QScatterSeries::MarkerShapeRotatedRectangle);
    leaked_->setMarkerSize(10);
    add(leaked_, tr("leaked"), axisRight);  // grants never released
    update({});
}

void TimelineInFlight::update(const TimelineModel::InFlight& view) {
    replaceIfChanged(inFlight_, view.inFlight);
    replaceIfChanged(limit_, view.limit);
    replaceIfChanged(released_, view.released);
    replaceIfChanged(leaked_, view.leaked);
    const QString limitName = view.limit.isEmpty()
                                  ? tr("in-flight limit")
                                  : tr("limit %1").arg(qRound64(view.limit.last().y()));
    if (limit_->name() != limitName)
        limit_->setName(limitName);
    showSeries(chart_, inFlight_, view.shown);
    showSeries(chart_, limit_, view.shown);
    showSeries(chart_, released_, view.shown);
    showSeries(chart_, leaked_, view.shown && !view.leaked.isEmpty());
    if (!view.shown)
        return;
    if (!axisRight_->isVisible())
        axisRight_->setVisible(true);
    setNiceRange(axisRight_, std::max(view.axisTop, 1.0) * 1.1);
}

QString TimelineInFlight::axisTitle(bool inFlight, bool presentation) {
    if (inFlight)
        return presentation ? tr("in flight") : tr("requests in flight");
    return presentation ? tr("permits") : tr("permits available");
}

void TimelineInFlight::setDark(bool dark) {
    const style::SeriesColors colors = style::seriesColors(dark);
    // Black (white on dark) over the areas, so that the line stays apart from the rejected
    // area's edge in grayscale; the limit its dashed twin; the releases dotted in green.
    inFlight_->setPen(style::seriesPen(colors.limit, 2.5));
    limit_->setPen(style::seriesPen(colors.limit, 2.0, Qt::DashLine));
    released_->setPen(style::seriesPen(colors.tokens, 2.0, Qt::DotLine));
    leaked_->setColor(colors.marker);
    leaked_->setBorderColor(colors.marker.darker(dark ? 100 : 140));
}

}  // namespace ratelab
