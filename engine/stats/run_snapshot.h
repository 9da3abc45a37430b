#pragma once

#include <QString>
#include <QVector>

#include <vector>

#include "limiters/limiter_spec.h"
#include "stats/admitted_burst.h"
#include "stats/error_cause.h"
#include "stats/expectation.h"
#include "stats/latency_histogram.h"
#include "stats/outcome_totals.h"
#include "stats/pipeline_use.h"

namespace ratelab {

// Totals of one client at one limiter.
struct ClientTotals : OutcomeTotals {
    QString client;
    QString group;  // its traffic group's name (traffic "groups"); empty without groups
    // Finished runs: the busiest interval of this client's accepted permits for each of the
    // limiter's admitted-burst windows, on the limiter's clock (as LimiterSnapshot's).
    std::vector<BusiestInterval> admittedBurst;
};

// Totals of one traffic group (traffic "groups") at one limiter: its clients' added up.
struct GroupTotals : OutcomeTotals {
    QString group;
    int clients = 0;        // the group's clients
    double fairness = 1.0;  // Jain's index over the group's clients' accepted counts
    // Per time bucket (as LimiterSnapshot's): the group's accepted and rejected requests.
    QVector<qint64> bucketAccepted;
    QVector<qint64> bucketRejected;
    // Finished runs: the busiest interval of the group's accepted permits for each of the
    // limiter's admitted-burst windows, on both clocks (as LimiterSnapshot's).
    std::vector<BusiestInterval> admittedBurst;
    std::vector<BusiestInterval> admittedBurstRunClock;
    const std::vector<BusiestInterval>& admittedBurstOn(BurstClock clock) const {
        return clock == BurstClock::Run ? admittedBurstRunClock : admittedBurst;
    }
};

// Leases of a limiter whose grants hold slots (the concurrency limiter) under a traffic with a
// "hold": grants released in time, released late (their lease had run out), never released
// (leak_pct), and leases decisions found run out and removed (one per slot).
struct LeaseCounts {
    qint64 released = 0;
    qint64 lateReleases = 0;
    qint64 leaked = 0;
    qint64 expired = 0;
    bool any() const { return released + lateReleases + leaked + expired > 0; }
};

// One gateway's decisions of a limiter (wait mode: every attempt), the Redis calls they made
// and the ones that granted (its admissions); with more than one gateway also its grants per
// time bucket (as LimiterSnapshot's buckets), empty otherwise.
struct GatewayCounts {
    qint64 decisions = 0;
    qint64 redisCalls = 0;
    qint64 accepted = 0;
    QVector<qint64> bucketAccepted;
};

// What one limiter has seen so far: its outcomes (OutcomeTotals; errorsOpen + errorsClosed <=
// errors, equal unless the policy is "error" or changed), and the same per client, group and
// bucket.
struct LimiterSnapshot : OutcomeTotals {
    LimiterSpec spec;
    qint64 attempts = 0;  // script calls, retries of wait mode included
    LeaseCounts leases;
    // A script limiter with a "reference" (its decisions against the reference's are in
    // OutcomeTotals::reference; every other limiter: none), and per time bucket the
    // disagreements (empty without a reference).
    bool hasReference = false;
    QVector<qint64> bucketDisagreed;
    // Decisions that called Redis (the others a gateway made from its own state), and per
    // gateway up to the last one that decided anything.
    qint64 redisCalls = 0;
    QVector<GatewayCounts> gateways;
    // Every gateway's decisions added up (wait mode: every attempt).
    qint64 gatewayDecisions() const {
        qint64 decisions = 0;
        for (const GatewayCounts& g : gateways) {
            decisions += g.decisions;
        }
        return decisions;
    }
    // The errors by cause (ErrorCause): they add up to errors.
    qint64 errorCauses[kErrorCauses] = {};
    // Per time bucket since the start of the run (bucket i covers [i*bucketMs, (i+1)*bucketMs)
    // of run time), by the time the request was scheduled.
    QVector<qint64> bucketAccepted;
    QVector<qint64> bucketRejected;
    QVector<qint64> bucketErrors;
    QVector<qint64> bucketErrorsOpen;
    QVector<qint64> bucketErrorsClosed;
    // Traffic with a "hold" (leases): per bucket the grants released then (in time or late)
    // and the grants made then that never release; empty otherwise.
    QVector<qint64> bucketReleased;
    QVector<qint64> bucketLeaked;
    LatencyHistogram::Snapshot latency;  // us, from the scheduled send time to the decision
    LatencyHistogram::Snapshot waited;   // us, wait mode: from the first try to the grant
    QVector<ClientTotals> clients;
    QVector<GroupTotals> groups;  // the traffic's groups, in its order; empty without groups
    double fairness = 1.0;        // Jain's index over the clients' accepted counts
    // Finished runs: the most permits accepted in any [t, t + N), one per window N, ascending
    // (stats/admitted_burst.h), in ms since the run's start: on the time the limiter decided at
    // (what it enforces) and on the run's own clock (BurstClock); empty while running.
    std::vector<BusiestInterval> admittedBurst;
    std::vector<BusiestInterval> admittedBurstRunClock;
    const std::vector<BusiestInterval>& admittedBurstOn(BurstClock clock) const {
        return clock == BurstClock::Run ? admittedBurstRunClock : admittedBurst;
    }
};

// Two limiters (indexes a < b into RunSnapshot::limiters) that decided the same requests: on
// how many both decided (neither failed), and on how many one accepted and the other rejected.
struct LimiterDisagreement {
    int a = 0;
    int b = 0;
    qint64 compared = 0;
    qint64 disagreed = 0;
    // Per time bucket (as the limiters' buckets), for runs of at most
    // AgreementCounters::kMaxBucketedLimiters limiters; empty otherwise.
    QVector<qint64> bucketDisagreed;
};

// A Sentinel failover seen during a run: the primary the workers decide on changed address.
struct FailoverEvent {
    qint64 atUs = 0;  // run time of the first decision round on the new primary
    QString from;     // "host:port" of the primary before
    QString to;       // and after
};

// A consistent-enough view of a run, cheap to take while it runs.
struct RunSnapshot {
    QString scenarioName;
    qint64 startEpochMs = 0;  // run time 0 on the run's clock (virtual or real), epoch ms
    qint64 bucketMs = 100;
    qint64 durationUs = 0;
    qint64 elapsedUs = 0;       // run time reached so far (at most durationUs)
    bool finished = false;      // every worker is done (its schedule ran out, or it was stopped)
    bool stoppedEarly = false;  // stopped before the schedule ran out (requestStop)
    // Why the run stopped itself before its schedule ran out (a user's script past Redis's
    // busy limit: Worker); empty when it did not (stoppedEarly is then the caller's stop).
    QString stopCause;
    qint64 finishedAtUs = 0;  // finished runs: run time when the last decision was made (late
                              // workers and wait-mode retries can take it past durationUs)
    qint64 scheduled = 0;     // requests whose send time has come
    double targetRate = 0;    // requests/s over the whole run (the shape's integral / duration)
    QVector<double> bucketTargetRate;  // requests/s at each bucket's start
    LatencyHistogram::Snapshot lag;    // us, actual send time minus scheduled send time
    QVector<LimiterSnapshot> limiters;
    // Try mode: every limiter decides every request once, at the same time, so their decisions
    // compare request by request (wait mode's retries give each limiter its own stream).
    bool sameRequests = false;
    QVector<LimiterDisagreement> disagreements;  // every pair; counted in try mode only
    // Sentinel URLs: each change of primary, by time (several workers seeing one change: once).
    QVector<FailoverEvent> failovers;
    // The run's clock: virtual (decisions repeat exactly; at speed 0 latencies are 0 too) or
    // real (speed 1).
    bool virtualClock = false;
    double clockSpeed = 1.0;
    // Traffic "round_trips": "per_limiter": each limiter's latency is its own round trip;
    // otherwise the limiters of a batch share one, and their latencies with it.
    bool roundTripPerLimiter = false;
    // How the run's decisions shared round trips (every worker's batches), and the traffic's
    // "pipeline" and "threads" as asked.
    PipelineUse pipeline;
    int pipelineRequested = 1;
    int threadsRequested = 1;
    // Finished runs: the scenario's expectations checked ("expect"); empty when it has none.
    QVector<ExpectationResult> expectations;
};

}  // namespace ratelab
