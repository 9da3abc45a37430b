#pragma once

#include <QString>

#include "scenario/scenario.h"

namespace ratelab {

// What a scenario's run will hold in memory, in bytes, computed before anything is allocated
// from the engine's own data structures: the workers' counters (RunStats), the snapshots the
// runner hands out, the client tables (RequestFactory), the replay trace and buckets.csv.
struct MemoryEstimate {
    qint64 workers = 0;  // threads, or 1 on a virtual clock
    qint64 limiters = 0;
    qint64 buckets = 0;
    qint64 clients = 0;
    qint64 traceRows = 0;

    qint64 bucketCounters = 0;  // workers × limiters × 5 × buckets counters
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

    qint64 total() const {
        return bucketCounters + otherCounters + snapshots + clientTables + trace + csv +
               acceptedLog + burstFigures;
    }
};

MemoryEstimate estimateMemory(const Scenario& scenario);

// Throws an InputError naming the JSON path that drives the largest part ($.bucket_ms,
// $.traffic.clients or $.traffic.shape.trace), the estimate, its make-up and the limit, when
// the estimate is above limitBytes.
void checkMemoryBudget(const Scenario& scenario, qint64 limitBytes);

// Every traffic shape stays within scenario_limits::kMaxRate at its peak (peakRate()); throws
// an InputError naming the field under `shapePath` and the computed rate otherwise.
void checkShapeRate(const TrafficSpec& traffic, const QString& shapePath);

// A memory size as people write it: "4GiB", "512 MiB", "1.5G", "1073741824" (bytes). K, M, G
// and T and their KiB... forms are powers of 1024; KB, MB, GB and TB powers of 1000. From 1 MiB
// to 1 PiB; anything else is an InputError at `where`.
qint64 parseMemorySize(const QString& text, const QString& where);
// "1 GiB", "9.5 GiB", "610 MiB", "12 KiB", "300 bytes".
QString formatBytes(qint64 bytes);

}  // namespace ratelab
