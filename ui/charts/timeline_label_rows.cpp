#include "charts/timeline_label_rows.h"

#include <algorithm>
#include <cmath>

namespace ratelab {
namespace {

constexpr double kTopGap = 3;  // between the plot's top and the first row
constexpr double kRowGap = 2;  // between rows
constexpr double kApart = 4;   // between two labels in a row

}  // namespace

TimelineLabelRows::TimelineLabelRows(const QRectF& plot, double labelHeight)
    : plot_(plot), pitch_(labelHeight + kRowGap) {
    maxRows_ = std::max(1, int(std::floor((kMaxShare * plot.height() - kTopGap) / pitch_)));
}

void TimelineLabelRows::take(int row, double left, double right) {
    if (row < 0)
        return;
    while (rows_.size() <= row)
        rows_.append(QVector<QPair<double, double>>());
    rows_[row].append({left, right});
}

int TimelineLabelRows::place(double left, double right) {
    return place(left, right, int(rows_.size()) + 1, int(rows_.size()));
}

int TimelineLabelRows::place(double left, double right, int limit, int fallback) {
    for (int row = 0; row < limit; ++row) {
        const bool free = row >= rows_.size() ||
                          std::none_of(rows_[row].cbegin(), rows_[row].cend(), [&](const auto& s) {
                              return left < s.second + kApart && s.first < right + kApart;
                          });
        if (free) {
            take(row, left, right);
            return row;
        }
    }
    take(fallback, left, right);
    return fallback;
}

double TimelineLabelRows::top(int row) const {
    return plot_.top() + kTopGap + row * pitch_;
}

double TimelineLabelRows::bottom() const {
    return rows_.isEmpty() ? plot_.top() : top(int(rows_.size()));
}

double TimelineLabelRows::axisTop(double barsTop, int atLeastRows) const {
    const double height = plot_.height();
    const int rows = std::max(int(rows_.size()), atLeastRows);
    const double taken = rows > 0 ? top(rows) - plot_.top() : 0;
    if (height <= 0 || taken <= 0)
        return barsTop * 1.1;
    const double left = std::max(height - taken, height / 3);
    return barsTop * std::max(1.1, height / left);
}

}  // namespace ratelab
