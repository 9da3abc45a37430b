#pragma once

#include <QString>
#include <QStringList>

namespace ratelab {

// Where a command (`ratelab run`, `ratelab sweep`) writes: its output folder (--out) with the
// files it writes there, and when given, a JUnit file (--junit). Checked before the command sends
// anything to Redis, so a path that cannot be written costs no run and hides no verdict.
struct OutputTargets {
    QString command;    // "run", "sweep": named in messages ("the run's own summary.json")
    QString dir;        // the output folder
    QString junit;      // empty: none
    QStringList files;  // the folder's files the command writes (run: outputFolderFiles())
    QString input;      // the scenario file the command reads: never one of its outputs
};

// Before a command reads its scenario: refuses a target that is the scenario file itself (an
// InputError, nothing removed), removes what an earlier command left at the targets
// (removeEarlierOutputs), then checks them (checkOutputTargets). A command that fails from here
// on, whatever its exit code, leaves no earlier results in place: every output file there
// afterwards it wrote anew.
void prepareOutputTargets(const OutputTargets& targets);

// Makes the output folder when missing and checks that every output can be written: the folder
// is a folder a file can be created in; each of the command's files in it that exists is a file
// (not a folder); the JUnit file is not a folder, its folder exists and takes a new file, an
// existing special file (/dev/null, a named pipe) is writable, and it is none of the command's
// own files in the folder.
// An InputError naming the option (--out or --junit) and the path otherwise.
void checkOutputTargets(const OutputTargets& targets);

// Removes what an earlier command left at these targets (the command's files in the folder and
// the JUnit file; regular files only, never through a symbolic link), so a command that fails
// before it writes leaves no earlier results in place. Returns the paths it removed. An
// InputError naming the path when one cannot be removed.
QStringList removeEarlierOutputs(const OutputTargets& targets);

// The files of a run's output folder, as writeOutputFiles and the window's report write them.
QStringList outputFolderFiles();

}  // namespace ratelab
