#pragma once

#include "charts/timeline_model.h"

QT_BEGIN_NAMESPACE
class QChart;
class QValueAxis;
QT_END_NAMESPACE

namespace ratelab {

struct RunSnapshot;

// report.png's view of a limit on requests in flight (the concurrency limiter), as the window's
// timeline draws it instead of a rate line: the most requests in flight in each step on a right
// axis of its own with the in-flight limit dashed on it, the grants released per step dotted on
// the counts' axis, and a diamond at each step whose grants leaked.
namespace report_in_flight {

// Limiter `index` of `run` (a per_client limit counted for `clients`) in steps of `groupMs`
// over [0, xMaxSec]; `shown` false for a rate limiter. report.html's steps come from it too
// (report_figures::inFlightSteps).
TimelineModel::InFlight viewOf(const RunSnapshot& run, int index, int clients, qint64 groupMs,
                               double xMaxSec);

// The most released in a step: the counts' axis holds it too.
double releasedTop(const TimelineModel::InFlight& view);

// Adds `view` (shown) to `chart`, the releases on `axisY`, the rest on a new right axis.
void draw(QChart* chart, const TimelineModel::InFlight& view, QValueAxis* axisX, QValueAxis* axisY,
          bool dark);

}  // namespace report_in_flight
}  // namespace ratelab
