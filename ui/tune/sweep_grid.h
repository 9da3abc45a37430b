#pragma once

#include <QString>
#include <QVector>

#include "output/sweep_table.h"

namespace ratelab {

// What the Tune tab's chart and sweep.png show of a sweep, without pixels: a grid of the first
// varied key (columns) by the second (rows), or a line over the one key there is. Each cell is
// the combination with those two values, or with more keys the best of those with them (the
// best feasible one, or the best when none is). Cells whose combinations have not finished
// are empty.
class SweepGrid {
public:
    SweepGrid() = default;
    explicit SweepGrid(const SweepTable& table);

    bool isLine() const { return yKey_.isEmpty(); }
    int columns() const { return int(xValues_.size()); }
    int rows() const { return isLine() ? 1 : int(yValues_.size()); }
    const QString& xKey() const { return xKey_; }
    const QString& yKey() const { return yKey_; }
    const QVector<qint64>& xValues() const { return xValues_; }
    const QVector<qint64>& yValues() const { return yValues_; }
    // The keys beyond the first two, whose best each cell shows.
    const QStringList& otherKeys() const { return otherKeys_; }

    // The cell's combination: an index into the table's combinations, -1 when none finished.
    int at(int column, int row) const;
    // The cell holding the table's best feasible combination: (column, row), or (-1, -1).
    int bestColumn() const { return bestColumn_; }
    int bestRow() const { return bestRow_; }
    // The smallest and largest objective of the finished cells (NaN when none).
    double minObjective() const { return min_; }
    double maxObjective() const { return max_; }

private:
    QString xKey_, yKey_;
    QVector<qint64> xValues_, yValues_;
    QStringList otherKeys_;
    QVector<int> cells_;  // row-major: row * columns + column
    int bestColumn_ = -1, bestRow_ = -1;
    double min_ = 0, max_ = 0;
};

}  // namespace ratelab
