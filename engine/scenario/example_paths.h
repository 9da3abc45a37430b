#pragma once

#include <QString>
#include <QStringList>

namespace ratelab {

// The folders holding ratelab's example scenarios and limiter specs, scenarios first; only
// folders that exist. An installed ratelab (<prefix>/bin/ratelab) finds them in
// <prefix>/share/ratelab/{scenarios,examples}; a binary in a build tree falls back to the
// source tree's resources/{scenarios,examples}. Empty when neither layout is there.
QStringList exampleScenarioDirs();

// The same lookup for a given executable folder and source resources folder (testable).
QStringList exampleScenarioDirs(const QString& executableDir, const QString& sourceResourcesDir);

}  // namespace ratelab
