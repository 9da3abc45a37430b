#include "style/series_style.h"

namespace ratelab::style {

// The Okabe–Ito palette (Okabe & Ito, "Color Universal Design", 2008): its colours stay apart
// for the common colour-vision deficiencies. Accepted and rejected take its blue and orange
// hues at lightnesses of their own (see SeriesColors): on white a deep blue over the set's
// orange (3.8:1), on a dark base a pale sky blue over a deep orange (3.5:1).
namespace okabe_ito {
constexpr QRgb kOrange = 0xe69f00;
constexpr QRgb kSkyBlue = 0x56b4e9;
constexpr QRgb kBluishGreen = 0x009e73;
constexpr QRgb kYellow = 0xf0e442;
constexpr QRgb kBlue = 0x0072b2;
constexpr QRgb kReddishPurple = 0xcc79a7;
constexpr QRgb kVermillion = 0xd55e00;
// Deeper and paler shades of the set's blue, sky blue and vermillion (the fills).
constexpr QRgb kDeepBlue = 0x00507f;
constexpr QRgb kPaleSkyBlue = 0xa6dbf7;
constexpr QRgb kDeepOrange = 0xb34d00;
}  // namespace okabe_ito

SeriesColors seriesColors(bool dark) {
    using namespace okabe_ito;
    SeriesColors colors;
    colors.accepted = QColor(dark ? kPaleSkyBlue : kDeepBlue);
    colors.rejected = QColor(dark ? kDeepOrange : kOrange);
    colors.errors = QColor(dark ? 0x999999 : 0x909090);
    colors.limit = QColor(dark ? 0xf0f0f0 : 0x000000);
    colors.tokens = QColor(dark ? kYellow : kBluishGreen);
    colors.marker = QColor(kReddishPurple);
    colors.span = QColor(dark ? kSkyBlue : kBlue);
    colors.boundary = QColor(kReddishPurple);
    colors.subtitle = QColor(0x555555);
    colors.grid = QColor(0xe0e0e0);
    return colors;
}

QBrush areaBrush(const QColor& color, bool hatched) {
    return QBrush(color, hatched ? Qt::BDiagPattern : Qt::SolidPattern);
}

QPen limiterPen(int index, bool dark, qreal width) {
    using namespace okabe_ito;
    // The set's colours that read on either background, in an order that keeps neighbours
    // apart; yellow only on dark, where the blue is too dark to read.
    static constexpr QRgb kLight[kLimiterPens] = {kBlue,          kOrange,  kBluishGreen,
                                                  kReddishPurple, kSkyBlue, 0x000000};
    static constexpr QRgb kDark[kLimiterPens] = {kSkyBlue,       kOrange, kBluishGreen,
                                                 kReddishPurple, kYellow, 0xf0f0f0};
    static constexpr Qt::PenStyle kStyles[kLimiterPens] = {Qt::SolidLine,      Qt::DashLine,
                                                           Qt::DotLine,        Qt::DashDotLine,
                                                           Qt::DashDotDotLine, Qt::SolidLine};
    const int i = ((index % kLimiterPens) + kLimiterPens) % kLimiterPens;
    QPen pen = seriesPen(QColor(dark ? kDark[i] : kLight[i]), width, kStyles[i]);
    pen.setCapStyle(Qt::RoundCap);  // dots stay dots
    return pen;
}

QPen groupPen(int index, bool dark) {
    using namespace okabe_ito;
    // Not the accepted blue, the rejected orange nor the permits' green (light) or yellow
    // (dark): purple first; then on light the limit's black dotted (the limit is dashed),
    // vermillion and sky blue; on dark green dotted (white dots vanish on the pale accepted
    // fill), vermillion and white.
    static constexpr QRgb kLight[kGroupPens] = {kReddishPurple, 0x000000, kVermillion, kSkyBlue};
    static constexpr QRgb kDark[kGroupPens] = {kReddishPurple, kBluishGreen, kVermillion, 0xf0f0f0};
    static constexpr Qt::PenStyle kStyles[kGroupPens] = {Qt::SolidLine, Qt::DotLine,
                                                         Qt::DashDotLine, Qt::DashDotDotLine};
    constexpr int n = kGroupPens;
    const int i = ((index % n) + n) % n;
    QPen pen = seriesPen(QColor(dark ? kDark[i] : kLight[i]), 2.5, kStyles[i]);
    pen.setCapStyle(Qt::RoundCap);  // dots stay dots
    return pen;
}

QPen seriesPen(const QColor& color, qreal width, Qt::PenStyle style) {
    QPen pen{color};
    pen.setWidthF(width);
    pen.setStyle(style);
    if (style == Qt::DashLine)
        pen.setDashPattern(kDashes);
    pen.setCapStyle(Qt::FlatCap);
    pen.setJoinStyle(Qt::MiterJoin);
    return pen;
}

}  // namespace ratelab::style
