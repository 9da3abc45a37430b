// libFuzzer target: parseScenarioJson (engine/scenario/scenario.cpp), which also runs
// parseLimiterSpec for every limiter.
//
// The base folder does not exist, so a replay shape's relative trace path fails cleanly with an
// InputError. Inputs whose trace path would leave that folder (absolute paths, "..", Qt resource
// paths) are skipped: they would read real files such as /dev/zero or /dev/stdin, which tests
// the file system, not the parser.
//
// Expected outcomes: a valid Scenario, or an InputError with a non-empty message. Anything else
// is a finding: another exception, a crash or sanitizer report, a hang, a huge allocation, or a
// scenario (without a replay trace) that does not round-trip through scenarioToJson.
#include <QByteArray>
#include <QDir>
#include <QJsonDocument>
#include <QJsonObject>
#include <QJsonValue>
#include <QString>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <string>

#include "input_error.h"
#include "limiters/limiter_spec.h"
#include "scenario/scenario.h"

using namespace ratelab;

namespace {

constexpr size_t kMaxInputBytes = 64 * 1024;

const QString& baseDir() {
    static const QString dir = QStringLiteral("/nonexistent-ratelab-fuzz/scenarios");
    return dir;
}

[[noreturn]] void finding(const char* what, const QByteArray& detail) {
    std::fprintf(stderr, "\n=== FUZZ FINDING (scenario): %s\n%s\n", what, detail.constData());
    std::fflush(stderr);
    std::abort();
}

void checkInputError(const InputError& error, const char* stage) {
    if (error.problem().isEmpty() || error.message().isEmpty() ||
        std::string(error.what()).empty()) {
        finding(stage,
                QByteArrayLiteral("InputError with an empty message: ") + error.message().toUtf8());
    }
}

// True when a replay trace path in the JSON would resolve outside baseDir().
bool traceLeavesBaseDir(const QByteArray& json) {
    // Cheap filter: a trace path needs the key "trace", written as is or with an escape.
    if (!json.contains("trace") && !json.contains('\\')) {
        return false;
    }
    const QJsonDocument document = QJsonDocument::fromJson(json);
    if (!document.isObject()) {
        return false;
    }
    const QJsonValue traffic = document.object().value(QLatin1String("traffic"));
    const QJsonValue trace =
        traffic.toObject().value(QLatin1String("shape")).toObject().value(QLatin1String("trace"));
    if (!trace.isString()) {
        return false;
    }
    const QString path = trace.toString();
    if (QDir::isAbsolutePath(path) || path.startsWith(u':')) {
        return true;
    }
    const QString resolved = QDir::cleanPath(QDir(baseDir()).filePath(path));
    return !resolved.startsWith(baseDir() + QLatin1Char('/'));
}

QByteArray describe(const Scenario& scenario) {
    return QJsonDocument(scenarioToJson(scenario)).toJson(QJsonDocument::Compact);
}

bool sameShape(const ShapeSpec& a, const ShapeSpec& b) {
    if (a.stages.size() != b.stages.size()) {
        return false;
    }
    for (qsizetype i = 0; i < a.stages.size(); ++i) {
        if (a.stages[i].rate != b.stages[i].rate ||
            a.stages[i].durationS != b.stages[i].durationS) {
            return false;
        }
    }
    return a.type == b.type && a.rate == b.rate && a.from == b.from && a.to == b.to &&
           a.mean == b.mean && a.amplitude == b.amplitude && a.periodS == b.periodS &&
           a.burst == b.burst && a.everyS == b.everyS && a.replayOffsetsMs == b.replayOffsetsMs;
}

// Field-by-field equality (Scenario has no operator==). Doubles compare exactly: JSON text
// written by Qt uses the shortest representation that reads back to the same double.
const char* difference(const Scenario& a, const Scenario& b) {
    if (a.name != b.name)
        return "name";
    if (a.limiters != b.limiters)
        return "limiters";
    if (a.bucketMs != b.bucketMs)
        return "bucket_ms";
    const TrafficSpec& x = a.traffic;
    const TrafficSpec& y = b.traffic;
    if (!sameShape(x.shape, y.shape))
        return "traffic.shape";
    if (x.tracePath != y.tracePath)
        return "traffic.shape.trace";
    if (x.durationS != y.durationS)
        return "traffic.duration_s";
    if (x.clients != y.clients)
        return "traffic.clients";
    if (x.clientWeights != y.clientWeights)
        return "traffic.clients.weights";
    if (x.threads != y.threads)
        return "traffic.threads";
    if (x.pipeline != y.pipeline)
        return "traffic.pipeline";
    if (x.permitsMin != y.permitsMin || x.permitsMax != y.permitsMax)
        return "traffic.permits";
    if (x.mode != y.mode)
        return "traffic.mode";
    if (x.timeoutMs != y.timeoutMs)
        return "traffic.timeout_ms";
    if (x.clock.isVirtual != y.clock.isVirtual)
        return "traffic.clock.type";
    if (x.clock.startMs != y.clock.startMs)
        return "traffic.clock.start";
    if (x.clock.speed != y.clock.speed)
        return "traffic.clock.speed";
    if (x.seed != y.seed)
        return "traffic.seed";
    return nullptr;
}

void checkScenario(const Scenario& scenario) {
    if (scenario.limiters.isEmpty() || scenario.limiters.size() > scenario_limits::kMaxLimiters) {
        finding("accepted a bad number of limiters", describe(scenario));
    }
    for (qsizetype i = 0; i < scenario.limiters.size(); ++i) {
        for (qsizetype j = i + 1; j < scenario.limiters.size(); ++j) {
            if (scenario.limiters[i].name == scenario.limiters[j].name) {
                finding("accepted two limiters with the same name", describe(scenario));
            }
        }
    }
    const TrafficSpec& t = scenario.traffic;
    if (!(t.durationS > 0) || t.durationS > scenario_limits::kMaxDurationS || t.clients < 1 ||
        t.clients > scenario_limits::kMaxClients || t.threads < 1 ||
        t.threads > scenario_limits::kMaxThreads || t.pipeline < 1 ||
        t.pipeline > scenario_limits::kMaxPipeline || t.permitsMin < 1 ||
        t.permitsMax < t.permitsMin || scenario.bucketMs < scenario_limits::kMinBucketMs ||
        (!t.clientWeights.isEmpty() && t.clientWeights.size() != t.clients) ||
        (t.mode == AcquireMode::Wait && t.timeoutMs < 1)) {
        finding("accepted a value outside its limits", describe(scenario));
    }
}

void checkRoundTrip(const Scenario& scenario) {
    // A replay scenario writes its trace as a path, and the trace cannot be read here.
    if (scenario.traffic.shape.type == ShapeSpec::Type::Replay) {
        return;
    }
    const QJsonObject json = scenarioToJson(scenario);
    try {
        const Scenario again = parseScenario(json, baseDir());
        if (const char* field = difference(scenario, again)) {
            finding("round trip through QJsonObject changed the scenario",
                    QByteArray("field ") + field + "\n" + describe(scenario) + "\n  became\n" +
                        describe(again));
        }
    } catch (const InputError& error) {
        finding("scenarioToJson output is refused by parseScenario",
                describe(scenario) + "\n  error: " + error.message().toUtf8());
    }
    const QByteArray text = QJsonDocument(json).toJson(QJsonDocument::Indented);
    try {
        const Scenario again = parseScenarioJson(text, baseDir());
        if (const char* field = difference(scenario, again)) {
            finding("round trip through JSON text changed the scenario",
                    QByteArray("field ") + field + "\n" + text + "\n  became\n" + describe(again));
        }
    } catch (const InputError& error) {
        finding("the JSON text of scenarioToJson is refused by parseScenarioJson",
                text + "\n  error: " + error.message().toUtf8());
    }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    if (size > kMaxInputBytes) {
        return 0;
    }
    const QByteArray json(reinterpret_cast<const char*>(data), static_cast<qsizetype>(size));
    try {
        if (traceLeavesBaseDir(json)) {
            return 0;
        }
        Scenario scenario;
        try {
            scenario = parseScenarioJson(json, baseDir());
        } catch (const InputError& error) {
            checkInputError(error, "parseScenarioJson");
            return 0;
        }
        checkScenario(scenario);
        checkRoundTrip(scenario);
    } catch (const std::exception& e) {
        finding("unexpected exception (not an InputError)", QByteArray(e.what()));
    } catch (...) {
        finding("unexpected non-std exception", QByteArray());
    }
    return 0;
}
