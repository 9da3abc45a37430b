#include "tune/sweep_grid.h"

#include <cmath>
#include <limits>

namespace ratelab {

SweepGrid::SweepGrid(const SweepTable& table) {
    if (table.keys.isEmpty() || table.axisValues.size() != table.keys.size()) {
        min_ = max_ = std::numeric_limits<double>::quiet_NaN();
        return;
    }
    xKey_ = table.keys[0];
    xValues_ = table.axisValues[0];
    if (table.keys.size() > 1) {
        yKey_ = table.keys[1];
        yValues_ = table.axisValues[1];
    }
    otherKeys_ = table.keys.mid(2);
    cells_.fill(-1, columns() * rows());
    // Ranked best first: the first combination a cell meets is the one it shows, feasible
    // ones before the others.
    const QVector<int> ranking = table.ranking();
    for (bool feasible : {true, false}) {
        for (int i : ranking) {
            const SweepCombination& c = table.combinations[i];
            if (c.feasible() != feasible || c.values.size() != table.keys.size()) {
                continue;
            }
            const int column = int(xValues_.indexOf(c.values[0]));
            const int row = isLine() ? 0 : int(yValues_.indexOf(c.values[1]));
            if (column < 0 || row < 0) {
                continue;
            }
            int& cell = cells_[row * columns() + column];
            if (cell < 0) {
                cell = i;
            }
        }
    }
    min_ = max_ = std::numeric_limits<double>::quiet_NaN();
    for (int cell : cells_) {
        const double v = cell >= 0 ? table.combinations[cell].objective : std::nan("");
        if (!std::isnan(v)) {
            min_ = std::isnan(min_) ? v : std::min(min_, v);
            max_ = std::isnan(max_) ? v : std::max(max_, v);
        }
    }
    const int best = table.best();
    for (int r = 0; r < rows() && best >= 0; ++r) {
        for (int col = 0; col < columns(); ++col) {
            if (at(col, r) == best) {
                bestColumn_ = col;
                bestRow_ = r;
            }
        }
    }
}

int SweepGrid::at(int column, int row) const {
    if (column < 0 || row < 0 || column >= columns() || row >= rows()) {
        return -1;
    }
    return cells_.value(row * columns() + column, -1);
}

}  // namespace ratelab
