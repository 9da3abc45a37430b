#pragma once

#include <QString>
#include <QVector>

#include "output/run_summary.h"

namespace ratelab {

// A run to compare another against (the window's "compare with…"): per limiter the figures the
// comparison table shows and the accepted and rejected counts per time bucket the timelines
// overlay. Made from a run of the window's history (a RunSnapshot) or read back from an output
// folder of `ratelab run --out` (summary.json and buckets.csv).
struct BaselineLimiter {
    QString name;
    qint64 fired = 0;
    qint64 accepted = 0;
    qint64 rejected = 0;
    qint64 errors = 0;
    qint64 errorsOpen = 0;
    qint64 errorsClosed = 0;
    qint64 latencyCount = 0;  // decisions timed
    double p50Ms = 0;
    double p99Ms = 0;
    double latencyMaxMs = 0;  // 0 with decisions timed: a virtual clock's (no latency)
    double fairness = 1;
    QVector<qint64> bucketAccepted;
    QVector<qint64> bucketRejected;
};

struct RunBaseline {
    QString label;  // "#3" (a run of the window's history) or the output folder's name
    QString scenarioName;
    qint64 bucketMs = 100;
    double runSeconds = 0;  // what the run covered (its buckets end here)
    QVector<BaselineLimiter> limiters;

    // The limiter of that name, or null.
    const BaselineLimiter* find(const QString& name) const;
};

// The baseline's figures of a run's summary. `label` names it in legends and headers ("#3").
RunBaseline baselineOf(const RunSummary& summary, const QString& label);
// baselineOf(summaryOf(run), label): the figures of a finished run.
RunBaseline baselineFromSnapshot(const RunSnapshot& run, const QString& label);

// Reads an output folder written by `ratelab run --out` (or the window's "Save as output
// folder…") with readOutputFolder: summary.json for the totals and buckets.csv for the counts
// per bucket. A folder without buckets.csv, or a malformed file, is an InputError naming the
// file and the JSON path or line. The label is the folder's name.
RunBaseline readBaselineFolder(const QString& dir);

}  // namespace ratelab
