#pragma once

#include <QString>
#include <QStringList>

#include "limiters/limiter_spec.h"
#include "scenario/scenario.h"

namespace ratelab {

// Whether a traffic lasts long enough for a limiter's figures to mean what they will in
// production: a limiter starts empty, so over its first longest window it admits what a
// steady state would not (a sliding log's per-minute rule refuses nothing in the first 15 s of
// bursts it refuses later). Traffic shorter than twice that window is judged mostly on the
// warm-up; `ratelab run` and `ratelab sweep` warn (docs/command-line.md, "sweep").

// The longest window a limiter's config names, ms (windowsMs; a month as 30 days); 0 for none.
qint64 longestWindowMs(const LimiterSpec& spec);

// "the traffic lasts 15 s, less than twice limiter "login"'s longest window (60 s): ...".
QString shortTrafficWarning(double durationS, const QString& limiter, qint64 windowMs);

// One warning per limiter of `scenario` whose longest window is more than half its traffic.
QStringList shortTrafficWarnings(const Scenario& scenario);

}  // namespace ratelab
