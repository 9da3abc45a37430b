#pragma once

#include <QString>
#include <QVector>
#include <optional>

#include "lessons/lesson_text.h"
#include "scenario/scenario.h"
#include "stats/expectation.h"

namespace ratelab {

// A lesson file (docs/lessons.md): a scenario and the beats a teacher goes through, each claim
// checked on the run so far. Data only: nothing of a lesson is in the program.

// A limiter and a span of run time the page and the window mark on its timeline.
struct LessonHighlight {
    QString limiter;
    qint64 fromMs = 0;
    qint64 toMs = 0;
};

struct LessonBeat {
    // How far the run moves when the beat plays: to run time untilMs (every request scheduled
    // before it is decided), by `steps` requests, or not at all.
    enum class Advance { None, Until, Steps };
    Advance advance = Advance::None;
    qint64 untilMs = 0;
    qint64 steps = 0;
    LessonText say;
    LessonText ask;  // a question: shown before the run moves; its answer after
    LessonText answer;
    std::optional<LessonHighlight> highlight;
    QVector<Expectation> expect;  // checked on the run once the beat has moved it
    QString path;                 // "$.beats[2]": where the beat's errors point

    bool asks() const { return !ask.isEmpty(); }
};

struct Lesson {
    QString title;
    QString file;          // the lesson file ("" for one made in code)
    QString scenarioFile;  // the scenario's file, resolved; "" for an inline scenario
    Scenario scenario;
    QVector<LessonBeat> beats;
};

// Reads and checks a lesson. `baseDir` resolves a scenario path (and the traces an inline
// scenario replays). Every problem is an InputError naming the JSON path ("$.beats[1].until_ms")
// and, through loadLessonFile, the file: unknown fields, a beat going back in time or past the
// scenario's end, an unknown limiter or metric in an expectation, a placeholder or a highlight, a
// missing or malformed scenario, a scenario whose clock is not virtual (a lesson is decided in
// virtual time, so that every check decides the same).
Lesson parseLesson(const QJsonObject& object, const QString& baseDir);
Lesson loadLessonFile(const QString& path);

// Where a beat leaves the run: the last request decided by then (-1: none) and the run time
// reached (a beat's until_ms, or the time of the last request its steps decided).
struct LessonReach {
    qint64 lastRequest = -1;
    qint64 runUs = 0;
};
// Every beat's, from the scenario's schedule alone (no Redis). An InputError at the beat's path
// for one that goes back in time (an until_ms before the time the steps before it reached) or
// steps past the schedule's end; parseLesson refuses such a lesson.
QVector<LessonReach> lessonReach(const Lesson& lesson);

}  // namespace ratelab
