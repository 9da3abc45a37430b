#pragma once

#include <QMap>
#include <QString>
#include <QVector>
#include <optional>
#include <vector>

#include "input_limits.h"
#include "limiters/limiter_spec.h"
#include "output/output_format.h"
#include "output/pipeline_summary.h"
#include "stats/admitted_burst.h"
#include "stats/expectation.h"
#include "stats/run_snapshot.h"

namespace ratelab {

// A run as its output folder holds it: every figure of summary.json, typed, and the counts per
// bucket of buckets.csv. The writer makes one from a RunSnapshot (summaryOf) and writes it; the
// reader reads one back (output_folder.h), equal field by field. Figures a summary of an older
// ratelab lacks read as 0 (fairness 1, clock speed 1) or empty.

// Percentiles of a histogram, in ms (latency, waited, schedule lag).
struct Percentiles {
    qint64 count = 0;  // values recorded
    double p50Ms = 0;
    double p90Ms = 0;
    double p99Ms = 0;
    double p999Ms = 0;
    double maxMs = 0;
    double meanMs = 0;
};

// A limiter's counts per bucket (buckets.csv), each as long as the run's bucketTargetRate.
struct BucketCounts {
    QVector<qint64> accepted;
    QVector<qint64> rejected;
    QVector<qint64> errors;
    QVector<qint64> errorsOpen;
    QVector<qint64> errorsClosed;
    // A limiter whose grants hold slots, under a traffic with a hold: the grants released in
    // each bucket and those made then that never release (the in-flight view); empty otherwise.
    QVector<qint64> released;
    QVector<qint64> leaked;
};

struct ClientSummary {
    QString client;
    QString group;  // its traffic group; empty without groups
    OutcomeTotals counts;
    std::vector<BusiestInterval> admittedBurst;  // the limiter's clock
};

// A traffic group's figures at one limiter (its clients' added up).
struct GroupSummary {
    QString group;
    qint64 clients = 0;
    OutcomeTotals counts;
    double fairness = 1;  // Jain's index over the group's clients' accepted counts
    std::vector<BusiestInterval> admittedBurst;          // ascending by window
    std::vector<BusiestInterval> admittedBurstRunClock;  // ascending by window
    // Per bucket (buckets.csv's group columns): the group's accepted and rejected requests, as
    // long as the run's bucketTargetRate; empty when buckets.csv was not read or has no columns
    // of this group (written before ratelab kept them).
    QVector<qint64> bucketAccepted;
    QVector<qint64> bucketRejected;

    const std::vector<BusiestInterval>& admittedBurstOn(BurstClock clock) const {
        return clock == BurstClock::Run ? admittedBurstRunClock : admittedBurst;
    }
};

// The clients a limiter's summary does not list one by one (past
// output_limits::kMaxListedClients): how many, and their counts added up. No clients when every
// client is listed.
struct OtherClients {
    qint64 clients = 0;
    OutcomeTotals counts;
};

struct LimiterSummary {
    QString name;
    QString type;     // limiterTypeName
    QString onError;  // failurePolicyName
    // The limiter's configuration; none in a summary written before it was kept, or one whose
    // spec this build cannot read.
    std::optional<LimiterSpec> spec;
    OutcomeTotals counts;
    qint64 attempts = 0;
    LeaseCounts leases;
    // A script limiter with a "reference": the decisions both made and how many of them the
    // reference made otherwise are in counts.reference (summary.json's compared_with_reference
    // and disagreements_with_reference; absent for every other limiter).
    bool hasReference = false;
    // -1: not reported (one gateway, shared); else the decisions that called Redis, and per
    // gateway its decisions and calls.
    qint64 redisCalls = -1;
    QVector<GatewayCounts> gateways;
    QMap<QString, qint64> errorsByCause;  // errorCauseName -> count, non-zero ones
    bool accountingExact = true;          // fired == accepted + rejected + errors
    Percentiles latency;
    Percentiles waited;
    double fairness = 1;  // Jain's index over the clients' accepted counts
    // Every client when they are at most output_limits::kMaxListedClients, else the ones that
    // sent the most requests (ties: the earlier client), in the clients' order; the rest in
    // otherClients. The counts above are the limiter's exact totals either way.
    QVector<ClientSummary> clients;
    QVector<GroupSummary> groups;  // the traffic's groups in its order; empty without groups
    OtherClients otherClients;
    std::vector<BusiestInterval> admittedBurst;          // ascending by window
    std::vector<BusiestInterval> admittedBurstRunClock;  // ascending by window
    BucketCounts buckets;
    // A limiter with a reference: its disagreements with it per bucket (empty otherwise, or
    // when buckets.csv has no such column).
    QVector<qint64> bucketDisagreed;

    const std::vector<BusiestInterval>& admittedBurstOn(BurstClock clock) const {
        return clock == BurstClock::Run ? admittedBurstRunClock : admittedBurst;
    }
};

// Two limiters that decided the same requests (try mode): both decided `compared`, one
// accepted and the other rejected `disagreed`.
struct DisagreementSummary {
    QString a;
    QString b;
    qint64 compared = 0;
    qint64 disagreed = 0;
};

// A Sentinel failover during the run (RunSnapshot::failovers), with what each limiter admitted
// around it: asynchronous replication may lose the writes of the last moments before it, so the
// new primary can admit more than the limit (a lesson, not a silent surprise).
struct FailoverSummary {
    double atMs = 0;  // run time
    QString from;     // the old primary, "host:port"
    QString to;       // the new one
    // Per limiter (in the run's order): accepted within kFailoverSpanMs either side of atMs,
    // counted from the run's buckets.
    QVector<QPair<QString, qint64>> acceptedAround;
};

// How far either side of a failover FailoverSummary::acceptedAround counts.
inline constexpr qint64 kFailoverSpanMs = 1000;

// The run's failovers with what each limiter accepted around them (summaryOf's "failovers").
QVector<FailoverSummary> failoversOf(const RunSnapshot& run);

struct RunSummary {
    int format = output_format::kFormat;  // the summary's "format" as read
    QString scenario;
    bool virtualClock = false;
    double clockSpeed = 1;
    bool roundTripPerLimiter = false;  // traffic "round_trips": "per_limiter"
    PipelineSummary pipeline;          // absent in older summaries: all 0
    // Each expectation checked, in the scenario's order: its limiter is the limiter's own name
    // (a "*" expectation gives one per limiter); measured NaN when the run has no such figure.
    // summary.json's "expression" is expectation.text().
    QVector<ExpectationResult> expectations;
    // "incomplete" (output_format::verdict) when verdictReason says why the run's figures cannot
    // judge it (run_verdict.h); else the expectations' verdict: "passed", "failed" or "none".
    QString verdict;
    QString verdictReason;
    qint64 startEpochMs = 0;
    double durationS = 0;  // the schedule's length
    double runS = 0;       // what the run covered (a stopped run: until it stopped)
    bool finished = false;
    bool stoppedEarly = false;
    QMap<QString, qint64> errorsByCause;  // over all limiters
    qint64 bucketMs = 100;
    qint64 requests = 0;  // sent
    double targetRate = 0;
    double achievedRate = 0;
    Percentiles scheduleLag;
    QVector<LimiterSummary> limiters;
    QVector<DisagreementSummary> disagreements;  // try mode, two limiters or more; else empty
    QVector<FailoverSummary> failovers;          // Sentinel URLs: each change of primary
    // buckets.csv: the target rate at each bucket's start (its length is the bucket count);
    // the counts are in each limiter's `buckets`. Empty when buckets.csv was not read.
    QVector<double> bucketTargetRate;

    // The limiter of that name, or null.
    const LimiterSummary* find(const QString& name) const;
};

// Everything summary.json and buckets.csv hold of a run: the percentiles computed, the
// expectations with their limiter's own name, the counts per bucket of every limiter (and the
// target rate) as long as the first limiter's, at most `maxListedClients` clients of a limiter
// one by one (the rest in its otherClients).
RunSummary summaryOf(const RunSnapshot& run,
                     int maxListedClients = output_limits::kMaxListedClients);

// The traffic groups with a series per bucket (GroupSummary::bucketAccepted) at any limiter,
// each name once, in the traffic's order: buckets.csv's group columns and the report's lines.
QStringList groupsWithSeries(const RunSummary& summary);

// The run time a run covered (µs): a stopped run until it stopped, a finished one its schedule
// or past it (late workers, wait-mode retries), a running one so far.
qint64 runLengthUs(const RunSnapshot& run);
// Requests sent per second of run time so far (finished runs: over their whole length).
double achievedRate(const RunSnapshot& run);
// Every limiter's errors by cause, added up (largest first).
QVector<ErrorCauseCount> runErrorCauses(const RunSnapshot& run);

}  // namespace ratelab
