#include "charts/nice_scale.h"

#include <algorithm>
#include <cmath>

namespace ratelab {

qint64 niceAtLeast(qint64 atLeast) {
    for (qint64 decade = 1;; decade *= 10) {
        for (qint64 step : {1, 2, 5}) {
            if (step * decade >= atLeast) {
                return step * decade;
            }
        }
    }
}

double niceStep(double span, int ticks) {
    const double raw = std::max(span, 1e-6) / ticks;
    const double decade = std::pow(10.0, std::floor(std::log10(raw)));
    for (double step : {1.0, 2.0, 5.0}) {
        if (step * decade >= raw) {
            return step * decade;
        }
    }
    return 10 * decade;
}

}  // namespace ratelab
