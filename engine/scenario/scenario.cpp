// Parsing, validation and writing of scenario files (scenario/scenario.h). Messages and helpers
// follow limiter_spec_parser.cpp, whose parseLimiterSpec reads each limiter.

#include "scenario/scenario.h"

#include <QDateTime>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonParseError>
#include <QLocale>
#include <QStringList>
#include <algorithm>
#include <cmath>
#include <initializer_list>

#include "input_error.h"
#include "json_input.h"
#include "scenario/scenario_budget.h"

namespace ratelab {
namespace {

using namespace json_input;

using scenario_limits::kMaxDurationS;
using scenario_limits::kMaxRate;
using scenario_limits::kMaxSpeed;

constexpr qint64 kMaxScenarioFileBytes = 1024 * 1024;
constexpr int kMaxNameLength = 200;
constexpr int kMaxStages = 1000;
constexpr int kMaxBurst = 1'000'000;
constexpr double kMaxWeight = 1e9;
constexpr qint64 kMaxSeed = 1LL << 53;  // exact as a double
constexpr qint64 kMaxDurationMs = static_cast<qint64>(kMaxDurationS) * 1000;

constexpr ShapeSpec::Type kShapeTypes[] = {ShapeSpec::Type::Constant, ShapeSpec::Type::Poisson,
                                           ShapeSpec::Type::Linear,   ShapeSpec::Type::Sine,
                                           ShapeSpec::Type::Burst,    ShapeSpec::Type::Step,
                                           ShapeSpec::Type::Replay};
constexpr AcquireMode kModes[] = {AcquireMode::Try, AcquireMode::Wait};

// A replay trace's own error, which names the trace file and line: loadScenarioFile passes it
// on as it is instead of putting the scenario file in front.
class TraceError : public InputError {
public:
    explicit TraceError(const InputError& error) : InputError(error) {}
};

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
                bool zeroAllowed = false) {
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
    return name;
}

QVector<LimiterSpec> readLimiters(const QJsonValue& value, const QString& where) {
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
        const LimiterSpec spec = parseLimiterSpec(array.at(i).toObject(), path);
        // Limiters of one run share the Redis keys of their names.
        for (qsizetype j = 0; j < limiters.size(); ++j) {
            if (limiters.at(j).name == spec.name) {
                throw InputError(memberPath(path, QStringLiteral("name")),
                                 QStringLiteral("duplicate name %1 (also %2)")
                                     .arg(quoted(spec.name), elementPath(where, j)));
            }
        }
        limiters.append(spec);
    }
    return limiters;
}

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

// The shape's own fields; a replay shape's trace path goes to *tracePath (read later).
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
    if (typeName != QLatin1String("virtual")) {
        throw InputError(typePath, QStringLiteral("unknown clock type %1; expected virtual (a "
                                                  "real clock is written \"real\")")
                                       .arg(quoted(typeName)));
    }
    refuseUnknownFields(object, where, {type, start, speed});

    ClockSpec clock;
    clock.isVirtual = true;
    clock.startMs = readStart(required(object, where, start), memberPath(where, start));
    if (object.contains(speed)) {
        const QString speedPath = memberPath(where, speed);
        clock.speed = readNumber(object.value(speed), speedPath);
        if (clock.speed < 0 || clock.speed > kMaxSpeed) {
            throw InputError(speedPath, QStringLiteral("must be a number from 0 (as fast as "
                                                       "possible) to %1, got %2")
                                            .arg(formatNumber(kMaxSpeed))
                                            .arg(describe(object.value(speed))));
        }
        clock.speed = clock.speed == 0 ? 0.0 : clock.speed;  // no -0
    }
    return clock;
}

// A relative trace path is relative to the scenario's folder.
QString resolvePath(const QString& baseDir, const QString& path) {
    if (baseDir.isEmpty() || QDir::isAbsolutePath(path)) {
        return path;
    }
    return QDir::cleanPath(QDir(baseDir).filePath(path));
}

TrafficSpec readTraffic(const QJsonValue& value, const QString& path, const QString& baseDir) {
    const QLatin1String shape("shape"), durationS("duration_s"), clients("clients");
    const QLatin1String threads("threads"), pipeline("pipeline"), permits("permits");
    const QLatin1String mode("mode"), timeoutMs("timeout_ms"), clock("clock"), seed("seed");

    const QJsonObject object = readObject(value, path);
    refuseUnknownFields(
        object, path,
        {shape, durationS, clients, threads, pipeline, permits, mode, timeoutMs, clock, seed});

    TrafficSpec traffic;
    const QString shapePath = memberPath(path, shape);
    traffic.shape = readShape(readObject(required(object, path, shape), shapePath), shapePath,
                              &traffic.tracePath);
    const bool replay = traffic.shape.type == ShapeSpec::Type::Replay;
    const bool step = traffic.shape.type == ShapeSpec::Type::Step;

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

    // Replay and step shapes have a natural length.
    if (object.contains(durationS) || (!replay && !step)) {
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

    // The trace is read last, so that mistakes in the scenario itself are reported first.
    if (replay) {
        try {
            traffic.trace = readTraceFile(resolvePath(baseDir, traffic.tracePath));
        } catch (const InputError& error) {
            throw TraceError(error);
        }
        const qint64 first = traffic.trace.first().tMs;
        for (const TraceRow& row : traffic.trace) {
            traffic.shape.replayOffsetsMs.append(row.tMs - first);
        }
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
    }
    checkShapeRate(traffic, shapePath);
    return traffic;
}

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

QJsonObject trafficToJson(const TrafficSpec& traffic) {
    QJsonObject object;
    object.insert(QLatin1String("shape"), shapeToJson(traffic.shape, traffic.tracePath));
    object.insert(QLatin1String("duration_s"), traffic.durationS);
    // A replay's clients and permits come from its trace.
    if (traffic.shape.type != ShapeSpec::Type::Replay) {
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
        if (traffic.permitsMin == traffic.permitsMax) {
            object.insert(QLatin1String("permits"), traffic.permitsMin);
        } else {
            object.insert(QLatin1String("permits"),
                          QJsonObject{{QLatin1String("min"), traffic.permitsMin},
                                      {QLatin1String("max"), traffic.permitsMax}});
        }
    }
    object.insert(QLatin1String("threads"), traffic.threads);
    object.insert(QLatin1String("pipeline"), traffic.pipeline);
    object.insert(QLatin1String("mode"), modeName(traffic.mode));
    if (traffic.mode == AcquireMode::Wait) {
        object.insert(QLatin1String("timeout_ms"), traffic.timeoutMs);
    }
    object.insert(QLatin1String("clock"), clockToJson(traffic.clock));
    object.insert(QLatin1String("seed"), static_cast<qint64>(traffic.seed));
    return object;
}

}  // namespace

Scenario parseScenario(const QJsonObject& object, const QString& baseDir, qint64 maxMemoryBytes) {
    const QString root = QStringLiteral("$");
    const QLatin1String name("name"), limiters("limiters"), traffic("traffic");
    const QLatin1String bucketMs("bucket_ms");
    refuseUnknownFields(object, root, {name, limiters, traffic, bucketMs});

    Scenario scenario;
    scenario.name = object.contains(name)
                        ? readScenarioName(object.value(name), memberPath(root, name))
                        : QStringLiteral("scenario");
    scenario.limiters = readLimiters(required(object, root, limiters), memberPath(root, limiters));
    scenario.traffic =
        readTraffic(required(object, root, traffic), memberPath(root, traffic), baseDir);
    if (object.contains(bucketMs)) {
        scenario.bucketMs =
            readInteger(object, root, bucketMs, scenario_limits::kMinBucketMs, kMaxDurationMs);
    }

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

Scenario parseScenarioJson(const QByteArray& json, const QString& baseDir,
                           qint64 maxMemoryBytes) {
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
    return object;
}

}  // namespace ratelab
