#pragma once

#include <QList>
#include <QPointF>

namespace ratelab {

// Thins a line to what a plot `columns` pixels wide can show: [x0, x1] is cut into `columns`
// equal columns and each keeps, in x order, its first, lowest, highest and last point (points
// left of x0 or right of x1 count to the first or last column). A line drawn through these
// covers the same pixels as one through all the points, so no spike vanishes. Points must be
// sorted by x. With `columns` < 1, or no more points than four per column, all are kept.
QList<QPointF> decimateMinMax(const QList<QPointF>& points, double x0, double x1, int columns);

}  // namespace ratelab
