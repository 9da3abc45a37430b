#pragma once

#include <QtGlobal>

QT_BEGIN_NAMESPACE
class QValueAxis;
QT_END_NAMESPACE

namespace ratelab {

// Sets a value axis to [0, top] rounded up to a nice 1, 2, 5 x 10^k step, with a tick at each
// step. Changes the axis only when something moved: every change lays its ticks and labels out
// again.
void setNiceRange(QValueAxis* axis, double top);

}  // namespace ratelab
