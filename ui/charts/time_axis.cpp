#include "charts/time_axis.h"

namespace ratelab {

TimeAxis::TimeAxis(QObject* parent) : QObject(parent) {}

void TimeAxis::setFollowing(bool following) {
    if (following == following_)
        return;
    following_ = following;
    emit followingChanged(following);
}

void TimeAxis::setRange(double lo, double hi) {
    if (!(hi > lo) || (lo == lo_ && hi == hi_))
        return;
    lo_ = lo;
    hi_ = hi;
    emit rangeChanged(lo, hi);
}

}  // namespace ratelab
