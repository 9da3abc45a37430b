#pragma once

#include <QList>
#include <QPointF>
#include <QString>
#include <QtGlobal>

QT_BEGIN_NAMESPACE
class QChart;
class QLineSeries;
class QPen;
class QValueAxis;
QT_END_NAMESPACE

namespace ratelab::report_chart {

// report.png's chart parts, each added to `chart` (which owns it).

// A line series named `name` through `points`, drawn with `pen`.
QLineSeries* addLine(QChart* chart, const QString& name, const QList<QPointF>& points,
                     const QPen& pen);
// A value axis with the report's title font and, in `dark`, the dark grid's colour.
QValueAxis* addAxis(QChart* chart, Qt::Alignment alignment, const QString& title, bool dark);

}  // namespace ratelab::report_chart
