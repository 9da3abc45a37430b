#include "charts/series_decimation.h"

#include <algorithm>

namespace ratelab {

QList<QPointF> decimateMinMax(const QList<QPointF>& points, double x0, double x1, int columns) {
    if (columns < 1 || points.size() <= 4 * qsizetype(columns) || !(x1 > x0))
        return points;
    const double perColumn = (x1 - x0) / double(columns);
    auto columnOf = [&](double x) { return std::clamp(int((x - x0) / perColumn), 0, columns - 1); };
    QList<QPointF> kept;
    kept.reserve(4 * columns);
    qsizetype i = 0;
    while (i < points.size()) {
        const int column = columnOf(points[i].x());
        const qsizetype first = i;
        qsizetype low = i;
        qsizetype high = i;
        for (++i; i < points.size() && columnOf(points[i].x()) == column; ++i) {
            if (points[i].y() < points[low].y())
                low = i;
            if (points[i].y() > points[high].y())
                high = i;
        }
        const qsizetype last = i - 1;
        // The four in x order, each once.
        qsizetype picks[] = {first, std::min(low, high), std::max(low, high), last};
        for (int k = 0; k < 4; ++k) {
            if (k == 0 || picks[k] != picks[k - 1])
                kept << points[picks[k]];
        }
    }
    return kept;
}

}  // namespace ratelab
