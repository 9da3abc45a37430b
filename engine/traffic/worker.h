#pragma once

#include <atomic>
#include <memory>
#include <queue>
#include <vector>

#include "limiters/limiter.h"
#include "stats/run_stats.h"
#include "traffic/decision_path.h"
#include "traffic/gateway_state.h"
#include "traffic/pacer.h"
#include "traffic/request_factory.h"
#include "traffic/run_clock.h"
#include "traffic/worker_job.h"
#include "url/redis_url.h"

namespace ratelab {

class RedisRouter;

// What every worker of one run shares (read-only while it runs).
struct RunContext {
    const TrafficSpec* traffic = nullptr;
    // One slot per limiter; the runner may swap a slot's limiter while workers run (a live
    // config change), so workers load it once per attempt.
    std::unique_ptr<std::atomic<const Limiter*>[]> limiters;
    int limiterCount = 0;
    const RequestFactory* requests = nullptr;
    GatewayState* gateways = nullptr;  // the gateways' own state (null: one plain gateway)
    const Pacer* pacer = nullptr;      // the master schedule; each worker walks its own clone
    RunClock* clock = nullptr;         // the worker of a virtual run also takes its state samples
    RedisUrl url;
    ConnectOptions connectOptions;
    qint64 bucketUs = 100'000;
    int workers = 1;
    // false: every batch tries to reach Redis again, without backing off (Step: each batch is
    // one user action).
    bool reconnectBackoff = true;
    // A lesson's run: a limiter with "time": "redis" decides at the run's own clock, unskewed
    // (Request::nowFromRedis), instead of reading Redis's TIME, which runs on in real time while
    // a virtual clock jumps ahead.
    bool redisClockIsRunClock = false;
    qint64 firstK = 0;  // the schedule's sends before this index were decided (StepSession)
    // The stepped requests' jobs still to come (releases, retries, delayed grants): worker
    // k mod workers takes each.
    std::vector<WorkerJob> pending;
    std::atomic<bool>* stop = nullptr;
    std::atomic<qint64>* progressUs = nullptr;  // furthest scheduled run time reached
};

// Sees the decisions of a schedule as a worker makes them (StepSession, explain, replay): every
// attempt's result, and what each grant's release did.
class DecisionObserver {
public:
    virtual ~DecisionObserver() = default;
    struct Attempt {
        const WorkerJob& job;
        const Request& request;  // as sent: at its client's and gateway's clock
        bool firstTry;
    };
    // Whether request k is to be explained: its attempts go out in a batch of their own, with
    // before() called just before.
    virtual bool explains(qint64 k) const {
        (void)k;
        return false;
    }
    virtual void before(const Attempt& attempt, const Limiter& limiter) {
        (void)attempt;
        (void)limiter;
    }
    virtual void decided(const Attempt& attempt, const DecisionPath::Result& result) = 0;
    enum class Release { InTime, Late, Leaked };
    virtual void released(int limiter, qint64 k, Release release) {
        (void)limiter;
        (void)k;
        (void)release;
    }
};

// One worker's loop: takes every N-th send of the schedule (open model: a late worker sends late
// but never shifts the schedule; latency counts from the scheduled time, so there is no
// coordinated omission), decides due requests in batches through one DecisionPath on its own
// connection, keeps wait-mode retries, delayed grants and releases in its own queue, and records
// outcomes in its own stats. Redis failures become errors, counted by cause (a decision sent but
// never answered is an "unknown outcome"); connections are re-established with backoff.
//
// A batch takes the requests due now (a real clock: due by the time it is sent). On a virtual
// clock that does not wait it also takes the requests after them while none of their decisions
// can depend on a reply not yet read (worker_batches.cpp), so that a virtual run makes as few
// round trips as Redis allows and decides exactly as one request per batch would.
class Worker {
public:
    Worker(const RunContext& context, int index, WorkerStats& stats);
    // Runs the whole schedule on the caller's thread (a run's worker thread).
    void run();
    // Decides the schedule up to and including request k and everything due before it, on the
    // caller's thread (the worker of a run that does not start threads: Step, explain, replay).
    // False when the schedule ended before request k.
    bool advanceThrough(qint64 k);
    // Decides everything due before run time `runUs`, on the caller's thread: the requests
    // scheduled before it and the retries, delayed grants and releases due before it (a lesson's
    // beat); nothing due at runUs or later.
    void advanceUntil(qint64 runUs);
    // The schedule index of the next request this worker sends; -1 when none is left.
    qint64 nextRequest() const { return nextSendUs_ == Pacer::kNoMore ? -1 : nextK_; }
    qint64 nextRequestRunUs() const { return nextSendUs_; }
    void setObserver(DecisionObserver* observer) { observer_ = observer; }
    // The jobs still queued (a run that continues takes them over); the worker sends no more.
    std::vector<WorkerJob> takePending();
    // The router this worker decides through (made on its first batch; null before).
    RedisRouter* router() { return router_.get(); }
    // Hands the worker a router to decide through, and takes it back: a caller that decides
    // many short schedules one after another (a hunt's traces) keeps one connection for all.
    void adoptRouter(std::unique_ptr<RedisRouter> router) { router_ = std::move(router); }
    std::unique_ptr<RedisRouter> takeRouter() { return std::move(router_); }

private:
    using Job = WorkerJob;
    // Min-heap on due time; waits due at the same instant go in schedule order (first come,
    // first served), which also keeps virtual-time runs reproducible.
    struct LaterFirst {
        bool operator()(const Job& a, const Job& b) const {
            if (a.dueRunUs != b.dueRunUs) {
                return a.dueRunUs > b.dueRunUs;
            }
            if (a.releases != b.releases) {
                return b.releases;  // at one instant, releases before requests
            }
            if (a.scheduledRunUs != b.scheduledRunUs) {
                return a.scheduledRunUs > b.scheduledRunUs;
            }
            return a.limiter > b.limiter;
        }
    };

    // Decides through request lastK (and what is due before it), nothing due at or after
    // untilUs.
    void loop(qint64 lastK, qint64 untilUs = Pacer::kNoMore);
    void advanceSchedule();
    // worker_batches.cpp: the batch of what is due (and, pipelining ahead, what may follow).
    void collectDue(qint64 nowRunUs, qint64 lastK, qint64 untilUs, std::vector<Job>& batch);
    bool pipelinesAhead() const;
    // Whether limiter `limiter`'s decision for `client` through `gateway` may change once the
    // batch's replies are read (a cache_refusals gateway learning a refusal of its scope key).
    bool waitsForBatch(int limiter, int gateway, int client, const std::vector<Job>& batch) const;
    qint64 releaseHorizon(const Job& job) const;
    // worker_decisions.cpp: decides a batch and records its outcomes.
    void execute(std::vector<Job>& batch);
    // Records the attempt's result: accepted, rejected, an error (decision == nullptr; `cause`
    // says why), or in wait mode a retry queued for later.
    void finish(const Job& job, const Decision* decision, qint64 sendRunUs,
                ErrorCause cause = ErrorCause::Other);
    // A wait abandoned because the run was stopped: rejected, as a timed-out acquire is (a held
    // request was already granted: released).
    void giveUp(const Job& job);
    // A held request proceeds: accepted, having waited from its first try until it was due.
    void complete(const Job& job);
    // The skew of the job's client and gateway; its request at the run time sent; the limiter
    // its gateway decides it with (its own in mode local).
    qint64 skewMs(const Job& job) const;
    Request requestOf(const Job& job, qint64 sendRunUs) const;
    const Limiter& limiterOf(const Job& job) const;
    // A grant releases its slots (the concurrency limiter), one call on its own.
    void releaseSlots(const Job& job);
    // Try mode: counts, per pair of limiters, the batch's requests they decided differently.
    void compareDecisions(const std::vector<Job>& batch);
    // A user's script that ran past Redis's busy limit: stops the run, saying why (and ends the
    // script with SCRIPT KILL when it is the run's own). True when it did.
    bool stopOnBusyScript(const std::vector<Job>& batch);
    bool ensureConnected();
    // Sentinel URLs: records a failover when the primary decided on changed address.
    void notePrimary(qint64 sendRunUs);
    void sleepUntil(qint64 runUs);
    int bucketOf(qint64 runUs) const;
    void push(const Job& job);

    const RunContext& ctx_;
    const int index_;
    WorkerStats& stats_;
    std::unique_ptr<Pacer> pacer_;
    qint64 nextSendUs_ = Pacer::kNoMore;
    qint64 nextK_ = -1;         // index in the whole schedule of nextSendUs_
    Pacer::Origin nextOrigin_;  // its traffic group's (Pacer::origin)
    std::priority_queue<Job, std::vector<Job>, LaterFirst> retries_;
    size_t releasesQueued_ = 0;  // of retries_: releases (no outcome waits on them)
    // Routes each decision to its node (one connection for a single server, one per master
    // of a cluster); made on first use, with backoff while Redis cannot be reached at all.
    std::unique_ptr<RedisRouter> router_;
    RunClock::Steady::time_point nextReconnect_{};
    std::chrono::milliseconds backoff_{0};
    ErrorCause connectCause_ = ErrorCause::ConnectionFailed;  // why the router could not be made
    std::exception_ptr connectFailure_;                       // and the error that said so
    DecisionPath path_;
    DecisionBatch::ReplyClock replyClock_;  // the run time of a reply
    std::vector<Job> batch_;
    std::vector<signed char> outcomes_;             // compareDecisions: one request's, per limiter
    PipelineEnd batchEnd_ = PipelineEnd::Schedule;  // why the batch being collected ended
    DecisionObserver* observer_ = nullptr;
    QString primary_;  // Sentinel URLs: the primary the last round was decided on
};

}  // namespace ratelab
