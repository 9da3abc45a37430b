#pragma once

#include <QString>

#include "stats/run_snapshot.h"

namespace ratelab {

// Writes the output folder of a run, the same files `ratelab run --out DIR` writes:
// summary.json (summaryJson), buckets.csv (bucketsCsv), report.png (writeReportPng) and
// report.html (writeReportHtml), so that `ratelab compare` reads it like any other. The folder
// is made when missing. Returns false and sets *error (naming the file) on failure.
bool writeOutputFolder(const RunSnapshot& run, const QString& dir, QString* error);

}  // namespace ratelab
