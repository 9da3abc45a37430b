#include "style/series_style.h"

namespace ratelab::style {

SeriesColors seriesColors(bool dark) {
    SeriesColors colors;
    colors.accepted = QColor(0x2ca02c);
    colors.rejected = QColor(0xd62728);
    colors.errors = QColor(dark ? 0xb0b0b0 : 0x7f7f7f);
    colors.limit = QColor(dark ? 0xaab4e8 : 0x1f2f5f);
    colors.tokens = QColor(dark ? 0x6baed6 : 0x1f77b4);
    colors.marker = QColor(0xff7f0e);
    colors.span = QColor(0x1f77b4);
    colors.boundary = QColor(0x9467bd);
    colors.subtitle = QColor(0x555555);
    colors.grid = QColor(0xe0e0e0);
    colors.areaAlpha = dark ? 110 : 80;
    colors.reportAreaAlpha = 90;
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
