#pragma once

#include <QString>
#include <QStringList>

namespace ratelab {

// Where `ratelab run` writes: its output folder (--out) and, when given, a JUnit file (--junit).
// Checked before the run sends anything to Redis, so a path that cannot be written costs no run
// and hides no verdict.
struct OutputTargets {
    QString dir;    // the output folder
    QString junit;  // empty: none
};

// Makes the output folder when missing and checks that every output can be written: the folder
// is a folder a file can be created in; each of its files that exists is a file (not a folder);
// the JUnit file is not a folder, its folder exists and takes a new file, an existing special
// file (/dev/null, a named pipe) is writable, and it is none of the output folder's own files.
// An InputError naming the option (--out or --junit) and the path otherwise.
void checkOutputTargets(const OutputTargets& targets);

// Removes what an earlier run left at these targets (the folder's summary.json, buckets.csv,
// report.png, report.html and the JUnit file; regular files only), so a run that fails before it
// writes leaves no earlier run's results in place. Returns the paths it removed. An InputError
// naming the path when one cannot be removed.
QStringList removeEarlierOutputs(const OutputTargets& targets);

// The files of an output folder, as writeOutputFiles and the window's report write them.
QStringList outputFolderFiles();

}  // namespace ratelab
