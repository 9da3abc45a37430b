#pragma once

#include <QStringList>

namespace ratelab::cli {

// ratelab lesson check FILE... [--redis URL]: plays each lesson in virtual time and checks every
// claim of its beats. ratelab lesson export FILE --out DIR [--redis URL]: DIR/lesson.html, the
// lesson played over its recorded decisions. args[0] is "lesson".
int lessonCommand(const QStringList& args);

}  // namespace ratelab::cli
