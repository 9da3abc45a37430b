#pragma once

#include <QString>

#include "memory_size.h"
#include "scenario/scenario.h"
#include "stats/run_stats.h"

namespace ratelab {

// What a scenario's run will hold in memory, in bytes, computed before anything is allocated
// from the engine's own data structures: the workers' counters (RunStats), the snapshots the
// runner hands out, the client tables (RequestFactory), the replay trace, buckets.csv, the
// outputs built in memory (summary.json and report.html list at most
// output_limits::kMaxListedClients clients a limiter, so they stay bounded) and the program
// itself. A run's peak resident memory stays within it (tst_memory_budget measures it).
struct MemoryEstimate {
    qint64 workers = 0;  // threads, or 1 on a virtual clock
    qint64 limiters = 0;
    qint64 buckets = 0;
    qint64 clients = 0;
    qint64 traceRows = 0;

    qint64 bucketCounters = 0;  // workers × limiters × (5 + extra) × buckets counters
    qint64 otherCounters = 0;   // per-client counters, totals, latency histograms
    qint64 snapshots = 0;       // the snapshots held at once (per-bucket series, client totals)
    qint64 clientTables = 0;    // client names and weights
    qint64 trace = 0;           // replay: rows, offsets, row -> client
    qint64 csv = 0;             // buckets.csv text
    qint64 requests = 0;        // the shape's requests over the run
    qint64 acceptedLog = 0;     // the accepted decisions kept for the admitted-burst metric
    // A finished run's admitted bursts per client and per traffic group (both clocks), every
    // limiter and window, as the runner keeps them and its snapshots copy them; the groups'
    // totals in the snapshots.
    qint64 burstFigures = 0;
    qint64 listedClients = 0;  // a limiter's clients listed one by one in the outputs
    qint64 outputs = 0;        // summary.json and report.html in memory: rows and report
    // summary.json as the writer builds it (summary_size.h): its JSON tree, its text (grown to
    // at most twice its length), and the admitted-burst figures of its rows in the two
    // RunSummary copies the outputs are made from.
    qint64 summaryFigures = 0;  // admitted-burst figures it lists
    qint64 summaryText = 0;     // its length at most (part of summaryJson)
    qint64 summaryJson = 0;
    qint64 program = 0;  // the program itself: Qt, fonts, code

    qint64 total() const {
        return bucketCounters + otherCounters + snapshots + clientTables + trace + csv +
               acceptedLog + burstFigures + outputs + summaryJson + program;
    }
};

MemoryEstimate estimateMemory(const Scenario& scenario);

// The per-bucket series a run of `traffic` keeps besides the outcomes (RunStats): the leases'
// with a "hold", each gateway's admissions with more than one gateway.
ExtraBucketSeries extraBucketSeries(const TrafficSpec& traffic);

// Throws an InputError naming the JSON path that drives the largest part ($.bucket_ms,
// $.traffic.clients or $.traffic.shape.trace), the estimate, its make-up and the limit, when
// the estimate is above limitBytes.
void checkMemoryBudget(const Scenario& scenario, qint64 limitBytes);

// What reading a scenario's replay trace may cost under maxMemoryBytes (readTraceFile refuses
// a file whose lines could not fit before reading a row): besides the trace's own 16 bytes a
// row, a run of `limiters` limiters keeps per request its schedule offset and up to one
// accepted-decision record per limiter, and three more while the admitted burst is computed.
TraceBudget traceBudget(qint64 limiters, qint64 maxMemoryBytes);

// Every traffic shape stays within scenario_limits::kMaxRate at its peak (peakRate()); throws
// an InputError naming the field under `shapePath` and the computed rate otherwise.
void checkShapeRate(const TrafficSpec& traffic, const QString& shapePath);

}  // namespace ratelab
