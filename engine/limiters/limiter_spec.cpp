#include "limiters/limiter_spec.h"

#include "limiters/algorithm.h"

namespace ratelab {

qint64 LimiterSpec::capacity() const {
    return algorithmOf(type).capacity(*this);
}

bool LimiterSpec::operator==(const LimiterSpec& o) const {
    // Fields of the other types carry no meaning, so they do not take part.
    return type == o.type && name == o.name && scope == o.scope && onError == o.onError &&
           time == o.time && gateway == o.gateway && algorithmOf(type).sameFields(*this, o);
}

QString limiterTypeName(LimiterType type) {
    return algorithmOf(type).name();
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

QString flavorName(Flavor flavor) {
    switch (flavor) {
        case Flavor::Exact:
            return QStringLiteral("exact");
        case Flavor::Upstash:
            return QStringLiteral("upstash");
        case Flavor::RedisRate:
            return QStringLiteral("redis_rate");
    }
    return QString();
}

}  // namespace ratelab
