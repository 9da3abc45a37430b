#pragma once

#include <QtGlobal>
#include <vector>

#include "stats/admitted_burst.h"
#include "stats/client_groups.h"

namespace ratelab {

// One accepted decision of one client, on both clocks an admitted burst is counted on
// (BurstClock): the run's own time of the decision and the time the limiter decided at (the now
// its script was given, or the time it reports it used instead: the token bucket's latest
// release, Redis's TIME), both in ms since the run's start; and the permits it granted.
// 24 bytes: a request's permits are at most 1e9.
struct AcceptedRecord {
    qint64 runMs = 0;
    qint64 limiterMs = 0;
    qint32 client = 0;
    qint32 permits = 0;
};

// The accepted decisions one worker saw at one limiter, in the order it recorded them, for the
// admitted-burst metric (stats/admitted_burst.h). Single writer; read only after the writer is
// done (the run's workers have returned). Memory: at most one record per accepted request, and
// a decision at the same milliseconds (both clocks) for the same client as the one before
// merges into it. A
// run's accepted requests are at most its requests, which the scenario's memory budget counts
// (scenario/scenario_budget.cpp, "accepted log").
class AcceptedLog {
public:
    void record(qint64 runMs, qint64 limiterMs, int client, qint64 permits);
    const std::vector<AcceptedRecord>& records() const { return records_; }

private:
    std::vector<AcceptedRecord> records_;
};

// The busiest intervals of one limiter: over all its accepted decisions on the limiter's clock
// and on the run's, per client on the limiter's clock, and per traffic group on both.
struct AdmittedBursts {
    std::vector<BusiestInterval> overall;                        // BurstClock::Limiter
    std::vector<BusiestInterval> overallRunClock;                // BurstClock::Run
    std::vector<std::vector<BusiestInterval>> perClient;         // empty unless asked for
    std::vector<std::vector<BusiestInterval>> perGroup;          // BurstClock::Limiter
    std::vector<std::vector<BusiestInterval>> perGroupRunClock;  // BurstClock::Run
};

struct LimiterSnapshot;

// Puts a limiter's busiest intervals into its snapshot: overall, per client, per group.
void applyAdmittedBursts(const AdmittedBursts& bursts, LimiterSnapshot& limiter);

// `logs`: every worker's log of one limiter. For each window of `windowsMs` (ascending) the
// busiest interval overall on both clocks, per client (clients 0..clients-1) on the limiter's
// clock when perClient is set, and per group of `groups` (none when empty) on both clocks.
AdmittedBursts admittedBursts(const std::vector<const AcceptedLog*>& logs,
                              const std::vector<qint64>& windowsMs, int clients, bool perClient,
                              const ClientGroups& groups = {});

}  // namespace ratelab
