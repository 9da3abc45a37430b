#pragma once

#include <QObject>
#include <QTimer>
#include <memory>

#include "lessons/lesson_run.h"
#include "limiters/limiter_state.h"
#include "live/limiter_state_poller.h"
#include "live/run_cost.h"
#include "run/step_session.h"
#include "scenario/scenario.h"
#include "stats/run_snapshot.h"
#include "url/redis_url.h"

namespace ratelab {

class RunIo;
class ScenarioRunner;
class StepSession;

// The bridge between the window and the engine. Everything that talks to Redis (starting a
// run, stepping, reading limiter state) happens on the I/O thread of engine/live's RunIo; the
// UI thread only takes engine snapshots (atomic counters, no Redis) on a timer and receives
// results as signals, so it never waits on Redis.
//
// Limiter state is read in two parts: what the timelines draw (readLimiterChartState, 10 Hz,
// stateReady; a virtual-clock run: at run-time instants, every reading in order) and, only while
// someone shows it (setKeyListing), the key listing of the state panel (readLimiterKeys, at most 2
// Hz, keysReady). States are coalesced: however far the UI thread falls behind, it receives at most
// one pending state per limiter and kind.
class RunController : public QObject {
    Q_OBJECT

public:
    explicit RunController(QObject* parent = nullptr);
    ~RunController() override;

    void setRedisUrl(const RedisUrl& url);
    // Starts a run; returns at once. started() or failed() follows.
    // Starts a run; after Step it continues the stepped requests (continuesSteps).
    void start(const Scenario& scenario);
    // Whether start(scenario) would continue the step session (same schedule, not over)
    // rather than reset the limiters' keys and start from request #1; then the requests
    // stepped so far.
    bool continuesSteps(const Scenario& scenario) const;
    qint64 steppedRequests() const;
    // The run under way continues a step session.
    bool continuedSteps() const { return continued_; }
    void stop();
    // Sends exactly one request (the next of the scenario's schedule) to every limiter.
    // A new step session starts when the scenario changed (anything but its name and
    // expectations), after a run or after dropSteps.
    void step(const Scenario& scenario);
    // Whether step(scenario) goes on with the step session rather than start a new one.
    bool stepsContinue(const Scenario& scenario) const;
    // A lesson (ui/lessons): shows frame `frame` of `lesson`, the next of the lesson under way or
    // played again from the start (Back, or after a run or a step reset the keys); its run goes
    // to the views as a step's does (snapshotReady), then lessonFramed or failed follows.
    void showLessonFrame(const Lesson& lesson, int frame);
    // Slow motion on the way to the lesson's next frame: snapshotReady with the run so far.
    void approachLesson(qint64 runUs);
    // Plays `lesson` whole on a run of its own for lesson.html: lessonRecorded or failed
    // follows. The lesson shown is played again from the start at its next frame.
    void recordLesson(const Lesson& lesson);
    // Forgets the lesson's run (its keys stay until a run, a step or a lesson resets them).
    void dropLesson();
    // Applies a changed limiter to the running test.
    void updateLimiter(int index, const LimiterSpec& spec);
    // Deletes the Redis keys of a limiter the window abandoned (a renamed one), on the I/O
    // thread; a failure is reported through failed().
    void deleteLimiterKeys(const LimiterSpec& spec);
    // Explains limiter `limiter` of `scenario`'s request nearest run time `runMs` (ms since the
    // run's start); explained or explainFailed follows.
    void explain(const Scenario& scenario, int limiter, qint64 runMs);
    // Ends the step session: its scratch limiters' keys (the explanations') are deleted on the
    // I/O thread, like an abandoned limiter's; a step under way goes with it (not reported).
    // The next step starts a new session.
    void dropSteps();
    // Key deletions asked for and not done yet.
    int pendingKeyDeletions() const;
    // Stops a run and waits, handling events, until it has finished and every key deletion is
    // done, or timeoutMs passed (the window's quit). False when time ran out.
    bool settle(int timeoutMs);
    bool running() const { return running_; }
    // Pause: a virtual-clock run's clock stops (it resumes where it was); a real clock cannot
    // stop. Applies to the run under way and to one that starts while paused. True when the
    // current or next run's clock is held by it (a virtual clock).
    void setPaused(bool paused);
    bool runPaused() const;
    void setRefreshHz(int hz);
    // Reads the key listing (keysReady) while on, at most every kKeyListingIntervalMs; turning
    // it on reads one at once (after a run: the final keys of the run's limiters).
    void setKeyListing(bool on);
    // Forgets the finished run's limiters (a new scenario): no final listing of them any more.
    void forgetFinishedRun();
    // How many key listings were read so far (one per limiter each time).
    qint64 keyListingReads() const;

    static constexpr int kStatePollIntervalMs = LimiterStatePoller::kChartIntervalMs;
    static constexpr int kKeyListingIntervalMs = LimiterStatePoller::kListingIntervalMs;

    static QString describeStep(const QStringList& names, qint64 index, qint64 nowMs,
                                const QString& client, qint64 permits,
                                const std::vector<Decision>& decisions, const QStringList& errors);

signals:
    void started();
    void explained(const ratelab::Explanation& explanation);
    void explainFailed(const QString& message);
    void snapshotReady(const ratelab::RunSnapshot& snapshot);
    // What the charts draw (keys empty unless read with a listing).
    void stateReady(int limiter, const ratelab::LimiterState& state);
    // The key listing (and the chart state read with it), only while setKeyListing(true).
    void keysReady(int limiter, const ratelab::LimiterState& state);
    void stateFailed(int limiter, const QString& message);
    // Redis's own cost of the run's limiters (engine/live/run_cost.h), about once a second.
    void costReady(const ratelab::RunCost& cost);
    void stepped(const QString& description);
    // The same step as data (one decision per limiter, named in `names`), for the decision list.
    void decided(const ratelab::StepSession::Step& step, const QStringList& names);
    void finished(const ratelab::RunSnapshot& snapshot);
    // A lesson's frame shown; where the frame after it moves the run (-1: nowhere known).
    void lessonFramed(const ratelab::LessonFrame& frame, qint64 nextTargetUs);
    void lessonRecorded(const QVector<ratelab::LessonFrame>& frames);
    void failed(const QString& message);

private:
    void tick();

    std::unique_ptr<RunIo> io_;  // destroyed before the runner is waited for
    QTimer refresh_;
    std::shared_ptr<ScenarioRunner> runner_;  // shared with the I/O thread
    std::shared_ptr<StepSession> stepper_;
    std::shared_ptr<LessonRun> lesson_;  // the lesson's run, on the I/O thread's side
    int lessonPlayed_ = 0;               // the frames it had played at its last frame shown
    void deleteScratch(const StepSession& session);
    QStringList stepNames_;  // the limiters of the step under way
    bool continued_ = false;
    RedisUrl url_;
    bool running_ = false;
    bool stepping_ = false;
    bool discardStep_ = false;  // the step under way was dropped (dropSteps) before it ended
    bool paused_ = false;
};

}  // namespace ratelab
