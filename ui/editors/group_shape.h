#pragma once

#include <QJsonObject>
#include <QStringList>

namespace ratelab::group_shape {

// What the traffic editor's group table knows of a group's shape, kept as the JSON object the
// scenario file holds (so that no field is lost) rather than as a ShapeSpec.

// The shape types the scenario parser takes, in the format's order.
const QStringList& typeNames();
// A shape the table's Rate column says whole: constant or poisson with no field but its rate.
bool isSimple(const QJsonObject& shape);
// A valid start for a group switched to `type`: its fields derived from `rate` (requests/s).
QJsonObject defaultShape(const QString& type, double rate);
// The shape's rate, or what stands for it (mean, the ramp's end, the first stage); 10 if none.
double rateOf(const QJsonObject& shape);
// A JSON value as a cell's text: a number as the scenario writer prints it, a string as it is.
QString valueText(const QJsonValue& value);
// The fields beyond the type, in a few words ("1 → 20/s", "3 stages", "login.csv").
QString summary(const QJsonObject& shape);

}  // namespace ratelab::group_shape
