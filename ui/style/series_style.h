#pragma once

#include <QColor>
#include <QPen>

namespace ratelab::style {

// The colours of the charts' series (the live timeline, the latency chart and the offscreen
// report draw with these), for a light or a dark background.
struct SeriesColors {
    QColor accepted;
    QColor rejected;
    QColor errors;
    QColor limit;
    QColor tokens;
    QColor marker;        // "config changed" markers
    QColor span;          // the sliding window's current span
    QColor boundary;      // calendar window boundaries in the report
    QColor subtitle;      // the report's detail line
    QColor grid;          // grid lines on a light background (dark themes keep their own)
    int areaAlpha;        // fill of the accepted and rejected areas on screen
    int reportAreaAlpha;  // and in the report (printed on white: a little denser)
};
SeriesColors seriesColors(bool dark);

// A series pen: flat caps and mitred joins, so that steps stay sharp.
QPen seriesPen(const QColor& color, qreal width = 1.5, Qt::PenStyle style = Qt::SolidLine);

}  // namespace ratelab::style
