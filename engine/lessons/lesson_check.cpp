#include "lessons/lesson_check.h"

#include <cmath>

#include "json_input.h"
#include "output/run_summary.h"

namespace ratelab {

QString lessonFramesText(const QVector<LessonFrame>& frames) {
    QString out;
    for (const LessonFrame& frame : frames) {
        out += QStringLiteral("  beat %1%2 at %3 ms:\n")
                   .arg(frame.beat + 1)
                   .arg(frame.question ? QStringLiteral(" (question)") : QString())
                   .arg(json_input::formatNumber(double(frame.runUs) / 1000.0));
        for (const QString& text : {frame.say, frame.ask, frame.answer}) {
            if (!text.isEmpty()) {
                out += QStringLiteral("    ") + text + QLatin1Char('\n');
            }
        }
        for (const ExpectationResult& r : frame.checks) {
            out += QStringLiteral("    [%1] %2: %3 (measured %4)\n")
                       .arg(r.held ? QStringLiteral("held") : QStringLiteral("FAILED"), r.limiter,
                            r.expectation.text(), LessonText::formatFigure(r.measured));
        }
    }
    return out;
}

LessonCheck checkLessonFrames(const Lesson& lesson, const QVector<LessonFrame>& frames) {
    LessonCheck check;
    check.file = lesson.file;
    check.title = lesson.title;
    check.beats = lesson.beats.size();
    for (const LessonFrame& frame : frames) {
        if (frame.question) {
            continue;
        }
        check.beatsPlayed = frame.beat + 1;
        for (const ExpectationResult& r : frame.checks) {
            ++check.claims;
            if (!r.held) {
                check.failures.append({frame.beat, r});
            }
        }
    }
    if (!frames.isEmpty()) {
        const RunSnapshot& run = frames.last().run;
        for (const LimiterSnapshot& l : run.limiters) {
            check.errors += l.errors;
        }
        if (check.errors > 0) {
            check.errorCauses = errorCausesText(runErrorCauses(run));
        }
    }
    return check;
}

QString lessonCheckText(const LessonCheck& check) {
    const QString name = QStringLiteral("lesson %1 (%2)")
                             .arg(check.file.isEmpty() ? QStringLiteral("-") : check.file,
                                  QLatin1Char('"') + check.title + QLatin1Char('"'));
    if (check.passed()) {
        return QStringLiteral("%1: passed, %2 beats, %3 claims\n")
            .arg(name)
            .arg(check.beats)
            .arg(check.claims);
    }
    QString out = name + QStringLiteral(": failed\n");
    for (const LessonFailure& f : check.failures) {
        const double m = f.result.measured;
        out += QStringLiteral("  beat %1: %2: %3: measured %4\n")
                   .arg(f.beat + 1)
                   .arg(f.result.limiter, f.result.expectation.text(),
                        std::isnan(m) ? QStringLiteral("nothing (the run has no such figure)")
                                      : json_input::formatNumber(m));
    }
    if (check.errors > 0) {
        out += QStringLiteral(
                   "  %1 decisions failed (%2): the lesson's figures are not its "
                   "scenario's\n")
                   .arg(check.errors)
                   .arg(check.errorCauses);
    }
    if (check.beatsPlayed < check.beats) {
        out += QStringLiteral("  stopped after %1 of %2 beats\n")
                   .arg(check.beatsPlayed)
                   .arg(check.beats);
    }
    return out;
}

}  // namespace ratelab
