#include "lessons/lesson_run.h"

#include <algorithm>

#include "redis/redis_error.h"
#include "stats/accepted_log.h"

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
    : lesson_(std::move(lesson)), places_(lessonPlaces(lesson_)), reach_(lessonReach(lesson_)) {
    const Scenario named = namingEveryFigure(lesson_);
    for (int l = 0; l < named.limiters.size(); ++l) {
        burstWindows_.push_back(burstWindowsFor(named, l));
    }
    session_ = std::make_shared<StepSession>(lesson_.scenario, url, StepSession::ForLesson{});
}

qint64 LessonRun::lastRequestOfNext() const {
    if (done() || places_[played_].question) {
        return -1;
    }
    return reach_[places_[played_].beat].lastRequest;
}

qint64 LessonRun::nextTargetUs() const {
    if (done() || places_[played_].question) {
        return reachedUs_;
    }
    return std::max(reachedUs_, reach_[places_[played_].beat].runUs);
}

void LessonRun::approach(qint64 runUs) {
    if (done() || places_[played_].question || runUs <= reachedUs_) {
        return;
    }
    const qint64 upTo = std::min(runUs, nextTargetUs());
    const bool moved =
        lesson_.beats[places_[played_].beat].advance == LessonBeat::Advance::Until
            ? decideUntil(upTo)
            : decideThrough(std::min(session_->lastRequestBefore(upTo), lastRequestOfNext()));
    if (moved) {
        reachedUs_ = std::max(reachedUs_, upTo);
    }
}

bool LessonRun::decideUntil(qint64 runUs) {
    // The requests in pieces (a stop is seen between them), then what is due after the last.
    if (!decideThrough(session_->lastRequestBefore(runUs))) {
        return false;
    }
    session_->advanceUntil(runUs);
    return true;
}

bool LessonRun::decideThrough(qint64 last) {
    // The requests before sent() are decided: each piece moves it on, or the schedule is over.
    for (qint64 sent = session_->sent(); sent <= last;) {
        if (stop_ != nullptr && stop_->load()) {
            return false;
        }
        session_->advanceThrough(std::min(last, sent + kStopChunk - 1));
        if (session_->sent() <= sent) {
            break;
        }
        sent = session_->sent();
    }
    return true;
}

LessonFrame LessonRun::next() {
    const LessonPlace place = places_.value(played_);
    const LessonBeat& beat = lesson_.beats[place.beat];
    LessonFrame frame;
    frame.beat = place.beat;
    frame.question = place.question;
    if (!place.question && beat.advance != LessonBeat::Advance::None) {
        const qint64 target = nextTargetUs();
        const bool moved = beat.advance == LessonBeat::Advance::Until
                               ? decideUntil(target)
                               : decideThrough(lastRequestOfNext());
        if (!moved) {
            frame.stopped = true;
            frame.runUs = reachedUs_;
            frame.run = snapshot();
            return frame;  // not played: the next call plays it on
        }
        reachedUs_ = target;
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
    run.setStop(stop);
    QVector<LessonFrame> frames;
    while (!run.done() && (stop == nullptr || !stop->load())) {
        LessonFrame frame = run.next();
        if (frame.stopped) {
            break;
        }
        frames.append(std::move(frame));
    }
    try {
        run.resetKeys();
    } catch (const RedisError&) {
        // Redis went away at the end: the lesson's own keys, each with its TTL, stay a while.
    }
    return frames;
}

}  // namespace ratelab
