#include "lessons/lesson_run.h"

#include <algorithm>

#include "input_error.h"
#include "json_input.h"
#include "redis/redis_error.h"
#include "stats/accepted_log.h"
#include "traffic/pacer.h"

namespace ratelab {
namespace {

// The scenario with every figure the lesson names as an expectation, so that the run computes
// the admitted bursts its claims and placeholders read (burstWindowsFor).
Scenario namingEveryFigure(const Lesson& lesson) {
    Scenario scenario = lesson.scenario;
    for (const LessonBeat& beat : lesson.beats) {
        scenario.expectations += beat.expect;
        for (const LessonText* text : {&beat.say, &beat.ask, &beat.answer}) {
            scenario.expectations += text->figures();
        }
    }
    return scenario;
}

QString msText(qint64 us) {
    return json_input::formatNumber(double(us) / 1000.0);
}

}  // namespace

QVector<LessonPlace> lessonPlaces(const Lesson& lesson) {
    QVector<LessonPlace> places;
    for (int b = 0; b < lesson.beats.size(); ++b) {
        if (lesson.beats[b].asks()) {
            places.append({b, true});
        }
        places.append({b, false});
    }
    return places;
}

LessonRun::LessonRun(Lesson lesson, const RedisUrl& url)
    : lesson_(std::move(lesson)), places_(lessonPlaces(lesson_)) {
    const Scenario named = namingEveryFigure(lesson_);
    for (int l = 0; l < named.limiters.size(); ++l) {
        burstWindows_.push_back(burstWindowsFor(named, l));
    }
    session_ = std::make_shared<StepSession>(lesson_.scenario, url, StepSession::ForLesson{});
}

qint64 LessonRun::lastRequestOfNext() {
    if (done() || places_[played_].question) {
        return -1;
    }
    const LessonBeat& beat = lesson_.beats[places_[played_].beat];
    switch (beat.advance) {
        case LessonBeat::Advance::None:
            return -1;
        case LessonBeat::Advance::Until:
            return session_->lastRequestBefore(beat.untilMs * 1000);
        case LessonBeat::Advance::Steps:
            return session_->sent() + beat.steps - 1;
    }
    return -1;
}

qint64 LessonRun::nextTargetUs() {
    if (done() || places_[played_].question) {
        return reachedUs_;
    }
    const LessonBeat& beat = lesson_.beats[places_[played_].beat];
    switch (beat.advance) {
        case LessonBeat::Advance::None:
            return reachedUs_;
        case LessonBeat::Advance::Until: {
            const qint64 untilUs = beat.untilMs * 1000;
            if (untilUs < reachedUs_) {
                throw InputError(beat.path + QStringLiteral(".until_ms"),
                                 QStringLiteral("goes back in time: %1 ms is before %2 ms, where "
                                                "%3 left the run")
                                     .arg(beat.untilMs)
                                     .arg(msText(reachedUs_), reachedBy_));
            }
            return untilUs;
        }
        case LessonBeat::Advance::Steps: {
            const qint64 last = lastRequestOfNext();
            const qint64 atUs = session_->runUsOf(last);
            if (atUs == Pacer::kNoMore) {
                const qint64 left =
                    session_->lastRequestBefore(Pacer::kNoMore) + 1 - session_->sent();
                throw InputError(beat.path + QStringLiteral(".steps"),
                                 QStringLiteral("%1 steps go past the schedule's end: %2 "
                                                "request(s) are left")
                                     .arg(beat.steps)
                                     .arg(left));
            }
            return std::max(reachedUs_, atUs);
        }
    }
    return reachedUs_;
}

void LessonRun::approach(qint64 runUs) {
    const qint64 target = nextTargetUs();
    const qint64 last = lastRequestOfNext();
    if (last < 0 || runUs <= reachedUs_) {
        return;
    }
    const qint64 upTo = std::min(runUs, target);
    const qint64 k = std::min(session_->lastRequestBefore(upTo), last);
    if (k >= session_->sent()) {
        session_->advanceThrough(k);
    }
    reachedUs_ = std::max(reachedUs_, upTo);
}

LessonFrame LessonRun::next() {
    const LessonPlace place = places_.value(played_);
    const LessonBeat& beat = lesson_.beats[place.beat];
    LessonFrame frame;
    frame.beat = place.beat;
    frame.question = place.question;
    if (!place.question && beat.advance != LessonBeat::Advance::None) {
        const qint64 target = nextTargetUs();  // refuses a beat that goes back in time
        const qint64 last = lastRequestOfNext();
        if (last >= session_->sent()) {
            session_->advanceThrough(last);
        }
        reachedUs_ = target;
        reachedBy_ =
            beat.path + (beat.advance == LessonBeat::Advance::Until ? QStringLiteral(".until_ms")
                                                                    : QStringLiteral(".steps"));
    }
    frame.runUs = reachedUs_;
    frame.run = snapshot();
    frame.highlight = beat.highlight;
    frame.ask = place.question ? beat.ask.fill(frame.run) : QString();
    if (!place.question) {
        frame.say = beat.say.fill(frame.run);
        frame.answer = beat.answer.fill(frame.run);
        frame.checks = evaluateExpectations(beat.expect, frame.run);
        // The question as it was asked, with the figures of its own frame.
        if (beat.asks()) {
            frame.ask = askedText_;
        }
    } else {
        askedText_ = frame.ask;
    }
    ++played_;
    return frame;
}

RunSnapshot LessonRun::snapshot() const {
    RunSnapshot s = session_->snapshot();
    s.elapsedUs = std::min(reachedUs_, s.durationUs);
    s.virtualClock = true;
    for (int l = 0; l < s.limiters.size() && size_t(l) < burstWindows_.size(); ++l) {
        applyAdmittedBursts(session_->stats().admittedBursts(l, burstWindows_[size_t(l)], true),
                            s.limiters[l]);
    }
    return s;
}

QVector<LessonFrame> playLesson(const Lesson& lesson, const RedisUrl& url,
                                const std::atomic<bool>* stop) {
    LessonRun run(lesson, url);
    QVector<LessonFrame> frames;
    while (!run.done() && (stop == nullptr || !stop->load())) {
        frames.append(run.next());
    }
    try {
        run.resetKeys();
    } catch (const RedisError&) {
        // Redis went away at the end: the lesson's own keys, each with its TTL, stay a while.
    }
    return frames;
}

}  // namespace ratelab
