#pragma once

#include <atomic>
#include <memory>
#include <vector>

#include <optional>

#include "explain/decision_explainer.h"
#include "limiters/limiter.h"
#include "run/schedule_walk.h"
#include "run/walk_decider.h"
#include "scenario/scenario.h"
#include "stats/run_stats.h"
#include "traffic/request_factory.h"

namespace ratelab {

// Teaching mode: sends a scenario's requests one at a time, in schedule order, each at its
// scheduled time on the scenario's clock (virtual: exactly the virtual time; real: from the
// first step's wall time), to every limiter. Keeps stats like a run so the charts fill as in a
// run. Its clock stands still between steps: every key TTL is kClockStandstillMs longer in
// Redis's time, so steps any time apart (up to a day) decide as steps taken back to back. Each
// step is decided as a virtual-time run decides it (WalkDecider): through its gateway's own
// state, after the releases of the grants whose hold has ended by then. Not thread-safe: one
// caller (a worker thread of the window).
class StepSession {
public:
    // Resets the limiters' keys. Throws RedisError when Redis cannot be reached. With
    // `explain`, every step is explained per limiter (Step::explanations: the keys before and
    // after, headers, counterfactuals) under scratch limiters whose keys the holder of
    // scratchLimiters() deletes when the session is done.
    StepSession(Scenario scenario, RedisUrl url, bool explain = false);
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
    Step next();

    RunSnapshot snapshot() const;
    qint64 limiterNowMs() const { return lastNowMs_; }

    // What a run needs to continue this session (ScenarioRunner::continueFrom): the scenario
    // it steps, how many requests were sent, the run time of the last one, the limiter time
    // of run time 0, and whether the schedule is over (readable from any thread).
    const Scenario& scenario() const { return scenario_; }
    qint64 sent() const { return k_; }
    qint64 lastRunUs() const { return lastRunUs_; }
    qint64 startEpochMs() const { return startEpochMs_; }
    bool scheduleOver() const { return over_.load(); }
    // The scratch limiters an explaining session decides again on (their keys are to be
    // deleted with Limiter::reset once the session is done); empty otherwise.
    std::vector<LimiterSpec> scratchLimiters() const;
    // Hands the stepped requests' counts to a run; this session's own counts start again.
    std::unique_ptr<WorkerStats> takeStats() { return stats_->takeWorker(0); }
    // Hands a run what its gateways keep and the stepped grants' releases still to come; the
    // session steps no more after it.
    std::unique_ptr<GatewayState> takeGateways() { return decider_->takeGateways(); }
    std::vector<HeldGrant> takeHeldGrants() { return decider_->takeHeldGrants(); }

private:
    // Explaining sessions: limiter l's explainer for `step`'s gateway.
    DecisionExplainer& explainerOf(size_t l, const ScheduleWalk::Step& step);
    void recordRelease(int limiter, WalkDecider::Release release);

    Scenario scenario_;
    RequestFactory requests_;
    std::vector<std::unique_ptr<Limiter>> limiters_;
    std::unique_ptr<ScheduleWalk> walk_;
    std::unique_ptr<WalkDecider> decider_;
    std::unique_ptr<RedisRouter> router_;
    // Explaining sessions: per limiter, one explainer, or one per gateway in mode local.
    std::vector<std::vector<std::unique_ptr<DecisionExplainer>>> explainers_;
    std::unique_ptr<RunStats> stats_;
    qint64 durationUs_ = 0;
    qint64 startEpochMs_ = 0;
    qint64 k_ = 0;
    qint64 lastRunUs_ = 0;
    qint64 lastNowMs_ = 0;
    std::atomic<bool> over_{false};
};

}  // namespace ratelab
