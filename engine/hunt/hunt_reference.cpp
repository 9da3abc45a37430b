#include "hunt/hunt_reference.h"

#include "input_error.h"
#include "json_input.h"
#include "limiters/script_spec.h"

namespace ratelab {

LimiterSpec parseHuntReference(const QByteArray& json, const LimiterSpec& limiter) {
    QJsonObject object = json_input::parseObject(json);
    for (const QLatin1String key : {QLatin1String("name"), QLatin1String("scope")}) {
        if (object.contains(key)) {
            throw InputError(
                json_input::memberPath(QStringLiteral("$"), key),
                QStringLiteral("the reference takes the hunted limiter's %1").arg(key));
        }
    }
    object.insert(QLatin1String("name"), QStringLiteral("reference"));
    object.insert(QLatin1String("scope"), scopeName(limiter.scope));
    LimiterSpec reference = parseLimiterSpec(object);
    refuseRedisTime(reference, QString());
    return reference;
}

LimiterSpec loadHuntReference(const QString& path, const LimiterSpec& limiter) {
    const QByteArray data =
        json_input::readSmallFile(path, spec_limits::kMaxSpecFileBytes,
                                  QStringLiteral("a limiter spec is a few lines of JSON"));
    try {
        return parseHuntReference(data, limiter);
    } catch (const InputError& error) {
        throw error.within(path);
    }
}

std::optional<LimiterSpec> takeScriptReference(LimiterSpec& limiter) {
    std::optional<LimiterSpec> reference = referenceSpecOf(limiter);
    if (!reference) {
        return std::nullopt;
    }
    reference->name = QStringLiteral("reference");
    auto script = std::make_shared<ScriptSpec>(*limiter.script);
    script->reference.reset();
    limiter.script = std::move(script);
    return reference;
}

void refuseRedisTime(const LimiterSpec& spec, const QString& file) {
    if (spec.time == TimeSource::Redis) {
        const InputError error(QStringLiteral("$.time"),
                               QStringLiteral("\"redis\": a hunt decides each row at its t_ms in "
                                              "virtual time, and a limiter on Redis's time would "
                                              "decide at Redis's clock instead; hunt it without "
                                              "\"time\" (or with \"time\": \"client\")"));
        throw file.isEmpty() ? error : error.within(file);
    }
}

}  // namespace ratelab
