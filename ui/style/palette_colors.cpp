#include "style/palette_colors.h"

#include <algorithm>
#include <cmath>

namespace ratelab::style {
namespace {

// The two reds the editors have always used.
constexpr QRgb kErrorOnLight = 0xc62828;
constexpr QRgb kErrorOnDark = 0xff6b6b;

double linear(double channel) {
    return channel <= 0.04045 ? channel / 12.92 : std::pow((channel + 0.055) / 1.055, 2.4);
}

double luminance(const QColor& color) {
    return 0.2126 * linear(color.redF()) + 0.7152 * linear(color.greenF()) +
           0.0722 * linear(color.blueF());
}

}  // namespace

bool isDark(const QPalette& palette) {
    return palette.color(QPalette::Window).lightness() < 128;
}

double contrastRatio(const QColor& a, const QColor& b) {
    const double la = luminance(a);
    const double lb = luminance(b);
    return (std::max(la, lb) + 0.05) / (std::min(la, lb) + 0.05);
}

QColor readableOn(QColor color, const QColor& base) {
    const bool darkBase = base.lightness() < 128;
    for (int step = 0; step < 20 && contrastRatio(color, base) < kMinContrast; ++step)
        color = darkBase ? color.lighter(110) : color.darker(115);
    return color;
}

QColor errorColor(const QPalette& palette) {
    const QColor base = palette.color(QPalette::Base);
    // A mid-grey base: the red's lightness moves away from the base until it reads.
    return readableOn(QColor(base.lightness() < 128 ? kErrorOnDark : kErrorOnLight), base);
}

QColor withAlpha(QColor color, int alpha) {
    color.setAlpha(alpha);
    return color;
}

}  // namespace ratelab::style
