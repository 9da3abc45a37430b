#pragma once

#include <QVector>

#include "limiters/limiter_spec.h"

namespace ratelab {

// What charts draw about a limiter's configuration (shared by the report and the window).

// The steady-state number of permits the limiter admits per time bucket: token bucket
// rate * bucketMs / interval_ms; fixed window rate * bucketMs / window length (the nominal
// length interval x unit, a month counted as 30 days); sliding window the smallest
// limit * bucketMs / window_ms over the rules; per_client scopes multiply by `clients`.
double limitPerBucket(const LimiterSpec& spec, qint64 bucketMs, int clients);

// Start times (epoch ms) of the fixed window's calendar windows that begin inside
// [fromMs, toMs), in order, at most maxCount of them; empty for other limiter types.
QVector<qint64> windowBoundaries(const LimiterSpec& spec, qint64 fromMs, qint64 toMs,
                                 int maxCount = 1000);

}  // namespace ratelab
