#include "editors/limiter_types.h"

#include <QCoreApplication>

namespace ratelab {

QString limiterTypeTitle(LimiterType type) {
    switch (type) {
        case LimiterType::TokenBucket:
            return QCoreApplication::translate("ratelab::LimiterListEditor", "token bucket");
        case LimiterType::FixedWindow:
            return QCoreApplication::translate("ratelab::LimiterListEditor", "fixed window");
        case LimiterType::SlidingWindow:
            return QCoreApplication::translate("ratelab::LimiterListEditor", "sliding window");
        case LimiterType::Gcra:
            return QCoreApplication::translate("ratelab::LimiterListEditor", "GCRA");
        case LimiterType::SlidingCounter:
            return QCoreApplication::translate("ratelab::LimiterListEditor", "sliding counter");
        case LimiterType::LeakyBucket:
            return QCoreApplication::translate("ratelab::LimiterListEditor", "leaky bucket");
    }
    return QString();
}

LimiterType limiterTypeOf(const QJsonObject& json) {
    const QString name = json.value(QLatin1String("type")).toString();
    for (const LimiterType type : kLimiterTypes) {
        if (limiterTypeName(type) == name)
            return type;
    }
    return LimiterType::TokenBucket;
}

LimiterSpec defaultLimiterSpec(LimiterType type, const QString& name) {
    LimiterSpec spec;
    spec.type = type;
    spec.name = name;
    switch (type) {
        case LimiterType::TokenBucket:
            spec.rate = 10;
            spec.intervalMs = 1000;
            break;
        case LimiterType::FixedWindow:
            spec.rate = 10;
            spec.interval = 1;
            spec.unit = CalendarUnit::Seconds;
            spec.timezone = QByteArrayLiteral("UTC");
            break;
        case LimiterType::SlidingWindow:
            spec.rules = {{5, 1000}, {20, 60000}};
            break;
        case LimiterType::Gcra:
            spec.rate = 10;
            spec.periodMs = 1000;
            spec.burst = 5;
            break;
        case LimiterType::SlidingCounter:
            spec.limit = 10;
            spec.windowMs = 1000;
            break;
        case LimiterType::LeakyBucket:
            spec.rate = 10;
            spec.periodMs = 1000;
            spec.burst = 4;
            break;
    }
    return spec;
}

}  // namespace ratelab
