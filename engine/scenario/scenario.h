#pragma once

#include <QByteArray>
#include <QJsonObject>
#include <QString>
#include <QVector>

#include "limiters/limiter_spec.h"
#include "traffic/pacer.h"
#include "traffic/trace.h"

namespace ratelab {

// How a worker asks: try once (tryAcquire), or wait (acquire: sleep retry_after_ms and try
// again until granted or timeout_ms since the first try has run out, as Redisson's acquire).
enum class AcquireMode { Try, Wait };

struct ClockSpec {
    bool isVirtual = false;
    qint64 startMs = 0;  // virtual: the epoch ms the run starts at
    double speed = 1.0;  // virtual: virtual ms per real ms (0.1 = slow motion); 0 = as fast as
                         // possible (discrete events, no sleeping)
};

struct TrafficSpec {
    ShapeSpec shape;
    QString tracePath;              // replay: the trace file (relative paths: to the scenario file)
    QVector<TraceRow> trace;        // replay: its rows (clients and permits come from them)
    double durationS = 0;           // replay: defaults to the trace's span + 1 ms
    int clients = 1;                // client ids "c0" .. "c<clients-1>"
    QVector<double> clientWeights;  // empty: uniform; else one non-negative weight per client
    int threads = 1;
    int pipeline = 1;  // requests in flight per connection
    qint64 permitsMin = 1;
    qint64 permitsMax = 1;  // permits per request uniform in [min, max]
    AcquireMode mode = AcquireMode::Try;
    qint64 timeoutMs = 0;  // wait mode: give up after this long (>= 1 when mode is wait)
    ClockSpec clock;
    quint64 seed = 1;
};

// A scenario file: one or more limiters fed identical traffic (so they can be compared).
struct Scenario {
    QString name;
    QVector<LimiterSpec> limiters;  // distinct names
    TrafficSpec traffic;
    qint64 bucketMs = 100;  // time-bucket width of the timeline
};

// Limits of accepted values.
namespace scenario_limits {
constexpr int kMaxLimiters = 16;
constexpr int kMaxClients = 10000;
constexpr int kMaxThreads = 64;
constexpr int kMaxPipeline = 1024;
constexpr double kMaxDurationS = 24 * 3600;
constexpr double kMaxRate = 1e6;  // requests/s
constexpr double kMaxSpeed = 1000;
constexpr qint64 kMinBucketMs = 1;
constexpr qint64 kMaxBuckets = 1'000'000;  // duration / bucket_ms
// What a run may hold in memory unless told otherwise (scenario/scenario_budget.h).
constexpr qint64 kDefaultMaxMemoryBytes = 1LL << 30;
}  // namespace scenario_limits

// Parsing and validation: every problem is an InputError whose place is the JSON path
// ("$.traffic.shape.rate", "$.limiters[1].rules[0].limit") or "line L, column C"; files are
// named in front. `baseDir` resolves a replay trace's relative path. A scenario whose run
// would need more than maxMemoryBytes (checkMemoryBudget) is refused.
Scenario parseScenario(const QJsonObject& object, const QString& baseDir,
                       qint64 maxMemoryBytes = scenario_limits::kDefaultMaxMemoryBytes);
Scenario parseScenarioJson(const QByteArray& json, const QString& baseDir,
                           qint64 maxMemoryBytes = scenario_limits::kDefaultMaxMemoryBytes);
Scenario loadScenarioFile(const QString& path,
                          qint64 maxMemoryBytes = scenario_limits::kDefaultMaxMemoryBytes);

// The scenario as JSON in the same format (round-trips; a replay trace is written as its path).
QJsonObject scenarioToJson(const Scenario& scenario);

}  // namespace ratelab
