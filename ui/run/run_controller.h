#pragma once

#include <QObject>
#include <QThread>
#include <QTimer>
#include <memory>

#include "limiters/limiter_state.h"
#include "redis/redis_url.h"
#include "scenario/scenario.h"
#include "stats/run_snapshot.h"

namespace ratelab {

class ScenarioRunner;
class StepSession;
class IoWorker;

// The bridge between the window and the engine. Everything that talks to Redis (starting a
// run, stepping, reading limiter state) happens on an I/O thread; the UI thread only takes
// engine snapshots (atomic counters, no Redis) on a timer and receives results as queued
// signals, so it never waits on Redis.
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
    bool running() const { return running_; }
    void setRefreshHz(int hz);

    static QString describeStep(const QStringList& names, qint64 index, qint64 nowMs,
                                const QString& client, qint64 permits,
                                const std::vector<Decision>& decisions, const QStringList& errors);

signals:
    void started();
    void snapshotReady(const ratelab::RunSnapshot& snapshot);
    void stateReady(int limiter, const ratelab::LimiterState& state);
    void stateFailed(int limiter, const QString& message);
    void stepped(const QString& description);
    void finished(const ratelab::RunSnapshot& snapshot);
    void failed(const QString& message);

private:
    void tick();

    QThread ioThread_;
    IoWorker* io_ = nullptr;  // lives on ioThread_, deleted when it finishes
    QTimer refresh_;
    std::shared_ptr<ScenarioRunner> runner_;  // shared with the I/O thread
    std::shared_ptr<StepSession> stepper_;
    RedisUrl url_;
    bool running_ = false;
    bool stepping_ = false;
};

}  // namespace ratelab
