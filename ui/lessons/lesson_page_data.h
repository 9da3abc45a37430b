#pragma once

#include <QByteArray>
#include <QVector>

#include "lessons/lesson_run.h"

namespace ratelab {

// The JSON lesson.html plays (<script type="application/json">): report.html's timeline data of
// the lesson's last frame (report/report_data.h: the steps, the limiters' names, configuration,
// limit and window starts, the page's words) and per frame its beat, its texts with their
// figures, its claims, its highlight (a limiter's index and a span in ms) and, per limiter, its
// counts per step as what changed since the frame before ({"from": step, "tails": [accepted,
// rejected, errors, then each group's accepted and rejected, from that step on], "totals"}).
// '<', '>' and '&' are \u escapes, so that the text can sit in the page as it is.
QByteArray lessonPageData(const Lesson& lesson, const QVector<LessonFrame>& frames);

}  // namespace ratelab
