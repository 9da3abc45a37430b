#pragma once

#include <memory>
#include <vector>

#include "run/run_parts.h"
#include "scenario/scenario.h"
#include "traffic/worker.h"

namespace ratelab {

// A scenario's schedule decided on the caller's thread, as a virtual-clock run decides it: one
// Worker (the same batches, gateways, releases, retries and counts as a run's), on a virtual
// clock that does not wait (or, Options::speed, one paced in real time), starting at
// `startEpochMs`. Step, explain, replay and the lesson
// checks advance it request by request or in long stretches; a run may take over where it
// stopped (ScenarioRunner::continueFrom). Not thread-safe: one caller.
class ScheduleDecider {
public:
    struct Options {
        LimiterOptions limiters;
        ConnectOptions connect;
        bool keepAcceptedLogs = true;  // false: no admitted bursts (a long replay)
        bool reconnectBackoff = true;  // false: every batch tries Redis again (Step)
        // Decisions per round trip at most (0: the scenario's "pipeline"); a virtual clock
        // decides the same whatever it is.
        int pipeline = 0;
        // A lesson's decisions: "time": "redis" decides at the run's own clock, unskewed (one
        // clock for Redis, however far the clients' are off; RunContext::redisClockIsRunClock),
        // where Redis's TIME would run on in real time while virtual time jumps.
        bool redisClockIsRunClock = false;
        // The virtual clock's speed: 0 decides the schedule back to back; 1 paces it in real
        // time (a script on Redis's own clock, whose TTLs run in real time: ScriptClock).
        double speed = 0;
    };
    ScheduleDecider(Scenario scenario, RedisUrl url, qint64 startEpochMs, Options options);
    ~ScheduleDecider();
    ScheduleDecider(const ScheduleDecider&) = delete;
    ScheduleDecider& operator=(const ScheduleDecider&) = delete;

    // Deletes the limiters' keys (and the gateways' own). Throws RedisError.
    void resetKeys(RedisRouter& router) const { parts_->resetKeys(router); }
    // Every limiter whose keys the schedule writes (RunParts::limitersWithKeys).
    std::vector<const Limiter*> limitersWithKeys() const { return parts_->limitersWithKeys(); }
    void setObserver(DecisionObserver* observer) { worker_->setObserver(observer); }

    // Decides every request through index k and what is due before it. False when the schedule
    // ended before k.
    bool advanceThrough(qint64 k) { return worker_->advanceThrough(k); }
    // Decides everything due before run time `runUs`: the requests scheduled before it and the
    // retries, delayed grants and releases due before it; what is due at runUs and after waits
    // for the next call.
    void advanceUntil(qint64 runUs) { worker_->advanceUntil(runUs); }
    // The index of the last request scheduled before run time `runUs`; -1 when none is.
    qint64 lastRequestBefore(qint64 runUs);
    // The run time request k is scheduled at (Pacer::kNoMore past the schedule's end).
    qint64 runUsOf(qint64 k);
    // Decides the rest of the schedule, then the batched gateways add what they still hold.
    void finish(RedisRouter& router);
    // The index of the next request to decide; -1 once the schedule is over.
    qint64 nextRequest() const { return worker_->nextRequest(); }
    qint64 nextRequestRunUs() const { return worker_->nextRequestRunUs(); }

    const Scenario& scenario() const { return scenario_; }
    qint64 startEpochMs() const { return clock_.startEpochMs(); }
    qint64 durationUs() const { return parts_->durationUs; }
    // The limiter the gateway decides slot l with (its own in mode local).
    const Limiter& limiter(int l, int gateway = 0) const;
    const RequestFactory& requests() const { return parts_->requests; }
    const RunStats& stats() const { return *parts_->stats; }
    const Pacer& pacer() const { return *parts_->pacer; }

    // What a run needs to take over (the decider decides no more afterwards): the jobs still
    // queued, the gateways' state, the counts.
    std::vector<WorkerJob> takePending() { return worker_->takePending(); }
    std::unique_ptr<GatewayState> takeGateways();
    std::unique_ptr<WorkerStats> takeStats() { return parts_->stats->takeWorker(0); }
    // The connection it decides through, handed in before the first request (else it makes
    // its own) and taken back after the last (Worker::adoptRouter).
    void adoptRouter(std::unique_ptr<RedisRouter> router) {
        worker_->adoptRouter(std::move(router));
    }
    std::unique_ptr<RedisRouter> takeRouter() { return worker_->takeRouter(); }

private:
    Scenario scenario_;
    RunClock clock_;
    std::unique_ptr<RunParts> parts_;
    std::unique_ptr<Worker> worker_;
    // The schedule read ahead of the worker (advanceUntil, runUsOf): cursorUs_ is request
    // cursorK_'s time.
    std::unique_ptr<Pacer> cursor_;
    qint64 cursorK_ = -1;
    qint64 cursorUs_ = Pacer::kNoMore;
};

}  // namespace ratelab
