#pragma once

#include <QByteArray>
#include <QVector>

#include "lessons/lesson_run.h"
#include "report/page_kit.h"

namespace ratelab {

// lesson.html: one self-contained page that plays a lesson's frames (playLesson) without Redis:
// the beat's words with their figures, its question and, on Next, its answer, its claims as
// checked, and every limiter's timeline of the run so far (report.html's drawing), the beat's
// highlight marked on its limiter and the run's time so far as a line. → and Space go on, ←
// back (and the buttons). No network: its style and script are inline and a
// Content-Security-Policy allows nothing else. `scheme`: the reader's preference, or light or
// dark always (exported from a window in that theme). Without scripts the page lists the beats.
QByteArray lessonHtml(const Lesson& lesson, const QVector<LessonFrame>& frames,
                      page_kit::Scheme scheme = page_kit::Scheme::Auto);

}  // namespace ratelab
