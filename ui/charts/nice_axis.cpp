#include "charts/nice_axis.h"

#include <QValueAxis>
#include <algorithm>
#include <cmath>

#include "charts/nice_scale.h"

namespace ratelab {

void setNiceRange(QValueAxis* axis, double top) {
    const double step = niceStep(std::max(top, 1.0), 5);
    const double niceTop = std::ceil(std::max(top, 1.0) / step - 1e-9) * step;
    const int ticks = int(std::lround(niceTop / step)) + 1;
    if (axis->min() != 0 || axis->max() != niceTop)
        axis->setRange(0, niceTop);
    if (axis->tickCount() != ticks)
        axis->setTickCount(ticks);
    const QString format = step >= 1 ? QStringLiteral("%.0f") : QStringLiteral("%.1f");
    if (axis->labelFormat() != format)
        axis->setLabelFormat(format);
}

}  // namespace ratelab
