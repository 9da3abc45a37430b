// Parsing and validation of scenario files (scenario/scenario.h): the file, its name and
// limiters here, the traffic in traffic_parser.cpp, the shape in shape_parser.cpp. Messages and
// helpers follow limiter_spec_parser.cpp, whose parseLimiterSpec reads each limiter.

#include <QFileInfo>
#include <QJsonArray>
#include <cmath>

#include "input_error.h"
#include "json_input.h"
#include "limiters/script_spec.h"
#include "scenario/scenario.h"
#include "scenario/scenario_budget.h"
#include "scenario/scenario_json.h"

namespace ratelab {

using namespace json_input;
using namespace scenario_json;

namespace {

using scenario_limits::kMaxNameLength;
using scenario_limits::kMaxScenarioFileBytes;

QString readScenarioName(const QJsonValue& value, const QString& where) {
    const QString name = readString(value, where);
    if (name.isEmpty()) {
        throw InputError(where, QStringLiteral("must not be empty"));
    }
    const qsizetype length = name.toUcs4().size();
    if (length > kMaxNameLength) {
        throw InputError(where, QStringLiteral("must be at most %1 characters long, got %2")
                                    .arg(kMaxNameLength)
                                    .arg(length));
    }
    refuseBadNameCharacters(name, where);
    return name;
}

QVector<LimiterSpec> readLimiters(const QJsonValue& value, const QString& where,
                                  const QString& baseDir) {
    if (!value.isArray()) {
        throw InputError(
            where, QStringLiteral("must be an array of limiter specs, got ") + describe(value));
    }
    const QJsonArray array = value.toArray();
    if (array.isEmpty()) {
        throw InputError(where, QStringLiteral("must hold at least one limiter"));
    }
    if (array.size() > scenario_limits::kMaxLimiters) {
        throw InputError(where, QStringLiteral("has %1 limiters; at most %2 are allowed")
                                    .arg(array.size())
                                    .arg(scenario_limits::kMaxLimiters));
    }
    QVector<LimiterSpec> limiters;
    for (qsizetype i = 0; i < array.size(); ++i) {
        const QString path = elementPath(where, i);
        if (!array.at(i).isObject()) {
            throw InputError(
                path, QStringLiteral("expected a JSON object, got ") + describe(array.at(i)));
        }
        const LimiterSpec spec = parseLimiterSpec(array.at(i).toObject(), path, baseDir);
        // Limiters of one run share the Redis keys of their names, and a script limiter's
        // reference decides under a name of its own.
        for (qsizetype j = 0; j < limiters.size(); ++j) {
            if (limiters.at(j).name == spec.name) {
                throw InputError(memberPath(path, QStringLiteral("name")),
                                 QStringLiteral("duplicate name %1 (also %2)")
                                     .arg(quoted(spec.name), elementPath(where, j)));
            }
            for (const auto& [script, other] :
                 {std::pair(limiters.at(j), spec), std::pair(spec, limiters.at(j))}) {
                if (referenceSpecOf(script) && referenceName(script.name) == other.name) {
                    throw InputError(
                        memberPath(path, QStringLiteral("name")),
                        QStringLiteral("%1 is the name the reference of script limiter %2 "
                                       "decides under")
                            .arg(quoted(other.name), quoted(script.name)));
                }
            }
        }
        limiters.append(spec);
    }
    return limiters;
}

// A script on Redis's own clock (TTL expiry, TIME) decides only as it would in production when
// Redis's clock and the run's go together: on the real clock, never a virtual one (a sweep
// runs its combinations on one).
void refuseVirtualRedisClock(const Scenario& scenario, bool sweeps) {
    for (const LimiterSpec& spec : scenario.limiters) {
        if (!onRedisClock(spec)) {
            continue;
        }
        const QString why =
            QStringLiteral(
                "script limiter %1 declares \"clock\": \"redis\": its decisions depend "
                "on Redis's own clock (TTL expiry, TIME), which a virtual clock does "
                "not move, so ")
                .arg(quoted(spec.name));
        if (sweeps) {
            throw InputError(QStringLiteral("$.sweep"),
                             why + QStringLiteral("it cannot be swept: a sweep runs its "
                                                  "combinations on a virtual clock"));
        }
        if (scenario.traffic.clock.isVirtual) {
            throw InputError(QStringLiteral("$.traffic.clock"),
                             why + QStringLiteral("it runs on the real clock only (\"clock\": "
                                                  "\"real\")"));
        }
    }
}

}  // namespace

Scenario parseScenario(const QJsonObject& object, const QString& baseDir, qint64 maxMemoryBytes) {
    const QString root = QStringLiteral("$");
    const QLatin1String name("name"), limiters("limiters"), traffic("traffic");
    const QLatin1String bucketMs("bucket_ms"), expect("expect"), sweep("sweep");
    refuseUnknownFields(object, root, {name, limiters, traffic, bucketMs, expect, sweep});

    Scenario scenario;
    scenario.name = object.contains(name)
                        ? readScenarioName(object.value(name), memberPath(root, name))
                        : QStringLiteral("scenario");
    scenario.limiters =
        readLimiters(required(object, root, limiters), memberPath(root, limiters), baseDir);
    scenario.traffic = readTraffic(required(object, root, traffic), memberPath(root, traffic),
                                   baseDir, traceBudget(scenario.limiters.size(), maxMemoryBytes));
    if (object.contains(bucketMs)) {
        scenario.bucketMs =
            readInteger(object, root, bucketMs, scenario_limits::kMinBucketMs, kMaxDurationMs);
    }
    if (object.contains(expect)) {
        scenario.expectations = readExpectations(object.value(expect), memberPath(root, expect),
                                                 scenario.limiters, scenario.traffic);
    }
    if (object.contains(sweep)) {
        scenario.sweep = readSweep(object.value(sweep), memberPath(root, sweep), scenario.limiters);
    }
    refuseVirtualRedisClock(scenario, object.contains(sweep));

    // The timeline holds one bucket per bucket_ms of the run.
    const double durationMs = scenario.traffic.durationS * 1000;
    const double buckets = std::ceil(durationMs / static_cast<double>(scenario.bucketMs));
    if (buckets > static_cast<double>(scenario_limits::kMaxBuckets)) {
        const double smallest =
            std::ceil(durationMs / static_cast<double>(scenario_limits::kMaxBuckets));
        throw InputError(memberPath(root, bucketMs),
                         QStringLiteral("%1 ms buckets over a %2 s run make %3 buckets; at most "
                                        "%4 are allowed (use bucket_ms >= %5)")
                             .arg(scenario.bucketMs)
                             .arg(formatNumber(scenario.traffic.durationS))
                             .arg(formatNumber(buckets))
                             .arg(scenario_limits::kMaxBuckets)
                             .arg(formatNumber(smallest)));
    }
    checkMemoryBudget(scenario, maxMemoryBytes);
    return scenario;
}

Scenario parseScenarioJson(const QByteArray& json, const QString& baseDir, qint64 maxMemoryBytes) {
    return parseScenario(json_input::parseObject(json), baseDir, maxMemoryBytes);
}

Scenario loadScenarioFile(const QString& path, qint64 maxMemoryBytes) {
    const QByteArray data = json_input::readSmallFile(
        path, kMaxScenarioFileBytes, QStringLiteral("a scenario is a few dozen lines of JSON"));
    const QFileInfo info(path);
    try {
        const QJsonObject object = json_input::parseObject(data);
        Scenario scenario = parseScenario(object, info.path(), maxMemoryBytes);
        if (!object.contains(QLatin1String("name")) && !info.completeBaseName().isEmpty()) {
            scenario.name = info.completeBaseName();
        }
        return scenario;
    } catch (const TraceError&) {
        throw;  // names the trace file already
    } catch (const InputError& error) {
        throw error.within(path);
    }
}

}  // namespace ratelab
