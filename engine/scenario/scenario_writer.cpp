// Writing a scenario back as JSON, in the format the parser reads (round-trips).

#include <QDateTime>
#include <QJsonArray>

#include "scenario/scenario.h"
#include "scenario/scenario_json.h"

namespace ratelab {
namespace {

using scenario_json::modeName;
using scenario_json::shapeTypeName;

QJsonObject shapeToJson(const ShapeSpec& shape, const QString& tracePath) {
    QJsonObject object;
    object.insert(QLatin1String("type"), shapeTypeName(shape.type));
    switch (shape.type) {
        case ShapeSpec::Type::Constant:
        case ShapeSpec::Type::Poisson:
            object.insert(QLatin1String("rate"), shape.rate);
            break;
        case ShapeSpec::Type::Linear:
            object.insert(QLatin1String("from"), shape.from);
            object.insert(QLatin1String("to"), shape.to);
            break;
        case ShapeSpec::Type::Sine:
            object.insert(QLatin1String("mean"), shape.mean);
            object.insert(QLatin1String("amplitude"), shape.amplitude);
            object.insert(QLatin1String("period_s"), shape.periodS);
            break;
        case ShapeSpec::Type::Burst:
            object.insert(QLatin1String("rate"), shape.rate);
            object.insert(QLatin1String("burst"), shape.burst);
            object.insert(QLatin1String("every_s"), shape.everyS);
            break;
        case ShapeSpec::Type::Step: {
            QJsonArray stages;
            for (const ShapeSpec::Stage& stage : shape.stages) {
                stages.append(QJsonObject{{QLatin1String("rate"), stage.rate},
                                          {QLatin1String("duration_s"), stage.durationS}});
            }
            object.insert(QLatin1String("stages"), stages);
            break;
        }
        case ShapeSpec::Type::Replay:
            object.insert(QLatin1String("trace"), tracePath);
            break;
    }
    return object;
}

QJsonValue clockToJson(const ClockSpec& clock) {
    if (!clock.isVirtual) {
        return QStringLiteral("real");
    }
    const QDateTime start = QDateTime::fromMSecsSinceEpoch(clock.startMs, Qt::UTC);
    return QJsonObject{{QLatin1String("type"), QStringLiteral("virtual")},
                       {QLatin1String("start"), start.toString(Qt::ISODateWithMs)},
                       {QLatin1String("speed"), clock.speed}};
}

// 1, or {"min": 1, "max": 3}.
QJsonValue permitsToJson(const TrafficSpec& traffic) {
    if (traffic.permitsMin == traffic.permitsMax) {
        return traffic.permitsMin;
    }
    return QJsonObject{{QLatin1String("min"), traffic.permitsMin},
                       {QLatin1String("max"), traffic.permitsMax}};
}

// [{"name", "clients", "shape"}]; a replay group's clients come from its trace.
QJsonArray groupsToJson(const QVector<ClientGroup>& groups) {
    QJsonArray out;
    for (const ClientGroup& group : groups) {
        QJsonObject object{{QLatin1String("name"), group.name}};
        if (group.shape.type != ShapeSpec::Type::Replay) {
            object.insert(QLatin1String("clients"), group.clients);
        }
        object.insert(QLatin1String("shape"), shapeToJson(group.shape, group.tracePath));
        out.append(object);
    }
    return out;
}

QJsonObject trafficToJson(const TrafficSpec& traffic) {
    QJsonObject object;
    const bool grouped = !traffic.groups.isEmpty();
    if (grouped) {
        object.insert(QLatin1String("groups"), groupsToJson(traffic.groups));
    } else {
        object.insert(QLatin1String("shape"), shapeToJson(traffic.shape, traffic.tracePath));
    }
    object.insert(QLatin1String("duration_s"), traffic.durationS);
    // A replay's clients and permits come from its trace; groups have their own clients.
    if (grouped) {
        object.insert(QLatin1String("permits"), permitsToJson(traffic));
    } else if (traffic.shape.type != ShapeSpec::Type::Replay) {
        if (traffic.clientWeights.isEmpty()) {
            object.insert(QLatin1String("clients"), traffic.clients);
        } else {
            QJsonArray weights;
            for (const double weight : traffic.clientWeights) {
                weights.append(weight);
            }
            object.insert(QLatin1String("clients"),
                          QJsonObject{{QLatin1String("count"), traffic.clients},
                                      {QLatin1String("weights"), weights}});
        }
        object.insert(QLatin1String("permits"), permitsToJson(traffic));
    }
    object.insert(QLatin1String("threads"), traffic.threads);
    object.insert(QLatin1String("pipeline"), traffic.pipeline);
    if (traffic.roundTripPerLimiter) {
        object.insert(QLatin1String("round_trips"), QStringLiteral("per_limiter"));
    }
    object.insert(QLatin1String("mode"), modeName(traffic.mode));
    if (traffic.mode == AcquireMode::Wait) {
        object.insert(QLatin1String("timeout_ms"), traffic.timeoutMs);
    }
    object.insert(QLatin1String("clock"), clockToJson(traffic.clock));
    if (!traffic.clientSkewMs.isEmpty()) {
        QJsonObject skews;
        for (auto it = traffic.clientSkewMs.cbegin(); it != traffic.clientSkewMs.cend(); ++it) {
            skews.insert(it.key(), it.value());
        }
        object.insert(QLatin1String("clock_skew_ms"), skews);
    } else if (traffic.clockSkewMs != 0) {
        object.insert(QLatin1String("clock_skew_ms"), traffic.clockSkewMs);
    }
    object.insert(QLatin1String("seed"), static_cast<qint64>(traffic.seed));
    scenario_json::holdToJson(traffic, &object);
    scenario_json::gatewaysToJson(traffic, &object);
    return object;
}

}  // namespace

QJsonObject scenarioToJson(const Scenario& scenario) {
    QJsonArray limiters;
    for (const LimiterSpec& spec : scenario.limiters) {
        limiters.append(limiterSpecToJson(spec));
    }
    QJsonObject object;
    object.insert(QLatin1String("name"), scenario.name);
    object.insert(QLatin1String("limiters"), limiters);
    object.insert(QLatin1String("traffic"), trafficToJson(scenario.traffic));
    object.insert(QLatin1String("bucket_ms"), scenario.bucketMs);
    if (!scenario.expectations.isEmpty()) {
        object.insert(QLatin1String("expect"),
                      scenario_json::expectationsToJson(scenario.expectations));
    }
    if (!scenario.sweep.isEmpty()) {
        object.insert(QLatin1String("sweep"), scenario_json::sweepToJson(scenario.sweep));
    }
    return object;
}

}  // namespace ratelab
