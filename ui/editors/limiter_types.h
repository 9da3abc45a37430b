#pragma once

#include <QJsonObject>
#include <QString>

#include "limiters/limiter_spec.h"

namespace ratelab {

// The limiter types in the order of the editor's type selector, its pages and the list
// editor's add menu.
inline constexpr LimiterType kLimiterTypes[] = {
    LimiterType::TokenBucket, LimiterType::FixedWindow,    LimiterType::SlidingWindow,
    LimiterType::Gcra,        LimiterType::SlidingCounter, LimiterType::LeakyBucket};

// "token bucket", "fixed window", "sliding window" (translated).
QString limiterTypeTitle(LimiterType type);
// The type a spec JSON names (token bucket when it names none or an unknown one).
LimiterType limiterTypeOf(const QJsonObject& json);
// What a new limiter of each type starts with.
LimiterSpec defaultLimiterSpec(LimiterType type, const QString& name);

}  // namespace ratelab
