#pragma once

#include <QString>
#include <QStringList>

#include "output/output_paths.h"
#include "output/run_summary.h"
#include "scenario/scenario.h"

namespace ratelab::cli {

// What `ratelab run` writes besides stdout: the output folder (--out) and the JUnit file
// (--junit). Before the run: an earlier run's files removed and the paths checked
// (prepareOutputTargets, output/output_paths.h). After it: written, each failure named instead
// of hiding the summary.

// Writes the run's output folder and the JUnit file of its verdict, each file whole or not at
// all. Returns one message per file that could not be written ("/dev/full: cannot write: No
// space left on device"); the files written are printed to stdout ("wrote …").
QStringList writeRunOutputs(const RunSnapshot& run, const RunSummary& summary,
                            const OutputTargets& targets);

// A run that measured nothing (Redis could not be reached at its start): the JUnit file, when
// asked for, reports every expectation of the scenario as an error with `reason`, so that no
// earlier run's passing JUnit stands in for it. A failure to write it goes to stderr.
void writeUnmeasuredJUnit(const OutputTargets& targets, const Scenario& scenario,
                          const QString& reason);

// "wrote DIR/{a,b}" (or "wrote DIR/a") on stdout, for the files `names` written into `dir`;
// nothing when there are none.
void printWritten(const QString& dir, const QStringList& names);

// The exit code of a command whose verdict is code `verdictCode` and whose output files
// `failures` could not all be written: each failure printed, then the verdict's code, or
// kOutputFailed when that is 0. (stdout is runGuarded's to check.)
int outputExitCode(int verdictCode, const QStringList& failures);

}  // namespace ratelab::cli
