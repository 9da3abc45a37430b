#pragma once

#include <QStringList>
#include <atomic>
#include <memory>
#include <mutex>
#include <optional>
#include <thread>
#include <vector>

#include "limiters/limiter.h"
#include "redis/connect_options.h"
#include "run/paused_key_ttls.h"
#include "scenario/scenario.h"
#include "stats/run_stats.h"
#include "traffic/run_clock.h"
#include "url/redis_url.h"

namespace ratelab {

class RedisRouter;
class StepSession;
class Worker;
struct RunParts;

// Runs a scenario's traffic against its limiters on a real Redis: resets each limiter's keys,
// then N worker threads (one connection each) send on the shared schedule. A virtual clock runs
// one worker so the order of decisions, and so the result, is reproducible.
class ScenarioRunner {
public:
    // `limiterOptions`: what the limiters are made with (a slow-motion clock stretches their
    // TTLs on top; a sweep's scratch limiters cap them, limiters/scratch_keys.h).
    ScenarioRunner(Scenario scenario, RedisUrl url, ConnectOptions options = {},
                   LimiterOptions limiterOptions = {});
    ~ScenarioRunner();
    ScenarioRunner(const ScenarioRunner&) = delete;
    ScenarioRunner& operator=(const ScenarioRunner&) = delete;

    // Resets the limiters' keys and starts the workers. Throws RedisError when Redis cannot be
    // reached at the start (a later outage only produces errors). An interrupt during the reset
    // (RedisConnection::interrupted(): the command line's SIGINT, SIGTERM, SIGHUP) ends the run
    // there: finished, stopped early, no request sent.
    void start();
    // Continues a step session instead of starting afresh: the run sends the schedule from
    // the session's next request on, at the run time and limiter time the steps reached, on
    // the limiters' keys as the steps left them (no reset), and counts the stepped requests
    // as its own (the session's counts move here), with the gateways' state the steps left and
    // the stepped grants' releases still to come. The session must step this scenario
    // (sameSchedule) and not be stepped meanwhile. Call before start().
    void continueFrom(StepSession& session);
    // Whether a step session of `a` can go on as a run of `b`: the same limiters, traffic and
    // buckets (the scenario's name and expectations may differ).
    static bool sameSchedule(const Scenario& a, const Scenario& b);
    // Stops the workers (batches in flight end within their deadline). A stop before every
    // worker is done marks the run stopped early: its snapshot says so and keeps the real
    // run time.
    void requestStop();
    // A live config change: limiter `index` is replaced for every later decision (its counts
    // go on). A fixed window whose rate/interval/unit/zone changed resets its counters.
    void updateLimiter(int index, const LimiterSpec& spec);
    // Virtual clocks: `sample` reads the limiters' state at `samples` evenly spaced run times
    // over the run (and at 0), on the worker thread with the clock held, before the decisions
    // scheduled from that time on. Call before start(). No effect on a real clock.
    void setStateSampler(int samples, RunClock::Sampler sample);
    // Virtual clocks: paused, run time stops (the run resumes where it was), and so do the TTLs
    // of the keys its next decisions read (PausedKeyTtls, on the worker once no decision is in
    // flight). False for a real clock, which cannot be held.
    bool setPaused(bool paused);
    bool paused() const { return paused_.load(); }
    // Every limiter whose keys the run writes: the scenario's (and any a live change replaced)
    // and the gateways' own.
    std::vector<const Limiter*> limitersWithKeys() const;
    // The limiter now in slot `index`.
    const Limiter& limiter(int index) const;
    // The limiter whose Redis state stands for slot `index` (what the timelines and the state
    // panel read): the shared one, or where each gateway keeps its own ("gateway": {"mode":
    // "local"}) gateway 0's, "<name>@g0" (the shared name holds no key then).
    const Limiter& stateLimiter(int index) const;
    void wait();
    bool finished() const;

    // Thread-safe, cheap enough for 10-30 Hz.
    RunSnapshot snapshot() const;
    // The limiters' clock now (virtual runs: the virtual time reached), for reading state.
    qint64 limiterNowMs() const;

    const Scenario& scenario() const { return scenario_; }
    qint64 startEpochMs() const { return clock_.startEpochMs(); }  // once started
    const QStringList& clientNames() const;
    int workerCount() const { return workerCount_; }

private:
    // The run's end: batched gateways add the grants they have not added yet.
    void flushGateways();
    Scenario scenario_;
    RedisUrl url_;
    ConnectOptions options_;
    RunClock clock_;
    std::unique_ptr<RunParts> parts_;
    int workerCount_ = 1;
    std::vector<std::unique_ptr<Worker>> workers_;
    std::vector<std::thread> threads_;
    std::atomic<int> running_{0};
    std::atomic<qint64> finishedAtUs_{0};
    std::atomic<bool> stoppedEarly_{false};
    std::atomic<bool> paused_{false};
    bool started_ = false;
    bool resetKeys_ = true;              // false when it continues a step session
    qint64 fromRunUs_ = 0;               // the run time it starts at
    std::optional<qint64> fromEpochMs_;  // a continued real clock's run time 0
    mutable std::mutex burstsMutex_;
    mutable std::optional<std::vector<AdmittedBursts>> bursts_;
    // The worker's, while a pause holds its clock (RunClock::setHoldWatcher).
    PausedKeyTtls pausedKeys_;
    std::unique_ptr<RedisRouter> pauseRouter_;
    void fillFinal(RunSnapshot& s) const;
    // Deletes every limiter's keys; false when an interrupt cut it short.
    bool resetLimiterKeys();
    void holdKeyTtls(bool held);
};

}  // namespace ratelab
