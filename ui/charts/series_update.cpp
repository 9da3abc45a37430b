#include "charts/series_update.h"

#include <QChart>
#include <QLegend>
#include <QLegendMarker>
#include <QXYSeries>

namespace ratelab {

void replaceIfChanged(QXYSeries* series, const QList<QPointF>& points) {
    if (series->count() != points.size() || series->points() != points)
        series->replace(points);
}

void showSeries(QChart* chart, QAbstractSeries* series, bool shown) {
    if (series->isVisible() != shown)
        series->setVisible(shown);
    for (QLegendMarker* marker : chart->legend()->markers(series)) {
        if (marker->isVisible() != shown)
            marker->setVisible(shown);
    }
}

}  // namespace ratelab
