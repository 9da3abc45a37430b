#include "style/series_style.h"

namespace ratelab::style {

// The Okabe–Ito palette (Okabe & Ito, "Color Universal Design", 2008): its colours stay apart
// for the common colour-vision deficiencies. Accepted blue and rejected vermillion differ in
// lightness as well as hue; on dark backgrounds the lighter sky blue and orange of the same set.
namespace okabe_ito {
constexpr QRgb kOrange = 0xe69f00;
constexpr QRgb kSkyBlue = 0x56b4e9;
constexpr QRgb kBluishGreen = 0x009e73;
constexpr QRgb kYellow = 0xf0e442;
constexpr QRgb kBlue = 0x0072b2;
constexpr QRgb kVermillion = 0xd55e00;
constexpr QRgb kReddishPurple = 0xcc79a7;
}  // namespace okabe_ito

SeriesColors seriesColors(bool dark) {
    using namespace okabe_ito;
    SeriesColors colors;
    colors.accepted = QColor(dark ? kSkyBlue : kBlue);
    colors.rejected = QColor(dark ? kOrange : kVermillion);
    colors.errors = QColor(dark ? 0x999999 : 0x555555);
    colors.limit = QColor(dark ? 0xf0f0f0 : 0x000000);
    colors.tokens = QColor(dark ? kYellow : kBluishGreen);
    colors.marker = QColor(kReddishPurple);
    colors.span = QColor(dark ? kSkyBlue : kBlue);
    colors.boundary = QColor(kReddishPurple);
    colors.subtitle = QColor(0x555555);
    colors.grid = QColor(0xe0e0e0);
    // Stacked areas do not overlap: fills nearly opaque, so each reads as its own colour.
    colors.areaAlpha = 210;
    colors.reportAreaAlpha = 210;
    return colors;
}

QPen seriesPen(const QColor& color, qreal width, Qt::PenStyle style) {
    QPen pen{color};
    pen.setWidthF(width);
    pen.setStyle(style);
    pen.setCapStyle(Qt::FlatCap);
    pen.setJoinStyle(Qt::MiterJoin);
    return pen;
}

}  // namespace ratelab::style
