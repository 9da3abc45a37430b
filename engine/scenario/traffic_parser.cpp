// Reading a scenario's traffic: clients, permits, threads, mode, clock, seed; the shape is read
// by shape_parser.cpp and a replay trace last of all.

#include <QDateTime>
#include <QDir>
#include <QJsonArray>

#include "json_input.h"
#include "scenario/scenario_budget.h"
#include "scenario/scenario_json.h"
#include "traffic/request_factory.h"

namespace ratelab::scenario_json {

using namespace json_input;

namespace {

using scenario_limits::kMaxDurationS;
using scenario_limits::kMaxSeed;
using scenario_limits::kMaxSpeed;
using scenario_limits::kMaxWeight;
using scenario_limits::kMinSpeed;

constexpr AcquireMode kModes[] = {AcquireMode::Try, AcquireMode::Wait};
constexpr bool kRoundTrips[] = {false, true};  // "shared", "per_limiter"

QString roundTripsName(bool perLimiter) {
    return perLimiter ? QStringLiteral("per_limiter") : QStringLiteral("shared");
}

// 4, or {"count": 4, "weights": [1, 1, 2, 4]}.
void readClients(const QJsonValue& value, const QString& where, TrafficSpec* traffic) {
    const QLatin1String count("count"), weights("weights");
    if (value.isDouble()) {
        traffic->clients =
            static_cast<int>(readInteger(value, where, 1, scenario_limits::kMaxClients));
        return;
    }
    if (!value.isObject()) {
        throw InputError(where, QStringLiteral("must be an integer or an object {\"count\", "
                                               "\"weights\"}, got ") +
                                    describe(value));
    }
    const QJsonObject object = value.toObject();
    refuseUnknownFields(object, where, {count, weights});
    traffic->clients =
        static_cast<int>(readInteger(object, where, count, 1, scenario_limits::kMaxClients));
    if (!object.contains(weights)) {
        return;
    }
    const QString weightsPath = memberPath(where, weights);
    const QJsonValue list = object.value(weights);
    if (!list.isArray()) {
        throw InputError(
            weightsPath,
            QStringLiteral("must be an array of numbers, one per client, got ") + describe(list));
    }
    const QJsonArray array = list.toArray();
    if (array.size() != traffic->clients) {
        throw InputError(weightsPath, QStringLiteral("has %1 weights for %2 clients; expected "
                                                     "one per client")
                                          .arg(array.size())
                                          .arg(traffic->clients));
    }
    double sum = 0;
    for (qsizetype i = 0; i < array.size(); ++i) {
        const QString weightPath = elementPath(weightsPath, i);
        const double weight = readNumber(array.at(i), weightPath);
        if (weight < 0 || weight > kMaxWeight) {
            throw InputError(weightPath, QStringLiteral("must be a weight from 0 to %1, got %2")
                                             .arg(formatNumber(kMaxWeight), describe(array.at(i))));
        }
        sum += weight;
        traffic->clientWeights.append(weight == 0 ? 0.0 : weight);  // no -0
    }
    if (sum == 0) {
        throw InputError(weightsPath, QStringLiteral("must not all be 0"));
    }
}

// 1, or {"min": 1, "max": 3}.
void readPermits(const QJsonValue& value, const QString& where, TrafficSpec* traffic) {
    const QLatin1String min("min"), max("max");
    if (value.isDouble()) {
        traffic->permitsMin = traffic->permitsMax =
            readInteger(value, where, 1, spec_limits::kMaxRate);
        return;
    }
    if (!value.isObject()) {
        throw InputError(where, QStringLiteral("must be an integer or an object {\"min\", "
                                               "\"max\"}, got ") +
                                    describe(value));
    }
    const QJsonObject object = value.toObject();
    refuseUnknownFields(object, where, {min, max});
    traffic->permitsMin = readInteger(object, where, min, 1, spec_limits::kMaxRate);
    traffic->permitsMax = readInteger(object, where, max, 1, spec_limits::kMaxRate);
    if (traffic->permitsMax < traffic->permitsMin) {
        throw InputError(memberPath(where, max), QStringLiteral("must be at least min (%1), got %2")
                                                     .arg(traffic->permitsMin)
                                                     .arg(traffic->permitsMax));
    }
}

// "2024-03-10T01:59:58-05:00" as epoch ms.
qint64 readStart(const QJsonValue& value, const QString& where) {
    const QString text = readString(value, where);
    const QDateTime time = QDateTime::fromString(text, Qt::ISODateWithMs);
    // Without an offset Qt reads local time, which would tie the scenario to one machine's zone.
    if (!time.isValid() || time.timeSpec() == Qt::LocalTime) {
        throw InputError(where, QStringLiteral("must be an ISO 8601 date and time with an offset "
                                               "or Z, such as \"2024-03-10T01:59:58-05:00\", "
                                               "got ") +
                                    describe(value));
    }
    if (time.toMSecsSinceEpoch() < 0) {
        throw InputError(where, QStringLiteral("must not be before 1970-01-01T00:00:00Z, got ") +
                                    describe(value));
    }
    // ISO 8601 has four-digit years: a later start could not be written back (found by fuzzing:
    // 9999-12-31T23:59:59.999-00:01 is in the year 10000 in UTC).
    if (time.toUTC().date().year() > 9999) {
        throw InputError(where, QStringLiteral("must not be after 9999-12-31T23:59:59.999Z, got ") +
                                    describe(value));
    }
    return time.toMSecsSinceEpoch();
}

// "real", or {"type": "virtual", "start": ..., "speed": ...}.
ClockSpec readClock(const QJsonValue& value, const QString& where) {
    const QLatin1String type("type"), start("start"), speed("speed");
    const QString expected =
        QStringLiteral("\"real\" or {\"type\": \"virtual\", \"start\": ..., \"speed\": ...}");
    if (value.isString() && value.toString() == QLatin1String("real")) {
        return ClockSpec();
    }
    if (value.isString()) {
        throw InputError(where, QStringLiteral("unknown clock %1; expected %2")
                                    .arg(quoted(value.toString()), expected));
    }
    if (!value.isObject()) {
        throw InputError(where,
                         QStringLiteral("must be %1, got %2").arg(expected, describe(value)));
    }
    const QJsonObject object = value.toObject();
    const QString typePath = memberPath(where, type);
    const QString typeName = readString(required(object, where, type), typePath);
    if (typeName == QLatin1String("real")) {
        throw InputError(typePath, QStringLiteral("the real clock is a string, not an object: "
                                                  "write \"clock\": \"real\""));
    }
    if (typeName != QLatin1String("virtual")) {
        throw InputError(typePath, QStringLiteral("unknown clock type %1; expected virtual (the "
                                                  "real clock is the string \"real\")")
                                       .arg(quoted(typeName)));
    }
    refuseUnknownFields(object, where, {type, start, speed});

    ClockSpec clock;
    clock.isVirtual = true;
    clock.startMs = readStart(required(object, where, start), memberPath(where, start));
    if (object.contains(speed)) {
        const QString speedPath = memberPath(where, speed);
        clock.speed = readNumber(object.value(speed), speedPath);
        if (clock.speed < 0 || clock.speed > kMaxSpeed ||
            (clock.speed > 0 && clock.speed < kMinSpeed)) {
            throw InputError(speedPath, QStringLiteral("must be 0 (as fast as possible) or a "
                                                       "number from %1 to %2, got %3")
                                            .arg(formatNumber(kMinSpeed), formatNumber(kMaxSpeed))
                                            .arg(describe(object.value(speed))));
        }
        clock.speed = clock.speed == 0 ? 0.0 : clock.speed;  // no -0
    }
    return clock;
}

// 800 (every client's clock 800 ms ahead), or {"c3": 800, "c4": -250} (those clients'; the
// others' 0). Client names are checked once the clients are known (checkSkewClients).
void readClockSkew(const QJsonValue& value, const QString& where, TrafficSpec* traffic) {
    using scenario_limits::kMaxClockSkewMs;
    if (value.isDouble()) {
        traffic->clockSkewMs = readInteger(value, where, -kMaxClockSkewMs, kMaxClockSkewMs);
        return;
    }
    if (!value.isObject()) {
        throw InputError(where, QStringLiteral("must be an integer (ms, every client) or an object "
                                               "{\"<client>\": ms, ...}, got ") +
                                    describe(value));
    }
    const QJsonObject object = value.toObject();
    for (auto it = object.begin(); it != object.end(); ++it) {
        traffic->clientSkewMs.insert(it.key(), readInteger(it.value(), memberPath(where, it.key()),
                                                           -kMaxClockSkewMs, kMaxClockSkewMs));
    }
}

// Every client named in clock_skew_ms must be one of the run's.
void checkSkewClients(const TrafficSpec& traffic, const QStringList& clients,
                      const QString& where) {
    for (auto it = traffic.clientSkewMs.cbegin(); it != traffic.clientSkewMs.cend(); ++it) {
        if (!clients.contains(it.key())) {
            const QString known = clients.size() <= 6
                                      ? oneOf(clients)
                                      : clients.first() + QStringLiteral(" ... ") + clients.last();
            throw InputError(memberPath(where, it.key()),
                             QStringLiteral("no client %1 in this traffic; its clients are %2")
                                 .arg(quoted(it.key()), known));
        }
    }
}

// A relative trace path is relative to the scenario's folder.
QString resolvePath(const QString& baseDir, const QString& path) {
    if (baseDir.isEmpty() || QDir::isAbsolutePath(path)) {
        return path;
    }
    return QDir::cleanPath(QDir(baseDir).filePath(path));
}

}  // namespace

Trace readReplayTrace(const QString& baseDir, const QString& tracePath, ShapeSpec* shape,
                      const TraceBudget& budget) {
    Trace trace;
    try {
        trace = readTraceFile(resolvePath(baseDir, tracePath), budget);
    } catch (const InputError& error) {
        throw TraceError(error);
    }
    const qint64 first = trace.tMsAt(0);
    shape->replayOffsetsMs.reserve(trace.size());
    for (qsizetype i = 0; i < trace.size(); ++i) {
        shape->replayOffsetsMs.append(trace.tMsAt(i) - first);
    }
    return trace;
}

TrafficSpec readTraffic(const QJsonValue& value, const QString& path, const QString& baseDir,
                        const TraceBudget& traceBudget) {
    const QLatin1String shape("shape"), durationS("duration_s"), clients("clients");
    const QLatin1String threads("threads"), pipeline("pipeline"), permits("permits");
    const QLatin1String mode("mode"), timeoutMs("timeout_ms"), clock("clock"), seed("seed");
    const QLatin1String clockSkewMs("clock_skew_ms"), groups("groups"), hold("hold");
    const QLatin1String leakPct("leak_pct"), gateways("gateways"), roundTrips("round_trips");

    const QJsonObject object = readObject(value, path);
    refuseUnknownFields(object, path,
                        {shape, durationS, clients, threads, pipeline, permits, mode, timeoutMs,
                         clock, seed, clockSkewMs, groups, hold, leakPct, gateways, roundTrips});

    TrafficSpec traffic;
    const QString shapePath = memberPath(path, shape);
    const QString groupsPath = memberPath(path, groups);
    if (object.contains(groups)) {
        // Each group has its own shape and clients.
        for (const QLatin1String key : {shape, clients}) {
            if (object.contains(key)) {
                throw InputError(memberPath(path, key),
                                 QStringLiteral("not allowed with groups: each group has its own "
                                                "shape and clients"));
            }
        }
        traffic.groups = readGroups(object.value(groups), groupsPath);
    } else {
        traffic.shape = readShape(readObject(required(object, path, shape), shapePath), shapePath,
                                  &traffic.tracePath);
    }
    const bool grouped = !traffic.groups.isEmpty();
    const bool replay = !grouped && traffic.shape.type == ShapeSpec::Type::Replay;
    const bool step = !grouped && traffic.shape.type == ShapeSpec::Type::Step;
    const bool natural = replay || step || (grouped && groupsHaveNaturalLength(traffic.groups));

    if (replay) {
        for (const QLatin1String key : {clients, permits}) {
            if (object.contains(key)) {
                throw InputError(memberPath(path, key),
                                 QStringLiteral("not allowed with a replay shape: the trace "
                                                "gives each request's client and permits"));
            }
        }
    } else {
        if (object.contains(clients)) {
            readClients(object.value(clients), memberPath(path, clients), &traffic);
        }
        if (object.contains(permits)) {
            readPermits(object.value(permits), memberPath(path, permits), &traffic);
        }
    }

    // Replay and step shapes have a natural length (groups: the longest of theirs).
    if (grouped && !natural && !object.contains(durationS)) {
        throw InputError(memberPath(path, durationS), missingGroupDuration(traffic.groups));
    }
    if (object.contains(durationS) || !natural) {
        traffic.durationS = readSeconds(object, path, durationS);
    } else if (step) {
        for (const ShapeSpec::Stage& stage : traffic.shape.stages) {
            traffic.durationS += stage.durationS;
        }
        if (traffic.durationS > kMaxDurationS) {
            throw InputError(memberPath(shapePath, QStringLiteral("stages")),
                             QStringLiteral("the stages last %1 s in total, longer than a run "
                                            "may last (%2 s); give a shorter duration_s")
                                 .arg(formatNumber(traffic.durationS))
                                 .arg(formatNumber(kMaxDurationS)));
        }
    }

    if (object.contains(threads)) {
        traffic.threads =
            static_cast<int>(readInteger(object, path, threads, 1, scenario_limits::kMaxThreads));
    }
    if (object.contains(pipeline)) {
        traffic.pipeline =
            static_cast<int>(readInteger(object, path, pipeline, 1, scenario_limits::kMaxPipeline));
    }
    if (object.contains(roundTrips)) {
        traffic.roundTripPerLimiter =
            readChoice(object.value(roundTrips), memberPath(path, roundTrips),
                       QStringLiteral("round_trips"), kRoundTrips, roundTripsName);
    }
    if (object.contains(mode)) {
        traffic.mode = readChoice(object.value(mode), memberPath(path, mode),
                                  QStringLiteral("mode"), kModes, modeName);
    }
    const QString timeoutPath = memberPath(path, timeoutMs);
    if (traffic.mode == AcquireMode::Wait) {
        if (!object.contains(timeoutMs)) {
            throw InputError(timeoutPath,
                             QStringLiteral("missing: required when mode is \"wait\""));
        }
        traffic.timeoutMs = readInteger(object, path, timeoutMs, 1, kMaxDurationMs);
    } else if (object.contains(timeoutMs)) {
        throw InputError(timeoutPath, QStringLiteral("only allowed when mode is \"wait\""));
    }
    if (object.contains(clock)) {
        traffic.clock = readClock(object.value(clock), memberPath(path, clock));
    }
    if (object.contains(seed)) {
        traffic.seed = static_cast<quint64>(readInteger(object, path, seed, 0, kMaxSeed));
    }
    readHold(object, path, &traffic);
    readGateways(object, path, &traffic);
    const QString skewPath = memberPath(path, clockSkewMs);
    if (object.contains(clockSkewMs)) {
        readClockSkew(object.value(clockSkewMs), skewPath, &traffic);
    }
    if (!replay && !grouped) {
        checkSkewClients(traffic, RequestFactory(traffic).clientNames(), skewPath);
    }
    if (grouped) {
        // Their traces are read last, as a replay's below.
        finishGroups(groupsPath, baseDir, object.contains(durationS), &traffic, traceBudget);
        checkSkewClients(traffic, RequestFactory(traffic).clientNames(), skewPath);
        return traffic;
    }

    // The trace is read last, so that mistakes in the scenario itself are reported first.
    if (replay) {
        traffic.trace = readReplayTrace(baseDir, traffic.tracePath, &traffic.shape, traceBudget);
        if (!object.contains(durationS)) {
            const qint64 spanMs = traffic.shape.replayOffsetsMs.last() + 1;
            if (spanMs > kMaxDurationMs) {
                throw InputError(memberPath(shapePath, QStringLiteral("trace")),
                                 QStringLiteral("the trace spans %1 ms, longer than a run may "
                                                "last (%2 s); give a shorter duration_s")
                                     .arg(spanMs)
                                     .arg(formatNumber(kMaxDurationS)));
            }
            traffic.durationS = static_cast<double>(spanMs) / 1000;
        }
        checkSkewClients(traffic, RequestFactory(traffic).clientNames(), skewPath);
    }
    checkShapeRate(traffic, shapePath);
    return traffic;
}

}  // namespace ratelab::scenario_json
