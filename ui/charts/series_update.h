#pragma once

#include <QList>
#include <QPointF>

QT_BEGIN_NAMESPACE
class QAbstractSeries;
class QChart;
class QXYSeries;
QT_END_NAMESPACE

namespace ratelab {

// Replaces a series' points only when they differ: every replace makes Qt Charts map all the
// points again and repaint the plot.
void replaceIfChanged(QXYSeries* series, const QList<QPointF>& points);

// Shows or hides a series with its legend entry in `chart`, only when that changes (a legend
// change lays the chart out again).
void showSeries(QChart* chart, QAbstractSeries* series, bool shown);

}  // namespace ratelab
