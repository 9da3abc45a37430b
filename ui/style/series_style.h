#pragma once

#include <QBrush>
#include <QColor>
#include <QPen>
#include <QVector>

namespace ratelab::style {

// The colours of the charts' series (the live timeline, the latency chart and the offscreen
// report draw with these), for a light or a dark background.
//
// Accepted and rejected are told apart by lightness as well as by hue, so that a grayscale print
// or a colour-blind viewer keeps the main message: on either background accepted stands out most
// (dark on light, light on dark), rejected lies between it and the background, and the two are
// at least kDecisionContrast apart (WCAG luminance contrast). Their fills are opaque, so what is
// seen is the colour itself. Errors, a grey, are hatched (areaBrush).
struct SeriesColors {
    QColor accepted;
    QColor rejected;
    QColor errors;
    QColor limit;
    QColor tokens;
    QColor marker;    // "config changed" markers
    QColor span;      // the sliding window's current span
    QColor boundary;  // calendar window boundaries in the report
    QColor subtitle;  // the report's detail line
    QColor grid;      // grid lines on a light background (dark themes keep their own)
};
SeriesColors seriesColors(bool dark);

// Presentation mode's scale (for a projector): fonts everywhere, the lines and texts of charts.
constexpr double kPresentationScale = 1.5;

// The least luminance contrast between the accepted and the rejected fill (3:1, WCAG's
// minimum for graphical objects).
constexpr double kDecisionContrast = 3.0;

// The fill of a stacked area: solid, or hatched in `color` (the errors: a hatch stays apart
// from the solid fills beside it whatever their lightness).
QBrush areaBrush(const QColor& color, bool hatched = false);

// The line of the limiter at `index` where several share one chart (the comparison's
// accepted-over-time chart): a colour of the Okabe–Ito set and a dash pattern of its own, so
// that the lines stay apart in grayscale too; the cycle repeats after kLimiterPens.
QPen limiterPen(int index, bool dark, qreal width = 2.0);
constexpr int kLimiterPens = 6;

// The accepted line of traffic group `index` on a limiter's timeline: drawn over the accepted
// (blue) and rejected (orange) areas beside the permits line, so of the set's other colours,
// each with a dash pattern of its own (grayscale), thicker than the areas' outlines.
// The cycle repeats after kGroupPens.
QPen groupPen(int index, bool dark);
constexpr int kGroupPens = 4;

// A series pen: flat caps and mitred joins, so that steps stay sharp. Qt::DashLine is drawn
// with kDashes, dashes short enough that a legend's swatch (about 12 pixels) shows two.
QPen seriesPen(const QColor& color, qreal width = 1.5, Qt::PenStyle style = Qt::SolidLine);
// A dash and its gap, in pen widths (Qt's own DashLine is 4 and 2: one dash filled a swatch).
inline const QVector<qreal> kDashes = {2.5, 1.5};

}  // namespace ratelab::style
