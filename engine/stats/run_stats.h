#pragma once

#include <QStringList>
#include <memory>
#include <mutex>
#include <vector>

#include "input_limits.h"
#include "stats/accepted_log.h"
#include "stats/agreement_counters.h"
#include "stats/client_groups.h"
#include "stats/counter_array.h"
#include "stats/error_cause.h"
#include "stats/latency_histogram.h"
#include "stats/pipeline_use.h"
#include "stats/run_snapshot.h"

namespace ratelab {

// The final outcome of one request at one limiter. Error, FailedOpen and FailedClosed are all
// failed decisions and all count in errors; the last two also count as let through or refused
// by the limiter's failure policy (LimiterSpec::onError), apart from accepted and rejected.
enum class Outcome { Accepted, Rejected, Error, FailedOpen, FailedClosed };

// What a failed decision counts as under a failure policy.
constexpr Outcome failedOutcome(FailurePolicy policy) {
    return policy == FailurePolicy::Open     ? Outcome::FailedOpen
           : policy == FailurePolicy::Closed ? Outcome::FailedClosed
                                             : Outcome::Error;
}

// The per-bucket series a run keeps besides the outcomes, each only where it has a use: the
// releases and leaked grants of limiters whose grants hold slots (a traffic "hold"), and each
// gateway's accepted requests (more than one gateway).
struct ExtraBucketSeries {
    bool leases = false;
    int gateways = 0;  // 0, or the traffic's gateways when there are more than one
    qint64 count() const { return (leases ? 2 : 0) + gateways; }
};

// What one worker records for one limiter. Single writer (the worker), lock-free readers.
class LimiterCounters {
public:
    // `groupOf` (one per client, owned by the caller and outliving this) gives each client's
    // traffic group of `groups`; null with no groups. `compared`: the limiter has a reference
    // (a script limiter's), whose comparisons it counts per bucket and client. `extra`: the
    // per-bucket series kept besides the outcomes.
    LimiterCounters(int buckets, int clients, const int* groupOf = nullptr, int groups = 0,
                    bool compared = false, ExtraBucketSeries extra = {});

    // The final outcome of one request at this limiter: bucket of its scheduled time, client,
    // and (wait mode, accepted) how long it waited since its first try. A failed decision also
    // counts under its cause.
    void recordOutcome(int bucket, int client, Outcome outcome, qint64 waitedUs,
                       ErrorCause cause = ErrorCause::Other);
    // One script call and its latency from the scheduled time (us).
    void recordAttempt(qint64 latencyUs);
    // One decision this limiter and its reference both made (a script limiter's "reference"),
    // and whether one granted what the other refused: bucket of the request's scheduled time.
    // Not counted for a limiter made without a reference (one a live edit gave one).
    void recordComparison(int bucket, int client, bool disagreed) {
        if (!compared_) {
            return;
        }
        totals_.add(kCompared, 1);
        clientReference_.add(client * 2, 1);
        if (disagreed) {
            totals_.add(kDisagreed, 1);
            bucketDisagreed_.add(bucket, 1);
            clientReference_.add(client * 2 + 1, 1);
        }
    }
    // An accepted decision for the admitted-burst metric: the run's time of the decision and
    // the time the limiter decided at, both in ms since the run's start (BurstClock). Recorded
    // when the limiter grants, also for a grant that is then held (wait mode).
    void recordAccepted(qint64 runMs, qint64 limiterMs, int client, qint64 permits) {
        if (logsAccepted_) {
            accepted_.record(runMs, limiterMs, client, permits);
        }
    }
    // Leases (limiters whose grants hold slots): a grant released (late: its lease had run out
    // already) in the bucket of its release, a grant that never releases (the traffic's
    // leak_pct) in the bucket of the grant, leases a decision found run out and removed.
    void recordRelease(bool late, int bucket) {
        totals_.add(late ? kLateReleases : kReleased, 1);
        if (bucketReleased_.size() > 0) {
            bucketReleased_.add(bucket, 1);
        }
    }
    void recordLeaked(int bucket) {
        totals_.add(kLeaked, 1);
        if (bucketLeaked_.size() > 0) {
            bucketLeaked_.add(bucket, 1);
        }
    }
    void recordExpiredLeases(qint64 n) {
        if (n > 0) {
            totals_.add(kExpiredLeases, n);
        }
    }
    // One decision (an attempt) made by gateway g, whether it called Redis (false: the
    // gateway decided it from its own state) and whether it granted (the request's bucket).
    void recordGatewayDecision(int gateway, bool calledRedis, bool granted = false,
                               int bucket = 0) {
        gateways_.add(gateway * kPerGateway, 1);
        if (calledRedis) {
            gateways_.add(gateway * kPerGateway + 1, 1);
            totals_.add(kRedisCalls, 1);
        }
        if (granted) {
            gateways_.add(gateway * kPerGateway + 2, 1);
            if (gatewayBuckets_.size() > 0) {
                gatewayBuckets_.add(gateway * buckets_ + bucket, 1);
            }
        }
    }
    int bucketCount() const { return bucketAccepted_.size(); }
    // What one LimiterCounters of `buckets` time buckets and `clients` clients allocates
    // (itself and its counter arrays), for the scenario's memory budget.
    static qint64 allocatedBytes(qint64 buckets, qint64 clients, qint64 groups = 0,
                                 bool compared = false, ExtraBucketSeries extra = {}) {
        constexpr qint64 kCounter = sizeof(std::atomic<long long>);
        return qint64(sizeof(LimiterCounters)) +
               ((kBucketSeries + extra.count()) * buckets + kGroupBucketSeries * groups * buckets +
                clients * kPerClient + kTotals + kGatewayCounters +
                (compared ? buckets + 2 * clients : 0)) *
                   kCounter;
    }
    static constexpr int kBucketSeries = 5;       // accepted, rejected, errors, errors_open/closed
    static constexpr int kGroupBucketSeries = 2;  // per traffic group: accepted, rejected

private:
    friend class RunStats;
    // The first counters of both arrays are OutcomeTotals' fields in its order (outcomesAt in
    // run_stats.cpp reads them so).
    enum Total {
        kFired,
        kAccepted,
        kRejected,
        kErrors,
        kErrorsOpen,
        kErrorsClosed,
        kAttempts,
        kReleased,
        kLateReleases,
        kLeaked,
        kExpiredLeases,
        kRedisCalls,
        kCompared,
        kDisagreed,
        kTotals
    };
    enum PerClient {
        kClientFired,
        kClientAccepted,
        kClientRejected,
        kClientErrors,
        kClientErrorsOpen,
        kClientErrorsClosed,
        kClientWaitedMs,
        kPerClient
    };
    CounterArray totals_{kTotals};
    CounterArray bucketAccepted_;
    CounterArray bucketRejected_;
    CounterArray bucketErrors_;
    CounterArray bucketErrorsOpen_;
    CounterArray bucketErrorsClosed_;
    // With a reference only (compared_): disagreements per bucket; per client the decisions
    // compared and disagreed.
    bool compared_ = false;
    CounterArray bucketDisagreed_;
    CounterArray clientReference_;
    CounterArray clients_;          // kPerClient counters per client
    const int* groupOf_ = nullptr;  // per client: its traffic group; null: no groups
    int buckets_ = 0;
    // Per traffic group and bucket: accepted, rejected (at (group * buckets + bucket) * 2).
    CounterArray groupBuckets_;
    CounterArray causes_{kErrorCauses};  // failed decisions by ErrorCause
    static constexpr int kPerGateway = 3;
    static constexpr int kGatewayCounters = kPerGateway * scenario_limits::kMaxGateways;
    CounterArray gateways_{kGatewayCounters};  // per gateway: decisions, Redis calls, grants
    // ExtraBucketSeries: per bucket, releases and leaked grants (empty without leases), and per
    // gateway and bucket the grants (at gateway * buckets + bucket; empty with one gateway).
    CounterArray bucketReleased_;
    CounterArray bucketLeaked_;
    CounterArray gatewayBuckets_;
    LatencyHistogram latency_;
    LatencyHistogram waited_;
    AcceptedLog accepted_;  // read only once the worker is done
    bool logsAccepted_ = true;
};

// One worker's counters for every limiter, plus its schedule lag.
class WorkerStats {
public:
    // `groupOf`: each client's traffic group (empty: no groups), of `groups` groups.
    // `compared`: per limiter, whether it has a reference (none: no limiter has).
    WorkerStats(int limiters, int buckets, int clients, std::vector<int> groupOf = {},
                int groups = 0, const std::vector<bool>& compared = {},
                ExtraBucketSeries extra = {});
    LimiterCounters& limiter(int i) { return *limiters_[size_t(i)]; }
    void recordLag(qint64 lagUs) { lag_.record(lagUs); }
    void addScheduled(long long n) { scheduled_.add(0, n); }
    AgreementCounters& agreement() { return agreement_; }
    // One batch: its decisions sent to Redis, its round trips, and why it ended.
    void recordBatch(qint64 decisions, int roundTrips, PipelineEnd end) {
        pipeline_.add(kBatches, 1);
        pipeline_.add(kDecisionsSent, decisions);
        pipeline_.add(kRoundTrips, roundTrips);
        pipeline_.add(kEnds + int(end), 1);
    }
    // Why this worker stopped the run, when something made going on pointless (a user's script
    // past Redis's busy limit); the first reason stands.
    void recordStopCause(const QString& why) {
        std::lock_guard<std::mutex> lock(failoverMutex_);
        if (stopCause_.isEmpty()) {
            stopCause_ = why;
        }
    }
    // This worker's connection moved from primary `from` to `to` at run time `atUs`.
    void recordFailover(qint64 atUs, const QString& from, const QString& to) {
        std::lock_guard<std::mutex> lock(failoverMutex_);
        failovers_.append(FailoverEvent{atUs, from, to});
    }
    // What one worker's stats allocate (see LimiterCounters::allocatedBytes and
    // AgreementCounters::allocatedBytes).
    // `compared`: how many of the limiters have a reference.
    static qint64 allocatedBytes(qint64 limiters, qint64 buckets, qint64 clients, qint64 groups = 0,
                                 qint64 compared = 0, ExtraBucketSeries extra = {}) {
        return qint64(sizeof(WorkerStats)) +
               qint64(sizeof(std::atomic<long long>)) * (1 + 3 + kPipelineEnds) +
               (groups > 0 ? clients * qint64(sizeof(int)) : 0) +
               limiters *
                   (qint64(sizeof(std::unique_ptr<LimiterCounters>)) +
                    LimiterCounters::allocatedBytes(buckets, clients, groups, false, extra)) +
               compared * (buckets + 2 * clients) * qint64(sizeof(std::atomic<long long>)) +
               AgreementCounters::allocatedBytes(limiters, buckets);
    }

private:
    friend class RunStats;
    std::vector<int> groupOf_;  // its limiters' counters point into it
    std::vector<std::unique_ptr<LimiterCounters>> limiters_;
    LatencyHistogram lag_;
    CounterArray scheduled_{1};
    enum { kBatches, kDecisionsSent, kRoundTrips, kEnds };
    CounterArray pipeline_{kEnds + kPipelineEnds};
    AgreementCounters agreement_;
    mutable std::mutex failoverMutex_;
    QVector<FailoverEvent> failovers_;
    QString stopCause_;  // under failoverMutex_
};

// The clients' totals added up per traffic group (`groups`), each with its own fairness.
QVector<GroupTotals> groupTotals(const QVector<ClientTotals>& clients, const ClientGroups& groups);

// All workers' stats of one run; snapshot() sums them (callable from any thread, any time).
class RunStats {
public:
    // `groups`: the traffic groups of the clients (empty: none), for the per-group figures;
    // `extra`: the per-bucket series the run keeps besides the outcomes.
    RunStats(QVector<LimiterSpec> limiters, QStringList clients, int workers, int buckets,
             ClientGroups groups = {}, ExtraBucketSeries extra = {});
    WorkerStats& worker(int i) { return *workers_[size_t(i)]; }
    // Moves worker i's counts out (a fresh, empty one takes its place) and adds counts taken
    // from another RunStats of the same limiters, clients and buckets as one more worker: a
    // run that continues a step session keeps the stepped requests' counts. Not while a
    // snapshot may be read or a worker writes.
    std::unique_ptr<WorkerStats> takeWorker(int i);
    void adoptWorker(std::unique_ptr<WorkerStats> stats);
    // Keeps no accepted log (a replay or an explanation of a long trace needs no admitted
    // bursts, and the log grows with every grant). Before any worker records.
    void dropAcceptedLogs();
    // The spec reported for limiter i (after a live change).
    void setSpec(int i, const LimiterSpec& spec);
    int bucketCount() const { return buckets_; }

    // Fills counts, buckets, histograms, clients, groups and fairness; the caller sets the
    // timing.
    void fill(RunSnapshot& snapshot) const;
    // Limiter l's busiest intervals for `windowsMs` (overall, per client when perClient, and
    // per group).
    // Only once every worker is done: the accepted logs are not safe to read while they write.
    AdmittedBursts admittedBursts(int l, const std::vector<qint64>& windowsMs,
                                  bool perClient) const;

private:
    mutable std::mutex specMutex_;
    QVector<LimiterSpec> specs_;
    QStringList clients_;
    ClientGroups groups_;
    int buckets_;
    ExtraBucketSeries extra_;
    std::vector<std::unique_ptr<WorkerStats>> workers_;
    std::unique_ptr<WorkerStats> newWorker() const;
};

}  // namespace ratelab
