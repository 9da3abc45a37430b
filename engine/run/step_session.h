#pragma once

#include <atomic>
#include <memory>
#include <optional>
#include <vector>

#include "explain/explanation.h"
#include "scenario/scenario.h"
#include "stats/run_stats.h"
#include "traffic/gateway_state.h"
#include "traffic/worker_job.h"
#include "url/redis_url.h"

namespace ratelab {

class DecisionExplainer;
class RedisRouter;
class ScheduleDecider;

// Teaching mode: decides a scenario's requests one at a time, in schedule order, each at its
// scheduled time on the scenario's clock (virtual: exactly the virtual time; real: from the
// session's start on the wall clock), on every limiter. It decides as a virtual-time run does
// (ScheduleDecider: the run's worker, gateways, releases and wait-mode retries) and keeps the
// run's counts, so the charts fill as in a run. Its clock stands still between steps: every key
// TTL is kClockStandstillMs longer in Redis's time, so steps any time apart (up to a day) decide
// as steps taken back to back. Not thread-safe: one caller (a worker thread of the window).
class StepSession {
public:
    // Resets the limiters' keys. Throws RedisError when Redis cannot be reached. With
    // `explain`, every step is explained per limiter (Step::explanations: the keys before and
    // after, headers, counterfactuals) under scratch limiters whose keys the holder of
    // scratchLimiters() deletes when the session is done.
    StepSession(Scenario scenario, RedisUrl url, bool explain = false);
    // A lesson's session (engine/lessons): on the scenario's virtual clock, "time": "redis" on
    // the run's own clock (ScheduleDecider::Options::redisClockIsRunClock); explains nothing.
    struct ForLesson {};
    StepSession(Scenario scenario, RedisUrl url, ForLesson);
    ~StepSession();

    struct Step {
        qint64 index = -1;  // the request's place in the schedule; -1: the schedule is over
        qint64 nowMs = 0;   // the limiter time it was decided at
        QString client;
        qint64 permits = 0;
        int gateway = 0;                  // the gateway it went through
        std::vector<Decision> decisions;  // one per limiter
        QStringList errors;  // per limiter: empty, or why the decision failed (and, with an
                             // on_error policy, that it was let through or refused by it)
        // Explaining sessions: per limiter (in order), none where the decision failed.
        std::vector<std::optional<Explanation>> explanations;
    };
    // Decides the next request of the schedule (and, before it, what is due before it: the
    // releases of grants whose hold has ended, wait-mode retries).
    Step next();
    // Decides the requests through index k (and what is due before each), in as few round trips
    // as a virtual run takes them; the Step of request k (index -1 when k was decided before or
    // the schedule ended before it).
    Step advanceThrough(qint64 k);
    // Decides everything due before run time `runUs` (ScheduleDecider::advanceUntil): a
    // lesson's beat.
    void advanceUntil(qint64 runUs);
    // The index of the last request scheduled before run time `runUs` (-1: none).
    qint64 lastRequestBefore(qint64 runUs);
    qint64 runUsOf(qint64 k);
    // Deletes the limiters' keys (a lesson checked on the command line leaves none behind).
    // Throws RedisError.
    void resetKeys();
    // The run's counts, for what a snapshot leaves out (the admitted bursts of the run so far).
    const RunStats& stats() const;

    RunSnapshot snapshot() const;
    qint64 limiterNowMs() const { return lastNowMs_; }
    // The limiter whose Redis state stands for slot `index` (gateway 0's own in mode local).
    const Limiter& stateLimiter(int index) const;

    // What a run needs to continue this session (ScenarioRunner::continueFrom): the scenario
    // it steps, how many requests were sent, the run time of the last one, the limiter time
    // of run time 0, and whether the schedule is over (readable from any thread).
    const Scenario& scenario() const;
    qint64 sent() const { return k_; }
    qint64 lastRunUs() const { return lastRunUs_; }
    qint64 startEpochMs() const;
    bool scheduleOver() const { return over_.load(); }
    // The scratch limiters an explaining session decides again on (their keys are to be
    // deleted with Limiter::reset once the session is done); empty otherwise.
    std::vector<LimiterSpec> scratchLimiters() const;
    // Hands the stepped requests' counts to a run; this session's own counts start again.
    std::unique_ptr<WorkerStats> takeStats();
    // Hands a run what its gateways keep and the jobs still to come (the stepped grants'
    // releases, wait-mode retries); the session steps no more after it.
    std::unique_ptr<GatewayState> takeGateways();
    std::vector<WorkerJob> takePending();

private:
    class Observer;
    StepSession(Scenario scenario, RedisUrl url, bool explain, bool lesson);

    std::unique_ptr<RedisRouter> router_;  // resets, and the explainers' reads
    std::unique_ptr<ScheduleDecider> decider_;
    std::unique_ptr<Observer> observer_;
    // Explaining sessions: per limiter, one explainer, or one per gateway in mode local.
    std::vector<std::vector<std::unique_ptr<DecisionExplainer>>> explainers_;
    qint64 k_ = 0;
    qint64 lastRunUs_ = 0;
    qint64 lastNowMs_ = 0;
    std::atomic<bool> over_{false};
};

}  // namespace ratelab
