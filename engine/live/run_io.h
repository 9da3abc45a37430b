#pragma once

#include <QObject>
#include <QString>
#include <memory>

#include "lessons/lesson_run.h"
#include "limiters/limiter_state.h"
#include "live/limiter_state_poller.h"
#include "live/worker_thread.h"
#include "run/scenario_explainer.h"
#include "run/step_session.h"
#include "scenario/scenario.h"
#include "stats/run_snapshot.h"
#include "url/redis_url.h"

namespace ratelab {

class MailboxNotifier;
class ScenarioRunner;

// The Redis side of the window's runs, on one I/O thread: starting a run (connecting and
// resetting the limiters' keys), sending a step, and reading the limiters' state while a run or
// a step session is watched (LimiterStatePoller). Every call returns at once; results come as
// signals on the caller's thread. The states are coalesced in a StateMailbox: however far the
// caller's thread falls behind, it gets at most one pending state per limiter and kind. A
// virtual-clock run is read in run time instead (RunTimeSampler): its samples come as
// stateReady in order, none dropped, each stamped with the limiter time it was read at.
class RunIo : public QObject {
    Q_OBJECT

public:
    explicit RunIo(QObject* parent = nullptr);
    ~RunIo() override;

    void setUrl(const RedisUrl& url);
    // runStarted (the run is then watched) or runFailed follows. With `steps`, the run
    // continues that step session (ScenarioRunner::continueFrom) instead of resetting.
    void startRun(const Scenario& scenario, const RedisUrl& url,
                  std::shared_ptr<StepSession> steps = nullptr);
    // Sends the next request of `session` (a new session of `scenario` when null); stepped or
    // stepFailed follows, and the session is watched.
    void step(const Scenario& scenario, const RedisUrl& url, std::shared_ptr<StepSession> session);
    // A lesson's frame `frame` (0-based): the next one of `run`, or, when `run` is null (or has
    // played past it), a new LessonRun of `lesson` (its keys reset) played up to it, the states
    // of what was watched before dropped; the run's session is then watched. lessonFramed (with
    // the frames the run has played and the run time the frame after it moves the run to, -1
    // when none) or lessonFailed follows.
    void lessonFrame(std::shared_ptr<LessonRun> run, const Lesson& lesson, int frame,
                     const RedisUrl& url);
    // Slow motion toward `run`'s next frame: decides the requests before runUs
    // (LessonRun::approach); lessonMoved follows with the run so far.
    void lessonApproach(std::shared_ptr<LessonRun> run, qint64 runUs);
    // Every frame of `lesson` on a LessonRun of its own (its keys reset before, deleted after):
    // lessonRecorded (what lesson.html plays) or lessonFailed follows.
    void lessonRecord(const Lesson& lesson, const RedisUrl& url);
    // Explains one decision of `scenario` (explainDecision: a replay in virtual time under
    // scratch names); explained or explainFailed follows.
    void explain(const Scenario& scenario, const QString& limiter, const ExplainTarget& target,
                 const RedisUrl& url);
    // Deletes `spec`'s keys (Limiter::reset), after the jobs posted before; resetFailed on error.
    // For the limiters the window created and then left (renamed mid-run, an earlier run's).
    void resetLimiter(const LimiterSpec& spec, const RedisUrl& url);
    // Resets posted and not yet done (each ends with resetDone, failed or not).
    int pendingResets() const { return pendingResets_; }
    // The run is over: one last state read, then waits (on the I/O thread) for its workers.
    void finishRun(std::shared_ptr<ScenarioRunner> runner);
    void setKeyListing(bool on);
    void forgetFinishedRun();
    // How many key listings were read so far (one per limiter each time).
    qint64 keyListingReads() const { return mailbox_->listingReads(); }

signals:
    void runStarted(const std::shared_ptr<ratelab::ScenarioRunner>& runner);
    void runFailed(const QString& message);
    void stepped(const std::shared_ptr<ratelab::StepSession>& session,
                 const ratelab::RunSnapshot& snapshot, const ratelab::StepSession::Step& step);
    void stepFailed(const QString& message);
    void lessonFramed(const std::shared_ptr<ratelab::LessonRun>& run,
                      const ratelab::LessonFrame& frame, int framesPlayed, qint64 nextTargetUs);
    void lessonMoved(const ratelab::RunSnapshot& snapshot);
    void lessonRecorded(const QVector<ratelab::LessonFrame>& frames);
    void lessonFailed(const QString& message);
    void explained(const ratelab::Explanation& explanation);
    void explainFailed(const QString& message);
    void resetFailed(const QString& message);
    void resetDone();
    void stateReady(int limiter, const ratelab::LimiterState& state);
    void keysReady(int limiter, const ratelab::LimiterState& state);
    void stateFailed(int limiter, const QString& message);
    // Redis's own cost of the watched limiters, about once a second and once at the end.
    void costReady(const ratelab::RunCost& cost);

private:
    void deliverStates();  // on this object's thread: the mailbox's contents as signals

    std::shared_ptr<StateMailbox> mailbox_;  // shared with the poller and a run's sampler
    // Runs and new step sessions asked for (on this object's thread): each job drops what the
    // mailbox holds of the one before (StateMailbox::dropAll), and what was taken before that
    // drop is not delivered, however late it is taken (a Step right after a run ended drew the
    // run's last readings as the step's).
    qint64 dropsAsked_ = 0;
    // A virtual run's sampler notifies through it (from the run's worker thread); disconnected
    // when this object goes, while the run may still be ending.
    std::shared_ptr<MailboxNotifier> notifier_;
    int pendingResets_ = 0;  // on this object's thread
    WorkerThread<LimiterStatePoller> thread_;
};

}  // namespace ratelab
