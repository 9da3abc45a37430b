#pragma once

#include <QColor>
#include <QPalette>
#include <QPen>

namespace ratelab::style {

// Colours derived from a palette, in one place: a later change of the look edits this file only.

// True for a dark theme (the window background is dark).
bool isDark(const QPalette& palette);

// A red for error text that reads on the palette's base colour: the usual red, lighter on dark
// bases, and pushed further away from the base until its contrast is at least kMinContrast.
QColor errorColor(const QPalette& palette);
constexpr double kMinContrast = 4.5;  // WCAG AA for normal text

// The WCAG contrast ratio of two colours (1 to 21).
double contrastRatio(const QColor& a, const QColor& b);

// `color` as text on `base`: darker on a light base, lighter on a dark one, until its contrast
// is at least kMinContrast (the colour itself when it already is).
QColor readableOn(QColor color, const QColor& base);

// `color` with alpha `alpha` (0-255).
QColor withAlpha(QColor color, int alpha);

}  // namespace ratelab::style
