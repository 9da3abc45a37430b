// Where each beat of a lesson leaves the run, from the scenario's schedule alone: no Redis, so a
// lesson whose beats go back in time or past the schedule is refused before anything is decided.
#include <cmath>

#include "input_error.h"
#include "json_input.h"
#include "lessons/lesson.h"
#include "traffic/traffic_schedule.h"

namespace ratelab {

QVector<LessonReach> lessonReach(const Lesson& lesson) {
    const TrafficSpec& traffic = lesson.scenario.traffic;
    const auto pacer = makeSchedule(traffic, qint64(std::llround(traffic.durationS * 1e6)));
    // The schedule read as far as the beats need: request `read` is at `readUs`.
    qint64 read = 0;
    qint64 readUs = pacer->next();
    const auto readTo = [&](qint64 k) {
        for (; read < k && readUs != Pacer::kNoMore; ++read) {
            readUs = pacer->next();
        }
    };
    QVector<LessonReach> out;
    LessonReach at;
    QString by = QStringLiteral("the start");
    for (const LessonBeat& beat : lesson.beats) {
        if (beat.advance == LessonBeat::Advance::Until) {
            const QString where = beat.path + QStringLiteral(".until_ms");
            const qint64 untilUs = beat.untilMs * 1000;
            if (untilUs < at.runUs) {
                throw InputError(where,
                                 QStringLiteral("goes back in time: %1 ms is before %2 ms, "
                                                "where %3 left the run")
                                     .arg(beat.untilMs)
                                     .arg(json_input::formatNumber(double(at.runUs) / 1000), by));
            }
            // Every request scheduled before until_ms.
            readTo(at.lastRequest + 1);
            while (readUs < untilUs) {
                at.lastRequest = read;
                readTo(read + 1);
            }
            at.runUs = untilUs;
            by = where;
        } else if (beat.advance == LessonBeat::Advance::Steps) {
            const qint64 last = at.lastRequest + beat.steps;
            readTo(last);
            if (readUs == Pacer::kNoMore) {
                throw InputError(beat.path + QStringLiteral(".steps"),
                                 QStringLiteral("%1 steps go past the schedule's end: %2 "
                                                "request(s) are left")
                                     .arg(beat.steps)
                                     .arg(read - at.lastRequest - 1));
            }
            at.lastRequest = last;
            at.runUs = std::max(at.runUs, readUs);
            by = beat.path + QStringLiteral(".steps");
        }
        out.append(at);
    }
    return out;
}

}  // namespace ratelab
