#include "report/report_chart_parts.h"

#include <QChart>
#include <QLineSeries>
#include <QPen>
#include <QValueAxis>

#include "style/series_style.h"

namespace ratelab::report_chart {

QLineSeries* addLine(QChart* chart, const QString& name, const QList<QPointF>& points,
                     const QPen& pen) {
    auto* line = new QLineSeries(chart);
    line->replace(points);
    line->setName(name);
    line->setPen(pen);
    chart->addSeries(line);
    return line;
}

QValueAxis* addAxis(QChart* chart, Qt::Alignment alignment, const QString& title, bool dark) {
    auto* axis = new QValueAxis(chart);
    axis->setTitleText(title);
    QFont font = axis->titleFont();
    font.setPointSizeF(9);
    font.setBold(false);
    axis->setTitleFont(font);
    axis->setGridLineColor(dark ? QColor(0x3c, 0x3c, 0x3c) : style::seriesColors(false).grid);
    chart->addAxis(axis, alignment);
    return axis;
}

}  // namespace ratelab::report_chart
