#pragma once

#include <QObject>
#include <QThread>
#include <QTimer>
#include <memory>

#include "limiters/limiter_state.h"
#include "redis/redis_url.h"
#include "scenario/scenario.h"
#include "scenario/step_session.h"
#include "stats/run_snapshot.h"

namespace ratelab {

class ScenarioRunner;
class StepSession;
class IoWorker;
struct StateMailbox;

// The bridge between the window and the engine. Everything that talks to Redis (starting a
// run, stepping, reading limiter state) happens on an I/O thread; the UI thread only takes
// engine snapshots (atomic counters, no Redis) on a timer and receives results as queued
// signals, so it never waits on Redis.
//
// Limiter state is read in two parts: what the timelines draw (readLimiterChartState, 10 Hz,
// stateReady) and, only while someone shows it (setKeyListing), the key listing of the state
// panel (readLimiterKeys, at most 2 Hz, keysReady). States are coalesced: however far the UI
// thread falls behind, it receives at most one pending state per limiter and kind.
class RunController : public QObject {
    Q_OBJECT

public:
    explicit RunController(QObject* parent = nullptr);
    ~RunController() override;

    void setRedisUrl(const RedisUrl& url);
    // Starts a run; returns at once. started() or failed() follows.
    void start(const Scenario& scenario);
    void stop();
    // Sends exactly one request (the next of the scenario's schedule) to every limiter.
    // A new step session starts when the scenario changed or after a run.
    void step(const Scenario& scenario);
    // Applies a changed limiter to the running test.
    void updateLimiter(int index, const LimiterSpec& spec);
    // Deletes the Redis keys of a limiter the window abandoned (a renamed one), on the I/O
    // thread; a failure is reported through failed().
    void deleteLimiterKeys(const LimiterSpec& spec);
    bool running() const { return running_; }
    void setRefreshHz(int hz);
    // Reads the key listing (keysReady) while on, at most every kKeyListingIntervalMs; turning
    // it on reads one at once (after a run: the final keys of the run's limiters).
    void setKeyListing(bool on);
    // Forgets the finished run's limiters (a new scenario): no final listing of them any more.
    void forgetFinishedRun();
    // How many key listings were read so far (one per limiter each time).
    qint64 keyListingReads() const;

    static constexpr int kStatePollIntervalMs = 100;   // 10 Hz
    static constexpr int kKeyListingIntervalMs = 500;  // 2 Hz

    static QString describeStep(const QStringList& names, qint64 index, qint64 nowMs,
                                const QString& client, qint64 permits,
                                const std::vector<Decision>& decisions, const QStringList& errors);

signals:
    void started();
    void snapshotReady(const ratelab::RunSnapshot& snapshot);
    // What the charts draw (keys empty unless read with a listing).
    void stateReady(int limiter, const ratelab::LimiterState& state);
    // The key listing (and the chart state read with it), only while setKeyListing(true).
    void keysReady(int limiter, const ratelab::LimiterState& state);
    void stateFailed(int limiter, const QString& message);
    void stepped(const QString& description);
    // The same step as data (one decision per limiter, named in `names`), for the decision list.
    void decided(const ratelab::StepSession::Step& step, const QStringList& names);
    void finished(const ratelab::RunSnapshot& snapshot);
    void failed(const QString& message);

private:
    void tick();
    friend class IoWorker;
    void deliverStates();  // on the UI thread: the mailbox's newest states, then empty

    QThread ioThread_;
    IoWorker* io_ = nullptr;  // lives on ioThread_, deleted when it finishes
    QTimer refresh_;
    std::shared_ptr<ScenarioRunner> runner_;  // shared with the I/O thread
    std::shared_ptr<StepSession> stepper_;
    RedisUrl url_;
    std::shared_ptr<StateMailbox> mailbox_;  // shared with the I/O thread
    bool running_ = false;
    bool stepping_ = false;
};

}  // namespace ratelab
