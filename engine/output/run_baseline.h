#pragma once

#include <QString>

#include "output/run_summary.h"

namespace ratelab {

// A run to compare another against (the window's "compare with…"): its summary, from which the
// comparison table shows each limiter's figures and the timelines overlay its accepted and
// rejected counts per time bucket. Made from a run of the window's history (a RunSnapshot) or
// read back from an output folder of `ratelab run --out` (summary.json and buckets.csv). The
// per-client rows are left out: the window shows none of them.
struct RunBaseline {
    QString label;  // "#3" (a run of the window's history) or the output folder's name
    RunSummary run;

    // The limiter of that name, or null.
    const LimiterSummary* find(const QString& name) const { return run.find(name); }
};

// The figures of a finished run. `label` names it in legends and headers ("#3").
RunBaseline baselineFromSnapshot(const RunSnapshot& run, const QString& label);

// Reads an output folder written by `ratelab run --out` (or the window's "Save as output
// folder…") with readOutputFolder: summary.json for the totals and buckets.csv for the counts
// per bucket. A folder without buckets.csv, or a malformed file, is an InputError naming the
// file and the JSON path or line. The label is the folder's name.
RunBaseline readBaselineFolder(const QString& dir);

}  // namespace ratelab
