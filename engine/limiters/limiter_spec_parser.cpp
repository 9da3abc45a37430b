// Parsing and validation of limiter specs (README, "Limiter specs").

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonParseError>
#include <QStringList>
#include <QTimeZone>
#include <algorithm>
#include <cmath>
#include <initializer_list>

#include "input_error.h"
#include "json_input.h"
#include "limiters/calendar_window.h"
#include "limiters/limiter_spec.h"

namespace ratelab {
namespace {

using namespace json_input;

using spec_limits::kMaxSpecFileBytes;

constexpr LimiterType kTypes[] = {LimiterType::TokenBucket,    LimiterType::FixedWindow,
                                  LimiterType::SlidingWindow,  LimiterType::Gcra,
                                  LimiterType::SlidingCounter, LimiterType::LeakyBucket};
constexpr Scope kScopes[] = {Scope::Global, Scope::PerClient};
constexpr CalendarUnit kUnits[] = {CalendarUnit::Milliseconds, CalendarUnit::Seconds,
                                   CalendarUnit::Minutes,      CalendarUnit::Hours,
                                   CalendarUnit::Days,         CalendarUnit::Months};
constexpr FailurePolicy kPolicies[] = {FailurePolicy::Error, FailurePolicy::Open,
                                       FailurePolicy::Closed};
constexpr TimeSource kTimeSources[] = {TimeSource::Client, TimeSource::Redis};

// An integer from 1 to max. JSON has only doubles, so 1.0 counts as an integer but 1.5 does not.
// aboveMax, when given, replaces the generic message for integers above max.
qint64 readInteger(const QJsonObject& object, const QString& path, QLatin1String key, qint64 max,
                   const QString& aboveMax = QString()) {
    const QString where = memberPath(path, key);
    const QJsonValue value = required(object, path, key);
    if (!value.isDouble()) {
        throw InputError(where, QStringLiteral("must be an integer, got ") + describe(value));
    }
    const double number = value.toDouble();
    const bool integral = std::isfinite(number) && number == std::trunc(number);
    if (integral && number > static_cast<double>(max) && !aboveMax.isEmpty()) {
        throw InputError(where, aboveMax);
    }
    if (!integral || number < 1 || number > static_cast<double>(max)) {
        throw InputError(where, QStringLiteral("must be an integer from 1 to %1, got %2")
                                    .arg(max)
                                    .arg(describe(value)));
    }
    return static_cast<qint64>(number);
}

// An integer from 0 to max (the leaky bucket's burst may be 0: no queue).
qint64 readCount(const QJsonObject& object, const QString& path, QLatin1String key, qint64 max) {
    const QString where = memberPath(path, key);
    const QJsonValue value = required(object, path, key);
    const double number = value.isDouble() ? value.toDouble() : -1;
    if (!value.isDouble() || !std::isfinite(number) || number != std::trunc(number) || number < 0 ||
        number > static_cast<double>(max)) {
        throw InputError(where, QStringLiteral("must be an integer from 0 to %1, got %2")
                                    .arg(max)
                                    .arg(describe(value)));
    }
    return static_cast<qint64>(number);
}

bool readFlag(const QJsonObject& object, const QString& path, QLatin1String key) {
    const QJsonValue value = object.value(key);
    if (!value.isBool()) {
        throw InputError(memberPath(path, key),
                         QStringLiteral("must be true or false, got ") + describe(value));
    }
    return value.toBool();
}

QString readName(const QJsonObject& object, const QString& path) {
    const QLatin1String key("name");
    const QString where = memberPath(path, key);
    const QString name = readString(required(object, path, key), where);
    if (name.isEmpty()) {
        throw InputError(where, QStringLiteral("must not be empty"));
    }
    const qsizetype length = name.toUcs4().size();
    if (length > spec_limits::kMaxNameLength) {
        throw InputError(where, QStringLiteral("must be at most %1 characters long, got %2")
                                    .arg(spec_limits::kMaxNameLength)
                                    .arg(length));
    }
    if (name.contains(u'{') || name.contains(u'}')) {
        throw InputError(where, QStringLiteral("must not contain '{' or '}': they would change "
                                               "the Redis Cluster hash tag of the limiter's keys"));
    }
    for (const QChar c : name) {
        if (c.category() == QChar::Other_Control) {
            const QString code = QString::number(c.unicode(), 16).toUpper().rightJustified(4, u'0');
            throw InputError(where,
                             QStringLiteral("must not contain control characters, got U+") + code);
        }
    }
    return name;
}

// "interval 90 exceeds the 60 minutes in an hour; use a larger unit"
QString intervalTooLarge(const QJsonValue& value, CalendarUnit unit) {
    const char* enclosing = "";
    switch (unit) {
        case CalendarUnit::Milliseconds:
            enclosing = "a second";
            break;
        case CalendarUnit::Seconds:
            enclosing = "a minute";
            break;
        case CalendarUnit::Minutes:
            enclosing = "an hour";
            break;
        case CalendarUnit::Hours:
            enclosing = "a day";
            break;
        case CalendarUnit::Days:
            enclosing = "a month";
            break;
        case CalendarUnit::Months:
            enclosing = "a year";
            break;
    }
    QString message = QStringLiteral("interval %1 exceeds the %2 %3 in %4")
                          .arg(describe(value))
                          .arg(CalendarWindows::maxInterval(unit))
                          .arg(calendarUnitName(unit), QLatin1String(enclosing));
    if (unit != CalendarUnit::Months) {
        message += QStringLiteral("; use a larger unit");
    }
    return message;
}

QVector<SlidingRule> readRules(const QJsonObject& object, const QString& path) {
    const QLatin1String key("rules");
    const QString where = memberPath(path, key);
    const QJsonValue value = required(object, path, key);
    if (!value.isArray()) {
        throw InputError(where, QStringLiteral("must be an array of {\"limit\", \"window_ms\"} "
                                               "objects, got ") +
                                    describe(value));
    }
    const QJsonArray array = value.toArray();
    if (array.isEmpty()) {
        throw InputError(where, QStringLiteral("must hold at least one rule"));
    }
    if (array.size() > spec_limits::kMaxRules) {
        throw InputError(where, QStringLiteral("has %1 rules; at most %2 are allowed")
                                    .arg(array.size())
                                    .arg(spec_limits::kMaxRules));
    }
    QVector<SlidingRule> rules;
    for (qsizetype i = 0; i < array.size(); ++i) {
        const QString rulePath = where + QStringLiteral("[%1]").arg(i);
        if (!array.at(i).isObject()) {
            throw InputError(
                rulePath, QStringLiteral("expected a JSON object, got ") + describe(array.at(i)));
        }
        const QJsonObject rule = array.at(i).toObject();
        refuseUnknownFields(rule, rulePath, {QLatin1String("limit"), QLatin1String("window_ms")});
        SlidingRule parsed;
        parsed.limit =
            readInteger(rule, rulePath, QLatin1String("limit"), spec_limits::kMaxSlidingLimit);
        parsed.windowMs =
            readInteger(rule, rulePath, QLatin1String("window_ms"), spec_limits::kMaxIntervalMs);
        rules.append(parsed);
    }
    return rules;
}

}  // namespace

LimiterSpec parseLimiterSpec(const QJsonObject& object, const QString& jsonPath) {
    const QLatin1String type("type"), name("name"), scope("scope"), rate("rate");
    const QLatin1String intervalMs("interval_ms"), interval("interval"), unit("unit");
    const QLatin1String timezone("timezone"), rules("rules"), onError("on_error");
    const QLatin1String time("time");
    const QLatin1String periodMs("period_ms"), burst("burst"), nodelay("nodelay");
    const QLatin1String limit("limit"), windowMs("window_ms");

    // The type comes first: it decides which fields are known.
    LimiterSpec spec;
    spec.type = readChoice(required(object, jsonPath, type), memberPath(jsonPath, type),
                           QStringLiteral("type"), kTypes, limiterTypeName);
    switch (spec.type) {
        case LimiterType::TokenBucket:
            refuseUnknownFields(object, jsonPath,
                                {type, name, scope, onError, time, rate, intervalMs});
            break;
        case LimiterType::FixedWindow:
            refuseUnknownFields(object, jsonPath,
                                {type, name, scope, onError, time, rate, interval, unit, timezone});
            break;
        case LimiterType::SlidingWindow:
            refuseUnknownFields(object, jsonPath, {type, name, scope, onError, time, rules});
            break;
        case LimiterType::Gcra:
            refuseUnknownFields(object, jsonPath,
                                {type, name, scope, onError, time, rate, periodMs, burst});
            break;
        case LimiterType::SlidingCounter:
            refuseUnknownFields(object, jsonPath,
                                {type, name, scope, onError, time, limit, windowMs});
            break;
        case LimiterType::LeakyBucket:
            refuseUnknownFields(object, jsonPath,
                                {type, name, scope, onError, time, rate, periodMs, burst, nodelay});
            break;
    }

    spec.name = readName(object, jsonPath);
    if (object.contains(scope)) {
        spec.scope = readChoice(object.value(scope), memberPath(jsonPath, scope),
                                QStringLiteral("scope"), kScopes, scopeName);
    }
    if (object.contains(onError)) {
        spec.onError = readChoice(object.value(onError), memberPath(jsonPath, onError),
                                  QStringLiteral("failure policy"), kPolicies, failurePolicyName);
    }
    if (object.contains(time)) {
        spec.time = readChoice(object.value(time), memberPath(jsonPath, time),
                               QStringLiteral("time source"), kTimeSources, timeSourceName);
    }

    switch (spec.type) {
        case LimiterType::TokenBucket:
            spec.rate = readInteger(object, jsonPath, rate, spec_limits::kMaxRate);
            spec.intervalMs =
                readInteger(object, jsonPath, intervalMs, spec_limits::kMaxIntervalMs);
            break;
        case LimiterType::FixedWindow: {
            spec.rate = readInteger(object, jsonPath, rate, spec_limits::kMaxRate);
            // The unit bounds the interval, so it is read first.
            spec.unit = readChoice(required(object, jsonPath, unit), memberPath(jsonPath, unit),
                                   QStringLiteral("unit"), kUnits, calendarUnitName);
            spec.interval =
                readInteger(object, jsonPath, interval, CalendarWindows::maxInterval(spec.unit),
                            intervalTooLarge(object.value(interval), spec.unit));
            if (object.contains(timezone)) {
                const QString where = memberPath(jsonPath, timezone);
                const QString id = readString(object.value(timezone), where);
                if (!id.isEmpty() && !QTimeZone::isTimeZoneIdAvailable(id.toUtf8())) {
                    throw InputError(where, QStringLiteral("unknown time zone %1; expected an IANA "
                                                           "id such as \"Europe/Berlin\"")
                                                .arg(quoted(id)));
                }
                spec.timezone = id.toUtf8();
            }
            break;
        }
        case LimiterType::SlidingWindow:
            spec.rules = readRules(object, jsonPath);
            break;
        case LimiterType::Gcra:
        case LimiterType::LeakyBucket:
            spec.rate = readInteger(object, jsonPath, rate, spec_limits::kMaxAlgoRate);
            spec.periodMs = readInteger(object, jsonPath, periodMs, spec_limits::kMaxAlgoPeriodMs);
            spec.burst = spec.type == LimiterType::Gcra
                             ? readInteger(object, jsonPath, burst, spec_limits::kMaxAlgoBurst)
                             : readCount(object, jsonPath, burst, spec_limits::kMaxAlgoBurst);
            if (spec.type == LimiterType::LeakyBucket && object.contains(nodelay)) {
                spec.nodelay = readFlag(object, jsonPath, nodelay);
            }
            break;
        case LimiterType::SlidingCounter:
            spec.limit = readInteger(object, jsonPath, limit, spec_limits::kMaxCounterLimit);
            spec.windowMs = readInteger(object, jsonPath, windowMs, spec_limits::kMaxAlgoPeriodMs);
            break;
    }
    return spec;
}

LimiterSpec parseLimiterSpecJson(const QByteArray& json) {
    return parseLimiterSpec(json_input::parseObject(json), QStringLiteral("$"));
}

LimiterSpec loadLimiterSpecFile(const QString& path) {
    const QByteArray data = json_input::readSmallFile(
        path, kMaxSpecFileBytes, QStringLiteral("a limiter spec is a few lines of JSON"));
    try {
        return parseLimiterSpecJson(data);
    } catch (const InputError& error) {
        throw error.within(path);
    }
}

QJsonObject limiterSpecToJson(const LimiterSpec& spec) {
    QJsonObject object;
    object.insert(QLatin1String("type"), limiterTypeName(spec.type));
    object.insert(QLatin1String("name"), spec.name);
    object.insert(QLatin1String("scope"), scopeName(spec.scope));
    if (spec.onError != FailurePolicy::Error) {  // the default stays implicit, as in old files
        object.insert(QLatin1String("on_error"), failurePolicyName(spec.onError));
    }
    if (spec.time != TimeSource::Client) {
        object.insert(QLatin1String("time"), timeSourceName(spec.time));
    }
    switch (spec.type) {
        case LimiterType::TokenBucket:
            object.insert(QLatin1String("rate"), spec.rate);
            object.insert(QLatin1String("interval_ms"), spec.intervalMs);
            break;
        case LimiterType::FixedWindow:
            object.insert(QLatin1String("rate"), spec.rate);
            object.insert(QLatin1String("interval"), spec.interval);
            object.insert(QLatin1String("unit"), calendarUnitName(spec.unit));
            if (!spec.timezone.isEmpty()) {
                object.insert(QLatin1String("timezone"), QString::fromUtf8(spec.timezone));
            }
            break;
        case LimiterType::SlidingWindow: {
            QJsonArray rules;
            for (const SlidingRule& rule : spec.rules) {
                QJsonObject item;
                item.insert(QLatin1String("limit"), rule.limit);
                item.insert(QLatin1String("window_ms"), rule.windowMs);
                rules.append(item);
            }
            object.insert(QLatin1String("rules"), rules);
            break;
        }
        case LimiterType::Gcra:
        case LimiterType::LeakyBucket:
            object.insert(QLatin1String("rate"), spec.rate);
            object.insert(QLatin1String("period_ms"), spec.periodMs);
            object.insert(QLatin1String("burst"), spec.burst);
            if (spec.type == LimiterType::LeakyBucket) {
                object.insert(QLatin1String("nodelay"), spec.nodelay);
            }
            break;
        case LimiterType::SlidingCounter:
            object.insert(QLatin1String("limit"), spec.limit);
            object.insert(QLatin1String("window_ms"), spec.windowMs);
            break;
    }
    return object;
}

}  // namespace ratelab
