// The helpers the scenario's parser files share (scenario_json.h).

#include <QStringList>
#include <cmath>

#include "json_input.h"
#include "scenario/scenario_json.h"

namespace ratelab::scenario_json {

using namespace json_input;
using scenario_limits::kMaxDurationS;
using scenario_limits::kMaxRate;

QString shapeTypeName(ShapeSpec::Type type) {
    switch (type) {
        case ShapeSpec::Type::Constant:
            return QStringLiteral("constant");
        case ShapeSpec::Type::Poisson:
            return QStringLiteral("poisson");
        case ShapeSpec::Type::Linear:
            return QStringLiteral("linear");
        case ShapeSpec::Type::Sine:
            return QStringLiteral("sine");
        case ShapeSpec::Type::Burst:
            return QStringLiteral("burst");
        case ShapeSpec::Type::Step:
            return QStringLiteral("step");
        case ShapeSpec::Type::Replay:
            return QStringLiteral("replay");
    }
    return QString();
}

QString modeName(AcquireMode mode) {
    return mode == AcquireMode::Wait ? QStringLiteral("wait") : QStringLiteral("try");
}

QJsonObject readObject(const QJsonValue& value, const QString& where) {
    if (!value.isObject()) {
        throw InputError(where, QStringLiteral("must be a JSON object, got ") + describe(value));
    }
    return value.toObject();
}

// An integer from min to max. JSON has only doubles, so 4.0 counts as an integer but 4.5 does not.
qint64 readInteger(const QJsonValue& value, const QString& where, qint64 min, qint64 max) {
    if (!value.isDouble()) {
        throw InputError(where, QStringLiteral("must be an integer, got ") + describe(value));
    }
    const double number = value.toDouble();
    const bool integral = std::isfinite(number) && number == std::trunc(number);
    if (!integral || number < static_cast<double>(min) || number > static_cast<double>(max)) {
        throw InputError(where, QStringLiteral("must be an integer from %1 to %2, got %3")
                                    .arg(min)
                                    .arg(max)
                                    .arg(describe(value)));
    }
    return static_cast<qint64>(number);
}

qint64 readInteger(const QJsonObject& object, const QString& path, QLatin1String key, qint64 min,
                   qint64 max) {
    return readInteger(required(object, path, key), memberPath(path, key), min, max);
}

// A finite number (a QJsonObject built in code may hold NaN or infinity).
double readNumber(const QJsonValue& value, const QString& where) {
    if (!value.isDouble()) {
        throw InputError(where, QStringLiteral("must be a number, got ") + describe(value));
    }
    if (!std::isfinite(value.toDouble())) {
        throw InputError(where, QStringLiteral("must be a finite number, got ") + describe(value));
    }
    return value.toDouble();
}

// Requests per second: above 0 (or from 0 when zeroAllowed) and at most kMaxRate.
double readRate(const QJsonObject& object, const QString& path, QLatin1String key,
                bool zeroAllowed) {
    const QString where = memberPath(path, key);
    const QJsonValue value = required(object, path, key);
    const double rate = readNumber(value, where);
    if (rate < 0 || (rate == 0 && !zeroAllowed) || rate > kMaxRate) {
        throw InputError(where, QStringLiteral("must be a rate %1 %2 requests/s, got %3")
                                    .arg(zeroAllowed ? QStringLiteral("from 0 to")
                                                     : QStringLiteral("above 0 and at most"))
                                    .arg(formatNumber(kMaxRate), describe(value)));
    }
    return rate == 0 ? 0.0 : rate;  // no -0
}

// A duration in seconds: above 0 and at most kMaxDurationS.
double readSeconds(const QJsonObject& object, const QString& path, QLatin1String key) {
    const QString where = memberPath(path, key);
    const QJsonValue value = required(object, path, key);
    const double seconds = readNumber(value, where);
    if (seconds <= 0 || seconds > kMaxDurationS) {
        throw InputError(where, QStringLiteral("must be a number of seconds above 0 and at most "
                                               "%1, got %2")
                                    .arg(formatNumber(kMaxDurationS), describe(value)));
    }
    return seconds;
}

}  // namespace ratelab::scenario_json
