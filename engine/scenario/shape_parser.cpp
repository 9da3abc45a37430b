// Reading a traffic shape (constant, poisson, linear, sine, burst, step, replay) of a scenario.

#include <QJsonArray>

#include "json_input.h"
#include "scenario/scenario_json.h"

namespace ratelab::scenario_json {

using namespace json_input;

namespace {

using scenario_limits::kMaxBurst;
using scenario_limits::kMaxStages;

constexpr ShapeSpec::Type kShapeTypes[] = {ShapeSpec::Type::Constant, ShapeSpec::Type::Poisson,
                                           ShapeSpec::Type::Linear,   ShapeSpec::Type::Sine,
                                           ShapeSpec::Type::Burst,    ShapeSpec::Type::Step,
                                           ShapeSpec::Type::Replay};

QVector<ShapeSpec::Stage> readStages(const QJsonObject& object, const QString& path) {
    const QLatin1String key("stages"), rate("rate"), durationS("duration_s");
    const QString where = memberPath(path, key);
    const QJsonValue value = required(object, path, key);
    if (!value.isArray()) {
        throw InputError(where, QStringLiteral("must be an array of {\"rate\", \"duration_s\"} "
                                               "objects, got ") +
                                    describe(value));
    }
    const QJsonArray array = value.toArray();
    if (array.isEmpty()) {
        throw InputError(where, QStringLiteral("must hold at least one stage"));
    }
    if (array.size() > kMaxStages) {
        throw InputError(where, QStringLiteral("has %1 stages; at most %2 are allowed")
                                    .arg(array.size())
                                    .arg(kMaxStages));
    }
    QVector<ShapeSpec::Stage> stages;
    bool sends = false;
    for (qsizetype i = 0; i < array.size(); ++i) {
        const QString stagePath = elementPath(where, i);
        const QJsonObject stage = readObject(array.at(i), stagePath);
        refuseUnknownFields(stage, stagePath, {rate, durationS});
        ShapeSpec::Stage parsed;
        parsed.rate = readRate(stage, stagePath, rate, true);
        parsed.durationS = readSeconds(stage, stagePath, durationS);
        sends = sends || parsed.rate > 0;
        stages.append(parsed);
    }
    if (!sends) {
        throw InputError(where,
                         QStringLiteral("every stage has rate 0; the shape would send nothing"));
    }
    return stages;
}

}  // namespace

ShapeSpec readShape(const QJsonObject& object, const QString& path, QString* tracePath) {
    const QLatin1String type("type"), rate("rate"), from("from"), to("to"), mean("mean");
    const QLatin1String amplitude("amplitude"), periodS("period_s"), burst("burst");
    const QLatin1String everyS("every_s"), stages("stages"), trace("trace");

    // The type comes first: it decides which fields are known.
    ShapeSpec shape;
    shape.type = readChoice(required(object, path, type), memberPath(path, type),
                            QStringLiteral("shape type"), kShapeTypes, shapeTypeName);
    switch (shape.type) {
        case ShapeSpec::Type::Constant:
        case ShapeSpec::Type::Poisson:
            refuseUnknownFields(object, path, {type, rate});
            shape.rate = readRate(object, path, rate);
            break;
        case ShapeSpec::Type::Linear:
            refuseUnknownFields(object, path, {type, from, to});
            shape.from = readRate(object, path, from, true);
            shape.to = readRate(object, path, to, true);
            if (shape.from == 0 && shape.to == 0) {
                throw InputError(memberPath(path, to),
                                 QStringLiteral("from and to are both 0; the shape would send "
                                                "nothing"));
            }
            break;
        case ShapeSpec::Type::Sine: {
            refuseUnknownFields(object, path, {type, mean, amplitude, periodS});
            shape.mean = readRate(object, path, mean);
            const QString where = memberPath(path, amplitude);
            const QJsonValue value = required(object, path, amplitude);
            shape.amplitude = readNumber(value, where);
            // The rate mean + amplitude * sin(...) never goes below 0.
            if (shape.amplitude < 0 || shape.amplitude > shape.mean) {
                throw InputError(where, QStringLiteral("must be from 0 to the mean (%1), got %2")
                                            .arg(formatNumber(shape.mean), describe(value)));
            }
            shape.amplitude = shape.amplitude == 0 ? 0.0 : shape.amplitude;  // no -0
            shape.periodS = readSeconds(object, path, periodS);
            break;
        }
        case ShapeSpec::Type::Burst:
            refuseUnknownFields(object, path, {type, rate, burst, everyS});
            shape.rate = readRate(object, path, rate);
            shape.burst = static_cast<int>(readInteger(object, path, burst, 1, kMaxBurst));
            shape.everyS = readSeconds(object, path, everyS);
            break;
        case ShapeSpec::Type::Step:
            refuseUnknownFields(object, path, {type, stages});
            shape.stages = readStages(object, path);
            break;
        case ShapeSpec::Type::Replay: {
            refuseUnknownFields(object, path, {type, trace});
            const QString where = memberPath(path, trace);
            *tracePath = readString(required(object, path, trace), where);
            if (tracePath->isEmpty()) {
                throw InputError(where, QStringLiteral("must not be empty; expected the path of a "
                                                       "t_ms,client,permits CSV file"));
            }
            break;
        }
    }
    return shape;
}

}  // namespace ratelab::scenario_json
