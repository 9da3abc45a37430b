#pragma once

// What the scenario's parser files share (scenario_parser.cpp reads the file and its limiters,
// traffic_parser.cpp the traffic, shape_parser.cpp the shape, scenario_writer.cpp writes it
// back). Internal to scenario/: other code uses scenario.h.

#include <QJsonObject>
#include <QJsonValue>
#include <QString>

#include "input_error.h"
#include "input_limits.h"
#include "scenario/scenario.h"

namespace ratelab::scenario_json {

constexpr qint64 kMaxDurationMs = static_cast<qint64>(scenario_limits::kMaxDurationS) * 1000;

// A replay trace's own error, which names the trace file and line: loadScenarioFile passes it
// on as it is instead of putting the scenario file in front.
class TraceError : public InputError {
public:
    explicit TraceError(const InputError& error) : InputError(error) {}
};

QString shapeTypeName(ShapeSpec::Type type);
QString modeName(AcquireMode mode);

QJsonObject readObject(const QJsonValue& value, const QString& where);
// An integer from min to max. JSON has only doubles, so 4.0 counts as an integer but 4.5 does not.
qint64 readInteger(const QJsonValue& value, const QString& where, qint64 min, qint64 max);
qint64 readInteger(const QJsonObject& object, const QString& path, QLatin1String key, qint64 min,
                   qint64 max);
// A finite number (a QJsonObject built in code may hold NaN or infinity).
double readNumber(const QJsonValue& value, const QString& where);
// Requests per second: above 0 (or from 0 when zeroAllowed) and at most kMaxRate.
double readRate(const QJsonObject& object, const QString& path, QLatin1String key,
                bool zeroAllowed = false);
// A duration in seconds: above 0 and at most kMaxDurationS.
double readSeconds(const QJsonObject& object, const QString& path, QLatin1String key);

// The shape's own fields; a replay shape's trace path goes to *tracePath (read later).
ShapeSpec readShape(const QJsonObject& object, const QString& path, QString* tracePath);
// The traffic object at `path`; a replay's relative trace path is resolved against baseDir and
// the trace read within `traceBudget` (costed before it is loaded).
TrafficSpec readTraffic(const QJsonValue& value, const QString& path, const QString& baseDir,
                        const TraceBudget& traceBudget = {});

// "expect" (expect_parser.cpp): every key a limiter's name or "*", every check parsed.
QVector<Expectation> readExpectations(const QJsonValue& value, const QString& where,
                                      const QVector<LimiterSpec>& limiters);
QJsonObject expectationsToJson(const QVector<Expectation>& expectations);

}  // namespace ratelab::scenario_json
