#include "charts/time_axis.h"

#include <algorithm>

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

void TimeAxis::reportInsets(QObject* chart, int left, int right) {
    const auto found = reported_.constFind(chart);
    if (found != reported_.cend() && *found == std::pair{left, right})
        return;
    if (found == reported_.cend())
        connect(chart, &QObject::destroyed, this, [this, chart] { forgetInsets(chart); });
    reported_.insert(chart, {left, right});
    updateInsets();
}

void TimeAxis::forgetInsets(QObject* chart) {
    if (reported_.remove(chart) == 0)
        return;
    disconnect(chart, &QObject::destroyed, this, nullptr);
    updateInsets();
}

void TimeAxis::updateInsets() {
    int left = 0;
    int right = 0;
    for (const std::pair<int, int>& insets : std::as_const(reported_)) {
        left = std::max(left, insets.first);
        right = std::max(right, insets.second);
    }
    if (left == left_ && right == right_)
        return;
    left_ = left;
    right_ = right;
    emit insetsChanged(left, right);
}

}  // namespace ratelab
