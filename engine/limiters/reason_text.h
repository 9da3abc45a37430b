#pragma once

#include <QString>
#include <QTimeZone>

#include "limiters/limiter.h"

namespace ratelab {

// The words the descriptors' reason sentences share (Algorithm::reasonText).

// An instant of the limiter's clock: "08:00:03.100" in `zone` for epoch times (the scenarios'
// clocks), "1250 ms" for the small times of a hand-written trace (before 1973).
QString reasonTime(qint64 ms, const QTimeZone& zone = QTimeZone::utc());
// "[08:00:00.000, 08:00:01.000)" or "(08:00:02.100, 08:00:03.100]" (`closedRight`).
QString reasonInterval(qint64 fromMs, qint64 toMs, bool closedRight,
                       const QTimeZone& zone = QTimeZone::utc());
// A length of time: "1000 ms", "2.5 ms" for fractions of a millisecond (GCRA's units).
QString reasonMs(qint64 numerator, qint64 unitsPerMs = 1);
// What was decided: "granted, 3 left", "granted, 0 left, held 400 ms (nginx's queue)",
// "refused, retry in 312 ms", "refused: 12 permits is more than it ever allows".
QString reasonOutcome(const Decision& decision);

}  // namespace ratelab
