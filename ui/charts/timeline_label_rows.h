#pragma once

#include <QRectF>

namespace ratelab {

class TimelineModel;
struct TimelineDrawing;

// The rows of labels across the top of a timeline's plot, and the left axis's top that keeps
// every bar (and the limit line) under them. From the top: the fixed windows' counts (one row)
// or the sliding windows' spans (a row each), the admitted burst's label, then the steps'
// markers in up to three rows, fewer on a short plot (the rows take at most kMaxShare of its
// height; the counts, spans and burst rows are always kept).
struct TimelineLabelRows {
    struct Content {
        bool counts = false;  // fixed windows' counts are drawn
        int spans = 0;        // sliding windows' span labels
        bool burst = false;   // the admitted burst's label is in view
        int markers = 0;      // markers in view
    };
    // What `model` and `drawing` put in rows in the view [viewMin, viewMax] (run seconds).
    static Content of(const TimelineModel& model, const TimelineDrawing& drawing, double viewMin,
                      double viewMax);

    static constexpr double kMaxShare = 0.4;
    static constexpr int kMaxMarkerRows = 3;

    // `labelHeight`: an overlay label's height in the chart's font.
    TimelineLabelRows(const QRectF& plot, double labelHeight, const Content& content);

    double pitch = 0;       // a row's height: a label and the gap under it
    double spansTop = 0;    // the counts' or the first span's row
    double burstTop = 0;    // the burst's row
    double markersTop = 0;  // the first markers' row
    int markerRows = 0;
    double bottom = 0;  // under the last row in use (the plot's top when there is none)

    // The left axis's top that leaves the rows clear of bars as tall as `barsTop` (in the
    // axis's units), and a tenth of headroom at least.
    double axisTop(const QRectF& plot, double barsTop) const;
};

}  // namespace ratelab
