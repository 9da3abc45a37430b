#pragma once

#include <QString>

class QWidget;

namespace ratelab {

// The tooltip of an editor field, by its object name (empty if it has none). One table for the
// traffic and limiter editors, so every field explains itself in the same words as
// docs/scenarios.md.
QString fieldHelp(const QString& objectName);
// Gives every field under `root` that has no tooltip yet its fieldHelp.
void applyFieldHelp(QWidget* root);

}  // namespace ratelab
