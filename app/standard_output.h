#pragma once

#include <QByteArray>
#include <QString>

namespace ratelab::cli {

// stdout of the headless commands, and the one rule when it cannot be written (a full disk, a
// reader that went away as `| head` does: SIGPIPE is ignored, so the write fails with EPIPE):
// stderr says why, and the exit code is 4 where it would have been 0 (runGuarded checks stdout
// after every command). A command that prints as it goes (trace import, watch, replay) writes
// through writeStdout and stops at the first failure.

// stdout did not take a write: `error` is its errno; `detail` what the command had done by
// then ("the replay stopped after deciding 5 of 9 rows"), empty when nothing needs saying.
struct StdoutFailed {
    int error = 0;
    QString detail;
};

// Sends stdout through a stream that remembers why its first write failed (ENOSPC, EPIPE), so
// that the message names the system's reason; runGuarded installs it before every command.
void installStdout();

// Writes `bytes` to stdout and flushes it; throws StdoutFailed when stdout does not take them.
void writeStdout(const QByteArray& bytes);

// Flushes stdout: 0 when everything written to it so far went out, else the errno of the first
// write that failed.
int flushStdout();

// "stdout: cannot write: No space left on device[; DETAIL]".
QString stdoutFailedText(const StdoutFailed& failed);

}  // namespace ratelab::cli
