#pragma once

#include <QString>
#include <QStringList>

namespace ratelab {

// The folder of the shipped example scenarios (installed, or resources/scenarios of the source
// tree for a build; see exampleScenarioDirs), or empty if there is none.
QString examplesDirectory();
// The shipped examples' paths (*.json), sorted by name.
QStringList exampleScenarios();
// Whether `path` is one of the shipped examples (saving over it must ask for a new name).
bool isShippedExample(const QString& path);

}  // namespace ratelab
