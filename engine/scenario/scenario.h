#pragma once

#include <QByteArray>
#include <QJsonObject>
#include <QString>
#include <QVector>

#include "input_limits.h"
#include "limiters/limiter_spec.h"
#include "scenario/sweep_spec.h"
#include "stats/expectation.h"
#include "traffic/traffic_spec.h"

namespace ratelab {

// A scenario file: one or more limiters fed identical traffic (so they can be compared).
struct Scenario {
    QString name;
    QVector<LimiterSpec> limiters;  // distinct names
    TrafficSpec traffic;
    qint64 bucketMs = 100;  // time-bucket width of the timeline
    // "expect": regression checks on the run's figures, keyed by limiter name or "*"; in the
    // file's order within a key, keys in JSON's (sorted) order.
    QVector<Expectation> expectations;
    // "sweep": the parameters `ratelab sweep` varies and what it optimizes (empty: none).
    SweepSpec sweep;
};

// The admitted-burst windows (ms, ascending) a run computes for limiter `index`: those of
// admittedBurstWindows for its config, plus every N an expectation on it names
// (max_accepted_in_any_<N>ms).
std::vector<qint64> burstWindowsFor(const Scenario& scenario, int index);

// Limits of accepted values: scenario_limits in input_limits.h.

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

// An "expect" object (per limiter name or "*" a list of checks) read as the scenario's own is,
// against its limiters and traffic: a lesson's beats carry one each (lessons/).
QVector<Expectation> parseExpectations(const QJsonValue& value, const QString& where,
                                       const Scenario& scenario);

// The scenario as JSON in the same format (round-trips; a replay trace is written as its path).
QJsonObject scenarioToJson(const Scenario& scenario);

}  // namespace ratelab
