#pragma once

#include <QPair>
#include <QRectF>
#include <QVector>

namespace ratelab {

// The rows of labels across the top of a timeline's plot, and the left axis's top that keeps
// every bar (and the limit line) under them. A label goes in the first row where it covers no
// label placed before it: the fixed windows' counts take the first row, the sliding windows'
// spans stack from it (they all end at the state's now), the admitted burst's label and the
// steps' marks fill in where they fit. Those take a new row where none is free; the marks use
// at most maxRows() rows (kMaxShare of the plot's height, one at least) or the rows the others
// took, and share one when none is free.
class TimelineLabelRows {
public:
    static constexpr double kMaxShare = 0.4;

    // `labelHeight`: an overlay label's height in the chart's font.
    TimelineLabelRows(const QRectF& plot, double labelHeight);

    // Takes [left, right] (pixels) in `row`, whatever is there.
    void take(int row, double left, double right);
    // The first row below `limit` where [left, right] covers no label (taken then), else
    // `fallback` (taken all the same).
    int place(double left, double right, int limit, int fallback);
    // A row for [left, right]: the first free one, a new one when none is.
    int place(double left, double right);
    int maxRows() const { return maxRows_; }
    double top(int row) const;  // a row's top, in the chart's pixels
    int rowsUsed() const { return int(rows_.size()); }
    double bottom() const;  // under the last row in use (the plot's top when there is none)

    // The left axis's top that leaves the rows in use (at least `atLeastRows`) clear of bars as
    // tall as `barsTop` (in the axis's units), with a tenth of headroom at least; the bars keep
    // a third of the plot whatever the rows.
    double axisTop(double barsTop, int atLeastRows = 0) const;

private:
    QRectF plot_;
    double pitch_ = 0;  // a row's height: a label and the gap under it
    int maxRows_ = 1;
    QVector<QVector<QPair<double, double>>> rows_;  // the spans taken in each row
};

}  // namespace ratelab
