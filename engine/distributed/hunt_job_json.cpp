#include "distributed/hunt_job_json.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include "distributed/strict_json.h"
#include "json_input.h"

namespace ratelab {
namespace {

QString at(const QString& path, const char* key) {
    return json_input::memberPath(path, QLatin1String(key));
}

qint64 count(const QJsonObject& o, const char* key, qint64 min, qint64 max) {
    const QString path = at(QStringLiteral("$"), key);
    const qint64 n = StrictJson::integer(StrictJson::member(o, QStringLiteral("$"), key), path);
    if (n < min || n > max) {
        throw InputError(path,
                         QStringLiteral("expected %1 to %2, got %3").arg(min).arg(max).arg(n));
    }
    return n;
}

}  // namespace

QByteArray huntJobJson(const HuntConfig& config) {
    QJsonArray properties;
    for (const HuntProperty p : config.properties) {
        properties.append(huntPropertyName(p));
    }
    QJsonObject o{{QLatin1String("limiter"), limiterSpecToJson(config.limiter, SpecFiles::Inline)},
                  {QLatin1String("properties"), properties},
                  {QLatin1String("seed"), qint64(config.seed)},
                  {QLatin1String("max_rows"), config.maxRows}};
    o.insert(QLatin1String("reference"),
             config.reference ? QJsonValue(limiterSpecToJson(*config.reference, SpecFiles::Inline))
                              : QJsonValue());
    return QJsonDocument(o).toJson(QJsonDocument::Compact);
}

HuntConfig parseHuntJob(const QByteArray& json) {
    const QJsonObject o = json_input::parseObject(json);
    const QString root = QStringLiteral("$");
    json_input::refuseUnknownFields(
        o, root,
        {QLatin1String("limiter"), QLatin1String("reference"), QLatin1String("properties"),
         QLatin1String("seed"), QLatin1String("max_rows")});
    HuntConfig config;
    config.limiter = parseLimiterSpec(
        StrictJson::object(StrictJson::member(o, root, "limiter"), at(root, "limiter")),
        at(root, "limiter"));
    const QJsonValue reference = StrictJson::member(o, root, "reference");
    if (!reference.isNull()) {
        config.reference = parseLimiterSpec(StrictJson::object(reference, at(root, "reference")),
                                            at(root, "reference"));
    }
    const QString propertiesPath = at(root, "properties");
    const QJsonArray properties =
        StrictJson::array(StrictJson::member(o, root, "properties"), propertiesPath);
    for (qsizetype i = 0; i < properties.size(); ++i) {
        const QString where = json_input::elementPath(propertiesPath, i);
        const std::optional<HuntProperty> p =
            huntPropertyNamed(StrictJson::text(properties[i], where));
        if (!p) {
            throw InputError(
                where, QStringLiteral("unknown property ") + json_input::describe(properties[i]));
        }
        config.properties.push_back(*p);
    }
    if (config.properties.empty()) {
        throw InputError(propertiesPath, QStringLiteral("expected at least one property"));
    }
    config.seed = quint64(count(o, "seed", 0, qint64(1) << 53));
    config.maxRows = int(count(o, "max_rows", 1, 1000));
    return config;
}

QByteArray huntBatchResultJson(const HuntBatchResult& r) {
    return QJsonDocument(QJsonObject{{QLatin1String("traces"), r.traces},
                                     {QLatin1String("rows"), r.rows},
                                     {QLatin1String("decisions"), r.decisions},
                                     {QLatin1String("failing"), r.failing}})
        .toJson(QJsonDocument::Compact);
}

HuntBatchResult parseHuntBatchResult(const QByteArray& json, qint64 first, qint64 count) {
    const QJsonObject o = json_input::parseObject(json);
    const QString root = QStringLiteral("$");
    const auto integer = [&](const char* key) {
        return StrictJson::integer(StrictJson::member(o, root, key), at(root, key));
    };
    HuntBatchResult r;
    r.traces = integer("traces");
    r.rows = integer("rows");
    r.decisions = integer("decisions");
    r.failing = integer("failing");
    if (r.failing == -1 ? r.traces != count
                        : r.failing != first + r.traces - 1 || r.traces < 1 || r.traces > count) {
        throw InputError(at(root, r.failing == -1 ? "traces" : "failing"),
                         QStringLiteral("traces %1 and failing %2 do not answer traces %3 to %4")
                             .arg(r.traces)
                             .arg(r.failing)
                             .arg(first)
                             .arg(first + count - 1));
    }
    if (r.rows < r.traces || r.decisions < 0) {
        throw InputError(at(root, "rows"), QStringLiteral("fewer rows than traces, or decisions "
                                                          "below 0"));
    }
    return r;
}

}  // namespace ratelab
