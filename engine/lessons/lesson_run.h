#pragma once

#include <QString>
#include <QVector>
#include <atomic>
#include <memory>
#include <optional>
#include <vector>

#include "lessons/lesson.h"
#include "run/step_session.h"
#include "stats/run_snapshot.h"
#include "url/redis_url.h"

namespace ratelab {

// One moment of a lesson, as `lesson check`, lesson.html and the window's lesson panel show it:
// a beat's question, asked before the run moves, or the beat itself once the run has moved.
struct LessonFrame {
    int beat = 0;           // 0-based
    bool question = false;  // the beat's question: the run has not moved for it yet
    qint64 runUs = 0;       // the run time the run has reached
    // The texts with their figures from the run so far: a question frame has only `ask`; the
    // beat's own frame its `say` and, when it asked, `ask` and `answer`.
    QString say;
    QString ask;
    QString answer;
    std::optional<LessonHighlight> highlight;
    QVector<ExpectationResult> checks;  // the beat's claims, in its own frame only
    RunSnapshot run;                    // the run so far, its admitted bursts too
    bool stopped = false;               // a stop (a signal) came before the run reached the frame
};

// Where the frames of a lesson are: a beat that asks has its question's frame before its own.
struct LessonPlace {
    int beat = 0;
    bool question = false;
};
QVector<LessonPlace> lessonPlaces(const Lesson& lesson);

// A lesson decided frame by frame in virtual time, as a virtual run decides its scenario (a step
// session on its own keys: StepSession::ForLesson). A beat's until_ms decides everything due
// before it (requests, wait-mode retries, delayed grants, releases); its steps the requests. A
// limiter with "time": "redis" decides at the run's own clock, one clock that no client's skew
// moves: Redis's TIME runs on in real time while a lesson's time jumps, so a lesson takes the run's
// time for Redis's. Not thread-safe: one caller (the window's I/O thread, or the command line).
class LessonRun {
public:
    // Connects and resets the scenario's limiters' keys. Throws RedisError, and InputError for
    // beats that go back in time or past the schedule (lessonReach).
    LessonRun(Lesson lesson, const RedisUrl& url);

    const Lesson& lesson() const { return lesson_; }
    int framesPlayed() const { return played_; }
    int frameCount() const { return int(places_.size()); }
    bool done() const { return played_ >= frameCount(); }
    // The run time the next frame leaves the run at (the run's time now for a frame that does
    // not move it).
    qint64 nextTargetUs() const;
    // Decides the requests scheduled before `runUs`, never past what the next frame decides:
    // slow motion on the way to it. The frame still comes from next().
    void approach(qint64 runUs);
    // Plays the next frame: moves the run as its beat says, fills the texts, checks the claims.
    // An InputError (bad input: exit 2) when a placeholder names a figure the run does not have.
    LessonFrame next();
    qint64 reachedUs() const { return reachedUs_; }
    // The run so far, with its admitted bursts (what expectations and placeholders read).
    RunSnapshot snapshot() const;
    // The step session that decides (the window watches its limiters' state).
    std::shared_ptr<StepSession> session() const { return session_; }
    // Deletes the limiters' keys (the command line leaves none behind).
    void resetKeys() { session_->resetKeys(); }
    // A flag (the command line's interrupt) that ends a frame's decisions early: the frame
    // comes back `stopped`, within kStopChunk requests of it being set. Not owned.
    void setStop(const std::atomic<bool>* stop) { stop_ = stop; }
    static constexpr qint64 kStopChunk = 4096;

private:
    // The last request the next frame decides (-1: it decides none).
    qint64 lastRequestOfNext() const;
    // Decides through request `last`, kStopChunk at a time; false when stopped first.
    bool decideThrough(qint64 last);
    // Decides everything due before runUs: the requests (in pieces), then the retries, delayed
    // grants and releases due before it. False when stopped first.
    bool decideUntil(qint64 runUs);

    Lesson lesson_;
    QVector<LessonPlace> places_;
    QVector<LessonReach> reach_;  // per beat
    std::shared_ptr<StepSession> session_;
    std::vector<std::vector<qint64>> burstWindows_;  // per limiter, what the lesson names
    int played_ = 0;
    qint64 reachedUs_ = 0;
    QString askedText_;  // the question of the beat under way, as its frame asked it
    const std::atomic<bool>* stop_ = nullptr;
};

// Every frame of the lesson, in order (the page records them all), its keys deleted afterwards.
// `stop`, when set, ends it early (a signal): the frames played so far.
QVector<LessonFrame> playLesson(const Lesson& lesson, const RedisUrl& url,
                                const std::atomic<bool>* stop = nullptr);

}  // namespace ratelab
