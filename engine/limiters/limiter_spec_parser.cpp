// Parsing and validation of limiter specs (docs/scenarios.md, "Limiter specs").

#include <QFile>
#include <QFileInfo>
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
#include "limiters/algorithm.h"
#include "limiters/limiter_spec.h"

namespace ratelab {
namespace {

using namespace json_input;

using spec_limits::kMaxSpecFileBytes;

constexpr Scope kScopes[] = {Scope::Global, Scope::PerClient};
constexpr FailurePolicy kPolicies[] = {FailurePolicy::Error, FailurePolicy::Open,
                                       FailurePolicy::Closed};
constexpr TimeSource kTimeSources[] = {TimeSource::Client, TimeSource::Redis};

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
    refuseBadNameCharacters(name, where);
    return name;
}

// The algorithm a spec's "type" names.
const Algorithm& readAlgorithm(const QJsonObject& object, const QString& jsonPath) {
    const QLatin1String type("type");
    const QString where = memberPath(jsonPath, type);
    const QString name = readString(required(object, jsonPath, type), where);
    if (const Algorithm* algorithm = algorithmNamed(name)) {
        return *algorithm;
    }
    QStringList names;
    for (const Algorithm* algorithm : algorithms()) {
        names << algorithm->name();
    }
    throw InputError(
        where, QStringLiteral("unknown type %1; expected %2").arg(quoted(name), oneOf(names)));
}

}  // namespace

LimiterSpec parseLimiterSpec(const QJsonObject& object, const QString& jsonPath,
                             const QString& baseDir) {
    const QLatin1String type("type"), name("name"), scope("scope"), onError("on_error");
    const QLatin1String time("time"), gateway("gateway");

    // The type comes first: it decides which fields are known.
    const Algorithm& algorithm = readAlgorithm(object, jsonPath);
    std::vector<QLatin1String> known = {type, name, scope, onError, time, gateway};
    const std::vector<QLatin1String> own = algorithm.fieldKeys();
    known.insert(known.end(), own.begin(), own.end());
    refuseUnknownFields(object, jsonPath, known);

    LimiterSpec spec;
    spec.type = algorithm.type();
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
    if (object.contains(gateway)) {
        spec.gateway =
            readGatewayUse(object.value(gateway), memberPath(jsonPath, gateway), spec.type);
    }
    algorithm.readSpecFields(object, jsonPath, spec, baseDir);
    return spec;
}

LimiterSpec parseLimiterSpecJson(const QByteArray& json, const QString& baseDir) {
    return parseLimiterSpec(json_input::parseObject(json), QStringLiteral("$"), baseDir);
}

LimiterSpec loadLimiterSpecFile(const QString& path) {
    const QByteArray data = json_input::readSmallFile(
        path, kMaxSpecFileBytes, QStringLiteral("a limiter spec is a few lines of JSON"));
    try {
        return parseLimiterSpecJson(data, QFileInfo(path).path());
    } catch (const InputError& error) {
        throw error.within(path);
    }
}

QJsonObject limiterSpecToJson(const LimiterSpec& spec, SpecFiles files) {
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
    if (!spec.gateway.isDefault()) {
        object.insert(QLatin1String("gateway"), gatewayUseToJson(spec.gateway));
    }
    algorithmOf(spec).writeSpecFields(spec, object, files);
    return object;
}

}  // namespace ratelab
