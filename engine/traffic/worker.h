#pragma once

#include <atomic>
#include <memory>
#include <queue>
#include <vector>

#include "limiters/limiter.h"
#include "redis/redis_router.h"
#include "stats/run_stats.h"
#include "traffic/decision_batch.h"
#include "traffic/gateway_state.h"
#include "traffic/pacer.h"
#include "traffic/request_factory.h"
#include "traffic/run_clock.h"

namespace ratelab {

// A grant that still holds its slots (the concurrency limiter) when a run continues the step
// session that made it: the run releases it at dueRunUs, as it would its own.
struct HeldGrant {
    qint64 dueRunUs = 0;
    qint64 grantRunUs = 0;  // when it was granted (its request's place in the schedule)
    qint64 k = 0;           // the request's index in the schedule
    int limiter = 0;
    int client = 0;
    qint64 permits = 1;
    int gateway = 0;
};

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
    qint64 firstK = 0;  // the schedule's sends before this index were stepped (StepSession)
    std::vector<HeldGrant> heldGrants;  // the stepped grants' releases still to come
    std::atomic<bool>* stop = nullptr;
    std::atomic<qint64>* progressUs = nullptr;  // furthest scheduled run time reached
};

// One worker thread's loop: takes every N-th send of the schedule (open model: a late worker
// sends late but never shifts the schedule; latency counts from the scheduled time, so there is
// no coordinated omission), pipelines due requests on its own connection, keeps wait-mode
// retries in its own queue, and records outcomes in its own stats. Redis failures become
// errors, counted by cause (a decision sent but never answered is an "unknown outcome", apart
// from refusals); connections are re-established with backoff. A batch is sent, read and
// retried by a DecisionBatch: one deadline (commandTimeout) for all its I/O; against a cluster
// it spans several nodes, each node's commands pipelined on its own connection.
class Worker {
public:
    Worker(const RunContext& context, int index, WorkerStats& stats);
    void run();

private:
    struct Job {
        qint64 dueRunUs;        // when this attempt is due
        qint64 scheduledRunUs;  // the request's place in the schedule
        qint64 firstTryRunUs;   // wait mode: when its first attempt went out; -1 before
        int limiter;
        int client;
        qint64 permits;
        bool held;           // granted with a delay (the leaky bucket): completes when due, no call
        qint64 k = -1;       // the request's index in the schedule (its id at the limiter)
        qint64 holdMs = -1;  // a grant holding slots releases them this long after; -1 never
        bool releases = false;  // a grant's release (the concurrency limiter), due at its end
        int gateway = 0;        // the gateway the request goes through (traffic "gateways")
    };
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

    void advanceSchedule();
    void collectDue(qint64 nowRunUs, std::vector<Job>& batch);
    void execute(std::vector<Job>& batch);
    // Records the attempt's result: accepted, rejected, an error (decision == nullptr; `cause`
    // says why), or in wait mode a retry queued for later.
    void finish(const Job& job, const Decision* decision, qint64 sendRunUs,
                ErrorCause cause = ErrorCause::Other);
    // A wait abandoned because the run was stopped: rejected, as a timed-out acquire is (a held
    // request was already granted: released).
    void giveUp(const Job& job);
    // A held request proceeds: accepted, having waited from its first try until it was due.
    void release(const Job& job);
    // The skew of the job's client and gateway; its request at the run time sent; the limiter
    // its gateway decides it with (its own in mode local); the decision of batch job i (null:
    // failed).
    qint64 skewMs(const Job& job) const;
    Request requestOf(const Job& job, qint64 sendRunUs) const;
    const Limiter& limiterOf(const Job& job) const;
    const Decision* decisionOf(size_t i) const;
    // Job i's result in its round (a job that calls Redis).
    const DecisionBatch::Result& resultOf(size_t i) const;
    // A grant releases its slots (the concurrency limiter), one call on its own.
    void releaseSlots(const Job& job);
    // Try mode: counts, per pair of limiters, the batch's requests they decided differently.
    void compareDecisions(const std::vector<Job>& batch);
    bool ensureConnected();
    // Sentinel URLs: records a failover when the primary decided on changed address.
    void notePrimary(qint64 sendRunUs);
    void sleepUntil(qint64 runUs);
    int bucketOf(qint64 runUs) const;

    const RunContext& ctx_;
    const int index_;
    WorkerStats& stats_;
    std::unique_ptr<Pacer> pacer_;
    qint64 nextSendUs_ = Pacer::kNoMore;
    qint64 nextK_ = -1;         // index in the whole schedule of nextSendUs_
    Pacer::Origin nextOrigin_;  // its traffic group's (Pacer::origin)
    std::priority_queue<Job, std::vector<Job>, LaterFirst> retries_;
    // Routes each decision to its node (one connection for a single server, one per master
    // of a cluster); made on first use, with backoff while Redis cannot be reached at all.
    std::unique_ptr<RedisRouter> router_;
    RunClock::Steady::time_point nextReconnect_{};
    std::chrono::milliseconds backoff_{0};
    ErrorCause connectCause_ = ErrorCause::ConnectionFailed;  // why the router could not be made
    // The batch's decisions that call Redis (reused): one round trip for all of them, or with
    // traffic "round_trips": "per_limiter" one per limiter, each read before the next is sent.
    std::vector<DecisionBatch> rounds_;
    std::vector<qint64> roundStartUs_;  // per round: the run time it was sent at
    // A decision a gateway made itself (a cached refusal, a batched window), or its failure.
    struct LocalResult {
        Decision decision;
        bool decided = true;
        ErrorCause cause = ErrorCause::Other;
    };
    std::optional<LocalResult> decideLocally(const Job& job, const Request& request);
    std::vector<LocalResult> local_;        // the batch's decisions a gateway made itself
    std::vector<std::ptrdiff_t> slots_;     // per job: index in its round, or -1 - in local_
    std::vector<int> roundOf_;              // per job: its round (rounds_)
    DecisionBatch::ReplyClock replyClock_;  // the run time of a reply
    std::vector<signed char> outcomes_;     // compareDecisions: one request's, per limiter
    size_t releasesQueued_ = 0;             // of retries_: releases (no outcome waits on them)
    QString primary_;  // Sentinel URLs: the primary the last round was decided on
};

}  // namespace ratelab
