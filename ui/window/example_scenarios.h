#pragma once

#include <QString>
#include <QStringList>

namespace ratelab {

// The directory of the shipped example scenarios, or empty if none is found. Until the
// installed location is known to the engine, it is resources/scenarios of the source tree,
// found by walking up from the executable (the build tree lives inside the source tree).
// One function, so that the installed lookup can replace it.
QString examplesDirectory();
// The shipped examples' paths (*.json), sorted by name.
QStringList exampleScenarios();
// Whether `path` is one of the shipped examples (saving over it must ask for a new name).
bool isShippedExample(const QString& path);

}  // namespace ratelab
