#pragma once

#include <QtGlobal>
#include <vector>

#include "stats/admitted_burst.h"

namespace ratelab {

// One accepted decision of one client: the run's own time of the decision (ms since the run's
// start; not the limiter's time, which a skewed client clock or Redis TIME shifts) and the
// permits it granted. 16 bytes: a request's permits are at most 1e9.
struct AcceptedRecord {
    qint64 ms = 0;
    qint32 client = 0;
    qint32 permits = 0;
};

// The accepted decisions one worker saw at one limiter, in the order it recorded them, for the
// admitted-burst metric (stats/admitted_burst.h). Single writer; read only after the writer is
// done (the run's workers have returned). Memory: at most one record per accepted request, and
// a decision at the same millisecond for the same client as the one before merges into it. A
// run's accepted requests are at most its requests, which the scenario's memory budget counts
// (scenario/scenario_budget.cpp, "accepted log").
class AcceptedLog {
public:
    void record(qint64 ms, int client, qint64 permits);
    const std::vector<AcceptedRecord>& records() const { return records_; }

private:
    std::vector<AcceptedRecord> records_;
};

// The busiest intervals of one limiter: over all its accepted decisions, and per client.
struct AdmittedBursts {
    std::vector<BusiestInterval> overall;
    std::vector<std::vector<BusiestInterval>> perClient;  // empty unless asked for
};

// `logs`: every worker's log of one limiter. For each window of `windowsMs` (ascending) the
// busiest interval overall, and per client (clients 0..clients-1) when perClient is set.
AdmittedBursts admittedBursts(const std::vector<const AcceptedLog*>& logs,
                              const std::vector<qint64>& windowsMs, int clients, bool perClient);

}  // namespace ratelab
