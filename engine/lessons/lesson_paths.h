#pragma once

#include <QString>
#include <QStringList>

namespace ratelab {

// The folder of ratelab's shipped lessons: beside the example scenarios they play
// (<prefix>/share/ratelab/lessons installed, resources/lessons in a build tree; see
// exampleScenarioDirs). Empty when there is none.
QString shippedLessonsDir();
// Its lesson files (*.json), by name.
QStringList shippedLessons();

}  // namespace ratelab
