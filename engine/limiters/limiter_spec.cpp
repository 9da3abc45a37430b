#include "limiters/limiter_spec.h"

#include <algorithm>

namespace ratelab {

qint64 LimiterSpec::capacity() const {
    switch (type) {
        case LimiterType::TokenBucket:
        case LimiterType::FixedWindow:
            return rate;
        case LimiterType::Gcra:
            return burst;
        case LimiterType::SlidingCounter:
            return limit;
        case LimiterType::LeakyBucket:
            return burst + 1;  // the request itself plus `burst` waiting behind it
        case LimiterType::SlidingWindow: {
            if (rules.isEmpty()) {
                return 0;
            }
            qint64 smallest = rules.first().limit;
            for (const SlidingRule& rule : rules) {
                smallest = std::min(smallest, rule.limit);
            }
            return smallest;
        }
    }
    return 0;
}

bool LimiterSpec::operator==(const LimiterSpec& o) const {
    if (type != o.type || name != o.name || scope != o.scope || onError != o.onError ||
        time != o.time) {
        return false;
    }
    // Fields of the other types carry no meaning, so they do not take part.
    switch (type) {
        case LimiterType::TokenBucket:
            return rate == o.rate && intervalMs == o.intervalMs;
        case LimiterType::FixedWindow:
            return rate == o.rate && interval == o.interval && unit == o.unit &&
                   timezone == o.timezone;
        case LimiterType::SlidingWindow:
            return rules == o.rules;
        case LimiterType::Gcra:
            return rate == o.rate && periodMs == o.periodMs && burst == o.burst;
        case LimiterType::SlidingCounter:
            return limit == o.limit && windowMs == o.windowMs;
        case LimiterType::LeakyBucket:
            return rate == o.rate && periodMs == o.periodMs && burst == o.burst &&
                   nodelay == o.nodelay;
    }
    return false;
}

QString limiterTypeName(LimiterType type) {
    switch (type) {
        case LimiterType::TokenBucket:
            return QStringLiteral("token_bucket");
        case LimiterType::FixedWindow:
            return QStringLiteral("fixed_window");
        case LimiterType::SlidingWindow:
            return QStringLiteral("sliding_window");
        case LimiterType::Gcra:
            return QStringLiteral("gcra");
        case LimiterType::SlidingCounter:
            return QStringLiteral("sliding_counter");
        case LimiterType::LeakyBucket:
            return QStringLiteral("leaky_bucket");
    }
    return QString();
}

QString scopeName(Scope scope) {
    switch (scope) {
        case Scope::Global:
            return QStringLiteral("global");
        case Scope::PerClient:
            return QStringLiteral("per_client");
    }
    return QString();
}

QString calendarUnitName(CalendarUnit unit) {
    switch (unit) {
        case CalendarUnit::Milliseconds:
            return QStringLiteral("milliseconds");
        case CalendarUnit::Seconds:
            return QStringLiteral("seconds");
        case CalendarUnit::Minutes:
            return QStringLiteral("minutes");
        case CalendarUnit::Hours:
            return QStringLiteral("hours");
        case CalendarUnit::Days:
            return QStringLiteral("days");
        case CalendarUnit::Months:
            return QStringLiteral("months");
    }
    return QString();
}

QString failurePolicyName(FailurePolicy policy) {
    switch (policy) {
        case FailurePolicy::Error:
            return QStringLiteral("error");
        case FailurePolicy::Open:
            return QStringLiteral("open");
        case FailurePolicy::Closed:
            return QStringLiteral("closed");
    }
    return QString();
}

QString timeSourceName(TimeSource source) {
    return source == TimeSource::Redis ? QStringLiteral("redis") : QStringLiteral("client");
}

}  // namespace ratelab
