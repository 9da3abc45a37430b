#pragma once

#include <QString>
#include <QVector>

#include "lessons/lesson_run.h"

namespace ratelab {

// `ratelab lesson check`: whether every claim of a lesson held on its run.
struct LessonFailure {
    int beat = 0;  // 0-based
    ExpectationResult result;
};

struct LessonCheck {
    QString file;
    QString title;
    int beats = 0;
    int beatsPlayed = 0;  // fewer than beats when stopped early
    int claims = 0;       // claims checked
    QVector<LessonFailure> failures;
    qint64 errors = 0;    // decisions that failed (Redis), over every limiter
    QString errorCauses;  // and why ("connection lost 3")
    bool passed() const { return failures.isEmpty() && errors == 0 && beatsPlayed == beats; }
};

// Every frame's words with their figures, as the page shows them: "beat 2 (question): …".
QString lessonFramesText(const QVector<LessonFrame>& frames);

// The lesson's claims checked on its frames (playLesson).
LessonCheck checkLessonFrames(const Lesson& lesson, const QVector<LessonFrame>& frames);

// "lesson FILE ("TITLE"): passed, 4 beats, 6 claims", or "…: failed" and per failed claim
// "  beat 2: boundary-fixed: accepted == 10: measured 9"; and the decisions that failed.
QString lessonCheckText(const LessonCheck& check);

}  // namespace ratelab
