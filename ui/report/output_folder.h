#pragma once

#include <QString>

#include "output/output_folder.h"
#include "report/page_kit.h"
#include "stats/run_snapshot.h"

namespace ratelab {

// Writes the output folder of a run: the one function behind `ratelab run --out DIR` and the
// window's "Save as output folder…". report.png (reportPng) and report.html (reportHtml, from
// the run's summary) are rendered first, then summary.json, buckets.csv and both are written by
// writeOutputFiles (output/output_folder.h), each whole or not at all, so that `ratelab compare`
// and "compare with…" read it like any other. The folder is made when missing. Says which files
// were written and names each one that was not (a report that could not be rendered too).
// `scheme`: the look of the reports, the reader's (Auto: report.png light, report.html as the
// browser prefers) or a window theme's (both light, or both dark).
FolderWrite writeOutputFolder(const RunSnapshot& run, const QString& dir,
                              page_kit::Scheme scheme = page_kit::Scheme::Auto);

}  // namespace ratelab
