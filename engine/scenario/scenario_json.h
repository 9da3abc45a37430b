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
// The traffic object at `path`; a replay's relative trace path is resolved against baseDir.
TrafficSpec readTraffic(const QJsonValue& value, const QString& path, const QString& baseDir);
// A replay shape's trace file (a relative path against baseDir; its errors a TraceError), and
// the shape's offsets from it.
QVector<TraceRow> readReplayTrace(const QString& baseDir, const QString& tracePath,
                                  ShapeSpec* shape);

// "traffic.groups" (group_parser.cpp): every group's name, clients and shape, traces not yet
// read. finishGroups reads their traces, sets the run's length from them when the traffic has
// no duration_s, and checks the clients (each in one group) and the rates.
QVector<ClientGroup> readGroups(const QJsonValue& value, const QString& where);
void finishGroups(const QString& where, const QString& baseDir, bool hasDuration,
                  TrafficSpec* traffic);
// Every group is a step or a replay shape, so the run has a natural length.
bool groupsHaveNaturalLength(const QVector<ClientGroup>& groups);
// What a missing duration_s beside groups without a natural length is: the first group that
// has none.
QString missingGroupDuration(const QVector<ClientGroup>& groups);

// The traffic's "hold" and "leak_pct" (hold_parser.cpp), read into *spec / written to *object.
void readHold(const QJsonObject& traffic, const QString& path, TrafficSpec* spec);
void holdToJson(const TrafficSpec& traffic, QJsonObject* object);
// The traffic's "gateways" (gateways_parser.cpp).
void readGateways(const QJsonObject& traffic, const QString& path, TrafficSpec* spec);
void gatewaysToJson(const TrafficSpec& traffic, QJsonObject* object);

// "expect" (expect_parser.cpp): every key a limiter's name or "*", every check parsed.
// Groups and clients an expectation names must be the traffic's.
QVector<Expectation> readExpectations(const QJsonValue& value, const QString& where,
                                      const QVector<LimiterSpec>& limiters,
                                      const TrafficSpec& traffic);
QJsonObject expectationsToJson(const QVector<Expectation>& expectations);

}  // namespace ratelab::scenario_json
