#pragma once

#include <QString>

#include "stats/run_snapshot.h"

namespace ratelab {

// Writes the output folder of a run: the one function behind `ratelab run --out DIR` and the
// window's "Save as output folder…". report.png (reportPng) and report.html (reportHtml, from
// the run's summary) are rendered first, then summary.json, buckets.csv and both are written by
// writeOutputFiles (output/output_folder.h), each to a temporary file renamed into place, so
// that `ratelab compare` and "compare with…" read it like any other. The folder is made when
// missing. Returns false and sets *error (naming the folder or file) on failure.
bool writeOutputFolder(const RunSnapshot& run, const QString& dir, QString* error);

}  // namespace ratelab
